-- 005_places: one game per forum topic, and one live seat per person.
-- `games.thread_id`: the forum topic a game lives in (0 outside forums); the live-game
-- uniqueness moves from the chat to the (chat, topic) pair. `outbox.thread_id`: the topic a
-- post goes to. `live_seats`: who sits at which lobby or running game, one row per person
-- (the primary key refuses a second seat anywhere), rewritten with every save of a game.

ALTER TABLE games ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
DROP INDEX games_one_live_per_chat;
CREATE UNIQUE INDEX games_one_live_per_place
    ON games (chat_id, thread_id) WHERE status IN ('lobby', 'playing');

ALTER TABLE outbox ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
DROP INDEX outbox_by_chat;
CREATE INDEX outbox_by_place ON outbox (chat_id, thread_id, id);

CREATE TABLE live_seats (
    user_id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE
);
CREATE INDEX live_seats_by_game ON live_seats (game_id);

-- People seated today keep their (first) seat; a second one, allowed before, is not listed.
INSERT OR IGNORE INTO live_seats (user_id, game_id)
SELECT json_extract(s.value, '$.user_id'), g.game_id
FROM games AS g, json_each(g.data, '$.seats') AS s
WHERE g.status IN ('lobby', 'playing')
  AND json_extract(s.value, '$.user_id') IS NOT NULL
ORDER BY g.game_id;
