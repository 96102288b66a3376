"""The Bitis game state: the protocol over :mod:`.kernels`."""

from __future__ import annotations

import re
from typing import Any, Hashable

import numpy as np

from ...boards.grid import grid
from ...core.errors import GameOver, IllegalMove, ParseError, PositionError, shown
from ...core.messages import Message
from ...core.protocol import TERMINAL, GameState, action_number, perft_depth, playout_args
from . import kernels as K
from .dice import DIE_FACES, DIE_NAMES, FACES, OPPOSITE_PAIRS, ORIENTATION_OF, die_index, faces_text
from .texts import TEXTS

GRID = grid(6, 4)
_SIDE_WORDS = ("north", "east", "south", "west")
_MOVE = re.compile(r"^\s*([A-Za-z]+)\s*(\d)\s*,?\s*(\d)\s*(?::|\s)\s*(\d+)\s*$")
_DIE_FIELD = re.compile(r"^(\d)\s*,?\s*(\d):(\d+)$")
_PLAYERS = ("A", "B")


def _opposite(die: int, face: int) -> int:
    for a, b in OPPOSITE_PAIRS[die]:
        if face == a:
            return b
        if face == b:
            return a
    return -1


def parse_faces(die: int, text: str, error: type[ParseError] = ParseError) -> int:
    """The orientation number of die ``die`` showing ``text`` = N, E, S, W faces."""
    name = DIE_NAMES[die]
    if len(text) != 4 or not text.isdigit():
        raise error(TEXTS("faces_digits", text=shown(text), die=name))
    faces = tuple(int(ch) for ch in text)
    for side, face in zip(_SIDE_WORDS, faces):
        if face not in DIE_FACES[die]:
            listed = " ".join(str(f) for f in DIE_FACES[die])
            raise error(TEXTS("no_such_face", die=name, face=face, side=TEXTS(side), text=repr(text), faces=listed))
    for (i, j) in ((0, 2), (1, 3)):
        if _opposite(die, faces[i]) != faces[j]:
            raise error(TEXTS(
                "not_opposite", text=repr(text), die=name, side=TEXTS(_SIDE_WORDS[i]), other_side=TEXTS(_SIDE_WORDS[j]),
                face=faces[i], opposite=_opposite(die, faces[i]),
            ))
    return ORIENTATION_OF[die][faces]


