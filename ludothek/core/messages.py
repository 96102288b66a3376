"""Texts a person reads, by key, in English and German.

An error or a notice is a :class:`Message`: a key from a :class:`Catalog` and the values that
fill its template. It reads as English wherever a plain string is expected (``str(message)``,
so logs, ``repr`` and Python tracebacks stay as they were), and every front end shows it in its
reader's language with :func:`in_language`. Values may be messages themselves (an error that
explains another one, a colour's name), and are translated with it.

Each package keeps its own catalog next to its code (``core/texts.py``, ``games/<game>/texts.py``,
``web/texts.py``); a game's spec names it (``texts``) so that the test that walks every key in
both languages finds the catalogs of plugins too.
"""

from __future__ import annotations

import string
from typing import Any, Mapping

LANGUAGES = ("en", "de")

#: every catalog made so far, by its prefix
CATALOGS: dict[str, "Catalog"] = {}


class Message:
    """A text by key and values; ``str()`` is the English text."""

    __slots__ = ("key", "templates", "values")

    def __init__(self, key: str, templates: Mapping[str, str], values: Mapping[str, Any]):
        self.key = key
        self.templates = templates
        self.values = dict(values)

    def text(self, lang: str = "en") -> str:
        template = self.templates.get(lang) or self.templates["en"]
        return template.format(**{name: in_language(value, lang) for name, value in self.values.items()})

    def __str__(self) -> str:
        return self.text("en")

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.key, self.values) == (other.key, other.values)

    __hash__ = None  # type: ignore[assignment]


class Catalog:
    """The texts of one package: ``{name: (english, german)}``; calling it makes a message.

    ``MESSAGES("cell_outside", cell="x9")`` is the message ``<prefix>.cell_outside``; a name
    that is not in the catalog, or a value its templates do not use, is a programming error and
    raises at once (``KeyError`` / ``TypeError``), so a typo never reaches a player.
    """

    def __init__(self, prefix: str, entries: Mapping[str, tuple[str, str]]):
        self.prefix = prefix
        self.entries = {name: {"en": en, "de": de} for name, (en, de) in entries.items()}
        self._fields = {name: fields(en) for name, (en, _) in entries.items()}
        CATALOGS[prefix] = self

    def __call__(self, name: str, **values: Any) -> Message:
        templates = self.entries[name]
        expected = self._fields[name]
        if values.keys() != expected:
            raise TypeError(f"message {self.prefix}.{name} takes {sorted(expected)}, not {sorted(values)}")
        return Message(f"{self.prefix}.{name}", templates, values)

    def __iter__(self):
        return iter(self.entries.items())


def fields(template: str) -> set[str]:
    """The names a template fills in (``"{cell} is off"`` -> ``{"cell"}``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


COLOURS = Catalog("colour", {
    "white": ("white", "Weiß"), "black": ("black", "Schwarz"),
    "White": ("White", "Weiß"), "Black": ("Black", "Schwarz"), "a": ("A", "A"), "b": ("B", "B"),
})


def colour(name: str) -> Message | str:
    """A side's name inside a sentence, written as given in English (``white``, ``White``) and
    as German writes it (``Weiß``); an unknown name as it is."""
    return COLOURS(name) if name in COLOURS.entries else name


def in_language(value: Any, lang: str) -> Any:
    """A message, an error carrying one, or a list of them in ``lang``; anything else as it is."""
    if isinstance(value, Message):
        return value.text(lang)
    message = getattr(value, "message", None)
    if isinstance(value, Exception) and isinstance(message, Message):
        return value.text(lang)  # a LudothekError (or a web error) with a keyed message
    if isinstance(value, (list, tuple)):
        return ", ".join(str(in_language(item, lang)) for item in value)
    return value


def language_of(header: str | None) -> str:
    """The language a client asks for: ``de`` when the first tag of an ``Accept-Language`` header
    (or a plain ``lang`` value) is German, otherwise English."""
    first = (header or "").split(",")[0].strip().lower()
    return "de" if first.startswith("de") else "en"
