"""Agents on every registered game: legal moves, reproducibility, forced wins."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE, OptionError
from ludothek.ai.alphabeta import AlphaBetaAgent
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.ai.mcts import MCTSAgent

from .strategies import random_game

GAMES = ludothek.games()
SMALL = {"trike": {"size": 7}}
SPECS = ["random", "mcts:40", "uct:40", "alphabeta:150", "bot:1", "bot:2"]


def decision_state(state):
    """Roll dice until a player is to move (a random game may stop at a chance node)."""
    while not state.is_over() and state.current_player() == CHANCE:
        state.play(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12)
@given(data=st.data())
def test_agents_only_play_legal_moves(game, data):
    state = decision_state(data.draw(random_game(game, max_plies=40, **SMALL.get(game, {}))))
    if state.is_over():
        return
    spec = data.draw(st.sampled_from(SPECS))
    before = state.key()
    action = make_agent(spec, game, seed=data.draw(st.integers(0, 99))).choose(state)
    assert action in state.legal_actions()
    assert state.key() == before, f"{spec} changed the state it was given"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cls,budget", [(MCTSAgent, 300), (AlphaBetaAgent, 400)])
def test_iteration_budgets_are_reproducible(game, cls, budget):
    state = decision_state(ludothek.new_game(game, **SMALL.get(game, {})))
    first = cls(game, seed=7, budget=Budget(iterations=budget)).analyse(state)
    again = cls(game, seed=7, budget=Budget(iterations=budget)).analyse(state)
    assert (first.best, first.scores, first.line) == (again.best, again.scores, again.line)
    assert first.iterations == again.iterations <= budget


# ---------------------------------------------------------------- forced wins, by game
FORCED_WINS = {
    # White wins at once on f4 (5 moves; the others keep the game going)
    ("trike", "1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w"): "f4",
    ("trike", "1/2/1w1/1bwb/3bb/Bbwwww/1wbb3 w"): "g1",
    ("trike", "1/1w/2w/1b2/4b/1w3b/2b2W1 b"): "g7",
    # mate in 1: the only win among 28 moves (Black's 2 takes White's 1)
    ("trigeo", "1RBN1B1R1/1bP2QK1PN1/4PPpPP4/13/2pppqppp2/r2nkbnr1 b -"): "C7°B8",
    ("trigeo", "2n5Q/B7R1K/5p7/3P2k2n3/6pppr1/5br2 w -"): "B2°D7",
    # mate in 2: D7°C9, and every reply allows a winning move
    ("trigeo", "2QNKB3/2PP2PPP2/3RB2pN4/6n2p3/1Rpppqpp1n1/1rb1kb1r1 b -"): "D7°C9",
    # Hexalit: the only winning move (a capture leaving the opponent no 1 / no escape)
    ("hexalit", "1R2KBNR1/1rPPPQPP3/4N1P6/2q1ppB1p1r2/2p3p1Pn1/2b1kb3 w -"): "D7°F7",
    ("hexalit", "3K1B3/k3n2R3/3b3PP4/3pP1P1p4/8PR1/5b1r1 b -"): "B6°A6",
    # a placement on the opponent's base line wins at once (the only one among 17)
    ("bitis", "43:7526 44:1495 53:2674 IV A"): "III34:9615",
    ("bitis", "41:2675 32:4853 31:7328 IV B"): "V51:7624",
}


def forced_win_cases(game_filter=None):
    return [(g, p, m) for (g, p), m in FORCED_WINS.items()
            if (game_filter is None or g == game_filter) and g in GAMES]


#: positions where the win takes two moves of the winner (the rest win at once)
MATE_IN_2 = {"2QNKB3/2PP2PPP2/3RB2pN4/6n2p3/1Rpppqpp1n1/1rb1kb1r1 b -"}


@pytest.mark.parametrize("game,position,move", forced_win_cases())
@pytest.mark.parametrize("spec", ["mcts:300", "alphabeta:2000", "bot:3", "bot:2"])
def test_agents_find_the_winning_move(game, position, move, spec):
    if position in MATE_IN_2 and spec in ("mcts:300", "bot:2"):
        spec = "mcts:4000"  # proving every defence needs more simulations
    state = ludothek.new_game(game, position)
    action = make_agent(spec, game, seed=3).choose(state)
    assert state.action_to_str(action) == state.action_to_str(state.parse_move(move))


def test_analysis_reports_the_win_with_a_line():
    state = ludothek.new_game("trike", "1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w")
    for agent in (MCTSAgent("trike", seed=1, budget=Budget(iterations=500)),
                  AlphaBetaAgent("trike", seed=1, budget=Budget(iterations=2000), exact_root=True)):
        analysis = agent.analyse(state)
        assert state.action_to_str(analysis.best) == "f4"
        assert analysis.value > 0.9
        assert analysis.line[0] == analysis.best
        assert set(analysis.scores) <= set(state.legal_actions())


def test_bot_specs_and_errors():
    assert make_agent("bot:5", "trike").name == "bot:5"
    with pytest.raises(OptionError):
        make_agent("bot:9", "trike")
    with pytest.raises(OptionError):
        make_agent("bot", "trike")
    with pytest.raises(OptionError):
        make_agent("mcts:fast", "trike")
    with pytest.raises(ludothek.UnknownGame):
        make_agent("bot:1", "chess")


def test_budget_parsing():
    assert Budget.parse("2s") == Budget(seconds=2.0)
    assert Budget.parse("250ms") == Budget(seconds=0.25)
    assert Budget.parse("20k") == Budget(iterations=20000)
    assert Budget.parse("800") == Budget(iterations=800)
    with pytest.raises(OptionError):
        Budget.parse("-3")


def test_tree_reuse_keeps_the_subtree():
    state = ludothek.new_game("trike", size=7)
    agent = MCTSAgent("trike", seed=1, budget=Budget(iterations=400))
    state.play(agent.choose(state))
    state.play(state.legal_actions()[0])
    reused = agent._reused_root(state)
    assert reused is not None and reused.n > 0
    assert agent._reused_root(ludothek.new_game("trike", size=7)) is None


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered")
def test_rolls_are_chance_nodes_searched_by_their_probabilities():
    from ludothek.ai.mcts import Node

    state = ludothek.new_game("hexalit")
    agent = MCTSAgent("hexalit", seed=2, budget=Budget(iterations=3000))
    agent.analyse(state)
    root = agent._root
    rolls = [a for a in root.children if state.action_to_str(a).endswith("W")]
    assert rolls, "rolling a 2 is legal at the start"
    busiest = max(rolls, key=lambda a: root.children[a].n)
    chance: Node = root.children[busiest]
    assert chance.player == CHANCE and chance.n >= 12
    visits = [chance.children[a].n if a in chance.children else 0 for a in chance.actions]
    # outcomes are visited in proportion to their probability 1/6: within one visit
    assert max(visits) - min(visits) <= 1



def test_compiled_trike_search_is_reproducible_and_counts_its_simulations():
    from ludothek.games.trike import mcts as mcts_trike

    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    assert mcts_trike.applicable(state)
    runs = [MCTSAgent("trike", seed=5, budget=Budget(iterations=700)).analyse(state) for _ in range(2)]
    assert runs[0].best == runs[1].best and runs[0].visits == runs[1].visits
    assert runs[0].iterations == 700
    assert sum(runs[0].visits.values()) == 700  # every simulation passes one root move
    assert set(runs[0].visits) == set(state.legal_actions())
    # the opening move and the swap decision stay with the generic tree
    assert not mcts_trike.applicable(ludothek.new_game("trike", size=9))


@pytest.mark.parametrize("game", [g for g in ("trigeo", "hexalit") if g in GAMES])
def test_quiescence_follows_captures_best_victim_first(game):
    from ludothek.ai.knowledge import knowledge

    state = ludothek.new_game(game, "1RBN1B1R1/1bP2QK1PN1/4PPpPP4/13/2pppqppp2/r2nkbnr1 b -")
    noisy = knowledge(game).noisy(state, state.legal_actions())
    assert noisy, "Black has captures here"
    texts = [state.action_to_str(a) for a in noisy]
    assert all("°" in t for t in texts)
    victims = [abs(int(state.board[a % 4356 % 66])) for a in noisy]
    assert victims == sorted(victims, reverse=True)
    assert len(noisy) == sum("°" in state.action_to_str(a) for a in state.legal_actions())
