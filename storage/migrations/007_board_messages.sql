-- 007_board_messages: the bot's own board messages (a /history message, ...), so that a
-- button of such a board only ever edits a message the bot sent as that board, never another
-- message whose id a forged press names. `storage.boards` keeps the newest 50 per chat and
-- kind; older boards' buttons are refused.

CREATE TABLE board_messages (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    -- which board the message shows, e.g. 'history'
    kind       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (chat_id, message_id)
) WITHOUT ROWID;

CREATE INDEX board_messages_by_kind ON board_messages (chat_id, kind, created_at, message_id);
