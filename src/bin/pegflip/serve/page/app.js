// pegflip serve: the page. Plays, explores and edits a puzzle; every answer comes from the server's engines.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
// A board of k colours travels as one digit a cell, its colour's place in the cycle.
const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

// The puzzle being played: its file, the view the server compiled from it,
// the board, the moves played (for undo and redo), the last answer from the
// server, and the editor's file and its last valid view.
const game = {
  name: "", file: "", toml: "", view: null, start: "", state: "", history: [], undone: [],
  answer: null, selected: null, hint: null, animating: false, explored: null,
  editFile: "", edited: null,
};
let solveSeq = 0;
let editSeq = 0;

async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status} without JSON` }; }
  return { ok: response.ok, status: response.status, data };
}

// ---- drawing -------------------------------------------------------------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Draws `state` on `svg` in the view's geometry: tiles for toggles (in the
// puzzle's colours when it has more than two), holes and pegs for jumps, the
// marks on marked cells (`opts.marked`, cell to text), and the hinted move.
function draw(svg, view, state, opts = {}) {
  const scale = opts.scale || 1;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${view.width} ${view.height}`);
  svg.setAttribute("width", Math.round(view.width * scale));
  svg.setAttribute("height", Math.round(view.height * scale));
  for (const [a, b] of view.edges) {
    const p = view.cells[a], q = view.cells[b];
    el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: "#b8b2a4", "stroke-width": 2 }, svg);
  }
  view.cells.forEach((c, i) => {
    const on = state[i] === "1";
    const g = el("g", { class: "cell", "data-cell": i, "data-on": on ? "1" : "0" }, svg);
    const title = el("title", {}, g);
    title.textContent = c.label;
    if (view.colours) {
      const v = DIGITS.indexOf(state[i]);
      g.dataset.colour = v;
      title.textContent = `${c.label}: ${view.states[v]}`;
      el("rect", { x: c.x - 13, y: c.y - 13, width: 26, height: 26, rx: 3, fill: view.palette[v], stroke: "#999" }, g);
      if (v > 0 && !(opts.marked && opts.marked.has(i))) {
        const t = el("text", { x: c.x, y: c.y + 5, "text-anchor": "middle", "font-size": 13, fill: "#fff", "pointer-events": "none" }, g);
        t.textContent = view.states[v];
      }
    } else if (view.pegs) {
      el("circle", { cx: c.x, cy: c.y, r: 13, fill: "transparent" }, g);
      el("circle", { cx: c.x, cy: c.y, r: 5, fill: "#d8d2c4" }, g);
      if (on) el("circle", { cx: c.x, cy: c.y, r: 10, fill: opts.selected === i ? "#e8850c" : "#3b5b92" }, g);
    } else {
      el("rect", { x: c.x - 13, y: c.y - 13, width: 26, height: 26, rx: 3, fill: on ? "#2b2b2b" : "#f1efe8", stroke: "#999" }, g);
    }
    if (opts.marked && opts.marked.has(i)) {
      const fill = view.colours ? "#111" : "#d62728";
      const t = el("text", { x: c.x, y: c.y + 6, "text-anchor": "middle", "font-size": 16, "font-weight": "bold", fill, class: "mark", "pointer-events": "none" }, g);
      t.textContent = opts.marked.get(i);
    }
  });
  if (opts.hint !== null && opts.hint !== undefined) {
    const m = view.moves[opts.hint];
    const at = (k) => view.cells[m.cells[k]];
    if (m.kind === "jump") {
      const f = at(0), t = at(m.cells.length - 1);
      el("line", { x1: f.x, y1: f.y, x2: t.x, y2: t.y, stroke: "#e8850c", "stroke-width": 3, "stroke-linecap": "round", class: "hint", "data-from": m.cells[0], "data-to": m.cells[m.cells.length - 1], "pointer-events": "none" }, svg);
      el("circle", { cx: t.x, cy: t.y, r: 12, fill: "none", stroke: "#e8850c", "stroke-width": 3, "pointer-events": "none" }, svg);
    } else {
      const c = at(0);
      el("circle", { cx: c.x, cy: c.y, r: 11, fill: "none", stroke: "#d62728", "stroke-width": 3, class: "hint", "data-cell": m.cells[0], "pointer-events": "none" }, svg);
    }
  }
}

