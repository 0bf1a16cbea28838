"use strict";
// dicesolver's page: four tabs over the JSON API (/api, schema at /docs).

const $ = (id) => document.getElementById(id);
const state = { games: {}, card: [], dice: [], kept: 0, ddice: [], undo: [], session: null, tappedAt: -Infinity };

// One message at a time; "the server is not reachable" comes with a button that tries the same thing again.
function showMessage(text, retry) {
  const box = $("message");
  box.textContent = text || "";
  if (text && retry) {
    const again = document.createElement("button");
    again.type = "button";
    again.id = "retry";
    again.textContent = "Try again";
    again.addEventListener("click", retry);
    box.append(" ", again);
  }
  box.hidden = !text;
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Calls the API; while a table is solved (202) shows its progress and asks again. An answer that takes
// longer than PATIENCE_MS shows a moving bar meanwhile, so no wait is silent (a bar already up keeps its
// words: "starting Yacht Dice…" says more than "working…").
const PATIENCE_MS = 400;
const UNREACHABLE = "The server is not reachable; your game is saved. Try again once it runs (dicesolver serve).";
async function api(method, path, body) {
  for (;;) {
    const slow = setTimeout(() => { if ($("progress").hidden) showProgress("working…"); }, PATIENCE_MS);
    const response = await fetch(path, {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).catch(() => { throw new Error(UNREACHABLE); }).finally(() => clearTimeout(slow));
    const data = await response.json().catch(() => ({ detail: `HTTP ${response.status}` }));
    if (response.status === 202 && data.job) {
      await waitForJob(data.job);
      showProgress("almost ready…");  // the table is built; the request that waited for it is asked again
      continue;
    }
    $("progress").hidden = true;
    if (!response.ok) {
      throw new Error(data.detail || `HTTP ${response.status}`);
    }
    return data;
  }
}

// A bar that moves without a share: work has started and its size is not known yet.
function showProgress(label) {
  $("progress").hidden = false;
  $("progress-label").textContent = label;
  $("progress-bar").removeAttribute("value");
}

// "42%, about 12 s left" once the job's pace (or the build's estimate) shows; how long it has run until then,
// said as time already spent (a bare "15 min" read as an estimate).
function timeLeft(job) {
  const span = (s) => (s < 10 ? `${s.toFixed(1)} s` : s < 600 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);
  if (job.seconds_left != null) {
    return ` ${job.total ? `${Math.floor((100 * job.done) / job.total)}%, ` : ""}about ${span(job.seconds_left)} left`;
  }
  return job.seconds >= 2 ? ` ${span(job.seconds)} so far` : "";
}

async function waitForJob(job) {
  $("progress").hidden = false;
  for (;;) {
    $("progress-label").textContent = job.label + "…" + timeLeft(job);
    const bar = $("progress-bar");
    if (job.total) { bar.max = job.total; bar.value = job.done; } else { bar.removeAttribute("value"); }
    if (job.state !== "running") break;
    await sleep(400);
    job = await (await fetch(`/api/jobs/${job.id}`)).json();
  }
  if (job.state === "failed") throw new Error(job.error);
}

async function guarded(action) {
  showMessage("");
  try {
    await action();
  } catch (err) {
    showMessage(err.message, err.message === UNREACHABLE ? () => guarded(action) : null);
  }
}

// -- tabs and games --------------------------------------------------------------------------------------
document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => {
  document.querySelectorAll(".tab").forEach((t) => {
    t.classList.toggle("active", t === tab);
    t.setAttribute("aria-selected", String(t === tab));
    t.tabIndex = t === tab ? 0 : -1;  // one stop for the tab list; the arrows move along it
  });
  document.querySelectorAll(".page").forEach((p) => p.classList.toggle("active", p.id === tab.dataset.page));
  showMessage("");
}));

// The tab list as a keyboard expects it: left and right arrows (Home, End) pick the neighbouring tab.
document.querySelector("nav").addEventListener("keydown", (e) => {
  const tabs = [...document.querySelectorAll(".tab")];
  const at = tabs.indexOf(document.activeElement);
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (at < 0 || next === undefined) return;
  e.preventDefault();
  const tab = tabs[(next + tabs.length) % tabs.length];
  tab.click();
  tab.focus();
});

