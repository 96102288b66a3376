// Puzzles (issue 31, item 2): /puzzles lists the games and the player's puzzle ratings, /puzzles/GAME
// shows a puzzle matched to that rating, /puzzles/GAME/ID one puzzle (the daily one). The player moves
// on the board; the server says whether the move was the one (the page never knows the solution first).
import { api, el, t, colourName, getLang, navigate, currentUser } from "./app.js";
import { drawBoard, boardPicture, gridDie, svg } from "./board.js";

export async function renderPuzzles(root, game, id) {
  if (!game) return renderOverview(root);
  const page = { game, puzzle: null, selected: null, result: null, error: "", choices: null, busy: false };
  const wrap = el("div", { class: "puzzle-page" });
  root.append(wrap);
  page.draw = () => draw(page, wrap);
  await load(page, id);
  return () => { page.closed = true; };
}

async function load(page, id) {
  page.result = null; page.selected = null; page.choices = null; page.error = "";
  const path = id ? `/api/puzzles/${encodeURIComponent(page.game)}/${encodeURIComponent(id)}` : `/api/puzzles/${encodeURIComponent(page.game)}/next`;
  page.puzzle = await api("GET", path);
  if (!id) history.replaceState({}, "", `/puzzles/${page.game}/${page.puzzle.id}`);
  window.ludothekPuzzle = page;  // read by the browser tests
  page.draw();
}

function taskText(p) {
  const who = colourName(p.to_move);
  if (p.kind === "save") return t("puzzle_task_save", { colour: who });
  if (p.kind === "draw") return t("puzzle_task_draw", { colour: who });
  if (p.depth === 1) return t("puzzle_task_win1", { colour: who });
  return t("puzzle_task_win", { colour: who });
}

function ratingText(r) {
  return r ? `${Math.round(r.value)} ± ${Math.round(r.deviation)}` : "–";
}

function draw(page, wrap) {
  const p = page.puzzle;
  const lang = getLang();
  const done = !!page.result;
  const moves = done || page.busy ? [] : p.moves;
  const sources = new Set(moves.filter((m) => m.from).map((m) => m.from));
  const targets = new Set(moves.filter((m) => m.to && (m.from === null || m.from === page.selected)).map((m) => m.to));
  // a keyboard player's focus stays on the board (on the same cell) across redraws
  const boardFocused = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("svg.board"));
  const board = drawBoard(p.geometry, done ? page.result.after : p.board, {
    focus: page.focusCell, onFocus: (name) => { page.focusCell = name; },
    sources, targets, selected: page.selected, last: done ? page.result.solution_cells : [],
    threatened: done ? [] : p.threatened,
    onCell: (name) => onCell(page, name),
  });
  const boardWrap = el("div", { class: "board-wrap", id: "puzzle-board", "data-puzzle": p.id, "data-state": done ? (page.result.correct ? "solved" : "failed") : "open" }, board);
  const side = el("div", { class: "side" });
  side.append(el("div", { class: "card" },
    el("h1", { class: "small", style: "margin-top:0" }, `${t("puzzle_title")} · ${p.game_title ? p.game_title[lang] : ""}`.replace(/ · $/, "")),
    el("p", { id: "puzzle-task" }, taskText(p)),
    el("p", { class: "note", id: "puzzle-rating" }, t("puzzle_rating_of_puzzle", { rating: ratingText(p.rating) }))));
  const you = el("div", { class: "card", id: "your-rating" });
  if (currentUser()) {
    const rated = done && page.result.rated;
    if (rated) {
      const diff = Math.round(rated.after.value) - Math.round(rated.before.value);
      you.append(el("p", {}, t("puzzle_your_rating"), " ",
        el("strong", { id: "rating-after", "data-value": rated.after.value }, Math.round(rated.after.value)),
        el("span", { class: diff >= 0 ? "up" : "down", id: "rating-diff" }, ` (${diff >= 0 ? "+" : "\u2212"}${Math.abs(diff)})`)));
    } else {
      const r = p.player;
      you.append(el("p", {}, t("puzzle_your_rating"), " ", el("strong", { id: "rating-now", "data-value": r ? r.value : "" }, r ? Math.round(r.value) : "–")));
      if (done) you.append(el("p", { class: "note" }, t("puzzle_seen_before")));
    }
  } else {
    you.append(el("p", { class: "note" }, t("puzzle_guest"), " ",
      el("a", { href: `/login?next=${encodeURIComponent(location.pathname)}`, "data-link": true }, t("nav_login"))));
  }
  side.append(you);
  const status = el("div", { class: "card", id: "puzzle-status", "aria-live": "polite" });
  if (done) {
    const r = page.result;
    status.append(el("p", { class: r.correct ? "ok big-result" : "err big-result", id: "puzzle-result" },
      r.correct ? t("puzzle_right") : t("puzzle_wrong", { move: r.tried })),
    el("p", {}, t("puzzle_solution"), " ", el("code", { id: "puzzle-solution" }, r.solution)),
    el("div", { class: "row" },
      el("button", { class: "btn primary", id: "next-puzzle", onclick: () => { navigate(`/puzzles/${page.game}`); } }, t("puzzle_next")),
      el("a", { class: "btn", href: "/puzzles", "data-link": true }, t("puzzle_all"))));
  } else if (page.choices) {
    status.append(el("p", {}, t("choose_move")));
    const box = el("div", { class: "choices row" });
    for (const m of page.choices) box.append(el("button", { type: "button", class: "btn", title: m.move, "data-move": m.move, onclick: () => answer(page, m.move) }, choiceContent(p, m)));
    box.append(el("button", { type: "button", class: "btn", onclick: () => { page.choices = null; page.draw(); } }, t("cancel")));
    status.append(box);
  } else {
    status.append(el("p", { class: "note" }, page.busy ? t("puzzle_checking") : t("puzzle_hint")));
    // moves without a target cell: those without any cell (e.g. a swap), and rolling the selected die
    const buttons = p.moves.filter((m) => !m.to && (!m.from || (m.kind === "roll" && m.from === page.selected)));
    if (buttons.length) {
      const box = el("div", { class: "row" });
      for (const m of buttons) {
        const label = m.kind === "roll" ? `\u2684 ${t("roll")} (${m.from})` : m.move;
        box.append(el("button", { type: "button", class: "btn", "data-move": m.move, onclick: () => answer(page, m.move) }, label));
      }
      status.append(box);
    }
  }
  if (page.error) status.append(el("p", { class: "err", role: "alert", id: "puzzle-error" }, page.error));
  side.append(status);
  wrap.replaceChildren(el("div", { class: "play" }, boardWrap, side));
  if (boardFocused) {
    const cell = board.querySelector('[tabindex="0"]');
    if (cell) cell.focus();
  }
}

