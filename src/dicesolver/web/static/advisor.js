"use strict";
// The Advisor: a position entered by taps (a card, dice, scores), every option ranked, one applied by a tap,
// each player's card kept in this browser. Loaded after app.js, whose helpers ($, api, guarded, esc, ...) it uses.

function advisorGame() { return state.advisor; }

// The game the controls describe; of picks made quicker than the server answers (two rules changed in a row),
// the last one made wins, not the last answer.
let picks = 0;
async function pickAdvisorGame() {
  const pick = ++picks;
  const game = await chosenGame($("advisor-game"));
  if (pick !== picks) return;
  state.advisor = game;
  setupAdvisor();
}

// One position editor per family, the page's only per-family code: its panels, how it starts, what it keeps,
// the position it describes (in the game's position language), when that position is complete enough to be
// advised without a tap (`ready`), and what applying an option does to it. `apply` answers what to say, and
// whether the next position is a decision again (`asks`: advised at once) or the turn passed (`turnOver`).
// `table`: friends at a table each keep such a card (the advice for whoever is on turn).
const EDITORS = {
  scorecard: {
    panels: ["advisor-scorecard", "advisor-card"],
    table: true,
    setup(g) {
      state.card = g.categories.map(() => null);
      state.extras = 0;
      state.dice = [];
      state.kept = 0;
      $("rolls-left").innerHTML = Array.from({ length: g.rolls }, (_, i) => `<option>${i}</option>`).join("");
      $("rolls-left").value = String(g.rolls - 1);
      $("faces").innerHTML = Array.from({ length: g.faces }, (_, i) =>
        `<button type="button" class="die" data-face="${i + 1}" aria-label="add a ${i + 1}">${i + 1}</button>`).join("");
      renderCard();
      renderTray();
    },
    save() {
      return { card: [...state.card], extras: state.extras, dice: [...state.dice], kept: state.kept,
        rolls: $("rolls-left").value };
    },
    load(g, kept) {
      if (!Array.isArray(kept.card) || kept.card.length !== g.categories.length) return;
      state.card = kept.card.map((v) => (Number.isInteger(v) && v >= 0 ? v : null));
      state.extras = Math.max(0, +kept.extras || 0);
      state.dice = (kept.dice || []).filter((d) => Number.isInteger(d) && d >= 1 && d <= g.faces).slice(0, g.dice);
      state.kept = Math.min(+kept.kept || 0, state.dice.length);
      if ([...$("rolls-left").options].some((o) => o.value === kept.rolls)) $("rolls-left").value = kept.rolls;
      renderCard();
      renderTray();
    },
    position(g) {
      const card = g.categories.map((c, i) => (state.card[i] === null ? null : `${c.name}=${state.card[i]}`)).filter(Boolean);
      if (state.extras > 0) card.push(`bonus=${state.extras * g.extra_bonus}`);
      const dice = [...state.dice].sort((a, b) => a - b).join("");
      return `${card.join(",")}/${dice || "-"}/${dice ? $("rolls-left").value : g.rolls}`;
    },
    ready: (g) => state.dice.length === g.dice,
    apply: (g, o) => applyScorecard(g, o),
  },
  pushluck: {
    panels: ["advisor-push"],
    setup() {},
    save: () => fieldsOf(["push-mine", "push-theirs", "push-total"]),
    load: (g, kept) => fillFields(kept),
    position() {
      return `${$("push-mine").value || 0},${$("push-theirs").value || 0},${$("push-total").value || 0}`;
    },
    ready: () => false,  // a turn total is typed: the player says when it is complete
    apply: (g, o) => applyPush(g, o),
  },
  farkle: {
    panels: ["advisor-farkle"],
    setup() {},
    save: () => fieldsOf(["farkle-mine", "farkle-theirs", "farkle-total", "farkle-dice", "farkle-left"]),
    load: (g, kept) => fillFields(kept),
    position() {
      const mine = $("farkle-mine").value || 0, theirs = $("farkle-theirs").value || 0;
      const total = $("farkle-total").value || 0, dice = farkleDice();
      return dice ? `${mine},${theirs},${total},=${dice}` : (+total ? `${mine},${theirs},${total},${$("farkle-left").value}` : `${mine},${theirs}`);
    },
    // every die thrown is in: the six of a turn's first throw, or the dice left after setting some aside
    ready: () => farkleDice().length === (+$("farkle-total").value ? +$("farkle-left").value : 6),
    apply: (g, o) => applyFarkle(g, o),
  },
  despirala: {
    panels: ["advisor-despirala"],
    table: true,
    setup(g) {
      $("combos").innerHTML = g.combinations.map((c, i) =>
        `<label><input type="checkbox" data-combo="${i}"> ${esc(c)} used</label>`).join("");
      $("combo-words").innerHTML = combinationWords(g.combinations.map((name, i) => ({ name, words: g.combination_words[i] || "" })),
        g.move_words);
      state.ddice = [];
      state.collecting = null;
      $("dfaces").innerHTML = [1, 2, 3, 4, 5, 6].map((f) => `<button type="button" class="die" data-face="${f}" aria-label="add a ${f}">${f}</button>`).join("");
      renderDespiralaTray();
    },
    save() {
      return { used: [...document.querySelectorAll("#combos input:checked")].map((b) => +b.dataset.combo),
        goods: $("goods").value, dice: [...state.ddice], collecting: state.collecting };
    },
    load(g, kept) {
      for (const i of kept.used || []) {
        const box = document.querySelector(`#combos input[data-combo="${+i}"]`);
        if (box) box.checked = true;
      }
      if (kept.goods !== undefined) $("goods").value = kept.goods;
      state.ddice = (kept.dice || []).filter((d) => Number.isInteger(d) && d >= 1 && d <= 6).slice(0, 6);
      state.collecting = Number.isInteger(kept.collecting) && kept.collecting >= 1 && kept.collecting <= 6 ? kept.collecting : null;
      renderDespiralaTray();
    },
    position(g) {
      const used = [...document.querySelectorAll("#combos input:checked")].map((b) => g.combinations[+b.dataset.combo]);
      const f = state.collecting;
      const collecting = f ? `;collecting ${f}s: ${state.ddice.filter((d) => d === f).length}` : "";
      return `${used.join(",") || "none"};${$("goods").value || 0};${[...state.ddice].sort().join("") || "-"}${collecting}`;
    },
    ready: () => state.ddice.length === 6,
    apply: (g, o) => applyDespirala(g, o),
  },
};