async function loadGames() {
  const games = await api("GET", "/api/games");
  for (const g of games) state.games[g.name] = g;
  document.querySelectorAll(".game-select").forEach((select) => {
    select.innerHTML = games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)} (${esc(g.name)})</option>`).join("");
  });
  $("advisor-game").value = "yahtzee";
  $("play-game").value = "pig";
  $("explore-game").value = "yacht";
  $("train-game").value = "yahtzee";
  document.querySelectorAll(".game-select").forEach(variantControls);
  const last = keptCards().current;  // read before the default game is set up (and kept)
  state.advisor = state.games.yahtzee;
  setupAdvisor();
  await restoreAdvisor(last);
  setupPlay();
}

// -- variants: beside each list of games, a control per rule its game string may set ---------------------------
// (GameInfo.variants: named values, or a whole number); the game string is the base name with the rules not at
// their defaults, e.g. yahtzee(joker=free), pig(goal=50,faces=7).
function variantControls(select) {
  const g = state.games[select.value];
  const box = $(`${select.id}-variants`);
  box.innerHTML = g.variants.map((v) => `<label title="${esc(v.help)}">${esc(v.key.replace(/_/g, " "))} ${v.values.length
    ? `<select data-key="${esc(v.key)}" data-default="${esc(v.default)}">${v.values.map((x) =>
        `<option ${x === v.default ? "selected" : ""}>${esc(x)}</option>`).join("")}</select>`
    : `<input type="number" data-key="${esc(v.key)}" data-default="${esc(v.default)}" value="${esc(v.default)}"
        min="${v.low}" max="${v.high}" step="${v.step}">`}</label>`).join("");
}

function gameString(select) {
  const set = [...$(`${select.id}-variants`).querySelectorAll("[data-key]")]
    .filter((c) => c.value !== "" && c.value !== c.dataset.default).map((c) => `${c.dataset.key}=${c.value}`);
  return set.length ? `${state.games[select.value].base}(${set.join(",")})` : select.value;
}

// The game a list and its variants name, its facts fetched once per game string (a variant may change them:
// yatzy(fh5) scores a full house differently).
async function chosenGame(select) {
  const text = gameString(select);
  if (!state.games[text]) state.games[text] = await api("GET", `/api/games/${encodeURIComponent(text)}`);
  return state.games[text];
}

// A game string shown in a list and its controls (a game continued after a reload).
function showGameString(select, text) {
  const match = /^([^(]+)(?:\((.*)\))?$/.exec(text);
  const base = match && state.games[match[1]] ? match[1] : null;
  if (state.games[text] && [...select.options].some((o) => o.value === text)) select.value = text;
  else if (base) select.value = base;
  else return;
  variantControls(select);
  const choices = Object.fromEntries((match[2] || "").split(",").filter(Boolean).map((kv) => kv.split("=")));
  $(`${select.id}-variants`).querySelectorAll("[data-key]").forEach((c) => {
    if (choices[c.dataset.key] !== undefined && select.value === base) c.value = choices[c.dataset.key];
  });
}

// -- why: an option's value split by what produces it, the best set against another ------------------------
function explains(advice) {
  return advice && advice.options.length > 1 && advice.explains;
}

// The comparison as one sentence and a table (largest differences first), with each option's spread; a select
// picks the option the best is set against. ``game`` names actions in words.
function whyPanel(why, game) {
  const name = (action) => plainAction(game, action);
  const best = why.options[0];
  const other = why.options.find((o) => o.action === why.versus);
  const alone = why.split_unit === "points";  // a chance or an equity, beside the points as if alone
  const points = why.unit === "points" || alone;  // else a chance of winning split, in percent
  const show = (x) => (points ? x.toFixed(2) : `${(100 * x).toFixed(1)}%`);
  // a prize's chance beside its points where the aspect has one (a box of fixed points, the upper bonus)
  const part = (x, p) => show(x) + (points && p != null ? ` (${chanceWords(p)})` : "");
  const rows = why.differences.filter((d) => Math.abs(d.difference) >= (points ? 0.005 : 0.0005)).map((d) =>
    `<tr><td>${esc(d.title)}</td><td class="num">${part(d.best, d.best_chance)}</td><td class="num">${part(d.other, d.other_chance)}</td>
     <td class="num">${d.difference > 0 ? "+" : "−"}${show(Math.abs(d.difference))}</td></tr>`).join("");
  const choices = why.options.slice(1).map((o) => `<option value="${esc(o.action)}" ${o.action === why.versus ? "selected" : ""}>${esc(name(o.action))}</option>`).join("");
  const gain = best.value - other.value;
  return `<div class="why" data-position="${esc(why.position)}">
    ${why.reason ? `<p class="why-reason">${esc(why.reason)}</p>` : ""}
    <p><b>${esc(name(best.action))}</b> <label>against <select class="why-versus" aria-label="the option set against the best">${choices}</select></label>:
      ${alone ? gainBeside(why, gain, best.points - other.points) : points ? `${gain.toFixed(2)} points more on average` : `${(100 * gain).toFixed(2)} percentage points more chance of winning`}.</p>
    <table class="why-table"><tr><th>${alone ? "where the points come from, as if alone" : points ? "where the points come from" : "how the game is won"}</th><th class="num">best</th><th class="num">other</th><th class="num">difference</th></tr>${rows}</table>
    ${points ? `<p class="hint">Spread of the final score (standard deviation): ${best.sd.toFixed(1)} after the best, ${other.sd.toFixed(1)} after the other.</p>` : ""}
  </div>`;
}

// A chance as a player reads it (core/why.py's chance_words): "34%"; below 9.5%, "about 1 in 27".
function chanceWords(p) {
  if (p <= 0.0005 || p >= 0.9995) return p < 0.5 ? "0%" : "100%";
  return p < 0.095 ? `about 1 in ${Math.round(1 / p).toLocaleString("en")}` : `${Math.round(100 * p)}%`;
}

// A chance or an equity gained, and what the choice does to the points as if playing alone.
function gainBeside(why, gain, points) {
  const value = why.unit === "equity" ? `${gain.toFixed(4)} more equity` : `${(100 * gain).toFixed(2)} percentage points more chance`;
  return `${value}; as if alone it scores ${Math.abs(points).toFixed(2)} points ${points >= 0 ? "more" : "fewer"} on average`;
}

async function explainInto(area, game, position, versus) {
  area.innerHTML = "<p class='hint'>working out why…</p>";
  const why = await api("POST", "/api/explain", versus ? { game, position, versus } : { game, position });
  area.innerHTML = whyPanel(why, game);
}

const UNITS = { points: "expected final score", equity: "equity (+1 win, 0 draw, −1 loss)", p_win: "probability of winning", p_target: "probability of the goal", ce: "certainty equivalent (points)" };

// -- play ---------------------------------------------------------------------------------------------------------
function setupPlay() {
  const g = state.games[$("play-game").value];
  $("play-bots").innerHTML = g.bots.map((b, i) => `<option ${i === 0 ? "selected" : ""}>${esc(b)}</option>`).join("");
  $("play-bots").multiple = g.page.max_opponents > 1;
  $("play-bots").size = g.page.max_opponents > 1 ? Math.min(g.bots.length, 6) : 1;  // a list shows its choice
}

function renderSession(s) {
  state.session = s;
  if (!s.over && !s.stopped && !s.error) rememberGame(s.id);
  $("game-area").hidden = false;
  const t = $("transcript");
  t.textContent = s.transcript;
  t.scrollTop = t.scrollHeight;
  $("prompt").textContent = s.over ? "game over" : s.stopped ? "stopped (saved)" : s.busy ? "thinking…" : "";
  $("line").disabled = $("send").disabled = !s.prompt;
  if (s.error) showMessage(s.error);
  const g = state.games[s.game] || state.games[$("play-game").value];
  // with a drawn board its own buttons play; the row keeps the commands (take back, quit)
  const quick = s.board ? ["undo"] : g.page.quick;
  $("quick").innerHTML = (s.prompt ? quick.map((q) =>
    `<button type="button" data-line="${esc(q)}">${q === "" ? "throw (Enter)" : esc(q)}</button>`).join("") +
    '<button type="button" data-line="quit">quit</button>' : "") +
    (inPlay() ? '<button type="button" id="new-game">new game…</button>' : "") + (s.record ? downloadLink(s.record) : "");
  $("setup").hidden = inPlay() && !state.choosing;  // the board has the screen; "new game…" brings the setup back
  $("log").open = !s.board;
  if (typeof renderBoard === "function") guarded(() => renderBoard(s));
  if (s.prompt && !s.board) $("line").focus();
}

async function pollSession() {
  while (state.session && state.session.busy) {
    renderSession(await api("GET", `/api/play/${state.session.id}?wait=2`));
  }
  if (state.session && state.session.over) {
    $("setup").hidden = false;  // ready for the next game
    const review = await api("GET", `/api/play/${state.session.id}/review?width=${figureWidth("play-review")}`);
    $("play-review").innerHTML = renderReview(review);
  }
}

async function startGame() {
  const g = await chosenGame($("play-game"));
  const bots = [...$("play-bots").selectedOptions].map((o) => o.value);
  const body = { game: g.name, opponents: bots, first: $("play-first").value, manual_dice: $("play-manual").checked,
                 tutor: $("play-tutor").checked };
  if ($("play-seed").value !== "") body.seed = +$("play-seed").value;
  $("play-review").innerHTML = "";
  showProgress(`starting ${g.title}…`);  // at once: a first game may wait for its tables (the bar then shows them)
  try {
    const session = await api("POST", "/api/play", body);
    state.choosing = false;
    renderSession(session);
  } finally {
    $("progress").hidden = true;
  }
  await pollSession();
}

// A move names the board it was made on (`moves`): the server applies it only to that board, so a second tap
// on a board already answered (still on the screen while the next one loads) plays nothing.
async function sendLine(line, moves = state.session && state.session.board ? state.session.board.moves : undefined) {
  if (!state.session || !state.session.prompt || state.sending) return;
  $("line").value = "";
  state.sending = true;  // one move at a time: the board and the prompt wait for the answer
  $("game-area").classList.add("sending");
  $("line").disabled = $("send").disabled = true;
  try {
    renderSession(await api("POST", `/api/play/${state.session.id}/send`, { line, moves }));
  } catch (err) {  // refused (the game ended meanwhile, say): show the game as it now stands
    await api("GET", `/api/play/${state.session.id}`).then(renderSession).catch(() => null);
    throw err;
  } finally {
    state.sending = false;
    $("game-area").classList.remove("sending");
  }
  await pollSession();
}

// A tap on a move within SETTLE_MS of the last tap that sent one is the second half of a double tap (nobody
// reads the next throw that fast): it is dropped rather than played on a board the player has not seen.
const SETTLE_MS = 350;
// Timed by the tap's own time (the event's timeStamp, when the finger landed), not when the page got round to
// it: a busy phone handles two taps late, and read late their gap looked longer than it was.
function doubleTap(event) {
  const now = event && event.timeStamp > 0 ? event.timeStamp : performance.now();
  if (now - state.tappedAt < SETTLE_MS) return true;
  state.tappedAt = now;
  return false;
}

// A game's record, downloaded as the file `dicesolver analyze` and the Review tab's upload read.
function downloadLink(name) {
  return `<a class="download" href="/api/records/${encodeURIComponent(name)}" download="${esc(name)}">download</a>`;
}

// Unfinished games (their records on disk, newest first): continued where they stopped, or discarded.
async function listUnfinished() {
  const records = (await api("GET", "/api/records")).filter((r) => !r.over);
  const playing = state.session && !state.session.over && !state.session.stopped ? state.session.record : null;
  const rows = records.filter((r) => r.name !== playing);
  $("unfinished").innerHTML = rows.length ? `<h3>Unfinished games</h3><ul class="records">${rows.map((r) =>
    `<li>${esc(r.game)}: ${r.players.map(esc).join(" vs ")}, turn ${r.turn}, ${esc(r.date.replace("T", " "))}
      <button type="button" data-resume="${esc(r.name)}">Continue</button>
      <button type="button" data-discard="${esc(r.name)}">Discard</button> ${downloadLink(r.name)}</li>`).join("")}</ul>` : "";
}

$("unfinished").addEventListener("click", (e) => {
  const { resume, discard } = e.target.dataset;
  if (resume) {
    guarded(async () => {
      $("play-review").innerHTML = "";
      const session = await api("POST", "/api/play", { resume });
      state.choosing = false;
      renderSession(session);
      await listUnfinished();
      await pollSession();
    });
  } else if (discard) {
    guarded(async () => { await api("DELETE", `/api/records/${encodeURIComponent(discard)}`); await listUnfinished(); });
  }
});
document.querySelector(".tab[data-page='play']").addEventListener("click", () => guarded(listUnfinished));

$("play-game").addEventListener("change", () => { variantControls($("play-game")); setupPlay(); });
// New game while one is in play asks first (the game in play stays saved and can be continued).
function inPlay() { return Boolean(state.session && !state.session.over && !state.session.stopped); }
$("play-start").addEventListener("click", () => {
  if (inPlay()) { $("confirm-new").hidden = false; $("confirm-start").focus(); return; }
  guarded(startGame);
});
$("confirm-start").addEventListener("click", () => { $("confirm-new").hidden = true; guarded(startGame); });
$("confirm-cancel").addEventListener("click", () => {
  $("confirm-new").hidden = true;
  state.choosing = false;
  $("setup").hidden = inPlay();
});
$("send").addEventListener("click", () => guarded(() => sendLine($("line").value)));
$("line").addEventListener("keydown", (e) => { if (e.key === "Enter") guarded(() => sendLine($("line").value)); });
$("quick").addEventListener("click", (e) => {
  if (e.target.id === "new-game") {
    state.choosing = true;
    $("setup").hidden = false;
    $("setup").scrollIntoView();
    return;
  }
  const line = e.target.dataset.line;
  if (line !== undefined && !doubleTap(e)) guarded(() => sendLine(line));
});

// -- review ---------------------------------------------------------------------------------------------------------
// The width a figure is drawn for: the space it has on this screen (the server stacks panels and keeps text
// readable for a phone's).
function figureWidth(id) {
  return Math.max(200, Math.min(4000, Math.round($(id).clientWidth || document.documentElement.clientWidth)));
}

function fmt(x, digits = 3) { return typeof x === "number" ? x.toFixed(digits) : esc(x ?? ""); }

// The players' words for an action: a box by its title ("score four_of_a_kind" is "Four of a kind").
function plainAction(game, action) {
  // a game with variants (a review's "yatzy(forced=on)") names its boxes as its base game does
  const g = state.games[game] || state.games[String(game).split("(")[0]];
  if (action === "keep none" || action === "keep -") return "reroll every die";
  const box = /^score (\S+)$/.exec(action);
  const category = box && g && g.categories ? g.categories.find((c) => c.name === box[1]) : null;
  return category ? `score ${category.title}` : action;
}

// An amount of the game's measure, in words: points to one decimal, chances in percentage points.
function amount(unit, x, signed = false) {
  const sign = signed && x > 0 ? "+" : x < 0 ? "−" : "";
  const size = Math.abs(x);
  if (unit === "points") return `${sign}${size.toFixed(1)} points`;
  if (unit === "equity") return `${sign}${size.toFixed(3)} equity`;
  return `${sign}${(100 * size).toFixed(1)} percentage points`;
}

const LABEL_ORDER = ["massive blunder", "blunder", "mistake", "inaccuracy"];

// A review as a phone shows it: one plain sentence, the labels counted worst first, the timeline, then one card
// per decision, the costliest first.
function renderReview(response) {
  const r = response.review;
  const s = r.summary;
  const you = s.player === "you";
  const who = you ? "You" : esc(s.player);
  const whom = you ? "you" : "them";
  const others = s.players.length > 1 ? `; the other players' turns ${amount(s.unit, s.others, true)}` : "";
  const sentence = `${who} lost ${amount(s.unit, s.loss)} to mistakes; the dice gave ${whom} ${amount(s.unit, s.luck, true)}${others}.
    ${s.complete ? "Result" : "Value now"} ${fmt(s.result, s.unit === "points" ? 1 : 3)} (perfect play with average dice: ${fmt(s.baseline, s.unit === "points" ? 1 : 3)}; ${esc(s.measure)}, judged by ${esc(s.judge)}).`;
  const plural = (k, n) => (n === 1 ? k : k.endsWith("y") ? k.slice(0, -1) + "ies" : k + "s");
  const counts = LABEL_ORDER.filter((k) => s.labels && s.labels[k]).map((k) => `<span class="chip ${k.replace(" ", "-")}">${s.labels[k]} ${esc(plural(k, s.labels[k]))}</span>`);
  const decisions = r.decisions.filter((d) => d.seat === s.seat && d.options > 1).sort((a, b) => b.loss - a.loss || a.event - b.event);
  const digits = s.unit === "points" ? 2 : 4;
  // why the best beat the move made, on a tap, where the judge splits its values (as /api/explain does)
  const why = (s.unit === "points" && s.judge === "points" && s.players.length === 1) || s.unit === "p_win";
  const cards = decisions.map((d) => {
    const label = d.loss > 0 ? d.label : "best";
    const ask = why && d.loss > 0 ? `<button type="button" class="link" data-why-game="${esc(s.game)}" data-why-position="${esc(d.position)}"
      data-why-versus="${esc(d.chosen)}">why?</button><div class="why-area"></div>` : "";
    return `<li class="decision ${esc(label).replace(" ", "-")}"><div class="decision-head"><span>turn ${esc(d.turn)} · ${esc(d.brief)}</span>
      ${d.loss > 0 ? `<span class="chip ${esc(label).replace(" ", "-")}">${esc(label)} −${d.loss.toFixed(digits)}</span>` : `<span class="chip best">best</span>`}</div>
      <div>${you ? "you" : esc(s.player)}: <b>${esc(plainAction(s.game, d.chosen))}</b> <span class="num">${d.chosen_value.toFixed(digits)}</span></div>
      ${d.chosen === d.best ? "" : `<div>best: <b>${esc(plainAction(s.game, d.best))}</b> <span class="num">${d.best_value.toFixed(digits)}</span></div>`}${ask}</li>`;
  });
  const costly = decisions.filter((d) => d.loss > 0).length;  // the rest, played best, folded under them
  const rest = cards.length - costly;
  const rated = s.rating ? `<p class="rating">Rating: <b>${esc(s.rating)}</b> (a mean loss of ${s.mean_loss.toFixed(digits)} a decision, on this game's scale placed by its bots)</p>` : "";
  const heeded = (r.tutor || []).filter((w) => w.heeded).length;
  const tutored = (r.tutor || []).length ? `<details class="tutor-review"><summary>The tutor's warnings: ${heeded} heeded, ${r.tutor.length - heeded} not</summary><ul>
    ${r.tutor.map((w) => `<li>${w.heeded ? "heeded" : "played anyway"}: <b>${esc(plainAction(s.game, w.move))}</b> (−${w.cost.toFixed(digits)}); best <b>${esc(plainAction(s.game, w.best))}</b>${w.heeded ? `, played ${esc(plainAction(s.game, w.played))}` : ""}. ${esc(w.reason)}</li>`).join("")}</ul></details>` : "";
  return `<h3>Review of ${you ? "your" : esc(s.player) + "'s"} game</h3><p class="summary">${sentence}</p>${rated}${tutored}
    <p class="chips">${counts.join(" ") || "no mistakes"}</p>
    <img class="plot" alt="timeline of value, luck and loss" src="${response.plot}">
    <ol class="review-cards">${cards.slice(0, costly).join("")}</ol>
    ${rest ? `<details class="played-best"><summary>${rest} decision${rest === 1 ? "" : "s"} played best</summary>
      <ol class="review-cards">${cards.slice(costly).join("")}</ol></details>` : ""}`;
}

