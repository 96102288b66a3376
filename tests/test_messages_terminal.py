"""A German player sees German in `ludothek play` and from the `ludothek` command (issue 12,
item 6): a hot-seat session of every game (legal moves, an illegal move, malformed input,
``help``, ``moves``, ``undo``) shows the German texts and none of the English words a German
reader must not see; the command's errors read in German with ``LUDOTHEK_LANG=de`` (or
``--lang de``) and stay as they were in English.

The commands a person types (moves, undo, save, resign, board, help, quit) work in both
languages; the German help names the German ones (züge, zurück, ...), which work too. The word
check leaves the English commands out (the English-command sessions below type them).
"""

from __future__ import annotations

import io
import random
import re
from typing import Any, Callable

import pytest
from click.testing import CliRunner
from rich.console import Console

import ludothek
from ludothek.cli import main
from ludothek.core import fairdice
from ludothek.core.errors import LudothekError, OptionError, ParseError, RecordError
from ludothek.core.record import Record, loads
from ludothek.terminal import COMMANDS, TerminalGame

# words that give away English in a German screen (each a whole word, any case); the list of
# tests/test_messages.py and the words of the terminal's own English texts
ENGLISH = {"the", "is", "are", "not", "must", "move", "white", "black", "wins", "high", "low", "roll",
           "cannot", "with", "only", "game", "player", "turn", "there", "your", "empty", "illegal", "line", "and",
           "of", "to", "no", "be", "has", "needs", "should", "which", "legal", "type", "understood",
           "plays", "resigns", "saved", "record", "nothing", "score", "you", "cell", "row", "off", "unknown",
           "known", "error", "file", "result", "starts", "shows", "left", "unfinished", "ply", "at", "most",
           "least", "level", "read", "such", "expected", "letter", "column", "number"}


def english_words(text: str) -> set[str]:
    """The words of ``ENGLISH`` in ``text`` (the commands a person types left out; only whole
    words of letters, so notation such as ``c1`` or a hex digest is no word)."""
    words = {word.lower() for word in re.findall(r"\b[^\W\d_]+\b", text)}
    return (words - set(COMMANDS)) & ENGLISH


Line = str | Callable[[TerminalGame], str] | type


def session(game: str, lines: list[Line], lang: str = "de", **options: Any) -> str:
    """The screen of a hot-seat session of ``game`` in ``lang``: prompts and everything
    printed. A line may be a function of the session (a move that depends on a roll)."""
    screen = io.StringIO()
    script = iter(lines)
    terminal: list[TerminalGame] = []

    def read(prompt: str) -> str:
        screen.write(prompt)
        item = next(script, EOFError)
        if isinstance(item, type) and issubclass(item, BaseException):
            raise item
        return item(terminal[0]) if callable(item) else item

    terminal.append(TerminalGame(ludothek.new_game(game, **options), vs="human", me="human", seat=0, lang=lang,
                                 rng=random.Random(1), console=Console(file=screen, width=200), read=read,
                                 interactive=False))
    terminal[0].run()
    return screen.getvalue()


def first_legal(terminal: TerminalGame) -> str:
    return terminal.state.legal_moves()[0]


