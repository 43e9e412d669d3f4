/* The Mini App's page: the table of one chat as the reader's seat sees it, live.

   Who reads is proven by the initData Telegram hands the page: Telegram's own script's
   (Telegram.WebApp.initData) first, and only where that script is not to be had (the
   sandbox, offline) the launch parameters in the address's #fragment — so a crafted link
   with someone else's initData after "#" cannot make a page opened in Telegram act as them.
   The table is ?game=ID or the direct link's start parameter (g<ID>). The server streams
   the page's payload (kozelbot/page.py) as Server-Sent Events, read with fetch() so that
   initData travels in a header, never in an address (proxies log addresses); a tap POSTs
   the move and the stream brings what follows. Nothing here decides what is legal: the
   payload's moves say it, the server refuses the rest. */
"use strict";

const launch = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
let telegram = null;
let initData = "";
let gameId = query.get("game") || "";
let replayId = query.get("replay") || "";
let current = null;
let selected = new Set();
let shownAt = 0;
let note = "";

const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/* Telegram's own script, where it can be had: who reads (its initData comes first), the
   start parameter, theme, back button, haptics. Resolves once the script ran or failed. */
const TELEGRAM_WAIT_MS = 4000;

function withTelegram() {
  return new Promise((resolve) => {
    const script = document.createElement("script");
    const done = () => { pickReader(); resolve(); };
    const timer = setTimeout(done, TELEGRAM_WAIT_MS);
    script.src = "https://telegram.org/js/telegram-web-app.js";
    script.onerror = () => { clearTimeout(timer); done(); };
    script.onload = () => {
      clearTimeout(timer);
      telegram = window.Telegram && window.Telegram.WebApp;
      if (telegram) {
        telegram.ready();
        telegram.expand();
        theme(telegram.themeParams || {});
        telegram.onEvent("themeChanged", () => theme(telegram.themeParams || {}));
        if (telegram.BackButton) {
          telegram.BackButton.show();
          telegram.BackButton.onClick(() => telegram.close());
        }
      }
      done();
    };
    document.head.appendChild(script);
  });
}

/* Telegram's initData and start parameter where its script gave them, else the fragment's. */
function pickReader() {
  const own = telegram && telegram.initData;
  initData = own || launch.get("tgWebAppData") || "";
  const start = own ? ((telegram.initDataUnsafe && telegram.initDataUnsafe.start_param) || "")
    : (launch.get("tgWebAppStartParam") || "");
  if (!gameId && !replayId && start.startsWith("g")) gameId = start.slice(1);
  if (!gameId && !replayId && start.startsWith("r")) replayId = start.slice(1);
}

function theme(params) {
  const root = document.documentElement.style;
  const names = { bg_color: "--bg", text_color: "--text", hint_color: "--hint",
                  button_color: "--accent", button_text_color: "--accent-text",
                  secondary_bg_color: "--felt-edge" };
  for (const [key, variable] of Object.entries(names)) {
    if (params[key]) root.setProperty(variable, params[key]);
  }
}

function haptic(kind) {
  if (telegram && telegram.HapticFeedback) telegram.HapticFeedback.impactOccurred(kind);
}

/* -- the stream ---------------------------------------------------------------------- */

let stream = null;
let retry = 1000;
const RETRY_MAX_MS = 15000;

/* Open the stream (closing any before): initData in the header; each "table" event is the
   page as this reader sees it; "closed" says why the server ended it (another window took
   over, the table is full, the initData is too old) and the page stays as it is, saying so;
   a dropped connection is opened again, waiting longer each time. */
function connect() {
  if (!initData || !gameId) {
    $("status").textContent = "—";
    return;
  }
  if (stream) stream.abort();
  const mine = new AbortController();
  stream = mine;
  read(mine).then((closed) => {
    if (stream !== mine) return;
    if (closed) {
      note = closed.text || closed.reason;
      render();
      $("status").textContent = note;
      return;
    }
    if (current) $("status").textContent = current.words.offline;
    setTimeout(() => { if (stream === mine) connect(); }, retry);
    retry = Math.min(RETRY_MAX_MS, retry * 2);
  });
}

