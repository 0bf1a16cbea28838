"use strict";
// The Play page's drawn board: one component per family (scorecard, pushluck, despirala, farkle), drawn from the
// session's `board` snapshot (PlayBoard: the family's view, the person's legal actions). A click sends the
// same line the terminal would take; keys: 1-9 hold dice, Enter or r rolls, h holds, ? shows the hint.
// Needs app.js (esc, api, guarded) and calls its sendLine.

// The hint is on until the player turns it off, and stays as they left it (local storage).
const HINT_KEY = "dicesolver-hint";
const board = { held: new Set(), heldFor: "", entered: [], enteredFor: "", hint: localStorage.getItem(HINT_KEY) !== "off",
  advice: null, adviceFor: "" };

// -- dice -------------------------------------------------------------------------------------------------------
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

function dieSvg(face, faces) {
  const inner = faces <= 6 && PIPS[face]
    ? PIPS[face].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("")
    : `<text x="50" y="66" text-anchor="middle" font-size="46" font-weight="bold">${face}</text>`;
  return `<svg viewBox="0 0 100 100" aria-label="${face}"><rect x="4" y="4" width="92" height="92" rx="16"/>${inner}</svg>`;
}

function diceRow(dice, faces, { selectable = false, held = new Set() } = {}) {
  return `<div class="board-dice">${dice.map((d, i) =>
    `<button type="button" class="bdie${held.has(i) ? " held" : ""}" ${selectable ? `data-die="${i}"` : "disabled"}
      title="${selectable ? `die ${i + 1}: click or press ${i + 1} to hold` : ""}">${dieSvg(d, faces)}</button>`).join("")}</div>`;
}

// The dice picked out (not yet sent) belong to one position of one game; they are kept in the tab's storage so
// that a reload shows them picked as they were.
const HELD_KEY = "dicesolver.held";

function heldFor(b) {
  if (board.heldFor === b.position) return;
  board.heldFor = b.position;
  board.held = new Set();
  try {
    const saved = JSON.parse(localStorage.getItem(HELD_KEY) || "null");
    if (saved && saved.game === state.session.record && saved.position === b.position) board.held = new Set(saved.held);
  } catch (err) { /* no storage, or not ours: nothing picked */ }
}

function saveHeld() {
  try {
    localStorage.setItem(HELD_KEY, JSON.stringify({ game: state.session.record, position: board.heldFor, held: [...board.held] }));
  } catch (err) { /* private mode: picks live as long as the page */ }
}

// -- hints: the advice for the board's position, every option's value and cost ------------------------------------
async function boardAdvice(b, game) {
  // race boards (push-your-luck, Farkle) always show each player's chance of winning: the position's value
  if (!(board.hint || RACES.has(b.family)) || !b.actions.length) return null;
  if (board.adviceFor !== b.position) {
    board.advice = await api("POST", "/api/advice", { game, position: b.position });
    board.adviceFor = b.position;
  }
  return board.advice;
}

function costOf(advice, action) {
  const option = advice && advice.options.find((o) => o.action === action);
  return option ? option : null;
}

function hintText(option, unit) {
  if (!option) return "";
  const digits = unit === "points" ? 2 : 4;
  return option.cost === 0 ? `<span class="hint-best">best ${option.value.toFixed(digits)}</span>`
    : `<span class="hint-cost">−${option.cost.toFixed(digits)}</span>`;
}

function gameOver(b) {
  return `<b>game over</b>: ${b.names.map((n, i) => `${esc(n)} ${b.totals[i]}`).join(", ")}`;
}

