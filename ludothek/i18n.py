"""User-facing text in English and German, shared by the terminal and the web app."""

from __future__ import annotations

import os

MESSAGES: dict[str, dict[str, str]] = {
    "to_move": {"en": "{colour} to move", "de": "{colour} ist am Zug"},
    "prompt": {"en": "{colour} ({who}) > ", "de": "{colour} ({who}) > "},
    "you": {"en": "you", "de": "du"},
    "help": {
        "en": "Type a move in notation, or: moves, undo, save FILE, resign, board, help, quit.",
        "de": "Gib einen Zug in Notation ein, oder: moves, undo, save DATEI, resign, board, help, quit.",
    },
    "legal": {"en": "Legal moves: {moves}", "de": "Erlaubte Züge: {moves}"},
    "played": {"en": "{who} plays {move}", "de": "{who} spielt {move}"},
    "rolled": {"en": "The die shows {face}", "de": "Der Würfel zeigt {face}"},
    "nothing_to_undo": {"en": "Nothing to undo.", "de": "Nichts zurückzunehmen."},
    "saved": {"en": "Saved the record to {path}", "de": "Partie gespeichert in {path}"},
    "resigned": {"en": "{colour} resigns.", "de": "{colour} gibt auf."},
    "winner": {"en": "{colour} wins.", "de": "{colour} gewinnt."},
    "draw": {"en": "The game is a draw.", "de": "Die Partie endet unentschieden."},
    "score": {"en": "Score: {score}", "de": "Punkte: {score}"},
    "unknown": {"en": "Not understood: {error}", "de": "Nicht verstanden: {error}"},
    "start_roll": {
        "en": "Roll for the first move ({rule} starts): {rolls}",
        "de": "Wurf um den ersten Zug ({rule} beginnt): {rolls}",
    },
    "high": {"en": "high", "de": "hoch"},
    "low": {"en": "low", "de": "niedrig"},
    "starts": {"en": "{colour} starts.", "de": "{colour} beginnt."},
    "bye": {"en": "Game left unfinished.", "de": "Partie nicht beendet."},
}

COLOURS: dict[str, dict[str, str]] = {
    "black": {"en": "Black", "de": "Schwarz"},
    "white": {"en": "White", "de": "Weiß"},
    "a": {"en": "A", "de": "A"},
    "b": {"en": "B", "de": "B"},
}


def default_language() -> str:
    lang = os.environ.get("LUDOTHEK_LANG") or os.environ.get("LANG", "")
    return "de" if lang.lower().startswith("de") else "en"


def text(key: str, lang: str, **values: object) -> str:
    table = MESSAGES[key]
    return table.get(lang, table["en"]).format(**values)


def colour_name(colour: str, lang: str) -> str:
    names = COLOURS.get(colour.lower())
    return names.get(lang, names["en"]) if names else colour
