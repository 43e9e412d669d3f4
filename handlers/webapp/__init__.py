"""The Mini App (issue #18): the table as a page beside the chat, served by the bot itself.

One job a module: ``auth`` checks the ``initData`` Telegram signs for the page; ``hub``
nudges the open page streams of a table on each committed change; ``server`` is the HTTP
side (the payload, its stream, a move).
"""