# game -> (script, German texts the screen shows, English texts the same script shows in English)
SESSIONS: dict[str, tuple[dict, list[Line], list[str], list[str]]] = {
    "trike": ({"size": 7}, ["help", "c1", "c1", "zz", "moves", "f4", "undo", "board", "quit"],
              ["Unzulässiger Zug c1: das Feld ist besetzt", "Nicht verstanden: 'zz' ist kein Feldname",
               "Schwarz ist am Zug", "Weiß (du) > "],
              ["Illegal move c1: the cell is occupied", "Not understood: 'zz' is not a cell name"]),
    "trigeo": ({}, ["help", "A10XA11", "A10XA11", "zz", "moves", "D7XC8", "undo", "board", "quit"],
               ["Unzulässiger Zug A10XA11: auf A10 steht kein Würfel", "Nicht verstanden: 'zz' ist kein Zug",
                "Weiß ist am Zug", "Schwarz (du) > "],
               ["Illegal move A10XA11: there is no die on A10", "Not understood: 'zz'"]),
    "hexalit": ({}, ["help", "A10XA11", "A10XA11", "zz", "moves", "E10W", first_legal, "undo", "board", "quit"],
                ["Unzulässiger Zug A10XA11: auf A10 steht kein Würfel", "Nicht verstanden: 'zz' ist kein Zug",
                 "Der Würfel zeigt", "Weiß ist am Zug"],
                ["Illegal move A10XA11: there is no die on A10", "The die shows"]),
    "bitis": ({}, ["help", "III41:1297", "III41:1297", "zz", "moves", "IV31:9415", "undo", "board", "quit"],
              ["Unzulässiger Zug III41:1297: III steht schon auf dem Brett", "Nicht verstanden: 'zz' ist kein Zug",
               "A ist am Zug", "B (du) > "],
              ["Illegal move III41:1297: III is", "Not understood: 'zz'"]),
}


@pytest.mark.parametrize("game", list(SESSIONS))
def test_a_german_hot_seat_session_is_german(game):
    options, lines, german, _ = SESSIONS[game]
    shown = session(game, lines, "de", **options)
    for text in german + ["Gib einen Zug in Notation ein oder einen Befehl: züge (erlaubte Züge zeigen)",
                          "Erlaubte Züge: ", "Partie nicht beendet."]:
        assert text in shown, (text, shown)
    assert shown.count("Unzulässiger Zug") == 1 and shown.count("Nicht verstanden") == 1
    # the illegal move's reason once: not "Unzulässiger Zug c1: 'c1' ist nicht erlaubt: …"
    assert "ist nicht erlaubt" not in shown
    assert not english_words(shown), (sorted(english_words(shown)), shown)


@pytest.mark.parametrize("game", list(SESSIONS))
def test_the_same_session_in_english_is_as_it_was(game):
    options, lines, _, english = SESSIONS[game]
    shown = session(game, lines, "en", **options)
    for text in english + ["Type a move in notation, or: moves, undo, save FILE, resign, board, help, quit.",
                           "Legal moves: ", "Game left unfinished."]:
        assert text in shown, (text, shown)
    assert {"move", "the", "to"} <= english_words(shown)  # the word check sees English


def test_german_commands_are_understood(tmp_path):
    """Issue 33, item 7: the commands the German help lists work (the English ones too)."""
    path = tmp_path / "partie.ludo"
    shown = session("trike", ["hilfe", "c1", "züge", "zurück", "brett", "f4", "Zuege", f"speichern {path}", "ende"],
                    "de", size=7)
    help_line = ("Gib einen Zug in Notation ein oder einen Befehl: züge (erlaubte Züge zeigen), zurück (Zug "
                 "zurücknehmen), speichern DATEI (Partie speichern), aufgeben (Partie aufgeben), brett (Brett "
                 "zeigen), hilfe (diese Hilfe), ende (Partie verlassen).")
    assert help_line in " ".join(shown.split()), shown
    assert shown.count("Erlaubte Züge: ") == 2 and "Nicht verstanden" not in shown, shown
    assert f"Partie gespeichert in {path}" in shown
    assert path.read_text("utf-8").split("\n\n")[1].split()[:2] == ["1.", "f4"]  # c1 was taken back
    resigned = session("trike", ["c1", "aufgeben"], "de", size=7)
    assert "gibt auf" in resigned and "Nicht verstanden" not in resigned, resigned


def test_saving_and_the_end_of_a_game_in_german(tmp_path):
    path = tmp_path / "partie.ludo"
    moves = ["c1", "f4", "f2", "f1", "e1", "e4", "e3", "g3", "g1"]
    shown = session("trike", [*moves, f"save {path}", f"save {tmp_path}", "g2"], "de", size=7)
    assert f"Partie gespeichert in {path}" in shown
    assert f"Kann {tmp_path} nicht speichern: Ist ein Verzeichnis" in shown
    assert "Weiß gewinnt." in shown and "Punkte: Schwarz 2, Weiß 3" in shown
    shown = shown.replace(str(tmp_path), "")  # the test's name is English
    assert not english_words(shown), sorted(english_words(shown))


