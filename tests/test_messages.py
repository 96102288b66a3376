"""Every text a person reads exists in English and German (issue 12, item 6).

The errors the engines, the web server and the command line raise carry keyed messages
(:mod:`ludothek.core.messages`); these tests walk every key of every catalog in both languages
and check that no raise in the package passes a bare English string.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import ludothek
from ludothek import i18n
from ludothek.core.errors import ParseError, RecordError
from ludothek.core.messages import CATALOGS, LANGUAGES, Catalog, Message, fields, in_language, language_of
from ludothek.core.registry import games, game_spec

PACKAGE = Path(ludothek.__file__).parent
OPTIONAL = {"ludothek.integrations.openspiel", "ludothek.integrations.pettingzoo", "ludothek.integrations._pyspiel_hook"}

# words that give away an English text in a German one (each checked as a whole word)
ENGLISH = {"the", "is", "are", "not", "must", "move", "moves", "white", "black", "wins", "high", "low", "roll",
           "cannot", "with", "only", "game", "player", "turn", "there", "your", "empty", "illegal", "line", "and",
           "of", "to", "no", "be", "has", "needs", "should", "which"}
# German texts that may be the same as the English ones (names, symbols, pure placeholders)
SAME = re.compile(r"^[\W\d_]*(\{\w+\}[\W\d_]*)*$|^(Ludothek|Trike|Trigeo|Hexalit|Bitis|Eins!|Live|online|Computer|"
                  r"Details|A|B|Arena|Berserk|Buchholz|Sonneborn-Berger)$")


def import_everything() -> None:
    for module in pkgutil.walk_packages([str(PACKAGE)], "ludothek."):
        if module.name not in OPTIONAL and ".migrations." not in module.name:
            importlib.import_module(module.name)
    for name in games():
        spec = game_spec(name)
        if spec.texts:
            spec.load("texts")


def all_texts() -> list[tuple[str, dict[str, str]]]:
    import_everything()
    tables = [(f"{prefix}.{name}", templates) for prefix, catalog in CATALOGS.items() for name, templates in catalog]
    tables += [(f"i18n.{key}", table) for key, table in i18n.MESSAGES.items()]
    tables += [(f"web.{key}", table) for key, table in i18n.WEB.items()]
    tables += [(f"colour.{key}", table) for key, table in i18n.COLOURS.items()]
    for name in games():
        spec = game_spec(name)
        tables += [(f"{name}.hint", dict(spec.hint))] if spec.hint else []
        tables += [(f"{name}.ending.{key}", dict(table)) for key, table in spec.endings.items()]
    return tables


TEXTS = all_texts()


def test_the_catalogs_are_found():
    assert {"errors", "core", "web"} <= set(CATALOGS)
    for name in ("trike", "trigeo", "hexalit", "bitis"):
        assert game_spec(name).texts, f"{name} names no texts catalog"
        assert isinstance(game_spec(name).load("texts"), Catalog)
    assert len(TEXTS) > 400


@pytest.mark.parametrize("key,table", TEXTS, ids=[key for key, _ in TEXTS])
def test_every_text_is_in_english_and_german(key, table):
    for lang in LANGUAGES:
        assert table.get(lang, "").strip() or key.endswith(".by_rules"), f"{key} has no {lang} text"
    assert fields(table["en"]) == fields(table["de"]), f"{key}: the German text fills in other values"
    values = {name: f"<{name}>" for name in fields(table["en"])}
    english, german = table["en"].format(**values), table["de"].format(**values)
    if german == english and german:
        assert SAME.match(table["de"]), f"{key}: the German text is the English one: {german!r}"
    leftovers = {word for word in re.findall(r"[A-Za-z]+", re.sub(r"<\w+>|\{\w+\}", "", german))} & ENGLISH
    assert not leftovers, f"{key}: English words in the German text {german!r}: {sorted(leftovers)}"


class RaisedText(ast.NodeVisitor):
    """Raises of our error classes whose message is a string literal, an f-string or a join."""

    ERRORS = {"LudothekError", "UnknownGame", "OptionError", "ParseError", "PositionError", "RecordError",
              "IllegalMove", "GameOver", "WebError", "BadRequest"}

    def __init__(self, path: Path):
        self.path = path
        self.found: list[str] = []

    def visit_Raise(self, node: ast.Raise) -> None:
        call = node.exc
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in self.ERRORS:
                for arg in call.args:
                    if isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (isinstance(arg, ast.Constant)
                                                                       and isinstance(arg.value, str)):
                        self.found.append(f"{self.path.relative_to(PACKAGE.parent)}:{node.lineno}")
                    elif isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "str":
                        self.found.append(f"{self.path.relative_to(PACKAGE.parent)}:{node.lineno} (str(...))")
        self.generic_visit(node)


def test_no_error_is_raised_with_an_english_string():
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        visitor = RaisedText(path)
        visitor.visit(ast.parse(path.read_text("utf-8")))
        found += visitor.found
    assert not found, "errors raised with bare English text (give them a key in a texts catalog):\n" + "\n".join(found)


def test_a_message_reads_in_both_languages():
    catalog = Catalog("test_messages", {"bad_cell": ("{cell} is not on the board", "{cell} liegt nicht auf dem Brett")})
    error = RecordError(ParseError(catalog("bad_cell", cell="z9")), line=4)
    assert str(error) == "line 4: z9 is not on the board"
    assert error.text("de") == "Zeile 4: z9 liegt nicht auf dem Brett"
    assert in_language(error, "de") == error.text("de")
    with pytest.raises(KeyError):
        catalog("no_such_key")
    with pytest.raises(TypeError):
        catalog("bad_cell", field="z9")
    assert Message("x", {"en": "a"}, {}) == Message("x", {"en": "b"}, {})


@pytest.mark.parametrize("header,lang", [("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-GB,de;q=0.5", "en"), ("", "en"),
                                          (None, "en"), ("DE", "de"), ("fr", "en")])
def test_the_language_of_a_request(header, lang):
    assert language_of(header) == lang
