// Zoom and pan for a board whose cells are too small to hit on the screen (the largest boards on a phone:
// cells of about 22 px). It works on the board's viewBox, so the drawing stays sharp and board.js
// knows nothing of it: the game page hands each newly drawn board to attach(). Zoom buttons show
// only on such a board; two fingers pinch, one finger drags the zoomed board (a drag never counts
// as a click on a cell), and a cell that takes the keyboard focus is brought into view. Labels
// too small to read at the current zoom are hidden.
import { el, t } from "./app.js";

const TARGET = 40;      // px: a cell this large is easy to hit with a finger
const MIN_LABEL = 8;    // px: smaller text is hidden rather than shown as specks
const DRAG = 8;         // px a finger moves before it drags instead of tapping
const STEP = 1.5;       // one press of a zoom button

export function boardZoom(wrap) {
  let svgEl = null, base = null;
  let view = null;      // {x, y, z}: the viewBox's corner (board units) and the zoom
  let most = 1;         // the largest zoom this board needs (or 1: no zoom offered)
  const pointers = new Map();
  let gesture = null, dragged = false;
  const bar = el("div", { class: "zoom-bar", role: "group", "aria-label": t("zoom_hint") });
  const out = el("button", { type: "button", class: "btn zoom-out", id: "zoom-out", "aria-label": t("zoom_out"), title: t("zoom_out"),
    onclick: () => zoomAt(centre(), view.z / STEP) }, "\u2212");
  const into = el("button", { type: "button", class: "btn zoom-in", id: "zoom-in", "aria-label": t("zoom_in"), title: t("zoom_in"),
    onclick: () => zoomAt(centre(), view.z * STEP) }, "+");
  bar.append(out, into);

  function centre() { return { x: view.x + base.w / view.z / 2, y: view.y + base.h / view.z / 2 }; }

  // px per board unit at zoom 1 (the viewBox is fitted into the svg's box, keeping its shape)
  function scale() {
    const box = svgEl.getBoundingClientRect();
    return Math.min(box.width / base.w, box.height / base.h) || 0;
  }

  // the smallest cell's size on the screen at zoom 1: the smaller side of its bounding box
  function smallestCell() {
    let least = Infinity;
    for (const cell of svgEl.querySelectorAll("polygon.cell[data-cell]")) {
      const b = cell.getBBox();
      least = Math.min(least, b.width, b.height);
    }
    return least === Infinity ? Infinity : least * scale();
  }

  function clamp(next) {
    const z = Math.min(most, Math.max(1, next.z));
    const w = base.w / z, h = base.h / z;
    return { z, x: Math.min(base.x + base.w - w, Math.max(base.x, next.x)), y: Math.min(base.y + base.h - h, Math.max(base.y, next.y)) };
  }

  // zoom to z keeping the board point p where it is on the screen
  function zoomAt(p, z) {
    const k = view.z / Math.min(most, Math.max(1, z));
    view = clamp({ z, x: p.x - (p.x - view.x) * k, y: p.y - (p.y - view.y) * k });
    apply();
  }

  function apply() {
    if (!svgEl) return;
    const w = base.w / view.z, h = base.h / view.z;
    svgEl.setAttribute("viewBox", `${view.x.toFixed(3)} ${view.y.toFixed(3)} ${w.toFixed(3)} ${h.toFixed(3)}`);
    svgEl.style.touchAction = view.z > 1 ? "none" : "pan-y";
    wrap.classList.toggle("zoomed", view.z > 1);
    wrap.dataset.zoom = view.z.toFixed(2);
    out.disabled = view.z <= 1.001;
    into.disabled = view.z >= most - 0.001;
    const k = scale() * view.z;
    for (const text of svgEl.querySelectorAll("text.cell-label, text.coord")) {
      const size = Number(text.getAttribute("font-size")) * k;
      text.style.display = size < MIN_LABEL ? "none" : "";
    }
  }

  // the board point under a screen point
  function boardPoint(clientX, clientY) {
    const matrix = svgEl.getScreenCTM();
    if (!matrix) return centre();
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: p.y };
  }

  wrap.addEventListener("pointerdown", (e) => {
    if (!svgEl || most <= 1 || !e.target.closest || !e.target.closest("svg.board")) return;
    if (e.isPrimary) pointers.clear();  // a new touch: fingers lifted outside the board are gone
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, z: view.z,
        at: boardPoint((a.x + b.x) / 2, (a.y + b.y) / 2) };
    } else if (pointers.size === 1) {
      gesture = { kind: "drag", from: { x: e.clientX, y: e.clientY }, view: { ...view } };
    }
  });
  wrap.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (gesture.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      dragged = true;
      zoomAt(gesture.at, gesture.z * Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance);
    } else if (gesture.kind === "drag" && view.z > 1) {
      const dx = e.clientX - gesture.from.x, dy = e.clientY - gesture.from.y;
      if (!dragged && Math.hypot(dx, dy) < DRAG) return;
      dragged = true;
      const k = scale() * view.z;
      view = clamp({ z: view.z, x: gesture.view.x - dx / k, y: gesture.view.y - dy / k });
      apply();
    }
  });
  const lift = (e) => {
    pointers.delete(e.pointerId);
    if (!pointers.size) gesture = null;
    else if (gesture && gesture.kind === "pinch") {  // one finger stays: it drags from here
      const [p] = [...pointers.values()];
      gesture = { kind: "drag", from: p, view: { ...view } };
    }
  };
  wrap.addEventListener("pointerup", lift);
  wrap.addEventListener("pointercancel", lift);
  // a drag or a pinch ends in no click on the cell under the finger
  wrap.addEventListener("click", (e) => {
    if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; }
  }, true);
  // the keyboard: a focused cell out of view comes into the middle
  wrap.addEventListener("focusin", (e) => {
    if (!svgEl || view.z <= 1 || !e.target.getBBox) return;
    const b = e.target.getBBox();
    const w = base.w / view.z, h = base.h / view.z;
    const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    if (cx < view.x || cx > view.x + w || cy < view.y || cy > view.y + h) {
      view = clamp({ z: view.z, x: cx - w / 2, y: cy - h / 2 });
      apply();
    }
  });

  // how far this board needs to zoom on this screen (again when the screen turns or resizes)
  function fit() {
    const least = scale() > 0 ? smallestCell() : Infinity;  // not laid out: nothing to measure
    most = least < TARGET ? Math.min(6, Math.max(2, (TARGET * 1.25) / least)) : 1;
    view = clamp(view);
    if (most > 1) { if (!bar.isConnected) wrap.append(bar); } else bar.remove();
    apply();
  }
  if (window.ResizeObserver) {
    let width = 0;
    new ResizeObserver(() => {
      const now = wrap.clientWidth;
      if (svgEl && now !== width) { width = now; fit(); }
    }).observe(wrap);
  }

  return {
    // a newly drawn board: the same zoom and place as the one it replaces
    attach(board) {
      svgEl = board;
      const b = board.viewBox.baseVal;
      const next = { x: b.x, y: b.y, w: b.width, h: b.height };
      if (!base || next.w !== base.w || next.h !== base.h || next.x !== base.x || next.y !== base.y) view = null;
      base = next;
      view = view || { x: base.x, y: base.y, z: 1 };
      fit();
    },
    get zoom() { return view ? view.z : 1; },
  };
}
