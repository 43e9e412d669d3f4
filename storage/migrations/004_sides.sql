-- 004_sides: results of games with more than two sides (the cover game's each-for-self mode
-- seats up to four players, each a side). The two-column `*_0`/`*_1` fields keep the first
-- two sides, so every reader before this migration still works; `deals.sides` and
-- `matches.scores` hold every side's figures as JSON when there are more. `matches` and
-- `match_players` are rebuilt without the CHECKs that allowed only sides 0 and 1 (the child
-- first, so that dropping the old parent cascades to nothing).

ALTER TABLE deals ADD COLUMN sides TEXT;

CREATE TABLE matches_new (
    game_id     INTEGER PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    chat_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    -- JSON object of the variant options
    options     TEXT    NOT NULL,
    -- the winning side: a pair (0 or 1), or a seat (0..3) when each plays for self
    winner_side INTEGER NOT NULL CHECK (winner_side BETWEEN 0 AND 3),
    score_0     INTEGER NOT NULL,
    score_1     INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    -- JSON {"score": [...]} when there are more than two sides, else NULL
    scores      TEXT
);
INSERT INTO matches_new (game_id, chat_id, variant, options, winner_side, score_0, score_1,
                         deals, finished_at)
    SELECT game_id, chat_id, variant, options, winner_side, score_0, score_1, deals,
           finished_at FROM matches;

CREATE TABLE match_players_new (
    game_id INTEGER NOT NULL REFERENCES matches_new (game_id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    -- NULL for a computer player
    user_id INTEGER,
    -- the name shown when the match ended
    name    TEXT    NOT NULL,
    side    INTEGER NOT NULL CHECK (side BETWEEN 0 AND 3),
    won     INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
INSERT INTO match_players_new SELECT game_id, seat, user_id, name, side, won FROM match_players;

DROP TABLE match_players;
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
ALTER TABLE match_players_new RENAME TO match_players;
CREATE INDEX matches_by_chat ON matches (chat_id);
CREATE INDEX match_players_by_user ON match_players (user_id) WHERE user_id IS NOT NULL;
