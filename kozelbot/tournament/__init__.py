"""Tournaments in a group (issue #19): registration, a fair draw, rounds on a clock,
standings, a champion.

``model`` is the stored document; ``draw`` (rotating tables) and ``pairing`` (fixed pairs:
round robin or Swiss) make each round once; ``standings`` ranks and builds the cross table
(``board``'s plain data); ``picture`` draws it as a PNG; ``director`` moves a tournament
along (no Telegram, no SQL).
"""
