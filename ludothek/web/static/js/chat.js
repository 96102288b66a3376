// Chat (web/chat.py): a card on the game page (players' room or spectators' room) and in the lobby.
// It rides on the page's own websocket: the page hands it every "chat" message and every error
// answering one of its own ("chat-N" refs). Text is always put in as text (never innerHTML), and
// links stay plain text.
import { api, el, t, currentUser } from "./app.js";

const MAX = 500;
const MAX_REASON = 300;
let refs = 0;

// `socket()`: the page's open websocket or null; `room`: "players" | "spectators" | "lobby".
export function chatCard(socket, room) {
  const chat = { room, socket, messages: [], muted: new Set(), pending: new Set(), askedWs: null, askedRoom: null };
  chat.title = el("h2", { id: "chat-title" });
  chat.log = el("div", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: "0" });
  chat.error = el("p", { class: "err", id: "chat-error", role: "alert" });
  chat.status = el("p", { class: "note", id: "chat-status", role: "status" });
  chat.form = el("form", { class: "chat-form", id: "chat-form" });
  chat.input = el("input", { type: "text", id: "chat-input", maxlength: String(MAX), autocomplete: "off", "aria-label": t("chat_input") });
  chat.form.append(chat.input, el("button", { class: "btn", type: "submit", id: "chat-send" }, t("chat_send")));
  chat.form.addEventListener("submit", (event) => { event.preventDefault(); send(chat); });
  chat.note = el("p", { class: "note", id: "chat-login" }, t("chat_login"));
  chat.reportBox = el("div", { class: "chat-report", id: "chat-report", hidden: true });
  chat.node = el("section", { class: "card chat", id: "chat", "aria-labelledby": "chat-title" },
    chat.title, chat.log, chat.reportBox, chat.form, chat.note, chat.error, chat.status);
  chat.receive = (data) => receive(chat, data);
  chat.setRoom = (newRoom, ws) => setRoom(chat, newRoom, ws);
  chat.mayPost = true;
  if (currentUser()) api("GET", "/api/chat/relations").then((r) => { setRelations(chat, r); draw(chat); }).catch(() => {});
  setRoom(chat, room, null);
  window.ludothekChat = chat;  // read by the browser tests
  return chat;
}

// The page's room (a game page's socket changes rooms when it takes a seat) or socket changed:
// ask for the room's messages on the socket now open.
function setRoom(chat, room, ws) {
  chat.room = room;
  // guests may write only in their own game's players' chat
  chat.mayPost = !!currentUser() || room === "players";
  chat.title.textContent = t(`chat_${room}`);
  chat.form.hidden = !chat.mayPost;
  chat.note.hidden = chat.mayPost;
  if (ws && ws.readyState === 1 && (ws !== chat.askedWs || room !== chat.askedRoom)) {
    chat.askedWs = ws;
    chat.askedRoom = room;
    ws.send(JSON.stringify({ type: "chat_history", ref: `chat-${++refs}` }));
  }
}

function send(chat) {
  const ws = chat.socket();
  const text = chat.input.value;
  chat.error.textContent = "";
  if (!text.trim()) return;
  // the server refuses it too; a text too large to read would come back without its ref
  if (text.length > MAX) { chat.error.textContent = t("chat_too_long", { length: text.length, limit: MAX }); return; }
  if (!ws || ws.readyState !== 1) { chat.error.textContent = t("connection_lost"); return; }
  const ref = `chat-${++refs}`;
  chat.pending.add(ref);
  ws.send(JSON.stringify({ type: "chat", text, ref }));
}

function receive(chat, data) {
  if (data.type === "error") {
    chat.pending.delete(data.ref);
    chat.error.textContent = data.error;
    return;
  }
  if (data.type === "ok") {
    if (chat.pending.delete(data.ref)) chat.input.value = "";
    return;
  }
  if (data.room !== chat.room) return;  // an answer for the room this page just left
  if (data.replace) chat.messages = [];
  const known = new Set(chat.messages.map((m) => m.id));
  for (const m of data.messages) if (!known.has(m.id)) chat.messages.push(m);
  chat.messages.sort((a, b) => a.id - b.id);
  chat.messages = chat.messages.slice(-200);
  draw(chat);
}

function draw(chat) {
  const stick = chat.log.scrollTop + chat.log.clientHeight >= chat.log.scrollHeight - 4;
  chat.log.replaceChildren(...chat.messages.filter((m) => !m.name || !chat.muted.has(m.name.toLowerCase()) || m.mine).map((m) => line(chat, m)));
  if (!chat.messages.length) chat.log.append(el("p", { class: "note chat-empty" }, t("chat_empty")));
  if (stick) chat.log.scrollTop = chat.log.scrollHeight;
}

