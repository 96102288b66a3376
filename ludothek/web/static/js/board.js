// SVG boards: draws what the server sends (geometry, pieces, legal targets) and reports clicks
// on cells; it knows no rules and no game. It branches on the board kind: the families hextri
// (triangle of hexagons), tri66 (hexagon of 66 triangles) and grid (6x4 grid with a tray), and
// the generic kind "cells" (any polygons with stacks of discs; see ludothek/web/boards.py).
// A board one plays on is also a keyboard widget: every cell (and every die in a tray) is focusable
// with a roving tabindex, the arrow keys move the focus to the nearest cell in that direction on
// the screen, Enter and Space act like a click, and each cell is labelled with its name and what
// stands on it, read from the same board data the drawing uses.
import { t, colourName } from "./app.js";

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

function hull(points) {
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [], upper = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower.at(-2), lower.at(-1), q) <= 1e-9) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper.at(-2), upper.at(-1), q) <= 1e-9) upper.pop(); upper.push(q); }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

const pts = (list) => list.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");

function defs() {
  return svg("defs", {},
    svg("radialGradient", { id: "stone-b", cx: "35%", cy: "30%", r: "75%" },
      svg("stop", { offset: "0%", "stop-color": "#6d6d6d" }), svg("stop", { offset: "55%", "stop-color": "#232323" }), svg("stop", { offset: "100%", "stop-color": "#0b0b0b" })),
    svg("radialGradient", { id: "stone-w", cx: "35%", cy: "30%", r: "80%" },
      svg("stop", { offset: "0%", "stop-color": "#ffffff" }), svg("stop", { offset: "65%", "stop-color": "#ece6da" }), svg("stop", { offset: "100%", "stop-color": "#bdb3a2" })),
    svg("radialGradient", { id: "pawn", cx: "35%", cy: "30%", r: "80%" },
      svg("stop", { offset: "0%", "stop-color": "#ff8a6a" }), svg("stop", { offset: "60%", "stop-color": "#c8322b" }), svg("stop", { offset: "100%", "stop-color": "#7d1611" })),
    svg("linearGradient", { id: "wood", x1: "0", y1: "0", x2: "1", y2: "1" },
      svg("stop", { offset: "0%", "stop-color": "#7a5431" }), svg("stop", { offset: "100%", "stop-color": "#4f3420" })),
    svg("filter", { id: "shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
      svg("feDropShadow", { dx: "0.04", dy: "0.07", stdDeviation: "0.06", "flood-color": "#000", "flood-opacity": "0.45" })),
  );
}

// pip layouts on a unit square centred at 0
const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};
const CHESS = { 1: "\u265A", 2: "\u265F", 3: "\u265E", 4: "\u265D", 5: "\u265C", 6: "\u265B" };

export function dieFace(x, y, size, face, colour, style = "pips", temporary = false) {
  const g = svg("g", { class: "piece", "pointer-events": "none" });
  const white = colour === "white";
  if (style === "chess") {
    g.append(svg("text", {
      x, y: y + size * 0.36, "text-anchor": "middle", "font-size": size * 1.25,
      fill: white ? "#fbf7ee" : "#241f1b", stroke: white ? "#3b3128" : "#c9b79c", "stroke-width": size * 0.035,
      filter: "url(#shadow)", "font-family": "DejaVu Sans, sans-serif",
    }, document.createTextNode(CHESS[face] || "?")));
  } else {
    g.append(svg("rect", {
      x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size * 0.18,
      fill: white ? "#fbf7ee" : "#2e2a26", stroke: white ? "#6b5b45" : "#000", "stroke-width": size * 0.04, filter: "url(#shadow)",
    }));
    for (const [px, py] of PIPS[face] || []) {
      g.append(svg("circle", { cx: x + px * size * 0.27, cy: y + py * size * 0.27, r: size * 0.095, fill: white ? "#2a2a2a" : "#f4ead7" }));
    }
  }
  if (temporary) {
    g.append(svg("rect", {
      x: x - size * 0.62, y: y - size * 0.62, width: size * 1.24, height: size * 1.24, rx: size * 0.25, fill: "none",
      stroke: "#e39b1b", "stroke-width": size * 0.07, "stroke-dasharray": `${size * 0.16} ${size * 0.1}`,
    }));
  }
  return g;
}

