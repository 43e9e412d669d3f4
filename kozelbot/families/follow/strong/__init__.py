"""The follow-suit games' ``strong`` computer player (issue #17): ``decide``."""

from kozelbot.families.follow.strong.player import decide, searches

__all__ = ["decide", "searches"]
