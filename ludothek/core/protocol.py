"""The game protocol: what every Ludothek game state offers.

Modelled on python-chess's ``Board`` (play/undo, notation in and out) and OpenSpiel's
``State`` (integer actions, current player, chance outcomes, returns), so both audiences
feel at home.

Vocabulary
----------
* **action** — an ``int`` from the game's fixed action encoding (``0 <= a < num_actions``).
  Bots, kernels and research integrations work with actions.
* **move** — the canonical notation of an action (``str``), what people read and type.
* **seat** — a player, ``0`` or ``1``.  Seat ``i`` plays ``colours[i]`` unless the game
  lets players exchange colours (a pie rule); :meth:`GameState.seat_colour` knows.
* **chance** — a state whose next action is picked by chance (a die roll); its legal
  actions are the outcomes, listed with probabilities by :meth:`chance_outcomes`.

A subclass implements the abstract methods; everything else here is shared.
"""

from __future__ import annotations

import copy as _copy
import inspect
import operator
import random
from abc import ABC, abstractmethod
from collections import Counter
from functools import lru_cache
from typing import Any, Callable, ClassVar, Hashable, NamedTuple

from .errors import GameOver, IllegalMove, OptionError, ParseError, shown
from .options import Option, resolve
from .texts import TEXTS

CHANCE = -1
TERMINAL = -4
#: the deepest perft anyone can ask for (a deeper count would never finish)
MAX_PERFT_DEPTH = 1000


def action_number(value: Any) -> int:
    """``value`` as a plain ``int`` action: an ``int`` or any integer with ``__index__``
    (NumPy integers), but not a ``bool``; :class:`ParseError` otherwise."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ParseError(TEXTS("action_number", kind=type(value).__name__, value=shown(value)))


def perft_depth(depth: Any) -> int:
    """``depth`` checked for :meth:`GameState.perft`: a whole number 0 … ``MAX_PERFT_DEPTH``."""
    try:
        if isinstance(depth, bool):
            raise TypeError
        depth = operator.index(depth)
    except TypeError:
        raise OptionError(TEXTS("perft_depth_type", kind=type(depth).__name__, value=shown(depth))) from None
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise OptionError(TEXTS("perft_depth_range", most=MAX_PERFT_DEPTH, depth=depth))
    return depth


def playout_args(count: Any, seed: Any) -> tuple[int, int]:
    """``count`` and ``seed`` checked for :meth:`GameState.random_playouts`: whole numbers
    from 0 to 2**63 - 1 (what the compiled kernels take)."""
    checked = []
    for name, value in (("count", count), ("seed", seed)):
        try:
            if isinstance(value, bool):
                raise TypeError
            value = operator.index(value)
        except TypeError:
            kind = type(value).__name__
            raise OptionError(TEXTS("playout_type", which=name, kind=kind, value=shown(value))) from None
        if not 0 <= value < 2**63:
            raise OptionError(TEXTS("playout_range", which=name, value=shown(value)))
        checked.append(value)
    return checked[0], checked[1]


@lru_cache(maxsize=None)
def _takes_language(draw: Callable[..., Any]) -> bool:
    """Whether a game's renderer takes the language (``(state, lang)``, as the spec asks); a
    plugin written before renderers took it draws with ``(state)`` alone."""
    try:
        parameters = list(inspect.signature(draw).parameters.values())
    except (TypeError, ValueError):
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in parameters)


class RecordEntry(NamedTuple):
    """One token of a game's record: a move, or a roll with its outcome joined to it."""

    text: str  # the token as a record writes it, e.g. ``B5W4``
    parts: tuple[str, ...]  # the notation of each action in it, e.g. ``("B5W", "4")``
    start: int  # the ply before its first action
    end: int  # the ply after its last action
    colour: str | None  # who made the move (``None`` for a setup-time chance action)