/* Read one stream to its end: the server's "closed" event, or null when it just dropped. */
async function read(controller) {
  let response;
  try {
    response = await fetch("api/stream?" + new URLSearchParams({ game: gameId }), {
      headers: { "X-Telegram-Init-Data": initData },
      signal: controller.signal,
    });
  } catch (error) {
    return null;
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    if (response.status === 429) return null;
    return { reason: answer.error || String(response.status), text: answer.text };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const closed = onEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (closed) return closed;
        end = buffer.indexOf("\n\n");
      }
    }
  } catch (error) {
    return null;
  }
}

/* One Server-Sent Event's lines: a page is shown; a "closed" event is returned. */
function onEvent(block) {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (!data) return null;
  if (event === "closed") return JSON.parse(data);
  if (event === "table") {
    retry = 1000;
    note = "";
    show(JSON.parse(data));
  }
  return null;
}

async function play(action) {
  haptic("light");
  const body = { init: initData, game: Number(gameId), deal: current.deal, action };
  const response = await fetch("api/move", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) {
    selected = new Set();
    note = "";
    show(answer.page);
  } else {
    note = answer.text || answer.error || String(response.status);
    if (telegram && telegram.HapticFeedback) telegram.HapticFeedback.notificationOccurred("error");
    render();
  }
}

/* -- drawing --------------------------------------------------------------------------- */

function show(payload) {
  const before = current;
  current = payload;
  shownAt = Date.now();
  render();
  const last = payload.view && payload.view.last_trick;
  const had = before && before.view && before.view.last_trick;
  if (last && JSON.stringify(last) !== JSON.stringify(had)) sweep(last);
}

function seatsAround() {
  const players = current.view ? current.view.players || current.players.length : 4;
  const me = current.seat === null ? 0 : current.seat;
  const places = players === 2 ? ["bottom", "top"]
    : players === 3 ? ["bottom", "left", "right"] : ["bottom", "left", "top", "right"];
  const around = {};
  for (let step = 0; step < players; step += 1) around[(me + step) % players] = places[step];
  return around;
}

function name(seat) {
  const player = current.players.find((p) => p.seat === seat);
  return player ? player.name : "—";
}

function render() {
  if (!current) return;
  const view = current.view || {};
  const words = current.words || {};
  const ranks = words.ranks || {};
  const trumps = new Set(current.trumps || []);
  const around = seatsAround();
  const toAct = view.to_act || [];

  const bar = $("bar");
  bar.replaceChildren();
  const score = (view.score || []).join(" : ");
  bar.appendChild(element("span", "score", `${words.score || ""} ${score}`));
  const trump = view.trump_suit || view.trump;
  if (trump) bar.appendChild(element("span", "trump-suit", `${words.trump || ""} ${SUITS[trump] || ""}`));
  if (view.points) bar.appendChild(element("span", "points", `${words.points || ""} ${view.points.join(" : ")}`));

  const seats = $("seats");
  seats.replaceChildren();
  const sizes = view.hand_sizes || [];
  for (const [seat, place] of Object.entries(around)) {
    const box = element("div", `seat ${place}` + (toAct.includes(Number(seat)) ? " turn" : ""));
    box.setAttribute("data-seat", seat);
    box.appendChild(element("span", "name", name(Number(seat))));
    if (Number(seat) !== current.seat && sizes[seat] !== undefined) {
      box.appendChild(element("span", "count", `🂠 ${sizes[seat]}`));
    }
    if (toAct.includes(Number(seat)) && current.seconds_left !== null) {
      const left = Math.max(0, Math.round(current.seconds_left - (Date.now() - shownAt) / 1000));
      box.appendChild(element("span", "timer", `⏱ ${left}`));
    }
    seats.appendChild(box);
  }

  const trick = $("trick");
  trick.replaceChildren();
  for (const [seat, card] of tableCards(view)) {
    const slot = element("div", `slot ${around[seat] || "bottom"}`);
    slot.appendChild(card ? cardSvg(card, ranks, trumps.has(card)) : backSvg());
    trick.appendChild(slot);
  }

  const last = $("last");
  last.replaceChildren();
  if (view.last_trick && view.last_trick.cards) {
    last.appendChild(element("span", "caption", words.last_trick || ""));
    for (const [, card] of view.last_trick.cards) last.appendChild(cardSvg(card, ranks, trumps.has(card)));
  }

  const status = $("status");
  if (current.status === "finished" || current.status === "stopped") status.textContent = words.over || "";
  else if (current.seat === null) status.textContent = words.watching || "";
  else if (toAct.includes(current.seat)) status.textContent = words.your_turn || "";
  else if (toAct.length) status.textContent = (words.waiting || "").replace("{name}", name(toAct[0]));
  else status.textContent = "";
  if (note) status.textContent = note;
  status.classList.toggle("refused", Boolean(note));

  drawActions(ranks);
  drawHand(view, ranks, trumps);
}

