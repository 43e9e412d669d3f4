-- 006_boards: ratings, boards, personal stats, match history and per-chat settings (issue #8).
--
-- `matches` gain their scope ('group', or 'private': a person's /play against the computer
-- in the bot's private chat, rated apart and never on a group's board), their forum topic
-- (0 outside forums, as `games.thread_id`) and whether they were rated. `match_players` gain
-- the seat's tallies (kozelbot.table.TALLY_KEYS) and, for a person in a rated match, the
-- rating (mu, sigma) before and after it.
--
-- The rest are aggregates that `storage.boards` keeps up to date in each result's own
-- transaction, so that every read is an index lookup or a small range scan however many
-- matches are stored:
--   ratings         per person, variant and scope: the model's rating and `rating`, the
--                   conservative round(mu - 3 sigma) people see; only rated matches.
--   player_totals   per person, scope and variant: every finished match, tallies, abandons,
--                   the current streak and the last name the person played under.
--   partners        per person, scope, variant and partner (people only): matches, wins.
--   chat_players    per group chat, variant and person: rated group matches played and won.
--   global_players  per variant and person: rated group matches played and won in public
--                   chats, with the person's group rating copied for the global board's
--                   order; `set_chat_settings` adds or takes away a chat's people at once
--                   when the chat's `public` flag changes.
--   chat_settings   a group's default variant and options, and whether it is public.
--
-- Matches stored before this migration were never rated: they are counted on the boards and
-- in the stats, and everyone's rating starts from the prior (mu 25, sigma 25/3, shown as 0).

ALTER TABLE matches ADD COLUMN scope TEXT NOT NULL DEFAULT 'group'
    CHECK (scope IN ('group', 'private'));
ALTER TABLE matches ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
UPDATE matches SET scope = 'private' WHERE chat_id > 0;

-- The chat's history, newest first (and everything `matches_by_chat` served).
DROP INDEX matches_by_chat;
CREATE INDEX matches_by_chat ON matches (chat_id, finished_at, game_id);

ALTER TABLE match_players ADD COLUMN deals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN catches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN eggs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN lyusyas INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN handoffs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
-- NULL for computers, unrated matches and matches stored before this migration
ALTER TABLE match_players ADD COLUMN mu_before REAL;
ALTER TABLE match_players ADD COLUMN sigma_before REAL;
ALTER TABLE match_players ADD COLUMN mu_after REAL;
ALTER TABLE match_players ADD COLUMN sigma_after REAL;

CREATE TABLE ratings (
    user_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    scope      TEXT    NOT NULL CHECK (scope IN ('group', 'private')),
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    -- round(mu - 3 * sigma), what people see (kozelbot.ratings.shown)
    rating     INTEGER NOT NULL,
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, variant, scope)
) WITHOUT ROWID;

CREATE TABLE player_totals (
    user_id    INTEGER NOT NULL,
    scope      TEXT    NOT NULL CHECK (scope IN ('group', 'private')),
    variant    TEXT    NOT NULL,
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    deals      INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    catches    INTEGER NOT NULL DEFAULT 0,
    eggs       INTEGER NOT NULL DEFAULT 0,
    lyusyas    INTEGER NOT NULL DEFAULT 0,
    handoffs   INTEGER NOT NULL DEFAULT 0,
    timeouts   INTEGER NOT NULL DEFAULT 0,
    abandons   INTEGER NOT NULL DEFAULT 0,
    -- +n: the last n matches won; -n: the last n lost
    streak     INTEGER NOT NULL DEFAULT 0,
    -- the name the person last played under ('' if only seen leaving a match)
    name       TEXT    NOT NULL DEFAULT '',
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, scope, variant)
) WITHOUT ROWID;

CREATE TABLE partners (
    user_id    INTEGER NOT NULL,
    scope      TEXT    NOT NULL CHECK (scope IN ('group', 'private')),
    variant    TEXT    NOT NULL,
    partner_id INTEGER NOT NULL,
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    -- the partner's name in their last match together
    name       TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, scope, variant, partner_id)
) WITHOUT ROWID;

CREATE TABLE chat_players (
    chat_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    -- the name the person last played under in this chat
    name       TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (chat_id, variant, user_id)
) WITHOUT ROWID;

