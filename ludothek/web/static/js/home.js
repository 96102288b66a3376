// Home: choose a game, its options and an opponent.
import { api, el, t, colourName, tokens, navigate, getLang, focusKey, restoreFocus, gameCatalog, currentUser } from "./app.js";
import { boardPicture } from "./board.js";
import { optionFields, clockFields, clockBody } from "./setup.js";
import { dailyCard } from "./puzzles.js";

const pictures = new Map(); // the preview of each game's board, fetched once a page load
const form = { game: null, options: {}, first: "high", opponent: "hotseat", bot: "random", seat: 0,
  clockKind: "none", minutes: 5, increment: 3, days: 3, rated: false };

export async function renderHome(root) {
  const { games, bots } = await gameCatalog();
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  // the catalogue comes in display order: the first game is the default
  if (!form.game || !byName[form.game]) form.game = games.length ? games[0].name : null;
  const lang = getLang();
  root.append(el("h1", {}, t("choose_game")), el("p", { class: "sub" }, t("tagline")),
    el("p", { class: "learn-link" }, el("a", { href: "/learn", "data-link": true, id: "home-learn" }, t("learn_home"))));
  // the games are buttons: Tab reaches them, Enter or Space chooses one
  const cards = el("div", { class: "games", role: "group", "aria-label": t("game_pictures") });
  root.append(cards);
  const setup = el("div", { class: "setup" });
  root.append(setup);
  const daily = el("div", { class: "daily-slot" });
  root.append(daily);
  dailyCard().then((card) => daily.append(card));  // the puzzle of the day, below the setup
  for (const info of games) {
    const name = info.name;
    const card = el("button", { type: "button", class: "card game-card" + (form.game === name ? " chosen" : ""), "data-game": name,
      "aria-pressed": form.game === name ? "true" : "false" },
      el("span", { class: "pic" }), el("span", { class: "name" }, info.title[lang] || info.title.en),
      info.summary ? el("span", { class: "summary" }, info.summary[lang] || info.summary.en) : null);
    card.addEventListener("click", () => { form.game = name; form.options = {}; renderHomeAgain(root); });
    const small = info.options.some((o) => o.name === "size") ? "&o.size=7" : "";
    if (!pictures.has(name)) pictures.set(name, api("GET", `/api/preview?game=${encodeURIComponent(name)}${small}`));
    pictures.get(name).then((p) => {
      card.querySelector(".pic").append(boardPicture(p));
    }).catch(() => pictures.delete(name));
    cards.append(card);
  }
  if (!form.game) return null;
  const game = byName[form.game];

  // options
  const optionsBox = el("div", { class: "card" }, el("h2", {}, `${game.title[lang] || game.title.en} — ${t("options")}`),
    game.rules ? el("p", { class: "note" }, el("a", { href: `/rules/${game.name}`, "data-link": true }, `${t("rules_title")}: ${game.title[lang] || game.title.en} →`)) : null);
  optionsBox.append(...optionFields(game, form.options));
  if (game.has_first) {
    const select = el("select", { id: "opt-first", onchange: (e) => { form.first = e.target.value; } },
      el("option", { value: "high" }, t("first_high")), el("option", { value: "low" }, t("first_low")),
      game.colours.map((c) => el("option", { value: `fixed:${c}` }, `${t("first_fixed")}: ${colourName(c)}`)));
    select.value = form.first;
    optionsBox.append(el("div", { class: "field" }, el("label", { for: "opt-first" }, t("opt_first")), select));
  }

  // opponent
  const oppBox = el("div", { class: "card" }, el("h2", {}, t("opponent")));
  const seg = el("div", { class: "seg", id: "opponent", role: "group", "aria-label": t("opponent") });
  for (const kind of ["hotseat", "bot", "friend"]) {
    seg.append(el("button", { type: "button", class: form.opponent === kind ? "on" : "", "data-opponent": kind,
      "aria-pressed": form.opponent === kind ? "true" : "false",
      onclick: () => { form.opponent = kind; renderHomeAgain(root); } }, t(`opp_${kind}`)));
  }
  oppBox.append(seg);
  if (form.opponent === "bot") {
    const select = el("select", { id: "bot-level", onchange: (e) => { form.bot = e.target.value; } },
      (game.bots || bots).map((b) => el("option", { value: b, selected: b === form.bot ? true : null },
        botChoice(b, game.bot_thinking || {}))));
    oppBox.append(el("div", { class: "field" }, el("label", { for: "bot-level" }, t("bot_level")), select));
  }
  if (form.opponent !== "hotseat") {
    const select = el("select", { id: "seat", onchange: (e) => { form.seat = e.target.value === "random" ? "random" : Number(e.target.value); } },
      game.colours.map((c, i) => el("option", { value: i, selected: form.seat === i ? true : null }, colourName(c))),
      el("option", { value: "random", selected: form.seat === "random" ? true : null }, t("colour_random")));
    oppBox.append(el("div", { class: "field" }, el("label", { for: "seat" }, t("your_colour")), select));
  }
  // correspondence (days per move) and rated games: only against a friend; rated needs an account
  oppBox.append(clockFields(form, { prefix: "clock", days: form.opponent === "friend" }));
  if (form.opponent === "friend" && currentUser()) {
    oppBox.append(el("div", { class: "field" }, el("div", { class: "row" },
      el("input", { type: "checkbox", id: "rated", checked: form.rated ? true : null, "aria-describedby": "rated-hint",
        onchange: (e) => { form.rated = e.target.checked; } }),
      el("label", { for: "rated" }, t("rated_game"))),
      el("div", { class: "note", id: "rated-hint" }, t("rated_friend_hint"))));
  }
  const error = el("div", { class: "err" });
  const start = el("button", { class: "btn primary big", id: "start", onclick: async () => {
    start.disabled = true;
    try {
      const body = { game: game.name, options: { ...form.options }, opponent: form.opponent, bot: form.bot, seat: form.seat };
      if (game.has_first) {
        if (form.first.startsWith("fixed:")) { body.start = "fixed"; body.options.first = form.first.slice(6); } else body.start = form.first;
      }
      const clock = clockBody(form);
      if (clock) body.clock = clock;
      if (form.opponent === "friend" && currentUser() && form.rated) body.rated = true;
      const created = await api("POST", "/api/games", body);
      tokens.set(created.id, created.token);
      if (created.invite) tokens.setInvite(created.id, created.invite);
      navigate(`/play/${created.id}`);
    } catch (e) { error.textContent = e.message; start.disabled = false; }
  } }, t("start_game"));
  oppBox.append(el("div", { class: "row", style: "margin-top:14px" }, start), error);
  setup.append(optionsBox, oppBox);
  return null;
}

async function renderHomeAgain(root) {
  const key = focusKey();
  root.replaceChildren();
  await renderHome(root);
  restoreFocus(key, root);
}

// a bot in the opponent choice: its level, and how long it thinks where it thinks for a time
function botChoice(bot, thinking) {
  if (bot === "random") return t("bot_random");
  if (bot === "perfect") return t("bot_perfect");
  if (!bot.startsWith("bot:")) return bot;
  const level = bot.slice(4), think = thinking[bot];
  if (!think) return t("bot_n", { n: level });
  if (think.perfect) return t("bot_table", { level });
  if (think.most > think.seconds) return t("bot_thinks_more", { level, s: think.seconds, most: think.most });
  return t("bot_thinks", { level, s: think.seconds });
}
