"""Bitis: three shared Miwin dice chained across a 6x4 board (Michael Winkelmann).

:mod:`.state` holds the game (``BitisState``), :mod:`.kernels` the compiled rules,
:mod:`.solve` the retrograde solver and :mod:`.solution` the solved values, best moves and
the perfect-play agent.
"""

from ...core.spec import GameSpec

SPEC = GameSpec(
    name="bitis",
    state="ludothek.games.bitis.state:BitisState",
    render="ludothek.games.bitis.render:render_board",
    texts="ludothek.games.bitis.texts:TEXTS",
    knowledge="ludothek.games.bitis.knowledge",
    board="ludothek.games.bitis.web:BitisAdapter",
    observation="ludothek.games.bitis.observe:BitisEncoder",
    picture="ludothek.games.bitis.picture:draw",
    rules="ludothek.games.bitis:rules.json",
    lessons="ludothek.games.bitis:lessons.json",
    hint={
        "en": "Moves: IV43:9318 places die IV on row 4, column 3 with the faces 9, 3, 1, 8 to the north, east, "
              "south and west ('IV 4,3 9318' also works); type moves to see them all.",
        "de": "Züge: IV43:9318 setzt Würfel IV auf Reihe 4, Spalte 3, mit den Augen 9, 3, 1, 8 nach Norden, "
              "Osten, Süden und Westen ('IV 4,3 9318' geht auch); help nennt den Befehl, der alle erlaubten Züge "
              "zeigt.",
    },
    endings={
        "far_base_line": {
            "en": "A die was placed on the opponent's base line: the player who placed it wins.",
            "de": "Ein Würfel wurde auf die gegnerische Grundlinie gesetzt: Wer ihn gesetzt hat, gewinnt.",
        },
        "own_base_line": {
            "en": "A player had to place a die on his own base line and has lost.",
            "de": "Ein Spieler musste einen Würfel auf die eigene Grundlinie setzen und hat verloren.",
        },
        "no_placement": {
            "en": "The player to move had no legal placement and has lost.",
            "de": "Der Spieler am Zug konnte keinen Würfel regelgerecht setzen und hat verloren.",
        },
        "repetition": {
            "en": "The same position came up for the third time: a draw.",
            "de": "Dieselbe Stellung kam zum dritten Mal vor: remis.",
        },
    },
    # Bitis is tiny: a 2000-node alpha-beta plays as well as the solved table in matches from
    # the start, so the levels below "perfect" stay small; strength is not smooth in the
    # budget here (alpha-beta with 200 nodes loses to MCTS with 100), see docs/LADDER.md.
    # Levels 5-8 all play perfectly from the table, which answers at once: the time budgets
    # of levels 6-8 (those of the other games) are only a cap
    levels={
        1: ("uct", {"iterations": 25}),
        2: ("mcts", {"iterations": 100}),
        3: ("alphabeta", {"iterations": 600}),
        4: ("alphabeta", {"iterations": 1100}),
        5: ("perfect", {"seconds": 5.0}),
        6: ("perfect", {"seconds": 0.5}),
        7: ("perfect", {"seconds": 2.0}),
        8: ("perfect", {"seconds": 8.0}),
    },
    agents={"perfect": "ludothek.games.bitis.perfect:perfect_factory"},
    solver="ludothek.games.bitis.solve_cli:run",
    # its own opening procedure is decided by a random roll, so matches start from the start
    opening_plies=0,
    order=40,
    puzzles="ludothek.games.bitis:puzzles.json",
    puzzle_judge="ludothek.games.bitis.puzzles:judge",
)
