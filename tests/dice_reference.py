"""A slow, independent pure-Python reading of triangle-board.md and trigeo.md, for tests.

Works on coordinates (r, c) and dicts; shares no code with ludothek's kernels or tables.
A board is a dict {(r, c): (colour, face)} with colour "w" or "b".
"""

from __future__ import annotations

import math
import re
from functools import cache

ROWS = "ABCDEF"
DIRS = ("N", "NE", "SE", "S", "SW", "NW")
JUMPS = {(3, 6), (3, 7), (3, 8), (4, 6), (4, 7), (4, 8)}


def exists(r, c):
    return 1 <= r <= 6 and abs(c - 7) <= 3 + min(r, 7 - r)


CELLS = [(r, c) for r in range(1, 7) for c in range(1, 14) if exists(r, c)]


def up(r, c):
    return (r + c) % 2 == 0


def name(rc):
    return f"{ROWS[rc[0] - 1]}{rc[1]}"


def cell(text):
    return (ROWS.index(text[0].upper()) + 1, int(text[1:]))


def step(rc, d):
    r, c = rc
    if up(r, c):
        table = {"N": (r - 1, c), "NE": (r, c + 1), "SE": (r + 1, c + 2), "S": (r + 1, c), "SW": (r + 1, c - 2), "NW": (r, c - 1)}
    else:
        table = {"N": (r - 1, c), "NE": (r - 1, c + 2), "SE": (r, c + 1), "S": (r + 1, c), "SW": (r, c - 1), "NW": (r - 1, c - 2)}
    nxt = table[d]
    return nxt if exists(*nxt) else None


def side_dirs(rc):
    return {"S", "NE", "NW"} if up(*rc) else {"N", "SE", "SW"}


def corner_dirs(rc):
    return set(DIRS) - side_dirs(rc)


def vertices(rc):
    """Corner points of the triangle, side length 2 (x doubled to stay integral: x*1, y in units of sqrt3)."""
    r, c = rc
    top, bottom = r - 1, r
    if up(r, c):
        return {(c, top), (c - 1, bottom), (c + 1, bottom)}
    return {(c - 1, top), (c + 1, top), (c, bottom)}


@cache
def touching(rc):
    """Cells sharing at least a corner point, computed from the drawing geometry."""
    mine = vertices(rc)
    return frozenset(other for other in CELLS if other != rc and mine & vertices(other))


def centroid(rc):
    xs, ys = zip(*vertices(rc))
    return sum(xs) / 3, sum(ys) / 3 * math.sqrt(3)


def destinations(board, rc, jumps=True):
    """Set of (to, promote) for the die on rc by its face, per the rules' text."""
    colour, face = board[rc]
    out = set()

    def free_or_enemy(t):
        return t not in board or board[t][0] != colour

    if face == 1:
        out |= {(t, False) for t in touching(rc) if free_or_enemy(t)}
    elif face == 2:
        r, c = rc
        dr = 1 if colour == "w" else -1
        last = 6 if colour == "w" else 1
        targets = []
        f = (r + dr, c)
        if exists(*f) and f not in board:
            targets.append(f)
        for t in ((r + dr, c - 1), (r + dr, c + 1)):
            if exists(*t) and t in board and board[t][0] != colour:
                targets.append(t)
        for t in targets:
            out.add((t, False))
            if t[0] == last:
                out.add((t, True))
    elif face == 3:
        for d in corner_dirs(rc):
            a = step(rc, d)
            b = step(a, d) if a else None
            for t in (a, b):
                if t and free_or_enemy(t):
                    out.add((t, False))
    else:
        dirs = {4: corner_dirs(rc), 5: side_dirs(rc), 6: set(DIRS)}[face]
        for d in dirs:
            t = step(rc, d)
            while t:
                if t in board:
                    if board[t][0] != colour:
                        out.add((t, False))
                    break
                out.add((t, False))
                t = step(t, d)
    if jumps and rc in JUMPS:
        out |= {(t, False) for t in JUMPS if t != rc and free_or_enemy(t)}
    return out


def all_moves(board, colour, jumps=True):
    return {(rc, t, p) for rc, (col, _) in board.items() if col == colour for t, p in destinations(board, rc, jumps)}


def attacked(board, target, by, jumps=True):
    """Could a die of `by` capture on `target` (whatever stands there, taken as an enemy)?"""
    trial = dict(board)
    trial[target] = ("b" if by == "w" else "w", 1)
    return any(t == target for _, t, _ in all_moves(trial, by, jumps))


def play(board, move):
    frm, to, promote = move
    new = dict(board)
    colour, face = new.pop(frm)
    new[to] = (colour, 6 if promote else face)
    return new


def trigeo_legal(board, colour):
    ones = [rc for rc, (col, face) in board.items() if col == colour and face == 1]
    if not ones:
        return set()
    one = ones[0]
    enemy = "b" if colour == "w" else "w"
    if attacked(board, one, enemy):
        return {(one, t, p) for t, p in destinations(board, one) if not attacked(play(board, (one, t, p)), t, enemy)}
    return all_moves(board, colour)


def trigeo_perft(board, colour, depth):
    moves = trigeo_legal(board, colour)
    if depth == 1 or not moves:
        return len(moves)
    other = "b" if colour == "w" else "w"
    return sum(trigeo_perft(play(board, m), other, depth - 1) for m in moves)


def parse(text):
    """(board, colour) from a position string (independent reader)."""
    rows, side, _ = text.split()
    board = {}
    for r, row in enumerate(rows.split("/"), start=1):
        cols = [c for c in range(1, 14) if exists(r, c)]
        k = 0
        for item in re.findall(r"\d+|.", row):
            if item.isdigit():
                k += int(item)
            else:
                board[(r, cols[k])] = ("w" if item.isupper() else "b", "KPNBRQ".index(item.upper()) + 1)
                k += 1
    return board, side


def write(board, colour):
    rows = []
    for r in range(1, 7):
        text, empty = "", 0
        for c in range(1, 14):
            if not exists(r, c):
                continue
            if (r, c) in board:
                if empty:
                    text += str(empty)
                    empty = 0
                col, face = board[(r, c)]
                letter = "KPNBRQ"[face - 1]
                text += letter if col == "w" else letter.lower()
            else:
                empty += 1
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows) + f" {colour} -"


def position(pieces: dict[str, str], colour="w"):
    """A position string from {"A7": "K", "F7": "k", ...}."""
    board = {}
    for where, letter in pieces.items():
        board[cell(where)] = ("w" if letter.isupper() else "b", "KPNBRQ".index(letter.upper()) + 1)
    return write(board, colour)


def move_text(board, move):
    frm, to, promote = move
    return f"{name(frm)}{'°' if to in board else 'X'}{name(to)}" + ("=6" if promote else "")
