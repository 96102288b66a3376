"""Hexalit's match equity table with the doubling cube (docs/CUBE.md): the chance that a
player who needs ``a`` more points wins the match against one who needs ``b``.

The coin-flip table (:func:`coin_flip_equity`, each game a fair coin worth one point)
ignores the cube; here every game is played with it, by dynamic programming over the match
scores with a simple game model (Hexalit has no gammons, so a game ends in a win at the
stake, a drop, or a draw that replays it at the same score):

* **The game** is a random walk of the winning chance ``p`` of the player whose equity we
  count.  Its logit moves by ``±STEP`` per decision interval on the grid ``x = i · STEP``,
  ``|i| <= EDGE`` (p from 1% to 99%), with the up probability that makes ``p`` a martingale
  (``p`` is a calibrated chance: its expected next value is itself); one step beyond the
  grid the game is decided.  ``STEP`` is the cube efficiency knob: a small step is a smooth
  game (a player can double just at his opponent's take point), a large one a game of
  jumps (he loses his market).  ``STEP = 0.35`` is the measured standard deviation of the
  calibrated logit's change over five turns in bot:3 self-play (0.37 with the hand estimate,
  0.36 with the net, 4,617 pairs of samples, ``benchmarks/cube_rollouts.py``'s source data);
  a single turn's is 0.17 on average but comes in jumps (the median change is a third of
  the standard deviation), so a five-turn step is used as the decision interval.
* **The cube** (``rules/hexalit.md``): at the start only the player who starts the game may
  double (either player starts half the games); after a take the taker holds it; up to
  ``MAX_CUBE``.  Before each step the player who may double doubles if that gains, the
  opponent takes or drops, whichever is better for him; then the step follows.
* **The values**: a game won at stake ``c`` moves the match to ``(a - c, b)``; the in-game
  values of each (stake, cube holder) are solved by policy iteration (linear solves of the
  grid's equations, a few improvement rounds), from the highest stake down, the match
  scores in order of ``a + b``.

Print the table (``python -m ludothek.games.hexalit.met``; ``--away 15`` for more,
``--step`` to try another game model).
"""

from __future__ import annotations

import argparse
from functools import cache

import numpy as np

STEP = 0.35
EDGE = 13
MAX_CUBE = 64

# the cube's state: who may double next
X_STARTS, Y_STARTS, X_HOLDS, Y_HOLDS = 0, 1, 2, 3
_X_MAY = (X_STARTS, X_HOLDS)


def coin_flip_equity(away: int, other: int) -> float:
    """The simplest table, no cube: each game a fair coin flip worth one point,
    ``M(a, b) = (M(a-1, b) + M(a, b-1)) / 2``."""
    return float(_coin_table(max(away, other, 1))[max(away, 0), max(other, 0)])


@cache
def _coin_table(n: int) -> np.ndarray:
    t = np.zeros((n + 1, n + 1))
    t[0, 1:] = 1.0
    t[0, 0] = 1.0
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            t[a, b] = 0.5 * (t[a - 1, b] + t[a, b - 1])
    return t


class Model:
    """The game model: the logit grid and its martingale steps."""

    def __init__(self, step: float = STEP, edge: int = EDGE) -> None:
        self.step, self.edge = step, edge
        x = np.arange(-edge, edge + 1) * step
        self.p = 1.0 / (1.0 + np.exp(-x))
        ext = np.concatenate([[0.0], self.p, [1.0]])
        self.up = (ext[1:-1] - ext[:-2]) / (ext[2:] - ext[:-2])  # P(step up): a martingale
        n = len(self.p)
        # the step as a matrix on the grid, and where it leaves the grid (won / lost)
        self.move = np.zeros((n, n))
        for i in range(n):
            if i + 1 < n:
                self.move[i, i + 1] = self.up[i]
            if i - 1 >= 0:
                self.move[i, i - 1] = 1.0 - self.up[i]
        self.win_exit = np.zeros(n)
        self.win_exit[-1] = self.up[-1]
        self.lose_exit = np.zeros(n)
        self.lose_exit[0] = 1.0 - self.up[0]
        self.start = edge  # p = 50%


