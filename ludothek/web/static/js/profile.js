// A player's profile: since when he plays here, his rating in each game with its history, his
// wins, draws and losses, and his recent games.
import { api, el, t, num, getLang, gameCatalog, currentUser } from "./app.js";
import { challengeForm, followButton } from "./challenges.js";
import { gameTitle, ratingText, clockText, playerLink, resultText } from "./setup.js";
import { ratingChart } from "./chart.js";

export async function renderProfile(root, name) {
  const { games } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  let user;
  try {
    user = await api("GET", `/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    if (e.network) throw e;
    document.title = `${t("profile_missing")} – Ludothek`;
    root.append(el("div", { class: "card" }, el("h1", {}, t("profile_missing")), el("p", { class: "note" }, e.message)));
    return null;
  }
  document.title = `${user.name} – Ludothek`;
  const since = new Date(user.created * 1000).toLocaleDateString(getLang(), { year: "numeric", month: "long", day: "numeric" });
  root.append(el("h1", { id: "profile-name" }, user.name), el("p", { class: "sub", id: "profile-since" }, t("member_since", { date: since })));
  const me = currentUser();
  if (me && me.name.toLowerCase() !== user.name.toLowerCase()) {
    // follow him, or challenge him to a game
    let following = false;
    try { following = (await api("GET", "/api/follows")).following.some((p) => p.name === user.name); } catch (e) { /* shown unfollowed */ }
    const formSlot = el("div", {});
    const challenge = el("button", { type: "button", class: "btn primary", id: "challenge-open", "aria-expanded": "false", onclick: async () => {
      if (formSlot.firstChild) { formSlot.replaceChildren(); challenge.setAttribute("aria-expanded", "false"); return; }
      formSlot.append(await challengeForm(user.name));
      challenge.setAttribute("aria-expanded", "true");
      document.getElementById("challenge-game").focus();
    } }, t("challenge_button"));
    root.append(el("div", { class: "row profile-actions" }, challenge, followButton(user.name, following)), formSlot);
  }

  const ratings = el("div", { class: "profile-ratings", id: "profile-ratings" });
  if (!user.ratings.length) ratings.append(el("div", { class: "card note" }, t("no_rated_games")));
  for (const r of user.ratings) ratings.append(ratingCard(r, byName[r.game], user.counts[r.game], user.start));
  // games played only unrated still show their results
  for (const [game, counts] of Object.entries(user.counts || {})) {
    if (!user.ratings.some((r) => r.game === game) && (counts.win || counts.draw || counts.loss)) {
      ratings.append(el("section", { class: "card rating-card", "data-game": game },
        el("h2", {}, gameTitle(byName[game]) || game), countsLine(counts)));
    }
  }
  root.append(ratings);

  root.append(el("h2", {}, t("recent_games")));
  root.append(el("div", { class: "card" }, recentTable(user, byName)));
  const played = await api("GET", `/api/users/${encodeURIComponent(name)}/tournaments`).catch(() => ({ tournaments: [] }));
  if (played.tournaments.length) {
    root.append(el("h2", {}, t("tour_title")));
    root.append(el("ul", { class: "card tour-list", id: "profile-tournaments" }, ...played.tournaments.map((r) =>
      el("li", {}, el("a", { href: `/tournaments/${r.id}`, "data-link": true }, r.name),
        ` · ${gameTitle(byName[r.game]) || r.game} · ${t("tour_place", { rank: r.rank, players: r.players })}`
        + (r.status === "over" ? "" : ` (${t(`tour_status_${r.status}`)})`)))));
  }
  return null;
}

function countsLine(counts) {
  const c = counts || { win: 0, draw: 0, loss: 0 };
  return el("p", { class: "counts" },
    el("span", { class: "win" }, t("wins_n", { n: c.win })), " · ",
    el("span", {}, t("draws_n", { n: c.draw })), " · ",
    el("span", { class: "loss" }, t("losses_n", { n: c.loss })));
}

function ratingCard(r, game, counts, start) {
  const title = gameTitle(game) || r.game;
  const card = el("section", { class: "card rating-card", "data-game": r.game, "aria-labelledby": `rating-${r.game}` },
    el("h2", { id: `rating-${r.game}` }, title),
    el("div", { class: "rating-line" },
      el("span", { class: "rating-value", "data-value": r.value, title: r.provisional ? t("provisional_hint") : null }, ratingText(r.value, r.provisional)),
      el("span", { class: "note" }, `± ${num(Math.round(r.deviation))}`),
      el("span", { class: "note" }, t("games_n", { n: r.games })),
      r.provisional ? el("span", { class: "tag" }, t("provisional")) : null),
    countsLine(counts));
  if (r.history && r.history.length) {
    card.append(el("div", { class: "chart-wrap" }, ratingChart(r.history, `chart-${r.game}`, title, start)));
    if (r.history.length === 1) card.append(el("p", { class: "note" }, t("rating_chart_wait")));
  }
  return card;
}

function recentTable(user, byName) {
  if (!user.recent.length) return el("p", { class: "note" }, t("archive_empty"));
  const table = el("table", { class: "list", id: "recent" },
    el("tr", {}, ["game", "players", "result", "moves", "started", ""].map((k) => el("th", { scope: "col" }, k ? t(k) : el("span", { class: "visually-hidden" }, t("actions"))))));
  for (const g of user.recent) {
    const names = g.seats.map((s, i) => s.kind === "bot" ? t("computer") : s.name ? playerLink(s.name) : t("player_n", { n: i + 1 }));
    const result = resultText(g);
    table.append(el("tr", {},
      el("td", {}, el("strong", {}, gameTitle(byName[g.game]) || g.game),
        el("div", { class: "note" }, [t(g.rated ? "rated" : "casual"), clockText(g.clock)].join(" · "))),
      el("td", {}, names[0], " – ", names[1]),
      el("td", {}, result),
      el("td", { "data-label": t("moves") }, num(g.moves)),
      el("td", {}, new Date(g.created * 1000).toLocaleDateString(getLang())),
      el("td", {}, el("a", { class: "btn", href: `/play/${g.id}`, "data-link": true }, g.status === "over" ? t("replay") : t("open")))));
  }
  return table;
}