function editorOf(g) { return EDITORS[g.family]; }

// The plain fields of an editor, by id, and back.
function fieldsOf(ids) { return Object.fromEntries(ids.map((id) => [id, $(id).value])); }
function fillFields(kept) {
  for (const [id, value] of Object.entries(kept)) if ($(id) && typeof value === "string") $(id).value = value;
}

function setupAdvisor() {
  const g = advisorGame();
  setupGoal(g);
  const panels = editorOf(g).panels;
  for (const editor of Object.values(EDITORS)) for (const p of editor.panels) $(p).hidden = !panels.includes(p);
  document.querySelector(".advisor-layout").classList.toggle("with-card", !$("advisor-card").hidden);
  const kept = keptCards().games[g.name];  // this game's cards as they were left, in this browser
  if (kept) {
    restoreSnapshot(kept);
    state.undo = (Array.isArray(kept.undo) ? kept.undo : []).filter((s) => s && Array.isArray(s.players)).slice(-UNDO_DEPTH);
  } else {
    restoreSnapshot({ players: [{ name: "Player 1", editor: null }], turn: 0 });
    state.undo = [];
  }
  cardChanged("");
}

// -- the Advisor keeps its cards: for each game, each player's position and the steps that undo them, in this
// browser's storage, across reloads and closed tabs (a phone drops a tab in the background) ------------------
const KEPT_CARDS = "dicesolver.advisor";
const UNDO_DEPTH = 50;  // applied or cleared steps a game's cards can go back
const KEPT_GAMES = 20;  // games whose cards are kept (the oldest goes first)
const MAX_PLAYERS = 8;  // friends at one table

function keptCards() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_CARDS));
    if (kept && typeof kept.games === "object" && kept.games) return kept;
  } catch { /* unreadable: start afresh */ }
  return { current: null, games: {} };
}

