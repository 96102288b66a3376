"""The Trike game state: the protocol over :mod:`.kernels`."""

from __future__ import annotations

import re
from typing import Any, Hashable

import numpy as np

from ...boards.hex_triangle import hex_triangle
from ...core.errors import IllegalMove, ParseError, PositionError, shown
from ...core.options import Option
from ...core.protocol import TERMINAL, GameState, action_number, perft_depth, playout_args
from . import kernels
from .kernels import BLACK, EMPTY, WHITE

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
            raise PositionError(
                f"position {text!r} must have 2 or 3 fields: rows, side to move (b or w) and optionally 'swap'"
            )
        rows = fields[0].split("/")
        if not 7 <= len(rows) <= 19:
            raise PositionError(f"position has {len(rows)} rows; a Trike board has 7 to 19")
        if len(rows) != self.options["size"]:
            if "size" in self.explicit_options:
                raise PositionError(f"position has {len(rows)} rows but the size option is {self.options['size']}")
            self.options["size"] = len(rows)
        self._init_board()
        for r, row in enumerate(rows):
            column = 0
            for item in _ROW_ITEM.findall(row):
                where = f"row {r + 1} ({chr(ord('a') + r)})"
                if item[0] in "0123456789":
                    if item.startswith("0"):
                        raise PositionError(f"{where}: empty-cell count {shown(item, 12)} must be a number from 1")
                    if len(item) > 2:  # every row is shorter; int() refuses 4,300 digits
                        raise PositionError(
                            f"{where} has more than {r + 1} cells (an empty-cell count of {len(item)} digits)"
                        )
                    column += int(item)
                elif item.lower() in _STONE:
                    if column <= r:
                        cell = self.geometry.index(r, column)
                        self.board[cell] = _STONE[item.lower()]
                        if item.isupper():
                            if self.pawn >= 0:
                                raise PositionError(f"{where}: a second pawn; upper case B/W marks the one pawn")
                            self.pawn = cell
                    column += 1
                else:
                    raise PositionError(f"{where}: unknown character {item!r} (use b, w, B, W or a number)")
                if column > r + 1:
                    raise PositionError(f"{where} has more than {r + 1} cells")
            if column < r + 1:
                raise PositionError(f"row {r + 1} ({chr(ord('a') + r)}) has {column} cells, needs {r + 1}")
        side = fields[1].lower()
        if side not in _STONE:
            raise PositionError(f"side to move must be 'b' or 'w', not {fields[1]!r}")
        self.colour_to_move = _STONE[side]
        if len(fields) == 3:
            if fields[2].lower() != "swap":
                raise PositionError(f"third field must be 'swap' (the pie rule was used), not {fields[2]!r}")
            self.swapped = True
        black = int(np.count_nonzero(self.board == BLACK))
        white = int(np.count_nonzero(self.board == WHITE))
        if black + white and self.pawn < 0:
            raise PositionError("stones are on the board but no pawn: write the stone under it in upper case")
        if black + white == 0 and self.pawn >= 0:
            raise PositionError("the pawn stands on an empty board")
        expected = BLACK if black == white else WHITE if black == white + 1 else None
        if expected is None:
            raise PositionError(
                f"{black} black and {white} white stones cannot happen: Black places first, then the colours alternate"
            )
        if self.colour_to_move != expected:
            raise PositionError(f"with {black} black and {white} white stones it is {_LETTER[expected]} to move")
        if self.pawn >= 0 and self.board[self.pawn] == self.colour_to_move:
            stone, last = _NAME[self.colour_to_move], _NAME[BLACK + WHITE - self.colour_to_move]
            raise PositionError(f"the pawn stands on a {stone} stone, but {last} moved last")
        if self.swapped and black + white == 0:
            raise PositionError("'swap' needs Black's opening stone on the board")

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
            raise ParseError(f"a move must be text, not {type(text).__name__}")
        move = text.strip().lower()
        if move == "swap":
            if self.swapped:
                raise IllegalMove("'swap' is not legal: the pie rule was already used")
            if not self._swap_allowed():
                raise IllegalMove("'swap' is only legal on White's first turn, right after Black's opening stone")
            return self.swap_action
        cell = self.geometry.parse_cell(move)
        if self.board[cell] != EMPTY:
            raise IllegalMove(f"{move!r} is not legal: the cell is occupied")
        if cell not in self.legal_actions():
            pawn = self.geometry.names[self.pawn]
            raise IllegalMove(f"{move!r} is not legal: the pawn on {pawn} cannot reach it in a straight line over empty cells")
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

