"""``ludothek solve bitis``: solve with a progress bar, report, compare or write the table."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .solve import DRAW, LOSS, WIN, solve, verify


def run(console: Any, output: str | None = None) -> dict[str, Any]:
    """Solve Bitis showing a rich progress bar on ``console``; print a summary; compare with
    the shipped table; write the table to ``output`` if given. Returns the summary."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .solution import SHIPPED, Solution
    from .state import BitisState

    started = time.perf_counter()
    with Progress(
        TextColumn("solving bitis"), BarColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
        console=console, transient=True,
    ) as progress:
        task = progress.add_task("starting", total=4)

        def tell(step: int, total: int, text: str) -> None:
            progress.update(task, completed=step, total=total, description=text)

        result = solve(tell)
    seconds = time.perf_counter() - started
    solved = Solution(result["keys"], result["value"], result["distance"])
    values, distances = solved.values, solved.distances
    n = len(solved)
    summary: dict[str, Any] = {
        "canonical_positions": n,
        "positions": 4 * n,
        "ended_positions": 4 * result["ended"],
        "opening_positions": 1 + 288 + 1152,
        "edges": result["edges"],
        "wins": int(np.count_nonzero(values == WIN)),
        "draws": int(np.count_nonzero(values == DRAW)),
        "losses": int(np.count_nonzero(values == LOSS)),
        "longest_win": int(distances[values == WIN].max()),
        "longest_loss": int(distances[values == LOSS].max()),
        "seconds": seconds,
    }
    summary["start_value_for_A"] = str(solved.state_value(BitisState()))
    total = summary["opening_positions"] + summary["positions"] + summary["ended_positions"]
    console.print(f"solved in {seconds:.2f} s")
    console.print(
        f"reachable positions: {total:,} = {summary['opening_positions']:,} during the opening + "
        f"{summary['positions']:,} with three dice, game on + {summary['ended_positions']:,} ended on a base line"
    )
    console.print(
        f"stored (one per symmetry class of 4): {n:,} positions, {result['edges']:,} placements between them"
    )
    console.print(
        f"for the player to move: {summary['wins']:,} wins, {summary['draws']:,} draws, {summary['losses']:,} losses; "
        f"longest forced win {summary['longest_win']} plies, longest loss {summary['longest_loss']} plies"
    )
    console.print(f"the start '- - - - A' for A: {summary['start_value_for_A']}")
    failures = int(verify(solved.keys.astype(np.int64), values, distances))
    summary["verify_failures"] = failures
    console.print(
        "verified: every value is the best over its moves" if failures == 0 else f"VERIFY FAILED at {failures} positions"
    )
    if SHIPPED.exists():
        same = Solution.load(SHIPPED).same_as(solved)
        summary["matches_shipped"] = same
        console.print(f"shipped table {SHIPPED.name}: {'identical' if same else 'DIFFERENT - regenerate it'}")
    if output:
        solved.save(output)
        console.print(f"written to {output}")
    return summary
