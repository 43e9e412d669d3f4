/* The replay of a finished match: every hand shown, frame after frame — step back and
   forth, jump a deal, or let it play. The frames come from the server, which plays the
   match again through the rules (kozelbot/frames.py); each deal shows its shuffle's seal and
   the `kozelbot verify` line that checks it. */
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

  const bar = $("bar");
  bar.replaceChildren();
  const deal = replay.deals.find((d) => d.deal_no === frame.deal) || {};
  bar.appendChild(element("span", "score", `${words.score || ""} ${(table.score || []).join(" : ")}`));
  bar.appendChild(element("span", "deal", `#${(frame.deal || 0) + 1} · ${at + 1}/${replay.frames.length}`));

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

  const trick = $("trick");
  trick.replaceChildren();
  // A trick just completed leaves the table: show it until the next card comes.
  let onTable = tableCards(table);
  if (!onTable.length && table.last_trick && table.last_trick.cards) onTable = table.last_trick.cards;
  for (const [seat, card] of onTable) {
    const slot = element("div", `slot ${places[seat] || "bottom"}`);
    slot.appendChild(card ? cardSvg(card, ranks, trumps.has(card)) : backSvg());
    trick.appendChild(slot);
  }
  $("last").replaceChildren();
  $("hand").replaceChildren();

  $("status").textContent = `${nameOf(frame.seat)}: ${frame.label}`;
  const actions = $("actions");
  actions.replaceChildren();
  const controls = [["⏮", () => jumpDeal(-1)], ["◀", () => step(-1)],
                    [playing ? "⏸" : "⏯", autoplay], ["▶", () => step(1)], ["⏭", () => jumpDeal(1)]];
  for (const [label, act] of controls) {
    const button = element("button", "move control", label);
    button.addEventListener("click", act);
    actions.appendChild(button);
  }
  if (deal.verify) {
    const line = element("code", "verify", deal.verify);
    line.title = deal.commit || "";
    actions.appendChild(line);
  }
}
