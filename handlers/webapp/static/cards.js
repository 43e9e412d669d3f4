/* Cards drawn as SVG by the project: rank in the corners, the suit in the middle, red
   hearts and diamonds, a trump marked with a band. No image is fetched from anywhere. */
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
