"""The doubling cube for Hexalit's bots: when to offer a double, when to take one.

The searches play the dice; the cube is decided here, from the estimated chance ``p`` that
a player wins the game (a draw counted as half a win), with backgammon's cube equity rules
(``rules/hexalit.md``, "Stakes and the doubling cube"):

* **The chance.**  :func:`winning_chance` plays out the captures (:func:`quiet_pawns`, a
  quiescence search over the game's evaluation ``playout_kernels.evaluate_white`` plus the
  side to move's tempo, in pawns before the squash ``0.9 · tanh(pawns / 6)`` of
  ``knowledge.evaluate``; a trapped or captured last 1 decides) and turns the result ``x``
  into ``p = 1 / (1 + exp(-SLOPE · x))``.  ``SLOPE`` was fitted by
  ``benchmarks/hexalit_cube_calibration.py`` to self-play games (see the constant): an even
  evaluation is an even game, 3.1 pawns up is 70%, 4.1 pawns 75%, a whole army ~100%.
  The learned alternative (:func:`net_chance`, docs/CUBE.md) stands pat on the learned
  evaluation (:func:`net_static_pawns`, the search's shipped net, ``docs/LEARNED_EVAL.md``) in the
  same quiescence search, with its own ``NET_SLOPE``.  :data:`CHANCE` names the bots'
  choice (:data:`CHANCES`): the net's, which with the cube-aware table made fewer and cheaper
  cube errors on rollouts than the hand chance at ``SLOPE`` with the coin-flip table
  (``benchmarks/cube_errors.py``; the hand chance refitted to today's bots does as well).
* **Take** when the taker's ``p`` reaches the take point.  For money play a drop loses the
  stake ``c`` and a take plays on for ``2c``: take when ``2c · (2p - 1) >= -c``, i.e.
  ``p >= 25%``.  In a match (:class:`~ludothek.games.hexalit.match.HexalitMatch`) the
  take point follows from the match-winning chances after a drop and after winning or
  losing at ``2c`` (:func:`match_equity`: by default the match equity table with the cube
  of :mod:`.met`; the coin-flip table without the cube stays selectable, :data:`EQUITIES`).
* **Double** when ``p > 50%`` and either the opponent should drop (the game scores just
  its stake: Hexalit has no gammons, so a position is never "too good" to double — cashing
  the stake beats playing on for it) or ``p >= DOUBLE_POINT`` (70%) and doubling gains
  (in a match: the match-winning chance after double/take beats not doubling — e.g. never
  for a player who needs only the current stake).  The window starts at 70%, not just
  above 50%, because only the starting player may bring the cube in and every double lets
  the opponent redouble on his next turn, and because ``p`` is an estimate: a double
  offered at 55% invites a redouble battle over a coin flip.
* **Who redoubles.**  The rules let whoever is on turn redouble, so a player who stays in
  the window could redouble every turn, the opponent taking each time, the stake racing to
  64 on one estimate (a take at 2c is worth 2c · (2p - 1) only if no redouble follows).  The
  bots play as if the taker held the cube, as in backgammon: the player who made the last
  double redoubles only to cash (when the opponent should drop); the taker may redouble in
  the window.  The 25% take point stays the dead-cube approximation: the taker's chance to
  redouble later and the doubler's chance to cash later roughly cancel.
* **Never double a lost game**: below 50% there is no double, whatever the match score.

A state may carry ``match_away`` (points White and Black still need to win the match, set
by :meth:`HexalitMatch.start`); without it the cube is played for money.
"""

from __future__ import annotations

import math

import numpy as np

from ...boards import triangle66 as T
from ..dice import search_kernels as SK
from ..dice.eval_kernels import HEXALIT_WEIGHTS, W_TEMPO
from ..dice.kernels import CELLS, MAX_MOVES, NO_JUMPS, WHITE, count_ones
from ..dice.net_kernels import net_pawns
from . import kernels, met, playout_kernels
from .kernels import DOUBLE, DROP, OUTCOME, ROLL, TAKE