function redraw() {
  if (!game.view) return;
  // A certificate's cells: `#` on two colours, each cell's weight on more.
  const marked = new Map();
  const a = game.answer;
  if (a && a.certificates) {
    for (const cert of a.certificates) {
      for (const c of cert) {
        if (Array.isArray(c)) marked.set(c[0], String(c[1]));
        else marked.set(c, "#");
      }
    }
  }
  draw($("board"), game.view, game.state, { scale: boardScale(game.view), marked, hint: game.hint, selected: game.selected });
  $("board").dataset.state = game.state;
}

function boardScale(view) {
  return Math.max(0.5, Math.min(2, 520 / Math.max(view.width, view.height)));
}

// ---- playing -------------------------------------------------------------

function legal(m, state) {
  return m.need_on.every((c) => state[c] === "1") && m.need_off.every((c) => state[c] === "0");
}

// The board after move `m`, or before it when `sign` is -1: a press of k
// colours adds its amounts (mod k), a move of two colours flips its cells.
function apply(m, state, sign = 1) {
  const s = state.split("");
  const k = game.view.colours;
  if (k) {
    for (const [c, a] of m.adds) s[c] = DIGITS[(((DIGITS.indexOf(s[c]) + sign * a) % k) + k) % k];
  } else {
    for (const c of m.flip) s[c] = s[c] === "1" ? "0" : "1";
  }
  return s.join("");
}

// The moves played, counted in the puzzle's metric: with `moves`, a jump that
// goes on from where the last one landed continues the same move.
function countMoves() {
  if (game.view.metric !== "moves") return game.history.length;
  let count = 0, landed = null;
  for (const i of game.history) {
    const m = game.view.moves[i];
    if (m.kind !== "jump" || m.cells[0] !== landed) count += 1;
    landed = m.kind === "jump" ? m.cells[m.cells.length - 1] : null;
  }
  return count;
}

function play(index) {
  const m = game.view.moves[index];
  if (!legal(m, game.state)) return false;
  game.history.push(index);
  game.undone = [];
  game.state = apply(m, game.state);
  afterMove();
  return true;
}

function afterMove() {
  game.selected = null;
  game.hint = null;
  game.answer = null;
  $("hint-text").textContent = "";
  const n = countMoves();
  const word = game.view.metric === "moves" ? "move" : (game.view.pegs ? "jump" : "move");
  $("counter").textContent = `${n} ${word}${n === 1 ? "" : "s"}`;
  redraw();
  refreshStatus();
}

function clickCell(i) {
  if (game.animating || !game.view) return;
  const view = game.view;
  if (!view.pegs) {
    const index = view.moves.findIndex((m) => m.cells[0] === i && legal(m, game.state));
    if (index >= 0) play(index);
    return;
  }
  if (game.state[i] === "1") {
    game.selected = game.selected === i ? null : i;
    redraw();
    return;
  }
  if (game.selected !== null) jumpTo(game.selected, i);
}

function jumpTo(from, to) {
  const index = game.view.moves.findIndex((m) => m.kind === "jump" && m.cells[0] === from && m.cells[m.cells.length - 1] === to && legal(m, game.state));
  if (index >= 0) play(index);
  else { game.selected = null; redraw(); }
}

function cellAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const g = target && target.closest ? target.closest("#board .cell") : null;
  return g ? Number(g.dataset.cell) : null;
}

function setupBoard() {
  const board = $("board");
  let dragFrom = null;
  board.addEventListener("pointerdown", (e) => {
    const i = cellAt(e);
    dragFrom = i !== null && game.view && game.view.pegs && game.state[i] === "1" ? i : null;
  });
  board.addEventListener("pointerup", (e) => {
    const i = cellAt(e);
    if (i === null) return;
    if (dragFrom !== null && i !== dragFrom && game.state[i] === "0") jumpTo(dragFrom, i);
    else clickCell(i);
    dragFrom = null;
  });
}

function undo() {
  if (game.animating || game.history.length === 0) return;
  const i = game.history.pop();
  game.undone.push(i);
  game.state = apply(game.view.moves[i], game.state, -1);
  afterMove();
}

function redo() {
  if (game.animating || game.undone.length === 0) return;
  const i = game.undone.pop();
  const undone = game.undone;
  if (play(i)) game.undone = undone;
}