def test_resigning_against_an_agent_in_german():
    result = CliRunner().invoke(main, ["play", "hexalit", "--lang", "de", "--vs", "random", "--seed", "2"],
                                input="zz\nresign\n")
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    assert "Wurf um den ersten Zug (hoch beginnt): Weiß" in shown and "beginnt." in shown
    assert "Faire Würfel" in shown and "gibt auf." in shown and "Das Würfelgeheimnis" in shown
    assert not english_words(result.output.replace("(random)", "")), sorted(english_words(result.output))


# ---------------------------------------------------------------------------- the command in German
def invoke(*args: str, lang: str = "de", input: str | None = None):
    return CliRunner().invoke(main, list(args), env={"LUDOTHEK_LANG": lang}, input=input)


@pytest.fixture()
def records(tmp_path):
    files = {
        "broken": '[Game "trike"]\n[Size "7"]\n\n1. c1 c1 *\n',
        "chess": '[Game "chess"]\n\n1. e4 *\n',
        "tag": '[Game "trike"]\n[Size "7"]\n[Event Ludothek]\n\n1. c1 *\n',
    }
    for name, text in files.items():
        (tmp_path / f"{name}.ludo").write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("verb,name,german,english", [
    ("replay", "broken", "Zeile 4: Zug 'c1' (Halbzug 2): 'c1' ist nicht erlaubt: das Feld ist besetzt",
     "line 4: move 'c1' (ply 2): 'c1' is not legal: the cell is occupied"),
    ("replay", "tag", "Zeile 3: fehlerhaftes Tag '[Event Ludothek]': erwartet wird [Name \"Wert\"]",
     "line 3: malformed tag '[Event Ludothek]': expected [Name \"value\"]"),
    *[(verb, "chess", "Zeile 1: unbekanntes Spiel 'chess' (bekannte Spiele: trike",
       "line 1: unknown game 'chess' (known games") for verb in ("replay", "verify")],
    *[(verb, "missing", "kann nicht gelesen werden: Datei oder Verzeichnis nicht gefunden", "cannot read")
      for verb in ("replay", "verify")],
])
def test_a_record_that_does_not_load_is_explained_in_german(records, verb, name, german, english):
    path = str(records / f"{name}.ludo")
    result = invoke(verb, path)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    # the prefix is error: in every language (issue 33, item 7); the message after it is German
    assert len(line.splitlines()) == 1 and line.startswith("error: ") and path in line, line
    assert german in line, line
    message = line.removeprefix("error: ")
    assert not english_words(message.replace(str(records), "")), sorted(english_words(message))
    english_line = invoke(verb, path, lang="en").output.strip()
    assert english_line.startswith("error: ") and english in english_line, english_line


@pytest.mark.parametrize("args,german", [
    (["moves", "trike", "--size", "7", "c1", "c1"], "error: Zug 2 'c1': 'c1' ist nicht erlaubt: das Feld ist besetzt"),
    (["moves", "trike", "-o", "size=99"], "error: die Option 'size' darf höchstens 19 sein, nicht 99"),
    (["moves", "trike", "-o", "size"], "error: die Option 'size' muss als NAME=WERT geschrieben werden"),
    (["moves", "chess"], "error: unbekanntes Spiel 'chess' (bekannte Spiele: "),
    (["moves", "trike", "--position", "x"], "error: die Stellung 'x' muss aus 2 oder 3 "),
    (["play", "trike", "--vs", "bot:9"], "error: die Stufe des Bots muss 1..8 sein, nicht 9"),
    (["analyse", "trike", "--size", "7", "--agent", "mcts:fast"],
     "error: das Budget 'fast' muss eine Zahl von Iterationen (800, 20k) oder eine Zeit (2s, 500ms) sein"),
    (["match", "trike", "random", "wizard"], "error: unbekannter Agent 'wizard' (bekannt: "),
])
def test_command_errors_in_german(args, german):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and line.startswith(german), line
    assert not english_words(line.removeprefix("error: ")), sorted(english_words(line))
    assert invoke(*args, lang="en").output.startswith("error: ")


