// Router, language and API helpers. The pages are ES modules; no build step.
import { renderHome } from "./home.js";
import { renderGame } from "./game.js";
import { renderArchive } from "./archive.js";
import { renderRules } from "./rules.js";

let catalog = { en: {}, de: {} };
let lang = localStorage.getItem("ludothek.lang") || ((navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en");
let cleanup = null;

export function t(key, vars = {}) {
  let text = (catalog[lang] && catalog[lang][key]) ?? (catalog.en && catalog.en[key]) ?? key;
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, v);
  return text;
}
export function getLang() { return lang; }
export function colourName(colour) { return t(`colour_${colour}`) === `colour_${colour}` ? colour : t(`colour_${colour}`); }

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Ludothek-Token"] = token;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) { const err = new Error(data.error || response.statusText); err.status = response.status; throw err; }
  return data;
}

export const tokens = {
  get(id) { return localStorage.getItem(`ludothek.token.${id}`); },
  set(id, token) { localStorage.setItem(`ludothek.token.${id}`, token); },
  invite(id) { return localStorage.getItem(`ludothek.invite.${id}`); },
  setInvite(id, code) { localStorage.setItem(`ludothek.invite.${id}`, code); },
};

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

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function translateStatic() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const b of document.querySelectorAll("[data-lang]")) b.classList.toggle("on", b.dataset.lang === lang);
  for (const a of document.querySelectorAll("header nav a")) {
    const path = location.pathname;
    const href = a.getAttribute("href");
    a.classList.toggle("active", href === "/" ? path === "/" || path.startsWith("/play") : path.startsWith(href));
  }
}

export async function route() {
  if (cleanup) { try { cleanup(); } catch (e) { /* ignore */ } cleanup = null; }
  translateStatic();
  const root = document.getElementById("app");
  root.replaceChildren();
  document.title = "Ludothek";
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/play\/([A-Za-z0-9_-]+)$/))) cleanup = await renderGame(root, match[1]);
  else if (path === "/archive") cleanup = await renderArchive(root);
  else if ((match = path.match(/^\/rules(?:\/([a-z]+))?$/))) cleanup = await renderRules(root, match[1]);
  else cleanup = await renderHome(root);
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
});
window.addEventListener("popstate", route);

catalog = await (await fetch("/api/i18n")).json();
route();
