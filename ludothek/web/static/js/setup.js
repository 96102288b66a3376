// The game-setup widgets the home page and the lobby share (a game's options, the time control)
// and the short texts that describe a setting in lists.
import { el, t, num, getLang, colourName } from "./app.js";

export const DAYS = [1, 2, 3, 7, 14];

export function gameTitle(game) {
  return game ? game.title[getLang()] || game.title.en : "";
}

function optionLabel(option) {
  return t(`opt_${option.name}`) === `opt_${option.name}` ? option.help : t(`opt_${option.name}`);
}

// one .field per option of the game (but "first", which the home page words itself); a change is
// written into `values`; ids are `${prefix}-${option}`
export function optionFields(game, values, prefix = "opt") {
  const fields = [];
  for (const option of game.options) {
    if (option.name === "first") continue;
    const id = `${prefix}-${option.name}`;
    const label = optionLabel(option);
    const value = values[option.name] ?? option.default;
    let input;
    if (option.type === "bool") {
      input = el("input", { type: "checkbox", id, checked: value ? true : null, onchange: (e) => { values[option.name] = e.target.checked; } });
      fields.push(el("div", { class: "field" }, el("div", { class: "row" }, input, el("label", { for: id }, label))));
      continue;
    }
    if (option.choices) {
      // the server takes typed options: a number option with choices must not send its text
      input = el("select", { id, onchange: (e) => { values[option.name] = option.type === "int" ? Number(e.target.value) : e.target.value; } },
        option.choices.map((c) => el("option", { value: c, selected: String(c) === String(value) ? true : null }, String(c))));
    } else if (option.type === "int" && option.max !== null && option.min !== null && option.max - option.min <= 20) {
      const choices = [];
      for (let v = option.min; v <= option.max; v++) choices.push(v);
      input = el("select", { id, onchange: (e) => { values[option.name] = Number(e.target.value); } },
        choices.map((v) => el("option", { value: v, selected: v === Number(value) ? true : null }, String(v))));
    } else {
      input = el("input", { id, type: option.type === "int" ? "number" : "text", value, min: option.min, max: option.max,
        onchange: (e) => { values[option.name] = option.type === "int" ? Number(e.target.value) : e.target.value; } });
    }
    fields.push(el("div", { class: "field" }, el("label", { for: id }, label), input));
  }
  return fields;
}

// The time control: none, minutes + increment, or days per move (correspondence, when `days`).
// `state` holds clockKind ("none" | "live" | "days"), minutes, increment and days.
export function clockFields(state, { prefix = "clock", days = true } = {}) {
  if (!days && state.clockKind === "days") state.clockKind = "none";
  const kinds = ["none", "live"].concat(days ? ["days"] : []);
  const live = el("div", { class: "row clock-live", hidden: state.clockKind !== "live" },
    el("label", { for: `${prefix}-min`, class: "note" }, t("minutes")),
    el("input", { type: "number", id: `${prefix}-min`, min: 1, max: 180, value: state.minutes,
      onchange: (e) => { state.minutes = Math.max(1, Number(e.target.value) || 1); } }),
    el("label", { for: `${prefix}-inc`, class: "note" }, t("increment")),
    el("input", { type: "number", id: `${prefix}-inc`, min: 0, max: 180, value: state.increment,
      onchange: (e) => { state.increment = Math.max(0, Number(e.target.value) || 0); } }));
  const corr = el("div", { class: "row clock-days", hidden: state.clockKind !== "days" },
    el("label", { for: `${prefix}-days`, class: "note" }, t("days_per_move")),
    el("select", { id: `${prefix}-days`, onchange: (e) => { state.days = Number(e.target.value); } },
      DAYS.map((d) => el("option", { value: d, selected: d === state.days ? true : null }, t("days_n", { n: d })))));
  const kind = el("select", { id: `${prefix}-kind`, onchange: (e) => {
    state.clockKind = e.target.value;
    live.hidden = state.clockKind !== "live";
    corr.hidden = state.clockKind !== "days";
  } }, kinds.map((k) => el("option", { value: k, selected: k === state.clockKind ? true : null }, t(`clock_kind_${k}`))));
  return el("div", { class: "field" }, el("label", { for: `${prefix}-kind` }, t("clock")), kind, live, corr);
}

// what the server takes as "clock"
export function clockBody(state) {
  if (state.clockKind === "live") return { minutes: state.minutes, increment: state.increment };
  if (state.clockKind === "days") return { days: state.days };
  return null;
}

// "5 + 3", "3 days per move" or "No clock"
export function clockText(clock) {
  if (!clock) return t("clock_none");
  if (clock.days !== undefined) return t("clock_days", { n: clock.days });
  const minutes = clock.minutes !== undefined ? clock.minutes : Math.round((clock.initial || 0) / 60000);
  const increment = clock.increment !== undefined ? clock.increment : 0;
  return `${num(minutes)} + ${num(increment)}`;
}

// the options that differ from the game's defaults, shortly: "Board size 7"
export function optionsText(game, options) {
  if (!game || !options) return "";
  const parts = [];
  for (const option of game.options) {
    if (!(option.name in options) || option.name === "first" || options[option.name] === option.default) continue;
    const value = options[option.name];
    parts.push(option.type === "bool" ? optionLabel(option) : `${optionLabel(option)} ${value}`);
  }
  return parts.join(" · ");
}

// a rating as people read it: rounded, with "?" while it is provisional
export function ratingText(value, provisional) {
  return `${num(Math.round(value))}${provisional ? "?" : ""}`;
}

// a change of rating: "+12.3" or "−12.3" (a real minus sign; "+12,3" in German), coloured, with words for a screen reader
export function ratingDelta(delta) {
  const up = delta >= 0;
  const size = num(Math.abs(delta), 1);
  return el("span", { class: `delta ${up ? "up" : "down"}` },
    el("span", { "aria-hidden": "true" }, `${up ? "+" : "\u2212"}${size}`),
    el("span", { class: "visually-hidden" }, t(up ? "rating_gained" : "rating_lost", { n: size })));
}

// a listed game's result: the winner, a draw, "aborted" (no result), or its status while it goes on
export function resultText(g) {
  if (g.status !== "over") return t(`status_${g.status}`);
  if (g.termination === "aborted") return t("aborted");
  if (g.result === "draw") return t("draw");
  return g.result === "*" ? t("status_over") : t("wins", { colour: colourName(g.result) });
}

// a tournament game's tournament (and round), linked
export function eventLink(event) {
  const round = event.round && event.round !== "-" ? ` · ${t("tour_round", { round: event.round })}` : "";
  return el("a", { href: `/tournaments/${encodeURIComponent(event.tournament)}`, "data-link": true, class: "event-link" },
    `${event.name}${round}`);
}

export function playerLink(name, attrs = {}) {
  return el("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true, class: "player-link", ...attrs }, name);
}