def test_play_with_lang_de_reads_its_errors_in_german():
    result = CliRunner().invoke(main, ["play", "trike", "--lang", "de", "--size", "99"], env={"LUDOTHEK_LANG": "en"})
    assert result.exit_code == 2 and result.output.startswith("error: die Option 'size' darf höchstens 19 sein")


def test_replay_shows_its_result_in_german(records):
    (records / "good.ludo").write_text('[Game "trike"]\n[Size "7"]\n[Result "white"]\n\n'
                                       "1. c1 f4 2. f2 f1 3. e1 e4 4. e3 g3 5. g1 g2 white\n", encoding="utf-8")
    german = invoke("replay", str(records / "good.ludo"))
    assert german.exit_code == 0 and "Ergebnis: Weiß" in german.output, german.output
    assert "result: white" in invoke("replay", str(records / "good.ludo"), lang="en").output


# ---------------------------------------------------------------------------- the errors themselves
def _error(call: Callable[[], Any]) -> LudothekError:
    with pytest.raises(LudothekError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("call,kind,english,german", [
    (lambda: ludothek.new_game("trike", size=7).play("h1"), ParseError,
     "'h1' is off the board: the side-7 board has rows a..g",
     "'h1' liegt nicht auf dem Brett: das Brett mit Seitenlänge 7 hat die Reihen a..g"),
    (lambda: ludothek.new_game("trigeo").play("G1XA1"), ParseError,
     "'G1' is off the board: rows are A..F", "'G1' liegt nicht auf dem Brett: die Reihen sind A..F"),
    (lambda: ludothek.new_game("bitis").play("III71:1297"), ParseError,
     "is off the board: rows are 1..6", "liegt nicht auf dem Brett: die Reihen sind 1..6"),
    (lambda: ludothek.new_game("trike", colour="red"), OptionError,
     "trike has no option 'colour' (its options: size)", "trike hat keine Option 'colour' (seine Optionen: size)"),
    (lambda: ludothek.new_game("trike").undo(), LudothekError,
     "nothing to undo: no move has been played since the setup position",
     "nichts zurückzunehmen: seit der Ausgangsstellung wurde kein Zug gespielt"),
    (lambda: loads('[Game "trike"]\n[Size "7"]\n\n1. c1 (c2) *\n'), RecordError,
     "line 4: comments and variations ('(') are not supported",
     "Zeile 4: Kommentare und Varianten ('(') werden nicht unterstützt"),
    (lambda: fairdice.commitment("secret"), LudothekError,
     "a dice secret is 64 lower-case hex digits, not 'secret'",
     "ein Würfelgeheimnis besteht aus 64 kleinen Hex-Ziffern, nicht 'secret'"),
])
def test_engine_errors_read_in_both_languages(call, kind, english, german):
    error = _error(call)
    assert isinstance(error, kind)
    assert english in str(error) and german in error.text("de"), (str(error), error.text("de"))
    assert not english_words(error.text("de")), sorted(english_words(error.text("de")))


def test_a_fair_record_that_stops_replaying_says_why_in_german():
    secret, game_id = fairdice.new_secret(), "g1"
    record = Record(game="trike", options={"size": 7}, moves=["c1", "c1"], tags=fairdice.tags(game_id, secret, True))
    report = fairdice.verify(record)
    assert report.problem == "broken" and report.ply == 2
    assert str(report) == "ply 2 (c1) does not replay: 'c1' is not legal: the cell is occupied"
    assert report.detail.text("de") == ("Halbzug 2 (c1) lässt sich nicht nachspielen: 'c1' ist nicht erlaubt: "
                                        "das Feld ist besetzt")
