"""The tables: everything a move goes through, one at a time per game.

The game service (``service``: reading and the running match) with its lobby (``lobby``: who
sits at a table), both on one lock, load and commit (``committing``) and its table
cache, a move applied and the computers and timers run after it (``turns``), who sits where
(``seating``), what a game owes the records and the group's durable posts (``ledger``,
``posts``), what the service needs of storage (``repository``), what the bot's edges read
and write besides the moves (``queries``), and the tournament's side of
the tables: a drawn table's seats and result (``tournament_table``) and the director that
runs the rounds (``director``). Imports: ``core``, ``families``, ``computer``.
"""