#: p = 1 / (1 + exp(-SLOPE * x)) for the quiet evaluation x (pawns) of the player to move.
#: Fitted by ``benchmarks/hexalit_cube_calibration.py``: 11,199 positions from 370 bot:3
#: self-play games (seeds 1001-1080, 2001-2400; each from a random middle game), maximum
#: likelihood with a draw as half a win: SLOPE = 0.272 ± 0.029 (s.e. scaled for the games'
#: correlated samples), a free intercept -0.03 ± 0.14 (none needed: 0 pawns is 50%).
#: Weaker players convert less: bot:2 self-play gives 0.124 ± 0.019 (239 games).  Today's
#: bot:3 (alpha-beta, 1000 nodes) gives 0.207 ± 0.028 (seeds 2001-2300; docs/CUBE.md).
SLOPE = 0.27
#: the evaluation's bonus for the side to move, in pawns (as in ``knowledge.evaluate``)
TEMPO = HEXALIT_WEIGHTS[W_TEMPO]
#: plies of captures :func:`quiet_pawns` plays out
QUIET_DEPTH = 4
#: a decided game, in pawns (beyond any evaluation: a side without a 1 is -100)
WON = 1000.0
#: p = 1 / (1 + exp(-NET_SLOPE * x)) for the quiet *learned* evaluation x (pawns) of the
#: shipped net, fitted by the same script to bot:3 self-play (seeds 2001-2300, 8,129 positions
#: of 245 games; docs/CUBE.md): 0.214 ± 0.029 (the first net's was 0.217)
NET_SLOPE = 0.214
#: the bots' winning chance (:data:`CHANCES`) and match equity table (:data:`EQUITIES`);
#: "hand" and "coin_flip" were the bots' before (docs/CUBE.md)
CHANCE = "net"
EQUITY = "cube"
#: the least p to double at when the opponent would take (the doubling window's start)
DOUBLE_POINT = 0.70
#: money play: the least p to take at (a drop loses 1 stake, a take risks 2)
MONEY_TAKE_POINT = 0.25


# ---------------------------------------------------------------------- the chance
def static_pawns(board: np.ndarray, temp: np.ndarray, side: int) -> float:
    """The game's evaluation for ``side``, which is to move, in pawns, before the squash
    (``knowledge.evaluate`` is ``0.9 · tanh(pawns / 6)`` of this, signed for seat 0)."""
    white = float(playout_kernels.evaluate_white(board, temp, T.GEO, HEXALIT_WEIGHTS))
    return (white if side == WHITE else -white) + TEMPO


_NET_WEIGHTS: list[np.ndarray] = []


def net_weights() -> np.ndarray:
    """The search's weights array with its shipped net after it (loaded once)."""
    if not _NET_WEIGHTS:
        from ..dice import net as N
        from ..dice.search import weights_of

        _NET_WEIGHTS.append(weights_of({"net": N.shipped_flat("hexalit")}, SK.HEXALIT))
    return _NET_WEIGHTS[0]


def net_static_pawns(board: np.ndarray, temp: np.ndarray, side: int) -> float:
    """The learned evaluation (``ludothek/games/dice/net.py``, the game's shipped net) for
    ``side``, which is to move, in pawns before the squash: the hand evaluation with the
    tempo, corrected by the net."""
    w = net_weights()
    hand = SK.static_pawns(SK.HEXALIT, board, temp, side, T.GEO, NO_JUMPS, w)
    white = float(net_pawns(board, temp, side, hand, w, SK.NET_START))
    return white if side == WHITE else -white


def _has_lost(board: np.ndarray, side: int, buf: np.ndarray) -> bool:
    """``side``, to move, has lost: no 1 left, or its last 1 threatened and trapped."""
    if count_ones(board, side) == 0:
        return True
    return kernels.gebot_cell(board, T.GEO, side) >= 0 and kernels.turn_actions(board, T.GEO, side, buf) == 0


