"""Hexalit's texts in English and German: its errors (rolls, the Eins-Gebot, the doubling cube,
the match) and the status lines of its terminal board.  The shared dice code (position strings,
move notation, the board's legend) has its own catalog, :mod:`ludothek.games.dice.texts`.

Terms as on the German rules page: Zug, Feld, Würfel, werfen / Wurf, Augenzahl, Eins-Gebot,
Verdopplungswürfel, Einsatz, annehmen / ablehnen, Partie, Stellung, Match.
"""

from __future__ import annotations

from ...core.messages import Catalog

TEXTS = Catalog("hexalit", {
    # ---------------------------------------------------------------- position strings
    "position_fields": (
        ("position has {count} fields; expected 3 (rows, side to move, temporary dice) and optionally a pending "
         "roll such as 'B5W'"),
        ("die Stellung hat {count} Angaben; erwartet werden 3 (Reihen, Seite am Zug, vorübergehende Würfel) und "
         "wahlweise ein offener Wurf wie 'B5W'"),
    ),
    "no_ones": (
        "neither side has a die showing 1; each side starts with one and a game ends when a side has none",
        ("keine Seite hat einen Würfel mit einer 1; jede Seite beginnt mit einer, und eine Partie endet, sobald "
         "eine Seite keine mehr hat"),
    ),
    "only_one_temporary": (
        "temporary dice field: {cell} holds {side}'s only 1, and a side's only 1 is always permanent",
        ("Angabe der vorübergehenden Würfel: auf {cell} steht die einzige 1 von {side}, und die einzige 1 einer "
         "Seite ist immer dauerhaft"),
    ),
    "fourth_field": ("fourth field {text} must be a pending roll such as 'B5W'",
                     "die vierte Angabe {text} muss ein offener Wurf wie 'B5W' sein"),
    "pending_roll_field": ("pending roll field: {error}", "Angabe des offenen Wurfs: {error}"),
    "pending_roll_impossible": ("pending roll {text} is impossible: {why}",
                                "der offene Wurf {text} ist unmöglich: {why}"),
    # ---------------------------------------------------------------- reading moves
    "write_double": ("{text}: write 'double N', N the new stake (2, 4, … {max})",
                     "{text}: schreibe 'double N', N der neue Einsatz (2, 4, … {max})"),
    "one_turn": (
        "{text}: one turn per move; only cube actions (double, take, drop) may come before a move",
        ("{text}: ein Zug pro Eingabe; nur Aktionen des Verdopplungswürfels ('double', 'take', 'drop') dürfen vor "
         "einem Zug stehen"),
    ),
    "move_empty": ("the move is empty", "der Zug ist leer"),
    "game_over": ("cannot play {text}: the game is over ({result})",
                  "{text} kann nicht gespielt werden: die Partie ist vorbei ({result})"),
    "give_face": (
        "{text}: the die on {cell} is being rolled; give the face it shows, 1 … 6 (or {cell}W6)",
        ("{text}: der Würfel auf {cell} wird gerade geworfen; gib die Augenzahl an, die er zeigt, 1 … 6 "
         "(oder {cell}W6)"),
    ),
    "other_die_rolled": ("{text}: the die being rolled is the one on {cell}",
                         "{text}: geworfen wird der Würfel auf {cell}"),
    "answer_offer_first": (
        "{text}: {other} must first answer {me}'s offer to double to {stake}: 'take' or 'drop'",
        "{text}: {other} muss erst das Angebot von {me} beantworten, auf {stake} zu verdoppeln: 'take' oder 'drop'",
    ),
    "answer_first": ("{text}: {other} must first answer the offer to double: 'take' or 'drop'",
                     "{text}: {other} muss erst das Angebot zum Verdoppeln beantworten: 'take' oder 'drop'"),
    "roll_with_outcome": (
        ("{text} is a roll together with its outcome (two actions): play it as one move, or give the roll alone "
         "({cell}W) and then the face"),
        ("{text} ist ein Wurf samt Ergebnis (zwei Aktionen): spiele ihn als einen Zug oder gib erst den Wurf allein "
         "({cell}W) und dann die Augenzahl an"),
    ),
    "roll_marks": ("{text}: a roll gets its marks with its outcome ({cell}W6^), not before",
                   "{text}: ein Wurf bekommt seine Zeichen mit seinem Ergebnis ({cell}W6^), nicht vorher"),
    "marked_win": ("{text} is marked '+' but it does not win", "{text} ist mit '+' markiert, gewinnt aber nicht"),
    "marked_threat": ("{text} is marked '^' but it leaves no opposing 1 threatened",
                      "{text} ist mit '^' markiert, lässt aber keine gegnerische 1 bedroht zurück"),
    "no_argument": ("{text}: '{word}' takes no argument", "{text}: zu '{word}' gehört keine weitere Angabe"),
    # ---------------------------------------------------------------- why a move is not legal
    "not_legal": ("{text} is not legal: {why}", "{text} ist nicht erlaubt: {why}"),
    "no_die": ("there is no die on {cell}", "auf {cell} steht kein Würfel"),
    "opponents_die": ("the die on {cell} is {other}'s; {me} is to move",
                      "der Würfel auf {cell} gehört {other}; {me} ist am Zug"),
    "own_die": ("{cell} holds {me}'s own die", "auf {cell} steht ein eigener Würfel von {me}"),
    "gebot_move": (
        "{me}'s last 1 on {cell} is threatened (Eins-Gebot): it must move to a cell where it is not threatened",
        ("die letzte 1 von {me} auf {cell} ist bedroht (Eins-Gebot): sie muss auf ein Feld ziehen, auf dem sie "
         "nicht bedroht ist"),
    ),
    "gebot_still": ("{me}'s last 1 would still be threatened on {cell} (Eins-Gebot)",
                    "die letzte 1 von {me} wäre auf {cell} weiterhin bedroht (Eins-Gebot)"),
    "two_moves": (
        "a 2 moves one cell forward to an empty cell and captures only on the two cells beside that one",
        "eine 2 zieht ein Feld vorwärts auf ein leeres Feld und schlägt nur auf den beiden Feldern daneben",
    ),
    "cannot_reach": ("the {face} ({piece}) on {frm} cannot reach {to}",
                     "die {face} ({piece}) auf {frm} kann {to} nicht erreichen"),
    "gebot_roll": (
        ("{me}'s last 1 on {cell} is threatened (Eins-Gebot): it must move to a cell where it is not threatened, "
         "and no die may be rolled"),
        ("die letzte 1 von {me} auf {cell} ist bedroht (Eins-Gebot): sie muss auf ein Feld ziehen, auf dem sie "
         "nicht bedroht ist, und kein Würfel darf geworfen werden"),
    ),
    "only_one": (
        "{cell} shows {me}'s only 1; a 1 may be rolled only while {me} has another 1",
        "{cell} zeigt die einzige 1 von {me}; eine 1 darf nur geworfen werden, solange {me} noch eine weitere 1 hat",
    ),
    "roll_face": (
        "only a die showing 2 (or a 1 while its side has another 1) may be rolled; {cell} shows {face}",
        ("geworfen werden darf nur ein Würfel mit einer 2 (oder eine 1, solange seine Seite noch eine weitere 1 "
         "hat); {cell} zeigt {face}"),
    ),
    # ---------------------------------------------------------------- the doubling cube
    "no_offer": ("there is no offer to double to answer",
                 "es gibt kein Angebot zum Verdoppeln, das zu beantworten wäre"),
    "no_cube": ("this game is not played with the doubling cube (option cube=true)",
                "diese Partie wird nicht mit dem Verdopplungswürfel gespielt (Option cube=true)"),
    "rolling": ("a die is being rolled; give its face first",
                "ein Würfel wird gerade geworfen; gib zuerst seine Augenzahl an"),
    "offer_waits": ("{other} must first answer the offer: 'take' or 'drop'",
                    "{other} muss erst das Angebot beantworten: 'take' oder 'drop'"),
    "offered_already": ("{me} has already offered a double this turn (at most one per turn)",
                        "{me} hat in diesem Zug schon eine Verdopplung angeboten (höchstens eine pro Zug)"),
    "cube_highest": ("the stake is {stake}, the cube's highest value",
                     "der Einsatz ist {stake}, der höchste Wert des Verdopplungswürfels"),
    "first_brings_cube": ("only {first}, who started the game, may bring the cube in",
                          "nur {first} hat die Partie begonnen und darf den Verdopplungswürfel ins Spiel bringen"),
    "double_value": ("the stake is {stake}, so the offer is 'double {double}'",
                     "der Einsatz ist {stake}, also lautet das Angebot 'double {double}'"),
    # ---------------------------------------------------------------- the match
    "match_length": ("a match is played to at least 1 point, not {length}",
                     "ein Match geht über mindestens 1 Punkt, nicht {length}"),
    "match_players": ("a match needs two players with different names",
                      "ein Match braucht zwei Spieler mit verschiedenen Namen"),
    "match_over": ("the match is over: {winner} has {length} points",
                   "das Match ist vorbei: {winner} hat die Punktzahl {length} erreicht"),
    "match_unfinished": ("only a finished game counts for the match",
                         "nur eine beendete Partie zählt für das Match"),
    "match_not_player": ("{player} is not a player of this match ({players})",
                         "{player} spielt in diesem Match nicht mit ({players})"),
    # ---------------------------------------------------------------- the terminal board
    "last_turn": ("Last turn: {turn}", "Letzter Zug: {turn}"),
    "temporary_faces": ("Temporary faces (underlined; they turn back to 2): {listed}",
                        "Vorübergehende Augenzahlen (unterstrichen; sie werden wieder zur 2): {listed}"),
    "stake": ("Stake: {stake}{note}{offer}", "Einsatz: {stake}{note}{offer}"),
    "stake_cube_not_in_play": (" (cube not yet in play)", " (Verdopplungswürfel noch nicht im Spiel)"),
    "stake_offer": ("; {side} offers to double to {stake}", "; {side} bietet an, auf {stake} zu verdoppeln"),
    "over_dropped": ("Game over: {dropper} dropped; {winner} wins.",
                     "Partie vorbei: {dropper} hat abgelehnt; {winner} gewinnt."),
    "rolls": ("{side} rolls the die on {cell} …", "{side} wirft den Würfel auf {cell} …"),
    "to_answer": ("{side} to answer: take or drop.", "{side} muss antworten: 'take' oder 'drop'."),
    "to_move_gebot": ("{side} to move. Eins-Gebot: the last 1 must move to safety.",
                      "{side} ist am Zug. Eins-Gebot: Die letzte 1 muss in Sicherheit ziehen."),
})
