"""The compiled alpha-beta / expectiminimax of the dice games (Trigeo, Hexalit) against the
Python search it replaces (``alphabeta-py``): with the pruning that can change values switched
off (no reductions, the transposition table off or only ordering), both give the same values
on positions from seeded random games; forced wins are found, repetitions are draws, budgets
are kept, and the agents play whole games."""

from __future__ import annotations

import random

import pytest

import ludothek
from ludothek import CHANCE
from ludothek.ai.alphabeta import AlphaBetaAgent
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.ai.knowledge import knowledge
from ludothek.core.errors import OptionError
from ludothek.games.dice.search import weights_of as eval_weights

DICE_GAMES = [g for g in ("trigeo", "hexalit") if g in ludothek.games()]
pytestmark = pytest.mark.skipif(len(DICE_GAMES) < 2, reason="the dice games are not registered")

#: the compiled search with nothing that can change a value: plain alpha-beta (PVS kept: it
#: re-searches, so its values are exact)
PLAIN = {"tt": "off", "lmr": 0, "null_move": 0}
HUGE = Budget(iterations=10**9)


class _NoTable(dict):
    """A transposition table that keeps nothing (the Python search without it)."""

    def get(self, key, default=None):
        return None

    def __setitem__(self, key, value):
        pass


def python_search(state, depth, quiescence, exact_root=False):
    agent = AlphaBetaAgent(state.name, 0, HUGE, max_depth=depth, quiescence=quiescence, exact_root=exact_root,
                           compiled=False)
    agent.tt = _NoTable()
    return agent.analyse(state)


def compiled_search(state, depth, quiescence, exact_root=False, **options):
    agent = AlphaBetaAgent(state.name, 0, HUGE, max_depth=depth, quiescence=quiescence, exact_root=exact_root,
                           search_options={**PLAIN, **options})
    found = knowledge(state.name).compiled_alphabeta(agent, state, HUGE.clock())
    assert found is not None, "the compiled search did not take the position"
    return found


# ---------------------------------------------------------------- positions
def _decide_chance(state, rng):
    while not state.is_over() and state.current_player() == CHANCE:
        state.play(rng.choice(state.legal_actions()))


def _shuffle(state, rng, cycles):
    """Quiet moves there and back (both sides), so positions repeat in the history."""
    for _ in range(cycles):
        _decide_chance(state, rng)
        if state.is_over():
            return
        played = []
        for _ in range(2):
            quiet = [a for a in state.legal_actions() if _reversible(state, a)] if not state.is_over() else []
            if not quiet:
                break
            played.append(rng.choice(quiet))
            state.play(played[-1])
        for move in played:
            if state.is_over() or _back(move) not in state.legal_actions():
                break
            state.play(_back(move))


def _back(move):
    """The same step backwards."""
    return (move % 66) * 66 + move // 66


def _reversible(state, action):
    if action >= 66 * 66:
        return False
    frm, to = divmod(action, 66)
    return state.board[to] == 0 and abs(int(state.board[frm])) not in (1, 2)


def positions(game, count, seed, **options):
    """Decision positions from seeded random games: some with repeated positions in their
    history, some close to the move limit (``options``)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = ludothek.new_game(game, **options)
        for _ in range(rng.randrange(0, 90)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_actions()))
        if rng.random() < 0.3:
            _shuffle(state, rng, rng.randrange(1, 4))
        _decide_chance(state, rng)
        if not state.is_over():
            found.append(state)
    return found


def near_the_limit(game, count, seed):
    """Positions one to four plies (turns) before the move-limit draw."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        limit = rng.randrange(6, 40)
        state = ludothek.new_game(game, max_plies=limit)
        played = lambda: state.turns if game == "hexalit" else state.ply  # noqa: E731
        while not state.is_over() and played() < limit - rng.randrange(1, 5):
            state.play(rng.choice(state.legal_actions()))
        _decide_chance(state, rng)
        if not state.is_over():
            found.append(state)
    return found


def threatened(state):
    """The Eins-Gebot binds the side to move."""
    if state.name == "hexalit":
        return state.eins_gebot()
    return state.threatened(state.to_move)


def has_capture(state):
    return any(a < 66 * 66 and state.board[(a % 66)] != 0 for a in state.legal_actions())