// Finished games, newest first: when, what, everyone's score and who won; a button reviews each player's game.
// Unfinished ones are on the Play page (Continue or Discard).
async function listRecords() {
  const records = (await api("GET", "/api/records")).filter((r) => r.over);
  $("records").innerHTML = records.map((r) => {
    const scores = r.players.map((p, i) => `${esc(p)} ${r.scores[i]}`).join(", ");
    const won = r.winners.length === 1 ? ` — ${esc(r.winners[0])} won` : r.winners.length > 1 ? " — a tie" : "";
    const buttons = r.players.map((p, i) => `<button type="button" data-name="${esc(r.name)}" data-player="${i}">review
      ${r.players.length > 1 ? esc(p === "you" ? "yours" : p + "'s") : ""}</button>`).join(" ");
    return `<li><span class="when">${esc(r.date.replace("T", " "))}</span> ${esc(r.game)}: ${scores}${won} ${buttons} ${downloadLink(r.name)}</li>`;
  }).join("") || "<li>No finished games here yet (unfinished ones are on the Play page).</li>";
}

$("review-out").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-why-position]");
  if (!button) return;
  const area = button.nextElementSibling;
  guarded(() => explainInto(area, button.dataset.whyGame, button.dataset.whyPosition, button.dataset.whyVersus));
});
$("review-out").addEventListener("change", (e) => {
  if (!e.target.classList.contains("why-versus")) return;
  const card = e.target.closest("li");
  const button = card && card.querySelector("button[data-why-position]");
  if (button) guarded(() => explainInto(card.querySelector(".why-area"), button.dataset.whyGame, button.dataset.whyPosition, e.target.value));
});
$("refresh-records").addEventListener("click", () => guarded(listRecords));
$("records").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (button && button.dataset.name) guarded(async () => {
    const name = encodeURIComponent(button.dataset.name);
    const width = figureWidth("review-out");
    $("review-out").innerHTML = renderReview(await api("POST", `/api/records/${name}/review?player=${+button.dataset.player || 0}&width=${width}`));
  });
});

