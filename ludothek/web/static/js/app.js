// Router, language, colour theme, connection state and API helpers. The pages are ES modules; no
// build step.
import { renderHome } from "./home.js";
import { renderGame } from "./game.js";
import { renderArchive } from "./archive.js";
import { renderRules } from "./rules.js";
import { renderLogin } from "./account.js";
import { renderLobby } from "./lobby.js";
import { renderProfile } from "./profile.js";
import { renderLeaderboard } from "./leaderboard.js";
import { renderPuzzles } from "./puzzles.js";
import { renderLearn } from "./lessons.js";
import { renderTournaments } from "./tournaments.js";
import { setTurns, showTurns } from "./turns.js";
import { renderChallenges, challengesLink, loadChallenges } from "./challenges.js";

let catalog = { en: {}, de: {} };
let lang = localStorage.getItem("ludothek.lang") || ((navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en");
let cleanup = null;

const entry = (key) => (catalog[lang] && catalog[lang][key]) ?? (catalog.en && catalog.en[key]);

// A text in the page's language. A number put in is written as the language writes numbers; a
// count `n` picks the text's form for one ("1 rated game"), key_one, where the catalogue has one.
export function t(key, vars = {}) {
  if (typeof vars.n === "number") {
    const form = `${key}_${new Intl.PluralRules(lang).select(vars.n)}`;
    if (entry(form) !== undefined) key = form;
  }
  let text = entry(key) ?? key;
  // a function, so that a value (a player's name) is put in as it is: "$&" in it is no pattern
  for (const [k, v] of Object.entries(vars)) {
    const shown = typeof v === "number" ? num(v, Number.isInteger(v) ? 0 : null) : String(v);
    text = text.replaceAll(`{${k}}`, () => shown);
  }
  return text;
}

// A number as people of the page's language read it: "162,3" in German, "162.3" in English;
// `digits` decimals (null: as many as it has, up to 2); thousands grouped only from 10 000 on.
export function num(value, digits = 0) {
  const places = digits === null ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, { ...places, useGrouping: "min2" }).format(value);
}
export function getLang() { return lang; }
export function colourName(colour) { return t(`colour_${colour}`) === `colour_${colour}` ? colour : t(`colour_${colour}`); }

// ---------------------------------------------------------------------------- the account
// Optional: a logged-in player's session is an HttpOnly cookie the page never sees; /api/me tells
// the page the name and the session's CSRF token, which every change sends as X-CSRF-Token.
let me = { user: null, csrf: null };
export function currentUser() { return me.user; }
export function setMe(data) {
  me = { user: (data && data.user) || null, csrf: (data && data.csrf) || null };
  renderAccount();
  setTurns(me.user ? me.user.name : null, data && data.your_turn);
  loadChallenges();
}
export async function refreshMe() {
  try { setMe(await (await fetch("/api/me", { cache: "no-store" })).json()); } catch (e) { /* offline: keep it */ }
  return me.user;
}

// the server answers errors in the language chosen on the page (Accept-Language)
export async function api(method, path, body, token, retried = false) {
  const headers = { "Content-Type": "application/json", "Accept-Language": lang };
  if (token) headers["X-Ludothek-Token"] = token;
  if (me.csrf && method !== "GET") headers["X-CSRF-Token"] = me.csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {  // no answer at all: the server is down or the network is gone
    offline("http", true);
    const err = new Error(t("connection_lost"));
    err.network = true;
    throw err;
  }
  offline("http", false);
  let data = null;
  // no JSON (a proxy's error page): the status, not the English status text
  try { data = await response.json(); } catch (e) { data = { error: `${t("error")} ${response.status}` }; }
  if (response.status === 403 && data.key === "web.csrf" && !retried) {
    // the session changed in another tab (a new login, a logout): learn its token and try once more
    await refreshMe();
    return api(method, path, body, token, true);
  }
  if (!response.ok) {
    const err = new Error(data.error || `${t("error")} ${response.status}`);
    err.status = response.status; err.key = data.key; err.data = data;
    throw err;
  }
  return data;
}

// the games and bot levels: the same for the life of the server, fetched once (at start, beside the
// texts) and shared by the pages
let catalogPromise = null;
export function gameCatalog() {
  if (!catalogPromise) catalogPromise = api("GET", "/api/catalog").catch((e) => { catalogPromise = null; throw e; });
  return catalogPromise;
}

// A guest's seats are tokens kept in this browser. A logged-in player's seats are his account's:
// the page keeps no token for them. At login the guest tokens of this browser are handed to the
// account (all(), then drop() for those it took: the server no longer takes them for those
// seats), and logging out forgets every token and invite code, so the next person at a shared
// computer cannot play or hand out the seats.
const TOKEN = "ludothek.token.", INVITE = "ludothek.invite.";
export const tokens = {
  get(id) { return localStorage.getItem(TOKEN + id); },
  set(id, token) { if (!me.user) localStorage.setItem(TOKEN + id, token); },
  drop(id) { localStorage.removeItem(TOKEN + id); },
  all() {
    return storedKeys(TOKEN).map((key) => ({ id: key.slice(TOKEN.length), token: localStorage.getItem(key) }));
  },
  forgetAll() { for (const key of [...storedKeys(TOKEN), ...storedKeys(INVITE)]) localStorage.removeItem(key); },
  invite(id) { return localStorage.getItem(INVITE + id); },
  setInvite(id, code) { localStorage.setItem(INVITE + id, code); },
};

function storedKeys(prefix) {
  const found = [];
  for (let k = 0; k < localStorage.length; k++) {
    const key = localStorage.key(k);
    if (key && key.startsWith(prefix)) found.push(key);
  }
  return found;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k === "style") node.style.cssText = v; // CSSOM: allowed by a CSP without 'unsafe-inline'
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---------------------------------------------------------------------------- connection state
// The banner under the header shows while any source reports the server unreachable: "http" (a
// fetch got no answer; a probe then asks every few seconds until one does) or "ws" (the game
// page's websocket is closed and reconnecting). A page that failed to load for that is loaded again.
const down = new Set();
let probing = null;
let routeFailed = false;

// A server that stops gracefully (a restart, a worker replaced) closes its websockets with code
// 1012, "service restart": another server or worker takes over at once, so a page reconnects
// within half a second (spread, so that a thousand pages do not come back in the same instant)
// instead of waiting out its backoff. For any other close: null (the caller's backoff).
export function restartDelay(event) { return event && event.code === 1012 ? 100 + Math.random() * 400 : null; }

export function offline(source, isDown) {
  const was = down.size > 0;
  if (isDown) down.add(source); else down.delete(source);
  const banner = document.getElementById("connection");
  if (banner) {
    banner.hidden = down.size === 0;
    if (down.size) banner.textContent = t("connection_lost");
  }
  if (down.has("http") && !probing) probing = setTimeout(probe, 1500);
  if (was && !down.size && routeFailed) route();
}

async function probe() {
  try {
    const response = await fetch("/api/i18n", { cache: "no-store" });
    probing = null;
    if (response.ok) { offline("http", false); return; }
  } catch (e) { probing = null; }
  if (down.has("http")) probing = setTimeout(probe, 2000);
}

// ---------------------------------------------------------------------------- colour theme
// Light or dark: the system's choice (prefers-color-scheme) until the header switch is used; the
// switch's choice is remembered. The stylesheet follows html[data-theme].
const THEME = "ludothek.theme";
const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
export function isDark() {
  const chosen = localStorage.getItem(THEME);
  return chosen ? chosen === "dark" : !!(darkQuery && darkQuery.matches);
}
function applyTheme() {
  const dark = isDark();
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  const button = document.getElementById("theme");
  if (button) button.setAttribute("aria-pressed", dark ? "true" : "false");
}
applyTheme();
if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener("change", applyTheme);

// ---------------------------------------------------------------------------- focus across redraws
// Pages are redrawn from scratch; a keyboard user's focus goes back to the control with the same
// identity (id or a data- key) in the new content.
const KEYS = ["id", "data-game", "data-opponent", "data-filter", "data-move", "data-index", "data-lang", "data-seek"];
export function focusKey() {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  for (const k of KEYS) if (node.hasAttribute && node.hasAttribute(k)) return [k, node.getAttribute(k)];
  return null;
}
export function restoreFocus(key, root = document) {
  if (!key) return false;
  const node = root.querySelector(`[${key[0]}="${CSS.escape(key[1])}"]`);
  if (node) { node.focus(); return true; }
  return false;
}

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

// the header's account menu: "Log in", or the name (as text, whatever it holds; a link to the
// player's profile), "My games" with the number of games waiting for his move, and "Log out" (in
// the header's menu, which a phone folds behind its menu button)
function renderAccount() {
  const box = document.getElementById("account");
  const more = document.getElementById("account-more");
  if (!box) return;
  box.replaceChildren();
  if (more) more.replaceChildren();
  if (me.user) {
    box.append(
      el("a", { class: "account-name", id: "account-name", href: `/players/${encodeURIComponent(me.user.name)}`, "data-link": true,
        title: t("logged_in_as", { name: me.user.name }) }, me.user.name),
      el("a", { class: "switch my-games", id: "my-games", href: "/archive?tab=mine", "data-link": true },
        t("archive_mine"), el("span", { class: "badge", id: "turns-badge", hidden: true })),
      challengesLink());
    (more || box).append(
      el("button", { type: "button", class: "switch", id: "logout", onclick: async () => {
        try { await api("POST", "/api/logout", {}); } catch (e) { /* the cookie ends with the session anyway */ }
        tokens.forgetAll();
        localStorage.removeItem("ludothek.lessons");  // the account keeps them; the next person starts afresh
        setMe(null);
        route();
      } }, t("logout")));
  } else {
    const here = location.pathname === "/login" ? null : location.pathname + location.search;
    box.append(el("a", { class: "switch", id: "login-link", href: here ? `/login?next=${encodeURIComponent(here)}` : "/login", "data-link": true }, t("nav_login")));
  }
  showTurns();
}

// the phone's header menu: opened by its button, closed by a choice in it, Escape or a new page
function setMenu(open) {
  const header = document.querySelector("header.top");
  const button = document.getElementById("menu-button");
  if (!header || !button) return;
  header.classList.toggle("open", open);
  button.setAttribute("aria-expanded", open ? "true" : "false");
}

function translateStatic() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
  const banner = document.getElementById("connection");
  if (banner && !banner.hidden) banner.textContent = t("connection_lost");
  for (const b of document.querySelectorAll("[data-lang]")) b.classList.toggle("on", b.dataset.lang === lang);
  renderAccount();
  for (const a of document.querySelectorAll("header nav a")) {
    const path = location.pathname;
    const href = a.getAttribute("href");
    a.classList.toggle("active", href === "/" ? path === "/" || path.startsWith("/play/") : path.startsWith(href));
  }
}

