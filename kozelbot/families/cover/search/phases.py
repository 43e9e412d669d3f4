"""What a search position waits for, as small ints (the engine's ``Phase`` of a game in
play, and the end of the game), and the conversion both ways."""

from __future__ import annotations

from kozelbot.families.cover.vocabulary import Phase

LEAD, ANSWER, REBEAT, LEVEL, OVER = range(1, 6)
"""A lead (claims open), an answer (claims open), the classic re-beat or Відбій, the
levelling after a trick, and the end of the game (scored, or four of a kind)."""
PHASES: dict[Phase, int] = {
    Phase.LEAD: LEAD,
    Phase.ANSWER: ANSWER,
    Phase.REBEAT: REBEAT,
    Phase.LEVEL: LEVEL,
}
"""The engine's phases of a game in play, as the search's."""
ENGINE_PHASES: dict[int, Phase] = {value: phase for phase, value in PHASES.items()}
