// The lobby: offer a game to anyone (a seek), take someone's offer, watch the games being played.
// Live over /ws/lobby while the page is open: the server drops an author's real-time seeks when
// his socket closes, and tells the socket that owns a seek when someone accepts it.
import { api, el, t, num, colourName, tokens, navigate, getLang, offline, focusKey, restoreFocus, gameCatalog, currentUser, restartDelay } from "./app.js";
import { optionFields, clockFields, clockBody, clockText, optionsText, gameTitle, playerLink, ratingText } from "./setup.js";
import { pauseTurnsSocket, resumeTurnsSocket, onTurns, notifyButton } from "./turns.js";
import { onNews } from "./challenges.js";
import { quickPairing } from "./quick.js";
import { chatCard } from "./chat.js";

// the seeks this tab created, with their tokens, kept over a reload: [{id, token, at}]
const OWN = "ludothek.seeks";
const form = { game: null, options: {}, clockKind: "live", minutes: 5, increment: 3, days: 3, rated: false, seat: "random" };

function ownSeeks() {
  try { return JSON.parse(sessionStorage.getItem(OWN)) || []; } catch (e) { return []; }
}
function keepSeeks(list) { sessionStorage.setItem(OWN, JSON.stringify(list)); }
function forget(id) { keepSeeks(ownSeeks().filter((s) => s.id !== id)); }

export async function renderLobby(root) {
  const { games } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  if (!form.game || !byName[form.game]) form.game = games.length ? games[0].name : null;
  const first = await api("GET", "/api/lobby");
  const page = { byName, seeks: first.seeks, live: first.live, ws: null, retry: 0, closed: false };
  window.ludothekLobby = page;  // read by the browser tests
  document.title = `${t("lobby_title")} – Ludothek`;
  page.status = el("p", { class: "note lobby-status", id: "lobby-status", role: "status" });
  page.error = el("p", { class: "err", id: "seek-error", role: "alert" });
  page.seeksBox = el("div", { id: "seeks-box" });
  page.liveBox = el("div", { id: "live-box" });
  page.formBox = el("div", { class: "card seek-form" });
  root.append(el("h1", {}, t("lobby_title")), el("p", { class: "sub" }, t("lobby_tagline")),
    el("p", { class: "note", id: "abort-rule" }, t("abort_rule")),
    el("div", { class: "lobby" },
      el("div", {}, page.quick = quickPairing(games), page.formBox),
      el("div", { class: "lobby-lists" },
        el("section", { class: "card", "aria-labelledby": "seeks-title" }, el("h2", { id: "seeks-title" }, t("seeks_title")), page.seeksBox),
        el("section", { class: "card", "aria-labelledby": "live-title" }, el("h2", { id: "live-title" }, t("live_games")), page.liveBox))));
  page.chat = chatCard(() => page.ws, "lobby");
  root.append(page.chat.node);
  drawForm(page);
  drawLists(page);
  pauseTurnsSocket();
  connect(page);
  const ping = setInterval(() => { if (page.ws && page.ws.readyState === 1) page.ws.send(JSON.stringify({ type: "ping" })); }, 25000);
  return () => {
    page.closed = true;
    page.quick.leave();
    clearInterval(ping);
    if (page.ws) page.ws.close();
    offline("lobby", false);
    resumeTurnsSocket();
  };
}

