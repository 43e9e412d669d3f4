-- 011_inbox: updates received from Telegram and not yet handled (issue #32).
--
-- A batch of updates is written here before the next getUpdates tells Telegram it arrived
-- (Telegram forgets an update once a later offset confirms it), and each is deleted once
-- the bot has handled it. A bot killed meanwhile finds here, at its next start, the presses
-- and commands it had been sent and not handled, and handles them then.
-- `payload` is the update's JSON as Telegram sent it; `received_at` is Unix time.

CREATE TABLE inbox (
    update_id   BIGINT           PRIMARY KEY,
    payload     TEXT             NOT NULL,
    received_at DOUBLE PRECISION NOT NULL
);
