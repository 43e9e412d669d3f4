/* Which page this is: a finished match's replay (?replay=ID, or a direct link's r<ID>), or
   a live table (?game=ID, or g<ID>). Runs last: page.js and replay.js are loaded. */
"use strict";

function begin() {
  if (replayId) startReplay(replayId);
  else connect();
}

setInterval(() => { if (!replay && current && current.seconds_left !== null) render(); }, 1000);
withTelegram().then(begin);
window.addEventListener("resize", () => { if (replay) drawReplay(); else render(); });
