// The computer analysis of a finished game (issue 12, item 7; issue 31, item 4), as lichess shows
// it: the winning chances after every ply as a chart (click a point to see that position),
// inaccuracies, mistakes and blunders marked by the winning chances they gave away, the best move
// of the position shown as an arrow on the board, its expected line to play through on the board,
// and for a solved game the exact value ("wins in 2 moves"). The server computes it in its bot
// pool and keeps it.
import { api, el, t, colourName, getLang } from "./app.js";
import { svg } from "./board.js";
import { cellCentre } from "./animate.js";

export const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const RANK = { inaccuracy: 1, mistake: 2, blunder: 3 };
const W = 420, H = 168, PAD = 8;
const POLL_MS = 600;

// the stored analysis of a finished game, if there is one (or the one being computed)
export async function loadAnalysis(page) {
  if (page.view.status !== "over") return;
  try {
    accept(page, await api("GET", `/api/games/${page.id}/analysis`));
  } catch (e) {
    return;  // the page works without it
  }
}

// ask for the analysis (the server starts it once; asking again is harmless)
export async function startAnalysis(page) {
  if (page.view.status !== "over") return;
  page.analysis = { status: "queued", done: 0, total: page.view.plies };
  page.draw();
  try {
    accept(page, await api("POST", `/api/games/${page.id}/analysis`));
  } catch (e) {
    page.analysis = { status: "failed", error: e.message };
    page.draw();
  }
}

function accept(page, answer) {
  if (page.closed) return;
  page.analysis = answer.status === "done" ? { status: "done", data: answer.analysis } : answer;
  page.draw();
  clearTimeout(page.analysisTimer);
  if (answer.status === "queued" || answer.status === "running") {
    page.analysisTimer = setTimeout(async () => {
      try { accept(page, await api("GET", `/api/games/${page.id}/analysis`)); }
      catch (e) { if (!e.network) { page.analysis = { status: "failed", error: e.message }; page.draw(); } else accept(page, answer); }
    }, POLL_MS);
  }
}

function done(page) {
  return page.analysis && page.analysis.status === "done" ? page.analysis.data : null;
}

// the analysed plies that history item k spans (a roll and its outcome are two plies, one item)
function entriesOf(page, k) {
  const data = done(page);
  const h = page.view.history;
  if (!data || k < 0 || k >= h.length) return [];
  const from = k > 0 ? h[k - 1].ply : data.start.ply;
  return data.entries.filter((e) => e.ply > from && e.ply <= h[k].ply);
}

// the player's decision in history item k (its worst one, should a cube action share the item)
function decisionOf(page, k) {
  const decisions = entriesOf(page, k).filter((e) => !e.chance);
  if (!decisions.length) return null;
  return decisions.reduce((worst, e) => (e.loss > worst.loss ? e : worst));
}

// the mark after a move in the move list: ?!, ? or ??
export function markOf(page, k) {
  const entry = decisionOf(page, k);
  if (!entry || !entry.mark) return null;
  return el("span", { class: `mark mark-${entry.mark}`, title: t(entry.mark) }, SYMBOL[entry.mark]);
}

// a solved game: "win in 7" for the player who made the move, below it in the move list
export function exactOf(page, k) {
  const entry = decisionOf(page, k);
  if (!entry || !entry.exact) return null;
  return el("small", { class: "exact-label", "data-index": k }, exactText(entry.exact, entry.seat));
}

// a solved value in words for the player in `seat`: the winner's own moves still to make, and
// a move that ends the game says so ("wins with this move"; the best move: "wins at once")
export function exactText(exact, seat, best = false) {
  if (!exact) return "";
  if (exact.winner === null || exact.winner === undefined) return t("exact_draw");
  const won = exact.winner === seat;
  const plies = exact.plies || 0;
  if (plies === 0) return t(won ? (best ? "exact_best_now_win" : "exact_now_win") : "exact_now_loss");
  const moves = Math.floor((plies + 1) / 2);
  return t(`exact_${won ? "win" : "loss"}_${moves === 1 ? "one" : "many"}`, { n: moves });
}

// winning chances in percent, as the page's language writes them ("63%", "63 %")
export function percent(value) {
  return new Intl.NumberFormat(getLang(), { style: "percent", maximumFractionDigits: 0 }).format(value / 100);
}