// Every player's card as it is now (the one on turn read from the page), and who is on turn.
function snapshot() {
  const g = advisorGame();
  state.players[state.turn].editor = editorOf(g).save(g);
  return { turn: state.turn, players: state.players.map((p) => ({ name: p.name, editor: p.editor })) };
}

// The cards of a snapshot back, the player on turn's on the page. A card kept by an earlier version of the page
// (one player: `editor` alone) reads as one player's.
function restoreSnapshot(kept) {
  const g = advisorGame();
  const players = Array.isArray(kept.players) ? kept.players : [{ name: "Player 1", editor: kept.editor || null }];
  state.players = players.slice(0, MAX_PLAYERS).map((p, i) => ({ name: String(p.name || `Player ${i + 1}`).slice(0, 30),
    editor: p.editor && typeof p.editor === "object" ? p.editor : null }));
  state.turn = Number.isInteger(kept.turn) && kept.turn >= 0 && kept.turn < state.players.length ? kept.turn : 0;
  showPlayerCard(g);
}

function showPlayerCard(g) {
  editorOf(g).setup(g);
  const card = state.players[state.turn].editor;
  if (card) editorOf(g).load(g, card);
}

function keepCard() {
  const g = advisorGame();
  if (!g || !state.players) return;
  const kept = keptCards();
  delete kept.games[g.name];  // re-inserted last: the most recent game
  kept.games[g.name] = { ...snapshot(), undo: state.undo };
  for (const name of Object.keys(kept.games).slice(0, -KEPT_GAMES)) delete kept.games[name];
  kept.current = g.name;
  try { localStorage.setItem(KEPT_CARDS, JSON.stringify(kept)); } catch { /* full or refused: this page only */ }
}

// A step the player may take back: every card as it is now, before a change.
function rememberStep() {
  state.undo.push(snapshot());
  if (state.undo.length > UNDO_DEPTH) state.undo.shift();
}

function undoStep() {
  const before = state.undo.pop();
  if (!before) return;
  restoreSnapshot(before);
  cardChanged("<p class='hint'>Undone: the cards as they were before.</p>");
}

function newCard() {
  const g = advisorGame();
  rememberStep();
  state.players[state.turn].editor = null;
  showPlayerCard(g);
  cardChanged("");
}

// After the cards changed (an option applied, an undo, a new card, a player added or on turn): its position,
// the advice replaced by `said` (the old advice is for another card), the players and the Undo button shown,
// and the cards kept in the browser.
function cardChanged(said) {
  updatePositionText();
  $("advice").innerHTML = said;
  state.advice = null;
  renderPad();
  renderPlayers();
  showUndo();
  keepCard();
}

function showUndo() {
  $("advisor-undo").disabled = !state.undo.length;
  $("advisor-undo").textContent = state.undo.length ? `Undo (${state.undo.length})` : "Undo";
}

// -- friends at a table: a card each, the advice for whoever is on turn; the turn passes as a turn ends --------
function renderPlayers() {
  const g = advisorGame();
  const box = $("advisor-players");
  if (!editorOf(g).table) { box.innerHTML = ""; return; }
  const several = state.players.length > 1;
  box.innerHTML = (several ? state.players.map((p, i) => `<button type="button" class="player ${i === state.turn ? "on-turn" : ""}"
      data-player="${i}" aria-pressed="${i === state.turn}">${esc(p.name)}${i === state.turn ? " · on turn" : ""}</button>`).join("") : "") +
    (state.players.length < MAX_PLAYERS ? `<button type="button" id="add-player">+ a player${several ? "" : " at the table"}</button>` : "") +
    (several ? `<button type="button" id="remove-player">− ${esc(state.players[state.turn].name)}</button>` : "");
}

function passTurn(to) {
  const g = advisorGame();
  snapshot();
  state.turn = to;
  showPlayerCard(g);
}

function addPlayer() {
  rememberStep();
  const taken = new Set(state.players.map((p) => p.name));
  let n = state.players.length + 1;
  while (taken.has(`Player ${n}`)) n += 1;
  state.players.push({ name: `Player ${n}`, editor: null });
  passTurn(state.players.length - 1);
  cardChanged(`<p class='hint'>${esc(state.players[state.turn].name)} joins with an empty card; the turn passes in the order shown.</p>`);
}

