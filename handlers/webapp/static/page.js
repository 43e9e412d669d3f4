/* The Mini App's page: the table of one chat as the reader's seat sees it, live.

   Who reads is proven by the initData Telegram hands the page: Telegram's own script's
   (Telegram.WebApp.initData) first, and only where that script is not to be had (the
   sandbox, offline) the launch parameters in the address's #fragment — so a crafted link
   with someone else's initData after "#" cannot make a page opened in Telegram act as them.
   The table is ?game=ID or the direct link's start parameter (g<ID>). The server streams
   the page's payload (kozelbot/views/page.py) as Server-Sent Events, read with fetch() so that
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

/* Telegram's colours for the page (not the felt, which stays green under white text), each
   text kept at 4.5 : 1 at least: a theme's text that reads too faintly on its background
   is left for the page's own, a button darkened (or lightened) until its text reads.
   **Decision**: Telegram's hint colour is not used for text (its default light one is
   2.85 : 1 on white); the bar and the status use the theme's text colour. */
function theme(params) {
  const root = document.documentElement.style;
  const hex = (value) => typeof value === "string" && /^#[0-9a-f]{6}$/i.test(value);
  const bg = hex(params.bg_color) ? params.bg_color : null;
  if (bg) root.setProperty("--bg", bg);
  if (bg && hex(params.text_color) && contrast(params.text_color, bg) >= 4.5) {
    root.setProperty("--text", params.text_color);
  } else if (bg) {
    root.setProperty("--text", luminance(bg) > 0.2 ? "#1c1c1e" : "#f5f5f5");
  }
  if (bg) {
    const light = luminance(bg) > 0.2;
    root.setProperty("--refused", light ? "#b3261e" : "#ff8a80");
    root.setProperty("--ok", light ? "#1b7f3b" : "#8fe3a8");
  }
  if (hex(params.button_color)) {
    const on = hex(params.button_text_color) ? params.button_text_color : "#ffffff";
    root.setProperty("--accent-text", on);
    root.setProperty("--accent", readableUnder(params.button_color, on));
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
  if (before && last && JSON.stringify(last) !== JSON.stringify(had)) sweep(last);
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

  const me = current.seat;
  const players = view.players || current.players.length;
  const cover = Array.isArray(view.stacks);
  drawBar($("bar"), {
    score: view.score || [], points: cover ? view.open_points : view.points, players, me,
    nameOf: name, words, trump: cover ? null : view.trump_suit || view.trump,
  });

  const seats = $("seats");
  seats.replaceChildren();
  const sizes = view.hand_sizes || [];
  const partner = players === 4 && me !== null ? (me + 2) % 4 : null;
  for (const [seat, place] of Object.entries(around)) {
    const box = element("div", `seat ${place}` + (toAct.includes(Number(seat)) ? " turn" : ""));
    box.setAttribute("data-seat", seat);
    box.appendChild(element("span", "name", name(Number(seat))));
    if (Number(seat) === partner) box.appendChild(element("span", "tag partner", words.partner || ""));
    if (Number(seat) !== me && sizes[seat] !== undefined) {
      box.appendChild(element("span", "count", `🂠 ${sizes[seat]}`));
    }
    if (toAct.includes(Number(seat)) && current.seconds_left !== null) {
      const left = Math.max(0, Math.round(current.seconds_left - (Date.now() - shownAt) / 1000));
      // m:ss, not an emoji clock: it reads wherever the page runs (no emoji font needed).
      box.appendChild(element("span", "timer", `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`));
    }
    seats.appendChild(box);
  }
  if (cover && view.talon !== undefined) seats.appendChild(talonBox(view, words));

  const nameOf = name;
  if (cover) drawStacks($("trick"), view, nameOf, ranks, trumps, words);
  else drawTrick($("trick"), Array.isArray(view.trick) ? view.trick : [], around, nameOf, ranks, trumps);
  drawLast($("last"), view.last_trick, nameOf, ranks, trumps, words);

  const status = $("status");
  let said = "";
  let tone = "";
  if (current.status === "finished" || current.status === "stopped") said = words.over || "";
  else if (me === null) said = words.watching || "";
  else if (toAct.includes(me)) said = current.prompt || words.your_turn || "";
  else if (toAct.length) said = (words.waiting || "").replace("{name}", name(toAct[0]));
  const picking = pickState();
  if (picking) [said, tone] = picking;
  if (note) [said, tone] = [note, "refused"];
  status.textContent = said;
  status.className = tone;

  drawActions(ranks);
  drawHand(view, ranks, trumps);
}

/* The cards on the table, whatever the family calls them: a follow-suit trick (seat, card
   or null face down), or the cover game's stacks (each stack's cards, by the leader). */
function tableCards(view) {
  if (Array.isArray(view.trick)) return view.trick;
  if (Array.isArray(view.stacks)) return view.stacks.flat().map((card) => [view.leader, card]);
  return [];
}

const PLAYS_ONE = new Set(["play", "return"]);

/* The moves of several cards (the cover game's lead, beat, discard, levelling). */
function manyMoves() {
  return (current.moves || []).filter((m) => !(PLAYS_ONE.has(m.kind) && m.cards.length === 1)
    && m.cards.length > 0 && m.kind !== "give");
}

/* While cards are picked: whether they make a move, may still make one, or cannot — as
   the status's words and tone ([text, "good" | "bad" | ""]), or null with nothing picked. */
function pickState() {
  if (!selected.size) return null;
  const words = current.words || {};
  const verbs = words.verbs || {};
  const picked = [...selected];
  const moves = manyMoves();
  const exact = moves.filter((m) => m.cards.length === picked.length && picked.every((c) => m.cards.includes(c)));
  if (exact.length) return [[...new Set(exact.map((m) => verbs[m.kind] || m.label))].join(" · ") + " ✓", "good"];
  const wider = moves.filter((m) => picked.every((c) => m.cards.includes(c)));
  if (wider.length) {
    const more = Math.min(...wider.map((m) => m.cards.length - picked.length));
    return [(words.pick_more || "{n}").replace("{n}", String(more)), ""];
  }
  return [words.pick_bad || "✗", "bad"];
}

function drawHand(view, ranks, trumps) {
  const hand = $("hand");
  const moves = current.moves || [];
  const single = new Map();
  const inSome = new Set();
  for (const move of moves) {
    if (PLAYS_ONE.has(move.kind) && move.cards.length === 1) single.set(move.cards[0], move.action);
    for (const card of move.cards) inSome.add(card);
  }
  const bad = pickState() && pickState()[1] === "bad";
  const cards = view.hand || [];
  const playable = [];
  const svgs = cards.map((card) => {
    const svg = cardSvg(card, ranks, trumps.has(card));
    const may = single.has(card) || (!single.size && inSome.has(card));
    playable.push(may);
    svg.classList.add(may ? "legal" : "idle");
    if (selected.has(card)) svg.classList.add("selected");
    if (selected.has(card) && bad) svg.classList.add("bad");
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
    return svg;
  });
  layoutHand(hand, svgs, playable);
}

/* Every other move as a button: a redeal, a call, a hand-off, «не б'ю», Відбій, a claim; a
   move of several cards (the cover game's lead, beat, discard, levelling) once the cards
   picked are exactly its cards, under the chat's verb («Бить», «Скинуть»). */
function drawActions() {
  const actions = $("actions");
  actions.replaceChildren();
  const verbs = (current.words || {}).verbs || {};
  const picked = [...selected].sort().join(",");
  const shown = new Set();
  for (const move of current.moves || []) {
    if (PLAYS_ONE.has(move.kind) && move.cards.length === 1) continue;
    const many = move.cards.length > 0 && !["give"].includes(move.kind);
    if (many && [...move.cards].sort().join(",") !== picked) continue;
    if (shown.has(move.action)) continue;
    shown.add(move.action);
    const label = many && verbs[move.kind] ? verbs[move.kind] : move.label;
    const button = element("button", "move", label);
    button.setAttribute("data-action", move.action);
    button.title = move.label;
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

