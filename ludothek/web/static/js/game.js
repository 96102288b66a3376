// The game page: board, moves, clocks, offers, move list, replay. Live over a websocket.
import { api, el, t, num, colourName, tokens, navigate, getLang, offline, focusKey, restoreFocus, currentUser, restartDelay } from "./app.js";
import { drawBoard, gridDie, dieFace, svg } from "./board.js";
import { playSound, soundOn, setSoundOn, wantSound } from "./sound.js";
import { analysisCard, drawArrow, exactOf, lineView, loadAnalysis, markOf, showLine, startAnalysis } from "./analysis.js";
import { animateMove, finishAnimation, isAnimating, snapshot } from "./animate.js";
import { clockText, eventLink, playerLink, ratingDelta, ratingText } from "./setup.js";
import { boardZoom } from "./zoom.js";
import { chatCard } from "./chat.js";

const SWATCH = { black: "#222", white: "#f5f0e6", a: "#3b7d4f", b: "#7b5aa6" };

export async function renderGame(root, id) {
  const params = new URLSearchParams(location.search);
  const page = {
    id, view: null, you: [], selected: null, flip: false, replay: null, replayIndex: null, geometry: null,
    diceStyle: localStorage.getItem("ludothek.dice") || "pips", error: "", ws: null, closed: false, receivedAt: 0,
    lastRollShown: null, modal: null,
    focusCell: null, refocusBoard: false, sound: false, sounds: [], announced: [], retry: 0,
  };
  const invite = params.get("invite");
  if (invite && !tokens.get(id)) {
    try {
      const joined = await api("POST", `/api/games/${id}/join`, { invite });
      tokens.set(id, joined.token);
    } catch (e) { page.error = e.message; }
    history.replaceState({}, "", `/play/${id}`);
  }
  let first;
  try {
    first = await api("GET", `/api/games/${id}`, undefined, tokens.get(id));
  } catch (e) {
    if (e.network) throw e;
    root.append(el("div", { class: "card" }, el("h2", {}, t("not_found")), el("p", { class: "note" }, e.message)));
    return null;
  }
  if (first.you.length) page.error = "";  // the invite was already used: by this player's account
  const boardWrap = el("div", { class: "board-wrap" });
  page.zoom = boardZoom(boardWrap);
  const side = el("div", { class: "side" });
  root.append(el("div", { class: "play" }, boardWrap, side));
  // chat between people: the players' room while this page holds a seat, else the spectators'
  if (first.game.mode === "online") {
    page.chat = chatCard(() => page.ws, first.you.length ? "players" : "spectators");
    root.append(page.chat.node);
  }
  page.live = el("div", { class: "visually-hidden", id: "announce", "aria-live": "polite", "aria-atomic": "true" });
  root.prepend(el("h1", { class: "visually-hidden" }, first.game.title[getLang()] || first.game.title.en));
  root.append(page.live);
  page.geometry = await api("GET", `/api/geometry/${first.game.game}?${new URLSearchParams(sizeOption(first.game.options))}`);
  accept(page, first.game, first.you);
  page.sound = soundOn(page.you.length > 0);
  wantSound(page.sound);
  // a player sees his own side at the bottom
  const topColour = { tri66: "white", grid: "b" }[page.geometry.kind];
  if (page.you.length === 1 && topColour && page.view.colours[page.you[0]] === topColour) page.flip = true;
  const draw = () => {
    // a new move waits for the move being animated (a quick reply is seen after it); anything
    // else (an offer, the player's own click) finishes the animation at once
    const moved = boardWrap.dataset.plies !== undefined && page.view.plies > Number(boardWrap.dataset.plies);
    if (isAnimating(boardWrap)) {
      if (moved) { page.drawPending = true; return; }
      finishAnimation(boardWrap);
    }
    const before = snapshot(boardWrap);
    render(page, boardWrap, side, draw);
    boardWrap.dataset.version = page.view.version;
    boardWrap.dataset.plies = page.view.plies;
    drawArrow(page, boardWrap);
    if (moved && page.replay === null && !page.line && seenMove(page)) {
      animateMove(boardWrap, before, page.view.last).then(() => {
        if (page.drawPending && !page.closed) { page.drawPending = false; draw(); }
      });
    }
  };
  page.draw = draw;
  page.replayTo = (index) => replayTo(page, index);  // the analysis chart's points
  window.ludothekGame = page; // read by the browser tests
  draw();
  connect(page);
  loadAnalysis(page);  // a finished game's stored computer analysis
  const ticker = setInterval(() => tickClocks(page, side), 250);
  const keys = (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const h = page.view.history.length;
    const at = page.replay === null ? h - 1 : page.replayIndex;
    if (page.line && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      showLine(page, page.line.ply, page.line.at + (event.key === "ArrowLeft" ? -1 : 1));
      return;
    }
    if (event.key === "ArrowLeft") replayTo(page, at - 1);
    else if (event.key === "ArrowRight" && page.replay !== null) replayTo(page, at + 1);
    else if (event.key === "Escape") { page.selected = null; closeModal(page); draw(); }
  };
  document.addEventListener("keydown", keys);
  return () => {
    page.closed = true; clearInterval(ticker); document.removeEventListener("keydown", keys);
    if (page.ws) page.ws.close(); closeModal(page);
    offline("ws", false);
  };
}

