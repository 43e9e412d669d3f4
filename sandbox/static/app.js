// KozelBot sandbox: a small Telegram-like client for the emulated group and private chats.
// Plain JavaScript, no build step, nothing loaded from outside this server.
"use strict";

(() => {
  const LANGUAGES = [["ru", "Русский"], ["uk", "Українська"], ["en", "English"]];
  const COLORS = ["#e17076", "#7bc862", "#65aadd", "#a695e7", "#ee7aae", "#6ec9cb", "#faa774"];
  const BOT_COLOR = "#3390ec";
  // Telegram's HTML subset (parse_mode HTML): everything else is shown as its text.
  const SIMPLE_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del"]);

  const S = {
    bot: { username: "", name: "Bot" },
    group: { id: null, title: "Group" },
    people: [],
    chats: [],
    commands: {},
    limits: false,
    watch: { running: false, delay: 1 },
    messages: new Map(), // chat id → Map(message id → message)
    unread: new Map(), // chat id → count of new messages not seen
    tab: "group",
    acting: null,
    ready: false,
    loading: new Map(), // chat id → true while a fetch runs, "dirty" if events came meanwhile
    pending: [], // own presses awaiting their answer: {person, shown, sseSeen}
  };

  const $ = (selector) => document.querySelector(selector);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "className") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  };

  // ---------------------------------------------------------------- API

  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok || (data && data.ok === false)) {
      const reason = (data && (data.error || data.description)) || `HTTP ${response.status}`;
      throw new Error(reason);
    }
    return data || {};
  }

  // ---------------------------------------------------------------- lookups

  const person = (id) => S.people.find((p) => p.id === id) || null;
  const personName = (id, fallback) => (person(id) || {}).name || fallback || `#${id}`;
  const personColor = (id) => {
    const index = S.people.findIndex((p) => p.id === id);
    return COLORS[(index >= 0 ? index : Math.abs(Number(id) || 0)) % COLORS.length];
  };
  const groupChat = () => S.chats.find((c) => c.kind === "group") || null;
  const privateChat = (personId) =>
    S.chats.find((c) => c.kind === "private" && c.person === personId) || null;
  const chatOfTab = (tab) => {
    if (tab === "group") return groupChat();
    const match = /^private-(-?\d+)$/.exec(tab);
    return match ? privateChat(Number(match[1])) : null;
  };
  const tabOfChat = (chat) => (chat.kind === "group" ? "group" : `private-${chat.person}`);
  const currentChat = () => chatOfTab(S.tab);
  /** Who types and presses now: the "acting as" person in the group, the owner in private. */
  const currentPerson = () => {
    const chat = currentChat();
    if (chat && chat.kind === "private") return chat.person;
    return S.acting;
  };
  const chatMessages = (chatId) => {
    let messages = S.messages.get(chatId);
    if (!messages) {
      messages = new Map();
      S.messages.set(chatId, messages);
    }
    return messages;
  };

  // ---------------------------------------------------------------- HTML rendering

  /** The bot's HTML as DOM nodes, keeping only what Telegram renders. */
  function renderHtml(html) {
    const template = document.createElement("template");
    template.innerHTML = String(html ?? ""); // inert: scripts do not run, images do not load
    const out = document.createDocumentFragment();
    copyChildren(template.content, out, false);
    return out;
  }

  function copyChildren(source, target, inPre) {
    for (const node of source.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        target.append(document.createTextNode(node.data));
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        copyElement(node, target, inPre);
      }
    }
  }

  function copyElement(node, target, inPre) {
    const tag = node.localName;
    let copy = null;
    if (SIMPLE_TAGS.has(tag) || tag === "blockquote") {
      copy = document.createElement(tag);
    } else if (tag === "pre") {
      copy = document.createElement("pre");
      inPre = true;
    } else if (tag === "code") {
      copy = document.createElement("code");
      const language = /(?:^|\s)(language-[\w+-]+)/.exec(node.getAttribute("class") || "");
      if (inPre && language) copy.className = language[1];
    } else if (tag === "tg-spoiler" ||
               (tag === "span" && (node.getAttribute("class") || "").split(/\s+/).includes("tg-spoiler"))) {
      copy = document.createElement("span");
      copy.className = "spoiler";
      copy.title = "Spoiler: click to show";
    } else if (tag === "a") {
      const href = safeHref(node.getAttribute("href"));
      if (href) {
        copy = document.createElement("a");
        copy.setAttribute("href", href);
        copy.dataset.href = href;
        if (/^tg:\/\/user\?/i.test(href)) copy.className = "mention";
        if (/^https?:/i.test(href) && !deepLink(href)) {
          copy.target = "_blank";
          copy.rel = "noopener noreferrer";
        }
      }
    }
    // Any other tag (or a link Telegram would not show as one) keeps only its text.
    if (copy) {
      copyChildren(node, copy, inPre);
      target.append(copy);
    } else {
      copyChildren(node, target, inPre);
    }
  }

  function safeHref(href) {
    if (!href) return null;
    try {
      const url = new URL(href.trim());
      return ["http:", "https:", "tg:"].includes(url.protocol) ? url.href : null;
    } catch (_) {
      return null;
    }
  }

  /** A t.me / tg://resolve link to a bot: {bot, start?, startgroup?}, or null. */
  function deepLink(href) {
    let url;
    try {
      url = new URL(href);
    } catch (_) {
      return null;
    }
    let bot = null;
    if (url.protocol === "tg:") {
      if (!/^tg:\/\/resolve\b/i.test(url.href)) return null;
      bot = url.searchParams.get("domain");
    } else if (/^https?:$/.test(url.protocol) &&
               /^(t\.me|telegram\.me|telegram\.dog)$/i.test(url.hostname)) {
      bot = url.pathname.replace(/^\/+/, "").split("/")[0];
    }
    if (!bot) return null;
    const link = { bot };
    if (url.searchParams.has("start")) link.start = url.searchParams.get("start");
    if (url.searchParams.has("startgroup")) link.startgroup = url.searchParams.get("startgroup");
    return link;
  }

  /** Open a link the way a Telegram client would, as ``personId``. */
  async function openLink(href, personId) {
    const mention = /^tg:\/\/user\?id=(-?\d+)/i.exec(href);
    if (mention) {
      const id = Number(mention[1]);
      if (privateChat(id)) {
        toast(`${personName(id)}: a person in this sandbox (Telegram would open their profile)`);
      } else {
        toast(`User ${id}`);
      }
      return;
    }
    const link = deepLink(href);
    if (!link) {
      if (/^https?:/i.test(href)) window.open(href, "_blank", "noopener,noreferrer");
      else toast(`This link does not open in the sandbox: ${href}`);
      return;
    }
    const ours = !S.bot.username || link.bot.toLowerCase() === S.bot.username.toLowerCase();
    if (!ours) {
      toast(`@${link.bot} is another bot: only @${S.bot.username} lives in this sandbox`);
      return;
    }
    if (new URL(href).searchParams.has("startapp")) {
      await openMiniApp(href, personId);  // the Mini App's direct link
      return;
    }
    if (link.startgroup !== undefined) {
      toast(`The sandbox has one group, “${S.group.title}”, and @${S.bot.username} is already ` +
            "in it: adding the bot to another group only works in real Telegram.");
      return;
    }
    if (personId === null || personId === undefined) {
      toast("Choose who is acting first");
      return;
    }
    showTab(`private-${personId}`);
    if (link.start !== undefined) {
      try {
        await api("POST", "/api/start", { person: personId, payload: link.start });
      } catch (error) {
        toast(error.message, true);
      }
    }
  }

  // ---------------------------------------------------------------- messages

  function formatTime(date) {
    if (!date) return "";
    const d = new Date(date * 1000);
    return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  }

  function senderOf(message) {
    const from = message.from || {};
    if (from.bot) return { name: from.name || S.bot.name, color: BOT_COLOR, bot: true };
    return { name: personName(from.id, from.name), color: personColor(from.id), bot: false };
  }

  function plainText(html) {
    const template = document.createElement("template");
    template.innerHTML = String(html ?? "");
    return template.content.textContent || "";
  }

  /** One message as Telegram shows it; ``inDock``: the copy beside the group (its own class
   * and data attribute, so that ``.message[data-message-id]`` stays unique on the page). */
  function renderMessage(message, inDock = false) {
    const from = message.from || {};
    const own = !from.bot && from.id === currentPerson();
    const sender = senderOf(message);
    const bubble = el("div", { className: "bubble" });
    bubble.append(el("div", { className: "sender", style: `color: ${sender.color}`, text: sender.name }));
    if (message.reply_to !== null && message.reply_to !== undefined) {
      const quoted = chatMessages(message.chat_id).get(message.reply_to);
      const quote = el("button", {
        type: "button", className: "reply", dataset: { replyTo: String(message.reply_to) },
        title: "Show the message this replies to",
      });
      if (quoted) {
        const qs = senderOf(quoted);
        quote.append(el("span", { className: "reply-name", style: `color: ${qs.color}`, text: qs.name }),
                     el("span", { className: "reply-text", text: plainText(quoted.html).split("\n")[0] }));
      } else {
        quote.append(el("span", { className: "reply-name", text: "Reply" }),
                     el("span", { className: "reply-text", text: `message ${message.reply_to}` }));
      }
      bubble.append(quote);
    }
    if (message.photo) {  // a picture the bot sent (a tournament's standings), its caption below
      bubble.append(el("img", { className: "photo", src: message.photo, alt: "" }));
    }
    const text = el("div", { className: "text" });
    text.append(renderHtml(message.html));
    bubble.append(text);
    bubble.append(el("span", { className: "meta" },
      message.edited ? el("span", { className: "edited", text: "edited" }) : null,
      el("time", { text: formatTime(message.date) })));
    const dataset = { chatId: String(message.chat_id), from: String(from.id ?? "") };
    dataset[inDock ? "dockMessageId" : "messageId"] = String(message.message_id);
    const node = el("div", {
      className: `msg ${inDock ? "dock-message" : "message"}${own ? " out" : ""}${from.bot ? " from-bot" : ""}`,
      dataset,
    }, bubble);
    if (message.edited) node.dataset.edited = "true";
    const rows = (message.buttons || []).filter((row) => row && row.length);
    if (rows.length) {
      const keyboard = el("div", { className: "keyboard", role: "group", "aria-label": "Buttons" });
      for (const row of rows) {
        const line = el("div", { className: "kb-row" });
        for (const button of row) {
          const props = { type: "button", className: "kb", text: button.text, dataset: {} };
          if (button.data !== null && button.data !== undefined) props.dataset.data = button.data;
          if (button.url) {
            props.dataset.url = button.url;
            props.className = "kb link";
            props.title = button.url;
          }
          props.onclick = (event) => pressButton(message, button, event.currentTarget);
          line.append(el("button", props));
        }
        keyboard.append(line);
      }
      node.append(keyboard);
    }
    return node;
  }

  function nearBottom(box) {
    return box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  }

  function renderChat() {
    const chat = currentChat();
    const box = $("#messages");
    box.replaceChildren();
    if (!chat) {
      box.append(el("div", { className: "empty", text: "Loading…" }));
      return;
    }
    const messages = [...chatMessages(chat.id).values()].sort((a, b) => a.message_id - b.message_id);
    if (!messages.length) {
      box.append(el("div", { className: "empty", text: chat.kind === "private"
        ? `No messages yet: press START to open the chat with ${S.bot.name} as ${personName(chat.person)}.`
        : "No messages yet: type /newgame below." }));
    }
    for (const message of messages) box.append(renderMessage(message));
    box.scrollTop = box.scrollHeight;
  }

  /** Show a new or edited message of the open chat: edits replace the element in place. */
  function showMessage(message, isNew) {
    const box = $("#messages");
    const stick = nearBottom(box);
    const node = renderMessage(message);
    const old = box.querySelector(`.message[data-message-id="${message.message_id}"]`);
    if (old) {
      old.replaceWith(node);
      node.classList.add("flash");
      // Replies quoting it show its new text.
      for (const quote of box.querySelectorAll(`.reply[data-reply-to="${message.message_id}"]`)) {
        const reply = quote.closest(".message");
        const replying = chatMessages(message.chat_id).get(Number(reply.dataset.messageId));
        if (replying) reply.replaceWith(renderMessage(replying));
      }
      return;
    }
    const empty = box.querySelector(".empty");
    if (empty) empty.remove();
    const later = [...box.querySelectorAll(".message")]
      .find((other) => Number(other.dataset.messageId) > message.message_id);
    box.insertBefore(node, later || null);
    if (stick || (isNew && (message.from || {}).id === currentPerson())) box.scrollTop = box.scrollHeight;
  }

  function upsertMessage(message) {
    const messages = chatMessages(message.chat_id);
    const isNew = !messages.has(message.message_id);
    messages.set(message.message_id, message);
    const chat = currentChat();
    const acting = privateChat(S.acting);
    if (acting && acting.id === message.chat_id) renderDock();
    if (chat && chat.id === message.chat_id) {
      showMessage(message, isNew);
      updateStartPanel();
    } else if (isNew && S.ready) {
      S.unread.set(message.chat_id, (S.unread.get(message.chat_id) || 0) + 1);
      renderTabs();
    }
  }

  async function loadChat(chatId) {
    for (let attempt = 0; attempt < 4; attempt++) {
      S.loading.set(chatId, true);
      let data;
      try {
        data = await api("GET", `/api/messages?chat=${encodeURIComponent(chatId)}`);
      } catch (error) {
        S.loading.delete(chatId);
        throw error;
      }
      const dirty = S.loading.get(chatId) === "dirty";
      S.loading.delete(chatId);
      const messages = chatMessages(chatId);
      for (const message of data.messages || []) messages.set(message.message_id, message);
      if (!dirty) return;
      // Messages changed while the snapshot was on its way: take a fresh one.
    }
  }

  // ---------------------------------------------------------------- the dock

  const WIDE = window.matchMedia("(min-width: 1200px)");

  /** Wide windows, group tab: the acting person's latest private message with buttons (their
   * hand), pressable right there, so that a table can be played without switching tabs. */
  function renderDock() {
    const dock = $("#dock");
    const body = $("#dock-body");
    const chat = privateChat(S.acting);
    const latest = chat && S.tab === "group" && WIDE.matches
      ? [...chatMessages(chat.id).values()]
        .filter((m) => (m.from || {}).bot && (m.buttons || []).some((row) => row && row.length))
        .reduce((a, b) => (!a || b.message_id > a.message_id ? b : a), null)
      : null;
    if (!latest) {
      dock.hidden = true;
      body.replaceChildren(); // no second copy of any button while it cannot be seen
      return;
    }
    $("#dock-title").textContent = `${personName(S.acting)} · private chat`;
    body.replaceChildren(renderMessage(latest, true));
    dock.hidden = false;
  }

  // ---------------------------------------------------------------- pressing and answers

  /** The Mini App a button opens, in a phone frame beside the chat, as ``personId`` — with
      initData the sandbox signs with the bot's token, as Telegram would. */
  async function openMiniApp(address, personId) {
    if (personId === null || personId === undefined) {
      toast("Choose who is acting first", true);
      return;
    }
    let result;
    try {
      result = await api("POST", "/api/webapp", { person: personId, url: address });
    } catch (error) {
      toast(error.message, true);
      return;
    }
    let frame = document.getElementById("miniapp");
    if (!frame) {
      frame = el("div", { id: "miniapp", className: "miniapp" });
      const close = el("button", { type: "button", className: "miniapp-close", text: "✕" });
      close.onclick = () => frame.remove();
      frame.append(close, el("iframe", { title: "Mini App" }));
      document.body.append(frame);
    }
    frame.querySelector("iframe").src = result.url;
  }

  async function pressButton(message, button, node) {
    const who = currentPerson();
    if (button.web_app) {
      await openMiniApp(button.web_app, who);
      return;
    }
    if (button.url) {
      await openLink(button.url, who);
      return;
    }
    if (button.data === null || button.data === undefined) return;
    if (who === null || who === undefined) {
      toast("Choose who is acting first", true);
      return;
    }
    const entry = { person: who, shown: false, sseSeen: false };
    S.pending.push(entry);
    node.classList.add("busy");
    try {
      const result = await api("POST", "/api/press", {
        person: who, chat: message.chat_id, message_id: message.message_id, data: button.data,
      });
      const answer = result.answer || {};
      if (!entry.shown) {
        entry.shown = true;
        showAnswer(answer.text, answer.alert);
      }
      if (answer.url) await openLink(answer.url, who);
    } catch (error) {
      toast(error.message, true);
    } finally {
      node.classList.remove("busy");
      // The live feed may echo this answer: swallow it for a moment, then forget the press.
      setTimeout(() => {
        S.pending = S.pending.filter((other) => other !== entry);
      }, 3000);
    }
  }

  function onAnswerEvent(event) {
    const entry = S.pending.find((other) => other.person === event.person && !other.sseSeen);
    if (entry) {
      entry.sseSeen = true;
      if (entry.shown) return;
      entry.shown = true;
      showAnswer(event.text, event.alert);
      return;
    }
    // Someone else's press (watch mode, another window): shown when it is the person we are.
    if (event.person === currentPerson()) showAnswer(event.text, event.alert);
  }

  function showAnswer(text, alert) {
    if (!text) return;
    if (alert) showAlert(text);
    else toast(text);
  }

  let toastTimer = null;
  function toast(text, error = false) {
    const node = $("#toast");
    node.textContent = text;
    node.classList.toggle("error", !!error);
    node.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      node.hidden = true;
    }, Math.min(7000, 2200 + 40 * String(text).length));
  }

  function showAlert(text) {
    $("#alert-bot").textContent = S.bot.name;
    $("#alert-text").textContent = text;
    $("#alert").hidden = false;
    $("#alert-ok").focus();
  }

  function closeAlert() {
    $("#alert").hidden = true;
  }

  // ---------------------------------------------------------------- tabs, people, controls

  function renderTabs() {
    const nav = $("#tabs");
    const tabs = [];
    const group = groupChat();
    if (group) tabs.push({ key: "group", chat: group, label: `👥 ${group.title || S.group.title}` });
    for (const p of S.people) {
      const chat = privateChat(p.id);
      if (chat) tabs.push({ key: `private-${p.id}`, chat, label: `👤 ${p.name}` });
    }
    nav.replaceChildren(...tabs.map(({ key, chat, label }) => {
      const unread = S.unread.get(chat.id) || 0;
      return el("button", {
        type: "button", className: "tab", role: "tab", id: `tab-${key}`,
        "aria-selected": key === S.tab ? "true" : "false",
        dataset: { tab: key, chatId: String(chat.id) },
        onclick: () => showTab(key),
      }, el("span", { className: "label", text: label }),
      unread ? el("span", { className: "badge", text: String(unread) }) : null);
    }));
    const active = nav.querySelector('[aria-selected="true"]');
    if (active) active.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function showTab(key) {
    if (!chatOfTab(key)) key = "group";
    const changed = key !== S.tab;
    S.tab = key;
    const chat = currentChat();
    if (chat) S.unread.delete(chat.id);
    if (location.hash !== `#${key}`) history.replaceState(null, "", `#${key}`);
    renderTabs();
    renderHeader();
    renderChat();
    updateStartPanel();
    renderDock();
    if (changed) hideMenu();
    closeDrawer();
  }

  function renderHeader() {
    const chat = currentChat();
    $("#bot-name").textContent = S.bot.name || "Bot";
    $("#bot-username").textContent = S.bot.username ? `@${S.bot.username}` : "";
    document.title = `${S.bot.name || "KozelBot"} · sandbox`;
    const title = $("#chat-title");
    const subtitle = $("#chat-subtitle");
    const acting = $("#acting-as-label");
    if (!chat) {
      title.textContent = "";
      subtitle.textContent = "";
      return;
    }
    if (chat.kind === "group") {
      title.textContent = `👥 ${chat.title || S.group.title}`;
      subtitle.textContent = `group · ${S.people.length} people and @${S.bot.username} · ` +
        `you type and press as ${personName(S.acting)}`;
      acting.hidden = false;
    } else {
      title.textContent = `${S.bot.name} · private chat of ${personName(chat.person)}`;
      const p = person(chat.person);
      subtitle.textContent = `bot @${S.bot.username} · you are ${personName(chat.person)}` +
        (p && p.language ? ` (${p.language})` : "");
      acting.hidden = true;
    }
    $("#text").placeholder = chat.kind === "group"
      ? `Message as ${personName(S.acting)}` : `Message as ${personName(chat.person)}`;
  }

  function updateStartPanel() {
    const chat = currentChat();
    const empty = chat && chat.kind === "private" && chatMessages(chat.id).size === 0;
    $("#start-panel").hidden = !empty;
    $("#composer").hidden = !!empty;
  }

  function renderActingAs() {
    const select = $("#acting-as");
    if (S.acting === null || !person(S.acting)) {
      const saved = Number(localStorage.getItem("kozel-sandbox-acting"));
      S.acting = person(saved) ? saved : (S.people[0] || {}).id ?? null;
    }
    select.replaceChildren(...S.people.map((p) =>
      el("option", { value: String(p.id), text: p.name, selected: p.id === S.acting })));
    select.value = String(S.acting);
  }

  function renderPeople() {
    const list = $("#people");
    const focused = document.activeElement;
    for (const p of S.people) {
      let item = list.querySelector(`li[data-person="${p.id}"]`);
      if (!item) {
        const name = el("input", {
          type: "text", maxlength: "64", "aria-label": "Name", dataset: { personName: String(p.id) },
        });
        name.addEventListener("change", () => rename(p.id, name));
        name.addEventListener("keydown", (event) => {
          if (event.key === "Enter") name.blur();
          if (event.key === "Escape") {
            name.value = personName(p.id);
            name.blur();
          }
        });
        const language = el("select", { "aria-label": "Language", dataset: { personLanguage: String(p.id) } },
          ...LANGUAGES.map(([code, title]) => el("option", { value: code, title, text: code })));
        language.addEventListener("change", () => setLanguage(p.id, language.value));
        item = el("li", { dataset: { person: String(p.id) } },
          el("span", { className: "dot" }), name, language);
        list.append(item);
      }
      item.querySelector(".dot").style.background = personColor(p.id);
      const name = item.querySelector("input");
      if (name !== focused) name.value = p.name;
      const language = item.querySelector("select");
      if (language !== focused) language.value = p.language || "ru";
    }
    for (const item of list.querySelectorAll("li")) {
      if (!person(Number(item.dataset.person))) item.remove();
    }
  }

  async function rename(id, input) {
    const name = input.value.trim();
    if (!name) {
      input.value = personName(id);
      return;
    }
    if (name === personName(id)) return;
    try {
      await api("POST", "/api/person", { person: id, name });
      const p = person(id);
      if (p) p.name = name;
      renderAll();
    } catch (error) {
      input.value = personName(id);
      toast(error.message, true);
    }
  }

  async function setLanguage(id, language) {
    try {
      await api("POST", "/api/person", { person: id, language });
      const p = person(id);
      if (p) p.language = language;
      renderHeader();
    } catch (error) {
      toast(error.message, true);
      renderPeople();
    }
  }

  function renderControls() {
    const running = !!(S.watch && S.watch.running);
    const toggle = $("#watch-toggle");
    toggle.setAttribute("aria-pressed", running ? "true" : "false");
    toggle.textContent = running ? "■ Stop" : "▶ Start";
    $("#watch-state").textContent = running ? "computers are playing" : "stopped";
    const slider = $("#watch-delay");
    if (document.activeElement !== slider && S.watch && typeof S.watch.delay === "number") {
      slider.value = String(S.watch.delay);
    }
    $("#watch-delay-value").textContent = `${Number(slider.value).toFixed(1)} s`;
    $("#limits").checked = !!S.limits;
  }

  function renderAll() {
    renderActingAs();
    renderPeople();
    renderControls();
    renderTabs();
    renderHeader();
    renderChat();
    updateStartPanel();
    renderDock();
  }

  async function loadState() {
    const state = await api("GET", "/api/state");
    Object.assign(S.bot, state.bot || {});
    Object.assign(S.group, state.group || {});
    S.people = state.people || [];
    S.chats = state.chats || [];
    S.commands = state.commands || {};
    S.limits = !!state.limits;
    S.watch = state.watch || { running: false, delay: 1 };
  }

  /** Everything again: after start-up and after the live feed reconnects. */
  async function resync() {
    try {
      await loadState();
      await Promise.all(S.chats.map((chat) => loadChat(chat.id)));
      S.ready = true;
      if (!chatOfTab(S.tab)) S.tab = "group";
      renderAll();
    } catch (error) {
      toast(`Could not load the sandbox: ${error.message}`, true);
      setTimeout(resync, 2000);
    }
  }

  let stateTimer = null;
  function onStateEvent() {
    // Renames, languages, watch and limits: coalesce bursts into one fetch.
    clearTimeout(stateTimer);
    stateTimer = setTimeout(async () => {
      try {
        const known = new Set(S.chats.map((chat) => chat.id));
        await loadState();
        await Promise.all(S.chats.filter((chat) => !known.has(chat.id)).map((chat) => loadChat(chat.id)));
        renderActingAs();
        renderPeople();
        renderControls();
        renderTabs();
        renderHeader();
        // Names shown in messages follow renames.
        if (S.chats.length !== known.size) renderChat();
        else refreshNames();
        renderDock();
      } catch (error) {
        toast(error.message, true);
      }
    }, 50);
  }

  function refreshNames() {
    for (const node of document.querySelectorAll("#messages .message, #dock .dock-message")) {
      const from = Number(node.dataset.from);
      const sender = node.querySelector(".sender");
      if (sender && person(from)) sender.textContent = personName(from);
    }
  }

  // ---------------------------------------------------------------- composer and commands

  function commandList() {
    const chat = currentChat();
    if (!chat) return [];
    const p = person(currentPerson());
    const kind = chat.kind === "group" ? "group" : "private";
    const byLanguage = S.commands || {};
    const lang = (p && p.language) || "";
    return (byLanguage[lang] && byLanguage[lang][kind]) ||
      (byLanguage[""] && byLanguage[""][kind]) || [];
  }

  let menuIndex = -1;
  function showMenu(filter) {
    const menu = $("#command-menu");
    const prefix = (filter || "").replace(/^\//, "").toLowerCase();
    const commands = commandList().filter((c) => c.command.toLowerCase().startsWith(prefix));
    if (!commands.length) {
      hideMenu();
      return;
    }
    menuIndex = -1;
    menu.replaceChildren(...commands.map((c) => el("li", {
      role: "option", dataset: { command: c.command },
      onmousedown: (event) => event.preventDefault(), // keep the focus in the text box
      onclick: () => sendText(`/${c.command}`),
    }, el("span", { className: "cmd", text: `/${c.command}` }),
    el("span", { className: "desc", text: c.description || "" }))));
    menu.hidden = false;
    $("#commands-button").setAttribute("aria-expanded", "true");
  }

  function hideMenu() {
    $("#command-menu").hidden = true;
    $("#commands-button").setAttribute("aria-expanded", "false");
    menuIndex = -1;
  }

  function moveMenu(step) {
    const items = [...$("#command-menu").querySelectorAll("li")];
    if (!items.length) return;
    menuIndex = (menuIndex + step + items.length) % items.length;
    items.forEach((item, index) => item.setAttribute("aria-selected", index === menuIndex ? "true" : "false"));
    items[menuIndex].scrollIntoView({ block: "nearest" });
  }

  async function sendText(text) {
    const chat = currentChat();
    const who = currentPerson();
    text = text.trim();
    hideMenu();
    if (!text || !chat) return;
    if (who === null || who === undefined) {
      toast("Choose who is acting first", true);
      return;
    }
    const input = $("#text");
    const typed = input.value;
    input.value = "";
    try {
      await api("POST", "/api/send", { person: who, chat: chat.id, text });
    } catch (error) {
      if (!input.value) input.value = typed;
      toast(error.message, true);
    }
  }

  function setupComposer() {
    const input = $("#text");
    $("#composer").addEventListener("submit", (event) => {
      event.preventDefault();
      sendText(input.value);
    });
    input.addEventListener("input", () => {
      const value = input.value;
      if (value.startsWith("/") && !/\s/.test(value)) showMenu(value);
      else hideMenu();
    });
    input.addEventListener("keydown", (event) => {
      const menu = $("#command-menu");
      if (menu.hidden) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        moveMenu(event.key === "ArrowDown" ? 1 : -1);
      } else if (event.key === "Tab") {
        event.preventDefault();
        const items = [...menu.querySelectorAll("li")];
        const item = items[Math.max(menuIndex, 0)];
        if (item) {
          input.value = `/${item.dataset.command} `;
          hideMenu();
        }
      } else if (event.key === "Enter" && menuIndex >= 0) {
        event.preventDefault();
        const item = menu.querySelectorAll("li")[menuIndex];
        if (item) sendText(`/${item.dataset.command}`);
      } else if (event.key === "Escape") {
        hideMenu();
      }
    });
    input.addEventListener("blur", () => setTimeout(hideMenu, 150));
    $("#commands-button").addEventListener("click", () => {
      if ($("#command-menu").hidden) {
        showMenu("");
        if (!commandList().length) toast("The bot has no command menu here");
      } else {
        hideMenu();
      }
      input.focus();
    });
    $("#acting-as").addEventListener("change", (event) => {
      S.acting = Number(event.target.value);
      localStorage.setItem("kozel-sandbox-acting", String(S.acting));
      renderHeader();
      renderChat();
      renderDock();
      hideMenu();
    });
    $("#start-button").addEventListener("click", async () => {
      const chat = currentChat();
      if (!chat || chat.kind !== "private") return;
      try {
        await api("POST", "/api/start", { person: chat.person, payload: null });
      } catch (error) {
        toast(error.message, true);
      }
    });
  }

  // ---------------------------------------------------------------- sidebar controls

  function setupControls() {
    $("#watch-toggle").addEventListener("click", async () => {
      const on = !(S.watch && S.watch.running);
      const delay = Number($("#watch-delay").value);
      try {
        const body = { on, delay };
        const newgame = $("#watch-newgame").value.trim().replace(/^\/newgame(@\w+)?\s*/i, "");
        if (on && newgame) body.newgame = newgame;
        await api("POST", "/api/watch", body);
        S.watch = { running: on, delay };
        renderControls();
        if (on) showTab("group");
      } catch (error) {
        toast(error.message, true);
      }
    });
    const slider = $("#watch-delay");
    slider.addEventListener("input", () => {
      $("#watch-delay-value").textContent = `${Number(slider.value).toFixed(1)} s`;
    });
    slider.addEventListener("change", async () => {
      const delay = Number(slider.value);
      try {
        await api("POST", "/api/watch", { on: !!(S.watch && S.watch.running), delay });
        S.watch = { ...S.watch, delay };
      } catch (error) {
        toast(error.message, true);
      }
    });
    $("#limits").addEventListener("change", async (event) => {
      const on = event.target.checked;
      try {
        await api("POST", "/api/limits", { on });
        S.limits = on;
        toast(on ? "Flood limits on: the bot is held to Telegram's message rates"
          : "Flood limits off: the bot may send as fast as it likes");
      } catch (error) {
        event.target.checked = !on;
        toast(error.message, true);
      }
    });
    $("#menu-button").addEventListener("click", () => {
      const open = !$("#app").classList.contains("drawer-open");
      $("#app").classList.toggle("drawer-open", open);
      $("#menu-button").setAttribute("aria-expanded", open ? "true" : "false");
      $("#scrim").hidden = !open;
    });
    $("#scrim").addEventListener("click", closeDrawer);
    $("#dock-open").addEventListener("click", () => showTab(`private-${S.acting}`));
    WIDE.addEventListener("change", renderDock);
    $("#alert-ok").addEventListener("click", closeAlert);
    $("#alert").addEventListener("click", (event) => {
      if (event.target.id === "alert") closeAlert();
    });
    document.addEventListener("keydown", (event) => {
      if (!$("#alert").hidden && (event.key === "Escape" || event.key === "Enter")) {
        event.preventDefault();
        closeAlert();
      }
    });
    // Links inside messages: deep links and mentions act in the sandbox.
    $("#messages").addEventListener("click", (event) => {
      const spoiler = event.target.closest(".spoiler");
      if (spoiler && !spoiler.classList.contains("revealed")) {
        spoiler.classList.add("revealed");
        event.preventDefault();
        return;
      }
      const quote = event.target.closest(".reply");
      if (quote) {
        const target = $("#messages").querySelector(`.message[data-message-id="${quote.dataset.replyTo}"]`);
        if (target) {
          target.scrollIntoView({ block: "center", behavior: "smooth" });
          target.classList.remove("flash");
          void target.offsetWidth;
          target.classList.add("flash");
        }
        return;
      }
      const link = event.target.closest("a[data-href]");
      if (!link) return;
      const href = link.dataset.href;
      if (/^tg:/i.test(href) || deepLink(href)) {
        event.preventDefault();
        openLink(href, currentPerson());
      }
    });
  }

  function closeDrawer() {
    $("#app").classList.remove("drawer-open");
    $("#menu-button").setAttribute("aria-expanded", "false");
    $("#scrim").hidden = true;
  }

  // ---------------------------------------------------------------- live updates

  let source = null;
  let connectedBefore = false;
  let retry = 500;

  function setStatus(online) {
    const status = $("#status");
    status.className = `status ${online ? "online" : "offline"}`;
    status.textContent = online ? "live" : "reconnecting…";
    document.body.dataset.live = online ? "true" : "false";
  }

  function handleEvent(event) {
    if (!event || typeof event !== "object") return;
    if (event.type === "message" && event.message) {
      const chatId = event.message.chat_id;
      if (S.loading.has(chatId)) S.loading.set(chatId, "dirty");
      if (!S.chats.some((chat) => chat.id === chatId)) onStateEvent();
      upsertMessage(event.message);
    } else if (event.type === "answer") {
      onAnswerEvent(event);
    } else if (event.type === "state") {
      onStateEvent();
    }
  }

  function parseEvent(type) {
    return (raw) => {
      let event;
      try {
        event = JSON.parse(raw.data);
      } catch (_) {
        return;
      }
      if (event && typeof event === "object" && !event.type) event.type = type;
      handleEvent(event);
    };
  }

  function connect() {
    if (source) source.close();
    const es = new EventSource("/api/events");
    source = es;
    es.onopen = () => {
      retry = 500;
      setStatus(true);
      // Whatever happened while the feed was down: fetch it all again.
      if (connectedBefore) resync();
      connectedBefore = true;
    };
    es.onmessage = parseEvent("message");
    es.addEventListener("answer", parseEvent("answer"));
    es.addEventListener("state", parseEvent("state"));
    es.onerror = () => {
      setStatus(false);
      if (es.readyState === EventSource.CLOSED && source === es) {
        // The browser gave up (e.g. the server restarted with an error status): try again.
        es.close();
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      }
    };
  }

  // ---------------------------------------------------------------- start

  function start() {
    setupComposer();
    setupControls();
    const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (hash) S.tab = hash;
    window.addEventListener("hashchange", () => {
      const key = decodeURIComponent(location.hash.replace(/^#/, ""));
      if (key && key !== S.tab) showTab(key);
    });
    setStatus(false);
    connect();
    resync();
  }

  // For tests and curious people: a read-only view of what the page knows.
  window.kozelSandbox = {
    state: () => ({ tab: S.tab, acting: S.acting, people: S.people, chats: S.chats, ready: S.ready }),
    messages: (chatId) => [...chatMessages(chatId).values()],
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
