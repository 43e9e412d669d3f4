"""Who belongs to a chat, as Telegram says: administrator and membership look-ups.

A look-up answers yes or no only on Telegram's word: a member record, or a definite refusal
(400 "user not found", 403). Transient failures — time-outs, dropped connections, HTTP 5xx,
429 after its ``retry_after`` — are retried through ``handlers.delivery.deliver`` (the
project's one classification of transient errors) for up to ``LOOKUP_PATIENCE`` seconds;
if Telegram still has not answered, :class:`TelegramUnavailable` is raised, and the error
handler (``handlers.errors``) tells the person "Telegram did not answer — try again". The
handler stops at the look-up, so nothing changes: no seat taken, no tournament entered, no
game stopped. (Issue #29 item 7: a failed look-up used to count as "not a member".)

A "yes" is trusted for ``LOOKUP_TTL`` seconds (``BotData``), so a busy lobby costs one
look-up a person a minute; a "no" only for ``NEGATIVE_TTL`` (someone who has just joined the
group may press again at once); a failure is not remembered at all.
"""

from __future__ import annotations

import asyncio

from telegram import ChatMember
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from handlers.delivery import deliver
from handlers.deps import LOOKUP_TTL, BotData

ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
MEMBERS = (*ADMINS, ChatMemberStatus.MEMBER)

LOOKUP_PATIENCE = 5.0
"""Seconds of retrying a look-up's transient failures before giving up: a press must still
be answered (Telegram drops an unanswered callback query after about 15 s)."""
LOOKUP_DEADLINE = 8.0
"""A hard bound on one look-up, however slowly Telegram's answers come."""
NEGATIVE_TTL = 10.0
"""Seconds a "no" is trusted."""


class TelegramUnavailable(Exception):
    """Telegram did not answer a look-up whose answer decides something, even after
    retries: the caller changes nothing and the person is asked to try again."""


async def is_admin(data: BotData, chat_id: int, user_id: int) -> bool:
    """Whether the user administers the chat (raises :class:`TelegramUnavailable`)."""
    return await _ask(data, "admin", chat_id, user_id)


async def is_member(data: BotData, chat_id: int, user_id: int) -> bool:
    """Whether the user is in the group now (a restricted member still is; someone who
    left, was removed or was never there is not); raises :class:`TelegramUnavailable`."""
    return await _ask(data, "member", chat_id, user_id)


async def _ask(data: BotData, question: str, chat_id: int, user_id: int) -> bool:
    known = data.cached(question, chat_id, user_id)
    if known is not None:
        return known
    member = await chat_member(data, chat_id, user_id)
    if member is None:
        answer = False
    elif question == "admin":
        answer = member.status in ADMINS
    else:
        restricted = member.status == ChatMemberStatus.RESTRICTED
        answer = member.status in MEMBERS or (restricted and bool(getattr(member, "is_member", 0)))
    data.remember(question, chat_id, user_id, answer, LOOKUP_TTL if answer else NEGATIVE_TTL)
    return answer


async def chat_member(data: BotData, chat_id: int, user_id: int) -> ChatMember | None:
    """Telegram's record of the user in the chat; ``None`` if Telegram definitely refuses
    (400: no such user or chat; 403: the bot may not ask there).

    **Decision**: any other failure that outlasts the retries (transient ones, or a chat
    that has just moved) is no answer: :class:`TelegramUnavailable`."""
    try:
        async with asyncio.timeout(LOOKUP_DEADLINE):
            return await deliver(
                lambda: data.bot.get_chat_member(chat_id, user_id),
                backoff=data.sender.backoff,
                what=f"getChatMember:{chat_id}:{user_id}",
                give_up_after=LOOKUP_PATIENCE,
            )
    except (BadRequest, Forbidden):
        return None
    except (TelegramError, TimeoutError) as error:
        raise TelegramUnavailable(f"getChatMember {chat_id} {user_id}: {error!r}") from error