/* The cards on the table, whatever the family calls them: a follow-suit trick (seat, card
   or null face down), or the cover game's stacks (their top cards). */
function tableCards(view) {
  if (Array.isArray(view.trick)) return view.trick;
  if (Array.isArray(view.stacks)) return view.stacks.map((stack) => [view.leader, stack[stack.length - 1]]);
  return [];
}

const PLAYS_ONE = new Set(["play", "return"]);

function drawHand(view, ranks, trumps) {
  const hand = $("hand");
  hand.replaceChildren();
  const moves = current.moves || [];
  const single = new Map();
  const inSome = new Set();
  for (const move of moves) {
    if (PLAYS_ONE.has(move.kind) && move.cards.length === 1) single.set(move.cards[0], move.action);
    for (const card of move.cards) inSome.add(card);
  }
  const cards = view.hand || [];
  cards.forEach((card, index) => {
    const svg = cardSvg(card, ranks, trumps.has(card));
    const playable = single.has(card) || (!single.size && inSome.has(card));
    svg.classList.add(playable ? "legal" : "idle");
    if (selected.has(card)) svg.classList.add("selected");
    svg.style.setProperty("--i", String(index - (cards.length - 1) / 2));
    svg.addEventListener("click", () => {
      if (single.has(card)) return play(single.get(card));
      // A card the rules forbid now, or out of turn: the server refuses it and says why
      // (naming the legal cards). The cover game's cards are picked, not played, one by one.
      if (single.size || Array.isArray(view.trick)) return play("play:" + card);
      if (!inSome.has(card)) return undefined;
      if (selected.has(card)) selected.delete(card); else selected.add(card);
      haptic("light");
      render();
    });
    hand.appendChild(svg);
  });
}

/* Every other move as a button: a redeal, a call, a hand-off, «не б'ю», Відбій, a claim; a
   move of several cards (the cover game's lead, beat, discard, levelling) once the cards
   picked are exactly its cards. */
function drawActions() {
  const actions = $("actions");
  actions.replaceChildren();
  const picked = [...selected].sort().join(",");
  const shown = new Set();
  for (const move of current.moves || []) {
    if (PLAYS_ONE.has(move.kind) && move.cards.length === 1) continue;
    const many = move.cards.length > 0 && !["give"].includes(move.kind);
    if (many && [...move.cards].sort().join(",") !== picked) continue;
    if (shown.has(move.action)) continue;
    shown.add(move.action);
    const button = element("button", "move", move.label);
    button.setAttribute("data-action", move.action);
    button.addEventListener("click", () => play(move.action));
    actions.appendChild(button);
  }
}

/* A trick just taken: its cards slide toward the seat that took it. */
function sweep(last) {
  const around = seatsAround();
  const winner = around[last.winner] || "bottom";
  const ghost = element("div", `sweep to-${winner}`);
  for (const [, card] of last.cards) ghost.appendChild(cardSvg(card, (current.words || {}).ranks, false));
  $("table").appendChild(ghost);
  setTimeout(() => ghost.remove(), 700);
}

