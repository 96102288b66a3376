// The /login page: log in or sign up (an account is optional). After either, the guest seats of
// this browser are handed to the account, and the page goes back to where the player came from.
import { api, el, t, navigate, setMe, currentUser, tokens } from "./app.js";
import { handOverLessons } from "./lessons.js";

// The form is the address's: /login logs in, /login?mode=signup signs up (nothing remembered
// between visits, so that after Sign up → Log out the "Log in" link shows the log-in form).
export async function renderLogin(root) {
  const params = new URLSearchParams(location.search);
  const next = safeNext(params.get("next"));
  if (currentUser()) { navigate(next); return null; }
  const signup = params.get("mode") === "signup";
  const title = signup ? t("signup_title") : t("login_title");
  document.title = `${title} – Ludothek`;
  const name = el("input", { id: "account-user", name: "username", type: "text", required: true,
    autocomplete: "username", autocapitalize: "none", spellcheck: "false", maxlength: signup ? 20 : 64,
    pattern: signup ? "[A-Za-z0-9_\\-]{3,20}" : null, "aria-describedby": signup ? "name-hint" : null });
  const password = el("input", { id: "account-password", name: "password", type: "password", required: true,
    autocomplete: signup ? "new-password" : "current-password", minlength: signup ? 8 : null, maxlength: 256,
    "aria-describedby": signup ? "password-hint" : null });
  const error = el("p", { class: "err", id: "account-error", role: "alert" });
  const submit = el("button", { type: "submit", class: "btn primary", id: "account-submit" },
    signup ? t("signup_submit") : t("login_submit"));
  const form = el("form", { class: "account-form", id: signup ? "signup-form" : "login-form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      submit.disabled = true;
      try {
        const answer = await api("POST", signup ? "/api/signup" : "/api/login", { name: name.value, password: password.value });
        setMe(answer);
        await handOverGuestSeats();
        await handOverLessons();
        navigate(next);
      } catch (e) {
        error.textContent = e.message;
        submit.disabled = false;
        password.focus();
      }
    } },
    el("div", { class: "field" }, el("label", { for: "account-user" }, t("user_name")), name,
      signup ? el("div", { class: "note", id: "name-hint" }, t("name_hint")) : null),
    el("div", { class: "field" }, el("label", { for: "account-password" }, t("password")), password,
      signup ? el("div", { class: "note", id: "password-hint" }, t("password_hint")) : null),
    el("div", { class: "row" }, submit), error);
  const other = el("a", { href: "#", id: "account-switch", onclick: (event) => {
    event.preventDefault();
    if (signup) params.delete("mode"); else params.set("mode", "signup");
    const query = params.toString();
    history.replaceState({}, "", `/login${query ? `?${query}` : ""}`);
    root.replaceChildren();
    renderLogin(root).then(() => { const field = document.getElementById("account-user"); if (field) field.focus(); });
  } }, signup ? t("to_login") : t("to_signup"));
  root.append(el("div", { class: "card account-card" }, el("h1", {}, title),
    el("p", { class: "note" }, t("account_optional")), form, el("p", {}, other)));
  return null;
}

// the seats this browser holds as a guest become the account's (100 a request, as the server takes
// them); the tokens of those seats no longer act for them, so the page forgets them
async function handOverGuestSeats() {
  const held = tokens.all();
  for (let k = 0; k < held.length; k += 100) {
    try {
      const answer = await api("POST", "/api/me/games", { games: held.slice(k, k + 100) });
      for (const game of answer.claimed) tokens.drop(game.id);
    } catch (e) { /* they stay guest seats */ }
  }
}

// back to a page of this site only (never "//other.host" or "https://…")
function safeNext(value) {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/";
}