function connect(page) {
  if (page.closed) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby?lang=${getLang()}`);
  page.ws = ws;
  ws.onopen = () => {
    page.retry = 0;
    page.connected = true;
    offline("lobby", false);
    for (const seek of ownSeeks()) ws.send(JSON.stringify({ type: "own", seek: seek.id, token: seek.token }));
    page.chat.setRoom("lobby", ws);
  };
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "chat" || String(data.ref || "").startsWith("chat-")) {
      page.chat.receive(data);
    } else if (data.type === "lobby") {
      page.seeks = data.seeks;
      page.live = data.live;
      // a seek of this tab that is gone (cancelled elsewhere, expired); not one just made, which
      // an older list may not hold yet
      const listed = new Set(data.seeks.map((s) => s.id));
      keepSeeks(ownSeeks().filter((s) => listed.has(s.id) || Date.now() - s.at < 10000));
      drawLists(page);
    } else if (data.type === "started") {
      const mine = ownSeeks().find((s) => s.id === data.seek);
      if (mine) tokens.set(data.game, mine.token);
      forget(data.seek);
      navigate(`/play/${data.game}`);
    } else if (data.type === "turns") {
      onTurns(data);
    } else {
      onNews(data);
    }
  };
  ws.onclose = (event) => {
    page.connected = false;
    if (page.closed || page.ws !== ws) return;
    offline("lobby", true);
    page.retry = Math.min(5000, (page.retry || 500) * 2);
    setTimeout(() => connect(page), restartDelay(event) ?? page.retry);
  };
}

function say(page, text) {
  page.status.textContent = "";
  setTimeout(() => { page.status.textContent = text; }, 60);
}

// ---------------------------------------------------------------------------- creating a seek
function drawForm(page) {
  const game = page.byName[form.game];
  const box = page.formBox;
  box.replaceChildren(el("h2", { style: "margin-top:0" }, t("seek_create_title")));
  if (!game) return;
  const lang = getLang();
  const gameSelect = el("select", { id: "seek-game", onchange: (e) => {
    form.game = e.target.value; form.options = {}; form.seat = "random";
    drawForm(page);
    document.getElementById("seek-game").focus();
  } }, Object.values(page.byName).map((g) => el("option", { value: g.name, selected: g.name === form.game ? true : null }, g.title[lang] || g.title.en)));
  box.append(el("div", { class: "field" }, el("label", { for: "seek-game" }, t("game")), gameSelect));
  box.append(...optionFields(game, form.options, "seek-opt"));
  box.append(clockFields(form, { prefix: "seek-clock", days: true }));
  const colour = el("select", { id: "seek-colour", onchange: (e) => { form.seat = e.target.value === "random" ? "random" : Number(e.target.value); } },
    el("option", { value: "random", selected: form.seat === "random" ? true : null }, t("colour_random")),
    game.colours.map((c, i) => el("option", { value: i, selected: form.seat === i ? true : null }, colourName(c))));
  box.append(el("div", { class: "field" }, el("label", { for: "seek-colour" }, t("your_colour")), colour));
  // rated games need an account: a guest sees the box, switched off, and why
  const guest = !currentUser();
  box.append(el("div", { class: "field" },
    el("div", { class: "row" },
      el("input", { type: "checkbox", id: "seek-rated", disabled: guest, checked: !guest && form.rated ? true : null, "aria-describedby": "seek-rated-hint",
        onchange: (e) => { form.rated = e.target.checked; } }),
      el("label", { for: "seek-rated" }, t("rated_game"))),
    el("div", { class: "note", id: "seek-rated-hint" }, guest
      ? el("span", {}, t("rated_needs_account"), " ", el("a", { href: `/login?next=${encodeURIComponent("/lobby")}`, "data-link": true }, t("nav_login")))
      : t("rated_hint"))));
  const create = el("button", { type: "button", class: "btn primary big", id: "seek-create", onclick: () => createSeek(page, create) }, t("seek_create"));
  box.append(el("div", { class: "row", style: "margin-top:12px" }, create), page.error, page.status);
  if (!guest) {
    const bell = notifyButton();
    if (bell) box.append(el("div", { class: "row", style: "margin-top:8px" }, bell));
  }
}

async function createSeek(page, button) {
  const game = page.byName[form.game];
  page.error.textContent = "";
  button.disabled = true;
  try {
    const body = { game: game.name, options: { ...form.options }, clock: clockBody(form), rated: !!(currentUser() && form.rated), seat: form.seat };
    const { seek, token } = await api("POST", "/api/seeks", body);
    keepSeeks([...ownSeeks().filter((s) => s.id !== seek.id), { id: seek.id, token, at: Date.now() }]);
    if (page.ws && page.ws.readyState === 1) page.ws.send(JSON.stringify({ type: "own", seek: seek.id, token }));
    if (!page.seeks.some((s) => s.id === seek.id)) page.seeks = [{ ...seek, mine: true }, ...page.seeks];
    drawLists(page);
    say(page, t(seek.clock && seek.clock.days ? "seek_waiting_days" : "seek_waiting"));
  } catch (e) {
    page.error.textContent = e.message;
  }
  button.disabled = false;
}

// ---------------------------------------------------------------------------- the lists
function drawLists(page) {
  const focused = focusKey();
  page.seeksBox.replaceChildren(seekTable(page));
  page.liveBox.replaceChildren(liveTable(page));
  if (focused && focused[0] === "data-seek" && (!document.activeElement || document.activeElement === document.body)) {
    restoreFocus(focused, page.seeksBox);
  }
}

// the author and, for an account, his rating in the seek's game ("1500?" while provisional)
function authorName(seek) {
  if (!seek.by) return t("guest");
  const r = seek.rating;
  return el("span", {}, playerLink(seek.by), r ? " " : null, r ? el("span", { class: "seek-rating rating-value", "data-value": r.value,
    title: r.provisional ? t("provisional_hint") : null }, `(${ratingText(r.value, r.provisional)})`) : null);
}

function seekTable(page) {
  if (!page.seeks.length) return el("p", { class: "note", id: "seeks-empty" }, t("seeks_empty"));
  const stored = new Set(ownSeeks().map((s) => s.id));
  const table = el("table", { class: "list", id: "seeks" },
    el("tr", {}, ["player", "game", "time_control", "mode", "their_colour", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : el("span", { class: "visually-hidden" }, t("actions"))))));
  for (const seek of page.seeks) {
    const game = page.byName[seek.game];
    const mine = seek.mine || stored.has(seek.id);
    // the colour this page's player gets: the author's own seek's, or the other one when accepting
    const colour = seek.seat === null || seek.seat === undefined || !game ? t("colour_random")
      : colourName(game.colours[mine ? seek.seat : 1 - seek.seat]);
    const details = optionsText(game, seek.options);
    let action;
    if (mine) {
      action = el("button", { type: "button", class: "btn", "data-seek": seek.id, "data-action": "cancel", onclick: () => cancelSeek(page, seek.id) }, t("cancel"));
    } else if (seek.rated && !currentUser()) {
      action = el("span", { class: "note" }, t("rated_needs_account"));
    } else {
      action = el("button", { type: "button", class: "btn primary", "data-seek": seek.id, "data-action": "accept", onclick: (e) => acceptSeek(page, seek.id, e.currentTarget) }, t("accept"));
    }
    table.append(el("tr", { class: mine ? "mine" : null, "data-row": seek.id },
      el("td", {}, authorName(seek), mine ? el("span", { class: "tag" }, t("yours")) : null),
      el("td", {}, el("strong", {}, gameTitle(game) || seek.game), details ? el("div", { class: "note" }, details) : null),
      el("td", { "data-label": t("time_control") }, clockText(seek.clock)),
      el("td", {}, el("span", { class: seek.rated ? "tag rated" : "tag" }, t(seek.rated ? "rated" : "casual"))),
      el("td", { "data-label": t("their_colour") }, colour),
      el("td", {}, action)));
  }
  return table;
}

function liveTable(page) {
  if (!page.live.length) return el("p", { class: "note", id: "live-empty" }, t("live_empty"));
  const table = el("table", { class: "list", id: "live" },
    el("tr", {}, ["game", "players", "time_control", "moves", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : el("span", { class: "visually-hidden" }, t("actions"))))));
  for (const g of page.live) {
    const game = page.byName[g.game];
    const names = g.seats.map((s, i) => s.name ? playerLink(s.name) : t("player_n", { n: i + 1 }));
    // a game of this player (his account's, or a seat this browser holds): Open, at his seat
    const mine = g.mine || !!tokens.get(g.id);
    table.append(el("tr", {},
      el("td", {}, el("strong", {}, gameTitle(game) || g.game), el("div", { class: "note" }, [optionsText(game, g.options), t(g.rated ? "rated" : "casual")].filter(Boolean).join(" · "))),
      el("td", {}, names[0], " – ", names[1]),
      el("td", { "data-label": t("time_control") }, clockText(g.clock)),
      el("td", { "data-label": t("moves") }, num(g.moves)),
      el("td", {}, el("a", { class: mine ? "btn primary" : "btn", href: `/play/${g.id}`, "data-link": true, "data-mine": mine ? "true" : null },
        t(mine ? "open" : "watch")))));
  }
  return table;
}

async function acceptSeek(page, id, button) {
  page.error.textContent = "";
  button.disabled = true;
  try {
    const joined = await api("POST", `/api/seeks/${id}/accept`, {});
    tokens.set(joined.id, joined.token);
    navigate(`/play/${joined.id}`);
  } catch (e) {
    page.error.textContent = e.message;
    if (e.status === 404) { page.seeks = page.seeks.filter((s) => s.id !== id); drawLists(page); }
    else button.disabled = false;
  }
}

async function cancelSeek(page, id) {
  page.error.textContent = "";
  const mine = ownSeeks().find((s) => s.id === id);
  try {
    await api("DELETE", `/api/seeks/${id}`, undefined, mine ? mine.token : undefined);
  } catch (e) {
    if (e.status !== 404) { page.error.textContent = e.message; return; }
  }
  forget(id);
  page.seeks = page.seeks.filter((s) => s.id !== id);
  drawLists(page);
  say(page, t("seek_cancelled"));
}
