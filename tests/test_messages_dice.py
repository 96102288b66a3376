"""Hexalit and the shared dice code speak English and German (issue 12, item 6).

Errors provoked through the public API — malformed position strings and move texts, illegal
moves and rolls, the Eins-Gebot, misuse of the doubling cube, moves after the end, a Hexalit
match — keep their English text word for word and read as German with ``error.text("de")``;
the terminal board (``state.render(lang)``, shared by Hexalit and Trigeo) has its legend and
status lines in the language asked for.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import ludothek
from ludothek import GameOver, IllegalMove, OptionError, ParseError, PositionError
from ludothek.boards import triangle66 as T
from ludothek.core.errors import LudothekError
from ludothek.core.messages import Catalog, Message
from ludothek.core.registry import game_spec
from ludothek.games.dice import notation, position
from ludothek.games.dice.render import render_board
from ludothek.games.dice.texts import TEXTS as DICE
from ludothek.games.dice.texts import face_name
from ludothek.games.hexalit.match import HexalitMatch

from .test_hexalit import make

START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"
ROWS = START.split()[0]

# as in tests/test_messages.py, and a few more: words that give away an English text in a German one
ENGLISH = {"the", "is", "are", "not", "must", "move", "moves", "white", "black", "wins", "high", "low", "roll",
           "cannot", "with", "only", "game", "player", "turn", "there", "your", "empty", "illegal", "line", "and",
           "of", "to", "no", "be", "has", "needs", "should", "which", "over", "draw", "last", "may", "dice",
           "stake", "cube", "offer", "field", "row", "cell", "cells", "face", "first", "answer", "write", "points",
           "rolled", "threatened", "position", "side"}
GERMAN = {"der", "die", "das", "ist", "nicht", "auf", "Zug", "Feld", "Felder", "Würfel", "Partie", "Stellung",
          "Reihe", "erlaubt", "kein", "keine", "hat", "muss", "gewinnt", "Angabe", "Angaben", "Weiß", "Schwarz",
          "steht", "bedroht", "Einsatz", "Verdopplungswürfel", "Augenzahl", "Wurf", "geworfen", "Match", "Zeichen",
          "Spiel", "Umwandlung", "Seite"}


def english_words(text: str) -> set[str]:
    """English giveaway words in ``text``, leaving out quoted input and notation (``'take'``) and
    options as typed (``cube=true``)."""
    text = re.sub(r"'[^']*'|\w+=\w+", "", text)  # quoted input, option=value
    return {word.lower() for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", text)} & ENGLISH


def assert_german(error: LudothekError, english: str) -> None:
    """``str(error)`` is the English text as before; ``text("de")`` is German."""
    assert str(error) == english
    assert error.text("en") == english
    assert isinstance(error.message, Message)
    german = error.text("de")
    assert german != english
    assert not english_words(german), f"English words in {german!r}: {sorted(english_words(german))}"
    assert set(re.findall(r"\w+", german)) & GERMAN, f"no German word in {german!r}"


def raised(error_class, action) -> LudothekError:
    with pytest.raises(error_class) as info:
        action()
    return info.value


def hexalit(spec: str | None = None, *moves: str, **options) -> ludothek.GameState:
    state = ludothek.new_game("hexalit", **({"position": make(spec)} if spec else {}), **options)
    for move in moves:
        state.play(move)
    return state


def cube(*moves: str, **options) -> ludothek.GameState:
    return hexalit(None, *moves, cube=True, **options)


def shown(renderable) -> str:
    """A board as the terminal shows it (plain text)."""
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# ---------------------------------------------------------------------- the catalogs
def test_hexalit_names_its_catalog_and_the_dice_code_has_one():
    catalog = game_spec("hexalit").load("texts")
    assert isinstance(catalog, Catalog) and catalog.prefix == "hexalit"
    assert isinstance(DICE, Catalog) and DICE.prefix == "dice"
    assert [str(face_name(f)) for f in range(1, 7)] == ["king", "pawn", "knight", "bishop", "rook", "queen"]
    assert [face_name(f).text("de") for f in range(1, 7)] == ["König", "Bauer", "Springer", "Läufer", "Turm", "Dame"]


# ---------------------------------------------------------------------- position strings
POSITIONS = [
    (ROWS[:-1] + " w -", "row F has 8 cells; it needs 9"),
    (ROWS[:-1] + "11 w -", "row F has more than 9 cells (it has columns 3..11)"),
    (ROWS.replace("bnr1", "bnr123") + " w -", "row F has more than 9 cells (an empty-cell count of 3 digits)"),
    (ROWS.replace("bnr1", "bnz1") + " w -",
     ("row F: unknown character 'z' (dice are K P N B R Q for faces 1-6, upper case White, lower case Black; "
      "numbers count empty cells)")),
    (ROWS.replace("1RBN", "0RBN") + " w -", "row A: empty-cell count '0' must be a number from 1 without leading 0"),
    (ROWS + " w C5", "temporary dice field: C5 has no die"),
    (ROWS + " w B5,B5", "temporary dice field: B5 is listed twice"),
    (ROWS + " w", "position is missing its third field, the temporary dice (write '-' for none)"),
    (ROWS, "position is missing the side to move (w or b) and the temporary-dice field ('-' if none)"),
    ("/".join(ROWS.split("/")[:5]) + " w -", "the board field has 5 rows separated by '/'; expected 6 (A to F)"),
    (ROWS + " x -", "side to move must be 'w' or 'b', not 'x'"),
    ("QQQQQQQQQ/QQQQQQQQQQQ/QQQQQQQQQQQQQ/6p6/2pppqppp2/1rbnkbnr1 w -", "White has 33 dice; each side has 15"),
    ("", "the position is empty: expected '<rows> <side to move> <temporary dice>'"),
]


@pytest.mark.parametrize("text,english", POSITIONS)
def test_malformed_position_strings(text, english):
    assert_german(raised(PositionError, lambda: position.parse_position(text)), english)
    assert_german(raised(PositionError, lambda: ludothek.new_game("hexalit", position=text)), english)


def test_position_with_too_many_fields_and_not_text():
    error = raised(PositionError, lambda: position.parse_position(START + " x y"))
    assert_german(error, "position has 5 fields; expected 3: rows, side to move, temporary dice (extra: 'x')")
    assert "überzählig: 'x'" in error.text("de")
    error = raised(PositionError, lambda: position.parse_position(5))
    assert_german(error, "a position must be text, not int")
    assert error.text("de") == "eine Stellung muss Text sein, nicht int"


def test_a_cell_error_inside_a_position_keeps_its_own_translation():
    cell_error = raised(ParseError, lambda: T.parse_cell("Z9"))
    error = raised(PositionError, lambda: position.parse_position(ROWS + " w Z9"))
    assert str(error) == f"temporary dice field: {cell_error}"
    assert error.text("de") == f"Angabe der vorübergehenden Würfel: {cell_error.text('de')}"
    error = raised(PositionError, lambda: ludothek.new_game("hexalit", position=START + " Z9W"))
    assert str(error) == f"pending roll field: {cell_error}"
    assert error.text("de") == f"Angabe des offenen Wurfs: {cell_error.text('de')}"


@pytest.mark.parametrize(
    "text,english",
    [
        (START + " A5W", ("pending roll 'A5W' is impossible: only a die showing 2 (or a 1 while its side has another "
                          "1) may be rolled; A5 shows 4")),
        (START + " E5W", "pending roll 'E5W' is impossible: the die on E5 is black's; white is to move"),
        (START + " C5W", "pending roll 'C5W' is impossible: there is no die on C5"),
        (START + " B5", "fourth field 'B5' must be a pending roll such as 'B5W'"),
        (START + " B5W x", ("position has 5 fields; expected 3 (rows, side to move, temporary dice) and optionally a "
                            "pending roll such as 'B5W'")),
        ("9/11/13/13/11/9 w -", ("neither side has a die showing 1; each side starts with one and a game ends when a "
                                "side has none")),
        ("8K/11/13/13/11/1k7 w A11", ("temporary dice field: A11 holds white's only 1, and a side's only 1 is always "
                                     "permanent")),
    ],
)
def test_malformed_hexalit_positions(text, english):
    assert_german(raised(PositionError, lambda: ludothek.new_game("hexalit", position=text)), english)


def test_colours_in_positions_read_as_german():
    error = raised(PositionError, lambda: ludothek.new_game("hexalit", position=START + " E5W"))
    assert error.text("de") == ("der offene Wurf 'E5W' ist unmöglich: der Würfel auf E5 gehört Schwarz; "
                                "Weiß ist am Zug")


# ---------------------------------------------------------------------- move notation (shared)
@pytest.mark.parametrize(
    "text,promotion,english",
    [
        ("hello", True, ("'hello' is not a move: write start cell, X (move) or ° (capture; x or * also accepted), end "
                        "cell, e.g. B6XC6 or C7°D7, and =6 to promote a 2")),
        ("hello", False, ("'hello' is not a move: write start cell, X (move) or ° (capture; x or * also accepted), end "
                         "cell, e.g. B6XC6 or C7°D7")),
        ("B5XB5", True, "'B5XB5' is not a move: start and end cell are both B5"),
        ("E9XD9=6", False, "'E9XD9=6': this game has no promotion ('=6')"),
        ("E9XD9=5", True, "'E9XD9=5': a 2 can only be promoted to a 6 ('=6'), not to 5"),
        ("B5XC5^^", True, "'B5XC5^^': a mark is repeated"),
    ],
)
def test_malformed_move_texts(text, promotion, english):
    assert_german(raised(ParseError, lambda: notation.parse_move_text(text, allow_promotion=promotion)), english)


def test_a_move_must_be_text():
    assert_german(raised(ParseError, lambda: notation.parse_move_text(5)), "a move must be text, not int")
    assert_german(raised(ParseError, lambda: hexalit().parse_move(None)), "a move must be text, not NoneType")
    assert_german(raised(ParseError, lambda: hexalit().parse_token(4.5)), "a move must be text, not float")


# ---------------------------------------------------------------------- Hexalit moves and rolls
@pytest.mark.parametrize(
    "move,error,english",
    [
        ("B5XD5", IllegalMove, ("'B5XD5' is not legal: a 2 moves one cell forward to an empty cell and captures only "
                               "on the two cells beside that one")),
        ("A5XA3", IllegalMove, "'A5XA3' is not legal: the 4 (bishop) on A5 cannot reach A3"),
        ("C5XD5", IllegalMove, "'C5XD5' is not legal: there is no die on C5"),
        ("E5XD5", IllegalMove, "'E5XD5' is not legal: the die on E5 is black's; white is to move"),
        ("A4XA5", IllegalMove, "'A4XA5' is not legal: A5 holds white's own die"),
        ("A6W", IllegalMove, ("'A6W' is not legal: only a die showing 2 (or a 1 while its side has another 1) may be "
                             "rolled; A6 shows 3")),
        ("A7W", IllegalMove, ("'A7W' is not legal: A7 shows white's only 1; a 1 may be rolled only while white has "
                             "another 1")),
        ("B5W^", ParseError, "'B5W^': a roll gets its marks with its outcome (B5W6^), not before"),
        ("B5°C5", IllegalMove, "'B5°C5' claims a capture but C5 is empty; write B5XC5"),
        ("B5XC5+", IllegalMove, "'B5XC5+' is marked '+' but it does not win"),
        ("B5XC5^", IllegalMove, "'B5XC5^' is marked '^' but it leaves no opposing 1 threatened"),
        ("B5W6+", IllegalMove, "'B5W6+' is marked '+' but it does not win"),
        ("", ParseError, "the move is empty"),
        ("hello", ParseError, ("'hello' is not a move: write start cell, X (move) or ° (capture; x or * also "
                              "accepted), end cell, e.g. B6XC6 or C7°D7")),
        ("E9XD9=6", ParseError, "'E9XD9=6': this game has no promotion ('=6')"),
        ("B5W6 B6W6", ParseError, ("'B5W6 B6W6': one turn per move; only cube actions (double, take, drop) may come "
                                  "before a move")),
    ],
)
def test_illegal_and_malformed_hexalit_moves(move, error, english):
    state = hexalit()
    assert_german(raised(error, lambda: state.play(move)), english)
    assert state.position() == START and state.ply == 0


def test_the_reasons_read_as_german():
    state = hexalit()
    assert raised(IllegalMove, lambda: state.play("A5XA3")).text("de") == \
        "'A5XA3' ist nicht erlaubt: die 4 (Läufer) auf A5 kann A3 nicht erreichen"
    assert raised(IllegalMove, lambda: state.play("A7W")).text("de") == \
        "'A7W' ist nicht erlaubt: A7 zeigt die einzige 1 von Weiß; eine 1 darf nur geworfen werden, solange Weiß " \
        "noch eine weitere 1 hat"
    assert raised(ParseError, lambda: state.play("")).text("de") == "der Zug ist leer"


def test_a_roll_waiting_for_its_face():
    state = hexalit(None, "B5W")
    assert_german(raised(ParseError, lambda: state.play("7")),
                  "'7': the die on B5 is being rolled; give the face it shows, 1 … 6 (or B5W6)")
    assert_german(raised(IllegalMove, lambda: state.play("C7W3")), "'C7W3': the die being rolled is the one on B5")
    assert_german(raised(ParseError, lambda: hexalit().parse_move("B5W6")),
                  "'B5W6' is a roll together with its outcome (two actions): play it as one move, or give the roll "
                  "alone (B5W) and then the face")


def test_the_eins_gebot():
    state = hexalit("K:A7 R:C9* k:F7 q:D7 p:E10")
    error = raised(IllegalMove, lambda: state.play("C9XC8"))
    assert_german(error, "'C9XC8' is not legal: white's last 1 on A7 is threatened (Eins-Gebot): it must move to a "
                         "cell where it is not threatened")
    assert "die letzte 1 von Weiß auf A7 ist bedroht (Eins-Gebot)" in error.text("de")
    assert_german(raised(IllegalMove, lambda: state.play("C9W")),
                  "'C9W' is not legal: white's last 1 on A7 is threatened (Eins-Gebot): it must move to a cell where "
                  "it is not threatened, and no die may be rolled")
    error = raised(IllegalMove, lambda: state.play("A7XB7"))
    assert_german(error, "'A7XB7' is not legal: white's last 1 would still be threatened on B7 (Eins-Gebot)")
    assert error.text("de") == "'A7XB7' ist nicht erlaubt: die letzte 1 von Weiß wäre auf B7 weiterhin bedroht " \
                               "(Eins-Gebot)"


def test_a_move_after_the_end():
    state = cube("double 2", "drop")
    assert state.is_over()
    error = raised(GameOver, lambda: state.parse_move("take"))
    assert_german(error, "cannot play 'take': the game is over (white)")
    assert error.text("de") == "'take' kann nicht gespielt werden: die Partie ist vorbei (Weiß)"


# ---------------------------------------------------------------------- the doubling cube
@pytest.mark.parametrize(
    "moves,last,error,english",
    [
        (("double 2",), "E9XD9", IllegalMove, ("'E9XD9': black must first answer white's offer to double to 2: "
                                              "'take' or 'drop'")),
        (("double 2",), "E9W", IllegalMove, ("'E9W': black must first answer white's offer to double to 2: 'take' or "
                                            "'drop'")),
        (("double 2",), "double 4", IllegalMove, ("'double 4' is not legal: black must first answer the offer: 'take' "
                                                 "or 'drop'")),
        (("double 2", "take"), "double 4", IllegalMove, ("'double 4' is not legal: white has already offered a double "
                                                        "this turn (at most one per turn)")),
        (("B5W2",), "double 2", IllegalMove, ("'double 2' is not legal: only white, who started the game, may bring "
                                             "the cube in")),
        ((), "double 4", IllegalMove, "'double 4' is not legal: the stake is 1, so the offer is 'double 2'"),
        ((), "double two", ParseError, "'double two': write 'double N', N the new stake (2, 4, … 64)"),
        ((), "take", IllegalMove, "'take' is not legal: there is no offer to double to answer"),
        ((), "drop", IllegalMove, "'drop' is not legal: there is no offer to double to answer"),
        (("B5W",), "double 2", IllegalMove, "'double 2' is not legal: a die is being rolled; give its face first"),
    ],
)
def test_cube_misuse(moves, last, error, english):
    state = cube(*moves)
    assert_german(raised(error, lambda: state.play(last)), english)


@pytest.mark.parametrize(
    "text,english",
    [
        ("double 2 double 4", "'double 2 double 4': write 'double N', N the new stake (2, 4, … 64)"),
        ("take 2", "'take 2': 'take' takes no argument"),
        ("double x" * 30, "'" + ("double x" * 30)[:39] + "…': write 'double N', N the new stake (2, 4, … 64)"),
    ],
)
def test_malformed_cube_words(text, english):
    assert_german(raised(ParseError, lambda: cube().parse_move(text)), english)


def test_the_cube_in_a_game_without_it():
    error = raised(IllegalMove, lambda: hexalit().play("double 2"))
    assert_german(error, "'double 2' is not legal: this game is not played with the doubling cube (option cube=true)")
    assert error.text("de") == "'double 2' ist nicht erlaubt: diese Partie wird nicht mit dem Verdopplungswürfel " \
                               "gespielt (Option cube=true)"


def test_the_cube_at_its_highest_value():
    state = cube("double 2", "take", "B5W2", "double 4", "take", "E9W2", "double 8", "take", "B6W2", "double 16",
                 "take", "E8W2", "double 32", "take", "B8W2", "double 64", "take", "E6W2")
    assert state.stake == 64 and not state.is_over()
    error = raised(IllegalMove, lambda: state.play("double 128"))
    assert_german(error, "'double 128' is not legal: the stake is 64, the cube's highest value")
    assert error.text("de") == "'double 128' ist nicht erlaubt: der Einsatz ist 64, der höchste Wert des " \
                               "Verdopplungswürfels"


def test_cube_messages_in_german():
    error = raised(IllegalMove, lambda: cube("double 2").play("E9XD9"))
    assert error.text("de") == "'E9XD9': Schwarz muss erst das Angebot von Weiß beantworten, auf 2 zu verdoppeln: " \
                               "'take' oder 'drop'"
    error = raised(IllegalMove, lambda: cube("B5W2").play("double 2"))
    assert error.text("de") == "'double 2' ist nicht erlaubt: nur Weiß hat die Partie begonnen und darf den " \
                               "Verdopplungswürfel ins Spiel bringen"
    error = raised(IllegalMove, lambda: cube("E9W2", first="black").play("double 2"))
    assert error.text("de") == "'double 2' ist nicht erlaubt: nur Schwarz hat die Partie begonnen und darf den " \
                               "Verdopplungswürfel ins Spiel bringen"
    error = raised(IllegalMove, lambda: cube().play("take"))
    assert error.text("de") == "'take' ist nicht erlaubt: es gibt kein Angebot zum Verdoppeln, das zu beantworten wäre"


# ---------------------------------------------------------------------- the match
def test_match_errors():
    for length, shown_length in ((0, "0"), (-1, "-1"), (True, "True"), ("3", "'3'")):
        assert_german(raised(OptionError, lambda length=length: HexalitMatch(length)),
                      f"a match is played to at least 1 point, not {shown_length}")
    assert_german(raised(OptionError, lambda: HexalitMatch(3, players=("Ada", "Ada"))),
                  "a match needs two players with different names")
    match = HexalitMatch(1, players=("Ada", "Max"))
    assert_german(raised(GameOver, lambda: match.add(hexalit(), white="Ada")),
                  "only a finished game counts for the match")
    error = raised(OptionError, lambda: match.add(cube("double 2", "drop"), white="Eve"))
    assert_german(error, "'Eve' is not a player of this match (Ada, Max)")
    assert error.text("de") == "'Eve' spielt in diesem Match nicht mit (Ada, Max)"
    match.add(cube("double 2", "drop"), white="Ada")
    error = raised(GameOver, lambda: match.add(cube("double 2", "drop"), white="Ada"))
    assert_german(error, "the match is over: Ada has 1 points")
    assert error.text("de") == "das Match ist vorbei: Ada hat die Punktzahl 1 erreicht"


# ---------------------------------------------------------------------- the terminal board
def test_the_board_legend_in_german_and_english():
    state = hexalit()
    english, german = shown(state.render()), shown(state.render("de"))
    assert "White △1  Black ▼1  empty ▵· ▿·" in english and "White to move." in english
    assert "Weiß △1  Schwarz ▼1  leer ▵· ▿·" in german and "Weiß ist am Zug." in german
    assert shown(state.render("en")) == english
    assert german.splitlines()[:9] == english.splitlines()[:9]  # the board itself is the same


def test_the_status_lines_in_german():
    state = hexalit("K:A7 R:C9* k:F7 q:D7 p:E10")
    text = shown(state.render("de"))
    assert "Vorübergehende Augenzahlen (unterstrichen; sie werden wieder zur 2): C9=5" in text
    assert "Eins! Die 1 von Weiß auf A7 ist bedroht." in text
    assert "Weiß ist am Zug. Eins-Gebot: Die letzte 1 muss in Sicherheit ziehen." in text
    english = shown(state.render())
    assert "Eins! White's 1 on A7 is threatened." in english
    assert "White to move. Eins-Gebot: the last 1 must move to safety." in english

    offered = cube("double 2")
    text = shown(offered.render("de"))
    assert "Letzter Zug: double 2" in text
    assert "Einsatz: 1 (Verdopplungswürfel noch nicht im Spiel); Weiß bietet an, auf 2 zu verdoppeln" in text
    assert "Schwarz muss antworten: 'take' oder 'drop'." in text
    assert "Stake: 1 (cube not yet in play); white offers to double to 2" in shown(offered.render())

    assert "Weiß wirft den Würfel auf B5 …" in shown(cube("B5W").render("de"))
    assert "Einsatz: 2\n" in shown(cube("double 2", "take").render("de"))
    dropped = shown(cube("double 2", "drop").render("de"))
    assert "Partie vorbei: Schwarz hat abgelehnt; Weiß gewinnt." in dropped


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_english_words_in_the_german_board(lang):
    states = [hexalit(), hexalit("K:A7 R:C9* k:F7 q:D7 p:E10"), cube("double 2"), cube("B5W"),
              cube("double 2", "drop"), hexalit(None, "B5W2", "E9XD9")]
    for state in states:
        text = shown(state.render(lang))
        legend = text.split("13", 2)[-1]  # below the board: the legend and the status lines
        legend = re.sub(r"[A-F]\d+(?:[X°W]\w*)?|double \d+|'[^']*'", "", legend)
        if lang == "de":
            assert not english_words(legend), f"{sorted(english_words(legend))} in {legend!r}"
        else:
            assert "Weiß" not in legend and "Schwarz" not in legend


def test_the_shared_board_translates_its_legend_and_messages():
    board = position.start_board()
    text = shown(render_board(board, 0, jumps=[T.parse_cell("C7")], status=[DICE("to_move", side="Weiß")],
                              title="Trigeo", lang="de"))
    assert "Weiß △1  Schwarz ▼1  leer ▵· ▿·  ▵: ▿: Sprungfeld" in text and "Weiß ist am Zug." in text
    text = shown(render_board(board, 0, jumps=[T.parse_cell("C7")], status=["plain line"], title="Trigeo"))
    assert "White △1  Black ▼1  empty ▵· ▿·  ▵: ▿: jump field" in text and "plain line" in text
