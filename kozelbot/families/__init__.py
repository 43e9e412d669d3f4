"""The families of Kozel, one package each behind the game protocol (``kozelbot.core``).

``follow`` holds the follow-suit games (hvalenyi, kryuk, sixes, belka), ``cover`` the
cover-to-beat game; each keeps its rules, its computer players and what a reader sees of it
inside its own folder. ``registry`` names every preset and finds a variant's family. Imports:
``kozelbot.core``; a family never imports the other.
"""