function reset() {
  if (game.animating) return;
  game.state = game.start;
  game.history = [];
  game.undone = [];
  afterMove();
}

// Asks the server for the fewest moves from here, and shows what it says.
async function refreshStatus() {
  const seq = ++solveSeq;
  const status = $("status");
  status.dataset.state = "wait";
  status.textContent = "thinking…";
  $("proof").textContent = "";
  const r = await api("/api/solve", { toml: game.toml, file: game.file, state: game.state });
  if (seq !== solveSeq) return null;
  if (!r.ok) {
    status.dataset.state = "refused";
    status.textContent = `no answer: ${r.data.error}`;
    return null;
  }
  game.answer = r.data;
  const a = r.data.answer;
  const unit = game.view.metric === "moves" ? "move" : (game.view.pegs ? "jump" : "move");
  const plural = (n) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (!a.solvable) {
    status.dataset.state = "impossible";
    status.textContent = "the goal can no longer be reached";
    $("proof").textContent = r.data.proof.join("\n");
  } else if (game.view.goal.fewest_pieces) {
    status.dataset.state = a.length === 0 ? "goal" : "open";
    status.textContent = a.length === 0
      ? `no better end: ${a.pieces} ${a.pieces === 1 ? "piece" : "pieces"} left`
      : `at best ${a.pieces} ${a.pieces === 1 ? "piece" : "pieces"} left, after ${plural(a.length)}`;
  } else if (a.length === 0) {
    status.dataset.state = "goal";
    status.textContent = `goal reached in ${plural(countMoves())}`;
  } else {
    status.dataset.state = "open";
    status.textContent = `the goal can be reached in ${plural(a.length)}${a.optimal ? " at best" : " (not proved the fewest)"}`;
  }
  redraw();
  return r.data;
}

// The next move of a fewest-moves solution: for the moves metric, the whole
// first chain is shown as its path and its first jump is drawn.
async function hint() {
  if (game.animating) return;
  const answer = game.answer || await refreshStatus();
  if (!answer) return;
  if (!answer.answer.solvable) { $("hint-text").textContent = "no hint: the goal cannot be reached from here"; return; }
  if (answer.moves.length === 0) { $("hint-text").textContent = "no hint: there is nothing left to do"; return; }
  game.hint = answer.moves[0];
  const step = answer.answer.moves[0];
  $("hint-text").textContent = `hint: ${step.text}`;
  redraw();
}

async function solveAll() {
  if (game.animating) return;
  const answer = game.answer || await refreshStatus();
  if (!answer || !answer.answer.solvable) return;
  game.animating = true;
  // A move every 350 ms, faster for long solutions: about ten seconds at most.
  const pace = Math.max(20, Math.min(350, 10000 / answer.moves.length));
  for (const i of answer.moves) {
    game.hint = i;
    redraw();
    await new Promise((done) => setTimeout(done, pace));
    game.history.push(i);
    game.state = apply(game.view.moves[i], game.state);
    game.hint = null;
    redraw();
  }
  game.animating = false;
  game.undone = [];
  afterMove();
}

// ---- loading and editing ---------------------------------------------------

async function open(name) {
  const r = await api(`/api/puzzles/${encodeURIComponent(name)}`);
  if (!r.ok) { $("status").textContent = r.data.error; return; }
  game.name = r.data.name;
  $("source").value = r.data.toml;
  await check(r.data.file);
  await playEdited();
}

// Checks the editor's text; shows the error at its line and column, or the preview.
async function check(file) {
  if (file) game.editFile = file;
  const seq = ++editSeq;
  const r = await api("/api/load", { toml: $("source").value, file: game.editFile || "puzzle.toml" });
  if (seq !== editSeq) return null;
  const errors = $("errors");
  if (!r.ok) {
    errors.dataset.state = "error";
    errors.dataset.line = r.data.line || "";
    errors.dataset.col = r.data.col || "";
    errors.textContent = r.data.error;
    $("play-edited").disabled = true;
    game.edited = null;
    gutter();
    return null;
  }
  errors.dataset.state = "ok";
  errors.dataset.line = "";
  errors.dataset.col = "";
  errors.textContent = `ok: ${r.data.name}, ${r.data.cells.length} cells, ${r.data.moves.length} moves`;
  $("play-edited").disabled = false;
  gutter();
  draw($("preview"), r.data, r.data.start, { scale: Math.min(1, 300 / Math.max(r.data.width, r.data.height)) });
  game.edited = r.data;
  return r.data;
}