function points(value) {
  return new Intl.NumberFormat(getLang(), { maximumFractionDigits: 0 }).format(value);
}

// seat 0's winning chances at a point of the analysis (older analyses: from the evaluation)
function winOf(item) {
  return item.win ?? 50 * (1 + item.eval);
}

// the card in the side panel: the Analyse button, the progress, or the chart and what it says
export function analysisCard(page) {
  const v = page.view;
  if (v.status !== "over" || !v.history.length) return null;
  const a = page.analysis || { status: "none" };
  const card = el("div", { class: "card analysis", id: "analysis", "aria-live": "polite" },
    el("h2", { class: "small", style: "margin-top:0" }, t("analysis_title")));
  if (a.status === "none" || a.status === "failed") {
    if (a.status === "failed") card.append(el("p", { class: "err", id: "analysis-error" }, t("analysis_failed", { error: a.error || "" })));
    card.append(el("button", { class: "btn primary", id: "analyse", onclick: () => startAnalysis(page) }, t("analyse")));
    return card;
  }
  if (a.status === "queued" || a.status === "running") {
    const text = a.status === "queued" ? t("analysis_queued") : t("analysis_running", { done: a.done, total: a.total });
    card.append(el("p", { class: "note", id: "analysis-status", "data-status": a.status }, text),
      el("progress", { id: "analysis-progress", max: a.total || 1, value: a.status === "queued" ? null : a.done, "aria-label": t("analysis_title") }));
    return card;
  }
  const data = a.data;
  card.append(chart(page, data), selectedPly(page, data), counts(data));
  const limits = data.thresholds || {};
  card.append(el("p", { class: "note", id: "analysis-thresholds" }, data.method === "solution" ? t("analysis_thresholds_exact")
    : t("analysis_thresholds", { inaccuracy: points(limits.inaccuracy), mistake: points(limits.mistake), blunder: points(limits.blunder) })));
  card.append(el("p", { class: "note", id: "analysis-method" }, data.method === "solution" ? t("analysis_exact")
    : `${data.note ? t("analysis_no_table") : t("analysis_search", { budget: data.budget })} ${t("analysis_calibrated")}`));
  return card;
}

// which history item is shown: the replayed one, else the last (-1: the start)
function shownIndex(page) {
  return page.replay === null ? page.view.history.length - 1 : page.replayIndex;
}

