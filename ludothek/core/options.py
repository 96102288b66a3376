"""Typed, validated game options.

A game declares its options as a tuple of :class:`Option`; :func:`resolve` turns what a caller
gave (Python values or strings from the command line) into a complete, checked dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError, shown
from .texts import TEXTS


@dataclass(frozen=True)
class Option:
    name: str
    type: type  # int, str or bool
    default: Any
    help: str
    choices: tuple | None = None
    min: int | None = None
    max: int | None = None

    def convert(self, value: Any, *, from_text: bool = True) -> Any:
        """Check one value (a Python value or a string) and return it typed. ``from_text=False``
        for values that arrive typed (JSON): a string for a number or a yes/no option is then
        refused instead of read."""
        if isinstance(value, str) and self.type is not str:
            if not from_text:
                kind = "option_int_typed" if self.type is int else "option_bool_typed"
                raise OptionError(TEXTS(kind, option=repr(self.name), value=shown(value)))
            value = self._from_string(value)
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(TEXTS("option_int", option=repr(self.name), value=repr(value)))
        if self.type is bool and not isinstance(value, bool):
            raise OptionError(TEXTS("option_bool", option=repr(self.name), value=repr(value)))
        if self.type is str:
            if not isinstance(value, str):
                raise OptionError(TEXTS("option_text", option=repr(self.name), value=repr(value)))
            value = value.lower()
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(TEXTS("option_choice", option=repr(self.name), allowed=allowed, value=repr(value)))
        if self.min is not None and value < self.min:
            raise OptionError(TEXTS("option_min", option=repr(self.name), least=self.min, value=str(value)))
        if self.max is not None and value > self.max:
            raise OptionError(TEXTS("option_max", option=repr(self.name), most=self.max, value=str(value)))
        return value

    def _from_string(self, text: str) -> Any:
        if self.type is int:
            try:
                return int(text.strip())
            except ValueError:
                raise OptionError(TEXTS("option_int", option=repr(self.name), value=shown(text))) from None
        if self.type is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise OptionError(TEXTS("option_bool", option=repr(self.name), value=repr(text)))
        return text

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(str(c) for c in self.choices)
        elif self.min is not None or self.max is not None:
            allowed = f"{self.min}..{self.max}"
        else:
            allowed = self.type.__name__
        return f"{self.name}={allowed} (default {self.default}): {self.help}"


def checked(game: str, options: tuple[Option, ...], given: dict[str, Any], *,
            from_text: bool = True) -> dict[str, Any]:
    """The options ``given`` names, each checked against its declaration in ``options`` of
    ``game`` and typed (see :meth:`Option.convert` for ``from_text``); a name ``game`` does not
    declare is an error."""
    known = {o.name: o for o in options}
    for name in given:
        if name not in known:
            listed = ", ".join(known) or TEXTS("none")
            raise OptionError(TEXTS("option_unknown", game=game, option=shown(name), listed=listed))
    return {name: known[name].convert(value, from_text=from_text) for name, value in given.items()}


def resolve(game: str, options: tuple[Option, ...], given: dict[str, Any]) -> dict[str, Any]:
    """Complete and check ``given`` against the declared ``options`` of ``game``."""
    typed = checked(game, options, given)
    return {o.name: typed[o.name] if o.name in typed else o.default for o in options}


def parse_assignments(pairs: list[str]) -> dict[str, str]:
    """Turn ``["size=9", "first=black"]`` into a dict, with a clear error for bad items."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(TEXTS("option_pair", pair=repr(pair)))
        result[name.strip().replace("-", "_").lower()] = value.strip()
    return result