def quiet_pawns(board: np.ndarray, temp: np.ndarray, side: int, depth: int = QUIET_DEPTH,
                alpha: float = -WON, beta: float = WON, static=static_pawns) -> float:
    """The evaluation for ``side``, to move, in pawns, once the captures have been played
    out (a quiescence search of ``depth`` plies of captures): the player to move may stand
    pat on the evaluation or capture, unless the Eins-Gebot binds him (then every escape is
    tried, no standing pat); ``WON`` for a capture that wins, ``-WON`` if ``side`` has lost.
    Rolls are not looked at.  ``static`` is the evaluation stood pat on (:func:`static_pawns`
    or the learned :func:`net_static_pawns`)."""
    buf = np.empty(MAX_MOVES, np.int32)
    n = int(kernels.turn_actions(board, T.GEO, side, buf))
    if n == 0:
        return -WON
    forced = kernels.gebot_cell(board, T.GEO, side) >= 0
    stand = static(board, temp, side)
    if depth <= 0:
        return stand
    if forced:
        best = -WON
        candidates = [int(a) for a in buf[:n]]
    else:
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        victims = [(-abs(int(board[int(a) % CELLS])), int(a)) for a in buf[:n]
                   if a < ROLL and board[int(a) % CELLS] != 0]
        candidates = [a for _, a in sorted(victims)]
    reply = np.empty(MAX_MOVES, np.int32)
    for action in candidates:
        b, t = board.copy(), temp.copy()
        kernels.play_move(b, t, side, action, forced)
        if _has_lost(b, 1 - side, reply):
            return WON
        value = -quiet_pawns(b, t, 1 - side, depth - 1, -beta, -alpha, static)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def chance_of(pawns: float, slope: float = SLOPE) -> float:
    """The calibrated winning chance (a draw half) of a quiet evaluation in pawns; exact
    for a decided game (``±WON``)."""
    if pawns >= WON:
        return 1.0
    if pawns <= -WON:
        return 0.0
    return 1.0 / (1.0 + math.exp(-slope * pawns))


def hand_chance(board: np.ndarray, temp: np.ndarray, side: int) -> float:
    """``side``'s (to move) chance from the hand evaluation, captures played out."""
    return chance_of(quiet_pawns(board, temp, side), SLOPE)


def net_chance(board: np.ndarray, temp: np.ndarray, side: int) -> float:
    """``side``'s (to move) chance from the learned evaluation, captures played out."""
    return chance_of(quiet_pawns(board, temp, side, static=net_static_pawns), NET_SLOPE)


#: the winning chances, by name (``CHANCE`` is the bots')
CHANCES = {"hand": hand_chance, "net": net_chance}
#: the match equity tables, by name (``EQUITY`` is the bots')
EQUITIES = {"coin_flip": met.coin_flip_equity, "cube": met.cube_equity}


def side_chance(state, side: int, chance: str | None = None) -> float:
    """The chance (a draw half) that ``side`` (0 White, 1 Black) wins ``state``'s game,
    judged at its current turn start (an offer may be waiting); ``chance`` names the
    estimate (:data:`CHANCES`, default :data:`CHANCE`)."""
    if state.is_over():
        won = state.winner()
        if won is None:
            return 0.5
        return 1.0 if (won == "white") == (side == WHITE) else 0.0
    p = CHANCES[chance or CHANCE](state.board, state.temp, state.side)
    return p if side == state.side else 1.0 - p


def winning_chance(state, chance: str | None = None) -> float:
    """The chance that the player who acts now wins: the player to move at a turn start,
    the one who answers an offer (``take`` / ``drop``) while it waits."""
    player = 1 - state.side if state.offer else state.side
    return side_chance(state, player, chance)


# ---------------------------------------------------------------------- the match
def match_equity(away: int, other: int, equity: str | None = None) -> float:
    """The chance that a player who needs ``away`` more points wins the match against one
    who needs ``other``, from the table ``equity`` names (:data:`EQUITIES`, default
    :data:`EQUITY`; :mod:`.met`)."""
    return EQUITIES[equity or EQUITY](away, other)


def _away(state, side: int) -> tuple[int, int] | None:
    """(points ``side`` still needs, points its opponent needs), or None for money play."""
    away = getattr(state, "match_away", None)
    if away is None:
        return None
    return (int(away[side]), int(away[1 - side]))


