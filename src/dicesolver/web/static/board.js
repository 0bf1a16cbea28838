"use strict";
// The Play page's drawn board: one component per family (scorecard, pushluck, despirala, farkle), drawn from the
// session's `board` snapshot (PlayBoard: the family's view, the person's legal actions). A click sends the
// same line the terminal would take; keys: 1-9 hold dice, Enter or r rolls, h holds, ? shows the hint.
// Needs app.js (esc, api, guarded) and calls its sendLine.

// The hint is on until the player turns it off, and stays as they left it (local storage).
const HINT_KEY = "dicesolver-hint";
const board = { held: new Set(), heldFor: "", entered: [], enteredFor: "", hint: localStorage.getItem(HINT_KEY) !== "off",
  advice: null, adviceFor: "", asking: new Set() };

// -- dice -------------------------------------------------------------------------------------------------------
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

function dieSvg(face, faces) {
  const inner = faces <= 6 && PIPS[face]
    ? PIPS[face].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("")
    : `<text x="50" y="66" text-anchor="middle" font-size="46" font-weight="bold">${face}</text>`;
  return `<svg viewBox="0 0 100 100" aria-hidden="true"><rect x="4" y="4" width="92" height="92" rx="16"/>${inner}</svg>`;
}

// Each die a button named by its face; one that can be held says whether it is (aria-pressed).
function diceRow(dice, faces, { selectable = false, held = new Set() } = {}) {
  return `<div class="board-dice">${dice.map((d, i) =>
    `<button type="button" class="bdie${held.has(i) ? " held" : ""}" ${selectable ? `data-die="${i}" aria-pressed="${held.has(i)}"` : "disabled"}
      aria-label="a ${d}" title="${selectable ? `die ${i + 1}: click or press ${i + 1} to hold` : ""}">${dieSvg(d, faces)}</button>`).join("")}</div>`;
}

// The dice picked out (not yet sent) belong to one position of one game; they are kept in the tab's storage so
// that a reload shows them picked as they were.
const HELD_KEY = "dicesolver.held";

// One moment of one game: a position may come back (a Pig turn that ends at once), a moment does not.
function momentOf(b) { return `${b.moves}:${b.position}`; }

function heldFor(b) {
  if (board.heldFor === momentOf(b)) return;
  board.heldFor = momentOf(b);
  board.held = new Set();
  try {
    const saved = JSON.parse(localStorage.getItem(HELD_KEY) || "null");
    if (saved && saved.game === state.session.record && saved.moment === board.heldFor) board.held = new Set(saved.held);
  } catch (err) { /* no storage, or not ours: nothing picked */ }
}

function saveHeld() {
  try {
    localStorage.setItem(HELD_KEY, JSON.stringify({ game: state.session.record, moment: board.heldFor, held: [...board.held] }));
  } catch (err) { /* private mode: picks live as long as the page */ }
}

// -- hints: the advice for the board's position, every option's value and cost ------------------------------------
// The hint plays for the board's own goal ("Play for", a copy of the Advisor's row, shown with the hint).
async function boardAdvice(b, game) {
  // race boards (push-your-luck, Farkle) always show each player's chance of winning: the position's value
  if (!(board.hint || RACES.has(b.family)) || !b.actions.length) return null;
  const goal = board.hint ? goalText(state.games[game], "board") : null;
  const key = boardAdviceKey(b, game);
  if (board.adviceFor === key) return board.advice;
  if (!goal) {
    board.advice = await api("POST", "/api/advice", { game, position: b.position });
    board.adviceFor = key;
    return board.advice;
  }
  // a goal's table may take minutes the first time: the board is drawn without the hint meanwhile (the bar shows
  // the build), and again when its advice comes if the board still wants it (not when the goal or the game moved on)
  if (!board.asking.has(key)) {
    board.asking.add(key);
    api("POST", "/api/advice", { game, position: b.position, goal }).then((advice) => {
      const s = state.session;
      if (!s || !s.board || boardAdviceKey(s.board, s.game) !== key) return;
      board.advice = advice;
      board.adviceFor = key;
      renderBoard(s);
    }).catch((err) => showMessage(err.message)).finally(() => board.asking.delete(key));
  }
  return null;
}

// What the board's hint is asked for: its position under the board's goal.
function boardAdviceKey(b, game) {
  const goal = board.hint ? goalText(state.games[game], "board") : null;
  return `${b.position}|${goal || ""}`;
}

