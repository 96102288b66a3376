// Quick pairing in the lobby (issue 32): a button per game and standard clock; a logged-in player
// who presses one waits there until someone else presses the same, then both go to a rated game
// (the server pairs them, by rating when several wait; the waiting page hears of it over the lobby
// socket as "paired", handled in challenges.js).
import { api, el, t, currentUser, navigate } from "./app.js";
import { gameTitle } from "./setup.js";

export function quickPairing(games) {
  const box = el("section", { class: "card quick-pairing", id: "quick-pairing", "aria-labelledby": "quick-title" });
  const status = el("p", { class: "note", id: "quick-status", role: "status" });
  const error = el("p", { class: "err", id: "quick-error", role: "alert" });
  let waiting = null;
  let clocks = ["3+2", "5+3", "10+5"];
  let counts = {};
  const draw = () => {
    box.replaceChildren(el("h2", { id: "quick-title", style: "margin-top:0" }, t("quick_title")),
      el("p", { class: "note" }, currentUser() ? t("quick_hint") : t("quick_login")));
    const table = el("div", { class: "quick-grid" });
    for (const game of games) {
      table.append(el("span", { class: "quick-game" }, gameTitle(game)));
      for (const clock of clocks) {
        const pool = `${game.name}|${clock}`;
        const n = counts[pool] || 0;
        const label = clock.replace("+", " + ");
        table.append(el("button", { type: "button", class: "btn" + (waiting === pool ? " primary" : ""), "data-pool": pool,
          "aria-pressed": waiting === pool ? "true" : "false", disabled: currentUser() ? null : true,
          "aria-label": `${gameTitle(game)} ${label}${n ? `, ${t("quick_count", { n })}` : ""}`,
          onclick: () => (waiting === pool ? leave() : join(game.name, clock)) }, label, n ? el("span", { class: "badge" }, String(n)) : ""));
      }
    }
    box.append(table, error, status);
  };
  const refresh = async () => {
    try {
      const data = await api("GET", "/api/quick");
      clocks = data.clocks; counts = data.waiting;
      if (waiting && data.mine !== waiting) waiting = data.mine;
    } catch (e) { /* keep what shows */ }
    draw();
  };
  const join = async (game, clock) => {
    error.textContent = "";
    try {
      const answer = await api("POST", "/api/quick", { game, clock });
      if (answer.game) { waiting = null; navigate(`/play/${answer.game}`); return; }
      waiting = answer.waiting;
      status.textContent = t("quick_waiting");
    } catch (e) { error.textContent = e.message; }
    refresh();
  };
  const leave = async () => {
    if (!waiting) return;
    waiting = null;
    status.textContent = "";
    try { await api("DELETE", "/api/quick"); } catch (e) { /* its place goes when the page has gone */ }
    refresh();
  };
  draw();
  refresh();
  const timer = setInterval(() => { if (document.body.contains(box)) refresh(); else clearInterval(timer); }, 5000);
  box.leave = () => { clearInterval(timer); leave(); };
  return box;
}
