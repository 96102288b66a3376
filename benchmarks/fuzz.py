"""Fuzz Ludothek for a while: the properties of ``tests/test_fuzz.py`` on seeded random inputs.

    python benchmarks/fuzz.py --minutes 2                        # every category, time shared
    python benchmarks/fuzz.py --minutes 10 --category web --category cli
    python benchmarks/fuzz.py --replay records:1234 --seed 1     # one input again, in full

Inputs come from the generators of ``tests/fuzz_strategies.py`` driven by ``random.Random``
(no Hypothesis), each seeded by (seed, category, index), so a violation is reproduced by its
index. The categories take turns in slices of a few seconds. A progress line is printed every
``--every`` seconds; at the end, per category: inputs tried, successes, clean refusals and
violations, then the distinct violations (grouped by where they were raised) and the first
few in full (input and traceback). Exit status 1 if there was any violation.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import os
import random
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fuzz_strategies import RandomChooser
from tests.test_fuzz import CATEGORIES, REFUSED, SUCCESS, Violation, warm_up

SLICE_SECONDS = 3.0
#: last resort against a hang that no signal can interrupt (native code): dump and exit
HARD_LIMIT_SECONDS = 300


@dataclass
class Tally:
    tried: int = 0
    successes: int = 0
    refusals: int = 0
    violations: int = 0
    seconds: float = 0.0
    #: the first violation of each signature, in the order found
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    signatures: Counter = field(default_factory=Counter)


def chooser(seed: int, category: str, index: int) -> RandomChooser:
    return RandomChooser(random.Random(f"{seed}/{category}/{index}"))


def signature(exc: BaseException) -> str:
    """Where a violation comes from: the exception type, the innermost frame in ludothek or
    the check, and (for a Violation) the start of its message without the input's details."""
    frames = traceback.extract_tb(exc.__traceback__)
    place = ""
    for frame in reversed(frames):
        if "/ludothek/" in frame.filename:
            place = f"{os.path.relpath(frame.filename, ROOT)}:{frame.lineno} in {frame.name}"
            break
    message = str(exc).split("\n", 1)[0]
    if isinstance(exc, Violation):
        message = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "…", message)[:90]
        return f"Violation: {message}" + (f" [{place}]" if place else "")
    return f"{type(exc).__name__} at {place or 'test code'}"


def run_one(name: str, index: int, seed: int, context: Any, tally: Tally) -> None:
    category = CATEGORIES[name]
    case: Any = None
    started = time.perf_counter()
    faulthandler.dump_traceback_later(HARD_LIMIT_SECONDS, exit=True)
    try:
        try:
            case = category.generate(chooser(seed, name, index), context)
        except Exception as exc:
            raise Violation(f"while making the input: {exc!r}") from exc
        outcome = category.check(case, context)
        if outcome == SUCCESS:
            tally.successes += 1
        elif outcome == REFUSED:
            tally.refusals += 1
        else:
            raise Violation(f"the check answered {outcome!r}")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - every other exception is a violation
        tally.violations += 1
        sig = signature(exc)
        tally.signatures[sig] += 1
        if sig not in tally.examples:
            tally.examples[sig] = {
                "index": index, "case": _shown(case), "signature": sig,
                "traceback": "".join(traceback.format_exception(exc)),
            }
    finally:
        faulthandler.cancel_dump_traceback_later()
        tally.tried += 1
        tally.seconds += time.perf_counter() - started


def _shown(case: Any) -> str:
    text = repr(case)
    text = re.sub(r"(.)\1{30,}", lambda m: f"{m.group(1)!r}×{len(m.group(0))}", text)
    return text if len(text) < 3000 else text[:3000] + f"… <{len(text)} characters>"


def progress(started: float, tallies: dict[str, Tally]) -> str:
    parts = [f"{name} {t.tried}/{t.violations}v" for name, t in tallies.items()]
    return f"[{time.monotonic() - started:6.0f} s] " + "  ".join(parts)


def report(tallies: dict[str, Tally], seed: int, show: int) -> int:
    print()
    print(f"{'category':<10} {'inputs':>8} {'success':>8} {'refused':>8} {'violations':>10} {'inputs/s':>9}")
    for name, t in tallies.items():
        rate = t.tried / t.seconds if t.seconds else 0.0
        print(f"{name:<10} {t.tried:>8} {t.successes:>8} {t.refusals:>8} {t.violations:>10} {rate:>9.1f}")
    total = sum(t.violations for t in tallies.values())
    if not total:
        print("\nno violations")
        return 0
    print("\ndistinct violations (count, category, where):")
    for name, t in tallies.items():
        for sig, count in t.signatures.most_common():
            print(f"  {count:>6}  {name:<10} {sig}")
    print(f"\nthe first violation of each kind (reproduce one with --seed {seed} --replay CATEGORY:INDEX):")
    shown = 0
    for name, t in tallies.items():
        for found in t.examples.values():
            print(f"\n--- {name}:{found['index']}  {found['signature']}")
            print(f"input: {found['case']}")
            if shown < show:
                print(found["traceback"].rstrip())
            else:  # only the last lines of the rest
                print("\n".join(found["traceback"].rstrip().splitlines()[-3:]))
            shown += 1
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="How long to fuzz (all categories together).")
    parser.add_argument("--category", action="append", choices=sorted(CATEGORIES),
                        help="A category to fuzz (repeatable; default: all).")
    parser.add_argument("--seed", type=int, default=None, help="Seed of the inputs (default: from the clock).")
    parser.add_argument("--every", type=float, default=15.0, help="Seconds between progress lines.")
    parser.add_argument("--show", type=int, default=8,
                        help="Kinds of violation whose traceback is printed in full (the rest: the last lines).")
    parser.add_argument("--replay", metavar="CATEGORY:INDEX", help="Check one input again and print it.")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time()) % 100_000
    names = args.category or list(CATEGORIES)
    if args.replay:
        name, _, index = args.replay.partition(":")
        names = [name]
    print(f"fuzzing {', '.join(names)} for {args.minutes:g} min, seed {seed}; warming up …", flush=True)
    warm_up()
    tallies = {name: Tally() for name in names}
    stack = contextlib.ExitStack()
    contexts = {name: stack.enter_context(CATEGORIES[name].context()) if CATEGORIES[name].context else None
                for name in names}
    try:
        if args.replay:
            case = CATEGORIES[name].generate(chooser(seed, name, int(index)), contexts[name])
            print(f"input: {_shown(case)}")
            run_one(name, int(index), seed, contexts[name], tallies[name])
            return report(tallies, seed, 1)
        started = time.monotonic()
        end = started + args.minutes * 60
        last = started
        try:
            while time.monotonic() < end:
                for name in names:
                    slice_end = min(end, time.monotonic() + SLICE_SECONDS)
                    while time.monotonic() < slice_end:
                        run_one(name, tallies[name].tried, seed, contexts[name], tallies[name])
                    if time.monotonic() - last >= args.every:
                        last = time.monotonic()
                        print(progress(started, tallies), flush=True)
                    if time.monotonic() >= end:
                        break
        except KeyboardInterrupt:
            print("\ninterrupted", flush=True)
        print(progress(started, tallies), flush=True)
        return report(tallies, seed, args.show)  # before the teardown, which a violation may have broken
    finally:
        sys.stdout.flush()
        faulthandler.dump_traceback_later(60, exit=True)  # a teardown that hangs must not hang the run
        stack.close()
        faulthandler.cancel_dump_traceback_later()

if __name__ == "__main__":
    sys.exit(main())