// The board's "Play for" row: the Advisor's row copied, its ids "board-goal-…", placed below the board.
function makeBoardGoalRow() {
  const row = $("advisor-goal-row").cloneNode(true);
  row.id = "board-goal-row";
  for (const element of row.querySelectorAll("[id]")) element.id = element.id.replace(/^advisor-/, "board-");
  row.hidden = true;
  $("board").after(row);
  restoreGoal("board");
  let said = null;  // the goal last drawn for: a change event that says the same (a field left) redraws nothing
  watchGoal("board", () => {
    keepGoal("board");
    const s = state.session;
    const goal = s && goalText(state.games[s.game], "board");
    if (s && goal !== said) { said = goal; guarded(() => renderBoard(s)); }
  });
}
makeBoardGoalRow();

function costOf(advice, action) {
  const option = advice && advice.options.find((o) => o.action === action);
  return option ? option : null;
}

// A move's worth with its unit: the best says what it is worth (points expected, a chance, an equity), the others
// what they cost against it, in the same unit; short on the board, in full words in the title.
function hintText(option, unit) {
  if (!option) return "";
  const percent = unit === "p_win" || unit === "p_target";
  const points = unit === "points" || unit === "ce";
  const shown = (x) => (points ? `${x.toFixed(2)} pts` : percent ? `${(100 * x).toFixed(1)}%` : `${x.toFixed(3)} equity`);
  const said = unit === "points" ? "points expected" : unit === "ce" ? "points as good as certain (certainty equivalent)"
    : percent ? (unit === "p_win" ? "chance to win" : "chance of the goal") : "equity (+1 a win, −1 a loss)";
  return option.cost === 0 ? `<span class="hint-best" title="the best move: ${said}">best ${shown(option.value)}</span>`
    : `<span class="hint-cost" title="what it costs against the best, in ${said}">−${shown(option.cost)}</span>`;
}

// A race's move with its chance to win, and against the best what it gives away ("48.1% to win (−3.1%)").
function chanceHint(option) {
  if (!option) return "";
  const win = `${(100 * option.value).toFixed(1)}% to win`;
  return option.cost === 0 ? `<span class="hint-best" title="the best move: its chance to win">best, ${win}</span>`
    : `<span class="hint-cost" title="its chance to win, and what it gives away against the best">${win}
      (−${(100 * option.cost).toFixed(1)}%)</span>`;
}

function gameOver(b) {
  const scores = b.names.map((n, i) => `${esc(n)} ${b.totals[i]}`).join(", ");
  // the table's last words (the verdict: who won, by how much), less their own "game over"
  const said = (b.said || []).join(" ").replace(/^game over:\s*/i, "");
  return `<b>game over</b>: ${said ? esc(said) : scores}`;
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
  } else {
    html += `<div class="board-dice muted">${v.held.length ? diceRow(v.held, v.faces).replace("board-dice", "board-dice kept") : ""}
      <span>${b.mover === null ? gameOver(b) : b.request ? "" : `${esc(b.names[b.mover])} to throw`}</span></div>`;
  }
  html += `<div class="board-buttons">`;
  if (b.throw) html += `<button type="button" class="primary" data-line="">Throw (Enter)</button>`;
  if (canKeep) {
    html += `<button type="button" class="primary" data-roll="1" aria-keyshortcuts="r" title="r">Roll ${board.held.size ? v.dice.length - board.held.size : "all"} · ${v.rolls_left} left</button>`;
  }
  html += `</div></div>`;
  if (canKeep && advice) {
    const keeps = advice.options.filter((o) => o.kind === "keep").slice(0, 3);
    html += `<p class="board-hint"><span class="label">best keeps:</span> ${keeps.map((o) => `<span class="move"><button type="button" class="link" data-line="${esc(o.action)}"
      aria-label="${esc(plainAction(state.session.game, o.action))}">${o.option === "-" ? "none" : esc(o.option)}</button>${hintText(o, advice.unit)}</span>`).join("")}</p>`;
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
      html += `<tr class="faint"><td>upper: bonus ${v.upper_points} at ${v.upper_threshold}</td>${v.cards.map((card) => {
        const ahead = card.upper - upperPar(v, card);
        return bonusCell(card.upper, v.upper_threshold, `${ahead >= 0 ? "+" : "−"}${Math.abs(ahead)} par`, "upper-note");
      }).join("")}</tr>`;
    }
    (v.set_bonuses || []).forEach((bonus, k) => {  // a bonus on another set of boxes, under its last box
      if (c !== Math.max(...bonus.boxes)) return;
      html += `<tr class="faint"><td>${esc(bonus.title)}: ${bonus.points} at ${bonus.threshold}</td>${v.cards.map((card) =>
        bonusCell(card.sets[k], bonus.threshold, "", "set-note")).join("")}</tr>`;
    });
  });
  if (v.cards.some((card) => card.extra_bonus)) {
    html += `<tr class="faint"><td>extra bonus</td>${v.cards.map((card) => `<td class="num">${card.extra_bonus}</td>`).join("")}</tr>`;
  }
  html += `<tr class="total"><td>total</td>${v.cards.map((card) => `<td class="num">${card.total}</td>`).join("")}</tr></table>`;
  return html;
}

