"""Kernels calling kernels are compiled once per distinct array type, not once per literal
value or integer width of their arguments (``ludothek.core.njit``)."""

import ast
from pathlib import Path

import numpy as np

from ludothek.core.njit import njit

PACKAGE = Path(__file__).resolve().parent.parent / "ludothek"


@njit
def _scaled(values, factor, flag):
    total = 0
    for v in values:
        total += v * factor
    return -total if flag else total


@njit
def _caller(values, narrow):
    # literal 0 and 3, True and False, an int64 and an int32 read from an array
    return (_scaled(values, 0, False) + _scaled(values, 3, True) + _scaled(values, len(values), False)
            + _scaled(values, narrow[0], True))


def test_literal_and_narrow_arguments_share_one_compilation():
    values = np.arange(4, dtype=np.int64)
    narrow = np.array([2], dtype=np.int32)
    assert _caller(values, narrow) == 0 - 18 + 24 - 12
    assert len(_scaled.signatures) == 1
    (signature,) = _scaled.signatures
    assert str(signature[1]) == "int64" and str(signature[2]) == "bool"


def test_every_kernel_module_takes_njit_from_ludothek():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "core" / "njit.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "numba" and any(
                    alias.name in ("njit", "jit") for alias in node.names):
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []
