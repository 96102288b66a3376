"""Trike in the terminal: the triangle of hexagons, row letters left, column numbers below
the bottom row (a column runs diagonally up to the right edge, where each row's last column
is numbered again), the pawn's stone in brackets."""

from __future__ import annotations

from rich.text import Text

from .kernels import BLACK, WHITE

_STONE = {BLACK: ("●", "bold bright_white on grey23"), WHITE: ("○", "bold black on grey85")}


def render_board(state) -> Text:
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
        status = f"game over: {state.winner()} wins"
    else:
        status = f"{state.to_move} to move" + ("  (White may swap)" if state._swap_allowed() else "")
    out.append(f"{status}   score ● {score['black']} ○ {score['white']}", style="bold")
    return out