// -- scorecard games ----------------------------------------------------------------------------------------------
function scorecardBoard(b, advice) {
  const v = b.view;
  const scoring = Object.fromEntries(b.actions.filter((a) => a.kind === "score").map((a) => [a.label, a]));
  const deciding = b.actions.length > 0;
  heldFor(b);
  const canKeep = deciding && v.rolls_left > 0;
  let html = `<div class="board-top">`;
  if (v.dice.length) {
    html += diceRow(v.dice, v.faces, { selectable: canKeep, held: board.held });
  } else if (enteringDice(b)) {
    html += `<div class="board-dice muted">${v.held.length ? diceRow(v.held, v.faces).replace("board-dice", "board-dice kept") : ""}</div>`;
    html += dicePad(b, v.n_dice - v.held.length, v.faces);
  } else {
    html += `<div class="board-dice muted">${v.held.length ? diceRow(v.held, v.faces).replace("board-dice", "board-dice kept") : ""}
      <span>${b.mover === null ? gameOver(b) : `${esc(b.names[b.mover])} to throw`}</span></div>`;
  }
  html += `<div class="board-buttons">`;
  if (b.throw) html += `<button type="button" class="primary" data-line="">Throw (Enter)</button>`;
  if (canKeep) {
    html += `<button type="button" class="primary" data-roll="1">Roll ${board.held.size ? "the others" : "all"} (r) · ${v.rolls_left} left</button>`;
  }
  html += `</div></div>`;
  if (canKeep && advice) {
    const keeps = advice.options.filter((o) => o.kind === "keep").slice(0, 3);
    html += `<p class="board-hint">best keeps: ${keeps.map((o) => `<button type="button" class="link" data-line="${esc(o.action)}">${esc(o.option)}</button> ${hintText(o, advice.unit)}`).join(" · ")}</p>`;
  }
  html += `<table class="board-card"><tr><th>box</th>${b.names.map((n, i) => `<th class="num${i === b.mover ? " on-turn" : ""}">${esc(n)}</th>`).join("")}</tr>`;
  const lastUpper = v.categories.map((c) => c.upper).lastIndexOf(true);
  v.categories.forEach((cat, c) => {
    html += `<tr><td title="${esc(cat.title)} (at most ${cat.max})">${esc(cat.title)}</td>`;
    v.cards.forEach((card, seat) => {
      const points = card.boxes[c];
      const option = seat === b.you ? scoring[cat.name] : undefined;
      if (points !== null) html += `<td class="num">${points}</td>`;
      else if (option) {
        html += `<td class="num"><button type="button" class="score" data-line="${esc(option.action)}"
          title="score ${esc(cat.title)} now">+${option.points}</button>${advice ? hintText(costOf(advice, option.action), advice.unit) : ""}</td>`;
      } else html += `<td class="num open">·</td>`;
    });
    html += "</tr>";
    if (c === lastUpper && v.upper_threshold) {
      html += `<tr class="faint"><td>upper (bonus ${v.upper_points} at ${v.upper_threshold})</td>${v.cards.map((card) => {
        const share = Math.min(100, Math.round(100 * card.upper / v.upper_threshold));
        return `<td class="num"><span class="bar"><span style="width:${share}%"></span></span> ${card.upper}</td>`;
      }).join("")}</tr>`;
    }
  });
  if (v.cards.some((card) => card.extra_bonus)) {
    html += `<tr class="faint"><td>extra bonus</td>${v.cards.map((card) => `<td class="num">${card.extra_bonus}</td>`).join("")}</tr>`;
  }
  html += `<tr class="total"><td>total</td>${v.cards.map((card) => `<td class="num">${card.total}</td>`).join("")}</tr></table>`;
  return html;
}

// "My own dice": the person's real throw, entered by tapping the faces it shows (big buttons, for a phone in
// one hand); a tapped die in the tray is taken out again. The line sent is the faces, as typed at the prompt.
function enteringDice(b) {
  return b.mover !== null && b.mover === b.you && !b.throw && !b.actions.length && Boolean(state.session.prompt);
}

