-- 012_places: one intake, many workers on one database (issue #32).
--
-- A "place" is where one game can be played: a chat, or one forum topic of it, written
-- "<chat_id>" or "<chat_id>/<thread_id>". The intake writes each update with the place it
-- belongs to; a worker handles a place's updates, timers and computer moves only while it
-- holds the place's lease, renewed every second and given up to another worker once
-- `until` (Unix time) has passed. A single bot process writes no place and takes no lease.
-- `workers` is each worker's heartbeat; `flood_calls` the bot's recent message calls per
-- chat (Telegram's limits hold for the bot as a whole, whichever worker sends).

ALTER TABLE inbox ADD COLUMN place TEXT;

CREATE INDEX inbox_by_place ON inbox (place, update_id);

CREATE TABLE workers (
    worker  TEXT             PRIMARY KEY,
    seen_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE leases (
    place  TEXT             PRIMARY KEY,
    worker TEXT             NOT NULL,
    until  DOUBLE PRECISION NOT NULL
);

CREATE TABLE flood_calls (
    at      DOUBLE PRECISION NOT NULL,
    chat_id BIGINT           NOT NULL
);

CREATE INDEX flood_calls_by_time ON flood_calls (at);
