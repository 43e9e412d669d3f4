"""The computer at the table: the levels (one way to choose a move each), thinking off the
event loop in worker processes within a time budget, the strong level's 💡 hints (``coach``)
and the 🔍 review of a finished deal (``analysis``). Imports: ``core`` and ``families``.
"""