// An uploaded record: its players (from its first line) fill the player list, then its review is shown.
let uploaded = null;
function recordPlayers(text) {
  try {
    const header = JSON.parse(text.split("\n", 1)[0]);
    return Array.isArray(header.players) ? header.players.map(String) : [];
  } catch (_) {
    return [];  // the server says what is wrong with it
  }
}
async function reviewUpload() {
  if (uploaded === null) return;
  $("review-out").innerHTML = renderReview(await api("POST", "/api/review",
    { record: uploaded, player: +$("review-player").value || 0, width: figureWidth("review-out") }));
}
$("upload").addEventListener("change", () => guarded(async () => {
  const file = $("upload").files[0];
  if (!file) return;
  if (file.size > 1000000) throw new Error("a record may be at most 1 MB");
  uploaded = await file.text();
  const players = recordPlayers(uploaded);
  $("review-player").innerHTML = (players.length ? players : ["player 1"]).map((p, i) => `<option value="${i}">${esc(p)}</option>`).join("");
  $("review-player").disabled = players.length < 2;
  await reviewUpload();
}));
$("review-player").addEventListener("change", () => guarded(reviewUpload));

// -- explore ----------------------------------------------------------------------------------------------------------
async function explore() {
  const g = await chosenGame($("explore-game"));
  const out = $("explore-out");
  const name = encodeURIComponent(g.name);
  const odds = g.page.explore_odds ? await api("GET", `/api/explore/odds?game=${name}`) : null;
  // each figure is drawn by a POST, with its progress (its tables solved first); then its image is only read
  const urls = [];
  for (const x of g.page.explore) {
    urls.push((await api("POST", "/api/explore/figure", { game: g.name, image: x.image, width: figureWidth("explore-out") })).url);
  }
  out.innerHTML = g.page.explore.map((x, i) => `<h3>${esc(x.title)}</h3>
      <img class="plot" alt="${esc(x.title)}" src="${esc(urls[i])}">`).join("") +
    (odds ? oddsTable(odds) : "");
}

