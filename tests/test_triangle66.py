"""The 66-triangle board: geometry facts from triangle-board.md, checked against an
independent drawing-based reading (tests/dice_reference.py)."""

import math

import numpy as np
import pytest

from ludothek import ParseError
from ludothek.boards import triangle66 as T

from . import dice_reference as R


def cells(*names):
    return [T.parse_cell(n) for n in names]


def test_rows_and_cell_count():
    assert T.SIZE == 66 and len(T.NAMES) == 66
    assert T.ROW_LENGTHS == (9, 11, 13, 13, 11, 9)
    assert [T.columns(r).start for r in range(1, 7)] == [3, 2, 1, 1, 2, 3]
    assert [list(T.columns(r))[-1] for r in range(1, 7)] == [11, 12, 13, 13, 12, 11]
    assert T.NAMES[0] == "A3" and T.NAMES[8] == "A11" and T.NAMES[20] == "C1" and T.NAMES[65] == "F11"
    assert [T.COORDS[i] for i in range(66)] == R.CELLS  # row-major, low column first
    assert all(T.index(r, c) == i for i, (r, c) in enumerate(T.COORDS))
    assert T.index(1, 2) == -1 and T.index(7, 7) == -1


def test_orientation():
    assert int(T.UP.sum()) == 33
    for name, up in (("A3", 1), ("D1", 0), ("A7", 1), ("F7", 0), ("C7", 1), ("B7", 0)):
        assert T.UP[T.parse_cell(name)] == up, name
    # neighbours in a row alternate
    for i in range(65):
        if T.COORDS[i][0] == T.COORDS[i + 1][0]:
            assert T.UP[i] != T.UP[i + 1]


@pytest.mark.parametrize(
    "start,direction,expected",
    [("C7", "NE", ["C8", "B10", "B11"]), ("C7", "S", ["D7", "E7", "F7"]), ("C7", "SW", ["D5", "D4", "E2"])],
)
def test_ray_examples(start, direction, expected):
    ray = T.ray(T.parse_cell(start), T.DIRECTIONS.index(direction))
    assert [T.NAMES[c] for c in ray] == expected


def test_rays_are_straight_and_reversible():
    for i in range(66):
        x0, y0 = T.X[i], T.Y[i]
        for d in range(6):
            j = T.NEXT[i, d]
            assert (j < 0) == (R.step(T.COORDS[i], T.DIRECTIONS[d]) is None)
            if j < 0:
                continue
            assert T.UP[j] != T.UP[i]
            assert T.NEXT[j, T.OPPOSITE[d]] == i
            # the step goes in the compass direction (N up, then clockwise by 60 degrees)
            angle = math.degrees(math.atan2(-(T.Y[j] - y0), T.X[j] - x0)) % 360
            expected = (90 - 60 * d) % 360
            assert min(abs(angle - expected), 360 - abs(angle - expected)) < 1e-6, (T.NAMES[i], T.DIRECTIONS[d])


def test_side_and_corner_directions():
    for i, rc in enumerate(T.COORDS):
        mine = R.vertices(rc)
        assert {T.DIRECTIONS[d] for d in T.SIDE_DIRS[i]} == R.side_dirs(rc)
        assert {T.DIRECTIONS[d] for d in T.CORNER_DIRS[i]} == R.corner_dirs(rc)
        for d in range(6):
            j = T.NEXT[i, d]
            if j < 0:
                continue
            shared = len(mine & R.vertices(T.COORDS[j]))
            # across a side: two shared corners; through a corner: one
            assert shared == (2 if d in T.SIDE_DIRS[i] else 1), (T.NAMES[i], T.DIRECTIONS[d])
    assert [T.DIRECTIONS[d] for d in T.SIDE_DIRS[T.parse_cell("C7")]] == ["NE", "S", "NW"]
    assert [T.DIRECTIONS[d] for d in T.CORNER_DIRS[T.parse_cell("C7")]] == ["N", "SE", "SW"]


def test_touching_cells_match_the_drawing_and_the_rules_list():
    for i, rc in enumerate(T.COORDS):
        mine = {T.COORDS[j] for j in T.TOUCH[i, : T.TOUCH_COUNT[i]]}
        assert mine == set(R.touching(rc)), T.NAMES[i]
        assert all(T.TOUCH[i, T.TOUCH_COUNT[i]:] == -1)
        # the three side neighbours first
        sides = {T.COORDS[j] for j in T.TOUCH[i, :3]}
        if T.TOUCH_COUNT[i] == 12:
            assert all(len(R.vertices(rc) & R.vertices(s)) == 2 for s in sides)
    interior = [T.NAMES[i] for i in range(66) if T.TOUCH_COUNT[i] == 12]
    assert "C7" in interior and "D7" in interior and "A7" not in interior
    assert max(T.TOUCH_COUNT) == 12 and T.TOUCH_COUNT[T.parse_cell("A3")] == 6


def test_centroids():
    s3 = math.sqrt(3)
    for i, (r, c) in enumerate(T.COORDS):
        x, y = R.centroid((r, c))
        assert math.isclose(T.X[i], x) and math.isclose(T.Y[i], y)
        expected = (r - 1) * s3 + (2 * s3 / 3 if (r + c) % 2 == 0 else s3 / 3)
        assert math.isclose(T.Y[i], expected) and T.X[i] == c


def test_half_turn():
    for i, (r, c) in enumerate(T.COORDS):
        j = T.MIRROR[i]
        assert T.COORDS[j] == (7 - r, 14 - c)
        assert T.UP[j] != T.UP[i] or (7 - r + 14 - c) % 2 == (r + c) % 2
        for d in range(6):
            # the half-turn maps the ray in direction d onto the ray in the opposite direction
            a = T.NEXT[i, d]
            b = T.NEXT[j, T.OPPOSITE[d]]
            assert (a < 0 and b < 0) or T.MIRROR[a] == b


def test_knight_and_pawn_columns_of_the_packed_table():
    g = T.GEO
    c7 = T.parse_cell("C7")
    knight = {T.NAMES[x] for x in g[c7, T.G_KNIGHT : T.G_KNIGHT + 6] if x >= 0}
    assert knight == {"B7", "A7", "D9", "D10", "D5", "D4"}  # N, SE, SW: 1st and 2nd cells
    assert [T.NAMES[x] for x in g[c7, T.G_PAWN : T.G_PAWN + 3]] == ["D7", "D6", "D8"]
    assert [T.NAMES[x] for x in g[c7, T.G_PAWN + 3 : T.G_PAWN + 6]] == ["B7", "B6", "B8"]
    a3 = T.parse_cell("A3")
    assert list(g[a3, T.G_PAWN + 3 : T.G_PAWN + 6]) == [-1, -1, -1]
    assert not T.GEO.flags.writeable and not T.NEXT.flags.writeable
    assert np.array_equal(g[:, T.G_NEXT : T.G_NEXT + 6], T.NEXT)


@pytest.mark.parametrize("text,index", [("a3", 0), ("A3", 0), (" c7 ", 26), ("F11", 65), ("d13", 45)])
def test_parse_cell(text, index):
    assert T.parse_cell(text) == index
    assert T.NAMES[index] == text.strip().upper()


@pytest.mark.parametrize(
    "text,message",
    [("A1", "row A has columns 3..11"), ("G5", "rows are A..F"), ("C14", "row C has columns 1..13"),
     ("C07", "off the board"), ("7C", "not a cell name"), ("", "not a cell name"), ("C", "not a cell name")],
)
def test_bad_cells(text, message):
    with pytest.raises(ParseError, match=message):
        T.parse_cell(text)