def _solve_game(model: Model, m, a: int, b: int, max_cube: int = MAX_CUBE) -> dict:
    """The in-game values ``V[(c, holder)]`` (numpy arrays over the grid) of a game at the
    match score (a, b), for the player X; ``m(a, b)`` gives the match equity of finished
    games (scores already known)."""
    n = len(model.p)
    eye = np.eye(n)
    values: dict[tuple[int, int], np.ndarray] = {}
    cubes = []
    c = 1
    while c <= max_cube:
        cubes.append(c)
        c *= 2
    for c in reversed(cubes):
        win, lose = m(a - c, b), m(a, b - c)
        const = model.win_exit * win + model.lose_exit * lose
        holders = (X_STARTS, Y_STARTS, X_HOLDS, Y_HOLDS) if c == 1 else (X_HOLDS, Y_HOLDS)
        for holder in holders:
            x_may = holder in _X_MAY
            can = 2 * c <= max_cube
            if can:
                after = values[(2 * c, Y_HOLDS if x_may else X_HOLDS)]
                take = model.move @ after + model.win_exit * m(a - 2 * c, b) + model.lose_exit * m(a, b - 2 * c)
                drop = win if x_may else lose
                offer = np.minimum(take, drop) if x_may else np.maximum(take, drop)
            doubling = np.zeros(n, bool)
            for _ in range(50):  # policy iteration
                A = eye - model.move * (~doubling)[:, None]
                rhs = np.where(doubling, offer if can else 0.0, const)
                v = np.linalg.solve(A, rhs)
                if not can:
                    break
                cont = model.move @ v + const
                better = offer > cont + 1e-13 if x_may else offer < cont - 1e-13
                if np.array_equal(better, doubling):
                    break
                doubling = better
            values[(c, holder)] = v
    return values


class Table:
    """The match equity table with the cube for one game model, filled as far as asked."""

    def __init__(self, model: Model | None = None, max_cube: int = MAX_CUBE) -> None:
        self.model = model or Model()
        self.max_cube = max_cube
        self.size = 0
        self.table = np.zeros((1, 1))

    def _m(self, a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return float(self.table[a, b])

    def grow(self, size: int) -> None:
        if size <= self.size:
            return
        old = self.table
        self.table = np.zeros((size + 1, size + 1))
        self.table[:old.shape[0], :old.shape[1]] = old
        for total in range(2, 2 * size + 1):
            for a in range(max(1, total - size), min(size, total - 1) + 1):
                b = total - a
                if a <= self.size and b <= self.size:
                    continue
                values = _solve_game(self.model, self._m, a, b, self.max_cube)
                s = self.model.start
                self.table[a, b] = 0.5 * (values[(1, X_STARTS)][s] + values[(1, Y_STARTS)][s])
        self.size = size

    def equity(self, away: int, other: int) -> float:
        if away <= 0:
            return 1.0
        if other <= 0:
            return 0.0
        self.grow(max(away, other))
        return self._m(away, other)


_TABLE = Table()


def cube_equity(away: int, other: int) -> float:
    """The match equity with the cube (the module's model, ``STEP``): the chance that a
    player ``away`` points from winning wins the match against one ``other`` away."""
    return _TABLE.equity(away, other)


def format_table(equity, size: int) -> str:
    lines = ["away | " + " ".join(f"{b:>5d}" for b in range(1, size + 1))]
    lines.append("-----|" + "------" * size)
    for a in range(1, size + 1):
        lines.append(f"{a:>4d} | " + " ".join(f"{100 * equity(a, b):5.1f}" for b in range(1, size + 1)))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Print Hexalit's match equity table with the cube (in %).")
    parser.add_argument("--away", type=int, default=9)
    parser.add_argument("--step", type=float, default=STEP, help=f"the logit step of the game model (default {STEP})")
    parser.add_argument("--coin-flip", action="store_true", help="the coin-flip table without the cube instead")
    args = parser.parse_args()
    if args.coin_flip:
        print(format_table(coin_flip_equity, args.away))
        return
    table = Table(Model(args.step, max(2, round(EDGE * STEP / args.step))))
    print(f"row: points the player needs; column: points the opponent needs (logit step {args.step})")
    print(format_table(table.equity, args.away))


if __name__ == "__main__":
    main()