// whether the last move is one to animate: the opponent's (or the bot's), and any roll (the face
// the dice showed); not a move this player made with his own clicks
function seenMove(page) {
  const v = page.view, last = v.last, item = v.history.at(-1);
  if (!last || !item) return false;
  if (last.kind === "roll") return true;
  const seat = v.colours.indexOf(item.colour);
  return seat < 0 || !page.you.includes(seat);
}

function sizeOption(options) {
  return options && options.size !== undefined ? { size: options.size } : {};
}

function accept(page, view, you) {
  if (page.view && view.id === page.view.id && view.version < page.view.version) return false;
  const changed = !page.view || page.view.version !== view.version;
  const before = page.view;
  page.view = view;
  if (you) page.you = you;
  page.receivedAt = performance.now();
  if (changed) page.selected = null;
  if (changed && before) tellNews(page, before, view);
  if (before && before.id === view.id && before.status !== "over" && view.status === "over") page.endPending = true;
  return true;
}

// say what happened since the last view (moves, rolls, the end) in the live region, with a sound
function tellNews(page, before, after) {
  if (before.id !== after.id) return;
  const old = before.history, now = after.history;
  const lines = [];
  const entry = (k) => {
    const h = now[k];
    if (h.colour === null || h.colour === undefined) return t("announce_chance", { face: h.text });
    const last = after.last;
    if (k === now.length - 1 && last && last.kind === "roll" && h.text.includes(last.move)) {
      const face = h.text.slice(h.text.lastIndexOf(last.move) + last.move.length).replace(/[\^+#]/g, "");
      return t("announce_roll", { colour: colourName(h.colour), move: last.move, face });
    }
    return t("announce_move", { colour: colourName(h.colour), move: h.text });
  };
  if (now.length < old.length) lines.push(t("announce_undo"));
  else {
    let from = old.length;
    if (from > 0 && now.length >= from && now[from - 1].text !== old[from - 1].text) from -= 1; // a token grew
    for (let k = from; k < now.length; k++) lines.push(entry(k));
  }
  const ended = after.status === "over" && before.status !== "over";
  if (ended) lines.push(resultText(after));
  if (!lines.length) return;
  say(page, lines.join(". "));
  if (page.sound) {
    const kind = now.length < old.length ? "move" : after.last && after.last.kind === "roll" ? "roll"
      : after.last && after.last.kind === "place" ? "place" : "move";
    page.sounds.push(kind);
    playSound(kind);
    if (ended) { page.sounds.push("end"); setTimeout(() => playSound("end"), 250); }
  }
}

function say(page, text) {
  page.announced.push(text);
  if (!page.live) return;
  // emptied first, so that the same words twice are still read twice
  page.live.textContent = "";
  setTimeout(() => { if (page.live) page.live.textContent = text; }, 60);
}

function connect(page) {
  if (page.closed) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // the server words its errors in the language chosen on the page
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${page.id}?lang=${getLang()}`);
  page.ws = ws;
  ws.onopen = () => {
    page.connected = true;
    page.retry = 0;
    offline("ws", false);
    const token = tokens.get(page.id);
    page.seatAsked = !!token || !!(currentUser() && page.you.length);
    if (token) ws.send(JSON.stringify({ type: "auth", token }));
    // a logged-in player's seats are his account's: the socket's session says which
    else if (currentUser() && page.you.length) ws.send(JSON.stringify({ type: "auth" }));
  };
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (page.chat && (data.type === "chat" || String(data.ref || "").startsWith("chat-"))) {
      page.chat.receive(data);
    } else if (data.type === "state") {
      if (accept(page, data.game, data.you && data.you.length ? data.you : null)) page.draw();
      // the socket is in the players' room once the server says it holds a seat
      // (a page that sends "auth" waits for its answer before it asks for a room's messages)
      if (page.chat && data.you && data.you.length) page.chat.setRoom("players", ws);
      else if (page.chat && !page.seatAsked) page.chat.setRoom("spectators", ws);
    } else if (data.type === "error") {
      page.error = data.error; page.draw();
    }
  };
  ws.onclose = (event) => {
    page.connected = false;
    if (page.closed || page.ws !== ws) return;
    offline("ws", true);
    page.retry = Math.min(5000, (page.retry || 500) * 2);
    setTimeout(() => connect(page), restartDelay(event) ?? page.retry);
  };
}

function myTurn(page) {
  const v = page.view;
  return v.status === "ongoing" && page.replay === null && v.to_seat !== null && page.you.includes(v.to_seat);
}

// a move or an undo names the position it answers (ply): the server refuses it if the game moved on
const ANSWERS_A_PLY = new Set(["move", "undo"]);

async function send(page, path, body = {}) {
  page.error = "";
  const ply = ANSWERS_A_PLY.has(path) && page.view ? { ply: page.view.plies } : {};
  try {
    const result = await api("POST", `/api/games/${page.id}/${path}`, { token: tokens.get(page.id), ...ply, ...body });
    if (result.id && result.id !== page.id) {  // a rematch: a seat token, or the account's seat there
      if (result.token) tokens.set(result.id, result.token);
      navigate(`/play/${result.id}`);
      return;
    }
    accept(page, result.game, result.you);
  } catch (e) {
    page.error = e.message;
    if (e.data && e.data.game && e.data.game.id === page.id) accept(page, e.data.game);  // the game as it is now
  }
  page.draw();
}

function play(page, move) { page.selected = null; closeModal(page); return send(page, "move", { move }); }

function onCell(page, name) {
  if (!myTurn(page)) return;
  const moves = page.view.moves;
  const fromSelected = page.selected ? moves.filter((m) => m.from === page.selected && m.to === name) : [];
  const free = moves.filter((m) => m.from === null && m.to === name);
  if (fromSelected.length) return choose(page, fromSelected);
  if (free.length && !moves.some((m) => m.from === name)) return choose(page, free);
  if (moves.some((m) => m.from === name)) page.selected = page.selected === name ? null : name;
  else page.selected = null;
  page.draw();
}

function choose(page, candidates) {
  if (candidates.length === 1) return play(page, candidates[0].move);
  const box = el("div", { class: "choices" });
  for (const m of candidates) {
    let content = m.move;
    if (page.geometry.kind === "grid" && m.choice) {
      const pic = svg("svg", { viewBox: "-0.55 -0.55 1.1 1.1", width: 76, height: 76 });
      pic.append(gridDie(0, 0, 1, m.die, m.choice.split("").map(Number)));
      content = pic;
    } else if (page.geometry.kind === "tri66") {
      content = m.choice ? t("promote_to") : t("stay");
    }
    box.append(el("button", { type: "button", class: "btn", title: m.move, "data-move": m.move, onclick: () => play(page, m.move) }, content));
  }
  page.refocusBoard = true;
  openModal(page, el("div", {}, el("h2", { class: "small" }, page.geometry.kind === "grid" ? t("orientation") : t("choose_move")), box,
    el("button", { class: "btn", onclick: () => { closeModal(page); page.draw(); } }, t("cancel"))));
}

const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select, summary, [tabindex='0']";

// A dialog keeps Tab inside itself while open and gives the focus back to where it was when it closes.
function openModal(page, content) {
  const opener = page.modal ? page.modalOpener : document.activeElement;
  closeModal(page, false);
  page.modalOpener = opener;
  page.modal = el("div", { class: "modal-back", onclick: (e) => { if (e.target === page.modal) closeModal(page); } },
    el("div", { class: "modal", role: "dialog", "aria-modal": "true", onkeydown: (e) => trapTab(page, e) }, content));
  document.body.append(page.modal);
  const heading = page.modal.querySelector("h1, h2, h3");
  if (heading) { heading.id = heading.id || "modal-title"; page.modal.firstChild.setAttribute("aria-labelledby", heading.id); }
  const first = page.modal.querySelector(FOCUSABLE);
  if (first) first.focus();
}
function trapTab(page, event) {
  if (event.key !== "Tab" || !page.modal) return;
  const items = [...page.modal.querySelectorAll(FOCUSABLE)];
  if (!items.length) return;
  const [first, last] = [items[0], items[items.length - 1]];
  if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
  else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
}
function closeModal(page, restore = true) {
  if (!page.modal) return;
  page.modal.remove();
  page.modal = null;
  const opener = page.modalOpener;
  page.modalOpener = null;
  // the page may have been redrawn meanwhile: then the control with the opener's id takes the focus
  const target = opener && (opener.isConnected ? opener : opener.id && document.getElementById(opener.id));
  if (restore && target && target !== document.body) target.focus();
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}` : `${m}:${String(s % 60).padStart(2, "0")}`;
}

function clockValue(page, seat) {
  const c = page.view.clock;
  if (!c) return null;
  let ms = c.remaining[seat];
  if (c.running === seat) ms -= performance.now() - page.receivedAt;
  return Math.max(0, ms);
}

// correspondence: days per move, a deadline for the player to move (no ticking seconds)
function isDays(clock) { return !!clock && clock.days !== undefined; }

function timeLeft(deadline) {
  const minutes = Math.max(0, Math.floor((deadline * 1000 - Date.now()) / 60000));
  const d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60;
  if (d) return t("time_dh", { d, h });
  if (h) return t("time_hm", { h, m });
  return t("time_m", { m });
}

// whether a seat's deadline is this page's player's own, and how to name the seat otherwise
function seatWords(page, seat) {
  const v = page.view;
  const yours = page.you.includes(seat) && v.mode !== "local";
  return { yours, who: `${colourName(v.colours[seat])}${v.seats[seat].name ? ` (${v.seats[seat].name})` : ""}` };
}

// the window for a player's first move: the game is aborted when it passes
function firstMoveNote(page, abort) {
  const { yours, who } = seatWords(page, abort.seat);
  return el("div", { class: "note", id: "first-move", "data-you": yours ? "1" : null, "data-who": yours ? null : who },
    firstMoveText(page, abort, yours, who));
}

function firstMoveText(page, abort, yours, who) {
  const seconds = abort.in - (performance.now() - page.receivedAt) / 1000;
  const left = isDays(page.view.clock) ? timeLeft(Date.now() / 1000 + seconds) : fmtClock(seconds * 1000);
  return yours ? t("first_move_you", { left }) : t("first_move_other", { who, left });
}

function tickClocks(page, side) {
  const note = page.view && page.view.abort && side.querySelector("#first-move");
  if (note) {
    const text = firstMoveText(page, page.view.abort, !!note.dataset.you, note.dataset.who);
    if (note.textContent !== text) note.textContent = text;
  }
  if (!page.view || !page.view.clock) return;
  if (isDays(page.view.clock)) {
    for (const node of side.querySelectorAll("[data-deadline]")) {
      const text = node.dataset.you ? t("deadline_you", { left: timeLeft(Number(node.dataset.deadline)) })
        : node.dataset.who ? t("deadline_other", { who: node.dataset.who, left: timeLeft(Number(node.dataset.deadline)) })
          : timeLeft(Number(node.dataset.deadline));
      if (node.textContent !== text) node.textContent = text;
    }
    return;
  }
  for (const seat of [0, 1]) {
    const node = side.querySelector(`[data-clock="${seat}"]`);
    if (!node) continue;
    const ms = clockValue(page, seat);
    node.textContent = fmtClock(ms);
    node.classList.toggle("low", ms < 20000 && page.view.clock.running === seat);
  }
}

function seatLabel(page, seat) {
  const v = page.view;
  const info = v.seats[seat];
  if (info.kind === "bot") {
    const level = info.agent === "random" ? t("bot_random") : info.agent.startsWith("bot:") ? t("bot_n", { n: info.agent.slice(4) })
      : info.agent === "perfect" ? t("bot_perfect") : info.agent;
    return `${t("computer")} (${level})`;
  }
  // a player's name is text: it is set with textContent, never as markup
  const mine = page.you.includes(seat) && v.mode !== "local";
  if (info.name) return mine ? t("player_you", { name: info.name }) : info.name;
  if (mine) return t("you");
  return t("player_n", { n: seat + 1 });
}

// the seat's player in the strip: an account's name links to its profile
function seatNode(page, seat) {
  const v = page.view;
  const info = v.seats[seat];
  if (info.kind === "bot" || !info.name) return seatLabel(page, seat);
  const mine = page.you.includes(seat) && v.mode !== "local";
  const link = playerLink(info.name);
  if (!mine) return link;
  // "{name} (you)": the name as a link inside the words around it
  const [before, after] = t("player_you", { name: "\u0000" }).split("\u0000");
  return el("span", {}, before, link, after);
}

// a rated game's end: "1500? → 1662? +162.3" for one seat, "?" marking a provisional rating (null
// before the end or in a casual game)
function ratingChange(v, seat, id) {
  const r = v.ratings && v.ratings[seat];
  if (!r) return null;
  return el("span", { class: "rating-change", id, "data-before": r.before, "data-after": r.after, "data-delta": r.delta,
    title: r.provisional_before || r.provisional ? t("provisional_hint") : null },
    `${ratingText(r.before, r.provisional_before)} \u2192 ${ratingText(r.after, r.provisional)} `, ratingDelta(r.delta));
}

// the roll for the first move in the page's words: "(high starts): White 3, Black 3; White 2, Black 4"
function startRollText(roll) {
  const rolls = roll.rolls.map((pair) => pair.map((r) => `${colourName(r.colour)} ${r.face}`).join(", ")).join("; ");
  return t("start_roll", { rule: t(`rule_${roll.rule}`), rolls });
}

function resultText(v) {
  if (v.termination === "expired") return t("expired");
  if (v.termination === "aborted") return t("game_aborted");
  if (v.result === "draw") return v.termination === "agreement" ? `${t("draw")} ${t("by_agreement")}` : t("draw");
  const how = { resign: t("by_resign"), time: t("by_time"), abandon: t("by_abandon") }[v.termination] || "";
  return `${t("wins", { colour: colourName(v.result) })}${how ? " " + how : ""}`;
}

function render(page, boardWrap, side, draw) {
  const v0 = page.view;
  const shown = lineView(page, page.replay || v0) || page.replay || v0;
  const live = page.replay === null;
  const mine = myTurn(page);
  const moves = mine ? v0.moves : [];
  const sources = new Set(moves.filter((m) => m.from).map((m) => m.from));
  const targets = new Set(moves.filter((m) => m.to && (m.from === null || m.from === page.selected)).map((m) => m.to));
  // board
  const focused = focusKey();
  const boardFocused = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("svg.board"));
  const board = drawBoard(page.geometry, shown.board, {
    flip: page.flip, sources, targets, selected: page.selected, last: shown.last ? shown.last.cells : [],
    threatened: shown.threatened, diceStyle: page.diceStyle, onCell: (name) => onCell(page, name),
    focus: page.focusCell, onFocus: (name) => { page.focusCell = name; },
  });
  boardWrap.replaceChildren(board);
  page.zoom.attach(board);
  if ((boardFocused || page.refocusBoard) && !page.modal) {
    page.refocusBoard = false;
    const cell = board.querySelector('[tabindex="0"]');
    if (cell) cell.focus();
  }
  if (shown.threat && (live ? v0.status !== "over" || v0.termination === "rules" : true)) {
    boardWrap.append(el("div", { class: "eins", title: t("eins_hint") }, t("eins")));
  }
  if (!live) {
    boardWrap.append(el("div", { class: "replaybar" },
      el("button", { class: "btn", id: "replay-start", "aria-label": t("replay_start"), title: t("replay_start"), onclick: () => replayTo(page, -1) }, "|\u25C0"),
      el("button", { class: "btn", id: "replay-back", "aria-label": t("replay_back"), title: t("replay_back"), onclick: () => replayTo(page, page.replayIndex - 1) }, "\u25C0"),
      el("button", { class: "btn", id: "replay-forward", "aria-label": t("replay_forward"), title: t("replay_forward"), onclick: () => replayTo(page, page.replayIndex + 1) }, "\u25B6"),
      el("button", { class: "btn primary", id: "replay-live", onclick: () => { page.replay = null; page.replayIndex = null; page.line = null; draw(); } }, t("live"))));
  }

  // side panel
  side.replaceChildren();
  const v = v0;
  const title = v.title[getLang()] || v.title.en;
  document.title = `${title} – Ludothek`;
  const details = [title, v.options.size ? `${v.options.size}` : null, t(`mode_${v.mode}`),
    v.mode === "online" ? t(v.rated ? "rated" : "casual") : null, isDays(v.clock) ? clockText(v.clock) : null,
    v.options.cube ? t("stake", { n: v.board.cube ? v.board.cube.value : 1 }) : null].filter(Boolean);
  side.append(el("div", { class: "game-title" }, el("strong", {}, details[0]), " ", details.slice(1).join(" · ")));
  // list the players in the order their sides appear on the board (the top one first)
  const topColour = { tri66: "white", grid: "b" }[page.geometry.kind];
  let order = page.flip ? [0, 1] : [1, 0];
  if (topColour && v.colours.includes(topColour)) {
    const topSeat = v.colours.indexOf(topColour);
    order = page.flip ? [1 - topSeat, topSeat] : [topSeat, 1 - topSeat];
  }
  const players = el("div", { class: "card players" });
  for (const seat of order) {
    const colour = v.colours[seat];
    const turn = live && v.status === "ongoing" && v.to_seat === seat;
    const showScore = v.score && (v.status === "over" || Object.values(v.score).some((n) => n));
    const score = showScore && v.score[colour] !== undefined ? ` · ${t("score")} ${v.score[colour]}` : "";
    let clock = null;
    if (isDays(v.clock)) {  // only the player to move has a deadline
      if (v.clock.running === seat && v.clock.deadline) {
        clock = el("span", { class: "clock corr running", "data-clock": seat, "data-deadline": v.clock.deadline,
          title: new Date(v.clock.deadline * 1000).toLocaleString(getLang()) }, timeLeft(v.clock.deadline));
      }
    } else if (v.clock) {
      clock = el("span", { class: "clock" + (v.clock.running === seat ? " running" : ""), "data-clock": seat }, fmtClock(clockValue(page, seat)));
    }
    players.append(el("div", { class: "player" + (turn ? " turn" : ""), "data-seat": seat },
      el("span", { class: "swatch", style: `background:${SWATCH[colour] || "#999"}` }),
      el("div", { class: "who" }, el("strong", {}, colourName(colour)), el("small", {}, seatNode(page, seat), score),
        v.ratings ? el("small", {}, ratingChange(v, seat, `rating-change-${seat}`)) : null),
      clock));
  }
  side.append(players);

  // status or result
  if (v.status === "over") {
    const scored = v.score && v.score[v.colours[0]] !== undefined && v.termination !== "aborted";  // no result, no score
    side.append(el("div", { class: "banner", id: "result" }, resultText(v),
      scored ? el("small", {}, `${colourName(v.colours[0])} ${v.score[v.colours[0]]} : ${v.score[v.colours[1]]} ${colourName(v.colours[1])}`) : null,
      v.ending ? el("small", { id: "result-reason" }, v.ending.text[getLang()] || v.ending.text.en) : null,
      el("button", { class: "btn", id: "end-details", onclick: () => endDialog(page) }, t("end_details"))));
  } else if (v.status === "waiting") {
    side.append(el("div", { class: "card status" }, t("waiting_friend")));
  } else {
    let text = v.to_seat === null ? "" : mine && v.mode !== "local" ? t("your_turn") : t("to_move", { colour: colourName(v.to_move) });
    if (v.to_seat !== null && v.seats[v.to_seat].kind === "bot") text = t("bot_thinking");
    const status = el("div", { class: "card" }, el("div", { class: "status", id: "status" }, text));
    if (isDays(v.clock) && v.clock.deadline && v.clock.running !== null && v.clock.running !== undefined) {
      // whose deadline it is, in words; the strip's clock shows the same time left
      const { yours, who } = seatWords(page, v.clock.running);
      status.append(el("div", { class: "note", id: "deadline", "data-deadline": v.clock.deadline, "data-you": yours ? "1" : null, "data-who": yours ? null : who },
        yours ? t("deadline_you", { left: timeLeft(v.clock.deadline) }) : t("deadline_other", { who, left: timeLeft(v.clock.deadline) })));
    }
    if (v.abort) status.append(firstMoveNote(page, v.abort));
    if (v.berserk) {  // an Arena game: who went berserk (the server decides who may)
      v.berserk.done.forEach((done, seat) => {
        if (!done) return;
        const { yours, who } = seatWords(page, seat);
        status.append(el("div", { class: "note berserk-note", id: `berserk-${seat}` }, yours ? t("berserk_you") : t("berserk_done", { who })));
      });
    }
    if (mine && sources.size && !page.selected) status.append(el("div", { class: "note" }, t("show_legal")));
    side.append(status);
  }
  if (v.event) side.append(el("div", { class: "note", id: "game-event" }, eventLink(v.event)));
  if (v.start_roll) side.append(el("div", { class: "note", id: "start-roll" }, startRollText(v.start_roll)));
  if (shown.last && shown.last.kind === "roll" && shown.history && shown.history.length) {
    // the roll's outcome follows the roll in its record token (after any cube actions)
    const token = shown.history.at(-1).text;
    const face = token.slice(token.lastIndexOf(shown.last.move) + shown.last.move.length).replace(/[\^+#]/g, "");
    if (face) {
      const pic = svg("svg", { viewBox: "-0.6 -0.6 1.2 1.2", width: 34, height: 34 });
      const colour = shown.history.at(-1).colour;
      pic.append(svg("defs", {}, svg("filter", { id: "shadow" })), dieFace(0, 0, 1, Number(face), colour, "pips"));
      side.append(el("div", { class: "card row dice-roll", id: "last-roll" }, pic, t("rolled", { face })));
    }
  }
  if (v.dice) side.append(fairDice(page, v));

  // offers and moves without cells (swap, cube, roll of the selected die, anything else)
  if (mine) {
    const offers = el("div", { class: "offer", id: "offers" });
    let any = false;
    for (const m of moves) {
      if (m.kind === "swap") {
        any = true;
        offers.append(el("p", {}, t("swap_hint")), el("button", { class: "btn primary", id: "swap", onclick: () => play(page, m.move) }, t("swap_offer")));
      } else if (m.kind === "cube" && m.move.startsWith("double")) {
        any = true;
        offers.append(el("button", { class: "btn", "data-move": m.move, onclick: () => play(page, m.move) }, t("cube_double", { n: m.move.split(/\s+/)[1] || "" })));
      } else if (m.kind === "roll" && m.from === page.selected) {
        any = true;
        offers.append(el("button", { class: "btn primary", id: "roll", "data-move": m.move, onclick: () => play(page, m.move) }, `\u2684 ${t("roll")} (${m.from})`));
      } else if (m.kind === "other" || (!m.from && !m.to && m.kind !== "cube")) {  // no cell to click
        any = true;
        offers.append(el("button", { class: "btn", "data-move": m.move, onclick: () => play(page, m.move) }, m.move));
      }
    }
    const cube = moves.filter((m) => m.kind === "cube" && !m.move.startsWith("double"));
    if (cube.length && !page.modal) {
      openModal(page, el("div", { id: "cube-dialog" }, el("h2", { class: "small" }, t("cube")), el("p", {}, t("cube_offered")),
        el("div", { class: "choices" }, cube.map((m) => el("button", { class: "btn" + (m.move === "take" ? " primary" : " danger"), "data-move": m.move, onclick: () => play(page, m.move) },
          m.move === "take" ? t("cube_take") : m.move === "drop" ? t("cube_drop") : m.move)))));
    }
    if (any) side.append(offers);
  }

  // invite and watch links
  const code = tokens.invite(v.id);
  if (v.open_seat && code) {
    const link = `${location.origin}/play/${v.id}?invite=${code}`;
    side.append(el("div", { class: "card" }, el("div", { class: "note" }, t("invite_text")), linkBox(link, "invite-link", t("invite_text"))));
  }
  if (v.mode === "online") side.append(el("div", { class: "note" }, t("watch_text"), linkBox(`${location.origin}/play/${v.id}`, "watch-link", t("watch_text"))));
  if (!page.you.length) side.append(el("div", { class: "note" }, t("spectating")));

  // actions
  const actions = el("div", { class: "actions" });
  const canAct = page.you.length > 0;
  if (canAct && v.status === "ongoing") {
    actions.append(el("button", { class: "btn danger", id: "resign", onclick: () => {
      if (confirm(t("confirm_resign"))) send(page, "resign", v.mode === "local" && v.to_seat !== null ? { seat: v.to_seat } : {});
    } }, t("resign")));
  }
  // an opponent who stays away too long in a game without a clock: the server decides
  const claimIn = v.claim_in === null || v.claim_in === undefined ? null
    : v.claim_in - (performance.now() - page.receivedAt) / 1000;
  const waiting = canAct && claimIn !== null && page.you.length === 1 && v.to_seat !== page.you[0];
  if (waiting && claimIn <= 0) {
    actions.append(el("button", { class: "btn", id: "claim", onclick: () => {
      if (confirm(t("confirm_claim"))) send(page, "claim");
    } }, t("claim_win")));
  } else if (waiting && claimIn < 86400 && !page.claimTimer) {  // show the button when the time comes
    page.claimTimer = setTimeout(() => { page.claimTimer = null; if (!page.closed) page.draw(); }, claimIn * 1000 + 200);
  }
  if (canAct && page.you.length === 1 && v.may_abort && v.may_abort[page.you[0]]) {  // before his own first move
    actions.append(el("button", { class: "btn", id: "abort", onclick: () => {
      if (confirm(t("confirm_abort"))) send(page, "abort");
    } }, t("abort")));
  }
  if (canAct && page.you.length === 1 && v.berserk && v.berserk.may[page.you[0]]) {  // an Arena game, before his first move
    actions.append(el("button", { class: "btn", id: "berserk", onclick: () => {
      if (confirm(t("confirm_berserk"))) send(page, "berserk");
    } }, t("berserk")));
  }
  if (canAct && v.undo) {  // the server says when: a local game in play with a move to take back
    actions.append(el("button", { class: "btn", id: "undo", onclick: () => send(page, "undo") }, t("undo")));
  } else if (canAct && v.undo_blocked === "roll") {  // greyed: a shown roll stays
    actions.append(keptRollButton("undo", t("undo")));
  }
  if (canAct && v.status === "over" && !v.event) {  // a tournament pairs the next games itself
    if (v.rematch && tokens.get(v.rematch)) actions.append(el("button", { class: "btn primary", id: "rematch", onclick: () => navigate(`/play/${v.rematch}`) }, t("join_rematch")));
    else actions.append(el("button", { class: "btn primary", id: "rematch", onclick: () => send(page, "rematch") }, v.rematch ? t("join_rematch") : t("rematch")));
  }
  actions.append(el("button", { class: "btn", id: "flip", onclick: () => { page.flip = !page.flip; draw(); } }, t("flip")));
  actions.append(el("button", { class: "btn", id: "sound", "aria-pressed": page.sound ? "true" : "false", onclick: () => {
    page.sound = !page.sound; setSoundOn(page.you.length > 0, page.sound); draw();
  } }, el("span", { "aria-hidden": "true" }, "\u266A "), t("sound")));
  if (page.geometry.kind === "tri66") {
    actions.append(el("button", { class: "btn", id: "dice-style", onclick: () => {
      page.diceStyle = page.diceStyle === "pips" ? "chess" : "pips";
      localStorage.setItem("ludothek.dice", page.diceStyle); draw();
    } }, `${t("dice_style")}: ${t(page.diceStyle === "pips" ? "dice_chess" : "dice_pips")}`));
  }
  actions.append(el("a", { class: "btn", href: `/api/games/${v.id}/record`, download: `${v.game}-${v.id}.ludo` }, t("download")));
  side.append(actions);
  const offers = offerCard(page);
  if (offers) side.append(offers);
  if (mine) {
    // moves can also be typed in notation; the server checks them like clicks
    // (what is typed survives the redraws a live page makes meanwhile: a clock, a watcher, a chat line)
    const input = el("input", { type: "text", id: "move-input", placeholder: t("type_move"), autocomplete: "off", spellcheck: "false",
      oninput: () => { page.typed = input.value; } });
    input.value = page.typed || "";
    side.append(el("form", { class: "row", onsubmit: (e) => {
      e.preventDefault(); page.typed = ""; if (input.value.trim()) play(page, input.value.trim());
    } },
      input, el("button", { class: "btn", type: "submit" }, t("play_move"))));
  }
  side.append(el("div", { class: "err", id: "error" }, page.error));

  // move list
  const list = el("div", { class: "card movelist" }, el("h2", { class: "small", style: "margin-top:0" }, t("moves")));
  if (!v.history.length) list.append(el("div", { class: "note" }, t("no_moves_yet")));
  const table = el("table", { id: "movelist" });
  // chance actions before anyone moved (an opening roll) stand before move 1, unnumbered
  let first = 0;
  while (first < v.history.length && v.history[first].colour === null) first++;
  const rows = [...Array(first).keys()].map((k) => ["", [k]]);
  for (let i = first; i < v.history.length; i += 2) rows.push([`${(i - first) / 2 + 1}.`, [i, i + 1]]);
  for (const [number, indices] of rows) {
    const row = el("tr", {}, el("td", { class: "n" }, number));
    for (const k of indices) {
      if (k >= v.history.length) { row.append(el("td")); continue; }
      const current = page.replay ? page.replayIndex === k : k === v.history.length - 1;
      row.append(el("td", {}, el("button", { type: "button", class: "mv" + (current ? " cur" : ""), "data-index": k, "aria-current": current ? "true" : null,
        onclick: () => replayTo(page, k) }, v.history[k].text, markOf(page, k)), exactOf(page, k)));
    }
    table.append(row);
  }
  list.append(table);
  const analysis = analysisCard(page);
  if (analysis) side.append(analysis);
  side.append(list);
  if (live) setTimeout(() => { list.scrollTop = list.scrollHeight; }, 0);
  if (!page.modal && (!document.activeElement || document.activeElement === document.body)) restoreFocus(focused, boardWrap.parentNode);
  // after the focus is back where it was, so that closing the dialog returns it there
  if (page.endPending && live) { page.endPending = false; endDialog(page); }
}

// the end of the game: the result, why, the score or stake; rematch, download, review from the start
function endDialog(page) {
  const v = page.view;
  if (v.status !== "over") return;
  const ending = v.ending;
  const body = el("div", { id: "end-dialog" }, el("h2", { class: "small" }, t("end_title")),
    el("p", { id: "end-result" }, el("strong", {}, resultText(v))));
  if (ending) body.append(el("p", { id: "end-reason" }, ending.text[getLang()] || ending.text.en));
  const score = ending && ending.score;
  if (score && score[v.colours[0]] !== undefined) {
    const line = `${colourName(v.colours[0])} ${score[v.colours[0]]} : ${score[v.colours[1]]} ${colourName(v.colours[1])}`;
    body.append(el("p", { id: "end-score" }, t("final_score", { score: line })));
  }
  if (ending && ending.stake) body.append(el("p", { id: "end-stake" }, t("stake", { n: ending.stake })));
  if (v.ratings) {
    body.append(el("h3", {}, t("rating_changes")), el("ul", { class: "rating-list", id: "end-ratings" },
      [0, 1].map((seat) => el("li", {}, `${colourName(v.colours[seat])}${v.seats[seat].name ? ` (${v.seats[seat].name})` : ""}: `,
        ratingChange(v, seat, `end-rating-${seat}`)))));
  }
  const buttons = el("div", { class: "actions", id: "end-actions" });  // not "choices": those pick a move
  if (page.you.length && !v.event) {
    const joined = v.rematch && tokens.get(v.rematch);
    buttons.append(el("button", { class: "btn primary", id: "end-rematch", onclick: () => {
      closeModal(page);
      if (joined) navigate(`/play/${v.rematch}`); else send(page, "rematch");
    } }, v.rematch ? t("join_rematch") : t("rematch")));
  }
  const opponent = page.you.length === 1 && currentUser() && v.seats[1 - page.you[0]].name;
  if (opponent) {  // a new challenge to the same player, of the same game (issue 32)
    buttons.append(el("a", { class: "btn", id: "end-challenge", href: `/challenges?to=${encodeURIComponent(opponent)}&game=${encodeURIComponent(v.game)}`,
      "data-link": true, onclick: () => closeModal(page) }, t("challenge_name", { name: opponent })));
  }
  buttons.append(el("a", { class: "btn", id: "end-download", href: `/api/games/${v.id}/record`, download: `${v.game}-${v.id}.ludo` }, t("download")));
  if (v.history.length) {
    // the computer analysis, from the start of the game
    buttons.append(el("button", { class: "btn", id: "end-review", onclick: () => { closeModal(page); startAnalysis(page); replayTo(page, -1); } }, t("analyse")));
  }
  buttons.append(el("button", { class: "btn", id: "end-close", onclick: () => { closeModal(page); page.draw(); } }, t("close")));
  body.append(buttons);
  openModal(page, body);
}

// an undo or takeback button that cannot be used because a roll was shown since: greyed, saying why
function keptRollButton(id, label) {
  return el("div", { class: "kept-roll" },
    el("button", { class: "btn", id, disabled: "", title: t("roll_kept"), "aria-describedby": `${id}-why` }, label),
    el("span", { class: "note", id: `${id}-why` }, t("roll_kept")));
}

// online: propose a takeback or offer a draw; the opponent accepts or declines; the offerer may withdraw
function offerCard(page) {
  const v = page.view;
  if (v.mode !== "online" || v.status !== "ongoing" || page.replay !== null) return null;
  const offer = v.offer;
  const box = el("div", { class: "card", id: "table-offer" });
  if (page.you.length !== 1) {  // a spectator only hears of it
    if (!offer) return null;
    box.append(el("div", { class: "note" }, t(offer.kind === "draw" ? "draw_pending" : "takeback_pending")));
    return box;
  }
  const me = page.you[0];
  if (offer && offer.by === me) {
    box.append(el("p", { id: "offer-waiting", style: "margin-top:0" }, t(offer.kind === "draw" ? "draw_waiting" : "takeback_waiting")),
      el("button", { class: "btn", id: "withdraw", onclick: () => send(page, "withdraw") }, t("withdraw")));
  } else if (offer) {
    box.append(el("p", { id: "offer-asked", style: "margin-top:0" }, t(offer.kind === "draw" ? "draw_asked" : "takeback_asked")),
      el("div", { class: "row" },
        el("button", { class: "btn primary", id: "accept-offer", onclick: () => send(page, "answer", { accept: true }) }, t("accept")),
        el("button", { class: "btn", id: "decline-offer", onclick: () => send(page, "answer", { accept: false }) }, t("decline"))));
  } else {
    if (v.moved && v.moved[me] && v.takeback && !v.takeback[me]) {
      box.append(keptRollButton("offer-takeback", t("offer_takeback")));
    } else if (v.moved && v.moved[me]) {
      box.append(el("button", { class: "btn", id: "offer-takeback", onclick: () => send(page, "offer", { kind: "takeback" }) }, t("offer_takeback")));
    }
    if (v.draws) box.append(el("button", { class: "btn", id: "offer-draw", onclick: () => send(page, "offer", { kind: "draw" }) }, t("offer_draw")));
    if (!box.childNodes.length) return null;
  }
  return box;
}

// how to check the dice: the secret's fingerprint from the start, the secret once the game is over
function fairDice(page, v) {
  const code = (text, id) => el("code", { id, style: "display:block;word-break:break-all;font-size:12px;margin:4px 0" }, text);
  const box = el("details", { class: "card note", id: "fair-dice", ontoggle: () => { page.diceOpen = box.open; } },
    el("summary", { style: "cursor:pointer" }, t("dice_verify")),
    el("div", {}, t("dice_commitment")), code(v.dice.commitment, "dice-commitment"));
  box.open = Boolean(page.diceOpen);
  if (v.dice.secret) {
    box.append(el("div", {}, t("dice_secret")), code(v.dice.secret, "dice-secret"),
      el("div", {}, el("a", { href: `/api/games/${v.id}/record`, download: `${v.game}-${v.id}.ludo`, id: "dice-record" }, t("download")),
        " · ", t("dice_how")), code("ludothek verify " + `${v.game}-${v.id}.ludo`, "dice-command"));
  } else {
    box.append(el("div", {}, t("dice_pending")));
  }
  return box;
}

async function replayTo(page, index) {
  page.line = null;
  const h = page.view.history;
  if (index >= h.length - 1 && index !== -1) { page.replay = null; page.replayIndex = null; page.draw(); return; }
  index = Math.max(-1, index);
  const ply = index < 0 ? 0 : h[index].ply;
  const data = await api("GET", `/api/games/${page.id}?at=${ply}`);
  page.replay = data.game;
  page.replayIndex = index;
  page.selected = null;
  page.draw();
}

function linkBox(link, id, label) {
  const input = el("input", { type: "text", readonly: true, value: link, id, "aria-label": label });
  const button = el("button", { class: "btn", onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(link); } catch (e) { document.execCommand && document.execCommand("copy"); }
    button.textContent = t("copied");
  } }, t("copy"));
  return el("div", { class: "link-box" }, input, button);
}
