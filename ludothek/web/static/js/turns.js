// "Your turn": how many of a logged-in player's games wait for his move. The count comes from
// /api/me and then live from a lobby socket of its own, open on every page while logged in (the
// lobby page hands over its socket's "turns" messages instead and this one rests meanwhile). The
// count shows as a badge on the header's "My games" link and as "(2) " before the tab's title;
// on request, a browser notification tells a player in another tab or window that it is his turn.
import { el, t, getLang, navigate, restartDelay } from "./app.js";
import { onNews } from "./challenges.js";

const NOTIFY = "ludothek.notify";
let count = 0;
let user = null;
let socket = null;
let retry = 0;
let retryTimer = null;
let paused = false;

export function turnCount() { return count; }

// from /api/me (at start and after logging in or out)
export function setTurns(name, n) {
  const changed = name !== user;
  user = name;
  count = name ? n || 0 : 0;
  show();
  if (changed || !name) reconnect();
}

// a "turns" message, from this module's socket or the lobby page's
export function onTurns(data) {
  const before = count;
  count = data.count || 0;
  show();
  if (count > before && data.game && document.hidden) notify(data.game);
}

// the lobby page has a socket of its own: this one rests while it is open
export function pauseTurnsSocket() { paused = true; reconnect(); }
export function resumeTurnsSocket() { paused = false; reconnect(); }

function reconnect() {
  clearTimeout(retryTimer);
  if (socket) { const old = socket; socket = null; old.close(); }
  if (user && !paused) connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby?lang=${getLang()}`);
  socket = ws;
  ws.onopen = () => {
    retry = 0;
    // the socket tells changes only: the count as it stands now (after a login, after a gap)
    fetch("/api/me", { cache: "no-store" }).then((r) => r.json()).then((data) => {
      if (socket === ws && data.user && data.user.name === user) onTurns({ count: data.your_turn || 0 });
    }).catch(() => {});
  };
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "turns") onTurns(data);
    else onNews(data);
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;  // closed on purpose
    socket = null;
    retry = Math.min(30000, (retry || 1000) * 2);
    retryTimer = setTimeout(() => { if (!socket && user && !paused) connect(); }, restartDelay(event) ?? retry);
  };
}

// ---------------------------------------------------------------------------- what shows
const PREFIX = /^\(\d+\) /;
let observing = false;

export function showTurns() { show(); }

function show() {
  const badge = document.getElementById("turns-badge");
  if (badge) {
    badge.hidden = count === 0;
    badge.textContent = String(count);
  }
  const link = document.getElementById("my-games");
  // a title, not an aria-label: the accessible name stays the visible text ("My games 2"; axe's
  // label-content-name-mismatch), the title says what the number means
  if (link) { link.removeAttribute("aria-label"); link.title = count ? t("your_turn_count", { n: count }) : ""; }
  applyTitle();
  if (!observing) {
    // the pages set the title as they draw: the count goes back in front whenever they do
    const title = document.querySelector("title");
    if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
    observing = true;
  }
}

function applyTitle() {
  const bare = document.title.replace(PREFIX, "");
  const wanted = count ? `(${count}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

// ---------------------------------------------------------------------------- notifications
export function notifySupported() { return typeof window.Notification === "function"; }
export function notifyWanted() {
  return notifySupported() && localStorage.getItem(NOTIFY) === "on" && Notification.permission === "granted";
}

// the permission is asked only when the player clicks the button
export async function setNotify(on) {
  if (!on) { localStorage.setItem(NOTIFY, "off"); return false; }
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  localStorage.setItem(NOTIFY, answer === "granted" ? "on" : "off");
  return answer === "granted";
}

function notify(game) {
  if (!notifyWanted()) return;
  const note = new Notification("Ludothek", { body: t("notify_your_turn"), tag: `ludothek-turn-${game}` });
  note.onclick = () => { window.focus(); navigate(`/play/${game}`); note.close(); };
}

// the switch the "My games" tab and the lobby show to logged-in players (null where the browser has no notifications)
export function notifyButton() {
  if (!notifySupported()) return null;
  const button = el("button", { type: "button", class: "btn", id: "notify-turns", "aria-pressed": notifyWanted() ? "true" : "false",
    onclick: async () => {
      const on = await setNotify(button.getAttribute("aria-pressed") !== "true");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (!on && Notification.permission === "denied") button.title = t("notify_denied");
    } }, t("notify_me"));
  return button;
}
