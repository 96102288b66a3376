"""Ludothek's games as OpenSpiel games (optional extra ``ludothek[openspiel]``).

Importing this module registers every game of the registry with OpenSpiel as a Python game
named ``ludothek_<game>``; ``import ludothek`` imports it as soon as ``pyspiel`` is imported
too, in either order (:mod:`._pyspiel_hook`). Load a game with its options as parameters::

    import pyspiel
    import ludothek.integrations.openspiel  # registers the games (so does `import ludothek`)
    game = pyspiel.load_game("ludothek_<game>(<option>=<value>)")
    # or: ludothek.integrations.openspiel.load_game("<game>", <option>=<value>)

Everything follows the Ludothek game protocol (:mod:`ludothek.core.protocol`) and the game's
spec (:mod:`ludothek.core.spec`), so a game needs no code here; its package's observation
encoder (:mod:`.observe`) documents its tensor layout, action count and length bound:

* **Parameters** — the game's options (``size``, ``first``, ``max_plies``, ``cube``, ...)
  with their defaults. For a game with a ``first`` option the extra value ``first=roll``
  starts the game with an explicit **chance node** deciding who moves first: outcome ``i``
  (probability 1/2) means ``first = <i-th choice of the option>`` (``first=white``, ...).
  The length of a game is the state class's ``length_bound(options)``; a game whose rules
  set no bound (its ``length_bound`` is ``None``) gets the parameter ``max_game_length``
  (default 1000): OpenSpiel needs a bound, so a game reaching it ends there as a draw.
* **Actions** — exactly the game's own fixed integer encoding (documented in each state
  class's docstring): ``num_distinct_actions`` is the game's ``num_actions``, which depends
  on the options only, never on the position. Chance outcomes are the game's own chance
  actions (for a game with dice rolls, the actions naming the faces), so
  ``max_chance_outcomes`` is ``num_actions`` for a game with chance (at least 2 with
  ``first=roll``; outcomes 0 and 1).
* **Players** — seats 0 and 1; seat ``i`` plays ``colours[i]`` unless the game swaps them
  (a pie rule). Chance and terminal use OpenSpiel's ids (the same numbers as ours).
* **Strings** — ``action_to_string`` is the canonical move notation (a chance outcome is the
  text the record appends to the roll, e.g. ``6``; the first-player roll ``first=<colour>``);
  ``string_to_action`` accepts it back. ``str(state)`` is the canonical position string.
* **Observations** — ``observation_tensor``: the planes of the game's observation encoder
  (pieces, the side to move, the observing seat, ...; the contract in :mod:`.observe`, each
  game's layout in its own package);
  ``observation_string``: the position string. ``information_state_string``: the perfect-
  recall history (game string, then every action id, chance outcomes included), the same
  for both players as the games have perfect information; no information-state tensor.
* **Returns** — the game's ``returns()``: +1 win, -1 loss, 0 draw; zero-sum, terminal only.
  (A stake, such as a doubling cube's, is not in them; the wrapped state's ``points()`` or
  ``score()`` has it.)
* **Serialization** — OpenSpiel's ``serialize_game_and_state`` and ``pickle`` both store the
  game string and the action history, replayed on loading.
* **Speed** — every step is Python; OpenSpiel's C++ algorithms work on these games through
  pybind11 (a C++ MCTS reaches a few thousand simulations a second on a small board).
  With open-spiel 2.0.2, ``MCTSBot.step`` crashes on Python games (any Python game, also
  OpenSpiel's own ``python_tic_tac_toe``); call ``bot.mcts_search(state).best_child().action``
  instead (see ``examples/vs_openspiel_mcts.py``).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import LudothekError
from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.registry import game_class, games, new_game
from ._extras import require
from .observe import Encoder, encoder_for

pyspiel = require("pyspiel", "openspiel", "open-spiel", "ludothek.integrations.openspiel")

PREFIX = "ludothek_"
#: value of the ``first`` parameter that adds the chance node deciding who starts
FIRST_ROLL = "roll"


# ---------------------------------------------------------------------------- helpers
def short_name(game: str) -> str:
    """OpenSpiel's name of a Ludothek game: ``<game>`` -> ``ludothek_<game>``."""
    return PREFIX + game


def _has_chance(cls: type[GameState]) -> bool:
    """Whether the game itself has chance nodes (it implements ``chance_outcomes``)."""
    return cls.chance_outcomes is not GameState.chance_outcomes


def _first_option(cls: type[GameState]):
    for option in cls.OPTIONS:
        if option.name == "first" and option.choices:
            return option
    return None


#: adapter parameter for games whose rules set no bound on their length
LENGTH_PARAMETER = "max_game_length"
DEFAULT_MAX_GAME_LENGTH = 1000


def _needs_length_parameter(cls: type[GameState]) -> bool:
    defaults = {o.name: o.default for o in cls.OPTIONS}
    return cls.length_bound(defaults) is None


