"""What a reader sees, as pure functions of what they may see: the group's and a hand's
messages (``screens``), the lobby, help and errors (``general``), fair play's seals, /top,
/stats and /history (``boards``), the 💡/🔍 lines (``advice``), the Mini App's page and replay
(``page``, ``frames``, ``replay``, ``links``) and the tournament's posts and picture
(``tournament``). Imports: ``core``, ``families`` and ``computer`` — never the tables.
"""
