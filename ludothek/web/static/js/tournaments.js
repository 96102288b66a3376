// Tournaments (issue 32): /tournaments lists them (and lets an account create one), /tournaments/ID
// shows one: players, standings, the games of each round (links to watch them), kept up to date
// by a websocket that sends the tournament again whenever it changes.
import { api, el, t, getLang, navigate, currentUser, gameCatalog } from "./app.js";

export async function renderTournaments(root, id) {
  return id ? renderOne(root, id) : renderList(root);
}

function gameTitle(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? (g.title[getLang()] || g.title.en) : name;
}

async function renderList(root) {
  const [data, cat] = await Promise.all([api("GET", "/api/tournaments"), gameCatalog()]);
  const games = cat.games || cat;
  const wrap = el("div", { class: "tournaments-page" });
  root.append(wrap);
  wrap.append(el("h1", {}, t("tour_title")), el("p", { class: "note" }, t("tour_intro")));
  const list = el("ul", { class: "tour-list", id: "tour-list" });
  for (const item of data.tournaments) {
    list.append(el("li", {},
      el("a", { href: `/tournaments/${item.id}`, "data-link": true }, item.name),
      ` · ${gameTitle(games, item.game)} · ${t(item.kind === "swiss" ? "tour_swiss" : "tour_arena")} · ${t(`tour_status_${item.status}`)}`));
  }
  wrap.append(el("div", { class: "card" }, data.tournaments.length ? list : el("p", {}, t("tour_none"))));
  if (!currentUser()) {
    wrap.append(el("p", { class: "note" }, el("a", { href: "/login", "data-link": true }, t("tour_login"))));
    return;
  }
  const error = el("p", { class: "err", role: "alert", id: "tour-error" });
  const field = (label, input) => el("label", { class: "tour-field" }, el("span", {}, label), input);
  const name = el("input", { type: "text", id: "tour-name", maxlength: "60" });
  const kind = el("select", { id: "tour-kind" },
    el("option", { value: "swiss" }, t("tour_swiss")), el("option", { value: "arena" }, t("tour_arena")));
  const game = el("select", { id: "tour-game" }, ...games.map((g) => el("option", { value: g.name }, gameTitle(games, g.name))));
  const length = el("input", { type: "number", id: "tour-length", min: "1", max: "600", value: "3" });
  const lengthLabel = el("span", {}, t("tour_rounds"));
  kind.addEventListener("change", () => {
    lengthLabel.textContent = t(kind.value === "swiss" ? "tour_rounds" : "tour_minutes");
    length.value = kind.value === "swiss" ? "3" : "30";
  });
  const clock = el("input", { type: "number", id: "tour-clock", min: "0", max: "180", value: "5" });
  const rated = el("input", { type: "checkbox", id: "tour-rated" });
  const form = el("form", { class: "card tour-form", id: "tour-form" },
    el("h2", {}, t("tour_create")),
    field(t("tour_name"), name), field(t("tour_kind"), kind), field(t("tour_game"), game),
    el("label", { class: "tour-field" }, lengthLabel, length),
    field(t("tour_clock"), clock),
    el("label", { class: "tour-check" }, rated, t("tour_rated")),
    el("button", { type: "submit", class: "btn primary" }, t("tour_create")), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const minutes = Number(clock.value);
    const body = { kind: kind.value, game: game.value, rated: rated.checked,
                   clock: minutes > 0 ? { minutes, increment: 0 } : null };
    if (name.value.trim()) body.name = name.value.trim();
    body[kind.value === "swiss" ? "rounds" : "minutes"] = Number(length.value);
    try {
      const made = await api("POST", "/api/tournaments", body);
      navigate(`/tournaments/${made.id}`);
    } catch (e) { error.textContent = e.message; }
  });
  wrap.append(form);
}

async function renderOne(root, id) {
  const page = { id, view: await api("GET", `/api/tournaments/${encodeURIComponent(id)}`), closed: false, error: "" };
  const cat = await gameCatalog();
  page.games = cat.games || cat;
  const wrap = el("div", { class: "tournaments-page" });
  root.append(wrap);
  page.draw = () => draw(page, wrap);
  page.draw();
  connect(page);
  return () => { page.closed = true; if (page.ws) page.ws.close(); };
}

