"""Trike's texts in English and German: its errors and the legend of its terminal board.

The German terms follow Trike's German rules page (``rules.json``): Feld, Reihe, Stein, Figur
(the neutral pawn), Zug, Tortenregel, Schwarz and Weiß.
"""

from __future__ import annotations

from ...core.messages import Catalog

TEXTS = Catalog("trike", {
    # position strings
    "position_fields": (
        "position {text} must have 2 or 3 fields: rows, side to move (b or w) and optionally 'swap'",
        "die Stellung {text} muss aus 2 oder 3 Angaben bestehen: den Reihen, der Seite am Zug (b oder w) und "
        "wahlweise 'swap'",
    ),
    "row_count": (
        "position has {rows} rows; a Trike board has 7 to 19",
        "die Stellung hat {rows} Reihen; ein Trike-Brett hat 7 bis 19",
    ),
    "row_count_option": (
        "position has {rows} rows but the size option is {size}",
        "die Stellung hat {rows} Reihen, aber die Option size ist {size}",
    ),
    "row": ("row {number} ({letter})", "Reihe {number} ({letter})"),
    "zero_count": (
        "{where}: empty-cell count {count} must be a number from 1",
        "{where}: die Anzahl leerer Felder {count} muss mindestens 1 sein",
    ),
    "long_count": (
        "{where} has more than {cells} cells (an empty-cell count of {digits} digits)",
        "{where} hat mehr als {cells} Felder (eine Anzahl leerer Felder mit {digits} Ziffern)",
    ),
    "second_pawn": (
        "{where}: a second pawn; upper case B/W marks the one pawn",
        "{where}: eine zweite Figur; ein großes B/W markiert die eine Figur",
    ),
    "unknown_character": (
        "{where}: unknown character {item} (use b, w, B, W or a number)",
        "{where}: unbekanntes Zeichen {item} (erlaubt sind b, w, B, W oder eine Zahl)",
    ),
    "too_many_cells": ("{where} has more than {cells} cells", "{where} hat mehr als {cells} Felder"),
    "too_few_cells": ("{where} has {count} cells, needs {cells}", "{where} hat {count} Felder, braucht aber {cells}"),
    "side_field": (
        "side to move must be 'b' or 'w', not {side}",
        "die Seite am Zug muss 'b' oder 'w' sein, nicht {side}",
    ),
    "swap_field": (
        "third field must be 'swap' (the pie rule was used), not {field}",
        "die dritte Angabe muss 'swap' sein (die Tortenregel wurde angewandt), nicht {field}",
    ),
    "no_pawn": (
        "stones are on the board but no pawn: write the stone under it in upper case",
        "Steine liegen auf dem Brett, aber keine Figur: schreibe den Stein unter der Figur als Großbuchstaben",
    ),
    "pawn_alone": ("the pawn stands on an empty board", "die Figur steht auf einem leeren Brett"),
    "stone_counts": (
        "{black} black and {white} white stones cannot happen: Black places first, then the colours alternate",
        "{black} schwarze und {white} weiße Steine sind unmöglich: Schwarz setzt zuerst, danach wechseln die "
        "Farben sich ab",
    ),
    "side_by_counts": (
        "with {black} black and {white} white stones it is {side} to move",
        "bei {black} schwarzen und {white} weißen Steinen ist {side} am Zug",
    ),
    "pawn_on_own_stone": (
        "the pawn stands on a {stone} stone, but {last} moved last",
        "die Figur steht auf einem {stone} Stein, aber {last} hat zuletzt gezogen",
    ),
    "stone_black": ("black", "schwarzen"),
    "stone_white": ("white", "weißen"),
    "swap_needs_stone": (
        "'swap' needs Black's opening stone on the board",
        "'swap' setzt den ersten Stein von Schwarz auf dem Brett voraus",
    ),
    # moves
    "move_not_text": ("a move must be text, not {kind}", "ein Zug muss Text sein, nicht {kind}"),
    "swap_used": (
        "'swap' is not legal: the pie rule was already used",
        "'swap' ist nicht erlaubt: die Tortenregel wurde schon angewandt",
    ),
    "swap_too_late": (
        "'swap' is only legal on White's first turn, right after Black's opening stone",
        "'swap' ist nur im ersten Zug von Weiß erlaubt, direkt nach dem ersten Stein von Schwarz",
    ),
    "occupied": ("{move} is not legal: the cell is occupied", "{move} ist nicht erlaubt: das Feld ist besetzt"),
    "unreachable": (
        "{move} is not legal: the pawn on {pawn} cannot reach it in a straight line over empty cells",
        "{move} ist nicht erlaubt: die Figur auf {pawn} erreicht es nicht geradlinig über leere Felder",
    ),
    # the tuning agent mcts_with
    "mcts_with_setting": (
        "{agent}: unknown setting {key} (settings: {known})",
        "{agent}: unbekannte Einstellung {key} (Einstellungen: {known})",
    ),
    "mcts_with_value": ("{agent}: {key} takes a number, not {text}", "{agent}: {key} nimmt eine Zahl, nicht {text}"),
    "mcts_with_expand": ("{agent}: expand takes a whole number of at least 1, not {text}",
                         "{agent}: expand nimmt eine ganze Zahl ab 1, nicht {text}"),
    "mcts_with_lend": ("{agent}: lend takes a number from 0 to 1 (budgets), not {text}",
                       "{agent}: lend nimmt eine Zahl von 0 bis 1 (Zeitbudgets), nicht {text}"),
    "book_unreadable": (
        "opening book {path}: cannot be read ({reason})",
        "Eröffnungsbuch {path}: nicht lesbar ({reason})",
    ),
    "prior_unreadable": (
        "move prior {path}: cannot be read ({reason})",
        "Zug-Prior {path}: nicht lesbar ({reason})",
    ),
    "prior_shape": (
        "move prior {path}: {count} weights, but the features need {features}",
        "Zug-Prior {path}: {count} Gewichte, die Merkmale brauchen aber {features}",
    ),
    # the terminal board
    "board_over": ("game over: {winner} wins", "Partie vorbei: {winner} gewinnt"),
    "board_to_move": ("{side} to move", "{side} ist am Zug"),
    "board_may_swap": ("  (White may swap)", "  (Weiß darf tauschen)"),
    "board_status": ("{status}   score ● {black} ○ {white}", "{status}   Punkte ● {black} ○ {white}"),
})
