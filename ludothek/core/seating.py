"""Who starts: games with a ``first`` option roll for it, by the CLI and the web app alike."""

from __future__ import annotations

import random


def roll_for_first(colours: tuple[str, str], rule: str, rng: random.Random) -> tuple[str, str]:
    """Each side rolls a die until they differ; the high (or low) roll starts.
    Returns the starting colour and the rolls as text for the record."""
    rolls = []
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls.append(f"{colours[0]} {a}, {colours[1]} {b}")
        if a != b:
            wins_a = a > b if rule == "high" else a < b
            return (colours[0] if wins_a else colours[1]), "; ".join(rolls)
