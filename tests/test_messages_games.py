"""Trike, Bitis, Trigeo and the Race plugin speak English and German (issue 12, item 6).

Errors provoked through the public API (malformed moves, illegal moves, malformed positions,
moves after the end) keep their English text word for word and read as German with
``error.text("de")``; the terminal board (``state.render(lang)``) has its legend in the
language asked for.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import ludothek
from ludothek import GameOver, IllegalMove, OptionError, ParseError, PositionError
from ludothek.ai.base import make_agent
from ludothek.core.errors import LudothekError
from ludothek.core.messages import Catalog, Message
from ludothek.core.registry import game_spec

# as in tests/test_messages.py: words that give away an English text in a German one
ENGLISH = {"the", "is", "are", "not", "must", "move", "moves", "white", "black", "wins", "high", "low", "roll",
           "cannot", "with", "only", "game", "player", "turn", "there", "your", "empty", "illegal", "line", "and",
           "of", "to", "no", "be", "has", "needs", "should", "which", "score", "over", "draw", "base", "middle",
           "opening", "step", "last", "placed", "may", "swap"}
GERMAN = {"der", "die", "das", "ist", "nicht", "auf", "Zug", "Feld", "Würfel", "Stein", "Figur", "Partie", "Stellung",
          "Reihe", "erlaubt", "kein", "keine", "keinen", "hat", "muss", "gewinnt", "Angaben", "Weiß", "Schwarz",
          "steht", "berühren", "Ziel", "Eröffnungswürfel", "Flächen", "Fläche", "Grundlinie", "bedroht"}


def english_words(text: str) -> set[str]:
    """The English giveaway words in ``text``, leaving out quoted notation (``'swap'``, ``'a1'``)."""
    return {word.lower() for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", re.sub(r"'[^']*'", "", text))} & ENGLISH


def assert_german(error: LudothekError, english: str) -> None:
    assert str(error) == english
    german = error.text("de")
    assert german != english
    assert not english_words(german), f"English words in {german!r}: {sorted(english_words(german))}"
    assert set(re.findall(r"\w+", german)) & GERMAN, f"no German word in {german!r}"
    assert isinstance(error.message, Message)


def raised(error_class, action):
    with pytest.raises(error_class) as info:
        action()
    return info.value


def new(game: str, position: str | None = None, moves=(), **options):
    state = ludothek.new_game(game, position=position, **options) if position else ludothek.new_game(game, **options)
    for move in moves:
        state.play(move)
    return state


def position_error(game: str, position: str, **options):
    return lambda: ludothek.new_game(game, position=position, **options)


def move_error(game: str, move, position: str | None = None, moves=(), **options):
    return lambda: new(game, position, moves, **options).parse_move(move)


TRIKE_ONE = "B/2/3/4/5/6/7 w"  # Black's opening stone at the apex, White to move
TRIKE_OVER = "1/2/1bb/ww1w/bbwbb/bb2w1/wWw1b1w b"  # the pawn on g2 is walled in; White wins
BITIS_A_WON = ["IV42:9415", "III32:1297", "V43:7624", "IV22:9415", "V31:4762", "IV21:5348", "III11:6752"]
TRIGEO_WIN = "4K4/5N5/13/13/2pppqppp2/1rbnkbnr1 w -"  # B7XD7 wins: Black's 1 on F7 cannot escape
TRIGEO_EINS_GEBOT = "6N2/2r5P2/3Kn8/13/11/4k4 w -"  # the black rook on B4 threatens White's 1 on C4
TRIGEO_LONE = "4K4/11/13/13/2p8/4k4 w -"

CASES = [
    # ------------------------------------------------------------------ Trike
    ("trike-fields", PositionError, position_error("trike", "x"),
     "position 'x' must have 2 or 3 fields: rows, side to move (b or w) and optionally 'swap'"),
    ("trike-rows", PositionError, position_error("trike", "1/2/3 b"),
     "position has 3 rows; a Trike board has 7 to 19"),
    ("trike-size", PositionError, position_error("trike", "1/2/3/4/5/6/7 b", size=9),
     "position has 7 rows but the size option is 9"),
    ("trike-zero", PositionError, position_error("trike", "0/2/3/4/5/6/7 b"),
     "row 1 (a): empty-cell count '0' must be a number from 1"),
    ("trike-digits", PositionError, position_error("trike", "1/2/3/4/5/6/100 b"),
     "row 7 (g) has more than 7 cells (an empty-cell count of 3 digits)"),
    ("trike-char", PositionError, position_error("trike", "x/2/3/4/5/6/7 b"),
     "row 1 (a): unknown character 'x' (use b, w, B, W or a number)"),
    ("trike-long", PositionError, position_error("trike", "1/2/3/4/5/6/8 b"), "row 7 (g) has more than 7 cells"),
    ("trike-short", PositionError, position_error("trike", "1/2/3/4/5/6/6 b"), "row 7 (g) has 6 cells, needs 7"),
    ("trike-two-pawns", PositionError, position_error("trike", "B/W1/3/4/5/6/7 b"),
     "row 2 (b): a second pawn; upper case B/W marks the one pawn"),
    ("trike-side", PositionError, position_error("trike", "1/2/3/4/5/6/7 q"),
     "side to move must be 'b' or 'w', not 'q'"),
    ("trike-swap-field", PositionError, position_error("trike", "B/2/3/4/5/6/7 w swop"),
     "third field must be 'swap' (the pie rule was used), not 'swop'"),
    ("trike-no-pawn", PositionError, position_error("trike", "b/2/3/4/5/6/7 w"),
     "stones are on the board but no pawn: write the stone under it in upper case"),
    ("trike-counts", PositionError, position_error("trike", "B/bb/3/4/5/6/7 w"),
     "3 black and 0 white stones cannot happen: Black places first, then the colours alternate"),
    ("trike-side-by-counts", PositionError, position_error("trike", "B/2/3/4/5/6/7 b"),
     "with 1 black and 0 white stones it is w to move"),
    ("trike-own-stone", PositionError, position_error("trike", "B/w1/3/4/5/6/7 b"),
     "the pawn stands on a black stone, but white moved last"),
    ("trike-swap-empty", PositionError, position_error("trike", "1/2/3/4/5/6/7 b swap"),
     "'swap' needs Black's opening stone on the board"),
    ("trike-not-text", ParseError, move_error("trike", 5), "a move must be text, not int"),
    ("trike-swap-first", IllegalMove, move_error("trike", "swap", size=7),
     "'swap' is only legal on White's first turn, right after Black's opening stone"),
    ("trike-swap-again", IllegalMove, move_error("trike", "swap", TRIKE_ONE, ["swap"]),
     "'swap' is not legal: the pie rule was already used"),
    ("trike-occupied", IllegalMove, move_error("trike", "A1", TRIKE_ONE), "'a1' is not legal: the cell is occupied"),
    ("trike-unreachable", IllegalMove, move_error("trike", "c2", TRIKE_ONE),
     "'c2' is not legal: the pawn on a1 cannot reach it in a straight line over empty cells"),
    ("trike-over", GameOver, lambda: new("trike", TRIKE_OVER).play("a1"), "cannot play 'a1': the game is over"),
    # ------------------------------------------------------------------ Bitis
    ("bitis-fields", PositionError, position_error("bitis", "- - - A"),
     "position '- - - A' must have 5 fields: die III, die IV, die V (each '-' or RC:NESW such as 43:9318), "
     "the die placed last and the player to move (A or B)"),
    ("bitis-die-field", PositionError, position_error("bitis", "- 4:9318 - IV B"),
     "die IV: '4:9318' must be '-' or row, column, ':' and four faces, e.g. 43:9318"),
    ("bitis-face", PositionError, position_error("bitis", "- 43:9312 - IV B"),
     "IV has no face 2 (its west face in '9312'); IV has 1 3 4 5 8 9"),
    ("bitis-both-on", PositionError, position_error("bitis", "43:1297 43:9318 - III A"),
     "dice III and IV are both on 4,3"),
    ("bitis-last-off", PositionError, position_error("bitis", "- - - IV A"),
     "the die placed last, IV, is not on the board"),
    ("bitis-last-field", PositionError, position_error("bitis", "- 43:9318 - VI B"),
     "the die placed last must be III, IV, V or '-', not 'VI'"),
    ("bitis-player", PositionError, position_error("bitis", "- - - - C"), "the player to move must be A or B, not 'C'"),
    ("bitis-empty", PositionError, position_error("bitis", "- - - - B"),
     "with no die on the board nothing was placed last ('-') and A is to move"),
    ("bitis-name-last", PositionError, position_error("bitis", "- 43:9318 - - B"),
     "dice are on the board, so the position must name the die placed last"),
    ("bitis-row-4", PositionError, position_error("bitis", "- 33:9318 - IV B"),
     "A's opening die IV must stand on row 4"),
    ("bitis-b-to-move", PositionError, position_error("bitis", "- 43:9318 - IV A"),
     "after A's opening placement B is to move"),
    ("bitis-north", PositionError, position_error("bitis", "- 43:9318 44:2873 V A"),
     "B's opening die V must stand directly north of IV"),
    ("bitis-chain", PositionError, position_error("bitis", "33:9712 43:9318 - III A"),
     "the chain rule is broken: at the south contact, III on 3,3 shows 1 but IV on 4,3 shows 9"),
    ("bitis-apart", PositionError, position_error("bitis", "32:7625 34:8534 33:3486 V A"),
     "III and IV do not touch: the dice not placed last must touch each other"),
    ("bitis-alone", PositionError, position_error("bitis", "32:7625 54:8534 33:3486 IV A"),
     "the die placed last, IV, must be face to face with another die"),
    ("bitis-base-line", PositionError, position_error("bitis", "12:7625 23:8534 22:2476 IV A"),
     "III stands on a base line but was not placed last: the game would have ended then"),
    ("bitis-unreachable", PositionError, position_error("bitis", "52:2179 31:4358 42:7624 III A"),
     "this position cannot arise in a game: no sequence of legal placements from the start leads to it"),
    ("bitis-not-text", ParseError, move_error("bitis", None), "a move must be text, not NoneType"),
    ("bitis-not-placement", ParseError, move_error("bitis", "hello"),
     "'hello' is not a placement: write die, cell and the north, east, south, west faces, "
     "e.g. 'IV 4,3 9318' or 'IV43:9318'"),
    ("bitis-unknown-die", ParseError, move_error("bitis", "XI43:9318"),
     "'XI43:9318': unknown die 'XI' (the dice are III, IV and V)"),
    ("bitis-digits", ParseError, move_error("bitis", "IV 4,3 93"),
     "'93' must be four digits: the faces north, east, south and west of IV"),
    ("bitis-opposite", ParseError, move_error("bitis", "IV43:9319"),
     "'9319' cannot be a side view of IV: its east and west faces must be opposite faces, and 3 is opposite 8"),
    ("bitis-first-row", IllegalMove, move_error("bitis", "III33:1297"),
     "III33:1297 is not legal: A's first placement must be on row 4 (his side of the middle line), not on 3,3"),
    ("bitis-same-die", IllegalMove, move_error("bitis", "IV33:9318", moves=["IV43:9318"]),
     "IV33:9318 is not legal: IV is already on the board; B's opening placement uses one of the two other dice"),
    ("bitis-over-base-line", GameOver, move_error("bitis", "III 3,3 1297", moves=BITIS_A_WON),
     "cannot play 'III 3,3 1297': the game is over (A placed III on the opponent's base line (row 1))"),
    ("bitis-over-no-placement", GameOver, move_error("bitis", "IV 4,3 9318", "34:1695 33:9514 32:3486 III A"),
     "cannot play 'IV 4,3 9318': the game is over (A has no legal placement)"),
    ("bitis-perfect-argument", OptionError, lambda: make_agent("perfect:x", "bitis"),
     "agent 'perfect' takes no argument, got 'x'"),
    # ------------------------------------------------------------------ Trigeo
    ("trigeo-temporary", PositionError, position_error("trigeo", "4K4/11/13/13/11/4k4 w A7"),
     "Trigeo has no temporary dice: the third field must be '-'"),
    ("trigeo-two-ones", PositionError, position_error("trigeo", "4KK3/11/13/13/11/4k4 w -"),
     "White has 2 dice showing 1; Trigeo has one per side"),
    ("trigeo-no-one", PositionError, position_error("trigeo", "4K4/11/13/13/11/9 w -"),
     "Black (not to move) has no 1: a game ends as soon as a side loses its 1"),
    ("trigeo-no-die", IllegalMove, move_error("trigeo", "A3XB3", TRIGEO_EINS_GEBOT),
     "'A3XB3' is not legal: there is no die on A3"),
    ("trigeo-not-yours", IllegalMove, move_error("trigeo", "C5XD5", TRIGEO_EINS_GEBOT),
     "'C5XD5' is not legal: the die on C5 is Black's; White is to move"),
    ("trigeo-own-die", IllegalMove, move_error("trigeo", "A7XC7"),
     "'A7XC7' is not legal: C7 holds White's own die"),
    ("trigeo-gebot", IllegalMove, move_error("trigeo", "B10XC10", TRIGEO_EINS_GEBOT),
     "'B10XC10' is not legal: White's 1 on C4 is threatened (Eins-Gebot): it must move to a cell where it is not "
     "threatened"),
    ("trigeo-still-threatened", IllegalMove, move_error("trigeo", "C4XB3", TRIGEO_EINS_GEBOT),
     "'C4XB3' is not legal: White's 1 would still be threatened on B3 (Eins-Gebot)"),
    ("trigeo-promote-face", IllegalMove, move_error("trigeo", "B7XC7=6", TRIGEO_WIN),
     "'B7XC7=6' is not legal: only a 2 can be promoted, and the die on B7 shows 3"),
    ("trigeo-promote-row", IllegalMove, move_error("trigeo", "B6XC6=6"),
     "'B6XC6=6' is not legal: a 2 promotes only on its last row (F for White)"),
    ("trigeo-reach", IllegalMove, move_error("trigeo", "B7XD7"),
     "'B7XD7' is not legal: the 6 (queen) on B7 cannot reach D7"),
    ("trigeo-false-threat", IllegalMove, move_error("trigeo", "A7XB7^", TRIGEO_LONE),
     "'A7XB7^' is marked '^' but it leaves Black's 1 unthreatened"),
    ("trigeo-false-win", IllegalMove, move_error("trigeo", "A7XA8+", TRIGEO_LONE),
     "'A7XA8+' is marked '+' but the move does not win"),
    ("trigeo-over", GameOver, move_error("trigeo", "F7XF8", TRIGEO_WIN, ["B7XD7+"]),
     "cannot play 'F7XF8': the game is over (white)"),
    # ------------------------------------------------------------------ Race, the plugin
    ("wettlauf-fields", PositionError, position_error("wettlauf", "x"),
     "a position has 4 fields (white's tokens, black's tokens, the side to move and the roll), "
     "e.g. 's,s s,s w -', not 1"),
    ("wettlauf-square", PositionError, position_error("wettlauf", "s,99 s,s w -"),
     "white's tokens: there is no square '99': the track has the squares 1 … 12, with s (start) before and "
     "h (home) after them"),
    ("wettlauf-won", PositionError, position_error("wettlauf", "h,h 5,s w -"),
     "white has both tokens home and has won: the game is over, so black is to move and the die is not rolled ('-')"),
    ("wettlauf-empty", ParseError, move_error("wettlauf", " "), "the move is empty"),
    ("wettlauf-rolling", ParseError, move_error("wettlauf", "s-2"),
     "'s-2': the die is being rolled; give the number it shows, 1, 2 or 3"),
    ("wettlauf-no-token", IllegalMove, move_error("wettlauf", "4", "h,5 5,s b 2"),
     "'4' is not legal: black has no token on square 4"),
    ("wettlauf-target", IllegalMove, move_error("wettlauf", "s-4", "h,5 5,s b 2"),
     "'s-4' is not legal: the die shows 2, so the token on the start (s) reaches square 2"),
    ("wettlauf-capture", IllegalMove, move_error("wettlauf", "5-7*", "h,5 5,s b 2"),
     "'5-7*' is marked '*' (a capture), but square 7 holds no lone white token"),
    ("wettlauf-over", GameOver, move_error("wettlauf", "1", "h,11 8,6 w 3", ["11-h"]),
     "cannot play '1': the game is over (white)"),
]


@pytest.mark.parametrize("error_class,action,english", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_errors_read_in_english_and_german(error_class, action, english):
    assert_german(raised(error_class, action), english)


def test_the_cases_cover_every_game_and_kind():
    kinds = {(name.split("-")[0], error_class) for name, error_class, _, _ in CASES}
    for game in ("trike", "bitis", "trigeo", "wettlauf"):
        assert {(game, PositionError), (game, IllegalMove), (game, GameOver)} <= kinds


def test_an_error_that_explains_another_keeps_its_german():
    # a die's field names a cell off the board: the grid's own message is carried along
    error = raised(PositionError, position_error("bitis", "- 93:9318 - IV B"))
    assert str(error).startswith("die IV: '93'") and error.text("de").startswith("Würfel IV: '93'")


def test_bitis_says_why_the_game_ended_in_both_languages():
    state = new("bitis", moves=BITIS_A_WON)
    assert state.termination() == "A placed III on the opponent's base line (row 1)"
    assert state.termination_message().text("de") == "A hat III auf die gegnerische Grundlinie gesetzt (Reihe 1)"
    assert new("bitis").termination() is None and new("bitis").termination_message() is None


@pytest.mark.parametrize("game", ["trike", "bitis", "trigeo", "wettlauf"])
def test_every_game_names_its_catalog(game):
    catalog = game_spec(game).load("texts")
    assert isinstance(catalog, Catalog) and catalog.prefix == game
    for name, templates in catalog:
        assert templates["en"].strip() and templates["de"].strip(), name


# ---------------------------------------------------------------------- the terminal board
def plain(renderable) -> str:
    if isinstance(renderable, str):
        return renderable
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None, force_terminal=False, legacy_windows=False).print(renderable)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "game,position,moves,english,german",
    [
        ("trike", None, [], ["black to move", "score ●"], ["Schwarz ist am Zug", "Punkte ●"]),
        ("trike", TRIKE_ONE, [], ["white to move  (White may swap)"], ["Weiß ist am Zug  (Weiß darf tauschen)"]),
        ("trike", TRIKE_OVER, [], ["game over: white wins", "score ● "], ["Partie vorbei: Weiß gewinnt", "Punkte ● "]),
        ("bitis", None, [], ["middle line", "B's base line (A wins here)", "A's base line (B wins here)",
                             "A to move (opening step 1)."],
         ["Mittellinie", "Grundlinie von B (hier gewinnt A)", "Grundlinie von A (hier gewinnt B)",
          "A ist am Zug (Eröffnung, Schritt 1)."]),
        ("bitis", None, ["IV43:9318", "III33:1297", "V44:2873"], ["* V was placed last.", "B to move (move)."],
         ["* V wurde zuletzt gesetzt.", "B ist am Zug (Zug)."]),
        ("bitis", None, BITIS_A_WON, ["Game over: A wins (A placed III on the opponent's base line (row 1))."],
         ["Partie vorbei: A gewinnt (A hat III auf die gegnerische Grundlinie gesetzt (Reihe 1))."]),
        ("trigeo", None, [], ["White △1  Black ▼1  empty", "jump field", "White to move."],
         ["Weiß △1  Schwarz ▼1  leer", "Sprungfeld", "Weiß ist am Zug."]),
        ("trigeo", TRIGEO_EINS_GEBOT, [], ["Eins! White's 1 on C4 is threatened."],
         ["Eins! Die 1 von Weiß auf C4 ist bedroht."]),
        ("trigeo", TRIGEO_WIN, ["B7XD7+"], ["Last move: B7XD7+", "Game over: white wins."],
         ["Letzter Zug: B7XD7+", "Partie vorbei: Weiß gewinnt."]),
        ("wettlauf", "h,5 5,s b 2", [], ["black to move, the die shows 2"], ["Schwarz ist am Zug, der Würfel zeigt 2"]),
        ("wettlauf", None, [], ["white to move, the die is to be rolled"], ["Weiß ist am Zug, es wird gewürfelt"]),
        ("wettlauf", "h,11 8,6 w 3", ["11-h"], ["white wins"], ["Weiß gewinnt"]),
    ],
)
def test_the_terminal_board_has_its_legend_in_the_language_asked_for(game, position, moves, english, german):
    state = new(game, position, moves)
    default, en, de = plain(state.render()), plain(state.render("en")), plain(state.render("de"))
    assert default == en
    for text in english:
        assert text in en and text not in de
    for text in german:
        assert text in de, (text, de)
    legend = "\n".join(line for line in de.splitlines() if re.search(r"[a-zäöüß]{3}", line))
    assert not english_words(legend), sorted(english_words(legend))


def test_the_race_board_keeps_its_columns_in_german():
    lines = plain(new("wettlauf", "h,5 5,s b 2").render("de")).splitlines()
    assert lines[1].split() == ["Weiß", *".....1.......1"] and lines[2].split() == ["Schwarz", "1", *"....1........"]
    assert len({len(line) for line in lines[:3]}) == 1
