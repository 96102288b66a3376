"""A rich rendering of the 66-triangle board with dice (shared by Trigeo and Hexalit).

Each cell is three characters at its column: a triangle pointing the way the cell does
(up or down) and the die's face, ``·`` for an empty cell or ``:`` for an empty jump field (so
they differ without colour too).  The triangle also tells the owner without colour:
small ``▵``/``▿`` for an empty cell, outline ``△``/``▽`` for a White die, filled ``▲``/``▼``
for a Black die.  In colour, White's faces are dark on light and Black's light on dark, jump
fields are blue, a temporary face is underlined, the last move's cells are yellow and a
threatened 1 is red.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from ...boards import triangle66 as T
from ...core.messages import Message, colour, in_language
from .texts import TEXTS

WHITE_DIE = "bold black on grey89"
BLACK_DIE = "bold grey93 on grey23"
UP_STYLE = "grey74"
DOWN_STYLE = "grey50"
JUMP_STYLE = "bold dodger_blue1"
LAST_STYLE = "bold black on yellow"
THREAT_STYLE = "bold white on red"
WIDTH = 3
EMPTY = "·"
EMPTY_JUMP = ":"  # an empty jump field: not only its colour tells it from an empty cell


def _header() -> Text:
    text = Text("    ", style="dim")
    for c in range(1, 14):
        text.append(f"{c:>2} ".rjust(WIDTH), style="dim")
    return text


def render_board(
    board,
    side: int | None,
    *,
    temporary=None,
    jumps: Iterable[int] = (),
    last_move: tuple[int, int] | None = None,
    threatened: Iterable[int] = (),
    status: Iterable[str | Message] = (),
    title: str | Message = "",
    lang: str = "en",
) -> Text:
    """The board as rich text with its legend in ``lang`` (``en`` or ``de``); ``status`` lines
    and the ``title`` may be :class:`~ludothek.core.messages.Message` s, shown in ``lang``."""
    jumps = {int(j) for j in jumps}
    threatened = {int(t) for t in threatened}
    last = set(last_move) if last_move else set()
    out = Text()
    if title:
        out.append(f"{in_language(title, lang)}\n", style="bold")
    out.append_text(_header())
    out.append("\n")
    for r in range(1, 7):
        row = T.ROWS[r - 1]
        out.append(f" {row}  ", style="bold")
        cols = T.columns(r)
        out.append(" " * WIDTH * (cols.start - 1))
        for c in cols:
            cell = T.index(r, c)
            up = T.UP[cell] == 1
            glyph_style = JUMP_STYLE if cell in jumps else (UP_STYLE if up else DOWN_STYLE)
            if cell in last:
                glyph_style = LAST_STYLE
            value = int(board[cell])
            if value == 0:
                glyph = "▵" if up else "▿"
            elif value > 0:
                glyph = "△" if up else "▽"
            else:
                glyph = "▲" if up else "▼"
            out.append(glyph, style=glyph_style)
            if value == 0:
                out.append(EMPTY_JUMP if cell in jumps else EMPTY, style=LAST_STYLE if cell in last else "dim")
            else:
                style = WHITE_DIE if value > 0 else BLACK_DIE
                if cell in threatened:
                    style = THREAT_STYLE
                if temporary is not None and temporary[cell]:
                    style += " underline"
                out.append(str(abs(value)), style=style)
            out.append(" ")
        out.append(" " * WIDTH * (13 - cols.stop + 1))
        out.append(f" {row}\n", style="bold")
    out.append_text(_header())
    out.append("\n")
    out.append(f"{colour('White').text(lang)} ", style="bold")
    out.append("△")
    out.append("1", style=WHITE_DIE)
    out.append(f"  {colour('Black').text(lang)} ", style="bold")
    out.append("▼")
    out.append("1", style=BLACK_DIE)
    out.append(f"  {TEXTS('legend_empty').text(lang)} ▵{EMPTY} ▿{EMPTY}", style="dim")
    if jumps:
        out.append("  ")
        out.append(f"▵{EMPTY_JUMP} ▿{EMPTY_JUMP}", style=JUMP_STYLE)
        out.append(f" {TEXTS('legend_jump_field').text(lang)}", style="dim")
    for line in status:
        out.append(f"\n{in_language(line, lang)}")
    return out
