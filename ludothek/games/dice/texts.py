"""The texts of the dice code shared by Trigeo and Hexalit, in English and German: position
strings, move notation and the terminal board (its legend and the status lines both games
show).

Terms as on the German rules pages: Feld (cell), Zug (move), Würfel (die), Augenzahl (face),
Reihe (row), Stellung (position), Partie (game), Weiß / Schwarz.
"""

from __future__ import annotations

from ...core.messages import Catalog, Message

TEXTS = Catalog("dice", {
    # ---------------------------------------------------------------- the tuning agent alphabeta_with
    "weight_name": (
        "{agent}: unknown weight {weight} (weights: {known})",
        "{agent}: unbekanntes Gewicht {weight} (Gewichte: {known})",
    ),
    "weight_value": (
        "{agent}: {weight} takes a finite number, not {text}",
        "{agent}: {weight} nimmt eine endliche Zahl, nicht {text}",
    ),
    # ---------------------------------------------------------------- the learned evaluation
    "net_option": (
        "{agent}: expected file=PATH after the budget, not {text}",
        "{agent}: nach dem Budget wird file=PFAD erwartet, nicht {text}",
    ),
    "net_file": (
        "cannot read the net {path}: {error}",
        "das Netz {path} lässt sich nicht lesen: {error}",
    ),
    "train_game": (
        "no learned evaluation to train for {game} (only trigeo and hexalit)",
        "für {game} gibt es keine lernende Bewertung zu trainieren (nur trigeo und hexalit)",
    ),
    "train_resume_settings": (
        "{path} was made with other settings: {names}",
        "{path} wurde mit anderen Einstellungen erzeugt: {names}",
    ),
    "train_unreadable": (
        "cannot read {path}: {error}",
        "{path} lässt sich nicht lesen: {error}",
    ),
    "train_not_ours": (
        "{path} is not a checkpoint or data file written by 'ludothek train'",
        "{path} ist keine Zwischenstand- oder Datendatei von 'ludothek train'",
    ),
    "train_not_a_net": (
        "{path} is not a net written by 'ludothek train'",
        "{path} ist kein Netz von 'ludothek train'",
    ),
    "train_start_hidden": (
        "{path} has {have} hidden units, not the {hidden} asked for (--hidden)",
        "{path} hat {have} verdeckte Einheiten, nicht die verlangten {hidden} (--hidden)",
    ),
    "train_unwritable": (
        "cannot write {path}: the folder {folder} does not exist or is not writable",
        "{path} lässt sich nicht schreiben: den Ordner {folder} gibt es nicht, oder er ist schreibgeschützt",
    ),
    # ---------------------------------------------------------------- position strings
    "position_not_text": ("a position must be text, not {type}", "eine Stellung muss Text sein, nicht {type}"),
    "position_empty": (
        "the position is empty: expected '<rows> <side to move> <temporary dice>'",
        "die Stellung ist leer: erwartet wird '<Reihen> <Seite am Zug> <vorübergehende Würfel>'",
    ),
    "position_missing_side": (
        "position is missing the side to move (w or b) and the temporary-dice field ('-' if none)",
        ("der Stellung fehlen die Seite am Zug (w oder b) und die Angabe der vorübergehenden Würfel "
         "('-', wenn es keine gibt)"),
    ),
    "position_missing_temporary": (
        "position is missing its third field, the temporary dice (write '-' for none)",
        "der Stellung fehlt ihre dritte Angabe, die vorübergehenden Würfel (für keine '-' schreiben)",
    ),
    "position_fields": (
        "position has {count} fields; expected 3: rows, side to move, temporary dice (extra: {extra})",
        ("die Stellung hat {count} Angaben; erwartet werden 3: Reihen, Seite am Zug, vorübergehende Würfel "
         "(überzählig: {extra})"),
    ),
    "position_rows": (
        "the board field has {count} rows separated by '/'; expected 6 (A to F)",
        "die Brett-Angabe hat {count} durch '/' getrennte Reihen; erwartet werden 6 (A bis F)",
    ),
    "row_leading_zero": (
        "row {row}: empty-cell count {count} must be a number from 1 without leading 0",
        "Reihe {row}: die Anzahl leerer Felder {count} muss eine Zahl ab 1 ohne führende 0 sein",
    ),
    "row_too_many_digits": (
        "row {row} has more than {length} cells (an empty-cell count of {digits} digits)",
        "Reihe {row} hat mehr als {length} Felder (eine Anzahl leerer Felder mit {digits} Ziffern)",
    ),
    "row_unknown_character": (
        ("row {row}: unknown character {char} (dice are K P N B R Q for faces 1-6, upper case White, lower case "
         "Black; numbers count empty cells)"),
        ("Reihe {row}: unbekanntes Zeichen {char} (Würfel sind K P N B R Q für die Augenzahlen 1-6, "
         "Großbuchstaben für Weiß, Kleinbuchstaben für Schwarz; Zahlen zählen leere Felder)"),
    ),
    "row_too_long": (
        "row {row} has more than {length} cells (it has columns {first}..{last})",
        "Reihe {row} hat mehr als {length} Felder (sie hat die Spalten {first}..{last})",
    ),
    "row_too_short": ("row {row} has {filled} cells; it needs {length}",
                      "Reihe {row} hat {filled} Felder; sie braucht {length}"),
    "too_many_dice": ("{colour} has {count} dice; each side has {max}",
                      "{colour} hat {count} Würfel; jede Seite hat {max}"),
    "side_to_move": ("side to move must be 'w' or 'b', not {text}",
                     "die Seite am Zug muss 'w' oder 'b' sein, nicht {text}"),
    "temporary_field": ("temporary dice field: {error}", "Angabe der vorübergehenden Würfel: {error}"),
    "temporary_twice": ("temporary dice field: {cell} is listed twice",
                        "Angabe der vorübergehenden Würfel: {cell} steht doppelt darin"),
    "temporary_no_die": ("temporary dice field: {cell} has no die",
                         "Angabe der vorübergehenden Würfel: auf {cell} steht kein Würfel"),
    # ---------------------------------------------------------------- move notation
    "move_not_text": ("a move must be text, not {type}", "ein Zug muss Text sein, nicht {type}"),
    "not_a_move": (
        ("{text} is not a move: write start cell, X (move) or ° (capture; x or * also accepted), end cell, "
         "e.g. B6XC6 or C7°D7"),
        ("{text} ist kein Zug: schreibe Startfeld, X (Zug) oder ° (Schlagen; x oder * gehen auch), Zielfeld, "
         "z. B. B6XC6 oder C7°D7"),
    ),
    "not_a_move_promotion": (
        ("{text} is not a move: write start cell, X (move) or ° (capture; x or * also accepted), end cell, "
         "e.g. B6XC6 or C7°D7, and =6 to promote a 2"),
        ("{text} ist kein Zug: schreibe Startfeld, X (Zug) oder ° (Schlagen; x oder * gehen auch), Zielfeld, "
         "z. B. B6XC6 oder C7°D7, und =6, um eine 2 umzuwandeln"),
    ),
    "same_cell": ("{text} is not a move: start and end cell are both {cell}",
                  "{text} ist kein Zug: Start- und Zielfeld sind beide {cell}"),
    "no_promotion": ("{text}: this game has no promotion ('={face}')",
                     "{text}: in diesem Spiel gibt es keine Umwandlung ('={face}')"),
    "promote_to_six": ("{text}: a 2 can only be promoted to a 6 ('=6'), not to {face}",
                       "{text}: eine 2 kann nur in eine 6 umgewandelt werden ('=6'), nicht in eine {face}"),
    "mark_repeated": ("{text}: a mark is repeated", "{text}: ein Zeichen steht doppelt"),
    "capture_empty": ("{text} claims a capture but {cell} is empty; write {move}",
                      "{text} gibt ein Schlagen an, aber {cell} ist leer; schreibe {move}"),
    # ---------------------------------------------------------------- faces (the chess pieces they stand for)
    "face_1": ("king", "König"),
    "face_2": ("pawn", "Bauer"),
    "face_3": ("knight", "Springer"),
    "face_4": ("bishop", "Läufer"),
    "face_5": ("rook", "Turm"),
    "face_6": ("queen", "Dame"),
    # ---------------------------------------------------------------- the terminal board
    "legend_empty": ("empty", "leer"),
    "legend_jump_field": ("jump field", "Sprungfeld"),
    "last_move": ("Last move: {move}", "Letzter Zug: {move}"),
    "one_threatened": ("Eins! {owner}'s 1 on {cell} is threatened.", "Eins! Die 1 von {owner} auf {cell} ist bedroht."),
    "over_won": ("Game over: {winner} wins.", "Partie vorbei: {winner} gewinnt."),
    "over_draw": ("Game over: draw.", "Partie vorbei: remis."),
    "to_move": ("{side} to move.", "{side} ist am Zug."),
    "draw": ("draw", "remis"),
})


def face_name(face: int) -> Message:
    """The chess piece a face stands for (1 king … 6 queen), ``König`` … ``Dame`` in German."""
    return TEXTS(f"face_{int(face)}")
