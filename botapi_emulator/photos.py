"""Photos a bot sends with ``sendPhoto``: which photo a request names, and Telegram's checks.

A request names its photo by an upload (a ``multipart/form-data`` file part, which the server
hands over as :class:`~.models.UploadedFile`), by the ``file_id`` of a photo sent before, or by
an HTTP URL (which the emulator, having no network, cannot fetch). An upload must be a picture
Pillow can read, at most 10 MB, with width + height ≤ 10 000 and its sides' ratio ≤ 20, as the
Bot API documents for ``sendPhoto``. The error texts are the ones bots get from Telegram.
"""

from __future__ import annotations

import io

from PIL import Image

from .errors import ApiError, bad_request
from .models import JsonDict, Photo, UploadedFile

MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000
"""Width plus height, in pixels."""
MAX_PHOTO_RATIO = 20
MAX_CAPTION_LENGTH = 1024
"""Characters of a caption, after entity parsing."""

CAPTION_TOO_LONG = "Bad Request: message caption is too long"
NO_PHOTO = "Bad Request: there is no photo in the request"
FILE_EMPTY = "Bad Request: file must be non-empty"
IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
PHOTO_INVALID_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
URL_NOT_FETCHED = "Bad Request: failed to get HTTP URL content"


def photo_source(params: JsonDict, known: dict[str, Photo]) -> Photo | UploadedFile:
    """The photo ``params["photo"]`` names: an earlier photo (by ``file_id``) or an upload
    (directly, or as ``attach://<part>``); 400 as Telegram answers otherwise."""
    value = params.get("photo")
    if isinstance(value, str) and value.startswith("attach://"):
        value = params.get(value.removeprefix("attach://"))
    if isinstance(value, UploadedFile):
        return value
    if value is None or value == "":
        raise ApiError(400, NO_PHOTO)
    text = str(value)
    if text.startswith(("http://", "https://")):
        raise ApiError(400, URL_NOT_FETCHED)
    photo = known.get(text)
    if photo is None:
        raise ApiError(400, WRONG_FILE_ID)
    return photo


def dimensions(upload: UploadedFile) -> tuple[int, int]:
    """``(width, height)`` of an uploaded picture; 400 if it is empty, over 10 MB, not a
    picture, or of dimensions Telegram refuses for a photo."""
    data = upload.data
    if not data:
        raise ApiError(400, FILE_EMPTY)
    if len(data) > MAX_PHOTO_BYTES:
        raise bad_request(
            f"file of size {len(data)} bytes is too big for a photo; "
            f"the maximum size is {MAX_PHOTO_BYTES} bytes"
        )
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            image.verify()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        raise ApiError(400, IMAGE_PROCESS_FAILED) from error
    if (
        min(width, height) < 1
        or width + height > MAX_PHOTO_SIDES
        or max(width, height) > MAX_PHOTO_RATIO * min(width, height)
    ):
        raise ApiError(400, PHOTO_INVALID_DIMENSIONS)
    return width, height