# ---------------------------------------------------------------- values
CASES = [  # (game, depth, quiescence, positions)
    ("trigeo", 1, 4, 60), ("trigeo", 2, 2, 50), ("trigeo", 3, 0, 40), ("trigeo", 3, 2, 12),
    ("hexalit", 1, 4, 50), ("hexalit", 2, 0, 30), ("hexalit", 2, 1, 12),
]


@pytest.mark.parametrize("game,depth,quiescence,count", CASES)
def test_values_agree_with_the_python_search(game, depth, quiescence, count):
    states = positions(game, count, seed=depth * 10 + quiescence) + near_the_limit(game, count // 5, seed=depth)
    assert any(threatened(s) for s in states), "no position with a threatened 1"
    assert any(has_capture(s) for s in states), "no position with a capture"
    if game == "hexalit":
        assert any(s.temp.any() for s in states), "no position with temporary faces"
    for state in states:
        expected = python_search(state, depth, quiescence)
        found = compiled_search(state, depth, quiescence)
        assert found.value == pytest.approx(expected.value, abs=1e-9), state.position()
        assert found.depth == expected.depth
        assert found.best in state.legal_actions()
        assert found.scores[found.best] == found.value


@pytest.mark.parametrize("game,depth,quiescence,count", [("trigeo", 2, 1, 25), ("hexalit", 1, 2, 20)])
def test_every_root_score_agrees_with_an_exact_root(game, depth, quiescence, count):
    """With a full window at the root every move's score is exact: the two searches give
    the same score to every move (rolls included), so the best move has the best value."""
    for state in positions(game, count, seed=99) + near_the_limit(game, 4, seed=98):
        expected = python_search(state, depth, quiescence, exact_root=True)
        found = compiled_search(state, depth, quiescence, exact_root=True)
        assert set(found.scores) == set(expected.scores) == set(state.legal_actions())
        for action, score in expected.scores.items():
            assert found.scores[action] == pytest.approx(score, abs=1e-9), (state.position(), action)
        assert found.scores[found.best] == pytest.approx(max(expected.scores.values()), abs=1e-9)


@pytest.mark.parametrize("game", DICE_GAMES)
def test_the_weights_given_are_the_weights_searched(game):
    """``alphabeta_with``'s weights reach the compiled evaluation: its values are the Python
    search's with the same weights, and differ from the default weights' values."""
    import importlib

    from ludothek.games.dice.agents import weights_from
    from ludothek.games.dice.search import WEIGHTS, weights_of

    named = weights_from(["mobility=0.2", "tempo=0.4", "advance=0.3", "threatened=0.5", "trapped=2.5"])
    w = weights_of({"weights": named}, 0 if game == "trigeo" else 1)
    assert list(w) != list(WEIGHTS[0 if game == "trigeo" else 1])
    evaluate = importlib.import_module(f"ludothek.games.{game}.knowledge").evaluate
    differ = 0
    for state in positions(game, 15, seed=7):
        reference = AlphaBetaAgent(game, 0, HUGE, max_depth=2, quiescence=1, compiled=False)
        reference.tt = _NoTable()
        reference.evaluate = lambda s: evaluate(s, w)
        expected = reference.analyse(state)
        found = compiled_search(state, 2, 1, weights=named)
        assert found.value == pytest.approx(expected.value, abs=1e-9), state.position()
        differ += found.value != pytest.approx(compiled_search(state, 2, 1).value, abs=1e-6)
    assert differ >= 10


def test_alphabeta_with_names_what_is_wrong():
    agent = make_agent("alphabeta_with:200,mobility=0.05", "trigeo", seed=1)
    assert agent.name == "alphabeta_with" and agent.search_options["weights"] == {"mobility": 0.05}
    # its Python search (Hexalit for stakes searches there) evaluates with the same weights
    state = positions("trigeo", 1, seed=3)[0]
    w = eval_weights({"weights": {"mobility": 0.05}}, 0)
    assert agent.evaluate(state) == knowledge("trigeo").evaluate(state, w) != knowledge("trigeo").evaluate(state)
    with pytest.raises(OptionError, match="unknown weight 'speed'.*mobility"):
        make_agent("alphabeta_with:200,speed=1", "trigeo")
    for text in ("x", "nan", "inf", ""):
        with pytest.raises(OptionError, match="mobility takes a finite number"):
            make_agent(f"alphabeta_with:200,mobility={text}", "hexalit")


@pytest.mark.parametrize("game", DICE_GAMES)
def test_ordering_by_the_table_keeps_the_values(game):
    """The transposition table used for move ordering only, and PVS off: the same values."""
    for state in positions(game, 25, seed=7):
        expected = python_search(state, 2, 1)
        assert compiled_search(state, 2, 1, tt="moves").value == pytest.approx(expected.value, abs=1e-9)
        assert compiled_search(state, 2, 1, pvs=False).value == pytest.approx(expected.value, abs=1e-9)


# ---------------------------------------------------------------- wins, draws, budgets
FORCED_WINS = [  # (game, position, the winning move, plies to the win)
    ("trigeo", "1RBN1B1R1/1bP2QK1PN1/4PPpPP4/13/2pppqppp2/r2nkbnr1 b -", "C7°B8", 1),
    ("trigeo", "2n5Q/B7R1K/5p7/3P2k2n3/6pppr1/5br2 w -", "B2°D7", 1),
    ("trigeo", "2QNKB3/2PP2PPP2/3RB2pN4/6n2p3/1Rpppqpp1n1/1rb1kb1r1 b -", "D7°C9", 3),
    ("hexalit", "1R2KBNR1/1rPPPQPP3/4N1P6/2q1ppB1p1r2/2p3p1Pn1/2b1kb3 w -", "D7°F7", 1),
    ("hexalit", "3K1B3/k3n2R3/3b3PP4/3pP1P1p4/8PR1/5b1r1 b -", "B6°A6", 1),
]


@pytest.mark.parametrize("game,position,move,plies", FORCED_WINS)
def test_forced_wins_are_found(game, position, move, plies):
    state = ludothek.new_game(game, position)
    agent = AlphaBetaAgent(game, 3, Budget(iterations=200_000))
    analysis = agent.analyse(state)
    assert state.action_to_str(analysis.best) == state.action_to_str(state.parse_move(move))
    assert analysis.value == pytest.approx(1 - 0.001 * plies)
    assert analysis.line[0] == analysis.best


@pytest.mark.parametrize("game", DICE_GAMES)
def test_a_third_repetition_is_a_draw_in_both_searches(game):
    """Move m leads to a position that occurred twice before: its score is exactly 0."""
    rng = random.Random(11)
    for _ in range(60):
        state = ludothek.new_game(game)  # a calm opening: few threats
        for _ in range(rng.randrange(0, 8)):
            state.play(rng.choice(state.legal_actions()))
            _decide_chance(state, rng)
        if state.is_over():
            continue
        quiet = [a for a in state.legal_actions() if _reversible(state, a)]
        if not quiet:
            continue
        first = rng.choice(quiet)
        try:  # m, a reply, both back (the start occurs twice), then m, the reply, m back
            state.play(first)
            reply = [a for a in state.legal_actions() if _reversible(state, a)][0]
            for action in (reply, _back(first), _back(reply), first, reply, _back(first)):
                state.play(action)
        except (IndexError, ludothek.LudothekError):
            continue
        move = _back(reply)  # back to the start, for the third time
        if state.is_over() or move not in state.legal_actions():
            continue
        state.play(move)
        third = state.is_over() and state.result() == "draw" and state.ending() == "repetition"
        state.undo()
        if not third:
            continue  # (Hexalit: a temporary face turned back to 2 on the way)
        for search in (python_search, compiled_search):
            assert search(state, 2, 1, exact_root=True).scores[move] == 0.0
        return
    pytest.fail("no position for the repetition test")


@pytest.mark.parametrize("game", DICE_GAMES)
@pytest.mark.parametrize("nodes", [1, 50, 3000])
def test_a_node_budget_is_kept_and_reproducible(game, nodes):
    state = positions(game, 1, seed=5)[0]
    first = AlphaBetaAgent(game, 4, Budget(iterations=nodes)).analyse(state)
    again = AlphaBetaAgent(game, 4, Budget(iterations=nodes)).analyse(state)
    assert first.iterations == again.iterations <= nodes
    assert (first.best, first.scores, first.line) == (again.best, again.scores, again.line)
    assert first.best in state.legal_actions()


@pytest.mark.parametrize("game", DICE_GAMES)
def test_a_time_budget_stops_the_search(game):
    analysis = AlphaBetaAgent(game, 1, Budget(seconds=0.2)).analyse(ludothek.new_game(game))
    assert analysis.depth >= 1 and analysis.iterations > 0


@pytest.mark.parametrize("game", DICE_GAMES)
def test_the_bot_levels_play_whole_games_legally(game):
    """bot:2 (the compiled alpha-beta, 300 nodes) against random: every move legal (``play``
    checks it), the game ends, and the agent keeps its table between moves."""
    rng = random.Random(3)
    state = ludothek.new_game(game, max_plies=120)
    bot = make_agent("bot:2", game, seed=1)
    while not state.is_over():
        player = state.current_player()
        if player == CHANCE:
            state.play(rng.choice(state.legal_actions()))
        elif player == 0:
            state.play(bot.choose(state))
        else:
            state.play(rng.choice(state.legal_actions()))
    assert bot.compiled_tables is not None
    bot.reset()
    assert bot.compiled_tables is None


@pytest.mark.parametrize("game", DICE_GAMES)
def test_alphabeta_py_is_the_python_search(game, monkeypatch):
    agent = make_agent("alphabeta-py:300", game, seed=2)
    assert agent.name == "alphabeta-py" and not agent.compiled
    info = knowledge(game)

    def refuse(*args):
        raise AssertionError("alphabeta-py asked for the compiled search")

    monkeypatch.setattr(info, "compiled_alphabeta", refuse)
    state = positions(game, 1, seed=8)[0]
    analysis = agent.analyse(state)
    assert analysis.best in state.legal_actions() and analysis.iterations <= 300


def test_hexalit_with_the_cube_falls_back_to_the_python_search():
    state = ludothek.new_game("hexalit", cube=True)
    agent = AlphaBetaAgent("hexalit", 1, Budget(iterations=200))
    assert knowledge("hexalit").compiled_alphabeta(agent, state, agent.budget.clock()) is None
    assert agent.choose(state) in state.legal_actions()


def test_the_default_search_with_reductions_still_finds_good_moves():
    """With the table's cut-offs and the reductions (the agent's defaults) the search plays
    the same forced win and a sane move in the start position."""
    state = ludothek.new_game("trigeo")
    analysis = AlphaBetaAgent("trigeo", 1, Budget(iterations=20000)).analyse(state)
    assert analysis.depth >= 3 and abs(analysis.value) < 0.5
    assert analysis.line and analysis.line[0] == analysis.best


@pytest.mark.parametrize("game", DICE_GAMES)
def test_one_safety_is_the_original_definition(game):
    """``one_safety`` stops looking at free cells after two (only 0, 1, "2 or more" count):
    the same values as the original loop, on positions from random games (both sides)."""
    from ludothek.boards import triangle66 as T
    from ludothek.boards.triangle66 import G_TOUCH
    from ludothek.games.dice import eval_kernels
    from ludothek.games.dice import kernels as DK

    jumps = DK.JUMP_FIELDS_TRIGEO if game == "trigeo" else DK.NO_JUMPS

    # distinct weights, so that a term read from the wrong place shows
    w = eval_kernels.weights(threatened=1.7, neighbour=0.23, trapped=1.1, one_free=0.37)

    def original(board, side):
        king = int(DK.find_one(board, side))
        if king < 0:
            return -100.0
        score = 0.0
        if DK.is_attacked(board, T.GEO, king, 1 - side, jumps):
            score -= 1.7
        free = 0
        for k in range(12):
            t = int(T.GEO[king, G_TOUCH + k])
            if t < 0:
                break
            v = int(board[t]) * (1 - 2 * side)
            if v == 0:
                if not DK.is_attacked(board, T.GEO, t, 1 - side, jumps):
                    free += 1
            elif v < 0:
                score -= 0.23
        return score - (1.1 if free == 0 else 0.37 if free == 1 else 0.0)

    checked = 0
    for state in positions(game, 150, seed=21):
        for side in (0, 1):
            assert eval_kernels.one_safety(state.board, T.GEO, side, jumps, w) == original(state.board, side)
            checked += 1
    assert checked == 300
