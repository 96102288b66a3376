"""The PettingZoo adapter (ludothek.integrations.pettingzoo) on every registered game."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import ludothek
from ludothek.core.registry import game_class, games
from ludothek.integrations import pettingzoo as lpz

SMALL = {"trike": {"size": 7}, "trigeo": {"max_plies": 40}, "hexalit": {"max_plies": 40}, "bitis": {}}
GAMES = games()


def small(name: str, **extra) -> dict:
    known = {o.name for o in game_class(name).OPTIONS}
    options = {k: v for k, v in SMALL.get(name, {}).items() if k in known}
    options.update(extra)
    return options


def has_first(name: str) -> bool:
    return any(o.name == "first" and o.choices for o in game_class(name).OPTIONS)


def make(name: str, render_mode=None, **extra):
    return lpz.env(name, render_mode=render_mode, **small(name, **extra))


VARIANTS = [(n, {}) for n in GAMES] + [(n, {"first": "roll"}) for n in GAMES if has_first(n)]
VARIANTS += [(n, {"cube": True}) for n in GAMES if "cube" in {o.name for o in game_class(n).OPTIONS}]
IDS = [n + "".join(f"-{k}={v}" for k, v in extra.items()) for n, extra in VARIANTS]


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_pettingzoo_api_test(name, extra):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's style hints about dict observations
        api_test(make(name, render_mode="ansi", **extra), num_cycles=60)


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_pettingzoo_seed_test(name, extra):
    seed_test(lambda: make(name, **extra), num_cycles=40)


def test_every_game_has_an_environment():
    for name in GAMES:
        env = lpz.env(name)
        assert str(env) == f"ludothek_{name}_v0"
        assert env.action_space("player_0").n == ludothek.new_game(name).num_actions
    with pytest.raises(ludothek.UnknownGame):
        lpz.env("chess")


def _play_random(env, rng):
    """Play one random game; yield (agent, observation) before every move."""
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, obs
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("name,extra", VARIANTS, ids=IDS)
def test_environment_agrees_with_our_api(name, extra):
    """Replay the environment's games on our own states: same legal moves, same result."""
    rng = np.random.default_rng(5)
    for seed in (1, 2):
        env = make(name, **extra)
        env.reset(seed=seed)
        first = env.game_state
        ours = ludothek.new_game(name, **dict(first.options))
        for agent, obs in _play_random(env, rng):
            history = env.game_state.history
            for action in history[ours.ply :]:
                ours.play(action)  # chance outcomes drawn by the environment, and moves
            seat = ours.current_player()
            assert agent == f"player_{seat}"
            assert list(np.flatnonzero(obs["action_mask"])) == ours.legal_actions()
            assert env.infos[agent]["colour"] == ours.seat_colour(seat)
            other = env.observe(f"player_{1 - seat}")
            assert not other["action_mask"].any()
        final = env.game_state
        for action in final.history[ours.ply :]:
            ours.play(action)
        assert ours.is_over() and ours.key() == final.key()
        assert ours.returns() == [float(r) for r in final.returns()]


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_the_returns(name):
    env = make(name)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    collected = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        collected[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [collected[a] for a in env.possible_agents] == env.game_state.returns()


@pytest.mark.parametrize("name", [n for n in GAMES if has_first(n)])
def test_first_roll_depends_on_the_seed(name):
    choices = next(o for o in game_class(name).OPTIONS if o.name == "first").choices
    seen = set()
    for seed in range(12):
        env = make(name, first="roll")
        env.reset(seed=seed)
        seen.add(env.agent_selection)
        again = make(name, first="roll")
        again.reset(seed=seed)
        assert again.agent_selection == env.agent_selection
    assert len(seen) == len(choices)


@pytest.mark.parametrize("name", GAMES)
def test_observations(name):
    env = make(name)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    space = env.observation_space(env.agent_selection)
    assert space.contains(obs)
    planes = env.encoder.planes
    assert obs["observation"].shape == (len(planes), *env.encoder.grid)
    # the observing seat's planes differ between the two agents
    a, b = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    assert (a[planes.index("observer_to_act")] != b[planes.index("observer_to_act")]).all()
    assert not np.array_equal(a, b)


def test_trike_observation_planes():
    env = lpz.env("trike", size=7)
    env.reset(seed=0)
    env.step(4)  # black on c2
    obs = env.observe("player_1")["observation"]
    planes = env.encoder.planes
    assert obs[planes.index("black"), 2, 1] == 1 and obs[planes.index("black")].sum() == 1
    assert obs[planes.index("pawn"), 2, 1] == 1
    assert obs[planes.index("empty")].sum() == 27
    assert obs[planes.index("black_to_move")].max() == 0
    assert obs[planes.index("observer_black")].max() == 0
    env.step(env.num_actions - 1)  # swap: player_1 now holds Black
    obs = env.observe("player_1")["observation"]
    assert obs[planes.index("swapped")].min() == 1 and obs[planes.index("observer_black")].min() == 1
    assert env.infos["player_1"]["colour"] == "black"


@pytest.mark.parametrize("name", GAMES)
def test_render_modes(name, capsys):
    env = make(name, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and env.game_state.position() in text
    picture = make(name, render_mode="rgb_array")
    picture.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(4):
        obs, _, terminated, truncated, _ = picture.last()
        if terminated or truncated:
            break
        picture.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 50 and image.shape[1] > 50
    assert len(np.unique(image.reshape(-1, 3), axis=0)) >= 4
    human = make(name, render_mode="human")
    human.reset(seed=0)
    human.render()
    assert env.game_state.position() in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        lpz.env(name, render_mode="video")


def test_illegal_actions_and_truncation():
    env = lpz.env("trike", size=7)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)
    with pytest.raises(ValueError):
        env.step(None)
    short = lpz.env("trike", size=7, max_moves=3)
    short.reset(seed=0)
    rng = random.Random(0)
    steps = 0
    for agent in short.agent_iter():
        obs, _, terminated, truncated, _ = short.last()
        if terminated or truncated:
            assert truncated and not terminated
            short.step(None)
            continue
        short.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 3