// One-turn odds (a whole turn played for one box), or one throw's (Farkle: with the chance of scoring nothing
// and of every die scoring); a column shows where the rows have it.
function oddsTable(odds) {
  const nothing = odds.some((r) => r.p_nothing !== null && r.p_nothing !== undefined);
  const every = odds.some((r) => r.p_every_die !== null && r.p_every_die !== undefined);
  const cell = (x) => `<td class="num">${x === null || x === undefined ? "" : x.toFixed(4)}</td>`;
  return `<h3>${nothing ? "One throw's odds" : "One-turn odds: a whole turn played for one box"}</h3><div class="table-scroll"><table><tr>
    <th>${nothing ? "throw" : "box"}</th><th class="num">max</th><th class="num">expected</th><th class="num">P(max)</th>
    ${nothing ? '<th class="num">P(nothing)</th>' : ""}${every ? '<th class="num">P(every die)</th>' : ""}</tr>
    ${odds.map((r) => `<tr><td>${esc(r.category)}</td><td class="num">${r.max_points}</td>
      <td class="num">${r.expected_points.toFixed(3)}</td>${cell(r.p_max)}${nothing ? cell(r.p_nothing) : ""}${every ? cell(r.p_every_die) : ""}</tr>`).join("")}</table></div>`;
}
$("explore-go").addEventListener("click", () => guarded(explore));
$("explore-game").addEventListener("change", () => variantControls($("explore-game")));