function removePlayer() {
  rememberStep();
  const gone = state.players.splice(state.turn, 1)[0];
  state.turn %= state.players.length;
  showPlayerCard(advisorGame());
  cardChanged(`<p class='hint'>${esc(gone.name)} left the table (Undo brings them back).</p>`);
}

$("advisor-players").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button) return;
  if (button.id === "add-player") return addPlayer();
  if (button.id === "remove-player") return removePlayer();
  const to = +button.dataset.player;
  if (to !== state.turn) { passTurn(to); cardChanged(`<p class='hint'>${esc(state.players[to].name)} is on turn.</p>`); }
});

// The game last advised in this browser, with its variants, back in the list (after a reload).
async function restoreAdvisor(current) {
  if (!current || current === "yahtzee") return;
  try {
    showGameString($("advisor-game"), current);
    state.advisor = await chosenGame($("advisor-game"));
  } catch {
    $("advisor-game").value = "yahtzee";
    variantControls($("advisor-game"));
    state.advisor = state.games.yahtzee;
  }
  setupAdvisor();
}

// -- the card, a score pad: a field per box, the extra-yacht bonuses where the game has them, the running sums
// (the upper section towards its bonus, and the total); once the dice are advised, each open box offers their
// points as a button (a tap scores them there) ------------------------------------------------------------------
function renderCard() {
  const g = advisorGame();
  const extras = g.extra_bonus ? `<tr><td>extra-yacht bonuses (${g.extra_bonus} each)</td><td class="num"><input
      type="number" inputmode="numeric" min="0" max="12" id="extras" value="${state.extras || ""}" placeholder="0"
      aria-label="extra-yacht bonuses"></td><td></td></tr>` : "";
  $("card").innerHTML = "<tr><th>box</th><th class='num'>points</th><th class='num'>score here</th></tr>" +
    g.categories.map((c, i) => `<tr><td>${esc(c.title)}</td><td class="num"><input type="number" inputmode="numeric" min="0"
      max="${c.max_points}" data-cat="${i}" value="${state.card[i] ?? ""}" placeholder="open" aria-label="${esc(c.title)}"></td>
      <td class="num pad" data-pad="${i}"></td></tr>`).join("") + extras +
    `<tr class="sum"><td>upper section</td><td class="num" id="upper-sum" colspan="2"></td></tr>
     <tr class="sum"><td>total</td><td class="num" id="card-total" colspan="2"></td></tr>`;
  renderSums();
  renderPad();
}

// Each open box's cell: its points for the dice advised, as a button, or at most what it can hold.
function renderPad() {
  const g = advisorGame();
  if (g.family !== "scorecard" || !$("card").rows.length) return;
  const options = state.advice ? state.advice.options : [];
  document.querySelectorAll("#card td.pad").forEach((cell) => {
    const c = +cell.dataset.pad;
    const k = state.card[c] === null ? options.findIndex((o) => o.kind === "score" && o.option === g.categories[c].name) : -1;
    cell.innerHTML = k >= 0 ? `<button type="button" class="pad-score" data-index="${k}"
        aria-label="score ${esc(options[k].points)} in ${esc(g.categories[c].title)}">+${esc(options[k].points)}</button>`
      : `<span class="faint">max ${g.categories[c].max_points}</span>`;
  });
}

function renderSums() {
  const g = advisorGame();
  const upper = g.categories.reduce((s, c, i) => s + (c.upper ? state.card[i] || 0 : 0), 0);
  const bonus = g.upper_threshold && upper >= g.upper_threshold ? g.upper_points : 0;
  const boxes = state.card.reduce((s, v) => s + (v || 0), 0);
  $("upper-sum").textContent = g.upper_threshold ? `${upper} / ${g.upper_threshold}` +
    (bonus ? ` (+${bonus} bonus)` : ` (${g.upper_threshold - upper} to the bonus)`) : String(upper);
  $("card-total").textContent = String(boxes + bonus + (state.extras || 0) * g.extra_bonus);
}

