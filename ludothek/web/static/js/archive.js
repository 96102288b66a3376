// Archive: running and finished games; open one to replay it move by move.
import { api, el, t, colourName, getLang, focusKey, restoreFocus, gameCatalog, currentUser } from "./app.js";

let filter = null; // at first: a logged-in player's own games, everyone's finished ones for a guest

export async function renderArchive(root) {
  root.append(el("h1", {}, t("archive_title")));
  const tabs = el("div", { class: "tabs" });
  const choices = [["over", t("archive_finished")], ["ongoing", t("archive_running")], ["waiting", t("archive_waiting")]];
  if (currentUser()) choices.unshift(["mine", t("archive_mine")]);  // on any device: the account's games
  if (!filter || (filter === "mine" && !currentUser())) filter = currentUser() ? "mine" : "over";
  for (const [key, label] of choices) {
    tabs.append(el("a", { href: "#", class: filter === key ? "on" : "", "data-filter": key, "aria-current": filter === key ? "true" : null,
      onclick: async (e) => {
        e.preventDefault(); filter = key;
        const focused = focusKey();
        root.replaceChildren();
        await renderArchive(root);
        restoreFocus(focused, root);
      } }, label));
  }
  root.append(tabs);
  const { games } = await api("GET", filter === "mine" ? "/api/games?mine=1&limit=100" : `/api/games?status=${filter}&limit=100`);
  const { games: catalog } = await gameCatalog();
  const titles = Object.fromEntries(catalog.map((g) => [g.name, g.title[getLang()] || g.title.en]));
  if (!games.length) { root.append(el("div", { class: "card note" }, t("archive_empty"))); return null; }
  const table = el("table", { class: "list", id: "archive" },
    el("tr", {}, ["game", "players", "result", "moves", "started", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : ""))));
  for (const g of games) {
    // a player's name is text (the cell is filled with a text node)
    const players = g.seats.map((s, i) => s.kind === "bot" ? `${t("computer")} (${botLevel(s.agent)})` : s.name || t("player_n", { n: i + 1 })).join(" – ");
    const result = g.status === "over" ? (g.result === "draw" ? t("draw") : t("wins", { colour: colourName(g.result) })) : t(`status_${g.status}`);
    const size = g.options && g.options.size ? ` ${g.options.size}` : "";
    table.append(el("tr", {},
      el("td", {}, el("strong", {}, (titles[g.game] || g.game) + size), el("div", { class: "note" }, t(`mode_${g.mode}`))),
      el("td", {}, players), el("td", {}, result), el("td", { "data-label": t("moves") }, String(g.moves)),
      el("td", {}, new Date(g.created * 1000).toLocaleString(getLang())),
      el("td", {}, el("div", { class: "row" },
        el("a", { class: "btn", href: `/play/${g.id}`, "data-link": true }, g.status === "over" ? t("replay") : t("open")),
        el("a", { class: "btn", href: `/api/games/${g.id}/record`, download: `${g.game}-${g.id}.ludo`, title: t("download") }, "\u2193 .ludo")))));
  }
  root.append(el("div", { class: "card" }, table));
  return null;
}

// a bot's level in the page's words (the agent spec, such as "bot:3", otherwise)
function botLevel(agent) {
  if (agent === "random") return t("bot_random");
  if (agent === "perfect") return t("bot_perfect");
  return agent.startsWith("bot:") ? t("bot_n", { n: agent.slice(4) }) : agent;
}
