// Challenges and follows (issue 32, items 1 and 3). News comes over the lobby socket every page of
// a logged-in player keeps open (turns.js's, or the lobby page's): the list of open challenges
// ("challenges"), the answer to one's own challenge ("challenge_answer") and a quick pairing's
// game ("paired"). The header shows the number of challenges waiting for an answer as a badge; a
// new one also shows as a notice on whatever page is open, with Accept and Decline.
import { api, el, t, colourName, currentUser, navigate, gameCatalog, getLang } from "./app.js";
import { relationsCard } from "./chat.js";
import { optionFields, clockFields, clockBody, clockText, optionsText, gameTitle, playerLink } from "./setup.js";

export const REASONS = ["generic", "later", "too_fast", "too_slow", "rated", "casual", "game"];
const MAX_NOTE = 200;
let lists = { incoming: [], outgoing: [] };
let known = new Set();  // the incoming challenges already announced on this page
let page = null;  // the challenges page while it is open: redrawn on news

// after a login (or at start): the challenges as they stand now
export async function loadChallenges() {
  if (!currentUser()) { lists = { incoming: [], outgoing: [] }; known = new Set(); showBadge(); return; }
  try { lists = await api("GET", "/api/challenges"); } catch (e) { return; }
  known = new Set(lists.incoming.map((c) => c.id));
  showBadge();
}

// a message from a lobby socket; true if it was one of ours
export function onNews(data) {
  if (data.type === "challenges") {
    lists = { incoming: data.incoming, outgoing: data.outgoing };
    for (const c of lists.incoming) if (!known.has(c.id)) { known.add(c.id); notice(c); }
    showBadge();
    if (page) page.draw();
    return true;
  }
  if (data.type === "challenge_answer") {
    const c = data.challenge;
    if (c.status === "accepted" && c.game_id) navigate(`/play/${c.game_id}`);
    else if (c.status === "declined") declinedNotice(c);
    return true;
  }
  if (data.type === "paired") { navigate(`/play/${data.game}`); return true; }
  return false;
}

function showBadge() {
  const badge = document.getElementById("challenges-badge");
  const n = lists.incoming.length;
  if (badge) { badge.hidden = n === 0; badge.textContent = String(n); }
  const link = document.getElementById("challenges-link");
  if (link) link.setAttribute("aria-label", n ? `${t("challenges_title")}: ${t("challenges_waiting", { n })}` : t("challenges_title"));
}

// the header's link to the challenges page, with its badge
export function challengesLink() {
  const link = el("a", { class: "switch", id: "challenges-link", href: "/challenges", "data-link": true, title: t("challenges_title") },
    el("span", { "aria-hidden": "true" }, "\u2694"), el("span", { class: "badge", id: "challenges-badge", hidden: true }));
  setTimeout(showBadge, 0);
  return link;
}

// ---------------------------------------------------------------------------- notices
function noticeBox() {
  let box = document.getElementById("challenge-notices");
  if (!box) {
    box = el("div", { id: "challenge-notices", class: "challenge-notices", role: "region", "aria-label": t("challenges_title") });
    document.body.append(box);
  }
  return box;
}

function describe(c, byName) {
  const game = byName[c.game];
  const parts = [gameTitle(game) || c.game, optionsText(game, c.options), clockText(c.clock), t(c.rated ? "challenge_rated" : "challenge_casual")];
  return parts.filter(Boolean).join(" · ");
}

function reasonText(c) {
  const parts = [];
  if (c.reason) parts.push(t(`decline_${c.reason}`));
  if (c.note) parts.push(`\u201c${c.note}\u201d`);
  return parts.join(" ");
}

async function notice(c) {
  const { games } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const card = el("div", { class: "card challenge-notice", "data-challenge": c.id, role: "alert" },
    el("p", {}, el("strong", {}, t("challenge_from", { name: c.from })), " ", describe(c, byName)),
    el("div", { class: "row" },
      el("button", { type: "button", class: "btn primary", "data-accept": c.id, onclick: () => accept(c, card) }, t("challenge_accept")),
      el("a", { class: "btn", href: "/challenges", "data-link": true, onclick: () => card.remove() }, t("challenge_answer_more")),
      el("button", { type: "button", class: "btn", onclick: () => card.remove() }, t("close"))));
  noticeBox().append(card);
}

function declinedNotice(c) {
  const card = el("div", { class: "card challenge-notice", "data-declined": c.id, role: "alert" },
    el("p", {}, t("challenge_declined_by", { name: c.to }), " ", el("span", { class: "decline-reason" }, reasonText(c))),
    el("button", { type: "button", class: "btn", onclick: () => card.remove() }, t("close")));
  noticeBox().append(card);
}

async function accept(c, card) {
  try {
    const created = await api("POST", `/api/challenges/${c.id}/accept`, {});
    if (card) card.remove();
    navigate(`/play/${created.id}`);
  } catch (e) {
    if (card) card.append(el("p", { class: "err", role: "alert" }, e.message));
    else throw e;
  }
}

