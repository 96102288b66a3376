"""benchmarks/suite_costs.py counts the CPU of a test's processes, the living ones and the
ones they have reaped, down to grandchildren (Chromium's renderers under Playwright's driver)."""

import subprocess
import sys

from benchmarks.suite_costs import _living_descendants_cpu

# Burns a fixed amount of its own CPU (not of wall time), says so, then waits for stdin to close.
_BURN = """
import sys, time
while time.process_time() < {seconds}:
    pass
print("burnt", flush=True)
sys.stdin.read()
"""

# Starts a grandchild that burns, reaps it, says so and waits: the grandchild is gone by then,
# its CPU is in this child's reaped-children figure only.
_REAP = f"""
import subprocess, sys
subprocess.run([sys.executable, "-c", {_BURN.replace("sys.stdin.read()", "")!r}.format(seconds=0.5)],
               check=True, stdout=subprocess.DEVNULL)
print("reaped", flush=True)
sys.stdin.read()
"""


def _started(code: str, said: str) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == said
    return child


def test_a_living_child_and_what_it_reaped_are_counted_until_it_is_reaped_itself():
    before = _living_descendants_cpu()
    burner = _started(_BURN.format(seconds=0.5), "burnt")
    reaper = _started(_REAP, "reaped")
    try:
        # each burnt at least 0.5 s: the burner on its own clock, the reaper through its grandchild
        assert _living_descendants_cpu() - before >= 1.0
    finally:
        for child in (burner, reaper):
            child.stdin.close()
            child.wait()
    assert _living_descendants_cpu() - before < 0.5  # reaped by this process: no longer living
