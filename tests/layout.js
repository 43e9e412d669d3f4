/* The layout checks of tests/test_webapp_layout.py, run in the page: overlapping text boxes,
   text cut off (or a word broken across rows), playable cards narrower than 44 px under a finger, contrast under 4.5 : 1,
   table cards whose corner is hidden. Returns {kind: [what, ...]}. */
() => {
  const found = { overlap: [], cut: [], narrow: [], contrast: [], hidden: [] };
  const W = window.innerWidth;
  const H = window.innerHeight;
  const visible = (el) => {
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const label = (el) => {
    const text = (el.textContent || "").trim().slice(0, 24);
    const card = el.getAttribute && el.getAttribute("data-card");
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${(el.getAttribute("class") || "").replace(/ /g, ".")}` +
      (card ? `[${card}]` : "") + (text && !card ? `«${text}»` : "");
  };
  const inSvg = (el) => el.closest("svg") !== null;
  /* HTML elements holding text of their own. */
  const texts = [...document.querySelectorAll("body *")].filter((el) => !inSvg(el) && visible(el) &&
    [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  const tableCards = [...document.querySelectorAll("#trick svg.card, #last svg.card")].filter(visible);
  const openCards = [...document.querySelectorAll(".open-hand svg.card")].filter(visible);
  const seats = [...document.querySelectorAll(".seat")].filter(visible);
  const area = (a, b) => {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return x > 0 && y > 0 ? x * y : 0;
  };
  const related = (a, b) => a.contains(b) || b.contains(a);
  const check = (a, b) => {
    if (related(a, b)) return;
    const overlap = area(a.getBoundingClientRect(), b.getBoundingClientRect());
    if (overlap > 1) found.overlap.push(`${label(a)} × ${label(b)} ${Math.round(overlap)} px²`);
  };
  for (let i = 0; i < texts.length; i += 1) for (let j = i + 1; j < texts.length; j += 1) check(texts[i], texts[j]);
  for (const card of tableCards) {
    for (const el of [...texts, ...seats, ...openCards]) check(card, el);
  }
  /* A text of the felt (a caption, a name) over another seat's box. */
  for (const el of texts) for (const seat of seats) if (el.closest(".seat") !== seat && el.closest("#table")) check(el, seat);

  for (const el of texts) {
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline") {
      found.cut.push(`${label(el)} ${el.scrollWidth} > ${el.clientWidth}`);
    } else if (r.left < -0.5 || r.right > W + 0.5) {
      found.cut.push(`${label(el)} outside the screen`);
    } else {
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (getComputedStyle(up).overflow === "visible") continue;
        const box = up.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          found.cut.push(`${label(el)} outside ${label(up)}`);
          break;
        }
      }
    }
  }

  /* A word broken across rows (a name's «Алекса» / «ндра»): text cut in the middle. */
  for (const el of texts) {
    for (const node of el.childNodes) {
      if (node.nodeType !== 3) continue;
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
        if (tops.size > 1) found.cut.push(`${label(el)} breaks «${word[0]}» across rows`);
      }
    }
  }

  /* Playable cards: the widest run of points a finger reaches this card at, across rows. */
  for (const card of document.querySelectorAll("#hand svg.card.legal")) {
    const r = card.getBoundingClientRect();
    let best = 0;
    for (let y = r.top + 4; y < Math.min(r.bottom, H) - 2; y += 6) {
      let run = 0;
      for (let x = Math.max(0, r.left); x < Math.min(r.right, W); x += 1) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === card || card.contains(hit))) { run += 1; best = Math.max(best, run); } else run = 0;
      }
    }
    if (best < 44) found.narrow.push(`${label(card)} ${best} px`);
  }

  /* A table card's corner (its rank and suit): 12×20 px at its top left, uncovered. */
  for (const card of document.querySelectorAll("#trick svg.card:not(.back)")) {
    const r = card.getBoundingClientRect();
    let seen = 0;
    for (let x = r.left + 3; x < r.left + 15; x += 3) {
      for (let y = r.top + 3; y < r.top + 23; y += 4) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === card || card.contains(hit))) seen += 1;
      }
    }
    if (seen < 16) found.hidden.push(`${label(card)} corner ${seen}/20`);
  }

  /* Contrast: the text's colour over what is behind it, blended down to an opaque layer. */
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const x = lum(a); const y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  /* Every background the text may stand on: each layer's colour, a gradient's colours. */
  const backgrounds = (el) => {
    const layers = [];
    for (let up = el; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      const colours = [];
      const image = style.backgroundImage;
      if (image && image !== "none") {
        for (const m of image.matchAll(/rgba?\([^)]+\)/g)) colours.push(parse(m[0]));
      }
      const colour = parse(style.backgroundColor);
      if (colours.length) layers.push(colours);
      else if (colour && colour[3] > 0) layers.push([colour]);
      if ((colours.length && colours.every((c) => c[3] === 1)) || (!colours.length && colour && colour[3] === 1)) break;
    }
    let results = [[255, 255, 255, 1]];
    for (const layer of layers.reverse()) {
      const next = [];
      for (const under of results) for (const c of layer) next.push(over(c, under));
      results = next;
    }
    return results;
  };
  for (const el of texts) {
    const style = getComputedStyle(el);
    const colour = parse(style.color);
    const opacity = (() => { let o = 1; for (let up = el; up; up = up.parentElement) o *= Number(getComputedStyle(up).opacity); return o; })();
    for (const under of backgrounds(el)) {
      const fg = over([colour[0], colour[1], colour[2], colour[3] * opacity], under);
      const r = ratio(fg, under);
      if (r < 4.5) { found.contrast.push(`${label(el)} ${r.toFixed(2)} : 1`); break; }
    }
  }
  return found;
}