def _parameter_spec(cls: type[GameState]) -> dict[str, Any]:
    spec = {o.name: o.default for o in cls.OPTIONS if isinstance(o.default, (bool, int, float, str))}
    if _needs_length_parameter(cls):
        spec[LENGTH_PARAMETER] = DEFAULT_MAX_GAME_LENGTH
    return spec


# ---------------------------------------------------------------------------- game
class LudothekGame(pyspiel.Game):
    """An OpenSpiel game over a Ludothek game; subclassed once per game (``GAME``)."""

    GAME: str = ""
    GAME_TYPE: Any = None

    def __init__(self, params: dict[str, Any] | None = None):
        cls = game_class(self.GAME)
        given = dict(_parameter_spec(cls))
        given.update(params or {})
        first = _first_option(cls)
        self.roll_first = first is not None and str(given.get("first", "")).lower() == FIRST_ROLL
        #: cap on the number of actions, for games whose rules set none (then a draw)
        self.length_cap: int | None = None
        options = dict(given)
        if _needs_length_parameter(cls):
            self.length_cap = options.pop(LENGTH_PARAMETER)
            if not isinstance(self.length_cap, int) or self.length_cap < 1:
                raise ValueError(f"{short_name(self.GAME)}: {LENGTH_PARAMETER} must be a positive whole number")
        if self.roll_first:
            del options["first"]
        try:
            probe = new_game(self.GAME, **options)
        except LudothekError as exc:
            raise ValueError(f"{short_name(self.GAME)}: {exc}") from None
        #: the Ludothek options of every game started here (without ``first=roll``)
        self.options = {k: v for k, v in probe.options.items() if not (self.roll_first and k == "first")}
        self.first_choices: tuple = tuple(first.choices) if self.roll_first else ()
        self.num_actions = probe.num_actions
        chance_outcomes = probe.num_actions if _has_chance(cls) else 0
        if self.roll_first:
            chance_outcomes = max(chance_outcomes, len(self.first_choices))
        length = self.length_cap or cls.length_bound(probe.options)
        if length is None:
            raise ValueError(
                f"{short_name(self.GAME)}: these options leave the game without a length bound "
                f"(length_bound({probe.options}) is None), which OpenSpiel needs"
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=chance_outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length + int(self.roll_first),
        )
        super().__init__(self.GAME_TYPE, info, given)

    def new_initial_state(self, *args: Any) -> LudothekState:
        return LudothekState(self)

    def new_ludothek_state(self, first: Any = None) -> GameState:
        """A Ludothek start state for this game's options (``first`` for ``first=roll``)."""
        options = dict(self.options)
        if first is not None:
            options["first"] = first
        return new_game(self.GAME, **options)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"{short_name(self.GAME)} observers take no parameters, got {params}")
        if iig_obs_type is None:
            return BoardObserver(self)
        if not iig_obs_type.public_info:
            # perfect information: nothing is private, so a private-only view is empty
            return EmptyObserver()
        if iig_obs_type.perfect_recall:
            return HistoryObserver(self)
        return BoardObserver(self)


# ---------------------------------------------------------------------------- state
def _replay(game: str, options: dict[str, Any], history: list[int]) -> _Inner:
    state = new_game(game, **options)
    for action in history:
        state.apply_action(action)
    return _Inner(state)


class _Inner:
    """Holds the wrapped Ludothek state. OpenSpiel clones a Python state by deep-copying its
    attributes and serializes it by pickling them: this holder copies with the game's own
    ``copy()`` and pickles as game name, options and action history, replayed on loading."""

    __slots__ = ("legal", "state")

    def __init__(self, state: GameState, legal: list[int] | None = None):
        self.state = state
        #: the legal actions of ``state`` once asked for (dropped when it changes)
        self.legal = legal

    def __deepcopy__(self, memo: dict) -> _Inner:
        return _Inner(self.state.copy(), self.legal)

    def __reduce__(self) -> tuple:
        return (_replay, (self.state.name, dict(self.state.options), self.state.history))