function renderTray() {
  $("tray").innerHTML = state.dice.map((d, i) =>  // buttons: removable by keyboard too
    `<button type="button" class="die ${i < state.kept ? "kept" : ""}" data-index="${i}" title="remove"
      aria-label="remove a ${d}">${d}</button>`).join("") ||
    "<em>tap the faces your dice show</em>";
}

function renderDespiralaTray() {
  $("dtray").innerHTML = state.ddice.map((d, i) => `<button type="button" class="die" data-index="${i}"
      title="remove" aria-label="remove a ${d}">${d}</button>`).join("") ||
    "<em>tap the six faces</em>";
  const f = state.collecting;
  $("collecting").hidden = !f;
  if (f) $("collecting").textContent = `Collecting ${f}s: ${state.ddice.filter((d) => d === f).length} so far.`;
}

function positionText() {
  const g = advisorGame();
  return editorOf(g).position(g);
}

// -- what the player plays for: the most points (the game's own solution), a risk appetite, a target, the top of
// a blind tournament, as the game offers (GameInfo.page.goals). Two rows ask it, each kept in this browser: the
// Advisor's ("advisor-goal-…") and the Play board's ("board-goal-…", a copy of the Advisor's made in board.js).
const goalInput = (where, kind) => $(`${where}-goal-${kind}`);

function goalText(g, where = "advisor") {
  const kind = $(`${where}-goal`).value;
  if (!g || !(g.page.goals || []).includes(kind)) return null;
  const theta = +goalInput(where, "theta").value;
  if (kind === "theta") return theta ? `theta:${+theta.toFixed(3)}` : null;
  if (kind === "target") return `target:${Math.max(1, Math.round(+goalInput(where, "target").value || 1))}`;
  if (kind === "field") return `field:${goalInput(where, "field").value}`;
  return null;
}

function setupGoal(g, where = "advisor") {
  const goals = (g && g.page.goals) || [];
  const select = $(`${where}-goal`);
  $(`${where}-goal-row`).hidden = goals.length === 0;
  for (const option of select.options) option.hidden = option.value !== "mean" && !goals.includes(option.value);
  if (select.selectedOptions[0]?.hidden) select.value = "mean";
  for (const kind of ["theta", "target", "field"]) goalInput(where, `${kind}-box`).hidden = select.value !== kind;
  goalInput(where, "theta-out").textContent = (+goalInput(where, "theta").value).toFixed(3);
}

const keptGoalKey = (where) => (where === "advisor" ? "dicesolver.goal" : `dicesolver.${where}-goal`);

function keepGoal(where = "advisor") {
  const kept = { kind: $(`${where}-goal`).value };
  for (const kind of ["theta", "target", "field"]) kept[kind] = goalInput(where, kind).value;
  try { localStorage.setItem(keptGoalKey(where), JSON.stringify(kept)); } catch { /* private mode: not kept */ }
}

function restoreGoal(where = "advisor") {
  try {
    const kept = JSON.parse(localStorage.getItem(keptGoalKey(where))) || {};
    const has = (select, value) => [...select.options].some((o) => o.value === value);
    if (has($(`${where}-goal`), kept.kind)) $(`${where}-goal`).value = kept.kind;
    for (const kind of ["theta", "target"]) if (kept[kind] !== undefined) goalInput(where, kind).value = kept[kind];
    if (has(goalInput(where, "field"), kept.field)) goalInput(where, "field").value = kept.field;
  } catch { /* unreadable: the defaults */ }
}

// The goal's controls tell `changed` when the goal they say is another one.
function watchGoal(where, changed) {
  $(`${where}-goal`).addEventListener("change", changed);
  goalInput(where, "theta").addEventListener("input", () => {
    goalInput(where, "theta-out").textContent = (+goalInput(where, "theta").value).toFixed(3);
  });
  for (const kind of ["theta", "target", "field"]) goalInput(where, kind).addEventListener("change", changed);
}

function goalChanged() {
  const g = advisorGame();
  if (!g) return;
  setupGoal(g);
  keepGoal();
  state.advice = null;  // advice for another goal never stays on screen
  $("advice").innerHTML = "";
  renderPad();
  if (editorOf(g).ready(g)) guarded(advise);
}

function updatePositionText() { $("position-text").textContent = positionText(); }