function connect(page) {
  if (page.closed || page.view.status === "over") return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tournaments/${encodeURIComponent(page.id)}`);
  page.ws = ws;
  ws.onmessage = (event) => {
    page.view = JSON.parse(event.data);
    window.ludothekTournament = page.view;  // read by the browser tests
    page.draw();
  };
  ws.onclose = () => { if (!page.closed && page.view.status !== "over") setTimeout(() => connect(page), 2000); };
}

// the creator of a casual tournament invites bot levels (and takes them out again) before the start
function botInvites(page) {
  const v = page.view;
  const game = page.games.find((g) => g.name === v.game);
  // the level chosen stays chosen when a pushed change draws the page again
  const level = el("select", { id: "tour-bot-level", onchange: (e) => { page.botLevel = e.target.value; } },
    ...((game && game.bots) || []).map((b) => el("option", { value: b, selected: b === page.botLevel ? true : null }, b)));
  const invited = v.players.filter((p) => p.bot);
  return el("section", { class: "card", id: "tour-bots", "aria-labelledby": "tour-bots-h" },
    el("h2", { id: "tour-bots-h" }, t("tour_bots")),
    el("p", { class: "note" }, t("tour_bots_note")),
    el("div", { class: "buttons tour-actions" },
      el("label", { class: "tour-field" }, el("span", {}, t("tour_bot_level")), level),
      el("button", { type: "button", class: "btn", id: "tour-invite-bot", onclick: () => act(page, "bots", { bot: level.value }) }, t("tour_invite_bot"))),
    invited.length ? el("ul", { class: "tour-bot-list" }, ...invited.map((p) => el("li", {}, `${p.name} `,
      el("button", { type: "button", class: "btn tour-remove-bot", "aria-label": t("tour_remove_bot_named", { name: p.name }),
                     onclick: () => act(page, "bots/remove", { bot: p.name }) }, t("tour_remove_bot"))))) : null);
}

async function act(page, what, body) {
  try {
    page.view = await api("POST", `/api/tournaments/${encodeURIComponent(page.id)}/${what}`, body);
    page.error = "";
  } catch (e) { page.error = e.message; }
  page.draw();
}

function points(v) {
  return typeof v === "number" ? v.toLocaleString(getLang()) : "";
}

function draw(page, wrap) {
  const v = page.view;
  window.ludothekTournament = v;
  wrap.replaceChildren();
  const me = currentUser();
  const mine = me && v.players.some((p) => p.name === me.name && p.active);
  const length = v.kind === "swiss" ? t("tour_round_of", { round: v.round, rounds: v.rounds }) : t("tour_minutes_long", { minutes: v.minutes });
  wrap.append(el("h1", { id: "tour-name" }, v.name),
    el("p", { id: "tour-status", "data-status": v.status },
      `${gameTitle(page.games, v.game)} · ${t(v.kind === "swiss" ? "tour_swiss" : "tour_arena")} · ${length} · ${t(`tour_status_${v.status}`)}${v.rated ? ` · ${t("tour_rated")}` : ""}`));
  const buttons = el("div", { class: "buttons tour-actions" });
  if (me && !mine && v.status !== "over" && (v.status === "open" || v.kind === "arena"))
    buttons.append(el("button", { type: "button", class: "btn primary", id: "tour-join", onclick: () => act(page, "join") }, t("tour_join")));
  if (mine && v.status !== "over" && (v.status === "open" || v.kind === "arena"))
    buttons.append(el("button", { type: "button", class: "btn", id: "tour-withdraw", onclick: () => act(page, "withdraw") }, t("tour_withdraw")));
  if (me && v.status === "open")
    buttons.append(el("button", { type: "button", class: "btn", id: "tour-start", onclick: () => act(page, "start") }, t("tour_start")));
  if (buttons.childElementCount) wrap.append(buttons);
  if (me && v.creator === me.name && v.status === "open" && !v.rated) wrap.append(botInvites(page));
  if (page.error) wrap.append(el("p", { class: "err", role: "alert" }, page.error));
  wrap.append(el("section", { class: "card", "aria-labelledby": "tour-standings-h" },
    el("h2", { id: "tour-standings-h" }, t("tour_standings")),
    el("div", { class: "tour-scroll", tabindex: "0", role: "region", "aria-labelledby": "tour-standings-h" }, standings(v))));
  wrap.append(el("section", { class: "card", "aria-labelledby": "tour-pairings-h" },
    el("h2", { id: "tour-pairings-h" }, t("tour_pairings")), pairings(v)));
}

function standings(v) {
  const swiss = v.kind === "swiss";
  const head = swiss ? ["rank", "tour_player", "tour_points", "tour_buchholz", "tour_sb", "tour_games"]
                     : ["rank", "tour_player", "tour_points", "tour_games", "tour_berserks", "tour_sheet"];
  const table = el("table", { class: "tour-table", id: "tour-standings" },
    el("thead", {}, el("tr", {}, ...head.map((k) => el("th", { scope: "col" }, t(k))))));
  const body = el("tbody");
  for (const s of v.standings) {
    const player = s.bot ? el("span", { class: "tour-bot" }, s.player)  // a bot has no profile (its name says bot:N)
      : el("a", { href: `/players/${encodeURIComponent(s.player)}`, "data-link": true }, s.player);
    const cells = swiss
      ? [s.rank, player, points(s.score), points(s.buchholz), points(s.sonneborn_berger), s.games]
      : [s.rank, el("span", {}, player, s.fire ? el("span", { class: "tag" }, t("tour_on_fire")) : ""), s.points, s.games, s.berserk, s.sheet.join(" ")];
    body.append(el("tr", {}, ...cells.map((c, i) => (i === 1 ? el("th", { scope: "row" }, c) : el("td", {}, c)))));
  }
  table.append(body);
  return table;
}

function pairings(v) {
  const box = el("div", { id: "tour-games" });
  const rounds = new Map();
  for (const g of v.games) {
    if (!rounds.has(g.round)) rounds.set(g.round, []);
    rounds.get(g.round).push(g);
  }
  for (const [round, games] of [...rounds.entries()].sort((a, b) => b[0] - a[0])) {
    if (v.kind === "swiss") box.append(el("h3", {}, t("tour_round", { round })));
    const list = el("ol", { class: "tour-games", "data-round": round });
    for (const g of (v.kind === "arena" ? [...games].reverse() : games)) {
      if (g.second === null) {
        list.append(el("li", { class: "tour-bye" }, `${g.first} · ${t("tour_bye")}`));
        continue;
      }
      const result = g.score === null ? t("tour_running_game") : g.score === 1 ? "1–0" : g.score === 0 ? "0–1" : "½–½";
      const mark = (seat) => (g.berserk && g.berserk[seat] ? ` ⚔ ${t("tour_berserk")}` : "");
      list.append(el("li", { class: "tour-game" }, `${g.first}${mark(0)} – ${g.second}${mark(1)} · ${result} · `,
        el("a", { href: `/play/${g.game}`, "data-link": true }, t("tour_watch"))));
    }
    box.append(list);
  }
  return box;
}
