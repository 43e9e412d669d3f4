"""The command-line tools beside the bot: ``simulate`` (whole matches between computers),
``arena`` (two levels in duplicate) and ``verify`` (a revealed deal checked and dealt).
Imports: every layer below; nothing imports them but the command line and the tests."""
