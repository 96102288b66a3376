// Moves you can see (issue 31, item 3): the move that just arrived is played out on the freshly
// drawn board, from the board drawn before it. A piece that moved slides from its old cell, a
// piece put down grows in, a captured piece fades out over the new one, and a rolled die tumbles
// and lands on its face. It reads only the two drawings and the cells the server named for the
// last move (view.last.cells): no rules. DURATION ms; under prefers-reduced-motion nothing moves.
//
// While it runs, the board's wrapper has data-animating="1" and the page waits with drawing the
// next position (a bot's quick reply is shown after the animation, never instead of it); what
// the player does meanwhile (a click, a switch) finishes it at once. When it ends data-animating
// goes and the wrapper's data-animated counts the animations played.

export const DURATION = 240;

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// the player acts while a move is played out: show it finished at once
export function finishAnimation(wrap) {
  const root = wrap && wrap.querySelector("svg.board");
  for (const animation of root ? root.getAnimations({ subtree: true }) : []) {
    // the move's animations; a threatened piece's ring pulses on for good (finish() would throw)
    if (animation.effect.getComputedTiming().endTime !== Infinity) animation.finish();
  }
  if (wrap) delete wrap.dataset.animating;
}

export function isAnimating(wrap) {
  return !!wrap && wrap.dataset.animating === "1";
}

function centre(node) {
  const box = node.getBBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

// the centre of a cell (the mean of its polygon's corners), in the board's own units
export function cellCentre(root, name) {
  const poly = root.querySelector(`polygon[data-cell="${CSS.escape(name)}"]`);
  if (!poly) return null;
  const points = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
  return [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
}

// the pieces of a drawing (not the tray's) with their centres; the drawing must be in the page
function pieces(root) {
  return [...root.querySelectorAll(".piece, .pawn")].filter((node) => !node.closest("[data-cell^='tray:']"))
    .map((node) => ({ node, at: centre(node), pawn: node.classList.contains("pawn") }));
}

// the piece drawn nearest to a point (within `reach` board units), or null
function nearest(list, [x, y], reach = 0.6) {
  let best = null, bestDistance = reach;
  for (const item of list) {
    const distance = Math.hypot(item.at[0] - x, item.at[1] - y);
    if (distance < bestDistance) { best = item; bestDistance = distance; }
  }
  return best;
}

// what the board shows now, kept to animate the next drawing from (call before redrawing)
export function snapshot(wrap) {
  const root = wrap && wrap.querySelector("svg.board");
  if (!root || !root.isConnected) return null;
  return { pieces: pieces(root) };
}

function run(node, frames, options = {}) {
  if (!node.animate) return Promise.resolve();
  node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  return node.animate(frames, { duration: DURATION, easing: "ease-out", ...options }).finished.catch(() => {});
}

// Play the last move on the board now in `wrap` from `before` (the snapshot of the drawing it
// replaced). Resolves when done; `wrap` carries the data-animating flag meanwhile.
export function animateMove(wrap, before, last) {
  const fresh = wrap && wrap.querySelector("svg.board");
  if (!before || !fresh || !last || !last.cells || !last.cells.length || reducedMotion()) return Promise.resolve(false);
  const jobs = [];
  const [from, to] = last.cells.length > 1 ? last.cells : [null, last.cells[0]];
  const toAt = cellCentre(fresh, to);
  if (!toAt) return Promise.resolve(false);
  const now = pieces(fresh);
  const moved = nearest(now.filter((p) => !p.pawn), toAt) || nearest(now, toAt);
  if (last.kind === "roll") {
    // the die tumbles and lands on its (new) face
    if (moved) jobs.push(run(moved.node, [
      { transform: "rotate(0deg) scale(1)" }, { transform: "rotate(200deg) scale(1.25)", offset: 0.6 },
      { transform: "rotate(360deg) scale(1)" }]));
  } else {
    const fromAt = from ? cellCentre(fresh, from) : null;
    if (moved && fromAt) {
      jobs.push(run(moved.node, [{ transform: `translate(${fromAt[0] - toAt[0]}px, ${fromAt[1] - toAt[1]}px)` }, { transform: "none" }]));
    } else if (moved) {
      jobs.push(run(moved.node, [{ transform: "scale(0.3)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }]));
    }
    // what stood on the target before (a capture) fades out on top of the mover
    const captured = nearest(before.pieces.filter((p) => !p.pawn), toAt);
    if (captured && from) {
      const ghost = captured.node.cloneNode(true);
      ghost.setAttribute("pointer-events", "none");
      ghost.classList.remove("piece");
      ghost.classList.add("captured-ghost");
      (moved ? moved.node.parentNode : fresh).append(ghost);
      jobs.push(run(ghost, [{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(0.6)" }], { fill: "forwards" })
        .then(() => ghost.remove()));
    }
    // a pawn that the moves push around (a shared piece, class "pawn") slides from where it stood
    const oldPawn = before.pieces.find((p) => p.pawn), newPawn = now.find((p) => p.pawn);
    if (oldPawn && newPawn && Math.hypot(oldPawn.at[0] - newPawn.at[0], oldPawn.at[1] - newPawn.at[1]) > 0.01) {
      jobs.push(run(newPawn.node, [{ transform: `translate(${oldPawn.at[0] - newPawn.at[0]}px, ${oldPawn.at[1] - newPawn.at[1]}px)` },
        { transform: "none" }]));
    }
  }
  if (!jobs.length) return Promise.resolve(false);
  wrap.dataset.animating = "1";
  // a hidden tab may hold its animations: the page never waits much longer than one
  const bound = new Promise((resolve) => setTimeout(resolve, DURATION * 4));
  return Promise.race([Promise.all(jobs), bound]).then(() => {
    delete wrap.dataset.animating;
    wrap.dataset.animated = String(Number(wrap.dataset.animated || 0) + 1);
    wrap.dispatchEvent(new CustomEvent("animated", { detail: last }));
    return true;
  });
}
