// Archive: running and finished games, filtered by game and player; open one to replay it move by move.
import { api, el, t, num, getLang, focusKey, restoreFocus, gameCatalog, currentUser } from "./app.js";
import { notifyButton } from "./turns.js";
import { eventLink, playerLink, resultText } from "./setup.js";

let filter = null; // at first: a logged-in player's own games, everyone's finished ones for a guest
const search = { game: "", player: "" };

export async function renderArchive(root) {
  // "My games" in the header opens the archive on that tab
  const asked = new URLSearchParams(location.search).get("tab");
  if (asked) { filter = asked; history.replaceState({}, "", "/archive"); }
  root.append(el("h1", {}, t("archive_title")));
  const tabs = el("div", { class: "tabs" });
  const choices = [["over", t("archive_finished")], ["ongoing", t("archive_running")], ["waiting", t("archive_waiting")]];
  if (currentUser()) choices.unshift(["mine", t("archive_mine")]);  // on any device: the account's games
  if (!choices.some(([key]) => key === filter)) filter = currentUser() ? "mine" : "over";
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
  const { games: catalog } = await gameCatalog();
  const titles = Object.fromEntries(catalog.map((g) => [g.name, g.title[getLang()] || g.title.en]));
  const results = el("div", { id: "archive-results", "aria-busy": "false" });
  const count = el("p", { class: "visually-hidden", id: "archive-count", role: "status" });
  let timer = null;
  const reload = () => load(results, titles, count).catch(() => {});  // the error shows in the results
  const gameSelect = el("select", { id: "archive-game", onchange: (e) => { search.game = e.target.value; reload(); } },
    el("option", { value: "" }, t("all_games")),
    catalog.map((g) => el("option", { value: g.name, selected: g.name === search.game ? true : null }, titles[g.name])));
  const player = el("input", { type: "search", id: "archive-player", value: search.player, autocomplete: "off", spellcheck: "false",
    maxlength: 64, oninput: (e) => { search.player = e.target.value.trim(); clearTimeout(timer); timer = setTimeout(reload, 300); } });
  const filters = el("div", { class: "row filters" },
    el("div", { class: "field" }, el("label", { for: "archive-game" }, t("game")), gameSelect),
    el("div", { class: "field" }, el("label", { for: "archive-player" }, t("player_name")), player));
  if (filter === "mine") {
    const bell = notifyButton();
    if (bell) filters.append(el("div", { class: "field bell" }, bell));
  }
  root.append(filters, count, results);
  await load(results, titles, count);
  return () => clearTimeout(timer);
}

let loading = 0;

async function load(results, titles, count) {
  const ticket = ++loading;
  const query = new URLSearchParams(filter === "mine" ? { mine: "1" } : { status: filter });
  query.set("limit", "100");
  if (search.game) query.set("game", search.game);
  if (search.player) query.set("player", search.player);
  results.setAttribute("aria-busy", "true");
  let games;
  try {
    ({ games } = await api("GET", `/api/games?${query}`));
  } catch (e) {
    if (ticket === loading) results.replaceChildren(el("div", { class: "card" }, el("p", { class: "err", role: "alert" }, e.message)));
    throw e;
  } finally {
    results.setAttribute("aria-busy", "false");
  }
  if (ticket !== loading) return;  // a newer search answered first
  count.textContent = t("games_found", { n: games.length });
  if (!games.length) { results.replaceChildren(el("div", { class: "card note", id: "archive-empty" }, t("archive_empty"))); return; }
  const table = el("table", { class: "list", id: "archive" },
    el("tr", {}, ["game", "players", "result", "moves", "started", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : ""))));
  for (const g of games) {
    // a player's name is text (a text node in a link to his profile)
    const [one, two] = g.seats.map((s, i) => s.kind === "bot" ? `${t("computer")} (${botLevel(s.agent)})` : s.name ? playerLink(s.name) : t("player_n", { n: i + 1 }));
    const result = resultText(g);
    const size = g.options && g.options.size ? ` ${g.options.size}` : "";
    const kind = [t(`mode_${g.mode}`), g.mode === "online" ? t(g.rated ? "rated" : "casual") : null].filter(Boolean).join(" · ");
    table.append(el("tr", { class: g.your_turn ? "your-turn" : null },
      el("td", {}, el("strong", {}, (titles[g.game] || g.game) + size), el("div", { class: "note" }, kind),
        g.event ? el("div", { class: "note" }, eventLink(g.event)) : null,
        g.your_turn ? el("span", { class: "tag turn" }, t("your_turn_mark")) : null),
      el("td", {}, one, " – ", two), el("td", {}, result), el("td", { "data-label": t("moves") }, num(g.moves)),
      el("td", {}, new Date(g.created * 1000).toLocaleString(getLang())),
      el("td", {}, el("div", { class: "row" },
        el("a", { class: "btn", href: `/play/${g.id}`, "data-link": true }, g.status === "over" ? t("replay") : t("open")),
        el("a", { class: "btn", href: `/api/games/${g.id}/record`, download: `${g.game}-${g.id}.ludo`, title: t("download") }, "\u2193 .ludo")))));
  }
  results.replaceChildren(el("div", { class: "card" }, table));
}

// a bot's level in the page's words (the agent spec, such as "bot:3", otherwise)
function botLevel(agent) {
  if (agent === "random") return t("bot_random");
  if (agent === "perfect") return t("bot_perfect");
  return agent.startsWith("bot:") ? t("bot_n", { n: agent.slice(4) }) : agent;
}
