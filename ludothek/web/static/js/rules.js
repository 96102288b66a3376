// Rules of every game in English and German, with diagrams drawn by the board code.
import { api, el, t, getLang } from "./app.js";
import { boardPicture } from "./board.js";

let rulesText = null;

export async function renderRules(root, game) {
  if (!rulesText) rulesText = await (await fetch("/static/rules.json")).json();
  const { games } = await api("GET", "/api/catalog");
  const available = new Set(games.map((g) => g.name));
  const names = ["trike", "trigeo", "hexalit", "bitis"];
  game = names.includes(game) ? game : "trike";
  const lang = getLang();
  root.append(el("h1", {}, t("rules_title")));
  root.append(el("div", { class: "tabs" }, names.map((n) => el("a", { href: `/rules/${n}`, "data-link": true, class: n === game ? "on" : "" }, rulesText[n].title[lang]))));
  const body = el("div", { class: "card rules", id: "rules" });
  for (const [kind, content, caption] of rulesText[game][lang]) {
    if (kind === "h") body.append(el("h3", {}, content));
    else if (kind === "p") body.append(el("p", {}, content));
    else if (kind === "fig" && available.has(game)) {
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
        figure.querySelector(".pic").append(boardPicture(p, { targets, labels: true }));
      }).catch(() => figure.remove());
    }
  }
  root.append(body);
  return null;
}