function dicePad(b, count, faces) {
  if (board.enteredFor !== b.position) { board.entered = []; board.enteredFor = b.position; }
  const entered = board.entered;
  const tray = entered.map((d, i) => `<button type="button" class="bdie" data-unenter="${i}" title="take this ${d} out"
      aria-label="take out a ${d}">${dieSvg(d, faces)}</button>`).join("");
  const pad = Array.from({ length: faces }, (_, i) => `<button type="button" class="bdie pad-face" data-enter="${i + 1}"
      ${entered.length >= count ? "disabled" : ""} aria-label="a ${i + 1}">${dieSvg(i + 1, faces)}</button>`).join("");
  return `<div class="dice-pad"><p>Your throw: tap the ${count} ${count === 1 ? "die" : "dice"} you threw
    (${entered.length} of ${count})</p><div class="board-dice pad-tray">${tray}</div><div class="pad-faces">${pad}</div>
    <button type="button" class="primary pad-done" data-enter-done="1" ${entered.length === count ? "" : "disabled"}>These are my dice</button></div>`;
}

function rollLine(b) {
  const kept = [...board.held].map((i) => b.view.dice[i]).sort((x, y) => x - y);
  return kept.length ? `keep ${kept.join("")}` : "keep none";
}

// -- push-your-luck games ------------------------------------------------------------------------------------------
function pushBoard(b, advice) {
  const v = b.view;
  let html = `<div class="board-top">${b.last_dice.length ? diceRow(b.last_dice, v.faces) : ""}
    <div class="turn-total">${b.mover === null ? gameOver(b) : `turn total <b>${v.turn_total}</b> · ${esc(b.names[b.mover])} on turn`}</div></div>`;
  // the person's chance of winning with best play from here (the value of the position), and the other's
  const chance = advice ? (seat) => (seat === advice.player ? advice.value : 1 - advice.value) : null;
  html += `<div class="banks">${v.scores.map((score, seat) => {
    const risk = seat === b.mover ? Math.min(v.turn_total, v.goal - score) : 0;
    return `<div class="bank"><span class="who">${esc(b.names[seat])}</span>
      <span class="bar wide"><span style="width:${100 * score / v.goal}%"></span><span class="risk" style="width:${100 * risk / v.goal}%"></span></span>
      <span class="num">${score} / ${v.goal}</span>${chance ? `<span class="pwin">P(win) ${chance(seat).toFixed(3)}</span>` : ""}</div>`;
  }).join("")}</div>`;
  html += `<div class="board-buttons">${b.throw ? `<button type="button" class="primary" data-line="">Throw (Enter)</button>` : ""}
    ${b.actions.map((a) => `<button type="button" class="primary" data-line="${esc(a.action)}">${esc(a.label)} (${a.kind === "hold" ? "h" : "r"})</button>
      ${advice && board.hint ? `P(win) ${costOf(advice, a.action)?.value.toFixed(4) ?? ""} ${hintText(costOf(advice, a.action), advice.unit)}` : ""}`).join(" ")}</div>`;
  return html;
}

// -- Despirala ---------------------------------------------------------------------------------------------------
function despiralaBoard(b, advice) {
  const v = b.view;
  let html = `<div class="board-top">${v.dice.length ? diceRow(v.dice, 6) : ""}
    <div class="turn-total">${b.mover === null ? gameOver(b) + " · " : ""}round ${v.round} of ${v.rounds} · ${esc(v.phase)}${v.combination >= 0 ? ` · ${esc(v.combinations[v.combination].name)}` : ""}${v.phase === "collect" ? ` (${v.have} held)` : ""}</div></div>`;
  html += `<table class="board-card"><tr><th>combination</th>${b.names.map((n, i) => `<th class="num${i === b.mover ? " on-turn" : ""}">${esc(n)}</th>`).join("")}</tr>`;
  v.combinations.forEach((combo) => {
    html += `<tr><td>${esc(combo.name)}</td>${v.seats.map((seat) => `<td class="num">${seat.free.includes(combo.index) ? "·" : "✓"}</td>`).join("")}</tr>`;
  });
  html += `<tr class="faint"><td>goods</td>${v.seats.map((s) => `<td class="num">${s.goods}</td>`).join("")}</tr>`;
  html += `<tr class="total"><td>points</td>${v.seats.map((s) => `<td class="num">${s.points}</td>`).join("")}</tr></table>`;
  html += `<div class="board-buttons moves">${b.throw ? `<button type="button" class="primary" data-line="">Throw (Enter)</button>` : ""}
    ${b.actions.map((a) => `<span class="move"><button type="button" data-line="${esc(a.action)}">${esc(a.label)}</button>${advice ? hintText(costOf(advice, a.action), advice.unit) : ""}</span>`).join("")}</div>`;
  return html;
}