// -- train ----------------------------------------------------------------------------------------------------------
// A session: the server draws the positions (this browser's mistakes first), each answer is judged as it comes
// (its cost, label, the best and why), and the session's proficiency is kept with the ones before.
const training = { game: "", questions: [], at: 0, answers: [], answered: false };

async function startTraining() {
  const g = await chosenGame($("train-game"));
  const data = await api("POST", "/api/train/questions", { game: g.name, questions: +$("train-count").value });
  Object.assign(training, { game: g.name, questions: data.questions, at: 0, answers: [], answered: false });
  showQuestion();
}

// The position drawn as the Play board draws a game's, without its controls (the options below are the answer).
function stillBoard(b) {
  const kept = { held: board.held, heldFor: board.heldFor };
  try {
    return BOARDS[b.family] ? BOARDS[b.family]({ ...b, actions: [] }, null) : "";
  } finally {
    Object.assign(board, kept);
  }
}

function showQuestion() {
  const q = training.questions[training.at];
  training.answered = false;
  $("train-out").innerHTML = `<p class="train-head"><b>question ${training.at + 1} of ${training.questions.length}</b>${q.note ? ` · ${esc(q.note)}` : ""}</p>
    <div class="train-board">${stillBoard(q.board)}</div>
    <p>What do you play?</p>
    <div class="train-options">${q.board.actions.map((a) => `<button type="button" data-answer="${esc(a.action)}">${esc(plainAction(training.game, a.action))}</button>`).join("")}</div>
    <div id="train-verdict" aria-live="polite"></div>`;
  const first = $("train-out").querySelector("[data-answer]");
  if (first) first.focus();
}