class GameState(ABC):
    #: registry name (the name in the ``ludothek.games`` entry points)
    name: ClassVar[str]
    #: display names per language
    title: ClassVar[dict[str, str]]
    #: colour names of seat 0 and seat 1 at the start
    colours: ClassVar[tuple[str, str]]
    #: the game's options
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: keep a count of positions seen, for repetition rules (see :meth:`repetitions`)
    TRACK_REPETITIONS: ClassVar[bool] = False
    #: attributes that :meth:`copy` shares instead of copying (e.g. board geometry)
    SHARED: ClassVar[tuple[str, ...]] = ()

    # ``self`` only by position: an option named "self" is then an unknown option, not a TypeError
    def __init__(self, /, position: str | None = None, **options: Any):
        self.options: dict[str, Any] = resolve(self.name, self.OPTIONS, options)
        #: the options the caller named (a position string may imply the others)
        self.explicit_options = frozenset(options)
        # one entry per applied action: (action, notation, undo token, mover's colour or
        # "chance"; the colour only when the action was notated, else None)
        self._stack: list[tuple[int, str, Any, str | None]] = []
        # record_entries() of the stack so far, kept between calls (undo drops what it undid)
        self._entries: list[RecordEntry] = []
        if position is None:
            self._setup_start()
            self.setup_position: str | None = None
        else:
            if not isinstance(position, str):
                raise ParseError(TEXTS("position_type", kind=type(position).__name__))
            self._setup_position(position.strip())
            self.setup_position = self.position()
        self._seen: Counter = Counter()
        if self.TRACK_REPETITIONS:
            self._seen[self.key()] += 1

    # ------------------------------------------------------------------ to implement
    @abstractmethod
    def _setup_start(self) -> None:
        """Set up the start position for ``self.options``."""

    @abstractmethod
    def _setup_position(self, text: str) -> None:
        """Set up from a position string; raise :class:`PositionError` naming the problem."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the action encoding (all actions are ``0 <= a < num_actions``)."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions in ascending order (at a chance node: the outcomes)."""

    @abstractmethod
    def _apply(self, action: int) -> Any:
        """Apply a legal action; return what :meth:`_unapply` needs to take it back."""

    @abstractmethod
    def _unapply(self, token: Any) -> None:
        """Take back the last action, given the token :meth:`_apply` returned."""

    @abstractmethod
    def winner(self) -> str | None:
        """The winning colour once the game is over; ``None`` while ongoing or drawn."""

    @abstractmethod
    def position(self) -> str:
        """The canonical position string."""

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable key: equal for equal positions (for transpositions and repetition)."""

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """Canonical notation of ``action`` in this position (before it is played)."""

    @abstractmethod
    def parse_move(self, text: str) -> int:
        """The action ``text`` names here; :class:`ParseError` if malformed,
        :class:`IllegalMove` if well-formed but not legal (the message says why)."""

    # ------------------------------------------------------------------ optional hooks
    def is_over(self) -> bool:
        return self.current_player() == TERMINAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: ``(action, probability)`` pairs summing to 1."""
        return []

    def seat_colour(self, seat: int) -> str:
        return self.colours[seat]

    def score(self) -> dict[str, int] | None:
        """Points per colour, for games that count them."""
        return None

    def ending(self) -> str | None:
        """The rule that ended the game, as a key of the spec's ``endings`` (``None`` while
        the game goes on; ``"over"`` when a game does not say which)."""
        return "over" if self.is_over() else None

    @classmethod
    def length_bound(cls, options: dict[str, Any]) -> int | None:
        """An upper bound on the actions (chance outcomes included) of a whole game with
        these options, from its rules; ``None`` if the rules set none."""
        return None

    def _suffix_after_move(self) -> str:
        """Marks appended to a move's notation once it is played (e.g. ``^``, ``+``)."""
        return ""

    def parse_token(self, text: str) -> list[int]:
        """The actions one record token stands for (a roll with its outcome is two)."""
        return [self.parse_move(text)]

    @classmethod
    def join_record_words(cls, words: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """Group a record's move-text words, given as (word, line), into move tokens
        (default: one word each; a game whose moves hold spaces joins them here)."""
        return words

    def render(self, lang: str = "en") -> Any:
        """A readable board for the terminal (a str or a rich renderable) with its legend in
        ``lang``, drawn by the renderer the game's spec names (the state itself knows nothing of
        drawing)."""
        from .registry import game_spec  # the registry's specs name state classes

        spec = game_spec(self.name)
        if not spec.render:
            return self.position()
        draw = spec.load("render")
        return draw(self, lang) if _takes_language(draw) else draw(self)  # a plugin's older renderer: no lang

    def random_playouts(self, count: int, seed: int) -> tuple[int, int]:
        """Play ``count`` uniformly random games from here; return (total plies, games).

        Games override this with a compiled kernel; this version is the slow reference."""
        count, seed = playout_args(count, seed)
        rng = random.Random(seed)
        plies = 0
        for _ in range(count):
            state = self.copy()
            while not state.is_over():
                if state.current_player() == CHANCE:
                    actions, weights = zip(*state.chance_outcomes())
                    state._play_action(rng.choices(actions, weights)[0])
                else:
                    state._play_action(rng.choice(state.legal_actions()))
                plies += 1
        return plies, count

    def perft(self, depth: int) -> int:
        """Leaves of the tree of legal actions exactly ``depth`` plies deep, as in chess:
        a game that ends sooner adds nothing. (Games override this with a compiled kernel
        that counts the same way; :class:`OptionError` for a depth that is not 0 … 1000.)"""
        depth = perft_depth(depth)
        if depth == 0:
            return 1
        if self.is_over():
            return 0
        actions = self.legal_actions()
        if depth == 1:
            return len(actions)
        total = 0
        for action in actions:
            token = self._apply(action)
            total += self.perft(depth - 1)
            self._unapply(token)
        return total

    # ------------------------------------------------------------------ shared behaviour
    @property
    def to_move(self) -> str | None:
        """The colour to move, ``"chance"`` at a chance node, ``None`` when over."""
        player = self.current_player()
        if player == TERMINAL:
            return None
        if player == CHANCE:
            return "chance"
        return self.seat_colour(player)

    @property
    def status(self) -> str:
        return "over" if self.is_over() else "ongoing"

    @property
    def ply(self) -> int:
        """Actions applied since the setup position."""
        return len(self._stack)

    @property
    def history(self) -> list[int]:
        return [entry[0] for entry in self._stack]

    @property
    def move_texts(self) -> list[str]:
        """Notation of every action applied, as it was written when played."""
        return [entry[1] for entry in self._stack]

    def played(self, index: int) -> tuple[int, str]:
        """The action applied at ply ``index`` and its notation (``history[index]``,
        ``move_texts[index]``) without building those lists."""
        action, text, _, _ = self._stack[index]
        return action, text

    def legal_moves(self) -> list[str]:
        """Legal moves in canonical notation, sorted as strings."""
        return sorted(self.action_to_str(a) for a in self.legal_actions())

    def is_legal(self, action: int) -> bool:
        action = action_number(action)
        return 0 <= action < self.num_actions and action in self.legal_actions()

    def checked_action(self, action: Any) -> int:
        """``action`` as a plain ``int`` inside the action encoding: :class:`ParseError` if it
        is not a whole number, :class:`IllegalMove` if it is outside ``0 … num_actions - 1``."""
        number = action_number(action)
        if not 0 <= number < self.num_actions:
            raise IllegalMove(TEXTS("action_outside", number=number, game=self.name, last=self.num_actions - 1))
        return number

    def play(self, move: int | str) -> None:
        """Play an action or a move in notation; raise if malformed or illegal."""
        if isinstance(move, str):
            if self.is_over():
                raise GameOver(TEXTS("play_over", move=repr(move)))
            for action in self.parse_token(move):
                self._play_action(action)
            return
        try:
            move = action_number(move)
        except ParseError:
            raise ParseError(TEXTS("move_type", kind=type(move).__name__)) from None
        if self.is_over():
            raise GameOver(TEXTS("play_action_over", number=move))
        move = self.checked_action(move)
        if not self.is_legal(move):
            raise IllegalMove(TEXTS("action_illegal", number=move, position=self.position()))
        self._play_action(move)

    def apply_action(self, action: int) -> None:
        """Apply a legal action without checking it or writing its notation: the fast step
        for searches and adapters. :meth:`undo` takes it back; its notation reads ``""``.
        (Only the range of the action number is checked.)"""
        self._push(self.checked_action(action), notate=False)

    def _play_action(self, action: int) -> None:
        self._push(action, notate=True)

    def _push(self, action: int, notate: bool) -> None:
        if notate:
            mover = self.to_move
            text = self.action_to_str(action)
            token = self._apply(action)
            if self.current_player() != CHANCE:
                text += self._suffix_after_move()
        else:
            mover = "chance" if self.current_player() == CHANCE else None
            text = ""
            token = self._apply(action)
        self._stack.append((action, text, token, mover))
        if self.TRACK_REPETITIONS:
            self._seen[self.key()] += 1

    def undo(self) -> int:
        """Take back the last action and return it."""
        if not self._stack:
            raise GameOver(TEXTS("nothing_to_undo"))
        if self.TRACK_REPETITIONS:
            key = self.key()
            self._seen[key] -= 1
            if not self._seen[key]:
                del self._seen[key]
        action, _, token, _ = self._stack.pop()
        if self._entries and self._entries[-1].end > len(self._stack):
            self._entries.pop()  # an entry may be left partly undone: the next call rebuilds it
        self._unapply(token)
        return action

    def repetitions(self) -> int:
        """How often the current position has occurred (needs ``TRACK_REPETITIONS``)."""
        return self._seen[self.key()]

    def returns(self) -> list[float]:
        """Per seat: +1 win, -1 loss, 0 draw or ongoing."""
        won = self.winner()
        if won is None:
            return [0.0, 0.0]
        return [1.0 if self.seat_colour(seat) == won else -1.0 for seat in (0, 1)]

    def result(self) -> str:
        """``"*"`` while ongoing, else the winning colour or ``"draw"``."""
        if not self.is_over():
            return "*"
        return self.winner() or "draw"

    def summary(self) -> dict[str, Any]:
        """The JSON object of ``ludothek moves --json``."""
        data: dict[str, Any] = {
            "game": self.name,
            "position": self.position(),
            "to_move": self.to_move,
            "legal": self.legal_moves() if not self.is_over() else [],
            "status": self.status,
            "winner": self.winner(),
        }
        score = self.score()
        if score is not None:
            data["score"] = score
        return data

    def copy(self) -> "GameState":
        """An independent copy; attributes named in ``SHARED`` (tables that never change)
        are shared, not copied."""
        memo = {id(getattr(self, name)): getattr(self, name) for name in self.SHARED}
        return _copy.deepcopy(self, memo)

    def record_tokens(self) -> list[str]:
        """Moves as written in a record: a chance outcome joins the move before it."""
        return [entry.text for entry in self.record_entries()]

    def record_entries(self) -> list[RecordEntry]:
        """The record's tokens with the plies they span and who played them: the game's
        move list, read from the state's own history."""
        entries = self._entries
        # the last entry known may grow (a die's outcome or a joined action may follow it)
        start = entries.pop().start if entries else 0
        joining = start > 0 and self._joins_next(self._stack[start - 1][0])
        for ply in range(start, len(self._stack)):
            action, text, _, mover = self._stack[ply]
            if entries and (mover == "chance" or joining):
                last = entries[-1]
                joined = last.text + (text if mover == "chance" else " " + text)
                entries[-1] = last._replace(text=joined, parts=(*last.parts, text), end=ply + 1)
            else:
                entries.append(RecordEntry(text, (text,), ply, ply + 1, None if mover == "chance" else mover))
            joining = self._joins_next(action)
        return list(entries)

    def _joins_next(self, action: int) -> bool:
        """Whether a record writes ``action`` in one token with the action after it."""
        return False

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and self.options == other.options  # type: ignore[attr-defined]
            and self.key() == other.key()  # type: ignore[attr-defined]
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: use key() for hashing

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"

    def __str__(self) -> str:
        return self.position()