export async function route() {
  if (cleanup) { try { cleanup(); } catch (e) { /* ignore */ } cleanup = null; }
  setMenu(false);
  translateStatic();
  const root = document.getElementById("app");
  root.replaceChildren();
  document.title = "Ludothek";
  const path = location.pathname;
  let match;
  routeFailed = false;
  try {
    if ((match = path.match(/^\/play\/([A-Za-z0-9_-]+)$/))) cleanup = await renderGame(root, match[1]);
    else if (path === "/archive") cleanup = await renderArchive(root);
    else if ((match = path.match(/^\/rules(?:\/([a-z0-9_]+))?$/))) cleanup = await renderRules(root, match[1]);
    else if ((match = path.match(/^\/learn(?:\/([a-z0-9_]+))?$/))) cleanup = await renderLearn(root, match[1]);
    else if (path === "/login") cleanup = await renderLogin(root);
    else if (path === "/lobby") cleanup = await renderLobby(root);
    else if (path === "/challenges") cleanup = await renderChallenges(root);
    else if ((match = path.match(/^\/players\/([^/]+)$/))) cleanup = await renderProfile(root, decodeURIComponent(match[1]));
    else if ((match = path.match(/^\/leaderboard(?:\/([a-z0-9_]+))?$/))) cleanup = await renderLeaderboard(root, match[1]);
    else if ((match = path.match(/^\/puzzles(?:\/([a-z0-9_]+)(?:\/([A-Za-z0-9_-]+))?)?$/))) cleanup = await renderPuzzles(root, match[1], match[2]);
    else if ((match = path.match(/^\/tournaments(?:\/([A-Za-z0-9_-]+))?$/))) cleanup = await renderTournaments(root, match[1]);
    else cleanup = await renderHome(root);
  } catch (e) {  // the page could not load: say why; it loads again when the server is back
    routeFailed = !!e.network;
    root.append(el("div", { class: "card" }, el("p", { class: "err", role: "alert" }, e.message)));
  }
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && !event.ctrlKey && !event.metaKey && link.origin === location.origin) {
    event.preventDefault();
    navigate(link.getAttribute("href"));
  }
  const button = event.target.closest("[data-lang]");
  if (button) {
    lang = button.dataset.lang;
    localStorage.setItem("ludothek.lang", lang);
    route();
  }
  if (event.target.closest("#theme")) {
    localStorage.setItem(THEME, isDark() ? "light" : "dark");
    applyTheme();
  }
  if (event.target.closest("#menu-button")) {
    setMenu(document.getElementById("menu-button").getAttribute("aria-expanded") !== "true");
  }
});
document.addEventListener("keydown", (event) => {
  const button = document.getElementById("menu-button");
  if (event.key === "Escape" && button && button.getAttribute("aria-expanded") === "true") {
    setMenu(false);
    button.focus();
  }
});
window.addEventListener("popstate", route);

gameCatalog().catch(() => {});  // under way while the texts load
const meLoaded = refreshMe();
catalog = await (await fetch("/api/i18n")).json();
await meLoaded;
route();
