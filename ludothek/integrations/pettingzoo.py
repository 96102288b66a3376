"""Ludothek's games as PettingZoo AEC environments (optional extra ``ludothek[pettingzoo]``).

::

    from ludothek.integrations.pettingzoo import env
    e = env("<game>", render_mode="ansi", <option>=<value>)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* **Agents** — ``player_0`` and ``player_1``: the game's seats (seat ``i`` plays
  ``colours[i]`` unless the game swaps them, as a pie rule does; ``infos[agent]``
  holds the ``colour`` it plays).
* **Actions** — ``Discrete(num_actions)``: the game's own fixed integer encoding (see each
  game's state class), the same as in the OpenSpiel adapter.
* **Observations** — ``{"observation": float32 planes (planes, rows, columns),
  "action_mask": int8 (num_actions,)}``; the planes come from the game's observation
  encoder (:mod:`.observe`; each game documents its layout in its package), the same
  tensors as OpenSpiel's ``observation_tensor``. The mask is all zero for an
  agent that is not to move.
* **Chance** — a game's own chance nodes (dice rolls) and, with option ``first="roll"``,
  the roll deciding who starts, are drawn by the environment from its seeded generator
  (``reset(seed=...)``).
* **Rewards** — at the end, the game's ``returns()``: +1 / -1, 0 for a draw.
  ``max_moves`` (optional) truncates a game after that many agent moves.
* **Rendering** — ``render_mode`` ``"ansi"`` (the board as text), ``"human"`` (printed) or
  ``"rgb_array"`` (a numpy picture: the game's own ``picture`` drawn with :mod:`.raster`).
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

import numpy as np

from ..core.errors import LudothekError
from ..core.protocol import CHANCE, GameState
from ..core.registry import game_class, games, new_game
from ..core.texts import TEXTS
from ._extras import require
from .observe import encoder_for
from .raster import draw

require("pettingzoo", "pettingzoo", "pettingzoo", "ludothek.integrations.pettingzoo")
require("gymnasium", "pettingzoo", "gymnasium", "ludothek.integrations.pettingzoo")

from gymnasium import spaces
from pettingzoo import AECEnv

#: value of the ``first`` option that lets the environment roll for the first player
FIRST_ROLL = "roll"
AGENTS = ("player_0", "player_1")


def text_of(state: GameState) -> str:
    """The game's terminal rendering as plain text."""
    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None, force_terminal=False, legacy_windows=False).print(state.render())
    return buffer.getvalue()


class LudothekEnv(AECEnv):
    """An AEC environment over one Ludothek game; :func:`env` makes one by game name."""

    GAME: str = ""
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, max_moves: int | None = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"render_mode must be one of {modes} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_moves = max_moves
        cls = game_class(self.GAME)
        first = next((o for o in cls.OPTIONS if o.name == "first" and o.choices), None)
        self.roll_first = first is not None and str(options.get("first", "")).lower() == FIRST_ROLL
        if self.roll_first:
            options = {k: v for k, v in options.items() if k != "first"}
        self.first_choices: tuple = tuple(first.choices) if self.roll_first else ()
        probe = new_game(self.GAME, **options)  # checks the options
        self.options = {k: v for k, v in probe.options.items() if not (self.roll_first and k == "first")}
        self.num_actions = probe.num_actions
        self.encoder = encoder_for(self.GAME, probe.options)
        if self.encoder is None:
            raise LudothekError(TEXTS("no_encoder", game=repr(self.GAME)))
        self.possible_agents = list(AGENTS)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, self.encoder.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self._ludothek: GameState | None = None
        self._rng = np.random.default_rng()
        self.moves = 0

    # -- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    @property
    def game_state(self) -> GameState:
        """The Ludothek state being played (read it; ``copy()`` it to explore)."""
        assert self._ludothek is not None, "call reset() first"
        return self._ludothek

    # -- the AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._ludothek is None:
            self._rng = np.random.default_rng(seed)
        start = dict(self.options)
        if self.roll_first:
            start["first"] = self.first_choices[int(self._rng.integers(len(self.first_choices)))]
        self._ludothek = new_game(self.GAME, **start)
        self.moves = 0
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._update_infos()
        self.agent_selection = AGENTS[self._ludothek.current_player()]
        self._finish_if_over()

    def _resolve_chance(self) -> None:
        state = self._ludothek
        while state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            weights = np.array([p for _, p in outcomes], float)
            pick = int(self._rng.choice(len(outcomes), p=weights / weights.sum()))
            state.apply_action(int(outcomes[pick][0]))

    def _update_infos(self) -> None:
        for seat, agent in enumerate(AGENTS):
            if agent in self.infos:
                self.infos[agent] = {"colour": self._ludothek.seat_colour(seat)}

    def _finish_if_over(self) -> None:
        state = self._ludothek
        if state.is_over():
            for seat, agent in enumerate(AGENTS):
                self.rewards[agent] = float(state.returns()[seat])
                self.terminations[agent] = True
        elif self.max_moves is not None and self.moves >= self.max_moves:
            for agent in AGENTS:
                self.truncations[agent] = True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        seat = AGENTS.index(agent)
        if action is None:
            raise ValueError(f"{agent} is to move in {state.position()!r}: None is only for finished agents")
        action = int(action)
        legal = state.legal_actions()
        if action not in legal:
            raise ValueError(f"action {action} is not legal for {agent} in {self.GAME} position {state.position()!r}")
        assert state.current_player() == seat
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply_action(action)
        self.moves += 1
        self._resolve_chance()
        self._update_infos()
        self._finish_if_over()
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = AGENTS[1 - seat]
        else:
            self.agent_selection = AGENTS[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        seat = AGENTS.index(agent)
        mask = np.zeros(self.num_actions, np.int8)
        if not state.is_over() and state.current_player() == seat:
            mask[state.legal_actions()] = 1
        return {"observation": self.encoder.encode(state, seat), "action_mask": mask}

    def render(self) -> Any:
        if self.render_mode is None:
            import warnings

            warnings.warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        state = self.game_state
        if self.render_mode == "rgb_array":
            return draw(self.GAME, state)
        text = text_of(state) + f"position: {state.position()}\n"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


#: game name -> its environment class
ENV_CLASSES: dict[str, type[LudothekEnv]] = {}


def _env_class(game: str) -> type[LudothekEnv]:
    name = str(game).strip().lower()
    if name not in ENV_CLASSES:
        game_class(name)  # raises UnknownGame with the known names
        title = "".join(part.title() for part in name.split("_"))
        metadata = dict(LudothekEnv.metadata, name=f"ludothek_{name}_v0", render_fps=2)
        cls = type(f"{title}Env", (LudothekEnv,), {"GAME": name, "metadata": metadata, "__module__": __name__})
        ENV_CLASSES[name] = cls
        globals()[cls.__name__] = cls
    return ENV_CLASSES[name]


def raw_env(game: str, render_mode: str | None = None, **options: Any) -> LudothekEnv:
    """The environment of ``game`` with these game options (``first="roll"`` to roll for the
    first player where the game has a ``first`` option; ``max_moves`` to truncate)."""
    return _env_class(game)(render_mode=render_mode, **options)


def env(game: str, render_mode: str | None = None, **options: Any) -> LudothekEnv:
    """Like :func:`raw_env` (the environment already checks actions and agent order, so it
    needs none of PettingZoo's wrappers)."""
    return raw_env(game, render_mode=render_mode, **options)


for _name in games():
    _env_class(_name)