// A bonus's cell: the bar of its boxes' points against its threshold, and what is still needed (with ``pace``,
// how the card stands against par) or that it is won.
function bonusCell(sum, threshold, pace, noteClass) {
  const share = Math.min(100, Math.round(100 * sum / threshold));
  const need = Math.max(0, threshold - sum);
  const note = need ? `${need} to go${pace ? ` · ${pace}` : ""}` : "bonus won";
  return `<td class="num"><span class="bar" title="${sum} of ${threshold}"><span style="width:${share}%"></span></span> ${sum}
    <span class="${noteClass}">${note}</span></td>`;
}

// Par for the upper boxes filled so far: each box's share of the bonus threshold (three of each face, in
// Yahtzee's 63), so that "+3 par" says the card is ahead of the bonus's pace.
function upperPar(v, card) {
  const upper = v.categories.map((cat, c) => ({ cat, c })).filter(({ cat }) => cat.upper);
  const all = upper.reduce((sum, { cat }) => sum + cat.max, 0);
  const filled = upper.filter(({ c }) => card.boxes[c] !== null).reduce((sum, { cat }) => sum + cat.max, 0);
  return all ? Math.round(v.upper_threshold * filled / all) : 0;
}

// "My own dice": the person's real throw, asked for on the board whatever the game, from what the server says
// the throw is (b.request): so many dice of so many faces, entered by tapping the faces (big buttons, for a
// phone in one hand; a tapped die in the tray is taken out again), or one of a few outcomes picked by name.
// The line sent is what the terminal's prompt takes: the faces, or the outcome.
function enteringDice(b) {
  return Boolean(b.request) && Boolean(state.session.prompt);
}

function requestPad(b) {
  const r = b.request;
  const asked = r.prompt.replace(/[:?]\s*$/, "");
  const question = esc(asked.charAt(0).toUpperCase() + asked.slice(1));
  if (!r.dice) {
    return `<div class="dice-pad" role="group" aria-label="${question}"><p>${question}:</p><div class="pad-choices">${r.choices.map((c) =>
      `<button type="button" class="choice" data-line="${esc(c.action)}">${esc(c.label)}</button>`).join("")}</div></div>`;
  }
  if (board.enteredFor !== momentOf(b)) { board.entered = []; board.enteredFor = momentOf(b); }
  const entered = board.entered;
  const tray = entered.map((d, i) => `<button type="button" class="bdie" data-unenter="${i}" title="take this ${d} out"
      aria-label="take out a ${d}">${dieSvg(d, r.faces)}</button>`).join("");
  const pad = Array.from({ length: r.faces }, (_, i) => `<button type="button" class="bdie pad-face" data-enter="${i + 1}"
      ${entered.length >= r.dice ? "disabled" : ""} aria-label="a ${i + 1}">${dieSvg(i + 1, r.faces)}</button>`).join("");
  return `<div class="dice-pad" role="group" aria-label="${question}"><p><b>${question}</b>: tap ${r.dice === 1 ? "its face" : "their faces"}
    (${entered.length} of ${r.dice})</p><div class="board-dice pad-tray">${tray}</div><div class="pad-faces">${pad}</div>
    <button type="button" class="primary pad-done" data-enter-done="1" ${entered.length === r.dice ? "" : "disabled"}>These are my dice</button></div>`;
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
      <span class="num">${score} / ${v.goal}</span>${chance ? `<span class="pwin">${(100 * chance(seat)).toFixed(1)}% to win</span>` : ""}</div>`;
  }).join("")}</div>`;
  html += `<div class="board-buttons">${b.throw ? `<button type="button" class="primary" data-line="">Throw (Enter)</button>` : ""}
    ${b.actions.map((a) => `<button type="button" class="primary" data-line="${esc(a.action)}">${esc(a.label)} (${a.kind === "hold" ? "h" : "r"})</button>
      ${advice && board.hint ? chanceHint(costOf(advice, a.action)) : ""}`).join(" ")}</div>`;
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
  return html + combinationWords(v.combinations, v.move_words);
}