// -- Farkle ----------------------------------------------------------------------------------------------------
// The throw on the table: click dice to set them aside (or pick one of the legal set-asides below), then bank
// or throw the dice left; both banks as bars with the turn total at risk, and each choice's P(win).
function farkleBoard(b, advice) {
  const v = b.view;
  heldFor(b);
  const taking = v.phase === "take" && b.actions.length > 0;
  const status = b.mover === null ? gameOver(b)
    : `turn total <b>${v.turn_total}</b> · ${v.left} dice ${v.phase === "take" ? "thrown" : "left"} · ${esc(b.names[b.mover])} on turn`;
  let html = `<div class="board-top">${v.table.length ? diceRow(v.table, 6, { selectable: taking, held: board.held }) : ""}
    <div class="turn-total">${status}</div></div>`;
  const chance = advice ? (seat) => (seat === advice.player ? advice.value : 1 - advice.value) : null;
  html += `<div class="banks">${v.scores.map((score, seat) => {
    const span = v.goal - v.floor;
    const risk = seat === b.mover ? Math.min(v.turn_total, v.goal - score) : 0;
    const marks = v.farkles[seat] ? ` <span class="farkles" title="Farkles in a row">${"✗".repeat(v.farkles[seat])}</span>` : "";
    return `<div class="bank"><span class="who">${esc(b.names[seat])}${marks}</span>
      <span class="bar wide"><span style="width:${100 * (score - v.floor) / span}%"></span><span class="risk" style="width:${100 * risk / span}%"></span></span>
      <span class="num">${score} / ${v.goal}</span>${chance ? `<span class="pwin">P(win) ${chance(seat).toFixed(3)}</span>` : ""}</div>`;
  }).join("")}</div>`;
  const pwin = (a) => (advice ? ` P(win) ${costOf(advice, a.action)?.value.toFixed(4) ?? ""} ${board.hint ? hintText(costOf(advice, a.action), advice.unit) : ""}` : "");
  html += `<div class="board-buttons moves">${b.throw ? `<button type="button" class="primary" data-line="">Throw (Enter)</button>` : ""}`;
  if (taking) {
    const picked = [...board.held].map((i) => v.table[i]).sort((x, y) => x - y).join("");
    html += `<button type="button" class="primary" data-take ${picked ? "" : "disabled"}>Set aside ${picked || "(click dice)"}</button>`;
    html += b.actions.map((a) => `<span class="move"><button type="button" data-line="${esc(a.action)}">${esc(a.label)}</button>${pwin(a)}</span>`).join("");
  } else {
    html += b.actions.map((a) => `<span class="move"><button type="button" class="primary" data-line="${esc(a.action)}">${a.kind === "bank" ? "Bank (b)" : "Throw (r)"}</button>${pwin(a)}</span>`).join("");
  }
  return html + "</div>";
}

const RACES = new Set(["pushluck", "farkle"]);
const BOARDS = { scorecard: scorecardBoard, pushluck: pushBoard, despirala: despiralaBoard, farkle: farkleBoard };

async function renderBoard(session) {
  const area = $("board");
  const b = session.board;
  if (!b || !BOARDS[b.family]) { area.hidden = true; return; }
  area.hidden = false;
  const advice = await boardAdvice(b, session.game).catch(() => null);
  if (state.session !== session) return;  // a newer answer came meanwhile: it draws the board
  area.dataset.position = b.position;
  area.innerHTML = BOARDS[b.family](b, advice) +
    `<label class="hint-toggle"><input type="checkbox" id="hint-toggle" ${board.hint ? "checked" : ""}> hint: every option's value and cost (?)</label>`;
}

