"""Import helpers for the optional research extras."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str, package: str, adapter: str) -> ModuleType:
    """Import ``module`` or fail with a message that names the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{adapter} needs the optional dependency {package!r} (module {module!r}), which is not "
            f"installed. Install it with: pip install 'ludothek[{extra}]'"
        ) from exc