// a die seen from above with its four side faces (the grid kind's pieces)
const GRID_DIE_COLOURS = { III: "#2f62b5", IV: "#c0392b", V: "#262626" };

export function gridDie(x, y, size, die, faces, flip = false) {
  const g = svg("g", { class: "piece", "pointer-events": "none" });
  g.append(svg("rect", {
    x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size * 0.16,
    fill: GRID_DIE_COLOURS[die] || "#777", stroke: "#111", "stroke-width": size * 0.03, filter: "url(#shadow)",
  }));
  // the four side faces as bevelled trapezoids, each with its number
  const h = size / 2, i = size * 0.27;
  const sides = [
    [[-h, -h], [h, -h], [i, -i], [-i, -i]], [[h, -h], [h, h], [i, i], [i, -i]],
    [[h, h], [-h, h], [-i, i], [i, i]], [[-h, h], [-h, -h], [-i, -i], [-i, i]],
  ];
  const s = flip ? -1 : 1;
  sides.forEach((quad, k) => {
    g.append(svg("polygon", { points: pts(quad.map(([a, b]) => [x + s * a, y + s * b])), fill: k % 2 ? "rgba(0,0,0,.18)" : "rgba(255,255,255,.12)" }));
  });
  if (faces) {
    const off = size * 0.36;
    [[0, -off], [off, 0], [0, off], [-off, 0]].forEach(([dx, dy], k) => {
      g.append(svg("text", {
        x: x + s * dx, y: y + s * dy + size * 0.075, "text-anchor": "middle", "font-size": size * 0.22,
        "font-weight": "700", fill: "#fff", "font-family": "DejaVu Sans, sans-serif",
      }, document.createTextNode(String(faces[k]))));
    });
  }
  g.append(svg("text", {
    x, y: y + size * 0.06, "text-anchor": "middle", "font-size": size * 0.16, fill: "rgba(255,255,255,.75)",
    "font-family": "DejaVu Serif, serif", "font-weight": "700",
  }, document.createTextNode(die)));
  return g;
}

/**
 * Draw a board.
 * opts: flip, sources (Set of cells with a move), targets (Set), selected, last (cells),
 * threatened (cells), diceStyle ("pips"|"chess"), onCell(name), labels (bool),
 * focus (the cell that takes the keyboard focus), onFocus(name), title (a picture's name for
 * screen readers; without onCell and title the picture is hidden from them)
 */
