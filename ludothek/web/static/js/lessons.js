// /learn and /learn/{game}: the lessons, a short path of steps per game. The page draws each step's
// board and sends every try (the clicked cells, or a button's move) to the server, which judges it
// with the game's engine and answers why a wrong try is wrong; the page decides nothing. Progress
// is kept in this browser (localStorage) and, for a logged-in player, in his account: at login the
// browser's progress is handed to the account (handOverLessons, called by the login page), and a
// logout forgets the browser's copy.
import { api, el, t, getLang, navigate, tokens } from "./app.js";
import { drawBoard, gridDie, svg } from "./board.js";

const STORE = "ludothek.lessons";

function localProgress() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch (e) { return {}; }
}
function saveLocal(progress) { localStorage.setItem(STORE, JSON.stringify(progress)); }
function markLocal(game, step) {
  const progress = localProgress();
  const done = new Set(progress[game] || []);
  done.add(step);
  progress[game] = [...done];
  saveLocal(progress);
}
// this browser's and the account's steps together
function merged(server) {
  const all = localProgress();
  for (const [game, steps] of Object.entries(server || {})) all[game] = [...new Set([...(all[game] || []), ...steps])];
  return all;
}

// after a login: the steps done in this browser become the account's too
export async function handOverLessons() {
  const progress = localProgress();
  if (!Object.keys(progress).length) return;
  try {
    const answer = await api("POST", "/api/lessons/progress", { progress });
    saveLocal(merged(answer.progress));
  } catch (e) { /* they stay in this browser and are handed over at the next login */ }
}

const text = (texts) => (texts && (texts[getLang()] || texts.en)) || "";

export async function renderLearn(root, game) {
  const index = await api("GET", "/api/lessons");
  const progress = merged(index.progress);
  document.title = `${t("learn_title")} – Ludothek`;
  if (!game || !index.games.some((g) => g.name === game)) return renderIndex(root, index, progress);
  return renderGameLessons(root, index, game, progress);
}

function renderIndex(root, index, progress) {
  root.append(el("h1", {}, t("learn_title")), el("p", { class: "sub" }, t("learn_intro")));
  const list = el("ul", { class: "lesson-games" });
  for (const g of index.games) {
    const done = g.steps.filter((s) => (progress[g.name] || []).includes(s)).length;
    list.append(el("li", { class: "card lesson-game" },
      el("h2", {}, g.title[getLang()] || g.title.en),
      el("p", { class: "note" }, t("learn_steps_done", { done, total: g.steps.length })),
      el("progress", { max: g.steps.length, value: done, "aria-label": t("learn_steps_done", { done, total: g.steps.length }) }),
      el("a", { class: "btn primary", href: `/learn/${g.name}`, "data-link": true, id: `learn-${g.name}` },
        done === 0 ? t("learn_start") : done === g.steps.length ? t("learn_again") : t("learn_continue"))));
  }
  root.append(list);
  return null;
}

async function renderGameLessons(root, index, game, progress) {
  const data = await api("GET", `/api/lessons/${game}`);
  const info = index.games.find((g) => g.name === game);
  const title = info.title[getLang()] || info.title.en;
  document.title = `${t("learn_title")}: ${title} – Ludothek`;
  const page = { game, data, steps: data.steps, done: new Set(merged(data.progress)[game] || []), current: 0 };
  const wanted = new URLSearchParams(location.search).get("step");
  const first = page.steps.findIndex((s) => !page.done.has(s.id));
  page.current = Math.max(0, wanted && page.steps.some((s) => s.id === wanted)
    ? page.steps.findIndex((s) => s.id === wanted) : first === -1 ? 0 : first);
  root.append(el("h1", {}, `${t("learn_title")}: ${title}`));
  root.append(el("nav", { class: "tabs", "aria-label": t("learn_games") }, index.games.map((g) =>
    el("a", { href: `/learn/${g.name}`, "data-link": true, class: g.name === game ? "on" : "", "aria-current": g.name === game ? "page" : null },
      g.title[getLang()] || g.title.en))));
  const body = el("div", { class: "lesson" });
  root.append(body);
  page.body = body;
  showStep(page);
  return null;
}