// what a button offering one of several moves to the same cell shows (as on the game page)
function choiceContent(p, m) {
  if (p.geometry.kind === "grid" && m.choice) {
    const pic = svg("svg", { viewBox: "-0.55 -0.55 1.1 1.1", width: 64, height: 64, role: "img", "aria-label": m.move });
    pic.append(gridDie(0, 0, 1, m.die, m.choice.split("").map(Number)));
    return pic;
  }
  if (p.geometry.kind === "tri66") return m.choice ? `${t("promote_to")} (${m.move})` : `${t("stay")} (${m.move})`;
  return m.move;
}

function onCell(page, name) {
  if (page.result || page.busy) return;
  const moves = page.puzzle.moves;
  const fromSelected = page.selected ? moves.filter((m) => m.from === page.selected && m.to === name) : [];
  const free = moves.filter((m) => m.from === null && m.to === name);
  if (fromSelected.length) return pick(page, fromSelected);
  if (free.length && !moves.some((m) => m.from === name)) return pick(page, free);
  page.selected = moves.some((m) => m.from === name) && page.selected !== name ? name : null;
  page.draw();
}

function pick(page, candidates) {
  if (candidates.length === 1) return answer(page, candidates[0].move);
  page.choices = candidates;
  page.draw();
}

async function answer(page, move) {
  page.busy = true; page.choices = null; page.selected = null; page.error = "";
  page.draw();
  try {
    page.result = await api("POST", `/api/puzzles/${encodeURIComponent(page.game)}/${encodeURIComponent(page.puzzle.id)}/answer`, { move });
  } catch (e) {
    page.error = e.message;
  }
  page.busy = false;
  page.draw();
}

// ---------------------------------------------------------------------------- the overview
async function renderOverview(root) {
  const data = await api("GET", "/api/puzzles");
  const lang = getLang();
  root.append(el("h1", {}, t("puzzle_title")), el("p", { class: "sub" }, t("puzzle_intro")));
  root.append(await dailyCard());
  const list = el("div", { class: "card", id: "puzzle-games" }, el("h2", {}, t("puzzle_games")));
  const ul = el("ul", { class: "puzzle-games" });
  for (const g of data.games) {
    ul.append(el("li", {},
      el("a", { href: `/puzzles/${g.name}`, "data-link": true, "data-game": g.name }, g.title[lang] || g.title.en),
      " ", el("span", { class: "note" }, t("puzzle_count", { n: g.count })),
      data.rated ? el("span", { class: "note" }, ` · ${t("puzzle_your_rating")} ${g.rating ? Math.round(g.rating.value) : "–"}`) : null));
  }
  list.append(ul);
  if (!data.rated) list.append(el("p", { class: "note" }, t("puzzle_guest")));
  root.append(list);
  return null;
}

// the puzzle of the day, as a card (the home page shows it too)
export async function dailyCard() {
  const card = el("div", { class: "card daily-puzzle", id: "daily-puzzle" });
  try {
    const p = await api("GET", "/api/puzzles/daily");
    const lang = getLang();
    const title = (p.game_title && (p.game_title[lang] || p.game_title.en)) || p.game;
    const href = `/puzzles/${p.game}/${p.id}`;
    card.append(el("h2", { class: "small", style: "margin-top:0" }, t("puzzle_daily")),
      el("a", { class: "daily-link", href, "data-link": true, "data-daily": p.id },
        el("span", { class: "pic" }, boardPicture({ geometry: p.geometry, board: p.board, threatened: p.threatened }, { title: `${t("puzzle_daily")}: ${title}` })),
        el("span", {}, `${title}: ${taskText(p)}`)));
  } catch (e) {
    card.append(el("p", { class: "note" }, e.message));
  }
  return card;
}
