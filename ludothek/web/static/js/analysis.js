// The computer analysis of a finished game (issue 12, item 7), as lichess shows it: the evaluation
// after every ply as a chart (click a point to see that position), inaccuracies, mistakes and
// blunders marked in the move list with the better move, and for a solved game the exact value
// ("win in 7") of every position. The server computes it in its bot pool and keeps it.
import { api, el, t, num, colourName } from "./app.js";
import { svg } from "./board.js";

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

function exactText(exact, seat) {
  if (!exact) return "";
  if (exact.winner === null || exact.winner === undefined) return t("exact_draw");
  return t(exact.winner === seat ? "exact_win" : "exact_loss", { n: exact.plies });
}

function signed(value) {
  return `${value >= 0 ? "+" : "\u2212"}${num(Math.abs(value), 2)}`;
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
  card.append(el("p", { class: "note", id: "analysis-method" }, data.method === "solution" ? t("analysis_exact")
    : data.note ? t("analysis_no_table") : t("analysis_search", { budget: data.budget })));
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
  const y = (value) => H / 2 - Math.max(-1, Math.min(1, value)) * (H / 2 - PAD);
  const points = [[x(first), y(data.start.eval)], ...entries.map((e) => [x(e.ply), y(e.eval)])];
  const line = points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
  const area = `M${x(first).toFixed(1)},${H / 2} L${line.replaceAll(" ", " L")} L${x(entries.at(-1).ply).toFixed(1)},${H / 2} Z`;
  const [above, below] = data.colours;
  const marks = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const e of entries) if (e.mark) marks[e.mark]++;
  const root = svg("svg", { class: "eval-chart", id: "eval-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": "eval-title eval-desc", "data-plies": entries.length });
  const title = svg("title", { id: "eval-title" });
  title.textContent = t("analysis_chart");
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
      "data-ply": e.ply, cx: x(e.ply), cy: y(e.eval), r: e.mark ? 5 : 2.6 });
    const tip = svg("title");
    tip.textContent = `${e.ply}. ${e.move}${e.mark ? SYMBOL[e.mark] : ""} ${signed(e.eval)}${e.mark ? " · " + t(e.mark) : ""}`
      + (e.exact ? ` · ${exactText(e.exact, e.seat)}` : "");
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

// what the analysis says of the position shown: its evaluation, the mark and the better move
function selectedPly(page, data) {
  const index = shownIndex(page);
  const box = el("div", { class: "analysis-ply", id: "analysis-ply" });
  if (index < 0) {
    box.append(el("div", {}, t("analysis_eval", { value: signed(data.start.eval) })));
    return box;
  }
  const entry = decisionOf(page, index) || entriesOf(page, index).at(-1);
  if (!entry) return box;
  const after = entriesOf(page, index).at(-1);
  const head = el("div", { class: "analysis-move" }, el("strong", {}, `${page.view.history[index].text}${entry.mark ? SYMBOL[entry.mark] : ""}`),
    " ", t("analysis_eval", { value: signed(after.eval) }));
  box.append(head);
  if (entry.mark) box.append(el("div", { class: `mark-text mark-${entry.mark}`, id: "analysis-mark" }, t(entry.mark)));
  if (entry.best) {
    const value = entry.best_exact ? exactText(entry.best_exact, entry.seat) : signed(entry.best_eval);
    box.append(el("div", { id: "analysis-best" }, t("best_was", { move: entry.best }), ` (${value})`));
  }
  if (entry.exact) {
    const colour = entry.colour ? `${colourName(entry.colour)}: ` : "";
    box.append(el("div", { id: "analysis-exact" }, colour + exactText(entry.exact, entry.seat)));
  }
  return box;
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
