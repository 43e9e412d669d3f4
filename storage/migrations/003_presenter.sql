-- 003_presenter: what the bot shows, kept apart from the game documents.
-- `messages`: the ids of the bot's own messages of each game (the group's lobby and table
-- message, each seat's private hand message). The presenter writes them without taking the
-- game's lock or bumping its version. `outbox`: group posts (deal and match results, the
-- final edit of a deal's table message) written in the same transaction as the move that
-- caused them and deleted once sent, so a crash or a shutdown never loses one.

CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('lobby', 'table', 'hand')),
    -- the seat of a hand message; -1 for the group's lobby and table messages
    seat       INTEGER NOT NULL DEFAULT -1,
    chat_id    INTEGER NOT NULL,
    -- the deal a table or hand message belongs to (NULL for the lobby)
    deal_no    INTEGER,
    message_id INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, kind, seat)
) WITHOUT ROWID;

INSERT INTO messages (game_id, kind, seat, chat_id, deal_no, message_id, updated_at)
SELECT game_id, 'lobby', -1, chat_id, NULL, json_extract(data, '$.lobby_message_id'), updated_at
FROM games
WHERE status IN ('lobby', 'playing') AND json_extract(data, '$.lobby_message_id') IS NOT NULL;

INSERT INTO messages (game_id, kind, seat, chat_id, deal_no, message_id, updated_at)
SELECT game_id, 'table', -1, chat_id, json_extract(data, '$.table_message_deal'),
       json_extract(data, '$.table_message_id'), updated_at
FROM games
WHERE status IN ('lobby', 'playing') AND json_extract(data, '$.table_message_id') IS NOT NULL;

INSERT INTO messages (game_id, kind, seat, chat_id, deal_no, message_id, updated_at)
SELECT g.game_id, 'hand', CAST(h.key AS INTEGER),
       json_extract(g.data, '$.seats[' || h.key || '].user_id'),
       json_extract(h.value, '$[0]'), json_extract(h.value, '$[1]'), g.updated_at
FROM games AS g, json_each(g.data, '$.hand_messages') AS h
WHERE g.status IN ('lobby', 'playing')
  AND json_extract(g.data, '$.seats[' || h.key || '].user_id') IS NOT NULL;

UPDATE games SET data = json_remove(data, '$.lobby_message_id', '$.table_message_id',
                                    '$.table_message_deal', '$.hand_messages');

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    -- what to show: 'final_table', 'deal_result' or 'match_over'
    kind       TEXT    NOT NULL,
    -- JSON the presenter renders from, in the group's language when it is sent
    payload    TEXT    NOT NULL,
    created_at REAL    NOT NULL
);

CREATE INDEX outbox_by_chat ON outbox (chat_id, id);