def take_point_at(away: tuple[int, int] | None, cube: int, equity: str | None = None) -> float:
    """The take point of a player ``away = (he needs, the doubler needs)`` points from the
    match (None: money play) offered a double of the stake ``cube``."""
    if away is None:
        return MONEY_TAKE_POINT
    mine, theirs = away
    c = cube
    drop = match_equity(mine, theirs - c, equity)
    win = match_equity(mine - 2 * c, theirs, equity)
    lose = match_equity(mine, theirs - 2 * c, equity)
    if win <= lose:  # the game cannot change the match: taking costs nothing
        return 0.0
    return min(1.0, max(0.0, (drop - lose) / (win - lose)))


def take_point(state, equity: str | None = None) -> float:
    """The least chance at which the player answering an offer to double should take it
    (the offer is to double the current stake ``state.cube``; the offerer is
    ``state.side``)."""
    return take_point_at(_away(state, 1 - state.side), state.cube, equity)


def should_take(state, p: float, equity: str | None = None) -> bool:
    """Take an offer to double when the taker's chance ``p`` reaches the take point."""
    return p >= take_point(state, equity)


def should_double_at(p: float, away: tuple[int, int] | None, cube: int, doubled_last: bool = False,
                     equity: str | None = None) -> bool:
    """:func:`should_double` for a player with chance ``p``, ``away = (he needs, the
    opponent needs)`` (None: money), the stake ``cube``; ``doubled_last``: he made the last
    double."""
    if p <= 0.5:
        return False
    other = None if away is None else (away[1], away[0])
    if p > 1.0 - take_point_at(other, cube, equity):
        return True  # the opponent should drop: cash
    if p < DOUBLE_POINT:
        return False
    if doubled_last:
        return False  # he who doubled last redoubles only to cash (the taker "holds" the cube)
    if away is None:
        return True  # 2c · (2p - 1) > c · (2p - 1) for any p > 50%
    mine, theirs = away
    c = cube
    no_double = p * match_equity(mine - c, theirs, equity) + (1 - p) * match_equity(mine, theirs - c, equity)
    take = p * match_equity(mine - 2 * c, theirs, equity) + (1 - p) * match_equity(mine, theirs - 2 * c, equity)
    return take > no_double + 1e-12


def last_doubler(state) -> int | None:
    """The side (0 White, 1 Black) that made the last offer to double, or None."""
    if state.setup_position is None:
        side = WHITE if state.options["first"] == "white" else 1 - WHITE
    else:
        side = WHITE if state.setup_position.split()[1] == "w" else 1 - WHITE
    last = None
    for action in state.history:
        if action == DOUBLE:
            last = side
        elif action < ROLL or OUTCOME <= action < DOUBLE:  # a move, or a roll's face: the turn ends
            side = 1 - side
    return last


def should_double(state, p: float, equity: str | None = None) -> bool:
    """Offer to double (``state.side`` to move, with chance ``p``): never below 50%;
    whenever the opponent should drop (cash the stake: no position is too good); otherwise
    from ``DOUBLE_POINT`` on when doubling gains (always for money, not always in a match),
    unless this side made the last double (then only to cash)."""
    return should_double_at(p, _away(state, state.side), state.cube, last_doubler(state) == state.side, equity)


# ---------------------------------------------------------------------- the bots' hook
def without_cube(state):
    """A copy for searching the move: the cube switched off, so the search sees only moves
    and rolls (values are per game, whatever the stake)."""
    work = state.copy()
    work.options = {**work.options, "cube": False}
    work._cache = {}
    return work


def decide(state, agent):
    """The bots' cube play (``knowledge.decide``): at an offer ``take`` or ``drop``; at a
    turn start where doubling is legal ``double`` if :func:`should_double`; otherwise the
    agent's own search of the move on :func:`without_cube`.  ``None`` without the cube."""
    from ...ai.base import Analysis

    if not state.options.get("cube") or state.is_over() or state.roll_cell >= 0:
        return None
    p = winning_chance(state)
    if state.offer:
        action = TAKE if should_take(state, p) else DROP
        return Analysis(best=action, scores={action: 2 * p - 1}, line=[action], value=2 * p - 1)
    if DOUBLE in state.legal_actions() and should_double(state, p):
        return Analysis(best=DOUBLE, scores={DOUBLE: 2 * p - 1}, line=[DOUBLE], value=2 * p - 1)
    return agent.analyse(without_cube(state))
