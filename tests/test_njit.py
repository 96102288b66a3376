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


@njit
def _hashed(value):
    return hash(value)  # numba's hash calls its own jitted helpers with literal names


def test_numbas_own_helpers_keep_their_literal_arguments():
    assert _hashed(np.int64(12345)) == hash(12345)
    assert _caller(np.arange(2, dtype=np.int64), np.array([1], dtype=np.int32)) == 0 - 3 + 2 - 1


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


KERNEL_MODULE = '''
from ludothek.core.njit import njit

@njit(cache=True)
def triple(x):
    return 3 * x
'''

COMPILER = '''
import os, sys
sys.path.insert(0, sys.argv[1])
import ludothek, kernel_for_lock_test as m
role = sys.argv[2]
if role == "first":
    import fcntl, pathlib
    folder = pathlib.Path(os.environ["NUMBA_CACHE_DIR"]) / "compiling"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "kernel_for_lock_test.triple.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a compile of this kernel would
        print("locked", flush=True)
        sys.stdin.readline()
        del os.environ["NUMBA_CACHE_DIR"]  # compile (and save to the cache) past the lock held here
        m.triple(2)
else:
    m.triple(2)
print(sum(m.triple.stats.cache_hits.values()), sum(m.triple.stats.cache_misses.values()), flush=True)
'''


def _waiting_on(path: Path) -> set[int]:
    """The processes waiting (not holding) for a lock on ``path`` (Linux's /proc/locks)."""
    inode = path.stat().st_ino
    waiting = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields and fields[fields.index("->") + 5].rsplit(":", 1)[-1] == str(inode):
            waiting.add(int(fields[fields.index("->") + 4]))
    return waiting


def test_a_second_process_waits_for_a_kernel_being_compiled_and_loads_it(tmp_path):
    """Two processes sharing a cold kernel cache compile a kernel once: the second waits for
    the first's compile and loads the result from the cache."""
    import os
    import subprocess
    import sys
    import time

    (tmp_path / "kernel_for_lock_test.py").write_text(KERNEL_MODULE)
    (tmp_path / "compiler.py").write_text(COMPILER)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    command = [sys.executable, str(tmp_path / "compiler.py"), str(tmp_path)]
    first = subprocess.Popen(command + ["first"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert first.stdout.readline().strip() == "locked"
    second = subprocess.Popen(command + ["second"], env=env, stdout=subprocess.PIPE, text=True)
    lock = tmp_path / "cache" / "compiling" / "kernel_for_lock_test.triple.lock"
    while second.pid not in _waiting_on(lock):
        assert second.poll() is None, "the second process compiled without waiting for the first"
        time.sleep(0.01)  # nothing to wait on: a process blocked on a lock only shows in /proc/locks
    first.stdin.write("go\n")
    first.stdin.close()
    first_hits, first_misses = first.stdout.read().split()
    second_hits, second_misses = second.stdout.read().split()
    assert first.wait() == 0 and second.wait() == 0
    assert (first_hits, first_misses) == ("0", "1")  # the first compiled it
    assert (second_hits, second_misses) == ("1", "0")  # the second loaded it