function showStep(page, focus = false) {
  const step = page.steps[page.current];
  page.step = step;
  page.selected = null;
  page.solved = false;
  page.board = step.board;
  page.last = [];
  page.threatened = step.threatened || [];
  const body = page.body;
  body.replaceChildren();
  const path = el("ol", { class: "lesson-path", "aria-label": t("learn_steps") });
  page.steps.forEach((s, k) => {
    const done = page.done.has(s.id);
    path.append(el("li", {}, el("button", { type: "button", class: "lesson-step" + (k === page.current ? " on" : "") + (done ? " done" : ""),
      "data-step": s.id, "aria-current": k === page.current ? "step" : null, onclick: () => { page.current = k; showStep(page, true); } },
      el("span", { class: "mark", "aria-hidden": "true" }, done ? "\u2713" : String(k + 1)),
      el("span", { class: "title" }, text(s.title)), el("span", { class: "visually-hidden solved" }, done ? ` (${t("learn_solved")})` : ""))));
  });
  const heading = el("h2", { id: "lesson-title", tabindex: "-1" }, `${t("learn_step", { n: page.current + 1, total: page.steps.length })}: ${text(step.title)}`);
  const instruction = el("p", { class: "lesson-text", id: "lesson-text" }, text(step.text));
  page.feedback = el("div", { class: "lesson-feedback", id: "lesson-feedback", role: "status", "aria-live": "polite" });
  page.controls = el("div", { class: "lesson-controls", id: "lesson-controls" });
  const side = el("div", { class: "side" }, el("div", { class: "card" }, heading, instruction), page.controls, page.feedback);
  if (step.kind === "play") {
    body.append(path, el("div", { class: "lesson-play" }, side));
    page.controls.append(playButton(page));
  } else {
    page.boardWrap = el("div", { class: "board-wrap" });
    body.append(path, el("div", { class: "play lesson-board" }, page.boardWrap, side));
    drawStep(page);
  }
  if (focus) heading.focus();
}

function playButton(page) {
  const error = el("p", { class: "err", role: "alert" });
  const button = el("button", { type: "button", class: "btn primary big", id: "lesson-play", onclick: async () => {
    button.disabled = true;
    try {
      const created = await api("POST", `/api/lessons/${page.game}/${page.step.id}/play`, {});
      tokens.set(created.id, created.token);
      markLocal(page.game, page.step.id);
      navigate(`/play/${created.id}`);
    } catch (e) { error.textContent = e.message; button.disabled = false; }
  } }, t("learn_play", { bot: page.step.bot || "bot:1" }));
  return el("div", {}, button, error);
}

// ---------------------------------------------------------------------------- the board
function drawStep(page) {
  const step = page.step;
  const moves = page.solved ? [] : step.moves;
  const sources = new Set(moves.filter((m) => m.from).map((m) => m.from));
  const targets = new Set(moves.filter((m) => m.to && (m.from === null || m.from === page.selected)).map((m) => m.to));
  const hadFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("svg.board"));
  const board = drawBoard(step.geometry, page.board, {
    sources, targets, selected: page.selected, last: page.last, threatened: page.threatened, labels: true,
    onCell: page.solved ? null : (name) => onCell(page, name), title: text(step.title),
    focus: page.focusCell, onFocus: (name) => { page.focusCell = name; },
  });
  page.boardWrap.replaceChildren(board);
  if (hadFocus) { const cell = board.querySelector('[tabindex="0"]'); if (cell) cell.focus(); }
  drawControls(page);
}

// the moves that are buttons (swap, the cube, a roll of the selected die) and the next step
function drawControls(page) {
  const box = page.controls;
  box.replaceChildren();
  if (page.solved) {
    const next = page.current + 1 < page.steps.length;
    const button = el("button", { type: "button", class: "btn primary big", id: "lesson-next", onclick: () => {
      if (next) { page.current += 1; showStep(page, true); } else navigate("/learn");
    } }, next ? t("learn_next") : t("learn_all"));
    box.append(button);
    button.focus();
    return;
  }
  const moves = page.step.moves;
  for (const m of moves) {
    if (m.from || m.to) continue;
    const label = m.kind === "swap" ? t("swap_offer") : m.move.startsWith("double") ? t("cube_double", { n: m.move.split(/\s+/)[1] || "" })
      : m.move === "take" ? t("cube_take") : m.move === "drop" ? t("cube_drop") : m.move;
    box.append(el("button", { type: "button", class: "btn", "data-move": m.move, onclick: () => attempt(page, { move: m.move }) }, label));
  }
  // a roll: offered for any selected die once the step has rolls, so that the engine can say why
  // a die that may not be rolled may not
  if (page.selected && page.step.cell_actions) {
    box.append(el("button", { type: "button", class: "btn primary", id: "lesson-roll",
      onclick: () => attempt(page, { from: page.selected, to: null }) }, `\u2684 ${t("roll")} (${page.selected})`));
  }
  if (!box.childElementCount) box.append(el("p", { class: "note" }, t(clickOnly(page) ? "learn_click_cell" : "learn_click_piece")));
}