export function drawBoard(geometry, board, opts = {}) {
  const cells = geometry.cells || [];
  const all = cells.flatMap((c) => c.points);
  let minX = Math.min(...all.map((p) => p[0])), maxX = Math.max(...all.map((p) => p[0]));
  let minY = Math.min(...all.map((p) => p[1])), maxY = Math.max(...all.map((p) => p[1]));
  const kind = geometry.kind;
  if (kind === "cells") [minX, minY, maxX, maxY] = [0, 0, geometry.width ?? maxX, geometry.height ?? maxY];
  const map = opts.flip ? ([x, y]) => [minX + maxX - x, minY + maxY - y] : (p) => p;
  const unit = kind === "grid" ? 1 : kind === "tri66" ? 1.15 : 1;
  const pad = unit * (kind === "cells" ? 0.35 : opts.labels === false ? 0.5 : kind === "hextri" ? 1.6 + 0.42 * Math.max(1, (geometry.side || 9) / 9) : 1.2);
  let width = maxX - minX + 2 * pad;
  const trayWidth = kind === "grid" && (board.tray || []).length ? 1.8 : 0;  // no empty tray: the board stays centred
  const interactive = typeof opts.onCell === "function";
  const root = svg("svg", {
    class: "board", xmlns: NS,
    viewBox: `${(minX - pad).toFixed(3)} ${(minY - pad).toFixed(3)} ${(width + trayWidth).toFixed(3)} ${(maxY - minY + 2 * pad).toFixed(3)}`,
    "font-family": "DejaVu Sans, sans-serif",
    role: interactive ? "application" : opts.title ? "img" : null,
    "aria-label": interactive ? `${t("board")}. ${t("board_help")}` : opts.title || null,
    "aria-hidden": interactive || opts.title ? null : "true",
  });
  const focusables = []; // {name, node, x, y, ring}: the keyboard's cells, in screen coordinates
  root.append(defs());
  const sources = opts.sources || new Set(), targets = opts.targets || new Set();
  const last = new Set(opts.last || []), threatened = new Set(opts.threatened || []);
  const byName = Object.fromEntries(cells.map((c) => [c.name, c]));

  // frame
  if (kind === "cells") {
    root.append(svg("rect", {
      x: minX - pad * 0.6, y: minY - pad * 0.6, width: maxX - minX + pad * 1.2, height: maxY - minY + pad * 1.2,
      rx: pad * 0.5, fill: "url(#wood)", stroke: "#4f3420", "stroke-width": 0.06,
    }));
  } else root.append(svg("polygon", {
    points: pts(hull(all.map(map))), fill: kind === "grid" ? "#5a4330" : "url(#wood)", stroke: kind === "grid" ? "#5a4330" : "#4f3420",
    "stroke-width": unit * (kind === "tri66" ? 0.9 : kind === "grid" ? 0.35 : 0.7), "stroke-linejoin": "round",
  }));

  const cellLayer = svg("g", {}), pieceLayer = svg("g", {}), markLayer = svg("g", {}), labelLayer = svg("g", {});
  root.append(cellLayer, labelLayer, markLayer, pieceLayer);
  const marked = new Set(board.marked || []);
  for (const cell of cells) {
    let fill;
    if (kind === "cells") fill = cell.fill || "#ecd8b0";
    else if (kind === "hextri") fill = "#ecd8b0";
    else if (kind === "tri66") fill = marked.has(cell.name) ? (cell.up ? "#cfe2f3" : "#5f88ab") : (cell.up ? "#f3e4c6" : "#b48655");
    else fill = cell.row === 1 ? "#d9c7e6" : cell.row === 6 ? "#c9e0cf" : ((cell.row + cell.col) % 2 ? "#efe3c9" : "#e3d2b0");
    const poly = svg("polygon", {
      points: pts(cell.points.map(map)), fill, class: "cell" + (sources.has(cell.name) ? " src" : "") + (targets.has(cell.name) ? " tgt" : ""),
      stroke: kind === "tri66" ? "#5a3f26" : "#8a6a45", "stroke-width": unit * (kind === "grid" ? 0.025 : 0.05), "data-cell": cell.name,
      "stroke-linejoin": "round",
    });
    if (opts.onCell) poly.addEventListener("click", () => opts.onCell(cell.name));
    cellLayer.append(poly);
    const [cx, cy] = map([cell.x, cell.y]);
    if (interactive) {
      poly.setAttribute("tabindex", "-1");
      poly.setAttribute("role", "button");
      poly.setAttribute("aria-label", cellLabel(kind, cell, board, {
        selected: opts.selected === cell.name, source: sources.has(cell.name), target: targets.has(cell.name),
        last: last.has(cell.name), threatened: threatened.has(cell.name),
      }));
      focusables.push({ name: cell.name, node: poly, x: cx, y: cy, ring: shrink(cell.points, [cell.x, cell.y], 0.9).map(map) });
    }
    if (last.has(cell.name)) {
      markLayer.append(svg("polygon", {
        points: pts(shrink(cell.points, [cell.x, cell.y], kind === "tri66" ? 0.8 : 0.86).map(map)), fill: "rgba(240,190,60,.35)",
        stroke: "#e0a020", "stroke-width": unit * 0.09, "pointer-events": "none", "stroke-linejoin": "round",
      }));
    }
    if (opts.selected === cell.name) {
      markLayer.append(svg("polygon", {
        points: pts(shrink(cell.points, [cell.x, cell.y], 0.86).map(map)), fill: "rgba(47,111,176,.25)",
        stroke: "#2f6fb0", "stroke-width": unit * 0.1, "pointer-events": "none",
      }));
    }
    if (kind === "cells" && cell.label) {
      const mapped = cell.points.map(map);
      const left = Math.min(...mapped.map((p) => p[0])), top = Math.min(...mapped.map((p) => p[1]));
      labelLayer.append(svg("text", {
        x: left + 0.07, y: top + 0.22, "font-size": 0.2, fill: "#8a6a45", "pointer-events": "none", class: "cell-label",
      }, document.createTextNode(cell.label)));
    }
    if (kind === "tri66" && opts.labels !== false && !(board.dice || {})[cell.name]) {
      labelLayer.append(svg("text", {
        x: cx, y: cy + 0.11, "text-anchor": "middle", "font-size": 0.3, fill: cell.up ? "#9b8260" : "#e6cfae", "pointer-events": "none",
        class: "cell-label",
      }, document.createTextNode(cell.name)));
    }
  }

  // coordinates
  if (opts.labels !== false) {
    const label = (x, y, text, size = 0.42) => labelLayer.append(svg("text", {
      x, y: y + size * 0.35, "text-anchor": "middle", "font-size": size * unit, fill: "#8a6a45", "pointer-events": "none", "font-weight": "600",
      class: "coord", "aria-hidden": "true",
    }, document.createTextNode(text)));
    if (kind === "hextri") {
      const side = geometry.side;
      const size = 0.42 * Math.max(1, side / 9);
      for (let r = 0; r < side; r++) {
        const first = byName[`${String.fromCharCode(97 + r)}1`];
        label(...map([first.x - 1.55 - size, first.y]), String.fromCharCode(97 + r), size);
      }
      for (let c = 0; c < side; c++) {
        const cell = byName[`${String.fromCharCode(97 + side - 1)}${c + 1}`];
        label(...map([cell.x, cell.y + 1.35 + size * 0.8]), String(c + 1), size);
      }
    } else if (kind === "tri66") {
      for (const row of geometry.rows) {
        const rowCells = cells.filter((c) => c.name.startsWith(row));
        const first = rowCells[0], lastCell = rowCells.at(-1);
        label(...map([first.x - 1.6, first.y]), row, 0.55);
        label(...map([lastCell.x + 1.6, lastCell.y]), row, 0.55);
      }
    } else if (kind === "grid") {
      for (let r = 1; r <= geometry.rows; r++) label(...map([-0.55, r - 0.5]), String(r), 0.32);
      for (let c = 1; c <= geometry.columns; c++) label(...map([c - 0.5, geometry.rows + 0.55]), String(c), 0.32);
    }
  }
  if (kind === "grid") {
    const [a, b] = [map([0, 3]), map([4, 3])];
    markLayer.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#5a4330", "stroke-width": 0.07, "pointer-events": "none" }));
  }

  // pieces
  if (kind === "cells") {
    for (const [name, stack] of Object.entries(board.pieces || {})) {
      const cell = byName[name]; if (!cell || !stack.length) continue;
      const xs = cell.points.map((p) => p[0]), ys = cell.points.map((p) => p[1]);
      const size = Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
      // several pieces share the cell side by side, in a small square of places
      const cols = Math.ceil(Math.sqrt(stack.length)), rows = Math.ceil(stack.length / cols);
      const step = (size * 0.78) / Math.max(cols, rows);
      const [cx, cy] = map([cell.x, cell.y]);
      stack.forEach((piece, k) => {
        const x = cx + ((k % cols) - (cols - 1) / 2) * step, y = cy + (Math.floor(k / cols) - (rows - 1) / 2) * step;
        pieceLayer.append(disc(x, y, step * 0.46, piece));
      });
    }
  } else if (kind === "hextri") {
    for (const [name, colour] of Object.entries(board.stones || {})) {
      const cell = byName[name]; if (!cell) continue;
      const [x, y] = map([cell.x, cell.y]);
      pieceLayer.append(svg("circle", {
        cx: x, cy: y, r: 0.7, fill: `url(#stone-${colour})`, stroke: colour === "w" ? "#8f8575" : "#000",
        "stroke-width": 0.04, filter: "url(#shadow)", "pointer-events": "none", class: "piece",
      }));
    }
    if (board.pawn && byName[board.pawn]) {
      const [x, y] = map([byName[board.pawn].x, byName[board.pawn].y]);
      pieceLayer.append(svg("g", { "pointer-events": "none", class: "pawn" },
        svg("circle", { cx: x, cy: y, r: 0.4, fill: "url(#pawn)", stroke: "#fff", "stroke-width": 0.08, filter: "url(#shadow)" }),
        svg("circle", { cx: x, cy: y, r: 0.16, fill: "none", stroke: "rgba(255,255,255,.7)", "stroke-width": 0.05 })));
    }
  } else if (kind === "tri66") {
    for (const [name, die] of Object.entries(board.dice || {})) {
      const cell = byName[name]; if (!cell) continue;
      const [x, y] = map([cell.x, cell.y]);
      pieceLayer.append(dieFace(x, y, 0.78, die.face, die.colour, opts.diceStyle, die.temporary));
    }
  } else if (kind === "grid") {
    for (const [name, info] of Object.entries(board.dice || {})) {
      const cell = byName[name]; if (!cell) continue;
      const [x, y] = map([cell.x, cell.y]);
      pieceLayer.append(gridDie(x, y, 0.86, info.die, info.faces, opts.flip));
      if (board.last === info.die) {
        pieceLayer.append(svg("rect", { x: x - 0.47, y: y - 0.47, width: 0.94, height: 0.94, rx: 0.16, fill: "none", stroke: "#e0a020", "stroke-width": 0.05, "stroke-dasharray": "0.08 0.05", "pointer-events": "none" }));
      }
    }
    // the dice not yet on the board, beside it
    (board.tray || []).forEach((die, k) => {
      const x = maxX + pad + 0.7, y = minY + 0.8 + k * 1.6;
      const id = `tray:${die}`;
      const group = svg("g", { class: "piece" + (sources.has(id) ? " src" : ""), "data-cell": id });
      group.append(gridDie(x, y, 0.9, die, null));
      if (opts.selected === id) group.append(svg("rect", { x: x - 0.55, y: y - 0.55, width: 1.1, height: 1.1, rx: 0.2, fill: "none", stroke: "#2f6fb0", "stroke-width": 0.08 }));
      const hit = svg("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: "transparent", "data-cell": id, class: sources.has(id) ? "cell src" : "cell" });
      if (opts.onCell) hit.addEventListener("click", () => opts.onCell(id));
      if (interactive) {
        const flags = [];
        if (opts.selected === id) flags.push(t("cell_selected"));
        if (sources.has(id)) flags.push(t("cell_movable"));
        hit.setAttribute("tabindex", "-1");
        hit.setAttribute("role", "button");
        hit.setAttribute("aria-label", [t("tray_die", { die }), ...flags].join(", "));
        focusables.push({ name: id, node: hit, x, y, ring: [[x - 0.55, y - 0.55], [x + 0.55, y - 0.55], [x + 0.55, y + 0.55], [x - 0.55, y + 0.55]] });
      }
      group.append(hit);
      pieceLayer.append(group);
    });
  }

  // threats and targets on top
  for (const name of threatened) {
    const cell = byName[name]; if (!cell) continue;
    const [x, y] = map([cell.x, cell.y]);
    // the ring pulses on a board one plays (style.css); a picture keeps still
    pieceLayer.append(svg("circle", { cx: x, cy: y, r: 0.62 * unit, fill: "none", stroke: "#d42a1c", "stroke-width": 0.1 * unit,
      "pointer-events": "none", class: interactive ? "threat pulse" : "threat" }));
  }
  for (const name of targets) {
    const cell = byName[name]; if (!cell) continue;
    const [x, y] = map([cell.x, cell.y]);
    const occupied = (board.stones && board.stones[name]) || (board.dice && board.dice[name])
      || (board.pieces && board.pieces[name] && board.pieces[name].length);
    pieceLayer.append(occupied
      ? svg("circle", { cx: x, cy: y, r: 0.55 * unit, fill: "none", stroke: "rgba(47,111,176,.85)", "stroke-width": 0.11 * unit, class: "tgt-dot" })
      : svg("circle", { cx: x, cy: y, r: (kind === "grid" ? 0.16 : 0.24) * unit, fill: "rgba(47,111,176,.6)", class: "tgt-dot" }));
  }
  if (interactive && focusables.length) keyboard(root, focusables, opts, unit);
  return root;
}

// ---------------------------------------------------------------------------- keyboard
const DIRECTIONS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function keyboard(root, focusables, opts, unit) {
  const byNode = new Map(focusables.map((f) => [f.node, f]));
  const byName = new Map(focusables.map((f) => [f.name, f]));
  // the one cell reached by Tab: the one focused last, else the selected piece, a piece that can
  // move, a target, or the first cell
  const first = [opts.focus, opts.selected, ...(opts.sources || []), ...(opts.targets || [])].find((n) => n && byName.has(n));
  (byName.get(first) || focusables[0]).node.setAttribute("tabindex", "0");
  // a ring of our own: the browser's outline of an SVG shape would be its bounding box
  const ring = svg("g", { class: "focus-ring", visibility: "hidden", "pointer-events": "none" },
    svg("polygon", { fill: "none", stroke: "#ffffff", "stroke-width": unit * 0.24, "stroke-linejoin": "round" }),
    svg("polygon", { fill: "none", stroke: "#1f62a8", "stroke-width": unit * 0.12, "stroke-linejoin": "round" }));
  root.append(ring);
  // focus listeners on the cells themselves: Chromium puts an SVG element that has focus listeners
  // in the Tab order, which the board itself must not be
  for (const f of focusables) {
    f.node.addEventListener("focus", () => {
      for (const other of focusables) if (other !== f) other.node.setAttribute("tabindex", "-1");
      f.node.setAttribute("tabindex", "0");
      for (const line of ring.children) line.setAttribute("points", pts(f.ring));
      // shown as the browser would show a focus ring: for the keyboard, not after a click
      let visible = true;
      try { visible = f.node.matches(":focus-visible"); } catch (e) { /* an old browser: always */ }
      ring.setAttribute("visibility", visible ? "visible" : "hidden");
      if (opts.onFocus) opts.onFocus(f.name);
    });
    f.node.addEventListener("blur", () => ring.setAttribute("visibility", "hidden"));
  }
  root.addEventListener("keydown", (event) => {
    const f = byNode.get(event.target);
    if (!f || event.altKey || event.ctrlKey || event.metaKey) return;
    let next = null;
    if (DIRECTIONS[event.key]) next = nearest(focusables, f, DIRECTIONS[event.key]) || f;
    else if (event.key === "Home") next = focusables[0];
    else if (event.key === "End") next = focusables.at(-1);
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault(); event.stopPropagation();
      if (!event.repeat) opts.onCell(f.name);
      return;
    } else return;
    event.preventDefault(); event.stopPropagation();
    next.node.focus();
  });
}