// ---------------------------------------------------------------------------- the form
// a challenge to `name`: game, its options, clock or correspondence, rated or casual, colour
export async function challengeForm(name, gameName = null) {
  const { games } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const state = { game: byName[gameName] ? gameName : games[0].name, options: {}, clockKind: "live", minutes: 5, increment: 3, days: 3, rated: false, seat: "random" };
  const box = el("section", { class: "card challenge-form", id: "challenge-form", "aria-labelledby": "challenge-form-title" });
  const status = el("p", { class: "note", id: "challenge-status", role: "status" });
  const error = el("p", { class: "err", id: "challenge-error", role: "alert" });
  const draw = () => {
    const game = byName[state.game];
    const lang = getLang();
    box.replaceChildren(el("h2", { id: "challenge-form-title" }, t("challenge_title", { name })));
    box.append(el("div", { class: "field" }, el("label", { for: "challenge-game" }, t("game")),
      el("select", { id: "challenge-game", onchange: (e) => { state.game = e.target.value; state.options = {}; state.seat = "random"; draw(); document.getElementById("challenge-game").focus(); } },
        games.map((g) => el("option", { value: g.name, selected: g.name === state.game ? true : null }, g.title[lang] || g.title.en)))));
    box.append(...optionFields(game, state.options, "challenge-opt"));
    box.append(clockFields(state, { prefix: "challenge-clock", days: true }));
    box.append(el("div", { class: "field" }, el("label", { for: "challenge-colour" }, t("your_colour")),
      el("select", { id: "challenge-colour", onchange: (e) => { state.seat = e.target.value === "random" ? "random" : Number(e.target.value); } },
        el("option", { value: "random", selected: state.seat === "random" ? true : null }, t("colour_random")),
        game.colours.map((c, i) => el("option", { value: i, selected: state.seat === i ? true : null }, colourName(c))))));
    box.append(el("div", { class: "field row" },
      el("input", { type: "checkbox", id: "challenge-rated", checked: state.rated ? true : null, onchange: (e) => { state.rated = e.target.checked; } }),
      el("label", { for: "challenge-rated" }, t("rated_game"))));
    const send = el("button", { type: "button", class: "btn primary", id: "challenge-send", onclick: async () => {
      error.textContent = ""; status.textContent = "";
      send.disabled = true;
      try {
        await api("POST", "/api/challenges", { to: name, game: state.game, options: { ...state.options }, clock: clockBody(state), rated: state.rated, seat: state.seat });
        status.textContent = t("challenge_sent", { name });
        lists = await api("GET", "/api/challenges");
        if (page) page.draw();
      } catch (e) { error.textContent = e.message; }
      send.disabled = false;
    } }, t("challenge_send"));
    box.append(el("div", { class: "row" }, send), error, status);
  };
  draw();
  return box;
}

// follow or unfollow a player (his profile)
export function followButton(name, following) {
  const button = el("button", { type: "button", class: "btn", id: "follow", "aria-pressed": following ? "true" : "false", onclick: async () => {
    const now = button.getAttribute("aria-pressed") !== "true";
    try {
      await api(now ? "POST" : "DELETE", `/api/follows/${encodeURIComponent(name)}`);
      button.setAttribute("aria-pressed", now ? "true" : "false");
      button.textContent = t(now ? "unfollow" : "follow");
    } catch (e) { button.title = e.message; }
  } }, t(following ? "unfollow" : "follow"));
  return button;
}

// ---------------------------------------------------------------------------- the page
export async function renderChallenges(root) {
  document.title = `${t("challenges_title")} – Ludothek`;
  root.append(el("h1", {}, t("challenges_title")));
  if (!currentUser()) {
    root.append(el("div", { class: "card" }, el("p", {}, t("challenges_login"), " ",
      el("a", { href: `/login?next=${encodeURIComponent("/challenges")}`, "data-link": true }, t("nav_login")))));
    return null;
  }
  const { games } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const params = new URLSearchParams(location.search);
  if (params.get("to")) root.append(await challengeForm(params.get("to"), params.get("game")));
  lists = await api("GET", "/api/challenges");
  const incoming = el("section", { class: "card", "aria-labelledby": "incoming-title", id: "incoming" });
  const outgoing = el("section", { class: "card", "aria-labelledby": "outgoing-title", id: "outgoing" });
  const following = el("section", { class: "card", "aria-labelledby": "following-title", id: "following" });
  const setting = el("section", { class: "card", "aria-labelledby": "setting-title", id: "challenge-setting" });
  root.append(el("div", { class: "challenges-grid" }, incoming, outgoing, following, setting));
  const me = { closed: false };
  me.draw = () => {
    incoming.replaceChildren(el("h2", { id: "incoming-title" }, t("challenges_incoming")));
    if (!lists.incoming.length) incoming.append(el("p", { class: "note" }, t("challenges_none")));
    for (const c of lists.incoming) incoming.append(incomingItem(c, byName));
    outgoing.replaceChildren(el("h2", { id: "outgoing-title" }, t("challenges_outgoing")));
    if (!lists.outgoing.length) outgoing.append(el("p", { class: "note" }, t("challenges_none")));
    for (const c of lists.outgoing) outgoing.append(outgoingItem(c, byName));
  };
  me.draw();
  page = me;
  await drawSetting(setting);
  root.querySelector(".challenges-grid").append(await relationsCard());
  const drawFollowing = async () => {
    let data;
    try { data = await api("GET", "/api/follows"); } catch (e) { return; }
    if (me.closed) return;
    following.replaceChildren(el("h2", { id: "following-title" }, t("following_title")));
    if (!data.following.length) following.append(el("p", { class: "note" }, t("following_none")));
    const list = el("ul", { class: "following-list" });
    for (const p of data.following) {
      const item = el("li", { "data-player": p.name, "data-online": p.online ? "yes" : "no" },
        el("span", { class: `presence ${p.online ? "on" : "off"}`, "aria-hidden": "true" }), playerLink(p.name), " ",
        el("span", { class: "note" }, t(p.online ? "player_online" : "player_offline")));
      for (const g of p.playing) item.append(" ", el("a", { href: `/play/${g.id}`, "data-link": true, class: "watch-link" }, t("watch_game", { game: gameTitle(byName[g.game]) || g.game })));
      list.append(item);
    }
    following.append(list);
  };
  await drawFollowing();
  const timer = setInterval(drawFollowing, 15000);
  return () => { me.closed = true; clearInterval(timer); if (page === me) page = null; };
}