// a board whose moves all name only a target (a stone put down): every click is a try
function clickOnly(page) {
  const withCells = page.step.moves.filter((m) => m.from || m.to);
  return withCells.length > 0 && withCells.every((m) => !m.from);
}

function occupied(board, name) {
  if (name.startsWith("tray:")) return true;
  return !!((board.dice && board.dice[name]) || (board.stones && board.stones[name]) || (board.pieces && (board.pieces[name] || []).length));
}

function onCell(page, name) {
  if (page.busy) return;
  const moves = page.step.moves;
  if (clickOnly(page)) return attempt(page, { from: null, to: name });
  if (!page.selected) {
    if (occupied(page.board, name)) { page.selected = name; drawStep(page); }
    else say(page, t("learn_click_piece"), "note");
    return;
  }
  if (name === page.selected) { page.selected = null; drawStep(page); return; }
  const fromSelected = moves.some((m) => m.from === page.selected && m.to === name);
  if (!fromSelected && moves.some((m) => m.from === name)) { page.selected = name; drawStep(page); return; }
  attempt(page, { from: page.selected, to: name });
}

async function attempt(page, body) {
  page.busy = true;
  let answer;
  try {
    answer = await api("POST", `/api/lessons/${page.game}/${page.step.id}`, body);
  } catch (e) {
    page.busy = false;
    say(page, e.message, "err");
    return;
  } finally { page.busy = false; }
  if (answer.choices) return choose(page, answer.choices);
  if (answer.ok) {
    page.solved = true;
    page.selected = null;
    page.board = answer.board;
    page.last = answer.last || [];
    page.threatened = answer.threatened || [];
    page.done.add(page.step.id);
    markLocal(page.game, page.step.id);
    page.feedback.replaceChildren(el("div", { class: "lesson-right", id: "lesson-right" },
      el("strong", {}, t("learn_right")), " ", answer.done_text));
    const mark = page.body.querySelector(`[data-step="${CSS.escape(page.step.id)}"]`);
    if (mark) {
      mark.classList.add("done");
      mark.querySelector(".mark").textContent = "\u2713";
      mark.querySelector(".solved").textContent = ` (${t("learn_solved")})`;
    }
    drawStep(page);
    reveal(page.feedback);
    return;
  }
  page.selected = null;
  drawStep(page);
  page.feedback.replaceChildren(el("div", { class: "lesson-wrong", id: "lesson-wrong" },
    el("strong", {}, answer.legal ? t("learn_not_this") : t("learn_refused")), " ",
    el("span", { class: "lesson-reason", id: "lesson-reason" }, answer.error),
    el("p", { class: "lesson-hint", id: "lesson-hint" }, el("strong", {}, `${t("learn_hint")}: `), answer.hint)));
  reveal(page.feedback);
}

// on a phone the feedback is below the board: bring it into view
function reveal(node) {
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (node.scrollIntoView) node.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
}

// several moves fit the clicks (a promotion, a die's orientation): which one?
function choose(page, choices) {
  const box = page.controls;
  box.replaceChildren(el("p", { class: "note", id: "lesson-choose" }, t(page.step.geometry.kind === "grid" ? "orientation" : "choose_move")));
  const group = el("div", { class: "choices", role: "group", "aria-labelledby": "lesson-choose" });
  for (const m of choices) {
    let content = m.move;
    if (page.step.geometry.kind === "grid" && m.choice) {
      const pic = svg("svg", { viewBox: "-0.55 -0.55 1.1 1.1", width: 64, height: 64, "aria-hidden": "true" });
      pic.append(gridDie(0, 0, 1, m.die, m.choice.split("").map(Number)));
      content = [pic, el("span", { class: "visually-hidden" }, m.move)];
    } else if (page.step.geometry.kind === "tri66") {
      content = m.choice ? t("promote_to") : t("stay");
    }
    group.append(el("button", { type: "button", class: "btn", title: m.move, "data-move": m.move, onclick: () => attempt(page, { move: m.move }) }, content));
  }
  box.append(group, el("button", { type: "button", class: "btn", onclick: () => { page.selected = null; drawStep(page); } }, t("cancel")));
  const first = group.querySelector("button");
  if (first) first.focus();
}

function say(page, message, kind) {
  page.feedback.replaceChildren(el("p", { class: kind }, message));
}