async function answerQuestion(action) {
  if (training.answered) return;
  training.answered = true;  // at once: a second tap while the verdict loads answers nothing
  const q = training.questions[training.at];
  let v;
  try {
    v = await api("POST", "/api/train/answer", { game: training.game, position: q.position, action });
  } catch (err) {
    training.answered = false;  // not answered: the question stays open
    throw err;
  }
  training.answers.push({ game: training.game, position: q.position, action });
  $("train-out").querySelectorAll("[data-answer]").forEach((b) => {
    b.disabled = true;
    if (b.dataset.answer === v.best) b.classList.add("train-best");
    if (b.dataset.answer === v.action && v.label !== "best") b.classList.add("train-wrong");
  });
  const digits = v.unit === "points" ? 2 : 4;
  const name = (a) => plainAction(training.game, a);
  const last = training.at + 1 === training.questions.length;
  $("train-verdict").innerHTML = (v.label === "best"
    ? `<p class="train-right">The best: ${esc(name(v.action))} (${v.value.toFixed(digits)}).</p>`
    : `<p class="train-miss"><b>${esc(v.label)}</b>: ${esc(name(v.action))} costs ${v.cost.toFixed(digits)}; the best is
       <b>${esc(name(v.best))}</b> (${v.best_value.toFixed(digits)}).</p>` +
      (v.why ? whyPanel(v.why, training.game).replace("why-versus", "why-versus train-versus")
        : `<table><tr><th>option</th><th class="num">value</th><th class="num">cost</th></tr>${v.options.map((o) =>
          `<tr><td>${esc(name(o.action))}</td><td class="num">${o.value.toFixed(digits)}</td><td class="num">${o.cost.toFixed(digits)}</td></tr>`).join("")}</table>`)) +
    `<p><button type="button" class="primary" id="train-next">${last ? "Finish" : "Next question"}</button></p>`;
  $("train-next").focus();
}

