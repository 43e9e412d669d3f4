"""The families of Kozel, one package each behind the game protocol (``kozelbot.core``).

``follow`` holds the follow-suit games (hvalenyi, kryuk, sixes, belka), ``cover`` the
cover-to-beat game; each keeps its rules, its computer players and what a reader sees of it
inside its own folder and exports ``FAMILY``: its ``Rules``, ``Players`` and ``Reader``
(``kozelbot.core.protocol``) over its own state, action, event and view types. ``registry``
names every preset and hands each user its side of a variant's family (``rules_of``,
``players_of``, ``reader_of``). Imports: ``kozelbot.core``; a family never imports the other.
"""