function chart(page, data) {
  const entries = data.entries;
  const first = data.start.ply;
  const span = Math.max(1, entries.length ? entries.at(-1).ply - first : 1);
  const x = (ply) => PAD + ((ply - first) / span) * (W - 2 * PAD);
  const y = (win) => H / 2 - Math.max(-1, Math.min(1, (win - 50) / 50)) * (H / 2 - PAD);
  const spots = [[x(first), y(winOf(data.start))], ...entries.map((e) => [x(e.ply), y(winOf(e))])];
  const line = spots.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
  const area = `M${x(first).toFixed(1)},${H / 2} L${line.replaceAll(" ", " L")} L${x(entries.at(-1).ply).toFixed(1)},${H / 2} Z`;
  const [above, below] = data.colours;
  const marks = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const e of entries) if (e.mark) marks[e.mark]++;
  const root = svg("svg", { class: "eval-chart", id: "eval-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": "eval-title eval-desc", "data-plies": entries.length });
  const title = svg("title", { id: "eval-title" });
  title.textContent = t("analysis_chart_win", { colour: colourName(above) });
  const desc = svg("desc", { id: "eval-desc" });
  desc.textContent = t("analysis_desc", { plies: entries.length, above: colourName(above), below: colourName(below),
    inaccuracies: marks.inaccuracy, mistakes: marks.mistake, blunders: marks.blunder });
  root.append(title, desc,
    svg("defs", {},
      svg("clipPath", { id: "eval-above" }, svg("rect", { x: 0, y: 0, width: W, height: H / 2 })),
      svg("clipPath", { id: "eval-below" }, svg("rect", { x: 0, y: H / 2, width: W, height: H / 2 }))),
    svg("rect", { class: "eval-back", x: 0, y: 0, width: W, height: H, rx: 6 }),
    svg("path", { class: `eval-area seat-${above}`, d: area, "clip-path": "url(#eval-above)" }),
    svg("path", { class: `eval-area seat-${below}`, d: area, "clip-path": "url(#eval-below)" }),
    svg("line", { class: "eval-mid", x1: PAD, x2: W - PAD, y1: H / 2, y2: H / 2 }),
    svg("polyline", { class: "eval-line", points: line }));
  const index = shownIndex(page);
  const ply = index < 0 ? first : page.view.history[index].ply;
  root.append(svg("line", { class: "eval-cursor", id: "eval-cursor", "data-ply": ply, x1: x(ply), x2: x(ply), y1: 2, y2: H - 2 }));
  // one column per ply to click, and its point on top (the marked ones larger, in their colour)
  const step = (W - 2 * PAD) / span;
  const go = (e) => jump(page, e.ply);
  for (const e of entries) {
    root.append(svg("rect", { class: "eval-hit", "data-ply": e.ply, x: x(e.ply) - step / 2, y: 0, width: step, height: H }));
  }
  for (const e of entries) {
    const point = svg("circle", { class: `ply-point${e.mark ? " mark-" + e.mark : ""}${e.ply === ply ? " current" : ""}`,
      "data-ply": e.ply, "data-win": winOf(e), cx: x(e.ply), cy: y(winOf(e)), r: e.mark ? 5 : 2.6 });
    const tip = svg("title");
    tip.textContent = `${e.ply}. ${e.move}${e.mark ? SYMBOL[e.mark] : ""} ${colourName(above)} ${percent(winOf(e))}`
      + `${e.mark ? " · " + t(e.mark) : ""}` + (e.exact ? ` · ${exactText(e.exact, e.seat)}` : "");
    point.append(tip);
    root.append(point);
  }
  for (const node of root.querySelectorAll("[data-ply].eval-hit, circle.ply-point")) {
    const entry = entries.find((e) => e.ply === Number(node.dataset.ply));
    node.addEventListener("click", () => go(entry));
  }
  return el("div", { class: "eval-wrap" }, root,
    el("div", { class: "eval-legend note" }, el("span", {}, `\u25B2 ${colourName(above)}`), el("span", {}, `\u25BC ${colourName(below)}`)));
}

// the replay goes to the history item holding that ply
function jump(page, ply) {
  const h = page.view.history;
  const index = h.findIndex((item) => item.ply >= ply);
  if (index >= 0 && page.replayTo) page.replayTo(index);
}

// the analysis point of the position shown: the start, or the last ply of the history item
function pointOf(page, data) {
  const index = shownIndex(page);
  return index < 0 ? data.start : entriesOf(page, index).at(-1) || null;
}

function chances(data, item) {
  const [first, second] = data.colours;
  const win = winOf(item);
  return el("div", { id: "analysis-chances", "data-win": win.toFixed(1) }, t("analysis_chances", {
    first: colourName(first), first_value: percent(win), second: colourName(second), second_value: percent(100 - win) }));
}

// what the analysis says of the position shown: the winning chances, the mark and the better
// move, the best move from here and its expected line (buttons that play it on the board)
function selectedPly(page, data) {
  const index = shownIndex(page);
  const box = el("div", { class: "analysis-ply", id: "analysis-ply" });
  const point = pointOf(page, data);
  if (!point) return box;
  if (index >= 0) {
    const entry = decisionOf(page, index) || point;
    box.append(el("div", { class: "analysis-move" },
      el("strong", {}, `${page.view.history[index].text}${entry.mark ? SYMBOL[entry.mark] : ""}`)));
    if (entry.mark) {
      box.append(el("div", { class: `mark-text mark-${entry.mark}`, id: "analysis-mark", "data-loss": entry.loss },
        `${t(entry.mark)}: ${t("analysis_lost", { points: points(entry.loss) })}`));
    }
    if (entry.best) {
      const value = entry.best_exact ? exactText(entry.best_exact, entry.seat, true)
        : `${colourName(data.colours[0])} ${percent(entry.best_win ?? 50 * (1 + entry.best_eval))}`;
      box.append(el("div", { id: "analysis-best" }, t("best_was", { move: entry.best }), ` (${value})`));
    }
    if (entry.exact) {
      const colour = entry.colour ? `${colourName(entry.colour)}: ` : "";
      box.append(el("div", { id: "analysis-exact" }, colour + exactText(entry.exact, entry.seat)));
    }
  }
  box.append(chances(data, point));
  if (point.next_best) box.append(el("div", { id: "analysis-next" }, t("analysis_best_move", { move: point.next_best })));
  if (point.line && point.line.length) box.append(lineBox(page, point));
  return box;
}

