// The leaderboard of one game: the best rated players, provisional ones after the others.
import { api, el, t, num, gameCatalog } from "./app.js";
import { gameTitle, ratingText, playerLink } from "./setup.js";

export async function renderLeaderboard(root, game) {
  const { games } = await gameCatalog();
  if (!games.length) return null;
  if (!games.some((g) => g.name === game)) game = games[0].name;
  const info = games.find((g) => g.name === game);
  document.title = `${t("leaderboard_title")}: ${gameTitle(info)} – Ludothek`;
  root.append(el("h1", {}, t("leaderboard_title")),
    el("nav", { class: "tabs", "aria-label": t("leaderboard_games") }, games.map((g) => el("a", { href: `/leaderboard/${g.name}`, "data-link": true,
      class: g.name === game ? "on" : "", "aria-current": g.name === game ? "page" : null }, gameTitle(g)))));
  const { players } = await api("GET", `/api/leaderboard/${game}`);
  const card = el("section", { class: "card", "aria-labelledby": "leaderboard-game" }, el("h2", { id: "leaderboard-game", style: "margin-top:0" }, gameTitle(info)));
  root.append(card);
  if (!players.length) { card.append(el("p", { class: "note", id: "leaderboard-empty" }, t("leaderboard_empty"))); return null; }
  const table = el("table", { class: "list", id: "leaderboard" },
    el("tr", {}, ["rank", "player", "rating", "deviation", "games_played"].map((k) => el("th", { scope: "col" }, t(k)))));
  let marked = false;
  for (const p of players) {
    if (p.provisional && !marked && players.some((q) => !q.provisional)) {
      // where the settled ratings end: a row with a heading cell, read as a group's name
      table.append(el("tr", { class: "group" }, el("th", { scope: "colgroup", colspan: 5 }, t("provisional_players"))));
    }
    if (p.provisional) marked = true;
    table.append(el("tr", { class: p.provisional ? "provisional" : null, "data-player": p.name },
      el("td", { class: "rank" }, num(p.rank)),
      el("td", {}, playerLink(p.name)),
      el("td", { "data-label": t("rating"), class: "rating-value", "data-value": p.value, title: p.provisional ? t("provisional_hint") : null },
        ratingText(p.value, p.provisional)),
      el("td", { "data-label": t("deviation") }, `± ${num(Math.round(p.deviation))}`),
      el("td", { "data-label": t("games_played") }, num(p.games))));
  }
  card.append(table, el("p", { class: "note" }, t("provisional_hint")));
  return null;
}
