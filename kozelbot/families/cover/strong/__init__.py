"""The cover game's ``strong`` computer player (issue #17): ``decide``."""

from kozelbot.families.cover.strong.player import decide, searches

__all__ = ["decide", "searches"]
