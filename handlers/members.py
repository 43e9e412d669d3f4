"""Who belongs to a chat, as Telegram says: administrator and membership look-ups.

``getChatMember`` answers are trusted for ``LOOKUP_TTL`` seconds (``BotData``), so a busy
lobby costs one look-up a person a minute; a failed look-up counts as "no" and is not
remembered (the person may simply try again).
"""

from __future__ import annotations

from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from handlers.deps import BotData

ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
MEMBERS = (*ADMINS, ChatMemberStatus.MEMBER)


async def is_admin(data: BotData, chat_id: int, user_id: int) -> bool:
    """Whether the user administers the chat."""
    return await _ask(data, "admin", chat_id, user_id)


async def is_member(data: BotData, chat_id: int, user_id: int) -> bool:
    """Whether the user is in the group now (a restricted member still is; someone who
    left, was removed or was never there is not)."""
    return await _ask(data, "member", chat_id, user_id)


async def _ask(data: BotData, question: str, chat_id: int, user_id: int) -> bool:
    known = data.cached(question, chat_id, user_id)
    if known is not None:
        return known
    try:
        member = await data.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    if question == "admin":
        answer = member.status in ADMINS
    else:
        restricted = member.status == ChatMemberStatus.RESTRICTED
        answer = member.status in MEMBERS or (restricted and bool(getattr(member, "is_member", 0)))
    data.remember(question, chat_id, user_id, answer)
    return answer
