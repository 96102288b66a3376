"""The line a first run prints when it compiles kernels (ludothek.core.compile_notice)."""

from __future__ import annotations

import io

from numba import njit
from numba.core import event

from ludothek.core import compile_notice


def _kernel(module: str):
    def kernel(x):
        return x + 1

    kernel.__module__ = module
    return njit(kernel)


def test_each_part_is_announced_once_when_it_first_compiles():
    stream = io.StringIO()
    notice = compile_notice._Notice(stream)
    event.register("numba:compile", notice)
    try:
        trike = _kernel("ludothek.games.trike.kernels")
        trike(1)
        trike(2.5)  # a second compile of the same part
        _kernel("ludothek.games.trike.search_kernels")(1)
        _kernel("ludothek.games.dice.masks")(1)
        _kernel("some_other_package.kernels")(1)  # not ours: not announced
    finally:
        event.unregister("numba:compile", notice)
    lines = stream.getvalue().splitlines()
    assert [line.split()[2] for line in lines] == ["trike", "dice"]
    assert all("first run only" in line for line in lines)


def test_loading_from_the_cache_says_nothing(tmp_path, monkeypatch):
    """Only compiles are announced: a kernel already compiled in this process is not."""
    stream = io.StringIO()
    notice = compile_notice._Notice(stream)
    kernel = _kernel("ludothek.games.bitis.kernels")
    kernel(1)
    event.register("numba:compile", notice)
    try:
        kernel(2)
    finally:
        event.unregister("numba:compile", notice)
    assert stream.getvalue() == ""


def test_not_a_terminal_stays_silent():
    stream = io.StringIO()
    compile_notice.install(stream, only_terminal=True)
    assert compile_notice._installed == [] or all(n.stream is not stream for n in compile_notice._installed)


def test_parts():
    assert compile_notice.part_of("ludothek.games.hexalit.kernels") == "hexalit"
    assert compile_notice.part_of("ludothek.core.random_kernels") == "core"
    assert compile_notice.part_of("numpy.linalg") is None