/**
 * The cell the arrow key leads to: among the cells in that direction (within about 50 degrees of
 * it), the one nearest, counting a sideways step double; only when there is none, any cell on that
 * side. Ties (two hexagons up left and up right) go one way turning round the clock, so that the
 * opposite key leads back.
 */
export function nearest(cells, from, [dx, dy]) {
  const [tx, ty] = [dx + 0.01 * dy, dy - 0.01 * dx];
  let best = null, bestKey = null;
  for (const c of cells) {
    if (c === from) continue;
    const vx = c.x - from.x, vy = c.y - from.y;
    const along = vx * dx + vy * dy;
    if (along <= 1e-6) continue;
    const side = Math.abs(vx * dy - vy * dx);
    const dist = Math.hypot(vx, vy);
    const key = [side > along * 1.2 ? 1 : 0, dist + side, -(vx * tx + vy * ty) / dist];
    if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] - 1e-6
        || (Math.abs(key[1] - bestKey[1]) <= 1e-6 && key[2] < bestKey[2])))) {
      best = c; bestKey = key;
    }
  }
  return best;
}

// what a screen reader says for a cell: its name, what stands there, and its part in the move
function cellLabel(kind, cell, board, flags) {
  const name = kind === "grid" && cell.row !== undefined ? t("grid_cell", { row: cell.row, col: cell.col }) : cell.name;
  const parts = [];
  if (kind === "hextri") {
    const stone = (board.stones || {})[cell.name];
    if (stone) parts.push(t(`stone_${stone}`) === `stone_${stone}` ? stone : t(`stone_${stone}`));
    if (board.pawn === cell.name) parts.push(t("pawn"));
  } else if (kind === "tri66") {
    const die = (board.dice || {})[cell.name];
    if (die) parts.push(t("die_piece", { colour: colourName(die.colour), face: die.face }) + (die.temporary ? `, ${t("die_temporary")}` : ""));
  } else if (kind === "grid") {
    const info = (board.dice || {})[cell.name];
    if (info) parts.push(t("grid_die", { die: info.die, faces: (info.faces || []).join(" ") }));
  } else {
    const counts = new Map();
    for (const piece of (board.pieces || {})[cell.name] || []) {
      const what = (piece.name || t(dark(piece.fill || "#ffffff") ? "piece_dark" : "piece_light"))
        + (piece.label !== undefined && piece.label !== null && piece.label !== "" ? ` ${piece.label}` : "");
      counts.set(what, (counts.get(what) || 0) + 1);
    }
    for (const [what, n] of counts) parts.push(n > 1 ? `${n} × ${what}` : what);
  }
  if (!parts.length) parts.push(t("cell_empty"));
  if (flags.selected) parts.push(t("cell_selected"));
  if (flags.source && !flags.selected) parts.push(t("cell_movable"));
  if (flags.target) parts.push(t("cell_target"));
  if (flags.last) parts.push(t("cell_last"));
  if (flags.threatened) parts.push(t("cell_threatened"));
  return [name, ...parts].join(", ");
}

// one piece of the "cells" kind: a disc with an optional label
function disc(x, y, r, piece) {
  const fill = piece.fill || "#ffffff";
  const g = svg("g", { class: "piece", "pointer-events": "none" },
    svg("circle", { cx: x, cy: y, r, fill, stroke: piece.stroke || "#222222", "stroke-width": r * 0.12, filter: "url(#shadow)" }));
  if (piece.label !== undefined && piece.label !== null && piece.label !== "") {
    g.append(svg("text", {
      x, y: y + r * 0.36, "text-anchor": "middle", "font-size": r * 1.0, "font-weight": "700", fill: dark(fill) ? "#ffffff" : "#222222",
    }, document.createTextNode(String(piece.label))));
  }
  return g;
}

// whether a colour (#rgb or #rrggbb) is dark enough for light text on it
function dark(colour) {
  let hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour) ? colour.slice(1) : "ffffff";
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}

function shrink(points, [cx, cy], factor) {
  return points.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor]);
}

// a small standalone board picture (rules, home page cards)
export function boardPicture(preview, opts = {}) {
  return drawBoard(preview.geometry, preview.board, { labels: false, threatened: preview.threatened, ...opts });
}
