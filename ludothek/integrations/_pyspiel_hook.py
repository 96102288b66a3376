"""Register Ludothek's games with OpenSpiel whenever ``pyspiel`` is imported, whether before
or after ``import ludothek``, without importing OpenSpiel otherwise.

``import ludothek`` calls :func:`install`: if ``pyspiel`` is already imported, the games are
registered at once (``ludothek.integrations.openspiel``); otherwise a finder on
``sys.meta_path`` waits for ``import pyspiel`` and registers them right after that module has
loaded. The finder only looks at the name ``pyspiel``, so other imports cost one comparison.
A failure to register is a warning, never an error of ``import pyspiel``.
"""

from __future__ import annotations

import importlib.abc
import sys
import warnings
from typing import Any

MODULE = "pyspiel"


def install() -> None:
    if MODULE in sys.modules:
        _register()
    elif not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def _register() -> None:
    try:
        import ludothek.integrations.openspiel  # noqa: F401 - registers every game on import
    except Exception as exc:  # noqa: BLE001 - an incompatible OpenSpiel must not break its import
        warnings.warn(f"ludothek could not register its games with OpenSpiel: {exc}", RuntimeWarning, stacklevel=3)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != MODULE:
            return None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _RegisteringLoader(spec.loader)
        return spec


class _RegisteringLoader(importlib.abc.Loader):
    """Loads ``pyspiel`` with its own loader, then registers the games."""

    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.loader.exec_module(module)
        module.__loader__ = self.loader
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self.loader
        _register()
