"""A tournament as data (issue #19): the stored document, the ``rotating`` draw, the ``pairs``
pairing and the standings — pure functions of the stored rounds, no table, no text."""
