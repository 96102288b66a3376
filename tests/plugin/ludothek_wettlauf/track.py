"""The track of Race: the start, twelve squares and home, their names and where they are drawn.

Squares are numbered 0 … 13: ``0`` is the start (named ``s``, off the board), ``1`` … ``12``
the squares of the track, ``13`` home (named ``h``, off the board at the far end). Every
picture of the board (web, raster) lays the track out as a U of two rows of seven:
``s 1 2 3 4 5 6`` from left to right, then ``7 8 9 10 11 12 h`` from right to left below.
"""

from __future__ import annotations

from ludothek.core.errors import ParseError
from ludothek.core.messages import Message

from .texts import TEXTS

START = 0
LAST = 12
HOME = 13
SQUARES = tuple(range(HOME + 1))
NAMES = ("s", *(str(n) for n in range(1, LAST + 1)), "h")
#: (column, row) of every square in the U layout
LAYOUT = tuple((n, 0) if n <= 6 else (13 - n, 1) for n in SQUARES)
COLUMNS, ROWS = 7, 2


def square_name(square: int) -> str:
    return NAMES[square]


def parse_square(text: str, error: type[ParseError] = ParseError) -> int:
    """The square a name stands for: ``s``, ``1`` … ``12`` or ``h`` (any case, any spaces)."""
    word = text.strip().lower()
    if word in NAMES:
        return NAMES.index(word)
    if word.isascii() and word.isdigit():
        if len(word) <= 4 and 1 <= int(word) <= LAST:
            return int(word)  # a number written with leading zeros
        raise error(TEXTS("no_such_square", word=repr(word[:6]), last=LAST))
    raise error(TEXTS("not_a_square", word=repr(word[:20]), last=LAST))


def describe(square: int) -> str:
    """A square as a sentence names it: ``the start``, ``square 5``, ``home``."""
    if square == START:
        return "the start (s)"
    if square == HOME:
        return "home (h)"
    return f"square {square}"


def described_at(square: int) -> Message:
    """A square where a token stands, in English as :func:`describe` names it and in German
    with its preposition: ``am Start (s)``, ``auf Feld 5``, ``im Ziel (h)``."""
    if square == START:
        return TEXTS("at_start")
    return TEXTS("at_home") if square == HOME else TEXTS("at_square", square=square)


def described_to(square: int) -> Message:
    """A square a token goes to, in English as :func:`describe` names it and in German as the
    object of a verb: ``den Start (s)``, ``Feld 5``, ``das Ziel (h)``."""
    if square == START:
        return TEXTS("to_start")
    return TEXTS("to_home") if square == HOME else TEXTS("to_square", square=square)
