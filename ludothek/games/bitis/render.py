"""The Bitis board for the terminal: each die in its colour with its four side faces."""

from __future__ import annotations

from rich.text import Text

from ...boards.grid import grid as _grid
from .dice import DIE_NAMES, DIE_STYLES, FACES
from .texts import TEXTS

_WIDTH = 9  # characters per cell
_EMPTY = "dim"
_BASE = "yellow"


def _cell_lines(state, cell: int) -> tuple[list[tuple[str, str]], ...]:
    """Three lines of (text, style) pieces for one cell."""
    die = next((d for d in range(3) if state.cells[d] == cell), -1)
    if die < 0:
        blank = " " * _WIDTH
        return [(blank, "")], [(f"{'·':^{_WIDTH}}", _EMPTY)], [(blank, "")]
    n, e, s, w = (int(f) for f in FACES[die, state.ors[die]])
    style = DIE_STYLES[die]
    name = DIE_NAMES[die] + ("*" if die == state.last else "")
    top = [(" ", ""), (f"{n:^7}", style), (" ", "")]
    middle = [(" ", ""), (f"{w}{name:^5}{e}", style), (" ", "")]
    bottom = [(" ", ""), (f"{s:^7}", style), (" ", "")]
    return top, middle, bottom


def render_board(state, lang: str = "en") -> Text:
    grid = _grid(6, 4)
    text = Text()
    header = "    " + "".join(f"{c:^{_WIDTH}}" for c in range(1, grid.columns + 1))
    text.append(header + "\n", style="bold")
    rule = "   +" + "+".join("-" * _WIDTH for _ in range(grid.columns)) + "+\n"
    for row in range(1, grid.rows + 1):
        style = _BASE if row in (1, 6) else ""
        if row == 4:
            middle = TEXTS("board_middle_line").text(lang)
            text.append("   +" + "+".join("=" * _WIDTH for _ in range(grid.columns)) + f"+  {middle}\n", style="bold")
        else:
            text.append(rule, style=style)
        lines = [_cell_lines(state, grid.index(row, c)) for c in range(1, grid.columns + 1)]
        for k in range(3):
            text.append(f" {row} " if k == 1 else "   ", style="bold")
            text.append("|", style=style)
            for cell in lines:
                for piece, piece_style in cell[k]:
                    text.append(piece, style=piece_style)
                text.append("|", style=style)
            if k == 1 and row == 1:
                text.append("  " + TEXTS("board_base_line_b").text(lang), style=_BASE)
            elif k == 1 and row == 6:
                text.append("  " + TEXTS("board_base_line_a").text(lang), style=_BASE)
            text.append("\n")
    text.append("   +" + "+".join("-" * _WIDTH for _ in range(grid.columns)) + "+\n", style=_BASE)
    if state.last >= 0:
        text.append(TEXTS("board_last", die=DIE_NAMES[state.last]).text(lang))
    if state.is_over():
        won = state.winner()
        outcome = TEXTS("board_wins", player=won.upper()) if won else TEXTS("board_draw")
        why = state.termination_message()
        text.append(TEXTS("board_over", outcome=outcome, why=why).text(lang), style="bold")
    else:
        player = "A" if state.mover == 0 else "B"
        placed = state.dice_on_board()
        step = TEXTS("board_opening_step", step=placed + 1) if placed < 3 else TEXTS("board_move")
        text.append(TEXTS("board_to_move", player=player, step=step).text(lang), style="bold")
    return text