async function playEdited() {
  const view = game.edited || await check();
  if (!view) {
    $("status").dataset.state = "refused";
    $("status").textContent = "this file has an error: the editor shows where";
    return;
  }
  game.view = view;
  game.toml = $("source").value;
  game.file = game.editFile || "puzzle.toml";
  game.start = view.start;
  game.state = view.start;
  game.history = [];
  game.undone = [];
  $("title").textContent = `Play: ${view.name}`;
  $("about").textContent = view.about;
  $("note").textContent = view.start_note || "";
  for (const id of ["linear", "quiet", "histogram", "explore-status"]) $(id).replaceChildren();
  $("picker").hidden = true;
  afterMove();
}

// Line numbers beside the editor, the error's line marked.
function gutter() {
  const count = $("source").value.split("\n").length;
  const bad = $("errors").dataset.state === "error" ? Number($("errors").dataset.line) : 0;
  const g = $("gutter");
  g.replaceChildren();
  for (let i = 1; i <= count; i++) {
    const n = document.createElement("span");
    n.textContent = String(i);
    if (i === bad) { n.className = "bad"; n.title = $("errors").textContent; }
    g.appendChild(n);
    g.appendChild(document.createTextNode("\n"));
  }
  g.scrollTop = $("source").scrollTop;
}

// Puts the editor's caret where the error points.
function goToError() {
  const line = Number($("errors").dataset.line), col = Number($("errors").dataset.col);
  if (!line) return;
  const source = $("source");
  const lines = source.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, col - 1);
  source.focus();
  source.setSelectionRange(at, at + 1);
}