// The position was edited: advice for another position never stays on screen (nor can it be applied), and a
// position complete enough (every die of a throw in) is advised without a tap.
function positionChanged() {
  updatePositionText();
  if (state.advice && state.advice.asked !== positionText()) {
    state.advice = null;
    $("advice").innerHTML = "";
    renderPad();
  }
  const g = advisorGame();
  if (!state.advice && editorOf(g).ready(g)) guarded(advise);
}

const SHOWN_OPTIONS = 8;  // the best few; "show all" lists the rest

async function advise() {
  const g = advisorGame();
  $("advice").innerHTML = "";  // advice for another position must never stay on screen (or be applied)
  state.advice = null;
  renderPad();
  const asked = positionText();
  const goal = goalText(g);
  const result = await api("POST", "/api/advice", { game: g.name, position: asked, ...(goal ? { goal } : {}) });
  // the card or the goal changed while it was asked
  if (advisorGame() !== g || positionText() !== asked || goalText(g) !== goal) return;
  state.advice = { ...result, asked };
  renderAdvice(false);
}

function renderAdvice(all) {
  const result = state.advice;
  const better = result.higher_is_better ? "higher is better" : "lower is better";
  const shown = all ? result.options : result.options.slice(0, SHOWN_OPTIONS);
  const rows = shown.map((o, i) => `<tr class="${i === 0 ? "best" : ""} clickable" data-index="${i}" tabindex="0">
      <td class="num rank">${i + 1}</td><td>${esc(describeOption(o))}</td>
      <td class="num">${o.points ?? ""}</td><td class="num">${o.value.toFixed(4)}</td><td class="num">${o.cost.toFixed(4)}</td></tr>`);
  const value = result.value === null ? "" : ` · value with best play <b>${result.value.toFixed(4)}</b>`;
  const more = result.options.length - shown.length;
  const empty = result.player === null ? `<p>The game is over: ${esc(UNITS[result.unit])} ${result.value.toFixed(4)}.</p>`
    : "<p>Throw the dice first.</p>";
  $("advice").innerHTML = `<p>${esc(UNITS[result.unit])} (${better})${value}</p>` + (result.options.length ?
    `<div class="table-scroll"><table id="advice-table"><tr><th class="rank">#</th><th>option</th><th class="num">points</th>
     <th class="num">value</th><th class="num">cost</th></tr>${rows.join("")}</table></div>` : empty) +
    (result.options.length ? "<p class='hint'>Tap an option to apply it (Undo takes it back).</p>" : "") +
    (more > 0 ? `<p><button type="button" id="all-options">show all ${result.options.length} options</button></p>` : "") +
    (explains(result) ? `<p><button type="button" id="why-button">why is the best the best?</button></p><div id="why-area"></div>` : "") +
    result.notes.map((n) => `<p>${esc(n)}</p>`).join("");
  renderPad();
}

function describeOption(o) {
  return plainAction(advisorGame().name, o.action);
}

// -- applying an option ----------------------------------------------------------------------------------------
// What a box holds after scoring, from the option's points (which count the bonuses earned with it).
function boxPoints(g, c, points, dice) {
  const box0 = g.extra_bonus_box;
  const extra = g.extra_bonus && dice.length && dice.every((d) => d === dice[0]) && box0 >= 0 && box0 !== c &&
    state.card[box0] > 0 ? g.extra_bonus : 0;
  if (extra) state.extras = (state.extras || 0) + 1;
  const upper = g.categories.reduce((s, cat, i) => s + (cat.upper ? state.card[i] || 0 : 0), 0);
  const box = points - extra;
  if (g.categories[c].upper && g.upper_threshold && upper < g.upper_threshold) {
    const without = box - g.upper_points;
    if (without >= 0 && upper + without >= g.upper_threshold) return without;
  }
  return box;
}