// What each combination is and scores, and what the other moves do: one tap opens them (Despirala's names say
// little: "Kamerun", "Collect 3").
function combinationWords(combinations, moves) {
  return `<details class="combo-words"><summary>What the combinations score</summary><ul>${combinations.map((c) =>
    `<li><b>${esc(c.name)}</b>: ${esc(c.words)}</li>`).join("")}</ul><p>${esc(moves)}</p></details>`;
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
    const risk = seat === b.mover ? Math.min(v.turn_total, v.goal - score) : 0;
    const marks = v.farkles[seat] ? ` <span class="farkles" title="Farkles in a row">${"✗".repeat(v.farkles[seat])}</span>` : "";
    return `<div class="bank"><span class="who">${esc(b.names[seat])}${marks}</span>
      <span class="bar wide"><span style="width:${100 * Math.max(0, score) / v.goal}%"></span><span class="risk" style="width:${100 * risk / v.goal}%"></span></span>
      <span class="num">${score} / ${v.goal}</span>${chance ? `<span class="pwin">${(100 * chance(seat)).toFixed(1)}% to win</span>` : ""}</div>`;
  }).join("")}</div>`;
  const pwin = (a) => (advice && board.hint ? ` ${chanceHint(costOf(advice, a.action))}` : "");
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

// The chance of winning in words, from the position's value: a probability, or an equity (+1 win, 0 draw,
// -1 loss) read as the share of the stakes (a draw counted as half a win).
function chanceInWords(advice) {
  if (!advice || advice.value === null) return "";
  if (advice.unit === "p_win") return `With best play you win ${(100 * advice.value).toFixed(1)}% of games from here.`;
  if (advice.unit === "p_target") return `Played for it, you reach the goal ${(100 * advice.value).toFixed(1)}% of the time from here.`;
  if (advice.unit === "ce") return `To this risk appetite the position is worth ${advice.value.toFixed(2)} points as good as certain.`;
  if (advice.unit === "equity") {
    return `With best play you win about ${(50 * (1 + advice.value)).toFixed(1)}% of games from here (a draw counted as half).`;
  }
  return "";
}

// Every option of the position, its value and cost (the Advisor's table), under "show all".
function allOptions(advice) {
  const digits = advice.unit === "points" || advice.unit === "ce" ? 2 : 4;
  if (!board.showAll) {
    return `<button type="button" class="all-options" data-show-all="1">show all ${advice.options.length} options</button>`;
  }
  return `<button type="button" class="all-options" data-show-all="0">show fewer</button>
    <table class="options-table"><tr><th>option</th><th class="num">value</th><th class="num">cost</th></tr>${advice.options.map((o) =>
    `<tr><td><button type="button" class="link" data-line="${esc(o.action)}">${esc(plainAction(state.session.game, o.action))}</button></td>
      <td class="num">${o.value.toFixed(digits)}</td><td class="num">${o.cost ? "−" + o.cost.toFixed(digits) : "best"}</td></tr>`).join("")}</table>`;
}

async function renderBoard(session) {
  const area = $("board");
  const b = session.board;
  const g = state.games[session.game];
  setupGoal(g, "board");
  $("board-goal-row").hidden = !b || !BOARDS[b.family] || !board.hint || !b.actions.length || !(g && (g.page.goals || []).length);
  if (!b || !BOARDS[b.family]) { area.hidden = true; return; }
  area.hidden = false;
  if (b.tutor) {  // the tutor's warning before a costly move: taken back or played anyway, nothing else meanwhile
    area.dataset.moment = momentOf(b);
    area.dataset.moves = b.moves;
    const w = b.tutor;
    area.innerHTML = `<div class="tutor-card" role="alertdialog" aria-labelledby="tutor-title">
      <p id="tutor-title"><b>Tutor:</b> ${esc(plainAction(session.game, w.move))} costs ${w.cost.toFixed(w.cost < 1 ? 4 : 2)} against
        <b>${esc(plainAction(session.game, w.best))}</b>.</p><p>${esc(w.reason)}</p>
      <p class="board-buttons"><button type="button" class="primary" data-line="no">Take it back</button>
        <button type="button" data-line="yes">Play it anyway</button></p></div>` + BOARDS[b.family]({ ...b, actions: [] }, null);
    area.querySelector(".tutor-card button").focus();
    return;
  }
  const advice = await boardAdvice(b, session.game).catch(() => null);
  if (state.session !== session) return;  // a newer answer came meanwhile: it draws the board
  const focused = area.contains(document.activeElement);
  area.dataset.position = b.position;
  area.dataset.moment = momentOf(b);  // the board on the screen: its controls play on it, and on no later one
  area.dataset.moves = b.moves;
  const words = chanceInWords(advice);
  const why = explains(advice) ? ` <button type="button" class="all-options" data-why="1">why is the best the best?</button><div class="why-area"></div>` : "";
  const more = advice && board.hint && b.actions.length > 1 ? `<div class="more">${allOptions(advice)}${why}</div>` : "";
  area.innerHTML = (enteringDice(b) ? requestPad(b) : "") + BOARDS[b.family](b, advice) +
    (words && (board.hint || RACES.has(b.family)) ? `<p class="chance">${words}</p>` : "") + more +
    `<label class="hint-toggle"><input type="checkbox" id="hint-toggle" ${board.hint ? "checked" : ""}> hint: every option's value and cost (?)</label>`;
  // keyboard play: focus stays on the board, on its first control that plays (it was on a button now redrawn)
  if (focused) {
    const next = area.querySelector(".pad-face:not(:disabled), .pad-choices button, .board-buttons button, .moves button, button.score");
    if (next) next.focus();
  }
}

