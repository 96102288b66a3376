"""The Hexalit game state: the protocol over :mod:`.kernels` (``rules/hexalit.md``)."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable
from typing import Any

import numpy as np

from ...boards import triangle66 as T
from ...core.errors import GameOver, IllegalMove, ParseError, PositionError
from ...core.messages import Message, colour
from ...core.options import Option
from ...core.protocol import CHANCE, TERMINAL, GameState, action_number, perft_depth, playout_args
from ..dice import kernels as DK
from ..dice.kernels import BLACK, CELLS, MAX_MOVES, WHITE
from ..dice.notation import check_capture_sign, move_to_text, parse_move_text
from ..dice.position import SIDE_NAME, format_position, parse_position, start_board
from ..dice.texts import TEXTS as DICE
from ..dice.texts import face_name
from . import kernels
from .kernels import DOUBLE, DROP, NUM_ACTIONS, OUTCOME, ROLL, TAKE
from .texts import TEXTS

_COLOUR_SIDE = {"white": WHITE, "black": BLACK}
#: the highest stake the doubling cube shows
MAX_STAKE = 64

_ROLL = re.compile(r"^([a-z]+\d+)\s*w\s*([1-6])?\s*([\^+]*)$", re.IGNORECASE)
_OUTCOME = re.compile(r"^(?:([a-z]+\d+)\s*)?(?:w\s*)?([1-6])\s*([\^+]*)$", re.IGNORECASE)


class HexalitState(GameState):
    """Hexalit: Trigeo's dice plus chance — instead of moving, a player may roll a die.

    Actions (cell indices of :mod:`ludothek.boards.triangle66`, row-major A3=0 … F11=65):

    ==========================  ================================================
    ``from * 66 + to``          move the die on ``from`` by its face (0 … 4355)
    ``4356 + cell``             roll the die on ``cell`` (4356 … 4421): a chance node follows
    ``4422 + face - 1``         chance outcome: the rolled die shows ``face`` (4422 … 4427)
    ``4428``                    offer to double the stake (``double 2``, ``double 4`` …)
    ``4429`` / ``4430``         ``take`` / ``drop`` the offer
    ==========================  ================================================

    ``num_actions = 4431``.  A *turn* (a *ply* for ``max_plies`` and :meth:`perft`) is one
    move, or one roll with its outcome; cube actions happen inside a turn.  Notation:
    ``B6XC6``, ``C7°D7``, ``B5W`` (a roll, as listed among the legal moves) and ``6`` (its
    outcome, as listed at the chance node), written together as ``B5W6`` in a record; once
    the turn is complete it carries ``+`` if it won, else ``^`` if it left an opposing 1
    threatened.  Cube words: ``double 2``, ``take``, ``drop``.

    Position strings: ``<rows> <side to move> <temporary dice>`` (``rules/triangle-board.md``),
    plus *(ours)* an optional fourth field ``B5W`` while a roll of the die on B5 waits for its
    outcome (a chance node).  The cube is not in position strings; records carry it.

    Seat 0 is White, seat 1 Black.  Options: ``first`` (who moves first from the start
    position; it is also "the player who started", who alone may bring the cube in),
    ``max_plies`` (turns from the setup position before a draw), ``cube`` (play for stakes
    with the doubling cube; :class:`~ludothek.games.hexalit.match.HexalitMatch` keeps a
    match score).
    """

    name = "hexalit"
    title = {"en": "Hexalit", "de": "Hexalit"}
    colours = ("white", "black")
    OPTIONS = (
        Option("first", str, "white", "who moves first from the start position (and may bring the cube in)",
               choices=("white", "black")),
        Option("max_plies", int, 400, "the game is drawn after this many turns (a roll with its outcome is one)",
               min=1, max=100_000),
        Option("cube", bool, False, "play for stakes with the doubling cube (double / take / drop)"),
    )
    #: repetitions are counted by this class itself (at turn starts only): see :meth:`repetitions`
    TRACK_REPETITIONS = False
    #: in a match for stakes: the points (White, Black) still need to win it, set by
    #: :meth:`HexalitMatch.start <ludothek.games.hexalit.match.HexalitMatch.start>`; the bots'
    #: cube decisions read it (:mod:`.cube`).  ``None``: money play.  Not part of the position.
    match_away: tuple[int, int] | None = None

    # ------------------------------------------------------------------ set-up
    def _init(self, board: np.ndarray, temp: np.ndarray, side: int, roll_cell: int = -1) -> None:
        self.board = board
        self.temp = temp
        self.side = side
        #: the die being rolled (a chance node), or -1
        self.roll_cell = roll_cell
        #: turns completed since the setup position
        self.turns = 0
        #: the stake: 1 until the cube is brought in, then 2, 4, … 64
        self.cube = 1
        #: an offer to double waits for ``take`` / ``drop``
        self.offer = False
        #: an offer was made in this turn already (at most one per turn)
        self.offered = False
        #: the last offer was declined: the side to move (the offerer) has won
        self.dropped = False
        self._buffer = np.empty(MAX_MOVES, dtype=np.int32)
        self._cache: dict[str, Any] = {}
        self._just_turned = False
        self._reps: Counter = Counter()
        if roll_cell < 0:
            self._reps[self._turn_key()] += 1

    def _setup_start(self) -> None:
        self._init(start_board(), np.zeros(CELLS, dtype=np.bool_), _COLOUR_SIDE[self.options["first"]])

    def _setup_position(self, text: str) -> None:
        if not text:
            raise PositionError(DICE("position_empty"))
        fields = text.split()
        roll_text = None
        if len(fields) == 4:
            roll_text = fields.pop()
        elif len(fields) > 4:
            raise PositionError(TEXTS("position_fields", count=len(fields)))
        board, side, temp = parse_position(" ".join(fields))
        ones = [int(DK.count_ones(board, s)) for s in (WHITE, BLACK)]
        if ones[WHITE] == 0 and ones[BLACK] == 0:
            raise PositionError(TEXTS("no_ones"))
        for s in (WHITE, BLACK):
            one = int(kernels.lone_one(board, s))
            if one >= 0 and temp[one]:
                raise PositionError(TEXTS("only_one_temporary", cell=T.NAMES[one], side=colour(SIDE_NAME[s])))
        roll_cell = -1
        if roll_text is not None:
            match = re.match(r"^([a-z]+\d+)w$", roll_text, re.IGNORECASE)
            if not match:
                raise PositionError(TEXTS("fourth_field", text=repr(roll_text)))
            try:
                roll_cell = T.parse_cell(match.group(1))
            except ParseError as exc:
                raise PositionError(TEXTS("pending_roll_field", error=exc)) from None
            self._init(board, temp, side)
            why = self._roll_problem(roll_cell)
            if why:
                raise PositionError(TEXTS("pending_roll_impossible", text=repr(roll_text), why=why))
        self._init(board, temp, side, roll_cell)

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @classmethod
    def length_bound(cls, options: dict[str, Any]) -> int:
        """``max_plies`` turns of at most two actions (a roll and its face); the cube adds at
        most six offers (to 2, 4, … 64) with their answers; 2 more to spare."""
        return 2 * int(options["max_plies"]) + (12 if options.get("cube") else 0) + 2

    # ------------------------------------------------------------------ rules
    def _turn_key(self) -> Hashable:
        return (self.board.tobytes(), self.temp.tobytes(), self.side)

    def _turn_actions(self) -> list[int]:
        """Legal moves and rolls of the side to move (ignoring draws and the cube)."""
        if "turn" not in self._cache:
            n = kernels.turn_actions(self.board, T.GEO, self.side, self._buffer)
            self._cache["turn"] = sorted(int(a) for a in self._buffer[:n])
        return self._cache["turn"]

    def _ones(self, side: int) -> int:
        return int(DK.count_ones(self.board, side))

    def _gebot_cell(self, side: int | None = None) -> int:
        """The side's last 1 if it is threatened (Eins-Gebot), else -1."""
        return int(kernels.gebot_cell(self.board, T.GEO, self.side if side is None else side))

    def _outcome(self) -> tuple[bool, int | None]:
        """(over, winning side or None)."""
        if "outcome" not in self._cache:
            self._cache["outcome"] = self._compute_outcome()
        return self._cache["outcome"]

    def _compute_outcome(self) -> tuple[bool, int | None]:
        if self.dropped:
            return True, self.side
        if self.offer or self.roll_cell >= 0:
            return False, None
        if self._ones(1 - self.side) == 0:
            return True, self.side  # only from a set-up position
        if not self._turn_actions():  # no 1 left, or no legal action (e.g. last 1 caught)
            return True, 1 - self.side
        if self.repetitions() >= 3 or self.turns >= self.options["max_plies"]:
            return True, None
        return False, None

    def is_over(self) -> bool:
        return self._outcome()[0]

    def winner(self) -> str | None:
        won = self._outcome()[1]
        return None if won is None else SIDE_NAME[won]

    def ending(self) -> str | None:
        """Why the game ended (a key of the spec's ``endings``), in the order
        :meth:`_compute_outcome` decides it; ``None`` while it goes on."""
        if not self.is_over():
            return None
        if self.dropped:
            return "cube_dropped"
        if self._ones(1 - self.side) == 0 or self._ones(self.side) == 0:
            return "one_captured"
        if not self._turn_actions():
            return "one_trapped" if self._gebot_cell() >= 0 else "no_move"
        if self.repetitions() >= 3:
            return "repetition"
        return "move_limit"

    def repetitions(self) -> int:
        """How often the position at the start of this turn (faces, which are temporary,
        side to move) has occurred at the start of a turn."""
        return self._reps[self._turn_key()]

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        if self.roll_cell >= 0:
            return CHANCE
        if self.offer:
            return 1 - self.side
        return self.side

    def _may_double(self) -> bool:
        if not self.options["cube"] or self.offered or self.offer or self.roll_cell >= 0:
            return False
        if self.cube >= MAX_STAKE:
            return False
        return self.cube > 1 or self.side == _COLOUR_SIDE[self.options["first"]]

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        if self.roll_cell >= 0:
            return [OUTCOME + k for k in range(6)]
        if self.offer:
            return [TAKE, DROP]
        actions = list(self._turn_actions())
        if self._may_double():
            actions.append(DOUBLE)
        return actions

    def is_legal(self, action: int) -> bool:
        return action_number(action) in self.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.roll_cell < 0 or self.is_over():
            return []
        return [(OUTCOME + k, 1 / 6) for k in range(6)]

    def _apply(self, action: int) -> Any:
        token = (self.board.copy(), self.temp.copy(), self.side, self.roll_cell, self.turns, self.cube,
                 self.offer, self.offered, self.dropped, self._cache, self._just_turned)
        self._cache = {}
        self._just_turned = False
        turn_key = None
        if action == DOUBLE:
            self.offer = True
            self.offered = True
        elif action == TAKE:
            self.offer = False
            self.cube *= 2
        elif action == DROP:
            self.offer = False
            self.dropped = True
        elif action >= OUTCOME:
            # the Eins-Gebot is judged at the start of the turn: the board is unchanged since
            keep = self._gebot_cell() >= 0
            kernels.play_roll(self.board, self.temp, self.side, self.roll_cell, action - OUTCOME + 1, keep)
            self.roll_cell = -1
            turn_key = self._end_turn()
        elif action >= ROLL:
            self.roll_cell = action - ROLL
        else:
            keep = self._gebot_cell() >= 0
            kernels.play_move(self.board, self.temp, self.side, action, keep)
            turn_key = self._end_turn()
        return token, turn_key

    def _end_turn(self) -> Hashable:
        self.side = 1 - self.side
        self.turns += 1
        self.offered = False
        self._just_turned = True
        key = self._turn_key()
        self._reps[key] += 1
        return key

    def _unapply(self, token: Any) -> None:
        saved, turn_key = token
        if turn_key is not None:
            self._reps[turn_key] -= 1
            if not self._reps[turn_key]:
                del self._reps[turn_key]
        (self.board, self.temp, self.side, self.roll_cell, self.turns, self.cube,
         self.offer, self.offered, self.dropped, self._cache, self._just_turned) = saved

    def _suffix_after_move(self) -> str:
        if not self._just_turned:
            return ""
        over, won = self._outcome()
        if over and won == 1 - self.side:
            return "+"
        if kernels.threatened_ones(self.board, T.GEO, self.side):
            return "^"
        return ""

    # ------------------------------------------------------------------ stakes
    @property
    def stake(self) -> int:
        """What the game is worth now (1 until the cube is brought in)."""
        return self.cube

    def points(self) -> dict[str, int]:
        """Points won in this game: the stake to the winner once it is over (a dropped
        offer wins the stake before the offer)."""
        result = {"white": 0, "black": 0}
        won = self.winner()
        if won is not None:
            result[won] = self.cube
        return result

    def score(self) -> dict[str, int] | None:
        return self.points() if self.options["cube"] else None

    def summary(self) -> dict[str, Any]:
        data = super().summary()
        data["temporary"] = [T.NAMES[c] for c in np.flatnonzero(self.temp)]
        data["threatened"] = self.threatened_ones()
        if self.options["cube"]:
            data["stake"] = self.cube
            data["offer"] = self.cube * 2 if self.offer else None
        return data

    # ------------------------------------------------------------------ queries
    def threatened_ones(self, colour: str | None = None) -> list[str]:
        """Names of the cells of threatened 1s ("Eins!"), of ``colour`` or of both sides."""
        return [T.NAMES[c] for c in self.threatened_cells(colour)]

    def threatened_cells(self, colour: str | None = None) -> list[int]:
        """Cells of threatened 1s, of ``colour`` or of both sides, ascending."""
        sides = (WHITE, BLACK) if colour is None else (_COLOUR_SIDE[colour],)
        cells = []
        for s in sides:
            sgn = 1 - 2 * s
            for c in np.flatnonzero(self.board * sgn == 1):
                if DK.is_attacked(self.board, T.GEO, int(c), 1 - s, DK.NO_JUMPS):
                    cells.append(int(c))
        return sorted(cells)

    def eins_gebot(self) -> bool:
        """Does the Eins-Gebot bind the side to move (its last 1 is threatened)?"""
        return self.roll_cell < 0 and self._gebot_cell() >= 0

    # ------------------------------------------------------------------ notation
    def position(self) -> str:
        text = format_position(self.board, self.side, self.temp)
        if self.roll_cell >= 0:
            text += f" {T.NAMES[self.roll_cell]}W"
        return text

    def key(self) -> Hashable:
        return (self.board.tobytes(), self.temp.tobytes(), self.side, self.roll_cell,
                self.cube, self.offer, self.offered, self.dropped)

    def action_to_str(self, action: int) -> str:
        action = self.checked_action(action)
        if action == DOUBLE:
            return f"double {self.cube * 2}"
        if action == TAKE:
            return "take"
        if action == DROP:
            return "drop"
        if action >= OUTCOME:
            return str(action - OUTCOME + 1)
        if action >= ROLL:
            return f"{T.NAMES[action - ROLL]}W"
        return move_to_text(self.board, action)

    @classmethod
    def _units(cls, words: list[str]) -> list[str]:
        """Words to actions' texts: ``double`` and the stake after it are one (``double 2``)."""
        return [unit for unit, _ in cls._group_double([(word, 0) for word in words])]

    @staticmethod
    def _is_cube_word(unit: str) -> bool:
        return unit.lower().split()[0] in ("double", "take", "drop")

    @classmethod
    def join_record_words(cls, words: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """A record token is one turn: cube actions join the move that follows them in the
        same turn (``double 2 take B5W6``), as :meth:`record_tokens` writes them."""
        out: list[tuple[str, int]] = []
        open_group = False
        for unit_line in cls._group_double(words):
            unit = unit_line[0]
            if open_group and re.match(r"^\d+\.(\.\.)?$", unit):
                continue  # a move number inside a turn: numbers are for people
            if open_group:
                out[-1] = (f"{out[-1][0]} {unit}", out[-1][1])
            else:
                out.append(unit_line)
            open_group = cls._is_cube_word(unit)
        return out

    @staticmethod
    def _group_double(words: list[tuple[str, int]]) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for word, line in words:
            if out and out[-1][0].lower() == "double" and word.isdigit():
                out[-1] = (f"double {word}", out[-1][1])
            else:
                out.append((word, line))
        return out

    def _joins_next(self, action: int) -> bool:
        """One token per turn: cube actions join what follows them in the turn
        (``double 2 take B5W6``, ``double 4 drop``); a roll's outcome joins the roll."""
        return action in (DOUBLE, TAKE, DROP)

    def parse_token(self, text: str) -> list[int]:
        """The actions of one record token (one turn): a roll with its outcome (``B5W6``)
        is two; cube actions may come first (``double 2 take B5W6``)."""
        if not isinstance(text, str):
            raise ParseError(DICE("move_not_text", type=type(text).__name__))
        units = self._units(text.split())
        if len(units) <= 1:
            return self._parse_unit(text)
        for unit in units[:-1]:
            if unit.lower() == "double":
                raise ParseError(TEXTS("write_double", text=repr(text), max=MAX_STAKE))
            if not self._is_cube_word(unit):
                raise ParseError(TEXTS("one_turn", text=repr(text)))
        actions: list[int] = []
        tokens = []
        try:
            for unit in units:
                for action in self._parse_unit(unit):
                    actions.append(action)
                    tokens.append(self._apply(action))
        finally:
            for token in reversed(tokens):
                self._unapply(token)
        return actions

    def _parse_unit(self, text: str) -> list[int]:
        if self.roll_cell < 0 and not self.is_over():
            match = _ROLL.match(text.strip())
            if match and match.group(2):
                roll = self._parse_roll(text, match.group(1), "")
                face = int(match.group(2))
                self._check_marks_after(text, [roll, OUTCOME + face - 1], match.group(3))
                return [roll, OUTCOME + face - 1]
        return [self.parse_move(text)]

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise ParseError(DICE("move_not_text", type=type(text).__name__))
        raw = text.strip()
        if not raw:
            raise ParseError(TEXTS("move_empty"))
        if self.is_over():
            won = self.winner()
            raise GameOver(TEXTS("game_over", text=repr(raw), result=colour(won) if won else DICE("draw")))
        words = raw.lower().split()
        if words[0] in ("double", "take", "drop"):
            return self._parse_cube(raw, words)
        me = colour(SIDE_NAME[self.side])
        if self.roll_cell >= 0:
            match = _OUTCOME.match(raw)
            rolled = T.NAMES[self.roll_cell]
            if not match:
                raise ParseError(TEXTS("give_face", text=repr(raw), cell=rolled))
            if match.group(1) is not None and T.parse_cell(match.group(1)) != self.roll_cell:
                raise IllegalMove(TEXTS("other_die_rolled", text=repr(raw), cell=rolled))
            action = OUTCOME + int(match.group(2)) - 1
            self._check_marks_after(raw, [action], match.group(3))
            return action
        if self.offer:
            raise IllegalMove(TEXTS("answer_offer_first", text=repr(raw), other=colour(SIDE_NAME[1 - self.side]),
                                    me=me, stake=self.cube * 2))
        match = _ROLL.match(raw)
        if match:
            if match.group(2):
                raise ParseError(TEXTS("roll_with_outcome", text=repr(raw), cell=match.group(1).upper()))
            return self._parse_roll(raw, match.group(1), match.group(3))
        move = parse_move_text(raw, allow_promotion=False)
        frm, to = T.NAMES[move.frm], T.NAMES[move.to]
        value = int(self.board[move.frm])
        if value == 0:
            raise IllegalMove(TEXTS("not_legal", text=repr(raw), why=TEXTS("no_die", cell=frm)))
        if (value > 0) != (self.side == WHITE):
            other = colour(SIDE_NAME[1 - self.side])
            raise IllegalMove(TEXTS("not_legal", text=repr(raw),
                                    why=TEXTS("opponents_die", cell=frm, other=other, me=me)))
        target = int(self.board[move.to])
        if target != 0 and (target > 0) == (value > 0):
            raise IllegalMove(TEXTS("not_legal", text=repr(raw), why=TEXTS("own_die", cell=to, me=me)))
        check_capture_sign(self.board, move, raw)
        action = move.action
        if action not in self._turn_actions():
            raise IllegalMove(TEXTS("not_legal", text=repr(raw), why=self._why_illegal(move.frm, move.to, value)))
        self._check_marks_after(raw, [action], move.marks)
        return action

    def _why_illegal(self, frm: int, to: int, value: int) -> Message:
        face = abs(value)
        me = colour(SIDE_NAME[self.side])
        one = self._gebot_cell()
        if one >= 0:
            if frm != one:
                return TEXTS("gebot_move", me=me, cell=T.NAMES[one])
            return TEXTS("gebot_still", me=me, cell=T.NAMES[to])
        if face == 2:
            return TEXTS("two_moves")
        return TEXTS("cannot_reach", face=face, piece=face_name(face), frm=T.NAMES[frm], to=T.NAMES[to])

    def _roll_problem(self, cell: int) -> Message | None:
        """Why the side to move may not roll the die on ``cell`` (None if it may)."""
        name = T.NAMES[cell]
        value = int(self.board[cell])
        me = colour(SIDE_NAME[self.side])
        if value == 0:
            return TEXTS("no_die", cell=name)
        if (value > 0) != (self.side == WHITE):
            return TEXTS("opponents_die", cell=name, other=colour(SIDE_NAME[1 - self.side]), me=me)
        one = self._gebot_cell()
        if one >= 0:
            return TEXTS("gebot_roll", me=me, cell=T.NAMES[one])
        face = abs(value)
        if face == 1 and self._ones(self.side) < 2:
            return TEXTS("only_one", cell=name, me=me)
        if face not in (1, 2):
            return TEXTS("roll_face", cell=name, face=face)
        return None

    def _parse_roll(self, text: str, cell_text: str, marks: str) -> int:
        if self.offer:
            raise IllegalMove(TEXTS("answer_first", text=repr(text), other=colour(SIDE_NAME[1 - self.side])))
        cell = T.parse_cell(cell_text)
        why = self._roll_problem(cell)
        if why:
            raise IllegalMove(TEXTS("not_legal", text=repr(text), why=why))
        if marks:
            raise ParseError(TEXTS("roll_marks", text=repr(text), cell=T.NAMES[cell]))
        return ROLL + cell

    def _check_marks_after(self, text: str, actions: list[int], marks: str) -> None:
        """Reject ``+`` / ``^`` written on a move that does not earn them."""
        marks = "".join(m for m in "^+" if m in marks)
        if not marks:
            return
        tokens = []
        try:
            for action in actions:
                tokens.append(self._apply(action))
            suffix = self._suffix_after_move()
            threat = bool(kernels.threatened_ones(self.board, T.GEO, self.side))
        finally:
            for token in reversed(tokens):
                self._unapply(token)
        if "+" in marks and suffix != "+":
            raise IllegalMove(TEXTS("marked_win", text=repr(text)))
        if "^" in marks and not threat:
            raise IllegalMove(TEXTS("marked_threat", text=repr(text)))

    def _parse_cube(self, raw: str, words: list[str]) -> int:
        me = colour(SIDE_NAME[self.side])
        if len(raw) > 40:  # only quoted in messages: keep them short
            raw = raw[:39] + "…"
        text = repr(raw)

        def not_legal(name: str, **values: Any) -> IllegalMove:
            return IllegalMove(TEXTS("not_legal", text=text, why=TEXTS(name, **values)))

        if words[0] in ("take", "drop"):
            if len(words) != 1:
                raise ParseError(TEXTS("no_argument", text=text, word=words[0]))
            if not self.offer:
                raise not_legal("no_offer")
            return TAKE if words[0] == "take" else DROP
        if len(words) > 2 or (len(words) == 2 and not (words[1].isascii() and words[1].isdigit())):
            raise ParseError(TEXTS("write_double", text=text, max=MAX_STAKE))
        if not self.options["cube"]:
            raise not_legal("no_cube")
        if self.roll_cell >= 0:
            raise not_legal("rolling")
        if self.offer:
            raise not_legal("offer_waits", other=colour(SIDE_NAME[1 - self.side]))
        if self.offered:
            raise not_legal("offered_already", me=me)
        if self.cube >= MAX_STAKE:
            raise not_legal("cube_highest", stake=self.cube)
        if self.cube == 1 and self.side != _COLOUR_SIDE[self.options["first"]]:
            raise not_legal("first_brings_cube", first=colour(self.options["first"]))
        if len(words) == 2 and words[1].lstrip("0") != str(self.cube * 2):  # no int(): 5,000 digits
            raise not_legal("double_value", stake=self.cube, double=self.cube * 2)
        return DOUBLE

    # ------------------------------------------------------------------ speed
    def _kernel_ready(self) -> bool:
        """At a plain turn start without the cube, where the kernels know the whole game."""
        return self.roll_cell < 0 and not self.offer and not self.options["cube"]

    def perft(self, depth: int) -> int:
        """Leaves ``depth`` turns deep; a roll counts as six leaves, one per face.  At a
        chance node the outcome completes the turn; with the cube, offers and answers
        count as plies too."""
        depth = perft_depth(depth)
        if depth <= 0 or self.is_over():
            return 1
        if self._kernel_ready():
            return int(kernels.perft(self.board, self.temp, T.GEO, self.side, depth))
        return self._perft_python(depth)

    def _perft_python(self, depth: int) -> int:
        if depth <= 0 or self.is_over():
            return 1
        total = 0
        if self.roll_cell >= 0:
            for action in self.legal_actions():
                token = self._apply(action)
                total += self._perft_python(depth - 1)
                self._unapply(token)
            return total
        for action in self.legal_actions():
            token = self._apply(action)
            if ROLL <= action < OUTCOME:
                total += self._perft_python(depth)  # the outcome completes this ply
            else:
                total += self._perft_python(depth - 1)
            self._unapply(token)
        return total

    def random_playouts(self, count: int, seed: int) -> tuple[int, int]:
        """``count`` uniformly random games from here; returns (turns played, games)."""
        count, seed = playout_args(count, seed)
        if not self._kernel_ready():
            return super().random_playouts(count, seed)
        turns, _, _, _ = self._kernel_playouts(count, seed)
        return int(turns), count

    def random_playout_results(self, count: int, seed: int) -> dict[str, int]:
        """Play ``count`` random games: turns and results (white, black, draw)."""
        count, seed = playout_args(count, seed)
        if self._kernel_ready():
            turns, white, black, draws = self._kernel_playouts(count, seed)
            return {"plies": int(turns), "white": int(white), "black": int(black), "draw": int(draws)}
        rng = random.Random(seed)
        results = {"plies": 0, "white": 0, "black": 0, "draw": 0}
        for _ in range(count):
            state = self.copy()
            turns = state.turns
            while not state.is_over():  # a roll's six outcomes are equally likely
                state._play_action(rng.choice(state.legal_actions()))
            results["plies"] += state.turns - turns
            results[state.winner() or "draw"] += 1
        return results

    def _kernel_playouts(self, count: int, seed: int):
        if self.is_over():
            return 0, 0, 0, 0
        return kernels.random_playouts(self.board, self.temp, T.GEO, self.side, self.turns,
                                       self.options["max_plies"], int(count), int(seed))

    # ------------------------------------------------------------------ display
