"""Trigeo's texts in English and German: its errors. The board's legend and status lines, the
names of the faces (the chess pieces) and the errors of the notation and position strings it
shares with Hexalit are in :mod:`ludothek.games.dice.texts`.

The German terms follow Trigeo's German rules page (``rules.json``): Würfel, Feld, Reihe, Zug,
schlagen, Umwandlung, bedroht, Eins-Gebot, Partie, remis, Weiß and Schwarz.
"""

from __future__ import annotations

from ...core.messages import Catalog

TEXTS = Catalog("trigeo", {
    # position strings
    "no_temporary": (
        "Trigeo has no temporary dice: the third field must be '-'",
        "Trigeo kennt keine vorübergehenden Würfel: die dritte Angabe muss '-' sein",
    ),
    "two_ones": (
        "{side} has {ones} dice showing 1; Trigeo has one per side",
        "{side} hat {ones} Würfel mit einer 1; in Trigeo hat jede Seite nur eine",
    ),
    "no_one": (
        "{side} (not to move) has no 1: a game ends as soon as a side loses its 1",
        "{side} (nicht am Zug) hat keine 1: eine Partie endet, sobald eine Seite ihre 1 verliert",
    ),
    # moves
    "game_over": (
        "cannot play {move}: the game is over ({result})",
        "{move} kann nicht gespielt werden: die Partie ist vorbei ({result})",
    ),
    "no_die": (
        "{move} is not legal: there is no die on {cell}",
        "{move} ist nicht erlaubt: auf {cell} steht kein Würfel",
    ),
    "not_yours": (
        "{move} is not legal: the die on {cell} is {owner}'s; {side} is to move",
        "{move} ist nicht erlaubt: der Würfel auf {cell} gehört {owner}; {side} ist am Zug",
    ),
    "own_die": (
        "{move} is not legal: {cell} holds {side}'s own die",
        "{move} ist nicht erlaubt: auf {cell} steht ein eigener Würfel von {side}",
    ),
    "illegal": ("{move} is not legal: {why}", "{move} ist nicht erlaubt: {why}"),
    "false_win": (
        "{move} is marked '+' but the move does not win",
        "{move} ist mit '+' markiert, aber der Zug gewinnt nicht",
    ),
    "false_threat": (
        "{move} is marked '^' but it leaves {side}'s 1 unthreatened",
        "{move} ist mit '^' markiert, lässt die 1 von {side} aber unbedroht",
    ),
    # why a move is not legal
    "promote_face": (
        "only a 2 can be promoted, and the die on {cell} shows {face}",
        "nur eine 2 kann umgewandelt werden, und der Würfel auf {cell} zeigt {face}",
    ),
    "promote_row": (
        "a 2 promotes only on its last row ({row} for {side})",
        "eine 2 wird nur auf ihrer letzten Reihe umgewandelt ({row} für {side})",
    ),
    "one_must_flee": (
        "{side}'s 1 on {cell} is threatened (Eins-Gebot): it must move to a cell where it is not threatened",
        "die 1 von {side} auf {cell} ist bedroht (Eins-Gebot): sie muss auf ein Feld ziehen, auf dem sie nicht "
        "bedroht ist",
    ),
    "one_still_threatened": (
        "{side}'s 1 would still be threatened on {cell} (Eins-Gebot)",
        "die 1 von {side} wäre auf {cell} immer noch bedroht (Eins-Gebot)",
    ),
    "pawn_steps": (
        "a 2 moves one cell forward to an empty cell and captures only diagonally forward",
        "eine 2 zieht ein Feld geradeaus auf ein leeres Feld und schlägt nur schräg nach vorn",
    ),
    "cannot_reach": (
        "the {face} ({piece}) on {cell} cannot reach {target}",
        "die {face} ({piece}) auf {cell} kann {target} nicht erreichen",
    ),
})
