// A player's rating over time as an inline SVG: a line from the starting rating through one point
// per rated game, the highest and lowest value on the left, the first and last date below, a title
// and a description for screen readers. The colours are the stylesheet's, so it reads in dark mode too.
import { t, num, getLang } from "./app.js";
import { svg } from "./board.js";

// about the size it is drawn at, so that its labels read at the page's size
const W = 380, H = 150, LEFT = 40, RIGHT = 10, TOP = 10, BOTTOM = 24;

function text(tag, attrs, content) {
  const node = svg(tag, attrs);
  node.textContent = content;
  return node;
}

function day(at) {
  return new Date(at * 1000).toLocaleDateString(getLang(), { year: "numeric", month: "short", day: "numeric" });
}

// history: [{at, value, deviation, game_id}] oldest first; start: {value} where every rating
// starts (the line's first point, at the first game's date); id: unique on the page
export function ratingChart(history, id, gameTitle, start) {
  const points = start ? [{ at: history[0].at, value: start.value, start: true }, ...history] : history;
  const values = points.map((h) => h.value);
  const low = Math.floor((Math.min(...values) - 10) / 10) * 10;
  const high = Math.ceil((Math.max(...values) + 10) / 10) * 10;
  const x = (k) => points.length === 1 ? LEFT + (W - LEFT - RIGHT) / 2 : LEFT + k * (W - LEFT - RIGHT) / (points.length - 1);
  const y = (v) => TOP + (high - v) * (H - TOP - BOTTOM) / (high - low);
  const first = history[0], last = history[history.length - 1];
  const rating = (v) => num(Math.round(v));
  const root = svg("svg", { class: "rating-chart", id, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`,
    "data-points": points.length });
  root.append(
    text("title", { id: `${id}-title` }, t("rating_chart", { game: gameTitle })),
    text("desc", { id: `${id}-desc` }, history.length === 1
      ? t("rating_chart_one", { value: rating(first.value), date: day(first.at), from: rating(points[0].value) })
      : t("rating_chart_desc", { n: history.length, from: rating(points[0].value), to: rating(last.value),
        high: rating(Math.max(...values)), low: rating(Math.min(...values)), start: day(first.at), end: day(last.at) })),
    svg("rect", { class: "chart-back", x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM }));
  for (const v of [high, low]) {
    root.append(svg("line", { class: "chart-grid", x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v) }),
      text("text", { class: "chart-label", x: LEFT - 6, y: y(v) + 4, "text-anchor": "end" }, num(v)));
  }
  root.append(text("text", { class: "chart-label", x: LEFT, y: H - 8, "text-anchor": "start" }, day(first.at)));
  if (history.length > 1) root.append(text("text", { class: "chart-label", x: W - RIGHT, y: H - 8, "text-anchor": "end" }, day(last.at)));
  if (points.length > 1) {
    root.append(svg("polyline", { class: "chart-line", points: points.map((h, k) => `${x(k).toFixed(1)},${y(h.value).toFixed(1)}`).join(" ") }));
  }
  points.forEach((h, k) => {
    const point = svg("circle", { class: "chart-point" + (h.start ? " start" : ""), cx: x(k).toFixed(1), cy: y(h.value).toFixed(1),
      r: points.length > 40 ? 2.5 : points.length === 1 ? 5 : 3.5 });
    point.append(text("title", {}, h.start ? `${t("rating_start")}: ${rating(h.value)}` : `${rating(h.value)} · ${day(h.at)}`));
    root.append(point);
  });
  return root;
}