class BitisState(GameState):
    """Bitis (Michael Winkelmann) with the three shared Miwin dice III, IV and V.

    Action encoding: ``die * 576 + cell * 24 + orientation`` (1728 actions): die III, IV, V =
    0, 1, 2; cell ``(row - 1) * 4 + (column - 1)``; orientation 0..23 as numbered in
    :mod:`ludothek.games.bitis.dice` (lexicographic rank of the N, E, S, W faces).

    Moves are written compactly as one token, ``IV43:9318`` (die, row, column, then the
    north, east, south and west faces); parsing also accepts ``IV 4,3 9318`` and mixtures.
    Positions: ``<III> <IV> <V> <last> <to move>``, each die ``-`` or ``RC:NESW``, e.g.
    ``- 43:9318 - IV B``; the start is ``- - - - A``.

    Seats: 0 is A (owns rows 4..6, base line row 6), 1 is B (base line row 1); colours and
    results are written ``a`` and ``b``. Threefold repetition of a position (dice, last die,
    player to move) is a draw.

    A position string must describe a position that can arise in a game: the opening steps
    are checked directly, positions with three dice against the solved table of every
    reachable position (:mod:`.solution`).
    """

    name = "bitis"
    title = {"en": "Bitis", "de": "Bitis"}
    colours = ("a", "b")
    TRACK_REPETITIONS = True

    # ------------------------------------------------------------------ set-up
    def _clear(self) -> None:
        self.cells = np.full(3, -1, dtype=np.int8)
        self.ors = np.zeros(3, dtype=np.int8)
        self.last = -1
        self.mover = 0
        self._buffer = np.empty(K.MAX_MOVES, dtype=np.int16)

    def _setup_start(self) -> None:
        self._clear()

    def _setup_position(self, text: str) -> None:
        self._clear()
        fields = text.split()
        if len(fields) != 5:
            raise PositionError(TEXTS("position_fields", text=repr(text)))
        for die in range(3):
            field = fields[die]
            if field == "-":
                continue
            name = DIE_NAMES[die]
            match = _DIE_FIELD.match(field)
            if not match:
                raise PositionError(TEXTS("die_field", die=name, field=shown(field)))
            try:
                cell = GRID.parse_cell(match.group(1) + match.group(2))
                orientation = parse_faces(die, match.group(3), PositionError)
            except PositionError:
                raise
            except ParseError as exc:
                raise PositionError(TEXTS("die_error", die=name, error=exc)) from None
            for other in range(die):
                if self.cells[other] == cell:
                    raise PositionError(TEXTS("same_cell", die=DIE_NAMES[other], other=name, cell=GRID.names[cell]))
            self.cells[die] = cell
            self.ors[die] = orientation
        last = fields[3].upper()
        if last == "-":
            self.last = -1
        elif die_index(last) >= 0:
            self.last = die_index(last)
            if self.cells[self.last] < 0:
                raise PositionError(TEXTS("last_off_board", die=last))
        else:
            raise PositionError(TEXTS("last_field", field=repr(fields[3])))
        player = fields[4].upper()
        if player not in _PLAYERS:
            raise PositionError(TEXTS("player_field", field=repr(fields[4])))
        self.mover = _PLAYERS.index(player)
        self._check_consistent()

    def _check_consistent(self) -> None:
        count = int(K.on_board(self.cells))
        on = [d for d in range(3) if self.cells[d] >= 0]
        if count == 0:
            if self.last != -1 or self.mover != 0:
                raise PositionError(TEXTS("empty_board"))
            return
        if self.last < 0:
            raise PositionError(TEXTS("last_missing"))
        name = DIE_NAMES
        if count == 1:
            if GRID.row_of[self.cells[on[0]]] != 4:
                raise PositionError(TEXTS("opening_row", die=name[on[0]]))
            if self.mover != 1:
                raise PositionError(TEXTS("after_first_opening"))
            return
        if count == 2:
            first = on[0] if on[1] == self.last else on[1]
            if GRID.row_of[self.cells[first]] != 4:
                raise PositionError(TEXTS("opening_row", die=name[first]))
            if self.cells[self.last] != GRID.ortho[self.cells[first], 0]:
                raise PositionError(TEXTS("opening_north", die=name[self.last], first=name[first]))
            if self.mover != 0:
                raise PositionError(TEXTS("after_second_opening"))
        for d in on:
            side = int(K.chain_break(self.cells, self.ors, d, self.cells[d], self.ors[d]))
            if side >= 0:
                contact = self._contact_text(d, self.cells[d], self.ors[d], side)
                raise PositionError(TEXTS("chain_broken", contact=contact))
        if count == 2:
            return
        others = [d for d in range(3) if d != self.last]
        if not GRID.touching[self.cells[others[0]], self.cells[others[1]]]:
            raise PositionError(TEXTS("apart", die=name[others[0]], other=name[others[1]]))
        if not any(GRID.face_to_face[self.cells[self.last], self.cells[d]] for d in others):
            raise PositionError(TEXTS("last_alone", die=name[self.last]))
        for d in others:
            if GRID.row_of[self.cells[d]] in (1, 6):
                raise PositionError(TEXTS("base_line_early", die=name[d]))
        from .solution import get_solution  # the solved table knows every reachable position

        if not get_solution().reachable(self):
            raise PositionError(TEXTS("unreachable"))

    @property
    def num_actions(self) -> int:
        return K.NUM_ACTIONS

    # ------------------------------------------------------------------ rules
    def dice_on_board(self) -> int:
        return int(K.on_board(self.cells))

    def _ended_by_placement(self) -> bool:
        return bool(K.ended_by_placement(self.cells, self.last))

    def _has_move(self) -> bool:
        return bool(K.has_move(self.cells, self.ors, self.last))

    def is_over(self) -> bool:
        if self._ended_by_placement() or not self._has_move():
            return True
        return self.repetitions() >= 3

    def current_player(self) -> int:
        return TERMINAL if self.is_over() else self.mover

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        count = K.gen_moves(self.cells, self.ors, self.last, self._buffer)
        return [int(a) for a in self._buffer[:count]]

    def is_legal(self, action: int) -> bool:
        action = action_number(action)
        if not 0 <= action < K.NUM_ACTIONS or self.is_over():
            return False
        return K.diagnose(self.cells, self.ors, self.last, action)[0] == K.OK

    def _apply(self, action: int) -> Any:
        die, cell, orientation = action // 576, (action // 24) % 24, action % 24
        token = (die, int(self.cells[die]), int(self.ors[die]), self.last)
        self.cells[die] = cell
        self.ors[die] = orientation
        self.last = die
        self.mover ^= 1
        return token

    def _unapply(self, token: Any) -> None:
        die, cell, orientation, last = token
        self.cells[die] = cell
        self.ors[die] = orientation
        self.last = last
        self.mover ^= 1

    def winner(self) -> str | None:
        if self._ended_by_placement():
            return "a" if GRID.row_of[self.cells[self.last]] == 1 else "b"
        if not self._has_move():
            return self.colours[1 - self.mover]
        return None

    def termination(self) -> str | None:
        """Why the game ended, in English words (``None`` while it goes on)."""
        why = self.termination_message()
        return None if why is None else str(why)

    def termination_message(self) -> Message | None:
        """Why the game ended, as a message in English and German (``None`` while it goes on)."""
        if self._ended_by_placement():
            row = int(GRID.row_of[self.cells[self.last]])
            placer = _PLAYERS[1 - self.mover]
            own = (placer == "A" and row == 6) or (placer == "B" and row == 1)
            key = "ended_own_base_line" if own else "ended_far_base_line"
            return TEXTS(key, player=placer, die=DIE_NAMES[self.last], row=row)
        if not self._has_move():
            return TEXTS("ended_no_placement", player=_PLAYERS[self.mover])
        if self.repetitions() >= 3:
            return TEXTS("ended_repetition")
        return None

    def ending(self) -> str | None:
        """Why the game ended, as a key of the spec's ``endings`` (:meth:`termination` says
        it in a sentence); ``None`` while it goes on."""
        if self._ended_by_placement():
            row = int(GRID.row_of[self.cells[self.last]])
            placer = 1 - self.mover  # seat 0 is A (base line row 6), seat 1 is B (row 1)
            return "own_base_line" if row == (6 if placer == 0 else 1) else "far_base_line"
        if not self._has_move():
            return "no_placement"
        if self.repetitions() >= 3:
            return "repetition"
        return None

    # ------------------------------------------------------------------ notation
    def _die_field(self, die: int) -> str:
        if self.cells[die] < 0:
            return "-"
        return f"{GRID.compact_names[self.cells[die]]}:{faces_text(die, int(self.ors[die]))}"

    def position(self) -> str:
        dice = " ".join(self._die_field(d) for d in range(3))
        last = "-" if self.last < 0 else DIE_NAMES[self.last]
        return f"{dice} {last} {_PLAYERS[self.mover]}"

    def key(self) -> Hashable:
        return (tuple(self.cells.tolist()), tuple(self.ors.tolist()), self.last, self.mover)

    def action_to_str(self, action: int) -> str:
        action = self.checked_action(action)
        die, cell, orientation = action // 576, (action // 24) % 24, action % 24
        return f"{DIE_NAMES[die]}{GRID.compact_names[cell]}:{faces_text(die, orientation)}"

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise ParseError(TEXTS("move_not_text", kind=type(text).__name__))
        match = _MOVE.match(text)
        if not match:
            raise ParseError(TEXTS("not_a_placement", text=repr(text)))
        die = die_index(match.group(1))
        if die < 0:
            raise ParseError(TEXTS("unknown_die", text=repr(text), die=repr(match.group(1))))
        cell = GRID.parse_cell(match.group(2) + match.group(3))
        orientation = parse_faces(die, match.group(4))
        action = die * 576 + cell * 24 + orientation
        if self.is_over():
            raise GameOver(TEXTS("game_over", move=repr(text.strip()), why=self.termination_message()))
        code, detail = K.diagnose(self.cells, self.ors, self.last, action)
        if code != K.OK:
            why = self._explain(action, int(code), int(detail))
            raise IllegalMove(TEXTS("illegal", move=self.action_to_str(action), why=why))
        return action

    def _contact_text(self, die: int, cell: int, orientation: int, side: int) -> Message:
        neighbour_cell = int(GRID.ortho[cell, side])
        other = next(k for k in range(3) if k != die and self.cells[k] == neighbour_cell)
        mine = int(FACES[die, orientation, side])
        theirs = int(FACES[other, self.ors[other], (side + 2) % 4])
        return TEXTS(
            "contact", side=TEXTS(_SIDE_WORDS[side]), die=DIE_NAMES[die], cell=GRID.names[cell], face=mine,
            other=DIE_NAMES[other], other_cell=GRID.names[neighbour_cell], other_face=theirs,
        )

    def _explain(self, action: int, code: int, detail: int) -> Message:
        die, cell, orientation = action // 576, (action // 24) % 24, action % 24
        name = DIE_NAMES[die]
        where = GRID.names[cell]
        if code == K.OPEN1_ROW:
            return TEXTS("first_row", cell=where)
        if code == K.OPEN2_DIE:
            return TEXTS("second_die", die=name)
        if code == K.OPEN2_CELL:
            north = GRID.names[GRID.ortho[self.cells[self.last], 0]]
            return TEXTS("second_cell", north=north, cell=where)
        if code == K.OPEN3_DIE:
            third = next(k for k in range(3) if self.cells[k] < 0)
            return TEXTS("third_die", die=name, third=DIE_NAMES[third])
        if code == K.OPEN3_CELL:
            first = next(k for k in range(3) if self.cells[k] >= 0 and k != self.last)
            options = [GRID.names[GRID.ortho[self.cells[first], s]] for s in (3, 1, 2) if GRID.ortho[self.cells[first], s] >= 0]
            return TEXTS("third_cell", first=DIE_NAMES[first], cells=", ".join(options), cell=where)
        if code == K.CHAIN:
            return TEXTS("chain_rule", contact=self._contact_text(die, cell, orientation, detail))
        if code == K.LAST_DIE:
            return TEXTS("last_die", die=name)
        if code == K.STRANDS:
            a, b = [k for k in range(3) if k != die]
            return TEXTS(
                "strands", die=name, first=DIE_NAMES[a], first_cell=GRID.names[self.cells[a]], second=DIE_NAMES[b],
                second_cell=GRID.names[self.cells[b]],
            )
        if code == K.OCCUPIED:
            other = next(k for k in range(3) if self.cells[k] == cell)
            return TEXTS("occupied", cell=where, other=DIE_NAMES[other])
        if code == K.SAME_CELL:
            return TEXTS("same_place", die=name, cell=where)
        if code == K.NOT_FACING:
            a, b = [k for k in range(3) if k != die]
            return TEXTS("not_facing", cell=where, first=DIE_NAMES[a], second=DIE_NAMES[b])
        return TEXTS("rule_broken", code=code)

    @classmethod
    def join_record_words(cls, words: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """Join spaced placements (``IV 4,3 9318`` or ``IV 43:9318``) into one token."""
        joined: list[tuple[str, int]] = []
        i = 0
        while i < len(words):
            word, line = words[i]
            if word.upper() in DIE_NAMES:
                for span in (3, 2):
                    if i + span <= len(words):
                        text = " ".join(w for w, _ in words[i : i + span])
                        if _MOVE.match(text):
                            joined.append((text, line))
                            i += span
                            break
                else:
                    joined.append((word, line))
                    i += 1
                continue
            joined.append((word, line))
            i += 1
        return joined

    # ------------------------------------------------------------------ speed
    def perft(self, depth: int) -> int:
        """Leaves exactly ``depth`` plies deep, as for the other games: nothing is played
        after a placement that ends the game, and a game that ended sooner (on a base line,
        without a placement or by threefold repetition) adds no leaf."""
        depth = perft_depth(depth)
        if depth == 0:
            return 1
        if self.is_over():
            return 0
        current = self.key()
        history = [  # every position of the game so far, this one last
            K.key_of(np.array(key[0], np.int8), np.array(key[1], np.int8), key[2], key[3])
            for key, count in self._seen.items()
            for _ in range(count - (key == current))
        ]
        history.append(K.key_of(self.cells, self.ors, self.last, self.mover))
        return int(K.perft(self.cells.copy(), self.ors.copy(), self.last, self.mover, depth,
                           np.array(history, dtype=np.int64)))

    def random_playouts(self, count: int, seed: int) -> tuple[int, int]:
        count, seed = playout_args(count, seed)
        plies, _, _, _ = K.random_playouts(self.cells, self.ors, self.last, self.mover, count, seed)
        return int(plies), count

