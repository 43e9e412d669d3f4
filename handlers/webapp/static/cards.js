/* Cards drawn as SVG by the project: rank in the corners, the suit in the middle, red
   hearts and diamonds, a trump marked with a band. No image is fetched from anywhere.
   Also the felt both the live page and the replay draw (issue #30): the bar's sides, the
   trick by its players, the cover game's stacks, the last trick, the hand laid out so that
   every playable card keeps 44 px under a finger, and the contrast arithmetic (WCAG) that
   keeps Telegram's theme colours readable. (One file: the server serves these five.) */
"use strict";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/* One card ("QC", "10H") as an <svg>: ranks come in the reader's language (words.ranks). */
function cardSvg(name, ranks, trump) {
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  const red = suit === "H" || suit === "D";
  const svg = svgElement("svg", { viewBox: "0 0 60 84", class: "card" + (red ? " red" : "") });
  svg.setAttribute("data-card", name);
  svg.appendChild(svgElement("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  if (trump) svg.appendChild(svgElement("rect", { x: 1, y: 70, width: 58, height: 13, rx: 3, class: "trump" }));
  const label = (ranks && ranks[rank]) || rank;
  svg.appendChild(svgElement("text", { x: 6, y: 17, class: "rank" }, label));
  svg.appendChild(svgElement("text", { x: 6, y: 31, class: "small-suit" }, SUITS[suit]));
  svg.appendChild(svgElement("text", { x: 30, y: 56, class: "suit", "text-anchor": "middle" }, SUITS[suit]));
  svg.appendChild(svgElement("text", { x: 54, y: 80, class: "rank", "text-anchor": "end" }, label));
  svg.appendChild(svgElement("title", {}, label + SUITS[suit]));
  return svg;
}

/* The back of a card (a hand seen from across the table, a card face down). */
function backSvg() {
  const svg = svgElement("svg", { viewBox: "0 0 60 84", class: "card back" });
  svg.appendChild(svgElement("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  svg.appendChild(svgElement("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, class: "pattern" }));
  return svg;
}

/* -- the felt, shared by the live page and the replay ------------------------------------ */

function tag(name, className, text) {
  const node = document.createElement(name);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/* Which seats make each side of the score: with one score a pair (four players, seats 0+2
   and 1+3), else a seat each. */
function sidesOf(score, players) {
  const count = score.length;
  const sides = [];
  for (let side = 0; side < count; side += 1) {
    const seats = [];
    for (let seat = 0; seat < players; seat += 1) if (seat % count === side) seats.push(seat);
    sides.push(seats);
  }
  return sides;
}

/* The bar's table: each side's names, match score and this deal's points, the reader's side
   first (its members "Вы" and the partner's name), then the trump. **Decision**: the pairs
   are named, not numbered: "Вы+Вера" — the chat's table names them the same way. */
function drawBar(bar, facts) {
  const { score, points, players, me, nameOf, words, trump, extra } = facts;
  bar.replaceChildren();
  if (score && score.length) {
    const sides = sidesOf(score, players);
    const order = sides.map((_, i) => i);
    const mine = sides.findIndex((seats) => seats.includes(me));
    if (mine > 0) order.unshift(...order.splice(mine, 1));
    const grid = tag("div", "sides");
    grid.append(tag("span", "head", ""), tag("span", "head num", words.score || ""),
      tag("span", "head num", points ? words.deal_points || "" : ""));
    for (const side of order) {
      const members = [...sides[side]].sort((a, b) => (b === me) - (a === me));
      const who = members.map((seat) => (seat === me ? words.you || nameOf(seat) : nameOf(seat))).join(" + ");
      const cls = side === mine ? " mine" : "";
      grid.append(tag("span", "who" + cls, who), tag("span", "num" + cls, String(score[side])),
        tag("span", "num" + cls, points ? String(points[side] ?? "") : ""));
    }
    bar.appendChild(grid);
  }
  const right = tag("div", "right");
  if (trump) right.appendChild(tag("div", "trump-suit", `${words.trump || ""} ${SUITS[trump] || ""}`));
  if (extra) right.appendChild(extra);
  bar.appendChild(right);
}

/* The follow-suit trick: each card toward the seat that played it, with its name. */
function drawTrick(trick, cards, places, nameOf, ranks, trumps) {
  trick.replaceChildren();
  trick.className = "follow";
  for (const [seat, card] of cards) {
    const slot = tag("div", `slot ${places[seat] || "bottom"}`);
    slot.appendChild(card ? cardSvg(card, ranks, trumps.has(card)) : backSvg());
    slot.appendChild(tag("span", "who", nameOf(seat)));
    trick.appendChild(slot);
  }
}

/* How far down its stack's card each beating card lies, in card widths: the rank and the
   small suit of the card under it show. */
const STACK_STEP = 0.55;

/* The cover game's lead: who led, each stack (the lead card, the cards that beat it lower
   on it, so every card's corner shows), the face-down discards as backs with their count. */
function drawStacks(trick, view, nameOf, ranks, trumps, words) {
  trick.replaceChildren();
  trick.className = "cover";
  const stacks = view.stacks || [];
  if (view.leader !== null && view.leader !== undefined && stacks.length) {
    trick.appendChild(tag("span", "led", (words.leads || "{name}").replace("{name}", nameOf(view.leader))));
  }
  const row = tag("div", "stacks");
  for (const stack of stacks) {
    const pile = tag("div", "stack");
    pile.style.height = `calc(var(--tw) * ${1.4 + (stack.length - 1) * STACK_STEP})`;
    stack.forEach((card, depth) => {
      const svg = cardSvg(card, ranks, trumps.has(card));
      svg.style.top = `calc(var(--tw) * ${depth * STACK_STEP})`;
      pile.appendChild(svg);
    });
    row.appendChild(pile);
  }
  trick.appendChild(row);
  if (view.discards) {
    const down = tag("div", "discards");
    for (let i = 0; i < Math.min(3, view.discards); i += 1) down.appendChild(backSvg());
    down.appendChild(tag("span", "count", `× ${view.discards}`));
    trick.appendChild(down);
  }
}

/* The talon: its count, and the trump suit under it. */
function talonBox(view, words) {
  const box = tag("div", "talon");
  box.appendChild(backSvg());
  box.appendChild(tag("span", "count", `${view.talon} · ${SUITS[view.trump] || ""}`));
  box.title = words.talon || "";
  return box;
}

/* The trick before: each card with who played it, and who took it with its points. */
function drawLast(last, trick, nameOf, ranks, trumps, words) {
  last.replaceChildren();
  if (!trick || !trick.cards) return;
  last.appendChild(tag("span", "caption", `${words.last_trick || ""}:`));
  for (const [seat, card] of trick.cards) {
    const one = tag("span", "played");
    one.appendChild(cardSvg(card, ranks, trumps.has(card)));
    one.appendChild(tag("span", "by", nameOf(seat)));
    last.appendChild(one);
  }
  if (trick.winner !== undefined && trick.winner !== null) {
    const took = (words.took || "{name}").replace("{name}", nameOf(trick.winner));
    last.appendChild(tag("span", "took", trick.points ? `${took} +${trick.points}` : took));
  }
}

/* The hand in rows: a card the reader may play gets at least LEGAL_STEP px of its own, the
   others IDLE_STEP; a row that would not fit the width is split in two (or three), and the
   cards shrink only when even that is not enough. Sets --cw, the card's width. */
const LEGAL_STEP = 48;
const IDLE_STEP = 22;
const SMALL_CARD = 54;

function layoutHand(hand, svgs, playable) {
  hand.replaceChildren();
  if (!svgs.length) return;
  const width = hand.clientWidth || window.innerWidth;
  const largest = Math.min(100, window.innerWidth * 0.24, window.innerHeight * 0.12);
  let card = largest;
  const span = (from, to, size) => {
    let total = size;
    for (let i = from; i < to - 1; i += 1) total += Math.min(size, playable[i] ? LEGAL_STEP : IDLE_STEP);
    return total;
  };
  let rows = 1;
  for (;;) {
    const per = Math.ceil(svgs.length / rows);
    let widest = 0;
    for (let i = 0; i < svgs.length; i += per) widest = Math.max(widest, span(i, Math.min(i + per, svgs.length), card));
    if (widest <= width) break;
    if (rows === 1 && card > SMALL_CARD) card -= 2;  // a little smaller first, in one row
    else if (rows === 1) [rows, card] = [2, largest];
    else if (card > 44) card -= 2;
    else break;
  }
  hand.style.setProperty("--cw", `${card}px`);
  const per = Math.ceil(svgs.length / rows);
  for (let i = 0; i < svgs.length; i += per) {
    const row = tag("div", "row");
    svgs.slice(i, i + per).forEach((svg, k, some) => {
      if (k < some.length - 1) {
        svg.style.marginRight = `${Math.min(card, playable[i + k] ? LEGAL_STEP : IDLE_STEP) - card}px`;
      }
      row.appendChild(svg);
    });
    hand.appendChild(row);
  }
}

/* A colour's relative luminance (WCAG), from "#rrggbb". */
function luminance(hex) {
  const value = hex.replace("#", "");
  const full = value.length === 3 ? [...value].map((c) => c + c).join("") : value;
  const channel = (i) => {
    const s = parseInt(full.slice(i, i + 2), 16) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

function contrast(a, b) {
  const x = luminance(a);
  const y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/* A colour darkened (or lightened) step by step until text of colour ``on`` reads on it at
   4.5 : 1. */
function readableUnder(colour, on) {
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.replace("#", "").padEnd(6, "0").slice(i - 1, i + 1), 16));
  const towards = luminance(on) > 0.5 ? 0 : 255;
  const hex = () => "#" + [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  for (let i = 0; i < 40 && contrast(hex(), on) < 4.5; i += 1) {
    r += (towards - r) * 0.1; g += (towards - g) * 0.1; b += (towards - b) * 0.1;
  }
  return hex();
}