function line(chat, m) {
  const time = new Date(m.at * 1000).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  const who = m.name || t("chat_guest");
  const item = el("p", { class: m.mine ? "chat-line mine" : "chat-line", "data-id": String(m.id), "data-name": m.name || "" },
    el("span", { class: "chat-time" }, time), " ",
    el("strong", { class: "chat-name" }, who), " ",
    el("span", { class: "chat-text" }, m.text));  // a text node: markup stays text, links stay text
  if (currentUser() && !m.mine && m.name) {
    const menu = el("details", { class: "chat-actions" },
      el("summary", { "aria-label": t("chat_actions", { name: m.name }) }, "⋯"),
      el("button", { type: "button", class: "btn small", "data-act": "mute", onclick: () => { menu.open = false; relate(chat, m.name, "mute"); } }, t("chat_mute")),
      el("button", { type: "button", class: "btn small", "data-act": "block", onclick: () => { menu.open = false; relate(chat, m.name, "block"); } }, t("chat_block")),
      el("button", { type: "button", class: "btn small", "data-act": "report", onclick: () => { menu.open = false; report(chat, m); } }, t("chat_report")));
    item.append(" ", menu);
  }
  return item;
}

function setRelations(chat, r) {
  chat.muted = new Set([...r.mute, ...r.block].map((n) => n.toLowerCase()));
}

async function relate(chat, name, kind, on = true) {
  chat.error.textContent = "";
  try {
    setRelations(chat, await api("POST", "/api/chat/relations", { name, kind, on }));
    const said = on ? (kind === "mute" ? "chat_muted" : "chat_blocked") : (kind === "mute" ? "chat_unmuted" : "chat_unblocked");
    chat.status.replaceChildren(t(said, { name }));
    if (on) chat.status.append(" ", el("button", { type: "button", class: "btn small", id: "chat-undo", onclick: () => relate(chat, name, kind, false) }, t("chat_undo")));
    else { chat.askedWs = null; setRoom(chat, chat.room, chat.socket()); }  // the server held his messages back: ask again
    draw(chat);
  } catch (e) { chat.error.textContent = e.message; }
}

// a report names a reason in the reporter's own words (optional); the box stays outside the log,
// so that new messages do not wipe what is being typed
function report(chat, m) {
  chat.error.textContent = "";
  chat.status.textContent = "";
  const reason = el("input", { type: "text", id: "chat-report-reason", maxlength: String(MAX_REASON), autocomplete: "off" });
  const error = el("p", { class: "err", id: "chat-report-error", role: "alert" });
  const close = () => { chat.reportBox.hidden = true; chat.reportBox.replaceChildren(); chat.input.focus(); };
  const form = el("form", { class: "chat-report-form", id: "chat-report-form", "data-message": String(m.id) },
    el("p", { id: "chat-report-title" }, el("strong", {}, t("chat_report_title", { name: m.name })), " ",
      el("q", { class: "chat-text" }, m.text.length > 80 ? `${m.text.slice(0, 80)}…` : m.text)),
    el("div", { class: "field" }, el("label", { for: "chat-report-reason" }, t("chat_report_reason", { n: MAX_REASON })), reason),
    el("div", { class: "row" },
      el("button", { type: "submit", class: "btn", id: "chat-report-send" }, t("chat_report_send")),
      el("button", { type: "button", class: "btn", id: "chat-report-cancel", onclick: close }, t("chat_cancel"))),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (reason.value.length > MAX_REASON) { error.textContent = t("chat_reason_too_long", { length: reason.value.length, limit: MAX_REASON }); return; }
    try {
      await api("POST", "/api/chat/reports", { message: m.id, reason: reason.value.trim() ? reason.value : null });
      close();
      chat.status.textContent = t("chat_reported");
    } catch (e) { error.textContent = e.message; }
  });
  chat.reportBox.replaceChildren(form);
  chat.reportBox.hidden = false;
  reason.focus();
}

// the account's muted and blocked players, each with a button that undoes it (the challenges page)
export async function relationsCard() {
  const box = el("section", { class: "card", id: "chat-relations", "aria-labelledby": "chat-relations-title" });
  const status = el("p", { class: "note", id: "chat-relations-status", role: "status" });
  const error = el("p", { class: "err", id: "chat-relations-error", role: "alert" });
  const draw = (r) => {
    const list = el("ul", { class: "relations-list" });
    for (const kind of ["mute", "block"]) {
      for (const name of r[kind]) {
        list.append(el("li", { "data-player": name, "data-kind": kind },
          el("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true }, name), " ",
          el("span", { class: "tag" }, t(`chat_relation_${kind}`)), " ",
          el("button", { type: "button", class: "btn small", "data-undo": kind, onclick: () => undo(name, kind) },
            t(kind === "mute" ? "chat_unmute" : "chat_unblock", { name }))));
      }
    }
    box.replaceChildren(el("h2", { id: "chat-relations-title" }, t("chat_relations_title")),
      list.childElementCount ? list : el("p", { class: "note" }, t("chat_relations_none")), status, error);
  };
  const undo = async (name, kind) => {
    error.textContent = "";
    try {
      draw(await api("POST", "/api/chat/relations", { name, kind, on: false }));
      status.textContent = t(kind === "mute" ? "chat_unmuted" : "chat_unblocked", { name });
    } catch (e) { error.textContent = e.message; }
  };
  try { draw(await api("GET", "/api/chat/relations")); } catch (e) { draw({ mute: [], block: [] }); error.textContent = e.message; }
  return box;
}
