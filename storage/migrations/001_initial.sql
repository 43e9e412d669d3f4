-- 001_initial: users, chats, games with their move and deal logs, finished matches.
-- Applied once by storage.migrations inside a BEGIN IMMEDIATE transaction.

CREATE TABLE users (
    user_id       INTEGER PRIMARY KEY,
    first_name    TEXT    NOT NULL,
    username      TEXT,
    language_code TEXT,
    -- chosen with /language; wins over the client's language_code
    language      TEXT,
    -- the user opened the bot's private chat and has not blocked it since
    private_open  INTEGER NOT NULL DEFAULT 0 CHECK (private_open IN (0, 1)),
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

CREATE TABLE chats (
    chat_id    INTEGER PRIMARY KEY,
    title      TEXT,
    language   TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

-- One row per game; `data` is the Table JSON, the other columns index it.
CREATE TABLE games (
    game_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id    INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'stopped')),
    version    INTEGER NOT NULL,
    deadline   REAL,
    data       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);

-- At most one live game per chat.
CREATE UNIQUE INDEX games_one_live_per_chat
    ON games (chat_id) WHERE status IN ('lobby', 'playing');

CREATE INDEX games_by_chat ON games (chat_id, game_id);

-- Append-only log of accepted actions.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    deal_no    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    source     TEXT    NOT NULL CHECK (source IN ('human', 'computer', 'timeout')),
    user_id    INTEGER,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE deals (
    game_id    INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    deal_no    INTEGER NOT NULL,
    outcome    TEXT    NOT NULL,
    points_0   INTEGER NOT NULL,
    points_1   INTEGER NOT NULL,
    award_0    INTEGER NOT NULL,
    award_1    INTEGER NOT NULL,
    multiplier INTEGER NOT NULL,
    score_0    INTEGER NOT NULL,
    score_1    INTEGER NOT NULL,
    -- JSON of the deal's trace object
    trace      TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, deal_no)
) WITHOUT ROWID;

-- Matches that reached their target (stopped games have no row here).
CREATE TABLE matches (
    game_id     INTEGER PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    chat_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    -- JSON object of the variant options
    options     TEXT    NOT NULL,
    winner_side INTEGER NOT NULL CHECK (winner_side IN (0, 1)),
    score_0     INTEGER NOT NULL,
    score_1     INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    finished_at REAL    NOT NULL
);

CREATE INDEX matches_by_chat ON matches (chat_id);

CREATE TABLE match_players (
    game_id INTEGER NOT NULL REFERENCES matches (game_id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    -- NULL for a computer player
    user_id INTEGER,
    -- the name shown when the match ended
    name    TEXT    NOT NULL,
    side    INTEGER NOT NULL CHECK (side IN (0, 1)),
    won     INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX match_players_by_user ON match_players (user_id) WHERE user_id IS NOT NULL;
