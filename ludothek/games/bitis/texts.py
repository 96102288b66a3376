"""Bitis's texts in English and German: its errors, why a game ended and the legend of its
terminal board.

The German terms follow Bitis's German rules page (``rules.json``): Würfel, Fläche (a face;
"Fläche an Fläche"), Reihe, Spalte, Feld, Grundlinie, Mittellinie, Eröffnung, setzen, Stellung,
Partie, remis.
"""

from __future__ import annotations

from ...core.messages import Catalog

TEXTS = Catalog("bitis", {
    # the sides of a die on the board
    "north": ("north", "Norden"),
    "east": ("east", "Osten"),
    "south": ("south", "Süden"),
    "west": ("west", "Westen"),
    # a die's faces
    "faces_digits": (
        "{text} must be four digits: the faces north, east, south and west of {die}",
        "{text} muss aus vier Ziffern bestehen: den Flächen von {die} im Norden, Osten, Süden und Westen",
    ),
    "no_such_face": (
        "{die} has no face {face} (its {side} face in {text}); {die} has {faces}",
        "{die} hat keine Fläche {face} ({text} nennt sie im {side}); {die} hat {faces}",
    ),
    "not_opposite": (
        "{text} cannot be a side view of {die}: its {side} and {other_side} faces must be opposite faces, "
        "and {face} is opposite {opposite}",
        "{text} kann keine Seitenansicht von {die} sein: seine Flächen im {side} und im {other_side} müssen "
        "einander gegenüberliegen, und {face} liegt {opposite} gegenüber",
    ),
    # position strings
    "position_fields": (
        "position {text} must have 5 fields: die III, die IV, die V (each '-' or RC:NESW such as 43:9318), "
        "the die placed last and the player to move (A or B)",
        "die Stellung {text} muss aus 5 Angaben bestehen: Würfel III, Würfel IV, Würfel V (jeweils '-' oder "
        "RC:NESW wie 43:9318), dem zuletzt gesetzten Würfel und dem Spieler am Zug (A oder B)",
    ),
    "die_field": (
        "die {die}: {field} must be '-' or row, column, ':' and four faces, e.g. 43:9318",
        "Würfel {die}: {field} muss '-' sein oder Reihe, Spalte, ':' und vier Flächen, z. B. 43:9318",
    ),
    "die_error": ("die {die}: {error}", "Würfel {die}: {error}"),
    "same_cell": ("dice {die} and {other} are both on {cell}", "die Würfel {die} und {other} stehen beide auf {cell}"),
    "last_off_board": (
        "the die placed last, {die}, is not on the board",
        "der zuletzt gesetzte Würfel, {die}, steht nicht auf dem Brett",
    ),
    "last_field": (
        "the die placed last must be III, IV, V or '-', not {field}",
        "der zuletzt gesetzte Würfel muss III, IV, V oder '-' sein, nicht {field}",
    ),
    "player_field": (
        "the player to move must be A or B, not {field}",
        "der Spieler am Zug muss A oder B sein, nicht {field}",
    ),
    "empty_board": (
        "with no die on the board nothing was placed last ('-') and A is to move",
        "ohne Würfel auf dem Brett wurde nichts zuletzt gesetzt ('-'), und A ist am Zug",
    ),
    "last_missing": (
        "dice are on the board, so the position must name the die placed last",
        "es stehen Würfel auf dem Brett, also muss die Stellung den zuletzt gesetzten Würfel nennen",
    ),
    "opening_row": (
        "A's opening die {die} must stand on row 4",
        "der Eröffnungswürfel {die} von A muss auf Reihe 4 stehen",
    ),
    "after_first_opening": (
        "after A's opening placement B is to move",
        "nachdem A den ersten Würfel gesetzt hat, ist B am Zug",
    ),
    "opening_north": (
        "B's opening die {die} must stand directly north of {first}",
        "der Eröffnungswürfel {die} von B muss direkt nördlich von {first} stehen",
    ),
    "after_second_opening": (
        "after the second opening placement A is to move",
        "nach dem zweiten Setzen der Eröffnung ist A am Zug",
    ),
    "chain_broken": ("the chain rule is broken: {contact}", "die Kettenregel ist verletzt: {contact}"),
    "apart": (
        "{die} and {other} do not touch: the dice not placed last must touch each other",
        "{die} und {other} berühren sich nicht: die beiden nicht zuletzt gesetzten Würfel müssen sich berühren",
    ),
    "last_alone": (
        "the die placed last, {die}, must be face to face with another die",
        "der zuletzt gesetzte Würfel, {die}, muss Fläche an Fläche mit einem anderen Würfel stehen",
    ),
    "base_line_early": (
        "{die} stands on a base line but was not placed last: the game would have ended then",
        "{die} steht auf einer Grundlinie, wurde aber nicht zuletzt gesetzt: die Partie wäre da schon zu Ende "
        "gewesen",
    ),
    "unreachable": (
        "this position cannot arise in a game: no sequence of legal placements from the start leads to it",
        "diese Stellung kann in keiner Partie entstehen: keine Folge erlaubter Züge von der Anfangsstellung "
        "führt zu ihr",
    ),
    "unsolved": (
        "position {position} cannot be reached from the start; it is not solved",
        "die Stellung {position} ist von der Anfangsstellung aus nicht erreichbar; sie ist nicht gelöst",
    ),
    # moves
    "move_not_text": ("a move must be text, not {kind}", "ein Zug muss Text sein, nicht {kind}"),
    "not_a_placement": (
        "{text} is not a placement: write die, cell and the north, east, south, west faces, "
        "e.g. 'IV 4,3 9318' or 'IV43:9318'",
        "{text} ist kein Zug: schreibe Würfel, Feld und die Flächen im Norden, Osten, Süden und Westen, "
        "z. B. 'IV 4,3 9318' oder 'IV43:9318'",
    ),
    "unknown_die": (
        "{text}: unknown die {die} (the dice are III, IV and V)",
        "{text}: unbekannter Würfel {die} (die Würfel heißen III, IV und V)",
    ),
    "game_over": (
        "cannot play {move}: the game is over ({why})",
        "{move} kann nicht gespielt werden: die Partie ist vorbei ({why})",
    ),
    "illegal": ("{move} is not legal: {why}", "{move} ist nicht erlaubt: {why}"),
    # why a placement is not legal
    "first_row": (
        "A's first placement must be on row 4 (his side of the middle line), not on {cell}",
        "A muss den ersten Würfel auf Reihe 4 setzen (seine Seite der Mittellinie), nicht auf {cell}",
    ),
    "second_die": (
        "{die} is already on the board; B's opening placement uses one of the two other dice",
        "{die} steht schon auf dem Brett; B eröffnet mit einem der beiden anderen Würfel",
    ),
    "second_cell": (
        "B's opening placement goes directly north of A's first die, on {north}, not on {cell}",
        "B setzt in der Eröffnung direkt nördlich des ersten Würfels von A, auf {north}, nicht auf {cell}",
    ),
    "third_die": (
        "{die} is already on the board; A's second opening placement uses the third die, {third}",
        "{die} steht schon auf dem Brett; A setzt in der Eröffnung als Zweites den dritten Würfel, {third}",
    ),
    "third_cell": (
        "A's second opening placement must be face to face with his first die {first} on its west, east or "
        "south side ({cells}), not on {cell}",
        "A muss den zweiten Würfel der Eröffnung Fläche an Fläche an seinen ersten Würfel {first} setzen, an "
        "dessen West-, Ost- oder Südseite ({cells}), nicht auf {cell}",
    ),
    "chain_rule": ("chain rule: {contact}", "Kettenregel: {contact}"),
    "contact": (
        "at the {side} contact, {die} on {cell} shows {face} but {other} on {other_cell} shows {other_face}",
        "an der Berührung im {side} zeigt {die} auf {cell} eine {face}, aber {other} auf {other_cell} eine "
        "{other_face}",
    ),
    "last_die": (
        "{die} was placed last and may not be taken now",
        "{die} wurde zuletzt gesetzt und darf jetzt nicht genommen werden",
    ),
    "strands": (
        "lifting {die} strands the others: {first} on {first_cell} and {second} on {second_cell} would no "
        "longer touch",
        "nimmt man {die} weg, verlieren die anderen den Halt: {first} auf {first_cell} und {second} auf "
        "{second_cell} würden sich nicht mehr berühren",
    ),
    "occupied": ("{cell} is occupied by {other}", "{cell} ist von {other} besetzt"),
    "same_place": (
        "{die} must move to another cell than the one it is lifted from ({cell})",
        "{die} muss auf ein anderes Feld ziehen als das, von dem er genommen wird ({cell})",
    ),
    "not_facing": (
        "{cell} is not face to face with {first} or {second} (a corner touch is not enough)",
        "{cell} liegt nicht Fläche an Fläche an {first} oder {second} (eine Berührung an der Ecke genügt nicht)",
    ),
    "rule_broken": ("rule {code} broken", "Regel {code} verletzt"),
    # why the game ended
    "ended_own_base_line": (
        "{player} placed {die} on his own base line (row {row})",
        "{player} hat {die} auf die eigene Grundlinie gesetzt (Reihe {row})",
    ),
    "ended_far_base_line": (
        "{player} placed {die} on the opponent's base line (row {row})",
        "{player} hat {die} auf die gegnerische Grundlinie gesetzt (Reihe {row})",
    ),
    "ended_no_placement": ("{player} has no legal placement", "{player} kann keinen Würfel regelgerecht setzen"),
    "ended_repetition": (
        "the position occurred for the third time",
        "die Stellung ist zum dritten Mal entstanden",
    ),
    # the perfect agent and its solved table
    "perfect_bitis_only": ("the perfect agent plays Bitis only", "der Agent perfect spielt nur Bitis"),
    "perfect_argument": (
        "agent 'perfect' takes no argument, got {argument}",
        "der Agent 'perfect' nimmt kein Argument an, erhalten: {argument}",
    ),
    "solution_format": (
        "{path}: solution format {found}, expected {expected}",
        "{path}: Lösungsformat {found}, erwartet {expected}",
    ),
    # the terminal board
    "board_middle_line": ("middle line", "Mittellinie"),
    "board_base_line_b": ("B's base line (A wins here)", "Grundlinie von B (hier gewinnt A)"),
    "board_base_line_a": ("A's base line (B wins here)", "Grundlinie von A (hier gewinnt B)"),
    "board_last": ("* {die} was placed last.  ", "* {die} wurde zuletzt gesetzt.  "),
    "board_over": ("Game over: {outcome} ({why}).", "Partie vorbei: {outcome} ({why})."),
    "board_wins": ("{player} wins", "{player} gewinnt"),
    "board_draw": ("draw", "remis"),
    "board_to_move": ("{player} to move ({step}).", "{player} ist am Zug ({step})."),
    "board_opening_step": ("opening step {step}", "Eröffnung, Schritt {step}"),
    "board_move": ("move", "Zug"),
})