CREATE TABLE global_players (
    variant TEXT    NOT NULL,
    user_id INTEGER NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    wins    INTEGER NOT NULL DEFAULT 0,
    -- a copy of ratings.rating (scope 'group'), kept in step with it
    rating  INTEGER NOT NULL,
    PRIMARY KEY (variant, user_id)
) WITHOUT ROWID;

CREATE INDEX global_board ON global_players (variant, rating DESC, matches DESC, user_id);

CREATE TABLE chat_settings (
    chat_id    INTEGER PRIMARY KEY,
    variant    TEXT    NOT NULL,
    -- JSON object of the variant's table options
    options    TEXT    NOT NULL,
    -- listed on the global board
    public     INTEGER NOT NULL DEFAULT 1 CHECK (public IN (0, 1)),
    updated_at REAL    NOT NULL
);

-- The aggregates of the matches stored so far (no chat has settings yet: all are public).

WITH per_match AS (
    SELECT mp.user_id AS user_id, m.scope AS scope, m.variant AS variant,
           m.game_id AS game_id, m.finished_at AS finished_at,
           MAX(mp.won) AS won, MIN(mp.name) AS name
    FROM match_players AS mp
    JOIN matches AS m ON m.game_id = mp.game_id
    WHERE mp.user_id IS NOT NULL
    GROUP BY mp.user_id, m.game_id
),
ordered AS (
    SELECT user_id, scope, variant, finished_at, won,
           ROW_NUMBER() OVER latest AS n,
           FIRST_VALUE(won) OVER latest AS last_won,
           FIRST_VALUE(name) OVER latest AS last_name
    FROM per_match
    WINDOW latest AS (PARTITION BY user_id, scope, variant
                      ORDER BY finished_at DESC, game_id DESC)
)
INSERT INTO player_totals (user_id, scope, variant, matches, wins, streak, name, updated_at)
SELECT user_id, scope, variant, COUNT(*), SUM(won),
       -- the run of results equal to the latest one: up to the first that differs
       (CASE WHEN last_won THEN 1 ELSE -1 END)
           * COALESCE(MIN(CASE WHEN won <> last_won THEN n END) - 1, COUNT(*)),
       last_name, MAX(finished_at)
FROM ordered
GROUP BY user_id, scope, variant;

WITH seats AS (
    SELECT DISTINCT mp.game_id AS game_id, mp.user_id AS user_id, mp.side AS side,
           mp.won AS won, mp.name AS name, m.scope AS scope, m.variant AS variant,
           m.finished_at AS finished_at
    FROM match_players AS mp
    JOIN matches AS m ON m.game_id = mp.game_id
    WHERE mp.user_id IS NOT NULL
)
INSERT INTO partners (user_id, scope, variant, partner_id, matches, wins, name, updated_at)
SELECT a.user_id, a.scope, a.variant, b.user_id, COUNT(DISTINCT a.game_id),
       COUNT(DISTINCT CASE WHEN a.won THEN a.game_id END),
       -- SQLite takes a bare column from the row of the one max(): the latest name
       b.name, MAX(a.finished_at)
FROM seats AS a
JOIN seats AS b ON b.game_id = a.game_id AND b.side = a.side AND b.user_id <> a.user_id
GROUP BY a.user_id, a.scope, a.variant, b.user_id;

WITH per_match AS (
    SELECT m.chat_id AS chat_id, m.variant AS variant, mp.user_id AS user_id,
           m.finished_at AS finished_at, MAX(mp.won) AS won, MIN(mp.name) AS name
    FROM match_players AS mp
    JOIN matches AS m ON m.game_id = mp.game_id
    WHERE mp.user_id IS NOT NULL AND m.scope = 'group' AND m.rated = 1
    GROUP BY mp.user_id, m.game_id
)
INSERT INTO chat_players (chat_id, variant, user_id, matches, wins, name, updated_at)
SELECT chat_id, variant, user_id, COUNT(*), SUM(won), name, MAX(finished_at)
FROM per_match
GROUP BY chat_id, variant, user_id;

-- rating 0: the prior's shown rating (kozelbot.ratings.PRIOR.shown)
INSERT INTO global_players (variant, user_id, matches, wins, rating)
SELECT variant, user_id, SUM(matches), SUM(wins), 0
FROM chat_players
GROUP BY variant, user_id;
