// Rules of every game in English and German, with diagrams drawn by the board code.
import { api, el, t, getLang, gameCatalog } from "./app.js";
import { boardPicture } from "./board.js";

const pages = new Map(); // game -> its rules page, fetched once

export async function renderRules(root, game) {
  const { games } = await gameCatalog();
  // the tabs: the games with a rules page, in the catalogue's order
  const withRules = games.filter((g) => g.rules);
  const lang = getLang();
  root.append(el("h1", {}, t("rules_title")));
  if (!withRules.length) return null;
  if (!withRules.some((g) => g.name === game)) game = withRules[0].name;
  if (!pages.has(game)) pages.set(game, await api("GET", `/api/rules/${game}`));
  const page = pages.get(game);
  root.append(el("div", { class: "tabs" }, withRules.map((g) => el("a", { href: `/rules/${g.name}`, "data-link": true, class: g.name === game ? "on" : "", "aria-current": g.name === game ? "page" : null }, g.title[lang] || g.title.en))));
  const body = el("div", { class: "card rules", id: "rules" });
  for (const [kind, content, caption] of page[lang] || page.en) {
    if (kind === "h") body.append(el("h2", {}, content));
    else if (kind === "p") body.append(el("p", {}, content));
    else if (kind === "fig") {
      const figure = el("figure", {}, el("div", { class: "pic" }), el("figcaption", {}, caption));
      // float the picture beside the paragraph before it
      if (body.lastElementChild && body.lastElementChild.tagName === "P") body.insertBefore(figure, body.lastElementChild);
      else body.append(figure);
      const q = new URLSearchParams({ game });
      if (content.size) q.set("o.size", content.size);
      if (content.position) q.set("position", content.position);
      if (content.moves) q.set("moves", content.moves);
      if (content.legal) q.set("legal", "1");
      api("GET", `/api/preview?${q}`).then((p) => {
        const targets = new Set(p.moves.filter((m) => m.to && !m.from).map((m) => m.to));
        figure.querySelector(".pic").append(boardPicture(p, { targets, labels: true, title: caption || t("board") }));
      }).catch(() => figure.remove());
    }
  }
  root.append(body);
  return null;
}
