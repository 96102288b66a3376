"""The three Miwin dice and their 24 orientations on the board.

Dice are numbered ``III, IV, V = 0, 1, 2``. Only the four side faces of a die on the board
matter, listed as ``(N, E, S, W)``. An orientation is an assignment where N/S are one
opposite pair of the die and E/W another: 3 pairs for N/S x 2 orders x 2 pairs left for
E/W x 2 orders = 24, exactly the side patterns of the 24 rotations of the cube (checked in
the tests against the rotation group, for both handednesses of the die).

Orientation numbers ``0..23`` of a die are the ranks of its (N, E, S, W) tuples in
lexicographic order, so orientation 0 of III is ``(1, 2, 9, 7)``.
"""

from __future__ import annotations

import numpy as np

DIE_NAMES = ("III", "IV", "V")
DIE_COLOURS = ("blue", "red", "black")
#: rich styles for drawing each die
DIE_STYLES = ("bold white on blue", "bold white on red", "bold white on grey11")
#: the faces of each die
DIE_FACES = ((1, 2, 5, 6, 7, 9), (1, 3, 4, 5, 8, 9), (2, 3, 4, 6, 7, 8))
#: opposite pairs of each die
OPPOSITE_PAIRS = (
    ((1, 9), (2, 7), (5, 6)),
    ((1, 9), (3, 8), (4, 5)),
    ((2, 7), (3, 8), (4, 6)),
)


def _orientations(pairs) -> list[tuple[int, int, int, int]]:
    found = []
    for i, ns in enumerate(pairs):
        for j, ew in enumerate(pairs):
            if i == j:
                continue
            for north, south in (ns, ns[::-1]):
                for east, west in (ew, ew[::-1]):
                    found.append((north, east, south, west))
    return sorted(found)


#: ORIENTATIONS[die] = the 24 (N, E, S, W) tuples in orientation order
ORIENTATIONS: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(_orientations(pairs)) for pairs in OPPOSITE_PAIRS
)
#: FACES[die, orientation, side] (side N, E, S, W = 0..3)
FACES = np.array(ORIENTATIONS, dtype=np.int8)
#: ORIENTATION_OF[die][(n, e, s, w)] = orientation number
ORIENTATION_OF = tuple({o: k for k, o in enumerate(ORIENTATIONS[d])} for d in range(3))

_FLIP_SIDES = (2, 1, 0, 3)  # north <-> south
_MIRROR_SIDES = (0, 3, 2, 1)  # east <-> west


def _remap(sides) -> np.ndarray:
    table = np.zeros((3, 24), dtype=np.int8)
    for d in range(3):
        for k, faces in enumerate(ORIENTATIONS[d]):
            table[d, k] = ORIENTATION_OF[d][tuple(faces[s] for s in sides)]
    return table


#: FLIP_ORIENTATION[die, o]: the orientation seen in a north-south mirror
FLIP_ORIENTATION = _remap(_FLIP_SIDES)
#: MIRROR_ORIENTATION[die, o]: the orientation seen in an east-west mirror
MIRROR_ORIENTATION = _remap(_MIRROR_SIDES)


def die_index(name: str) -> int:
    """0, 1 or 2 for ``III``, ``IV``, ``V`` (case-insensitive); -1 if unknown."""
    upper = name.strip().upper()
    return DIE_NAMES.index(upper) if upper in DIE_NAMES else -1


_FACES_TEXT = tuple(tuple("".join(map(str, faces)) for faces in orientations) for orientations in ORIENTATIONS)


def faces_text(die: int, orientation: int) -> str:
    return _FACES_TEXT[die][orientation]
