"""The game core: what every family and every table stands on, with nothing of any family.

Cards, seat geometry, table options, the game protocol a family speaks (``protocol``), the
records that cross the storage boundary, the table document (``table``), provably fair
shuffles, skill ratings, the typed callback data of buttons, translations (``i18n``) and the
small text pieces every family shares (``texts``, ``fit``), the pure tournament parts
(draw, pairing, standings), and what an operator sees of every layer: the ``metrics`` each
reports to and the ``logs``' context, formats and redaction. Imports: the standard library
and third-party libraries only — nothing else of ``kozelbot``.
"""