function download() {
  const blob = new Blob([$("source").value], { type: "application/toml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = game.editFile ? game.editFile.split("/").pop().replace(/ \(shipped\)$/, "") : "puzzle.toml";
  a.click();
  URL.revokeObjectURL(a.href);
}

// ---- exploring -------------------------------------------------------------

async function explore() {
  if (!game.view) return;
  $("explore-status").textContent = "exploring…";
  const r = await api("/api/explore", { toml: game.toml, file: game.file });
  if (!r.ok) { $("explore-status").textContent = `no answer: ${r.data.error}`; return; }
  $("explore-status").textContent = "";
  const d = r.data;
  game.explored = d;
  const lin = $("linear");
  lin.replaceChildren();
  if (d.colours) {
    exploreColours(d.colours);
  } else if (d.linear) {
    const l = d.linear;
    lin.innerHTML = `<p>Linear over GF(2): rank <b id="rank">${l.rank}</b>, nullity <b id="nullity">${l.nullity}</b>; ` +
      `<b id="solvable">${l.solvable_states}</b> boards (2^rank) can reach each of the ${l.targets} target${l.targets === 1 ? "" : "s"}.</p>` +
      (l.nullity ? `<p class="small">Quiet patterns (pressing the marked cells changes nothing)${l.quiet_shown < l.nullity ? `, the first ${l.quiet_shown} of ${l.nullity}` : ""}:</p>` : "");
    const quiet = $("quiet");
    quiet.replaceChildren();
    for (const q of l.quiet) {
      const svg = document.createElementNS(SVGNS, "svg");
      const marked = new Map([...q].map((b, i) => [i, b]).filter(([, b]) => b === "1").map(([i]) => [i, "#"]));
      draw(svg, game.view, "0".repeat(q.length), { scale: Math.min(0.6, 160 / Math.max(game.view.width, game.view.height)), marked });
      quiet.appendChild(svg);
    }
  } else if (d.linear_refused) {
    lin.textContent = `Linear over GF(2), but no analysis: ${d.linear_refused}`;
  } else {
    lin.innerHTML = "<p>Not linear: the moves have guards, so the puzzle is answered by search.</p>";
  }
  const hist = $("histogram");
  hist.replaceChildren();
  if (!d.histogram) {
    $("explore-status").textContent = `no histogram: ${d.histogram_refused}`;
    return;
  }
  const max = Math.max(...d.histogram.map((h) => Number(h.count)));
  const label = d.objective ? "pieces left" : "moves to the goal";
  for (const h of d.histogram) {
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.dataset.distance = h.distance;
    bar.dataset.count = h.count;
    bar.style.height = `${Math.max(2, (100 * Number(h.count)) / max)}%`;
    bar.title = `${h.count} boards at ${h.distance} ${label}`;
    const s = document.createElement("span");
    s.textContent = h.distance;
    bar.appendChild(s);
    bar.addEventListener("click", () => { $("distance").value = h.distance; markBar(); });
    hist.appendChild(bar);
  }
  $("explore-status").textContent = `solvable boards by ${label} (click a bar to choose it)`;
  $("picker").hidden = false;
  markBar();
}

// The algebra of a puzzle of k colours, and its quiet patterns drawn as the
// times each cell is pressed.
function exploreColours(l) {
  const rank = l.rank === null ? "" : `rank <b id="rank">${l.rank}</b>, nullity <b id="nullity">${l.nullity}</b>; `;
  $("linear").innerHTML = `<p>Linear over ${l.ring} (presses add modulo <b id="modulus">${l.modulus}</b>): ${rank}` +
    `<b id="solvable">${l.solvable_states}</b> boards can reach the goal (${l.per_target} reach each target class); ` +
    `${l.quiet_count} press counts change nothing.</p>` +
    (l.generators ? `<p class="small">Quiet patterns (pressing each cell the times written changes nothing)${l.quiet_shown < l.generators ? `, the first ${l.quiet_shown} of ${l.generators}` : ""}:</p>` : "");
  const quiet = $("quiet");
  quiet.replaceChildren();
  for (const q of l.quiet) {
    const svg = document.createElementNS(SVGNS, "svg");
    const marked = new Map();
    [...q].forEach((t, i) => { if (t !== "0") marked.set(i, String(DIGITS.indexOf(t))); });
    draw(svg, game.view, "0".repeat(q.length), { scale: Math.min(0.6, 160 / Math.max(game.view.width, game.view.height)), marked });
    quiet.appendChild(svg);
  }
}

function markBar() {
  for (const bar of document.querySelectorAll("#histogram .bar")) {
    bar.classList.toggle("chosen", bar.dataset.distance === $("distance").value);
  }
}

async function pick() {
  const distance = Number($("distance").value);
  const bar = document.querySelector(`#histogram .bar[data-distance="${distance}"]`);
  if (!bar) { $("explore-status").textContent = `no solvable board is at distance ${distance}`; return; }
  const seed = Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);
  const r = await api("/api/pick", { toml: game.toml, file: game.file, distance, seed });
  if (!r.ok) { $("explore-status").textContent = `no answer: ${r.data.error}`; return; }
  game.start = r.data.state;
  game.state = r.data.state;
  game.history = [];
  game.undone = [];
  $("note").textContent = game.explored && game.explored.objective
    ? `a random board whose best end leaves ${distance}`
    : `a random solvable board at distance ${distance}`;
  afterMove();
}

// ---- wiring ------------------------------------------------------------------

async function main() {
  setupBoard();
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("reset").addEventListener("click", reset);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solveAll);
  $("explore-run").addEventListener("click", explore);
  $("pick").addEventListener("click", pick);
  $("distance").addEventListener("input", markBar);
  $("play-edited").addEventListener("click", () => { game.edited = null; playEdited(); });
  $("download").addEventListener("click", download);
  $("errors").addEventListener("click", goToError);
  let timer = null;
  $("source").addEventListener("scroll", () => { $("gutter").scrollTop = $("source").scrollTop; });
  $("source").addEventListener("input", () => {
    gutter();
    clearTimeout(timer);
    $("errors").dataset.state = "checking";
    timer = setTimeout(() => check(), 250);
  });
  const r = await api("/api/puzzles");
  const select = $("puzzle");
  for (const p of r.data.puzzles) {
    const option = document.createElement("option");
    option.value = p.name;
    option.textContent = p.name;
    option.title = p.about;
    select.appendChild(option);
  }
  select.addEventListener("change", () => open(select.value));
  const wanted = new URLSearchParams(location.search).get("puzzle");
  if (wanted && r.data.puzzles.some((p) => p.name === wanted)) select.value = wanted;
  await open(select.value);
  document.body.dataset.ready = "1";
}

main();
