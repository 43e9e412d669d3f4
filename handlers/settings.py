"""/settings: a group's standing choices, edited by its administrators from an inline menu.

The chat's defaults — the variant and its table options (move time, seating and the
computer level among them), the language, and whether the chat is listed on the global
leaderboard — are stored per chat (``ChatSettings``) and used by every new lobby; a lobby's
creator can still change the table's own options before the deal. Everyone may open the
menu to read it; only a chat admin (as Telegram says) may press its buttons.
"""

from __future__ import annotations

import contextlib
import html

from telegram import Message, Update

from handlers.commands import group_command, topic_of
from handlers.deps import BotData, Context
from handlers.lanes import Outgoing
from handlers.members import is_admin
from handlers.press import Press, Refusal, board_message, not_valid, on_button
from kozelbot.core.callbacks import SettingsButton
from kozelbot.core.i18n import LANGUAGES, Translator, pick_language
from kozelbot.core.options import OptionError
from kozelbot.core.records import ChatSettings
from kozelbot.core.texts import Button, Keyboard
from kozelbot.families.registry import DEFAULT_PRESET, TABLE_PRESETS, preset, reader_of

SPECIAL_KEYS = ("variant", "language", "public", "close")
MENU = "settings"
"""The kind under which /settings menus are kept (only they take settings buttons)."""


async def current(data: BotData, chat_id: int) -> ChatSettings:
    """The chat's settings, or the bot's defaults."""
    stored = await data.queries.people.chat_settings(chat_id)
    if stored is not None and stored.variant in TABLE_PRESETS:
        return stored
    options = preset(DEFAULT_PRESET).default_options().model_dump()
    public = True if stored is None else stored.public
    return ChatSettings(variant=DEFAULT_PRESET, options=options, public=public)


def settings_text(chosen: ChatSettings, language: str, t: Translator) -> str:
    """The menu's text: every default in words."""
    family = reader_of(chosen.variant)
    options = preset(chosen.variant).options_from(chosen.options).model_dump()
    labels = family.option_labels(chosen.variant, options, t)
    lines = [
        "⚙️ <b>" + t("Chat settings") + "</b> — " + t("defaults for new tables"),
        t("Variant: {name}", name=html.escape(family.title(chosen.variant, t))),
        *(f"• {html.escape(label)}" for label in labels.values()),
        t("Language: {lang}", lang=language),
        t("Global leaderboard: listed") if chosen.public else t("Global leaderboard: not listed"),
        "",
        "<i>" + t("Only chat admins can change them.") + "</i>",
    ]
    return "\n".join(lines)


def settings_keyboard(chosen: ChatSettings, language: str, t: Translator) -> Keyboard:
    """One button per default; each moves it to its next value."""
    family = reader_of(chosen.variant)
    options = preset(chosen.variant).options_from(chosen.options).model_dump()
    labels = family.option_labels(chosen.variant, options, t)
    buttons = [Button("🎲 " + family.title(chosen.variant, t), SettingsButton("variant").pack())]
    buttons += [Button("⚙ " + label, SettingsButton(key).pack()) for key, label in labels.items()]
    buttons.append(Button("🌐 " + language, SettingsButton("language").pack()))
    public = t("🏆 global: yes") if chosen.public else t("🏆 global: no")
    buttons.append(Button(public, SettingsButton("public").pack()))
    rows = [tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2)]
    rows.append((Button(t("✖ Close"), SettingsButton("close").pack()),))
    return tuple(rows)


async def settings(update: Update, context: Context) -> None:
    """/settings in a group: the chat's defaults as a menu."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /settings in a group: it sets the group's defaults.")
    )
    if cmd is None:
        return
    await data.queries.people.upsert_chat(cmd.chat.id, cmd.chat.title)
    chosen = await current(data, cmd.chat.id)
    t = cmd.t
    chat_id = cmd.chat.id

    async def sent(message_id: int) -> None:
        await data.queries.posts.remember_board_message(chat_id, message_id, MENU)

    cmd.reply(
        html=True,
        text=settings_text(chosen, t.language, t),
        markup=settings_keyboard(chosen, t.language, t),
        on_sent=sent,
    )


@on_button(SettingsButton)
async def settings_button(pressed: Press, button: SettingsButton) -> None:
    """A menu button: an admin moves one default to its next value."""
    data, t = pressed.data, pressed.t
    if pressed.query.message is None or pressed.query.message.chat.id > 0:
        raise not_valid(t)
    message = await board_message(pressed, MENU)  # not forged onto another message
    chat_id = message.chat.id
    if not await is_admin(data, chat_id, pressed.user.id):
        raise Refusal(t("Only a chat admin can change the chat's settings."))
    chosen = await current(data, chat_id)
    thread_id = topic_of(message) if isinstance(message, Message) else None
    if button.key == "close":
        data.presenter.note(
            chat_id,
            lambda gt: Outgoing(gt("Settings saved."), edit_message_id=message.message_id),
            thread_id=thread_id,
        )
        await pressed.answer()
        return
    try:
        chosen = await _changed(data, chat_id, chosen, button.key)
    except OptionError:
        raise not_valid(t) from None
    await data.queries.people.set_chat_settings(chat_id, chosen)
    data.forget_language(chat_id)
    await pressed.answer(t("Saved."))

    def render(gt: Translator) -> Outgoing:
        return Outgoing(
            settings_text(chosen, gt.language, gt),
            settings_keyboard(chosen, gt.language, gt),
            edit_message_id=message.message_id,
        )

    data.presenter.note(chat_id, render, thread_id=thread_id, reply=True)


async def _changed(data: BotData, chat_id: int, chosen: ChatSettings, key: str) -> ChatSettings:
    """The settings with ``key`` moved to its next value (``OptionError`` if no such key)."""
    if key == "variant":
        names = list(TABLE_PRESETS)
        variant = names[(names.index(chosen.variant) + 1) % len(names)]
        options = preset(variant).default_options().model_dump()
        # The common choices (move time, seating, computer) carry over to the new variant.
        common = {k: v for k, v in chosen.options.items() if k in options}
        with contextlib.suppress(OptionError):
            options = preset(variant).options_from({**options, **common}).model_dump()
        return chosen.model_copy(update={"variant": variant, "options": options})
    if key == "public":
        return chosen.model_copy(update={"public": not chosen.public})
    if key == "language":
        stored = await data.queries.people.chat_language(chat_id)
        now = pick_language(stored, default=data.settings.language)
        following = LANGUAGES[(LANGUAGES.index(now) + 1) % len(LANGUAGES)]
        await data.queries.people.set_chat_language(chat_id, following)
        return chosen
    chosen_preset = preset(chosen.variant)
    cycled = chosen_preset.cycle(chosen_preset.options_from(chosen.options), key)
    return chosen.model_copy(update={"options": cycled.model_dump()})
