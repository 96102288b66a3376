"""The Trike game state: the protocol over :mod:`.kernels`."""

from __future__ import annotations

import re
from typing import Any, Hashable

import numpy as np

from ...boards.hex_triangle import hex_triangle
from ...core.errors import IllegalMove, ParseError, PositionError, shown
from ...core.messages import colour
from ...core.options import Option
from ...core.protocol import TERMINAL, GameState, action_number, perft_depth, playout_args
from . import kernels
from .kernels import BLACK, EMPTY, WHITE
from .texts import TEXTS

_STONE = {"b": BLACK, "w": WHITE}
_LETTER = {BLACK: "b", WHITE: "w"}
_NAME = {BLACK: "black", WHITE: "white"}
_ROW_ITEM = re.compile(r"[0-9]+|[bwBW]|.", re.DOTALL)


class TrikeState(GameState):
    """Trike. Actions: a cell index places the pawn there; ``num_cells`` is ``swap``."""

    name = "trike"
    title = {"en": "Trike", "de": "Trike"}
    colours = ("black", "white")
    OPTIONS = (Option("size", int, 13, "side of the triangular board", min=7, max=19),)
    SHARED = ("geometry",)

    # ------------------------------------------------------------------ set-up
    def _init_board(self) -> None:
        self.geometry = hex_triangle(self.options["size"])
        self.board = np.zeros(self.geometry.size, dtype=np.int8)
        self.pawn = -1
        self.colour_to_move = BLACK
        self.swapped = False
        self._buffer = np.empty(self.geometry.size, dtype=np.int16)

    def _setup_start(self) -> None:
        self._init_board()

    def _setup_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) not in (2, 3):
            raise PositionError(TEXTS("position_fields", text=repr(text)))
        rows = fields[0].split("/")
        if not 7 <= len(rows) <= 19:
            raise PositionError(TEXTS("row_count", rows=len(rows)))
        if len(rows) != self.options["size"]:
            if "size" in self.explicit_options:
                raise PositionError(TEXTS("row_count_option", rows=len(rows), size=self.options["size"]))
            self.options["size"] = len(rows)
        self._init_board()
        for r, row in enumerate(rows):
            column = 0
            where = TEXTS("row", number=r + 1, letter=chr(ord("a") + r))
            for item in _ROW_ITEM.findall(row):
                if item[0] in "0123456789":
                    if item.startswith("0"):
                        raise PositionError(TEXTS("zero_count", where=where, count=shown(item, 12)))
                    if len(item) > 2:  # every row is shorter; int() refuses 4,300 digits
                        raise PositionError(TEXTS("long_count", where=where, cells=r + 1, digits=len(item)))
                    column += int(item)
                elif item.lower() in _STONE:
                    if column <= r:
                        cell = self.geometry.index(r, column)
                        self.board[cell] = _STONE[item.lower()]
                        if item.isupper():
                            if self.pawn >= 0:
                                raise PositionError(TEXTS("second_pawn", where=where))
                            self.pawn = cell
                    column += 1
                else:
                    raise PositionError(TEXTS("unknown_character", where=where, item=repr(item)))
                if column > r + 1:
                    raise PositionError(TEXTS("too_many_cells", where=where, cells=r + 1))
            if column < r + 1:
                raise PositionError(TEXTS("too_few_cells", where=where, count=column, cells=r + 1))
        side = fields[1].lower()
        if side not in _STONE:
            raise PositionError(TEXTS("side_field", side=repr(fields[1])))
        self.colour_to_move = _STONE[side]
        if len(fields) == 3:
            if fields[2].lower() != "swap":
                raise PositionError(TEXTS("swap_field", field=repr(fields[2])))
            self.swapped = True
        black = int(np.count_nonzero(self.board == BLACK))
        white = int(np.count_nonzero(self.board == WHITE))
        if black + white and self.pawn < 0:
            raise PositionError(TEXTS("no_pawn"))
        if black + white == 0 and self.pawn >= 0:
            raise PositionError(TEXTS("pawn_alone"))
        expected = BLACK if black == white else WHITE if black == white + 1 else None
        if expected is None:
            raise PositionError(TEXTS("stone_counts", black=black, white=white))
        if self.colour_to_move != expected:
            raise PositionError(TEXTS("side_by_counts", black=black, white=white, side=_LETTER[expected]))
        if self.pawn >= 0 and self.board[self.pawn] == self.colour_to_move:
            stone = TEXTS(f"stone_{_NAME[self.colour_to_move]}")
            last = colour(_NAME[BLACK + WHITE - self.colour_to_move])
            raise PositionError(TEXTS("pawn_on_own_stone", stone=stone, last=last))
        if self.swapped and black + white == 0:
            raise PositionError(TEXTS("swap_needs_stone"))

    @property
    def num_actions(self) -> int:
        return self.geometry.size + 1

    @classmethod
    def length_bound(cls, options: dict[str, Any]) -> int:
        """Every cell is played at most once, plus one swap."""
        size = int(options["size"])
        return size * (size + 1) // 2 + 1

    @property
    def swap_action(self) -> int:
        return self.geometry.size

    # ------------------------------------------------------------------ rules
    def _swap_allowed(self) -> bool:
        return self.pawn >= 0 and not self.swapped and self.stones() == 1

    def stones(self) -> int:
        return int(np.count_nonzero(self.board))

    def is_over(self) -> bool:
        return not kernels.has_move(self.board, self.geometry.neighbours, self.pawn)

    def seat_colour(self, seat: int) -> str:
        return self.colours[seat ^ int(self.swapped)]

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        return (self.colour_to_move - 1) ^ int(self.swapped)

    def legal_actions(self) -> list[int]:
        count = kernels.targets(self.board, self.geometry.neighbours, self.pawn, self._buffer)
        actions = sorted(int(a) for a in self._buffer[:count])
        if self._swap_allowed():
            actions.append(self.swap_action)
        return actions

    def is_legal(self, action: int) -> bool:
        action = action_number(action)
        if action == self.swap_action:
            return self._swap_allowed()
        return 0 <= action < self.geometry.size and action in self.legal_actions()

    def _apply(self, action: int) -> Any:
        if action == self.swap_action:
            self.swapped = True
            return None
        previous = self.pawn
        self.board[action] = self.colour_to_move
        self.pawn = action
        self.colour_to_move = WHITE + BLACK - self.colour_to_move
        return previous

    def _unapply(self, token: Any) -> None:
        if token is None:
            self.swapped = False
            return
        self.colour_to_move = WHITE + BLACK - self.colour_to_move
        self.board[self.pawn] = EMPTY
        self.pawn = token

    def score(self) -> dict[str, int]:
        black, white = kernels.points(self.board, self.geometry.neighbours, self.pawn)
        return {"black": int(black), "white": int(white)}

    def winner(self) -> str | None:
        if not self.is_over() or self.pawn < 0:
            return None
        score = self.score()
        return "black" if score["black"] > score["white"] else "white"

    def ending(self) -> str | None:
        """Trike ends one way only: the pawn cannot move (the score decides)."""
        return "pawn_trapped" if self.is_over() else None

    # ------------------------------------------------------------------ notation
    def position(self) -> str:
        rows = []
        board = self.board.tolist()  # plain ints: indexing a NumPy array cell by cell is slow
        cell = -1
        for r in range(self.geometry.side):
            parts, empties = [], 0
            for _ in range(r + 1):
                cell += 1  # cells are numbered row by row
                stone = board[cell]
                if stone == EMPTY:
                    empties += 1
                    continue
                if empties:
                    parts.append(str(empties))
                    empties = 0
                letter = _LETTER[stone]
                parts.append(letter.upper() if cell == self.pawn else letter)
            if empties:
                parts.append(str(empties))
            rows.append("".join(parts))
        text = "/".join(rows) + " " + _LETTER[self.colour_to_move]
        return text + " swap" if self.swapped else text

    def key(self) -> Hashable:
        return (self.board.tobytes(), self.pawn, self.colour_to_move, self.swapped)

    def action_to_str(self, action: int) -> str:
        action = self.checked_action(action)
        if action == self.swap_action:
            return "swap"
        return self.geometry.names[action]

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise ParseError(TEXTS("move_not_text", kind=type(text).__name__))
        move = text.strip().lower()
        if move == "swap":
            if self.swapped:
                raise IllegalMove(TEXTS("swap_used"))
            if not self._swap_allowed():
                raise IllegalMove(TEXTS("swap_too_late"))
            return self.swap_action
        cell = self.geometry.parse_cell(move)
        if self.board[cell] != EMPTY:
            raise IllegalMove(TEXTS("occupied", move=repr(move)))
        if cell not in self.legal_actions():
            pawn = self.geometry.names[self.pawn]
            raise IllegalMove(TEXTS("unreachable", move=repr(move), pawn=pawn))
        return cell

    # ------------------------------------------------------------------ speed
    def perft(self, depth: int) -> int:
        depth = perft_depth(depth)
        if depth == 0:
            return 1
        if self.is_over():
            return 0
        board = self.board.copy()
        return int(
            kernels.perft(board, self.geometry.neighbours, self.pawn, self.colour_to_move, self._swap_allowed(), depth)
        )

    def random_playouts(self, count: int, seed: int) -> tuple[int, int]:
        count, seed = playout_args(count, seed)
        plies, _ = kernels.random_playouts(
            self.geometry.neighbours, self.board, self.pawn, self.colour_to_move, self._swap_allowed(), count, seed
        )
        return int(plies), count