// the expected line as buttons: each shows the board after it; the arrows step through it
function lineBox(page, point) {
  const shown = page.line && page.line.ply === point.ply ? page.line : null;
  const row = el("div", { class: "analysis-line", id: "analysis-line", role: "group", "aria-label": t("analysis_line") },
    el("span", { class: "note" }, `${t("analysis_line")}: `));
  point.line.forEach((move, k) => {
    const current = shown && shown.at === k;
    row.append(el("button", { class: `btn small line-move${current ? " current" : ""}`, "data-step": k,
      "aria-label": t("analysis_line_step", { move }), "aria-pressed": current ? "true" : "false",
      onclick: () => showLine(page, point.ply, k) }, move));
  });
  if (shown) {
    row.append(el("button", { class: "btn small", id: "line-back", onclick: () => leaveLine(page) }, t("analysis_line_back")));
  }
  return row;
}

// show step k of the expected line of the position after `ply` (the server plays it)
export async function showLine(page, ply, k) {
  page.lineCache = page.lineCache || {};
  if (!page.lineCache[ply]) {
    try { page.lineCache[ply] = await api("GET", `/api/games/${page.id}/analysis/line?ply=${ply}`); }
    catch (e) { page.error = e.message; page.draw(); return; }
  }
  const steps = page.lineCache[ply].steps;
  if (!steps.length) return;
  page.line = { ply, at: Math.max(0, Math.min(steps.length - 1, k)), steps };
  page.draw();
}

export function leaveLine(page) {
  page.line = null;
  page.draw();
}

// the board of the line step shown (for the game page's drawing), or null
export function lineView(page, base) {
  if (!page.line) return null;
  const step = page.line.steps[page.line.at];
  return { ...base, board: step.board, last: step.last, threatened: step.threatened, threat: false };
}

// the arrow of the best move in the position shown, drawn over the board (or a ring for a
// move on one cell: a placement, a roll)
export function drawArrow(page, wrap) {
  const data = done(page);
  const root = wrap.querySelector("svg.board");
  if (!data || !root) return;
  let cells, move;
  if (page.line) {
    const step = page.line.steps[page.line.at];
    cells = step.arrow;
    move = page.line.steps[page.line.at + 1]?.last.move;
  } else {
    const point = pointOf(page, data);
    cells = point && point.arrow;
    move = point && point.next_best;
  }
  if (!cells || !cells.length) return;
  const ends = cells.map((name) => cellCentre(root, name));
  if (ends.some((p) => !p)) return;
  const group = svg("g", { class: "best-arrow", id: "best-arrow", "data-cells": cells.join(" "), "pointer-events": "none" });
  const title = svg("title");
  title.textContent = t("analysis_arrow", { move });
  group.append(title);
  if (ends.length === 1) {
    group.append(svg("circle", { cx: ends[0][0], cy: ends[0][1], r: 0.5, class: "best-ring" }));
  } else {
    const [[x1, y1], [x2, y2]] = ends;
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    const head = 0.55, tipX = x2 - ux * 0.15, tipY = y2 - uy * 0.15;
    const baseX = tipX - ux * head, baseY = tipY - uy * head;
    group.append(
      svg("line", { x1, y1, x2: baseX, y2: baseY, class: "best-shaft" }),
      svg("polygon", { class: "best-head", points: [[tipX, tipY], [baseX - uy * head * 0.6, baseY + ux * head * 0.6],
        [baseX + uy * head * 0.6, baseY - ux * head * 0.6]].map((p) => p.map((v) => v.toFixed(3)).join(",")).join(" ") }));
  }
  root.append(group);
}

function counts(data) {
  const list = el("ul", { class: "analysis-counts", id: "analysis-counts" });
  data.colours.forEach((colour, seat) => {
    const n = { inaccuracy: 0, mistake: 0, blunder: 0 };
    for (const e of data.entries) if (e.seat === seat && e.mark) n[e.mark]++;
    list.append(el("li", {}, t("analysis_counts", { colour: colourName(colour), inaccuracies: n.inaccuracy,
      mistakes: n.mistake, blunders: n.blunder })));
  });
  return list;
}
