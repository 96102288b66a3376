"""Trike: a neutral pawn on a triangle of hexagons (Alek Erickson, 2020).

:mod:`.state` holds the game (``TrikeState``), :mod:`.kernels` the compiled rules,
:mod:`.knowledge` what the bots know, :mod:`.web`, :mod:`.observe` and :mod:`.picture` how it
is drawn and encoded.
"""

from ...core.spec import GameSpec


def _timed_levels() -> dict[int, tuple[str, dict]]:
    """Levels 6-8: the MCTS, which may think up to twice its budget on an unsettled move with
    time saved on settled ones (:mod:`.timekeeping`)."""
    from ...ai.levels import timed_levels

    return timed_levels("mcts")


SPEC = GameSpec(
    name="trike",
    state="ludothek.games.trike.state:TrikeState",
    render="ludothek.games.trike.render:render_board",
    texts="ludothek.games.trike.texts:TEXTS",
    knowledge="ludothek.games.trike.knowledge",
    board="ludothek.games.trike.web:TrikeAdapter",
    observation="ludothek.games.trike.observe:TrikeEncoder",
    picture="ludothek.games.trike.picture:draw",
    rules="ludothek.games.trike:rules.json",
    lessons="ludothek.games.trike:lessons.json",
    hint={
        "en": "Moves: a cell such as c1 (row letter from the apex, then column; the columns run diagonally "
              "from the numbers below up to the right edge), or swap (White's first move: take over Black's stone).",
        "de": "Züge: ein Feld wie c1 (Reihenbuchstabe von der Spitze aus, dann Spalte; die Spalten laufen schräg "
              "von den Zahlen unten zum rechten Rand), oder swap (erster Zug von Weiß: den schwarzen Stein "
              "übernehmen).",
    },
    endings={
        "pawn_trapped": {
            "en": "The pawn is walled in: every cell next to it is taken. Each side scores its stones under and "
                  "next to the pawn; the higher score wins.",
            "de": "Die Figur ist eingeschlossen: Alle Nachbarfelder sind besetzt. Jede Seite zählt ihre Steine "
                  "unter und neben der Figur; die höhere Zahl gewinnt.",
        },
    },
    agents={"mcts_old": "ludothek.games.trike.agents:mcts_old_factory",
            "mcts_v2": "ludothek.games.trike.agents:mcts_v2_factory",
            "mcts_with": "ludothek.games.trike.agents:mcts_with_factory"},
    draws=False,  # the scored cells always number 3, 5 or 7
    # MCTS is stronger than alpha-beta here: the default ladder
    levels=_timed_levels(),
    opening_plies=1,  # Black's opening stone, so the pie rule decides something
    order=10,
    puzzles="ludothek.games.trike:puzzles.json",
)
