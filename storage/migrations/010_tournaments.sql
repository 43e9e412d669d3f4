-- 010_tournaments: tournaments of a group, the match of each tournament table, and /notify
-- (issue #19).
--
-- `tournaments`: one row per tournament; `data` is the `kozelbot.tournament.model.Tournament`
-- JSON, saved whole with an optimistic `version` (as `games`); the other columns index it.
-- `thread_id` is the forum topic the registration opened in (0 outside forums, as
-- `games.thread_id`). A group has at most one live tournament (registration or running),
-- whatever its topics. AUTOINCREMENT: an id is never reused, since old buttons and
-- /history pages name tournaments by id.
--
-- `tournament_tables`: the match opened for a tournament's table, one per (tournament,
-- round, table) — the key refuses a second match for a table however the opening is
-- retried — and a match is at most one table.
--
-- `notices`: the people who asked (/notify in a group) for a private message when a new
-- table or tournament opens in that group.

CREATE TABLE tournaments (
    tournament_id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id       INTEGER NOT NULL,
    thread_id     INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL
        CHECK (status IN ('registration', 'running', 'finished', 'stopped')),
    version       INTEGER NOT NULL,
    data          TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL
);

CREATE UNIQUE INDEX tournaments_one_live_per_chat
    ON tournaments (chat_id) WHERE status IN ('registration', 'running');

CREATE INDEX tournaments_by_chat ON tournaments (chat_id, tournament_id);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL
        REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL CHECK (round_no >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    game_id       INTEGER NOT NULL UNIQUE REFERENCES games (game_id) ON DELETE CASCADE,
    PRIMARY KEY (tournament_id, round_no, table_no)
) WITHOUT ROWID;

CREATE TABLE notices (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id)
) WITHOUT ROWID;