// An option applied to a scorecard: a keep leaves those dice and a throw fewer; a box takes its points.
function applyScorecard(g, o) {
  if (o.kind === "keep") {
    const keep = o.option === "-" ? [] : o.option.split("").map(Number);
    state.dice = keep;
    state.kept = keep.length;
    $("rolls-left").value = String(Math.max(0, +$("rolls-left").value - 1));
    renderTray();
    return { said: `Kept ${keep.length ? o.option : "nothing"}. Throw the other dice and tap what they show.` };
  }
  const c = g.categories.findIndex((cat) => cat.name === o.option);
  state.card[c] = boxPoints(g, c, o.points, state.dice);
  state.dice = [];
  state.kept = 0;
  $("rolls-left").value = String(g.rolls - 1);
  renderCard();
  renderTray();
  return { said: `Scored ${o.points} in ${g.categories[c].title}.`, turnOver: true };
}

// An option applied in a push-your-luck game: holding banks the turn total; throwing waits for the die.
function applyPush(g, o) {
  if (o.action === "hold") {
    $("push-mine").value = String((+$("push-mine").value || 0) + (+$("push-total").value || 0));
    $("push-total").value = "0";
    return { said: "Banked. When your turn comes again, type the opponent's score and ask again.", turnOver: true };
  }
  return { said: "Throw, then type your new turn total (0 if the throw lost it) and ask again." };
}

function farkleDice() { return ($("farkle-dice").value || "").replace(/[^1-6]/g, ""); }

// An option applied in Farkle: dice set aside add their points and leave the rest to throw (all six after hot
// dice), a bank adds the turn total to the score, a throw waits for the dice.
function applyFarkle(g, o) {
  if (o.kind === "take") {
    const left = farkleDice().length - o.option.length || 6;
    $("farkle-total").value = String((+$("farkle-total").value || 0) + o.points);
    $("farkle-left").value = String(left);
    $("farkle-dice").value = "";
    return { said: `Set aside ${o.option} (+${o.points}); ${left} dice left. Bank or throw?`, asks: true };
  }
  if (o.kind === "bank") {
    $("farkle-mine").value = String((+$("farkle-mine").value || 0) + (+$("farkle-total").value || 0));
    $("farkle-total").value = "0";
    $("farkle-left").value = "6";
    $("farkle-dice").value = "";
    return { said: "Banked. When your turn comes again, type the opponent's score and the six dice thrown.", turnOver: true };
  }
  $("farkle-dice").focus();
  return { said: `Throw your ${$("farkle-left").value} dice and type what they show (a throw that scores nothing is a Farkle: the turn total is lost).` };
}

// An option applied in Despirala: a Reroll costs a good; a Collect goes on with Continue or Stop; any other
// combination is completed with the dice (a good a throw), then the next turn adds its goods.
function applyDespirala(g, o) {
  const f = state.collecting;
  if (o.kind === "reroll") {
    $("goods").value = String(Math.max(0, (+$("goods").value || 0) - 1));
    state.ddice = [];
    renderDespiralaTray();
    return { said: "Rerolled for a good. Throw all six and tap what they show." };
  }
  if (o.kind === "continue") {
    $("goods").value = String(Math.max(0, (+$("goods").value || 0) - 1));
    state.ddice = state.ddice.filter((d) => d === f);
    renderDespiralaTray();
    return { said: `Continue for a good: throw the dice that are not ${f}s and tap what they show.` };
  }
  const collect = o.kind === "pick" && /^Collect [1-6]$/.test(o.option);
  if (collect) {
    state.collecting = +o.option.slice(-1);
    renderDespiralaTray();
    return { said: `Collecting ${state.collecting}s: Continue or Stop?`, asks: true };
  }
  const name = o.kind === "stop" ? `Collect ${f}` : o.option.replace(/ [1-6]( [1-6])*$/, "");
  const box = document.querySelector(`#combos input[data-combo="${g.combinations.indexOf(name)}"]`);
  if (box) box.checked = true;
  const over = document.querySelectorAll("#combos input:not(:checked)").length === 0;
  state.collecting = null;
  state.ddice = [];
  if (!over) $("goods").value = String((+$("goods").value || 0) + g.goods_per_turn);
  renderDespiralaTray();
  if (o.kind === "stop") return { said: `Collected. Next turn: ${g.goods_per_turn} goods added; throw all six.`, turnOver: true };
  return { said: `${name} picked. Complete it with your dice, a good a throw, and take from Goods what the throws cost` +
    ` (all of them if you ran out).` + (over ? " That was the last combination." : ` The next turn's ${g.goods_per_turn} goods are added.`),
    turnOver: true };
}

