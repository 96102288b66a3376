"""Trike in the terminal: the triangle of hexagons, row letters left, column numbers below
the bottom row (a column runs diagonally up to the right edge, where each row's last column
is numbered again), the pawn's stone in brackets."""

from __future__ import annotations

from rich.text import Text

from ...core.messages import colour
from .kernels import BLACK, WHITE
from .texts import TEXTS

_STONE = {BLACK: ("●", "bold bright_white on grey23"), WHITE: ("○", "bold black on grey85")}


def render_board(state, lang: str = "en") -> Text:
    geometry = state.geometry
    side = geometry.side
    out = Text()
    for r in range(side):
        out.append(f"{chr(ord('a') + r)} ", style="bold cyan")
        out.append("  " * (side - 1 - r))
        for c in range(r + 1):
            cell = geometry.index(r, c)
            stone = int(state.board[cell])
            if cell == state.pawn:
                glyph, _ = _STONE[stone]
                out.append(f"[{glyph}]", style="bold black on yellow")
                out.append(" ")
            elif stone:
                glyph, style = _STONE[stone]
                out.append(f" {glyph} ", style=style)
                out.append(" ")
            else:
                out.append(" · ", style="dim")
                out.append(" ")
        out.append(f" {r + 1}\n", style="cyan")
    # under the bottom row: its cell c is drawn at 2 + 4c, three characters wide
    labels = "  " + " ".join(f"{c + 1:^3}" for c in range(side))
    out.append(labels.rstrip() + "\n", style="cyan")
    score = state.score()
    if state.is_over():
        status = TEXTS("board_over", winner=colour(state.winner())).text(lang)
    else:
        status = TEXTS("board_to_move", side=colour(state.to_move)).text(lang)
        if state._swap_allowed():
            status += TEXTS("board_may_swap").text(lang)
    out.append(TEXTS("board_status", status=status, black=score["black"], white=score["white"]).text(lang),
               style="bold")
    return out
