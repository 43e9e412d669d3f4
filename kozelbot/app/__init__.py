"""The composition root: builds the PTB ``Application`` and wires storage, service and handlers
(``build``), and runs the bot's processes (``run``).

The only part of ``kozelbot`` that sees Telegram, the database and the handlers at once;
nothing imports it but ``kozelbot.__main__`` (and tests/benchmarks that run the real bot).
"""

from kozelbot.app.build import AppData, KozelApplication, build_application
from kozelbot.app.run import export_match, run, run_intake, run_worker

__all__ = [
    "AppData",
    "KozelApplication",
    "build_application",
    "export_match",
    "run",
    "run_intake",
    "run_worker",
]
