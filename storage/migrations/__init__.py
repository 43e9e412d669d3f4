"""Numbered SQL migrations (``NNN_name.sql``), applied in order by ``storage.migrate``."""
