"""The Trigeo game state: the protocol over :mod:`.kernels` (``rules/trigeo.md``)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np

from ...boards import triangle66 as T
from ...core.errors import GameOver, IllegalMove, PositionError
from ...core.messages import Message, colour
from ...core.options import Option
from ...core.protocol import TERMINAL, GameState, action_number, perft_depth, playout_args
from ..dice import kernels as DK
from ..dice.kernels import BLACK, JUMP_FIELDS_TRIGEO, MAX_MOVES, PROMO, WHITE, ZOBRIST
from ..dice.notation import check_capture_sign, move_to_text, parse_move_text
from ..dice.position import SIDE_NAME, format_position, parse_position, start_board
from ..dice.texts import TEXTS as DICE
from ..dice.texts import face_name
from . import kernels
from .texts import TEXTS

_COLOUR_SIDE = {"white": WHITE, "black": BLACK}


def _capital(side: int) -> Message | str:
    """``White`` / ``Black`` as a sentence names a side (``Weiß`` / ``Schwarz``)."""
    return colour(SIDE_NAME[side].capitalize())


class TrigeoState(GameState):
    """Trigeo: dice as chess pieces on the 66-triangle hexagon, with six jump fields.

    Actions: ``from * 66 + to`` for a move or capture of the die on ``from``;
    ``4356 + from * 66 + to`` for the same step of a 2 onto its last row that promotes it to
    a 6 (cell indices of :mod:`ludothek.boards.triangle66`, row-major A3=0 … F11=65).
    ``num_actions = 8712``.  Notation ``B6XC6``, ``C7°D7``, ``E9°F10=6``; once played a move
    carries ``+`` if it won, else ``^`` if it left the opponent's 1 threatened.
    ``legal_moves()`` lists moves without marks; :meth:`parse_move` accepts them with or
    without marks but rejects a mark that is not true.

    Seat 0 is White, seat 1 Black.  Option ``first`` says who moves first from the start
    position (a position string names the side to move itself); ``max_plies`` counts plies
    played from the setup position (start or position string).

    Decisions where the rules are silent:

    * "Threatened" means an opposing die could capture the 1 by its move pattern (or a
      jump), ignoring whether the Eins-Gebot would forbid that move on the opponent's turn.
    * The game ends when the side to move has no legal move; that side has lost.  This
      covers the Trigeo win (1 threatened, no escape), a side with no move at all and a side
      whose 1 was captured.  ``+`` marks every move after which the opponent has lost
      (``+`` replaces ``^``); draws: threefold repetition (same dice, same side to move),
      then ``max_plies``.  A win on the last allowed ply is still a win.
    * ``x``/``X`` are accepted for both a move and a capture (input is case-insensitive);
      ``°`` and ``*`` must capture.
    * A position string may not give a side two 1s, nor leave the side *not* to move
      without a 1 (the game would already be over); Trigeo's third field must be ``-``.
    """

    name = "trigeo"
    title = {"en": "Trigeo", "de": "Trigeo"}
    colours = ("white", "black")
    OPTIONS = (
        Option("first", str, "white", "who moves first from the start position", choices=("white", "black")),
        Option("max_plies", int, 400, "the game is drawn after this many plies", min=1, max=100_000),
    )
    TRACK_REPETITIONS = True
    JUMP_FIELDS: ClassVar[tuple[int, ...]] = tuple(int(j) for j in JUMP_FIELDS_TRIGEO)

    # ------------------------------------------------------------------ set-up
    def _init(self, board: np.ndarray, side: int) -> None:
        self.board = board
        self.side = side
        self._buffer = np.empty(MAX_MOVES, dtype=np.int32)
        self._legal_cache: tuple[tuple[int, int], np.ndarray] | None = None
        self._hashes = [DK.zobrist_hash(board, side, ZOBRIST)]
        self._since = [0]  # per position: index of the first position after the last irreversible move

    def _setup_start(self) -> None:
        self._init(start_board(), _COLOUR_SIDE[self.options["first"]])

    def _setup_position(self, text: str) -> None:
        board, side, temporary = parse_position(text)
        if temporary.any():
            raise PositionError(TEXTS("no_temporary"))
        for s in (WHITE, BLACK):
            ones = int(DK.count_ones(board, s))
            if ones > 1:
                raise PositionError(TEXTS("two_ones", side=_capital(s), ones=ones))
        other = 1 - side
        if DK.count_ones(board, other) == 0:
            raise PositionError(TEXTS("no_one", side=_capital(other)))
        self._init(board, side)

    @property
    def num_actions(self) -> int:
        return 2 * PROMO

    @classmethod
    def length_bound(cls, options: dict[str, Any]) -> int:
        """``max_plies`` moves (2 more to spare, as the adapters have always counted)."""
        return int(options["max_plies"]) + 2

    # ------------------------------------------------------------------ rules
    def _legal(self) -> np.ndarray:
        key = (len(self._hashes), self._hashes[-1])
        if self._legal_cache is None or self._legal_cache[0] != key:
            n = kernels.legal_moves(self.board, T.GEO, self.side, JUMP_FIELDS_TRIGEO, self._buffer)
            self._legal_cache = (key, np.sort(self._buffer[:n]))
        return self._legal_cache[1]

    def _lost(self) -> bool:
        """The side to move has no legal move (incl. a threatened 1 without escape, no 1)."""
        return len(self._legal()) == 0

    def is_over(self) -> bool:
        return self._lost() or self.repetitions() >= 3 or self.ply >= self.options["max_plies"]

    def current_player(self) -> int:
        return TERMINAL if self.is_over() else self.side

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        return [int(a) for a in self._legal()]

    def is_legal(self, action: int) -> bool:
        action = action_number(action)
        if not 0 <= action < self.num_actions or self.is_over():
            return False
        legal = self._legal()
        i = int(np.searchsorted(legal, action))
        return i < len(legal) and legal[i] == action

    def winner(self) -> str | None:
        if self._lost():
            return SIDE_NAME[1 - self.side]
        return None

    def ending(self) -> str | None:
        """Why the game ended (a key of the spec's ``endings``), in the order :meth:`is_over`
        and :meth:`winner` decide it; ``None`` while it goes on."""
        if self._lost():
            if DK.count_ones(self.board, self.side) == 0:
                return "one_captured"
            if kernels.one_threatened(self.board, T.GEO, self.side, JUMP_FIELDS_TRIGEO):
                return "one_trapped"
            return "no_move"
        if self.repetitions() >= 3:
            return "repetition"
        if self.ply >= self.options["max_plies"]:
            return "move_limit"
        return None

    def one_cell(self, colour: str) -> int:
        """The cell of ``colour``'s 1, or -1."""
        return int(DK.find_one(self.board, _COLOUR_SIDE[colour]))

    def threatened(self, colour: str) -> bool:
        """Is ``colour``'s 1 threatened ("Eins!")?"""
        return bool(kernels.one_threatened(self.board, T.GEO, _COLOUR_SIDE[colour], JUMP_FIELDS_TRIGEO))

    def _apply(self, action: int) -> Any:
        delta = DK.move_hash_delta(self.board, action, ZOBRIST)
        irreversible = bool(kernels.irreversible(self.board, action))
        captured = DK.apply_move(self.board, action)
        self.side = 1 - self.side
        self._hashes.append(self._hashes[-1] ^ delta)
        self._since.append(len(self._hashes) - 1 if irreversible else self._since[-1])
        self._legal_cache = None
        return action, captured

    def _unapply(self, token: Any) -> None:
        action, captured = token
        self.side = 1 - self.side
        DK.undo_move(self.board, action, captured)
        self._hashes.pop()
        self._since.pop()
        self._legal_cache = None

    def _suffix_after_move(self) -> str:
        # the mover has won iff the side now to move has no legal move
        if self._lost():
            return "+"
        if kernels.one_threatened(self.board, T.GEO, self.side, JUMP_FIELDS_TRIGEO):
            return "^"
        return ""

    # ------------------------------------------------------------------ notation
    def position(self) -> str:
        return format_position(self.board, self.side)

    def key(self) -> Hashable:
        return (self.board.tobytes(), self.side)

    def action_to_str(self, action: int) -> str:
        return move_to_text(self.board, self.checked_action(action))

    def parse_move(self, text: str) -> int:
        move = parse_move_text(text, allow_promotion=True)
        if self.is_over():
            won = self.winner()
            result = colour(won) if won else DICE("draw")
            raise GameOver(TEXTS("game_over", move=repr(text), result=result))
        me = _capital(self.side)
        shown = repr(text)
        frm, to = T.NAMES[move.frm], T.NAMES[move.to]
        value = int(self.board[move.frm])
        if value == 0:
            raise IllegalMove(TEXTS("no_die", move=shown, cell=frm))
        if (value > 0) != (self.side == WHITE):
            raise IllegalMove(TEXTS("not_yours", move=shown, cell=frm, owner=_capital(1 - self.side), side=me))
        target = int(self.board[move.to])
        if target != 0 and (target > 0) == (value > 0):
            raise IllegalMove(TEXTS("own_die", move=shown, cell=to, side=me))
        check_capture_sign(self.board, move, text)
        action = move.action
        if not self.is_legal(action):
            raise IllegalMove(TEXTS("illegal", move=shown, why=self._why_illegal(move, value)))
        if move.marks:
            token = self._apply(action)
            try:
                suffix = self._suffix_after_move()
                threat = bool(kernels.one_threatened(self.board, T.GEO, self.side, JUMP_FIELDS_TRIGEO))
            finally:
                self._unapply(token)
            if "+" in move.marks and suffix != "+":
                raise IllegalMove(TEXTS("false_win", move=shown))
            if "^" in move.marks and not threat:
                raise IllegalMove(TEXTS("false_threat", move=shown, side=_capital(1 - self.side)))
        return action

    def _why_illegal(self, move, value: int) -> Message:
        face = abs(value)
        frm, to = T.NAMES[move.frm], T.NAMES[move.to]
        me = _capital(self.side)
        last_row = "F" if self.side == WHITE else "A"
        if move.promote:
            if face != 2:
                return TEXTS("promote_face", cell=frm, face=face)
            if T.COORDS[move.to][0] != (6 if self.side == WHITE else 1):
                return TEXTS("promote_row", row=last_row, side=me)
        king = int(DK.find_one(self.board, self.side))
        if king >= 0 and DK.is_attacked(self.board, T.GEO, king, 1 - self.side, JUMP_FIELDS_TRIGEO):
            if move.frm != king:
                return TEXTS("one_must_flee", side=me, cell=T.NAMES[king])
            return TEXTS("one_still_threatened", side=me, cell=to)
        if face == 2 and not move.promote:
            return TEXTS("pawn_steps")
        return TEXTS("cannot_reach", face=face, piece=face_name(face), cell=frm, target=to)

    # ------------------------------------------------------------------ speed
    def _history(self) -> tuple[np.ndarray, int]:
        return np.array(self._hashes, dtype=np.uint64), self._since[-1]

    def perft(self, depth: int) -> int:
        depth = perft_depth(depth)
        if depth == 0:
            return 1
        if self.is_over():
            return 0
        history, since = self._history()
        plies_left = self.options["max_plies"] - self.ply
        return int(
            kernels.perft(self.board.copy(), T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST, self.side, depth, plies_left, history, since)
        )

    def random_playouts(self, count: int, seed: int) -> tuple[int, int]:
        count, seed = playout_args(count, seed)
        history, since = self._history()
        plies_left = self.options["max_plies"] - self.ply
        plies, _, _, _ = kernels.random_playouts(
            self.board, T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST, self.side, plies_left, history, since, count, seed
        )
        return int(plies), count

    def random_playout_results(self, count: int, seed: int) -> dict[str, int]:
        """Play ``count`` random games: plies and results (white, black, draw)."""
        count, seed = playout_args(count, seed)
        history, since = self._history()
        plies_left = self.options["max_plies"] - self.ply
        plies, white, black, draws = kernels.random_playouts(
            self.board, T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST, self.side, plies_left, history, since, count, seed
        )
        return {"plies": int(plies), "white": int(white), "black": int(black), "draw": int(draws)}

