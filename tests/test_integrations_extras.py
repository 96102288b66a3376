"""Without the optional extras, ``import ludothek`` works and the adapters say what to install."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

ADAPTERS = [
    ("ludothek.integrations.openspiel", "pyspiel", "ludothek[openspiel]"),
    ("ludothek.integrations.pettingzoo", "pettingzoo", "ludothek[pettingzoo]"),
    ("ludothek.integrations.pettingzoo", "gymnasium", "ludothek[pettingzoo]"),
]


@pytest.mark.parametrize("module,missing,extra", ADAPTERS)
def test_adapter_without_its_extra_names_the_extra(monkeypatch, module, missing, extra):
    # a None entry in sys.modules makes ``import missing`` raise ImportError
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as info:
        importlib.import_module(module)
    message = str(info.value)
    assert extra in message and "pip install" in message and module in message


def test_import_ludothek_needs_no_extras():
    """In a fresh interpreter where the extras cannot be imported: ludothek works, the
    adapters fail with the message, and nothing imported them behind our back."""
    code = """
import sys
for name in ("pyspiel", "pettingzoo", "gymnasium"):
    sys.modules[name] = None
import ludothek
from ludothek.core.registry import games
for name in games():
    state = ludothek.new_game(name)
    assert state.legal_actions()
for module, extra in (("openspiel", "ludothek[openspiel]"), ("pettingzoo", "ludothek[pettingzoo]")):
    try:
        __import__("ludothek.integrations." + module)
    except ImportError as exc:
        assert extra in str(exc), str(exc)
    else:
        raise SystemExit("importing the " + module + " adapter did not fail")
import ludothek.integrations.observe, ludothek.integrations.raster  # numpy only
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_plain_import_does_not_load_the_extras():
    code = "import sys, ludothek; print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