function incomingItem(c, byName) {
  const item = el("div", { class: "challenge-item", "data-challenge": c.id },
    el("p", {}, el("strong", {}, playerLink(c.from)), " ", describe(c, byName), " · ",
      t("challenge_their_colour", { colour: c.seat === null ? t("colour_random") : colourName(byName[c.game].colours[1 - c.seat]) })));
  const error = el("p", { class: "err", role: "alert" });
  const reason = el("select", { id: `reason-${c.id}` }, el("option", { value: "" }, t("decline_none")),
    REASONS.map((r) => el("option", { value: r }, t(`decline_${r}`))));
  const note = el("input", { type: "text", id: `note-${c.id}`, maxlength: MAX_NOTE });
  item.append(el("div", { class: "row" },
    el("button", { type: "button", class: "btn primary", "data-accept": c.id, onclick: () => accept(c, null).catch((e) => { error.textContent = e.message; }) }, t("challenge_accept"))),
    el("div", { class: "field" }, el("label", { for: `reason-${c.id}` }, t("decline_reason")), reason),
    el("div", { class: "field" }, el("label", { for: `note-${c.id}` }, t("decline_note", { n: MAX_NOTE })), note),
    el("div", { class: "row" }, el("button", { type: "button", class: "btn", "data-decline": c.id, onclick: async () => {
      try {
        await api("POST", `/api/challenges/${c.id}/decline`, { reason: reason.value || null, note: note.value || null });
        lists.incoming = lists.incoming.filter((x) => x.id !== c.id);
        if (page) page.draw();
      } catch (e) { error.textContent = e.message; }
    } }, t("challenge_decline"))), error);
  return item;
}

function outgoingItem(c, byName) {
  const item = el("div", { class: "challenge-item", "data-challenge": c.id, "data-status": c.status },
    el("p", {}, t("challenge_to", { name: "" }), playerLink(c.to), " ", describe(c, byName)));
  if (c.status === "open") {
    item.append(el("p", { class: "note" }, t("challenge_open")), el("button", { type: "button", class: "btn", "data-cancel": c.id, onclick: async () => {
      try { await api("DELETE", `/api/challenges/${c.id}`); lists.outgoing = lists.outgoing.filter((x) => x.id !== c.id); page && page.draw(); } catch (e) { /* gone already */ }
    } }, t("challenge_cancel")));
  } else if (c.status === "declined") {
    item.append(el("p", {}, t("challenge_declined"), " ", el("span", { class: "decline-reason" }, reasonText(c))));
  } else if (c.status === "accepted" && c.game_id) {  // (the game's id comes once the game exists)
    item.append(el("a", { class: "btn", href: `/play/${c.game_id}`, "data-link": true }, t("challenge_to_game")));
  }
  return item;
}

async function drawSetting(box) {
  const { accept } = await api("GET", "/api/challenges/settings");
  const status = el("p", { class: "note", role: "status" });
  box.replaceChildren(el("h2", { id: "setting-title" }, t("challenge_setting")));
  const group = el("fieldset", {}, el("legend", {}, t("challenge_setting_from")));
  for (const value of ["everyone", "followed", "nobody"]) {
    group.append(el("div", { class: "row" },
      el("input", { type: "radio", name: "accept", id: `accept-${value}`, value, checked: value === accept ? true : null, onchange: async () => {
        try { await api("PUT", "/api/challenges/settings", { accept: value }); status.textContent = t("challenge_setting_saved"); } catch (e) { status.textContent = e.message; }
      } }),
      el("label", { for: `accept-${value}` }, t(`accept_${value}`))));
  }
  box.append(group, status);
}