async function finishTraining() {
  const s = await api("POST", "/api/train/finish", { game: training.game, answers: training.answers, width: figureWidth("train-out") });
  const labels = Object.entries(s.labels).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(", ");
  const rated = s.rating ? `<p class="rating">Rating: <b>${esc(s.rating)}</b> (as ${s.compared.toFixed(3)} a decision over a whole game's decisions)</p>` : "";
  $("train-out").innerHTML = `<p><b>${s.decisions} decisions: a mean loss of ${s.mean_loss.toFixed(3)} a decision</b> (${esc(labels)}).
      ${s.mistakes} position${s.mistakes === 1 ? "" : "s"} in your deck of mistakes.</p>
    ${rated}<img class="plot" alt="your mean loss per decision, session by session" src="${s.plot}">
    <p><button type="button" class="primary" id="train-again">Train again</button></p>`;
}

async function trainNext() {
  if (training.at + 1 < training.questions.length) {
    training.at += 1;
    showQuestion();
  } else {
    await finishTraining();
  }
}

$("train-go").addEventListener("click", () => guarded(startTraining));
$("train-game").addEventListener("change", () => variantControls($("train-game")));
$("train-out").addEventListener("click", (e) => {
  const target = e.target.closest("button");
  if (!target) return;
  if (target.dataset.answer !== undefined) guarded(() => answerQuestion(target.dataset.answer));
  else if (target.id === "train-next") guarded(trainNext);
  else if (target.id === "train-again") guarded(startTraining);
});
$("train-out").addEventListener("change", (e) => {
  if (e.target.classList.contains("why-versus")) {
    const q = training.questions[training.at];
    const panel = e.target.closest(".why");
    const area = document.createElement("div");
    panel.replaceWith(area);
    guarded(() => explainInto(area, training.game, q.position, e.target.value));
  }
});

// A game in play lives in the page's address (#play/<id>) and in local storage: a reload or a reopened tab
// shows the same board at the same prompt (while the server still holds the game).
const SAVED_GAME = "dicesolver.play";

function rememberGame(id) {
  if (location.hash !== `#play/${id}`) history.replaceState(null, "", `#play/${id}`);
  try { localStorage.setItem(SAVED_GAME, id); } catch (err) { /* private mode: the address still holds it */ }
}

async function reattach() {
  const match = /^#play\/([0-9a-f]{1,40})$/.exec(location.hash);
  let id = match ? match[1] : null;
  try { id = id || localStorage.getItem(SAVED_GAME); } catch (err) { /* no storage */ }
  if (!id) return;
  const response = await fetch(`/api/play/${id}`);
  if (!response.ok) {  // over and gone, or the server restarted: nothing to show
    try { localStorage.removeItem(SAVED_GAME); } catch (err) { /* no storage */ }
    if (match) history.replaceState(null, "", location.pathname);
    return;
  }
  const session = await response.json();
  document.querySelector(".tab[data-page='play']").click();
  showGameString($("play-game"), session.game);  // the controls describe the game on the board, its bots included
  setupPlay();
  renderSession(session);
  await pollSession();
}

guarded(async () => { await loadGames(); await reattach(); });

// The page's shell kept for when the server is out of reach (a secure context only: localhost, or https).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => null);