function boardKey(e) {
  const s = state.session;
  if (!s || !s.board || !s.prompt || e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
  // only on the Play page, and Enter or space on a focused button, list or field is that control's own
  if (!$("play").classList.contains("active")) return;
  if (["BUTTON", "SELECT", "TEXTAREA"].includes(e.target.tagName) && (e.key === "Enter" || e.key === " ")) return;
  const b = s.board;
  const send = (line) => { e.preventDefault(); guarded(() => sendLine(line)); };
  if (e.key === "?") { e.preventDefault(); toggleHint(); return; }
  if (b.throw && (e.key === "Enter" || e.key === "r")) return send("");
  if (b.family === "scorecard" && enteringDice(b)) {  // my own dice: their faces typed, Enter when all are in
    const count = b.view.n_dice - b.view.held.length;
    const face = +e.key;
    if (Number.isInteger(face) && face >= 1 && face <= b.view.faces && board.entered.length < count) {
      e.preventDefault(); board.entered.push(face); renderBoard(s); return;
    }
    if (e.key === "Backspace" && board.entered.length) { e.preventDefault(); board.entered.pop(); renderBoard(s); return; }
    if (e.key === "Enter" && board.entered.length === count) return send(board.entered.join(""));
  }
  if (b.family === "scorecard" && b.actions.length && b.view.rolls_left > 0) {
    const i = +e.key - 1;
    if (Number.isInteger(i) && i >= 0 && i < b.view.dice.length) { e.preventDefault(); toggleDie(i); return; }
    if (e.key === "Enter" || e.key === "r") return send(rollLine(b));
  }
  if (RACES.has(b.family)) {
    const find = (kind) => b.actions.find((a) => a.kind === kind);
    if ((e.key === "r" || e.key === "Enter") && find("throw")) return send(find("throw").action);
    if (e.key === "h" && find("hold")) return send(find("hold").action);
    if (e.key === "b" && find("bank")) return send(find("bank").action);
  }
  if (b.family === "farkle" && b.view.phase === "take" && b.actions.length) {
    const i = +e.key - 1;
    if (Number.isInteger(i) && i >= 0 && i < b.view.table.length) { e.preventDefault(); toggleDie(i); return; }
    if (e.key === "Enter" && board.held.size) return send(takeLine(b));
  }
}

function takeLine(b) {
  return `take ${[...board.held].map((i) => b.view.table[i]).sort((x, y) => x - y).join("")}`;
}

function toggleDie(i) {
  if (board.held.has(i)) board.held.delete(i); else board.held.add(i);
  saveHeld();
  renderBoard(state.session);
}

function toggleHint() {
  board.hint = !board.hint;
  localStorage.setItem(HINT_KEY, board.hint ? "on" : "off");
  guarded(() => renderBoard(state.session));
}

$("board").addEventListener("click", (e) => {
  const target = e.target.closest("button, input");
  if (!target || !state.session || !state.session.prompt) {
    if (target && target.id === "hint-toggle") toggleHint();
    return;
  }
  if (target.id === "hint-toggle") { toggleHint(); return; }
  if (target.dataset.die !== undefined) { toggleDie(+target.dataset.die); return; }
  if (target.dataset.enter !== undefined) { board.entered.push(+target.dataset.enter); renderBoard(state.session); return; }
  if (target.dataset.unenter !== undefined) { board.entered.splice(+target.dataset.unenter, 1); renderBoard(state.session); return; }
  if (target.dataset.enterDone !== undefined) { guarded(() => sendLine(board.entered.join(""))); return; }
  if (target.dataset.roll !== undefined) { guarded(() => sendLine(rollLine(state.session.board))); return; }
  if (target.dataset.take !== undefined) { guarded(() => sendLine(takeLine(state.session.board))); return; }
  if (target.dataset.line !== undefined) guarded(() => sendLine(target.dataset.line));
});
document.addEventListener("keydown", boardKey);