class LudothekState(pyspiel.State):
    """An OpenSpiel state wrapping a Ludothek :class:`GameState` (:attr:`ludothek_state`)."""

    def __init__(self, game: LudothekGame):
        super().__init__(game)
        self._name = game.GAME
        self._choices: tuple = game.first_choices
        # the wrapped Ludothek state; ``None`` while the ``first=roll`` chance node is open
        self._box: _Inner | None = None if game.roll_first else _Inner(game.new_ludothek_state())
        self._cap: int | None = game.length_cap

    @property
    def ludothek_state(self) -> GameState | None:
        """The wrapped Ludothek state, ``None`` before the ``first=roll`` chance node.
        Read it, do not play on it (``copy()`` it for that)."""
        return None if self._box is None else self._box.state

    # -- the OpenSpiel API
    def _capped(self) -> bool:
        """The adapter's length cap was reached (games whose rules set no bound): a draw."""
        return self._cap is not None and self._box is not None and self._box.state.ply >= self._cap

    def current_player(self) -> int:
        if self._box is None:
            return pyspiel.PlayerId.CHANCE
        if self._capped():
            return pyspiel.PlayerId.TERMINAL
        player = self._box.state.current_player()
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return player

    def _actions(self) -> list[int]:
        box = self._box
        if box is None:
            return list(range(len(self._choices)))
        if box.legal is None:
            if box.state.is_over() or self._capped():
                box.legal = []
            else:
                box.legal = [int(a) for a in box.state.legal_actions()]
                if not box.legal:
                    raise RuntimeError(
                        f"{short_name(self._name)}: position {box.state.position()!r} is not over "
                        "but has no legal actions (a bug in the game)"
                    )
        return box.legal

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(self._actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._box is None:
            n = len(self._choices)
            return [(i, 1.0 / n) for i in range(n)]
        if self._capped() or self._box.state.current_player() != CHANCE:
            return []
        return [(int(a), float(p)) for a, p in self._box.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if action not in self._actions():
            where = "the roll for the first player" if self._box is None else repr(self._box.state.position())
            raise ValueError(f"{short_name(self._name)}: action {action} is not legal in {where}")
        if self._box is None:
            game = self.get_game()
            self._box = _Inner(game.new_ludothek_state(self._choices[action]))
        else:
            self._box.legal = None
            self._box.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._box is None:
            if 0 <= action < len(self._choices):
                return f"first={self._choices[action]}"
            return f"action {action}"
        try:
            return self._box.state.action_to_str(int(action))
        except (LudothekError, IndexError, KeyError, ValueError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self._box is not None and (self._box.state.is_over() or self._capped())

    def returns(self) -> list[float]:
        if self._box is None or (self._capped() and not self._box.state.is_over()):
            return [0.0, 0.0]
        return [float(r) for r in self._box.state.returns()]

    def __str__(self) -> str:
        if self._box is None:
            return "(chance: who moves first, " + " or ".join(self._choices) + ")"
        return self._box.state.position()


# ---------------------------------------------------------------------------- observers
class BoardObserver:
    """OpenSpiel's observation: the game's planes (see :mod:`.observe`) and the position."""

    def __init__(self, game: LudothekGame):
        self.encoder: Encoder | None = encoder_for(game.GAME, game.options)
        self.dict: dict[str, Any] = {}
        if self.encoder is None:
            self.tensor = None
        else:
            import numpy as np

            shape = self.encoder.shape
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict["observation"] = self.tensor.reshape(shape)

    def set_from(self, state: LudothekState, player: int) -> None:
        if self.encoder is not None:
            self.encoder.encode_into(self.dict["observation"], state.ludothek_state, player)

    def string_from(self, state: LudothekState, player: int) -> str:
        return str(state)


class EmptyObserver:
    """What a player knows privately in a perfect-information game: nothing."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: LudothekState, player: int) -> None:
        pass

    def string_from(self, state: LudothekState, player: int) -> str:
        return ""


class HistoryObserver:
    """Perfect recall: the information state is the whole action history (the games are
    of perfect information, so both players share it)."""

    def __init__(self, game: LudothekGame):
        self.tensor = None
        self.dict: dict[str, Any] = {}
        self._game_string = str(game)

    def set_from(self, state: LudothekState, player: int) -> None:
        pass

    def string_from(self, state: LudothekState, player: int) -> str:
        return self._game_string + " history:" + "".join(f" {a}" for a in state.history())


# ---------------------------------------------------------------------------- registry
#: Ludothek game name -> its OpenSpiel game class
GAME_CLASSES: dict[str, type[LudothekGame]] = {}


def _game_type(name: str) -> Any:
    cls = game_class(name)
    stochastic = _has_chance(cls) or _first_option(cls) is not None
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name="Ludothek " + cls.title.get("en", name.title()),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=encoder_for(name, {o.name: o.default for o in cls.OPTIONS}) is not None,
        parameter_specification=_parameter_spec(cls),
    )


def register_all() -> list[str]:
    """Register every Ludothek game with OpenSpiel (again safe); return the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in games():
        if name not in GAME_CLASSES:
            game_type = _game_type(name)
            title = "".join(part.title() for part in name.split("_"))
            cls = type(f"{title}Game", (LudothekGame,), {"GAME": name, "GAME_TYPE": game_type, "__module__": __name__})
            GAME_CLASSES[name] = cls
            globals()[cls.__name__] = cls
        if short_name(name) not in known:
            pyspiel.register_game(GAME_CLASSES[name].GAME_TYPE, GAME_CLASSES[name])
        names.append(short_name(name))
    return names


def load_game(name: str, **options: Any) -> Any:
    """``pyspiel.load_game`` for a Ludothek game: ``load_game("<game>", <option>=<value>)``."""
    register_all()
    name = str(name).strip().lower()
    known = {o.name: o for o in game_class(name).OPTIONS}
    typed: dict[str, Any] = {}
    for key, value in options.items():
        if key in known and not (key == "first" and str(value).lower() == FIRST_ROLL):
            value = known[key].convert(value)
        elif key == LENGTH_PARAMETER and isinstance(value, str):
            value = int(value)
        typed[key] = value
    return pyspiel.load_game(short_name(name), typed)


register_all()
