"""Bot API errors as Telegram reports them: an HTTP status, a description and parameters.

Method implementations raise :class:`ApiError`; the HTTP layer turns it into the JSON body
``{"ok": false, "error_code": N, "description": "...", "parameters": {...}}`` with the HTTP
status ``N``, which is how PTB decides which exception to raise.
"""

from __future__ import annotations

import math
from typing import Any

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
MESSAGE_TO_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MESSAGE_TO_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
MESSAGE_TO_REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
KICKED = "Forbidden: bot was kicked from the supergroup chat"
MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
TOPIC_ID_INVALID = "Bad Request: TOPIC_ID_INVALID"
TOPIC_NOT_MODIFIED = "Bad Request: TOPIC_NOT_MODIFIED"
NOT_A_FORUM = "Bad Request: the chat is not a forum"
INVALID_TOPIC_ID = "Bad Request: invalid forum topic identifier specified"
CANT_EDIT = "Bad Request: message can't be edited"


class ApiError(Exception):
    """A failed Bot API call: ``code`` is both the HTTP status and ``error_code``."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        """The response body Telegram would send for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(detail: str) -> ApiError:
    """A 400 error; ``detail`` is the text after ``"Bad Request: "``."""
    return ApiError(400, f"Bad Request: {detail}")


def forbidden(description: str) -> ApiError:
    """A 403 error with a full description such as :data:`BLOCKED`."""
    return ApiError(403, description)


def too_many_requests(retry_after: float) -> ApiError:
    """A 429 error; ``retry_after`` is rounded up to whole seconds, at least 1."""
    seconds = max(1, math.ceil(retry_after))
    return ApiError(429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds})
