"""Race's texts in English and German: its errors and the status line of its terminal board,
as a Ludothek :class:`~ludothek.core.messages.Catalog` (the spec names it, ``texts``).

German terms as on its German rules page (``rules.json``): Stein, Feld, Bahn, Start, Ziel,
Würfel, Wurf, Zug, Partie, Weiß and Schwarz.
"""

from __future__ import annotations

from ludothek.core.messages import Catalog

TEXTS = Catalog("wettlauf", {
    # squares, as a sentence names them: plain (English) / where a token stands (German)
    "at_start": ("the start (s)", "am Start (s)"),
    "at_home": ("home (h)", "im Ziel (h)"),
    "at_square": ("square {square}", "auf Feld {square}"),
    # ... and where a token goes to
    "to_start": ("the start (s)", "den Start (s)"),
    "to_home": ("home (h)", "das Ziel (h)"),
    "to_square": ("square {square}", "Feld {square}"),
    # a side's colour before a token ("a lone black token")
    "lone_white": ("white", "weißer"),
    "lone_black": ("black", "schwarzer"),
    # squares
    "no_such_square": (
        "there is no square {word}: the track has the squares 1 … {last}, with s (start) before and h (home) "
        "after them",
        "es gibt kein Feld {word}: die Bahn hat die Felder 1 … {last}, davor s (Start) und danach h (Ziel)",
    ),
    "not_a_square": (
        "{word} is not a square: write s (start), 1 … {last} or h (home)",
        "{word} ist kein Feld: schreibe s (Start), 1 … {last} oder h (Ziel)",
    ),
    # position strings
    "position_fields": (
        "a position has 4 fields (white's tokens, black's tokens, the side to move and the roll), "
        "e.g. 's,s s,s w -', not {count}",
        "eine Stellung hat 4 Angaben (die Steine von Weiß, die Steine von Schwarz, die Seite am Zug und den "
        "Wurf), z. B. 's,s s,s w -', nicht {count}",
    ),
    "side_field": (
        "the side to move must be w (white) or b (black), not {text}",
        "die Seite am Zug muss w (Weiß) oder b (Schwarz) sein, nicht {text}",
    ),
    "roll_field": (
        "the roll must be 1, 2 or 3, or '-' before the die is rolled, not {text}",
        "der Wurf muss 1, 2 oder 3 sein oder '-', solange noch nicht gewürfelt ist, nicht {text}",
    ),
    "both_home": (
        "both sides have both tokens home: the game ends when the first side brings its second token home",
        "beide Seiten haben beide Steine im Ziel: die Partie endet, sobald die erste Seite ihren zweiten Stein "
        "ins Ziel bringt",
    ),
    "already_won": (
        "{winner} has both tokens home and has won: the game is over, so {loser} is to move and the die is not "
        "rolled ('-')",
        "{winner} hat beide Steine im Ziel und hat gewonnen: die Partie ist vorbei, also ist {loser} am Zug, "
        "und es wird nicht gewürfelt ('-')",
    ),
    "tokens_field": (
        "{side}'s tokens {text} must be two squares with a comma between, e.g. 's,5'",
        "die Steine von {side} {text} müssen zwei Felder mit einem Komma dazwischen sein, z. B. 's,5'",
    ),
    "tokens_error": ("{side}'s tokens: {error}", "die Steine von {side}: {error}"),
    # moves
    "move_not_text": ("a move must be text, not {kind}", "ein Zug muss Text sein, nicht {kind}"),
    "move_empty": ("the move is empty", "der Zug ist leer"),
    "game_over": (
        "cannot play {move}: the game is over ({result})",
        "{move} kann nicht gespielt werden: die Partie ist vorbei ({result})",
    ),
    "draw": ("draw", "remis"),
    "rolling": (
        "{move}: the die is being rolled; give the number it shows, 1, 2 or 3",
        "{move}: es wird gewürfelt; gib die gewürfelte Zahl an, 1, 2 oder 3",
    ),
    "not_a_move": (
        "{move} is not a move: write the square a token leaves and the square it reaches, e.g. s-2 or 11-h "
        "(or only the square it leaves)",
        "{move} ist kein Zug: schreibe das Feld, das ein Stein verlässt, und das Feld, das er erreicht, z. B. "
        "s-2 oder 11-h (oder nur das Feld, das er verlässt)",
    ),
    "token_home": (
        "{move} is not legal: a token at home (h) has finished its race",
        "{move} ist nicht erlaubt: ein Stein im Ziel (h) hat seinen Lauf beendet",
    ),
    "no_token": (
        "{move} is not legal: {side} has no token on {square}",
        "{move} ist nicht erlaubt: {side} hat keinen Stein {square}",
    ),
    "wrong_target": (
        "{move} is not legal: the die shows {roll}, so the token on {square} reaches {target}",
        "{move} ist nicht erlaubt: der Würfel zeigt {roll}, also erreicht der Stein {square} {target}",
    ),
    "no_capture": (
        "{move} is marked '*' (a capture), but {square} holds no lone {colour} token",
        "{move} ist mit '*' markiert (ein Zurückschicken), aber {square} steht kein einzelner {colour} Stein",
    ),
    "roll_without_move": (
        "{text}: the roll after '/' follows a move, e.g. s-2/3",
        "{text}: der Wurf nach '/' folgt auf einen Zug, z. B. s-2/3",
    ),
    "no_roll_after": (
        "{text}: the game is over after {move}, no roll follows it",
        "{text}: die Partie ist nach {move} vorbei, es folgt kein Wurf",
    ),
    # the terminal board
    "board_won": ("{side} wins", "{side} gewinnt"),
    "board_drawn": ("drawn after {moves} moves", "remis nach {moves} Zügen"),
    "board_to_roll": ("{side} to move, the die is to be rolled", "{side} ist am Zug, es wird gewürfelt"),
    "board_rolled": ("{side} to move, the die shows {roll}", "{side} ist am Zug, der Würfel zeigt {roll}"),
})