// Whether the board on the screen is the game's board as it stands (a newer one may be waiting for its advice).
function drawnNow(s) { return $("board").dataset.moment === momentOf(s.board); }

function boardKey(e) {
  const s = state.session;
  if (!s || !s.board || !s.prompt || e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!drawnNow(s)) { e.preventDefault(); return; }  // a key for the board on the screen, not for one not yet drawn
  // only on the Play page, and Enter or space on a focused button, list or field is that control's own
  if (!$("play").classList.contains("active")) return;
  if (["BUTTON", "SELECT", "TEXTAREA"].includes(e.target.tagName) && (e.key === "Enter" || e.key === " ")) return;
  const b = s.board;
  const send = (line) => { e.preventDefault(); guarded(() => sendLine(line, b.moves)); };
  if (e.key === "?") { e.preventDefault(); toggleHint(); return; }
  if (b.throw && (e.key === "Enter" || e.key === "r")) return send("");
  if (enteringDice(b) && b.request.dice) {  // my own dice: their faces typed, Enter when all are in
    const count = b.request.dice;
    const face = +e.key;
    if (Number.isInteger(face) && face >= 1 && face <= b.request.faces && board.entered.length < count) {
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
  if (target.dataset.showAll !== undefined) { board.showAll = target.dataset.showAll === "1"; renderBoard(state.session); return; }
  if (target.dataset.why !== undefined) {
    const area = $("board").querySelector(".why-area");
    guarded(() => explainInto(area, state.session.game, state.session.board.position));
    return;
  }
  if (target.closest(".why")) return;
  if (target.id === "hint-toggle") { toggleHint(); return; }
  if (target.dataset.die !== undefined) { toggleDie(+target.dataset.die); return; }
  if (target.dataset.enter !== undefined) { board.entered.push(+target.dataset.enter); renderBoard(state.session); return; }
  if (target.dataset.unenter !== undefined) { board.entered.splice(+target.dataset.unenter, 1); renderBoard(state.session); return; }
  // a move is made on the board on the screen, which the game may have left (a double tap): the server then
  // plays nothing; the second tap of a double tap on the next board is dropped here (see SETTLE_MS)
  const area = $("board");
  if (!drawnNow(state.session) || doubleTap(e)) return;
  const moves = +area.dataset.moves;
  if (target.dataset.enterDone !== undefined) { guarded(() => sendLine(board.entered.join(""), moves)); return; }
  if (target.dataset.roll !== undefined) { guarded(() => sendLine(rollLine(state.session.board), moves)); return; }
  if (target.dataset.take !== undefined) { guarded(() => sendLine(takeLine(state.session.board), moves)); return; }
  if (target.dataset.line !== undefined) guarded(() => sendLine(target.dataset.line, moves));
});
$("board").addEventListener("change", (e) => {
  if (e.target.classList.contains("why-versus") && state.session && state.session.board) {
    const area = $("board").querySelector(".why-area");
    guarded(() => explainInto(area, state.session.game, state.session.board.position, e.target.value));
  }
});
document.addEventListener("keydown", boardKey);