function applyOption(index) {
  const g = advisorGame();
  const o = state.advice.options[index];
  rememberStep();
  const done = editorOf(g).apply(g, o);
  let said = done.said;
  if (done.turnOver && state.players.length > 1) {
    passTurn((state.turn + 1) % state.players.length);
    said += ` ${state.players[state.turn].name}'s turn.`;
  }
  cardChanged(`<p class='hint'>${esc(said)}</p>`);
  if (done.asks || editorOf(g).ready(g)) guarded(advise);
}

// -- the Advisor's controls -------------------------------------------------------------------------------------
$("advisor-game").addEventListener("change", () => { variantControls($("advisor-game")); guarded(pickAdvisorGame); });
$("advisor-game-variants").addEventListener("change", () => guarded(pickAdvisorGame));
$("faces").addEventListener("click", (e) => {
  const face = e.target.dataset.face;
  if (face && state.dice.length < advisorGame().dice) { state.dice.push(+face); renderTray(); positionChanged(); }
});
$("tray").addEventListener("click", (e) => {
  const i = e.target.dataset.index;
  if (i !== undefined) { state.dice.splice(+i, 1); state.kept = Math.min(state.kept, +i); renderTray(); positionChanged(); }
});
$("clear-dice").addEventListener("click", () => { state.dice = []; state.kept = 0; renderTray(); positionChanged(); });
$("card").addEventListener("input", (e) => {
  const i = e.target.dataset.cat;
  if (i !== undefined) state.card[+i] = e.target.value === "" ? null : +e.target.value;
  else if (e.target.id === "extras") state.extras = Math.max(0, +e.target.value || 0);
  else return;
  renderSums();
  positionChanged();
});
$("card").addEventListener("click", (e) => {
  const button = e.target.closest("button.pad-score");
  if (button && state.advice) applyOption(+button.dataset.index);
});
$("dfaces").addEventListener("click", (e) => {
  const face = e.target.dataset.face;
  if (face && state.ddice.length < 6) { state.ddice.push(+face); renderDespiralaTray(); positionChanged(); }
});
$("dtray").addEventListener("click", (e) => {
  const i = e.target.dataset.index;
  if (i !== undefined) { state.ddice.splice(+i, 1); renderDespiralaTray(); positionChanged(); }
});
$("dclear").addEventListener("click", () => { state.ddice = []; renderDespiralaTray(); positionChanged(); });
["push-mine", "push-theirs", "push-total", "goods", "rolls-left", "farkle-mine", "farkle-theirs", "farkle-total",
  "farkle-dice", "farkle-left"].forEach((id) => $(id).addEventListener("input", positionChanged));
$("rolls-left").addEventListener("change", positionChanged);
$("combos").addEventListener("change", positionChanged);
$("advise").addEventListener("click", () => guarded(advise));
restoreGoal();
watchGoal("advisor", goalChanged);
$("advisor-undo").addEventListener("click", undoStep);
$("advisor-new").addEventListener("click", newCard);
// every edit of the position is kept as it is made (after the field's own handler has read it)
["input", "change", "click"].forEach((kind) => $("advisor").addEventListener(kind, (e) => {
  if (e.target.closest("#advice") || e.target.closest(".game-select, .variants")) return;
  setTimeout(keepCard, 0);
}));
$("advice").addEventListener("click", (e) => {
  if (e.target.id === "all-options") return renderAdvice(true);
  if (e.target.id === "why-button") return guarded(() => explainInto($("why-area"), advisorGame().name, state.advice.position));
  if (e.target.closest(".why")) return;
  const row = e.target.closest("tr.clickable");
  if (row && state.advice) applyOption(+row.dataset.index);
});
$("advice").addEventListener("change", (e) => {
  if (e.target.classList.contains("why-versus")) {
    guarded(() => explainInto($("why-area"), advisorGame().name, state.advice.position, e.target.value));
  }
});
$("advice").addEventListener("keydown", (e) => {
  const row = e.target.closest("tr.clickable");
  if (row && state.advice && (e.key === "Enter" || e.key === " ")) {
    e.preventDefault();
    applyOption(+row.dataset.index);
  }
});
