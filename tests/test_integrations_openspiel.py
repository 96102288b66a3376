"""The OpenSpiel adapter (ludothek.integrations.openspiel) on every registered game.

Our own checks in the spirit of OpenSpiel's API and simulation tests, for what applies to
Python games: random simulations (OpenSpiel's C++ ``random_sim_test`` with serialization),
pickling, serialize/deserialize round trips, cloning, legal actions and chance outcomes,
strings, observations, perfect recall, returns, and agreement with our own API."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludothek
from ludothek.core.protocol import CHANCE
from ludothek.core.registry import game_class, games
from ludothek.integrations import openspiel as los

#: small settings per game, to keep the tests fast
SMALL = {"trike": {"size": 7}, "trigeo": {"max_plies": 40}, "hexalit": {"max_plies": 40}, "bitis": {}}
GAMES = games()


def small(name: str, **extra) -> dict:
    known = {o.name for o in game_class(name).OPTIONS}
    options = {k: v for k, v in SMALL.get(name, {}).items() if k in known}
    options.update(extra)
    return options


def load(name: str, **extra):
    return los.load_game(name, **small(name, **extra))


def has_first(name: str) -> bool:
    return any(o.name == "first" and o.choices for o in game_class(name).OPTIONS)


def variants() -> list[tuple[str, dict]]:
    out = [(name, {}) for name in GAMES]
    out += [(name, {"first": "roll"}) for name in GAMES if has_first(name)]
    # Hexalit for stakes: cube offers and answers inside a turn
    out += [(name, {"cube": True}) for name in GAMES if "cube" in {o.name for o in game_class(name).OPTIONS}]
    return out


VARIANTS = variants()
IDS = [name + ("-" + ",".join(f"{k}={v}" for k, v in extra.items()) if extra else "") for name, extra in VARIANTS]


def random_states(game, seed: int, games_count: int = 2, max_states: int = 400):
    """States met along random games (chance sampled by its probabilities)."""
    rng = random.Random(seed)
    states = []
    for _ in range(games_count):
        state = game.new_initial_state()
        while True:
            states.append(state.clone())
            if state.is_terminal() or len(states) >= max_states:
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return states


# ---------------------------------------------------------------------------- registration
def test_every_game_is_registered():
    registered = set(pyspiel.registered_names())
    for name in GAMES:
        assert los.short_name(name) in registered
        game = pyspiel.load_game(los.short_name(name))
        assert isinstance(game, los.LudothekGame)
        assert game.num_distinct_actions() == ludothek.new_game(name).num_actions


def test_register_all_is_idempotent():
    assert los.register_all() == los.register_all() == [los.short_name(n) for n in GAMES]


@pytest.mark.parametrize("name", GAMES)
def test_parameters_are_the_options(name):
    cls = game_class(name)
    game = pyspiel.load_game(los.short_name(name))
    params = game.get_parameters()
    for option in cls.OPTIONS:
        assert params[option.name] == option.default
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == params


def test_trike_size_is_a_parameter():
    for size in (7, 9):
        game = pyspiel.load_game(f"ludothek_trike(size={size})")
        cells = size * (size + 1) // 2
        assert game.num_distinct_actions() == cells + 1
        assert game.max_game_length() == cells + 1
        assert game.observation_tensor_shape() == [8, size, size]
        state = game.new_initial_state()
        assert state.legal_actions() == list(range(cells))
    # options given as text are converted like on the command line
    assert los.load_game("trike", size="9").num_distinct_actions() == 46


def test_bad_parameters_fail_clearly():
    with pytest.raises(ValueError, match="option 'size' must be at least 7"):
        pyspiel.load_game("ludothek_trike(size=5)")
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("ludothek_trike(colour=3)")


@pytest.mark.parametrize("name", GAMES)
def test_game_type(name):
    game = load(name)
    kind = game.get_type()
    assert kind.short_name == los.short_name(name)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert kind.provides_observation_tensor
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    stochastic = kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert stochastic == (los._has_chance(game_class(name)) or has_first(name))
    assert len(game.new_initial_states()) == 1


# ---------------------------------------------------------------------------- simulation
@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_random_sim_test_with_serialization(name, extra):
    pyspiel.random_sim_test(load(name, **extra), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_api_properties_on_random_states(name, extra):
    game = load(name, **extra)
    kind = game.get_type()
    n = game.num_distinct_actions()
    size = game.observation_tensor_size()
    for state in random_states(game, seed=3):
        player = state.current_player()
        assert state.is_terminal() == (player == pyspiel.PlayerId.TERMINAL)
        assert state.is_chance_node() == (player == pyspiel.PlayerId.CHANCE)
        assert state.is_player_node() == (player >= 0)
        assert len(state.history()) <= game.max_game_length()
        assert state.move_number() <= game.max_move_number()
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        if state.is_terminal():
            assert legal == [] and all(state.legal_actions(p) == [] for p in range(2))
            returns = state.returns()
            assert sum(returns) == 0.0
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
            assert [state.player_return(p) for p in range(2)] == returns
            with pytest.raises(RuntimeError):
                state.information_state_string()
            continue
        assert state.returns() == [0.0, 0.0]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert all(0 <= a < game.max_chance_outcomes() for a in legal)
            with pytest.raises(RuntimeError):
                state.information_state_string()
            continue
        assert all(0 <= a < n for a in legal)
        assert state.legal_actions(1 - player) == []
        mask = state.legal_actions_mask()
        assert len(mask) == n and [a for a, m in enumerate(mask) if m] == legal
        # action strings are unique here and read back
        texts = [state.action_to_string(player, a) for a in legal]
        assert len(set(texts)) == len(texts)
        for a in random.Random(len(legal)).sample(legal, min(5, len(legal))):
            assert state.string_to_action(state.action_to_string(player, a)) == a
        # observations
        for p in range(2):
            tensor = np.array(state.observation_tensor(p))
            assert tensor.shape == (size,)
            assert ((tensor >= 0) & (tensor <= 1)).all()
            assert state.observation_string(p) == str(state)
        assert state.information_state_string(0) == state.information_state_string(1)
        for bad in (-1, 3):
            with pytest.raises(RuntimeError, match="player"):
                state.observation_tensor(bad)
            with pytest.raises(RuntimeError, match="player"):
                state.information_state_string(bad)
    assert kind.provides_observation_tensor


@pytest.mark.parametrize("name", GAMES)
def test_num_distinct_actions_does_not_depend_on_the_position(name):
    game = load(name)
    for state in random_states(game, seed=5, games_count=1):
        inner = state.ludothek_state
        assert inner.num_actions == game.num_distinct_actions()


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_information_state_is_perfect_recall(name, extra):
    game = load(name, **extra)
    rng = random.Random(11)
    seen: dict[str, tuple] = {}
    for _ in range(3):
        state = game.new_initial_state()
        previous = None
        while not state.is_terminal():
            if not state.is_chance_node():
                info = state.information_state_string(state.current_player())
                # one information state, one history (and one player to act there)
                key = (tuple(state.history()), state.current_player())
                assert seen.setdefault(info, key) == key
                if previous is not None:
                    assert info.startswith(previous)
                previous = info
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])


# ---------------------------------------------------------------------------- round trips
def _same(a, b):
    assert str(a) == str(b)
    assert a.history() == b.history()
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.returns() == b.returns()
    assert a.is_terminal() == b.is_terminal()
    if not a.is_chance_node() and not a.is_terminal():
        assert a.observation_tensor(0) == b.observation_tensor(0)
        assert a.information_state_string(0) == b.information_state_string(0)


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_pickle_and_serialize_round_trips(name, extra):
    game = load(name, **extra)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    states = random_states(game, seed=7, games_count=1)
    for state in states[:: max(1, len(states) // 8)] + [states[-1]]:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        _same(state, state2)
        _same(state, pickle.loads(pickle.dumps(state)))
        _same(state, game.deserialize_state(state.serialize()))
        # the adapter keeps its Ludothek state as the action history: compact
        assert len(pickle.dumps(state)) < 800 + 12 * len(state.history())
        if state.ludothek_state is not None:
            assert state2.ludothek_state.key() == state.ludothek_state.key()


def test_pickles_load_in_a_fresh_interpreter():
    game = load("trike")
    state = game.new_initial_state()
    for action in (3, 28, 7):
        if action in state.legal_actions():
            state.apply_action(action)
    data = pickle.dumps((game, state))
    code = "import pickle, sys; g, s = pickle.loads(sys.stdin.buffer.read()); print(g); print(s); print(s.history())"
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().split("\n")[:3] == [str(game), str(state), str(state.history())]


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    game = load(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    before = (str(state), state.history(), state.legal_actions(), state.ludothek_state.key())
    clone = state.clone()
    _same(state, clone)
    action = clone.legal_actions()[-1]
    clone.apply_action(action)
    assert clone.history() == before[1] + [action]
    assert (str(state), state.history(), state.legal_actions(), state.ludothek_state.key()) == before
    assert clone.ludothek_state.key() != before[3]


# ---------------------------------------------------------------------------- behaviour
@pytest.mark.parametrize("name", [n for n in GAMES if has_first(n)])
def test_first_roll_is_a_chance_node(name):
    game = load(name, first="roll")
    first = next(o for o in game_class(name).OPTIONS if o.name == "first")
    assert game.max_game_length() == load(name).max_game_length() + 1
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 1 / len(first.choices)) for i in range(len(first.choices))]
    for i, choice in enumerate(first.choices):
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, i) == f"first={choice}"
        child = state.child(i)
        ours = ludothek.new_game(name, **small(name, first=choice))
        assert str(child) == ours.position()
        assert child.current_player() == ours.current_player()
        assert child.legal_actions() == ours.legal_actions()


def test_hexalit_rolls_are_chance_nodes():
    if "hexalit" not in GAMES:
        pytest.skip("hexalit is not registered yet")
    game = load("hexalit")
    state = game.new_initial_state()
    ours = ludothek.new_game("hexalit", **small("hexalit"))
    roll = next(a for a in ours.legal_actions() if ours.action_to_str(a).upper().endswith("W"))
    state.apply_action(roll)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes] == list("123456")
    # the rolling die is marked in the observation while the chance node is open
    planes = los.encoder_for("hexalit", game.options).planes
    tensor = np.array(state.observation_tensor(0)).reshape(game.observation_tensor_shape())
    assert tensor[planes.index("rolling")].sum() == 1


def test_length_cap_for_games_without_a_bound():
    capped = [n for n in GAMES if los._needs_length_parameter(game_class(n))]
    for name in capped:
        game = load(name, max_game_length=3)
        assert game.max_game_length() == 3
        for state in random_states(game, seed=1, games_count=3):
            assert len(state.history()) <= 3
            if len(state.history()) == 3:
                assert state.is_terminal()
                if not state.ludothek_state.is_over():
                    assert state.returns() == [0.0, 0.0]


def test_illegal_actions_are_refused():
    game = load("trike")
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(0)


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_adapter_agrees_with_our_api(name, extra):
    """Random games played through the adapter and through our own API in step."""
    game = load(name, **extra)
    rng = random.Random(17)
    for _ in range(2):
        state = game.new_initial_state()
        ours = None
        if extra.get("first") == "roll":  # the adapter's chance node: the roll for the first player
            assert state.is_chance_node()
            action = rng.choice(state.legal_actions())
            first = game_class(name).OPTIONS
            choices = next(o for o in first if o.name == "first").choices
            state.apply_action(action)
            ours = ludothek.new_game(name, **small(name, first=choices[action]))
        else:
            ours = ludothek.new_game(name, **small(name, **extra))
        while True:
            player = ours.current_player()
            assert state.current_player() == player  # CHANCE and TERMINAL share OpenSpiel's ids
            assert str(state) == ours.position()
            if ours.is_over():
                break
            assert state.legal_actions() == ours.legal_actions()
            if player == CHANCE:
                assert state.chance_outcomes() == [(a, p) for a, p in ours.chance_outcomes()]
                actions, probs = zip(*ours.chance_outcomes())
                action = rng.choices(actions, probs)[0]
            else:
                assert sorted(state.action_to_string(player, a) for a in state.legal_actions()) == ours.legal_moves()
                action = rng.choice(ours.legal_actions())
            ours.play(action)
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == ours.returns()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_searches_our_games(name):
    game = load(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 30, 100, True, 0, False)
    root = bot.mcts_search(state)
    assert root.best_child().action in state.legal_actions()
