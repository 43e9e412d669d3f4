/* The replay of a finished match: every hand shown, frame after frame — step back and
   forth, jump a deal, or let it play. The frames come from the server, which plays the
   match again through the rules (kozelbot/views/frames.py); the trick by its players and who took
   it, the deal's points in the bar; each deal's `kozelbot verify` line (hundreds of
   characters of hex) is behind a copy button. */
"use strict";

let replay = null;
let at = 0;
let playing = null;

async function startReplay(matchId) {
  const response = await fetch("api/replay?" + new URLSearchParams({ game: matchId }), {
    headers: { "X-Telegram-Init-Data": initData },
  });
  if (!response.ok) {
    $("status").textContent = String(response.status);
    return;
  }
  replay = await response.json();
  document.body.classList.add("replaying");
  at = replay.frames.length - 1;
  drawReplay();
}

function step(by) {
  at = Math.max(0, Math.min(replay.frames.length - 1, at + by));
  drawReplay();
}

function jumpDeal(by) {
  const deal = replay.frames[at].deal + by;
  const index = by < 0 ? replay.frames.findIndex((f) => f.deal === deal)
    : replay.frames.findIndex((f) => f.deal >= deal);
  if (index >= 0) at = index;
  else at = by < 0 ? 0 : replay.frames.length - 1;
  drawReplay();
}

function autoplay() {
  if (playing) {
    clearInterval(playing);
    playing = null;
  } else {
    playing = setInterval(() => {
      if (at >= replay.frames.length - 1) return autoplay();
      return step(1);
    }, 900);
  }
  drawReplay();
}

/* What the frame's move did beyond its card: a trick taken (who, its points) — the frame
   after a trick's last card shows the whole trick and its taker. */
function tookLine(table, nameOf, words) {
  const last = table.last_trick;
  if (!last || !last.cards || (table.trick && table.trick.length)) return "";
  const took = (words.took || "{name}").replace("{name}", nameOf(last.winner));
  return last.points ? `${took} +${last.points}` : took;
}

const CONTROLS = [["-deal", "|◀"], ["-1", "◀"], ["play", "▶▶"], ["1", "▶"], ["deal", "▶|"]];

function drawReplay() {
  const frame = replay.frames[at];
  const words = replay.words || {};
  const ranks = words.ranks || {};
  const trumps = new Set(frame.trumps || []);
  const table = frame.table || {};
  const players = frame.hands.length;
  const places = players === 2 ? ["bottom", "top"]
    : players === 3 ? ["bottom", "left", "right"] : ["bottom", "left", "top", "right"];
  const nameOf = (seat) => (replay.players.find((p) => p.seat === seat) || {}).name || "—";
  const cover = Array.isArray(table.stacks);

  const deal = replay.deals.find((d) => d.deal_no === frame.deal) || {};
  drawBar($("bar"), {
    score: table.score || [], points: cover ? table.open_points : table.points, players,
    me: null, nameOf, words, trump: cover ? table.trump : table.trump_suit || table.trump,
    extra: element("div", "deal", `#${(frame.deal || 0) + 1} · ${at + 1}/${replay.frames.length}`),
  });

  const seats = $("seats");
  seats.replaceChildren();
  frame.hands.forEach((hand, seat) => {
    const box = element("div", `seat open ${places[seat]}` + (seat === frame.seat ? " turn" : ""));
    box.appendChild(element("span", "name", nameOf(seat)));
    const cards = element("div", "open-hand");
    for (const card of hand) cards.appendChild(cardSvg(card, ranks, trumps.has(card)));
    box.appendChild(cards);
    seats.appendChild(box);
  });

  // A trick just completed leaves the table: show it, and who took it, until the next card.
  const trick = $("trick");
  if (cover) {
    drawStacks(trick, table, nameOf, ranks, trumps, words);
  } else {
    let onTable = Array.isArray(table.trick) ? table.trick : [];
    if (!onTable.length && table.last_trick && table.last_trick.cards) onTable = table.last_trick.cards;
    drawTrick(trick, onTable, places, nameOf, ranks, trumps);
  }
  $("last").replaceChildren();
  $("hand").replaceChildren();

  const took = cover ? "" : tookLine(table, nameOf, words);
  $("status").textContent = `${nameOf(frame.seat)}: ${frame.label}` + (took ? ` · ${took}` : "");
  $("status").className = "";
  const actions = $("actions");
  actions.replaceChildren();
  const acts = { "-deal": () => jumpDeal(-1), "-1": () => step(-1), play: autoplay,
                 1: () => step(1), deal: () => jumpDeal(1) };
  for (const [key, label] of CONTROLS) {
    const button = element("button", "move control", key === "play" && playing ? "❚❚" : label);
    button.setAttribute("data-step", key);
    button.addEventListener("click", acts[key]);
    actions.appendChild(button);
  }
  if (deal.verify) {
    // The `kozelbot verify` line (hundreds of characters of hex) is copied, not shown.
    const line = element("div", "verify");
    const copy = element("button", "copy", words.copy || "kozelbot verify");
    copy.setAttribute("data-verify", deal.verify);
    copy.title = deal.commit || "";
    copy.addEventListener("click", () => copyLine(deal.verify, copy, words));
    line.appendChild(copy);
    actions.appendChild(line);
  }
}

/* The verify line to the clipboard; where the clipboard is not to be had, a text field
   holding it, selected, to copy by hand. */
function copyLine(text, button, words) {
  const done = () => { button.textContent = `${words.copied || "✓"} ✓`; };
  const byHand = () => {
    const field = element("textarea", "verify-text");
    field.value = text;
    field.readOnly = true;
    field.rows = 3;
    button.replaceWith(field);
    field.select();
  };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(done, byHand);
  } else {
    byHand();
  }
}
