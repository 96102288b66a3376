"""What each test file costs: a pytest plugin recording, per file, the CPU seconds of the test
process itself (RUSAGE_SELF) and of the processes it started and reaped (RUSAGE_CHILDREN: CLI
runs, servers, worker pools), the wall seconds, and how many processes it started.

    PYTHONPATH=$PWD python3 -m pytest -n 3 --dist loadfile -p benchmarks.suite_costs \
        --suite-costs costs.json tests/...
    python3 -m benchmarks.suite_costs costs.json        # the table, most expensive first

Each test process (an xdist worker too) writes its own part file ``costs.json.<pid>``; the
table merges them. A worker's session-scoped set-up (a browser, a server) is counted to the
first file that needs it. The "child" column counts the processes a test process has reaped
and, read from /proc, its living descendants with what they reaped themselves: Chromium's
renderers, which Playwright's driver reaps only when the browser closes, are counted to the
test they drew for. A daemon that leaves the tree (PostgreSQL under ``pg_ctl``) is not counted;
the last line gives the whole machine's busy CPU over the run, which includes it."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

_costs: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
_current = {"file": None, "usage": None}
MACHINE = "(machine)"  # the key of the whole machine's figures in the controlling process's part


_TICK = os.sysconf("SC_CLK_TCK")


def _living_descendants_cpu() -> float:
    """CPU seconds of this process's living descendants, each with its reaped children's."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # state, ppid, ... utime stime cutime cstime at 11-14
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = sum(map(int, fields[11:15])) / _TICK
    me, total = os.getpid(), 0.0
    for pid, seconds in cpu.items():
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, me):
            ancestor = parents.get(ancestor)
        if ancestor == me:
            total += seconds
    return total


def _machine_busy_cpu() -> float:
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq = map(int, f.readline().split()[1:8])
    return (user + nice + system + irq + softirq) / _TICK


def _usage() -> tuple[float, float, float]:
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime + _living_descendants_cpu(), time.monotonic()


def _count(kind: str) -> None:
    if _current["file"]:
        _costs[_current["file"]][kind] += 1


def _patch_process_starts() -> None:
    plain_popen = subprocess.Popen.__init__

    def popen(self, args, *a, **kw):
        text = " ".join(map(str, args)) if isinstance(args, (list, tuple)) else str(args)
        _count("python_procs" if "python" in text else "other_procs")
        return plain_popen(self, args, *a, **kw)

    subprocess.Popen.__init__ = popen
    import multiprocessing.process

    plain_start = multiprocessing.process.BaseProcess.start

    def start(self):
        _count("mp_procs")
        return plain_start(self)

    multiprocessing.process.BaseProcess.start = start


def pytest_addoption(parser):
    parser.addoption("--suite-costs", default="suite-costs.json", help="where suite_costs writes its figures")


_machine_start: list[float] = []


def pytest_configure(config):
    _patch_process_starts()
    if not hasattr(config, "workerinput"):  # the controlling process (or the only one)
        _machine_start.extend([_machine_busy_cpu(), time.monotonic()])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current["file"] = item.location[0]
    # the last test's end is this one's start: one /proc scan a test, not two (a scan is a few ms
    # with a browser's processes about, and would be counted to the suite)
    before = _current["usage"] or _usage()
    yield
    after = _current["usage"] = _usage()
    entry = _costs[item.location[0]]
    entry["self_cpu"] += after[0] - before[0]
    entry["child_cpu"] += after[1] - before[1]
    entry["wall"] += after[2] - before[2]
    entry["tests"] += 1


def pytest_sessionfinish(session):
    path = Path(session.config.getoption("--suite-costs"))
    part = path.with_name(f"{path.name}.{os.getpid()}")
    costs = {name: dict(entry) for name, entry in _costs.items()}
    if _machine_start:
        costs[MACHINE] = {"busy_cpu": _machine_busy_cpu() - _machine_start[0],
                          "wall": time.monotonic() - _machine_start[1]}
    part.write_text(json.dumps(costs))


def table(path: Path) -> str:
    merged: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for part in path.parent.glob(path.name + ".*"):
        for name, entry in json.loads(part.read_text()).items():
            for key, value in entry.items():
                merged[name][key] += value
    machine = merged.pop(MACHINE, None)
    rows = sorted(merged.items(), key=lambda kv: -(kv[1]["self_cpu"] + kv[1]["child_cpu"]))
    lines = [f"{'file':48} {'tests':>5} {'cpu':>7} {'self':>7} {'child':>7} {'wall':>7} {'py':>3} {'mp':>3}"]
    total = defaultdict(float)
    for name, e in rows:
        cpu = e["self_cpu"] + e["child_cpu"]
        lines.append(f"{name:48} {e['tests']:5.0f} {cpu:7.1f} {e['self_cpu']:7.1f} {e['child_cpu']:7.1f} "
                     f"{e['wall']:7.1f} {e.get('python_procs', 0):3.0f} {e.get('mp_procs', 0):3.0f}")
        for key in ("self_cpu", "child_cpu", "wall"):
            total[key] += e[key]
    lines.append(f"{'total':48} {'':5} {total['self_cpu'] + total['child_cpu']:7.1f} {total['self_cpu']:7.1f} "
                 f"{total['child_cpu']:7.1f} {total['wall']:7.1f}")
    if machine:
        lines.append(f"the machine was busy {machine['busy_cpu']:.0f} CPU s over {machine['wall']:.0f} s "
                     f"({machine['busy_cpu'] / machine['wall']:.2f} cores), collecting, daemons and "
                     "everything else on it included")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(Path(sys.argv[1])))
