"""The Race (Wettlauf) game state: rules, notation and position strings (``rules.json``)."""

from __future__ import annotations

import re
from typing import Any, Hashable

from ludothek.core.errors import GameOver, IllegalMove, ParseError, PositionError, shown
from ludothek.core.messages import colour
from ludothek.core.options import Option, resolve
from ludothek.core.protocol import CHANCE, TERMINAL, GameState, RecordEntry

from .texts import TEXTS
from .track import HOME, START, described_at, described_to, parse_square, square_name

FACES = (1, 2, 3)
#: the first chance action: the die showing 1 (then 2, 3)
ROLL = HOME
NUM_ACTIONS = ROLL + len(FACES)
WHITE, BLACK = 0, 1
SIDE_LETTERS = ("w", "b")
_MOVE = re.compile(r"^([a-z0-9]+)\s*(?:-\s*([a-z0-9]+))?\s*(\*?)$", re.IGNORECASE)

Tokens = tuple[tuple[int, int], tuple[int, int]]


def _ordered(squares: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """One side's two tokens, the one further ahead first (tokens of a side are alike)."""
    first, second = sorted(squares, reverse=True)
    return first, second


class RaceState(GameState):
    """Race: two tokens a side run along twelve squares; a die of 1 … 3 decides how far.

    A turn is a roll of the die (a chance node: 1, 2 or 3, each with probability 1/3) and
    then a move of one of the side's tokens that is not home yet. The game starts with
    White's roll.

    Actions (``num_actions = 16``):

    ========  ================================================================
    0 … 12    move the token on that square (0 = the start) forward by the roll
    13 … 15   chance outcome: the die shows 1, 2 or 3
    ========  ================================================================

    Notation: a move is the square a token leaves, ``-``, the square it reaches, and ``*``
    if it sends a lone opposing token back to the start: ``s-2``, ``4-7*``, ``11-h``
    (``s`` is the start, ``h`` home). Typing only the square a token leaves (``4``) names
    the same move; the roll decides where it goes. A roll's outcome is its number, ``1`` …
    ``3``; a record writes it after the move before it, ``s-2/3``, and the game's first
    roll alone.

    Position strings: ``<white's tokens> <black's tokens> <side to move> <roll>``, each
    side's two squares with a comma, the one further ahead first, the side ``w`` or ``b``
    and the roll ``1`` … ``3`` or ``-`` while the die is still to be rolled: the start is
    ``s,s s,s w -``.

    Seat 0 is White, seat 1 Black. Option ``max_plies``: the game is drawn after this many
    moves from the setup position (a roll is not counted).
    """

    name = "wettlauf"
    title = {"en": "Race", "de": "Wettlauf"}
    colours = ("white", "black")
    OPTIONS = (
        Option("max_plies", int, 200, "the game is drawn after this many moves (rolls not counted)",
               min=1, max=100_000),
    )

    # ------------------------------------------------------------------ set-up
    def _init(self, tokens: Tokens, side: int, roll: int) -> None:
        #: per side, its two tokens' squares (0 start, 1 … 12 the track, 13 home), ahead first
        self.tokens: Tokens = tokens
        self.side = side
        #: what the die shows for the side to move; 0 while it is still to be rolled
        self.roll = roll
        #: moves made since the setup position
        self.turns = 0

    def _setup_start(self) -> None:
        self._init(((START, START), (START, START)), WHITE, 0)

    def _setup_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) != 4:
            raise PositionError(TEXTS("position_fields", count=len(fields)))
        tokens = (self._parse_tokens(fields[0], "white"), self._parse_tokens(fields[1], "black"))
        letter = fields[2].lower()
        if letter not in SIDE_LETTERS:
            raise PositionError(TEXTS("side_field", text=shown(fields[2])))
        side = SIDE_LETTERS.index(letter)
        if fields[3] == "-":
            roll = 0
        elif fields[3] in ("1", "2", "3"):
            roll = int(fields[3])
        else:
            raise PositionError(TEXTS("roll_field", text=shown(fields[3])))
        home = [all(square == HOME for square in mine) for mine in tokens]
        if all(home):
            raise PositionError(TEXTS("both_home"))
        for winner in (WHITE, BLACK):
            if home[winner] and (side == winner or roll):
                raise PositionError(TEXTS(
                    "already_won", winner=colour(self.colours[winner]), loser=colour(self.colours[1 - winner])
                ))
        self._init(tokens, side, roll)

    def _parse_tokens(self, text: str, side: str) -> tuple[int, int]:
        items = text.split(",")
        if len(items) != 2:
            raise PositionError(TEXTS("tokens_field", side=colour(side), text=shown(text)))
        try:
            return _ordered([parse_square(item, PositionError) for item in items])
        except PositionError as exc:
            raise PositionError(TEXTS("tokens_error", side=colour(side), error=exc)) from None

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @classmethod
    def length_bound(cls, options: dict[str, Any]) -> int:
        """A roll and a move per turn, ``max_plies`` moves at most."""
        return 2 * resolve(cls.name, cls.OPTIONS, dict(options))["max_plies"]

    # ------------------------------------------------------------------ rules
    def _won(self) -> int | None:
        for side in (WHITE, BLACK):
            if self.tokens[side] == (HOME, HOME):
                return side
        return None

    def is_over(self) -> bool:
        return self._won() is not None or self.turns >= self.options["max_plies"]

    def winner(self) -> str | None:
        won = self._won()
        return None if won is None else self.colours[won]

    def ending(self) -> str | None:
        """Why the game ended, a key of the spec's ``endings``: ``home`` (a side brought both
        tokens home) or ``move_limit`` (``max_plies`` moves: a draw)."""
        if self._won() is not None:
            return "home"
        return "move_limit" if self.is_over() else None

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        return CHANCE if self.roll == 0 else self.side

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        if self.roll == 0:
            return [ROLL + face - 1 for face in FACES]
        return sorted({square for square in self.tokens[self.side] if square != HOME})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.roll or self.is_over():
            return []
        return [(ROLL + face - 1, 1 / len(FACES)) for face in FACES]

    def target(self, square: int) -> int:
        """Where a token on ``square`` goes with the roll: passing square 12 is home."""
        return min(square + self.roll, HOME)

    def captures(self, square: int) -> bool:
        """Whether moving the token on ``square`` lands on a lone opposing token."""
        to = self.target(square)
        return START < to < HOME and self.tokens[1 - self.side].count(to) == 1

    def _apply(self, action: int) -> Any:
        saved = (self.tokens, self.side, self.roll, self.turns)
        if action >= ROLL:
            self.roll = action - ROLL + 1
            return saved
        to = self.target(action)
        mine = list(self.tokens[self.side])
        mine[mine.index(action)] = to
        theirs = list(self.tokens[1 - self.side])
        if self.captures(action):
            theirs[theirs.index(to)] = START
        mine, theirs = _ordered(mine), _ordered(theirs)
        self.tokens = (mine, theirs) if self.side == WHITE else (theirs, mine)
        self.side = 1 - self.side
        self.roll = 0
        self.turns += 1
        return saved

    def _unapply(self, token: Any) -> None:
        self.tokens, self.side, self.roll, self.turns = token

    # ------------------------------------------------------------------ notation
    def position(self) -> str:
        white, black = (",".join(square_name(s) for s in mine) for mine in self.tokens)
        return f"{white} {black} {SIDE_LETTERS[self.side]} {self.roll or '-'}"

    def key(self) -> Hashable:
        return self.tokens, self.side, self.roll

    def action_to_str(self, action: int) -> str:
        action = self.checked_action(action)
        if action >= ROLL:
            return str(action - ROLL + 1)
        if not self.roll:  # no roll yet: only the square the token leaves is known
            return square_name(action)
        return f"{square_name(action)}-{square_name(self.target(action))}{'*' if self.captures(action) else ''}"

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise ParseError(TEXTS("move_not_text", kind=type(text).__name__))
        raw = text.strip()
        if not raw:
            raise ParseError(TEXTS("move_empty"))
        if self.is_over():
            won = self.winner()
            result = colour(won) if won else TEXTS("draw")
            raise GameOver(TEXTS("game_over", move=shown(raw), result=result))
        if not self.roll:
            if raw not in ("1", "2", "3"):
                raise ParseError(TEXTS("rolling", move=shown(raw)))
            return ROLL + int(raw) - 1
        match = _MOVE.match(raw)
        if not match:
            raise ParseError(TEXTS("not_a_move", move=shown(raw)))
        frm = parse_square(match.group(1))
        me = colour(self.colours[self.side])
        if frm == HOME:
            raise IllegalMove(TEXTS("token_home", move=shown(raw)))
        if frm not in self.tokens[self.side]:
            raise IllegalMove(TEXTS("no_token", move=shown(raw), side=me, square=described_at(frm)))
        to = self.target(frm)
        if match.group(2) is not None and parse_square(match.group(2)) != to:
            raise IllegalMove(TEXTS(
                "wrong_target", move=shown(raw), roll=self.roll, square=described_at(frm), target=described_to(to)
            ))
        if match.group(3) and not self.captures(frm):
            lone = TEXTS(f"lone_{self.colours[1 - self.side]}")
            raise IllegalMove(TEXTS("no_capture", move=shown(raw), square=described_at(to), colour=lone))
        return frm

    def parse_token(self, text: str) -> list[int]:
        """A record token: one action, or a move and the roll after it (``s-2/3``)."""
        if not isinstance(text, str):
            raise ParseError(TEXTS("move_not_text", kind=type(text).__name__))
        move, slash, face = text.partition("/")
        if not slash:
            return [self.parse_move(text)]
        if not move.strip():
            raise ParseError(TEXTS("roll_without_move", text=shown(text)))
        first = self.parse_move(move)
        saved = self._apply(first)
        try:
            if self.is_over():
                raise GameOver(TEXTS("no_roll_after", text=shown(text), move=move.strip()))
            second = self.parse_move(face)
        finally:
            self._unapply(saved)
        return [first, second]

    def record_entries(self) -> list[RecordEntry]:
        """As every game writes them, with a ``/`` between a move and the roll after it."""
        return [entry._replace(text="/".join(entry.parts)) if len(entry.parts) > 1 else entry
                for entry in super().record_entries()]
