"""The fuzzing suite of issue 14: for every input, success or a clean refusal.

The invariant, checked per category with inputs from ``tests/fuzz_strategies.py``:

* every call ends in success or a :class:`ludothek.LudothekError` (with a message); never a
  raw ``ValueError``, ``TypeError``, numba error or a hang;
* a refusal changes nothing: the state's position, ply, history, move texts and legal moves
  (the web game's version and history) are as before;
* whatever :func:`ludothek.dumps` writes, :func:`ludothek.loads` reads back to an equal record,
  and ``replay()`` reaches the same position;
* the command line exits 0, or 2 with an ``error:`` line (no traceback, no usage block);
* the web API answers below 500, a 4xx with a JSON ``{"error": …}``, and websockets answer
  every message without closing.

Each ``check_*`` function takes one case and returns ``"success"`` or ``"refusal"``; it raises
(a :class:`Violation`, or whatever the product raised) when the invariant breaks. The tests run
each with a bounded number of Hypothesis examples; ``benchmarks/fuzz.py`` runs the same checks
for minutes from seeded generators and counts the outcomes.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pickle
import random
import select
import shutil
import signal
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE, LudothekError, Record, RecordError

from .fuzz_strategies import (
    GAMES,
    AgentCase,
    CallCase,
    Chooser,
    CliCase,
    MoveCase,
    PositionCase,
    RandomChooser,
    RecordCase,
    StateSpec,
    WebCase,
    agent_cases,
    call_cases,
    gen_agent_case,
    gen_call_case,
    gen_cli_case,
    gen_move_case,
    gen_position_case,
    gen_record_case,
    gen_web_case,
    legal_now,
    move_cases,
    positions,
    record_cases,
)

SUCCESS, REFUSED = "success", "refusal"


class Violation(AssertionError):
    """The invariant of issue 14 does not hold for this input."""


class Hang(BaseException):
    """No answer within the time limit (a BaseException, so no ``except Exception`` in the
    product or in click's CliRunner swallows it)."""


def expect(condition: Any, message: str) -> None:
    if not condition:
        raise Violation(message)


def refusal(exc: BaseException) -> str:
    """A clean refusal: a LudothekError with a message."""
    expect(isinstance(exc, LudothekError), f"not a LudothekError: {exc!r}")
    expect(isinstance(str(exc), str) and str(exc).strip(), f"a refusal without a message: {exc!r}")
    return REFUSED


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` (a no-op in other threads).
    Native code (a numba kernel) is only interrupted when it returns; see :func:`in_child`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def in_child(function: Callable[[], str], seconds: float) -> str:
    """Run ``function`` in a forked child and return its outcome; a child that does not
    answer within ``seconds`` (stuck in a compiled kernel, say) is killed: :class:`Hang`.
    A violation or crash in the child is raised here with the child's traceback."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into the caller's stack
        try:
            os.close(read_end)
            signal.setitimer(signal.ITIMER_REAL, 0)
            try:
                answer: tuple = ("ok", function())
            except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
                answer = ("raised", type(exc).__name__, isinstance(exc, (Violation, AssertionError)),
                          "".join(traceback.format_exception(exc)))
            data = pickle.dumps(answer)
            while data:
                data = data[os.write(write_end, data):]
        finally:
            os._exit(0)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([read_end], [], [], max(0.0, left))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                raise Hang(f"no answer within {seconds} s (the child process was killed)")
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    if not chunks:
        raise Violation("the child process died without an answer (a crash in native code?)")
    answer = pickle.loads(b"".join(chunks))
    if answer[0] == "ok":
        return answer[1]
    _, name, is_violation, text = answer
    raise Violation(f"{'violation' if is_violation else name} in the child process:\n{text}")


# ============================================================================ state snapshots
def snapshot(state: ludothek.GameState) -> dict[str, Any]:
    """What must not change when a call is refused."""
    over = state.is_over()
    return {
        "position": state.position(),
        "ply": state.ply,
        "history": list(state.history),
        "move_texts": list(state.move_texts),
        "over": over,
        "result": state.result(),
        "player": state.current_player(),
        "key": state.key(),
        "legal": [] if over else list(legal_now(state)),
    }


def same(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [name for name in before if not _equal(before[name], after[name])]


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (ValueError, TypeError):  # arrays inside keys
        return repr(a) == repr(b)


def expect_unchanged(state: ludothek.GameState, before: dict[str, Any], what: str) -> None:
    after = snapshot(state)
    changed = same(before, after)
    expect(not changed, f"{what} changed the state ({', '.join(changed)}): "
                        + "; ".join(f"{n}: {before[n]!r:.120} -> {after[n]!r:.120}" for n in changed))


def is_integer(value: Any) -> bool:
    """A whole number as Python and NumPy know it (an int, a NumPy integer or a 0-d integer
    array, all with ``__index__``), but not a bool."""
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and np.issubdtype(value.dtype, np.integer)
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


# ============================================================================ 1. positions
def check_position(case: PositionCase) -> str:
    try:
        with time_limit(20):
            state = ludothek.new_game(case.game, position=case.text, **dict(case.options))
    except LudothekError as exc:
        return refusal(exc)
    canon = state.position()
    expect(isinstance(canon, str), f"position() is not text: {canon!r}")
    again = ludothek.new_game(case.game, position=canon, **dict(case.options))
    expect(again.position() == canon, f"the canonical position {canon!r} reads back as {again.position()!r}")
    if not state.is_over():
        state.legal_moves()
    state.summary()
    check_round_trip(Record.from_state(state), "the record of an accepted position")
    # a few legal moves from the accepted position: its record must round-trip too
    rng = random.Random(repr(case))
    for _ in range(3):
        if state.is_over():
            break
        state.play(rng.choice(legal_now(state)))
    check_round_trip(Record.from_state(state), "the record of moves from an accepted position")
    return SUCCESS


def check_round_trip(record: Record, what: str) -> str:
    """``dumps`` may refuse ``record``; what it writes, ``loads`` reads back equal."""
    try:
        text = ludothek.dumps(record)
    except LudothekError as exc:
        return refusal(exc)
    expect(isinstance(text, str), f"dumps wrote {type(text).__name__}, not text")
    try:
        back = ludothek.loads(text)
    except LudothekError as exc:
        raise Violation(f"{what}: loads refuses what dumps wrote: {exc}\n--- text ---\n{text[:2000]}") from None
    if back != record:
        fields = [f for f in ("game", "options", "moves", "result", "position", "tags")
                  if getattr(back, f) != getattr(record, f)]
        raise Violation(f"{what}: loads(dumps(record)) differs in {', '.join(fields)}: "
                        + "; ".join(f"{f}: {getattr(record, f)!r:.200} -> {getattr(back, f)!r:.200}" for f in fields))
    expect(back.replay().position() == record.replay().position(),
           f"{what}: the record read back replays to another position")
    return SUCCESS


# ============================================================================ 2. moves
def check_move(case: MoveCase) -> str:
    state = case.spec.build()
    before = snapshot(state)
    try:
        with time_limit(20):
            state.play(case.move)
    except LudothekError as exc:
        refusal(exc)
        expect_unchanged(state, before, f"the refused move {case.move!r}")
        return REFUSED
    expect(state.ply > before["ply"], f"the move {case.move!r} was accepted but nothing was played")
    while state.ply > before["ply"]:
        state.undo()
    expect_unchanged(state, before, f"playing {case.move!r} and taking it back")
    return SUCCESS


# ============================================================================ 3. records
TMP = tempfile.mkdtemp(prefix="ludothek-fuzz-")


def _remove_tmp() -> None:
    shutil.rmtree(TMP, ignore_errors=True)


atexit.register(_remove_tmp)


def check_record(case: RecordCase) -> str:
    if case.kind in ("object", "edited"):
        state = case.spec.build()
        tags = dict(case.tags)
        try:
            record = Record.from_state(state, result=case.result)
            record.tags.update(tags)
            if case.moves is not None:
                record.moves = list(case.moves)
            if case.position is not None:
                record.position = case.position
        except LudothekError as exc:
            return refusal(exc)
        return check_round_trip(record, f"a record ({case.kind})")
    if case.kind == "dump":
        return check_dump(case)
    descriptor = None
    try:
        with time_limit(30):
            if case.kind == "file":
                path: Any = os.path.join(TMP, f"record-{os.getpid()}.ludo")
                with open(path, "wb") as handle:
                    handle.write(case.data or b"")
                if case.path == "not text":  # a number: a file descriptor of ours, which load must not use
                    descriptor = path = os.open(path, os.O_RDONLY)
                else:
                    path = {"file": path, "missing": path + ".missing", "directory": TMP, "nul": path + "\x00"}[case.path]
                record = ludothek.load(path)
                expect(descriptor is None, f"load({descriptor}) read a record from an open file descriptor")
            else:
                record = ludothek.loads(case.text)
    except RecordError as exc:
        refusal(exc)
        if case.kind == "text" or case.path == "file":  # a problem in the text: name its line
            expect(exc.line is not None, f"the RecordError names no line: {exc}")
        return REFUSED
    except LudothekError as exc:
        raise Violation(f"load(s) raised {type(exc).__name__}, not a RecordError: {exc}") from None
    finally:
        if descriptor is not None:
            try:
                os.fstat(descriptor)
            except OSError:
                raise Violation(f"load({descriptor}) closed file descriptor {descriptor}, which it did not open") from None
            os.close(descriptor)
    state = record.replay()
    expect(isinstance(state.position(), str), "the loaded record does not replay")
    try:
        text = ludothek.dumps(record)
    except LudothekError as exc:
        raise Violation(f"dumps refuses a record that loads accepted: {exc}") from None
    check_round_trip(record, "a loaded record")
    expect(ludothek.loads(text).replay().position() == state.position(), "the record written back replays elsewhere")
    return SUCCESS


def check_dump(case: RecordCase) -> str:
    """``dump`` writes a record file that ``load`` reads back equal, or refuses the path with a
    LudothekError; it never writes into a file descriptor it was handed as a number."""
    state = case.spec.build()
    try:
        record = Record.from_state(state)
        record.tags.update(dict(case.tags))
        ludothek.dumps(record)
    except LudothekError as exc:
        return refusal(exc)
    folder = tempfile.mkdtemp(dir=TMP)
    target: Any = os.path.join(folder, "game.ludo")
    descriptor = None
    if case.path == "missing folder":
        target = os.path.join(folder, "no", "such", "game.ludo")
    elif case.path == "directory":
        target = folder
    elif case.path == "nul":
        target = os.path.join(folder, "ga\x00me.ludo")
    elif case.path == "odd name":
        target = os.path.join(folder, "gäme ²\u2028\t.ludo")
    elif case.path == "not text":
        descriptor = target = os.open(os.path.join(folder, "mine"), os.O_RDWR | os.O_CREAT)
    try:
        try:
            with time_limit(30):
                ludothek.dump(record, target)
        except LudothekError as exc:
            return refusal(exc)
        finally:
            if descriptor is not None:
                try:
                    written = os.fstat(descriptor).st_size
                except OSError:
                    raise Violation(f"dump closed file descriptor {descriptor}, which it did not open") from None
                os.close(descriptor)
                expect(written == 0, f"dump wrote {written} bytes into file descriptor {descriptor}")
        back = ludothek.load(target)
        expect(back == record, "load(dump(record)) is not the record")
        return SUCCESS
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ============================================================================ 4. state API calls
def check_call(case: CallCase) -> str:
    if case.method in ("perft", "random_playouts"):
        return in_child(lambda: _check_call(case), 10)
    with time_limit(20):
        return _check_call(case)


def _check_call(case: CallCase) -> str:
    state = case.spec.build()
    before = snapshot(state)
    method, args = case.method, case.args
    legal = [] if state.is_over() else legal_now(state)
    if method == "new_game":
        position, options = args
        try:
            fresh = ludothek.new_game(state.name, position=position, **dict(options))
        except LudothekError as exc:
            return refusal(exc)
        expect(isinstance(fresh.position(), str), "new_game made a state without a position")
        return SUCCESS
    if method == "apply_action" and args and is_integer(args[0]) and 0 <= int(args[0]) < state.num_actions \
            and int(args[0]) not in legal:
        method = "play"  # apply_action does not check legality (documented): fuzz play instead
    try:
        result = getattr(state, method)
        if callable(result):
            result = result(*args)
    except LudothekError as exc:
        refusal(exc)
        expect_unchanged(state, before, f"the refused call {case!r}")
        if method in ("play", "apply_action") and args and is_integer(args[0]) and int(args[0]) in legal:
            raise Violation(f"{method}({type(args[0]).__name__}({int(args[0])})) refused a legal action: {exc}")
        if method == "undo":
            expect(before["ply"] == 0, f"undo refused with {before['ply']} plies played: {exc}")
        if method in ("legal_moves", "legal_actions", "summary", "render", "position", "key", "copy", "result"):
            raise Violation(f"{method}() refused on a reachable state: {exc}")
        return REFUSED
    arg = args[0] if args else None
    if method in ("play", "apply_action"):
        expect(state.ply == before["ply"] + 1 or isinstance(arg, str),
               f"{method}({arg!r}) succeeded but ply went {before['ply']} -> {state.ply}")
        expect(is_integer(arg) or isinstance(arg, str), f"{method} accepted {type(arg).__name__} {arg!r}")
        if is_integer(arg):
            expect(int(arg) in legal, f"{method}({arg!r}) accepted an action that was not legal")
        while state.ply > before["ply"]:
            state.undo()
        expect_unchanged(state, before, f"{method}({arg!r}) and undo")
        return SUCCESS
    if method == "undo":
        expect(before["ply"] > 0, "undo succeeded with nothing to undo")
        return SUCCESS
    if method == "perft":
        expect(is_integer(result) and int(result) >= 0, f"perft({arg!r}) returned {result!r}")
        expect(not (is_integer(arg) and int(arg) < 0), f"perft({arg!r}) accepted a negative depth: {result!r}")
    elif method == "action_to_str":
        expect(isinstance(result, str) and result, f"action_to_str({arg!r}) returned {result!r}")
        if is_integer(arg):
            expect(0 <= int(arg) < state.num_actions,
                   f"action_to_str({arg!r}) named an action outside 0 … {state.num_actions - 1}: {result!r}")
    elif method == "is_legal":
        expect(isinstance(result, (bool, np.bool_)), f"is_legal({arg!r}) returned {result!r}")
        expect(result == (is_integer(arg) and int(arg) in legal), f"is_legal({arg!r}) = {result} is wrong")
    elif method == "parse_move":
        expect(is_integer(result) and int(result) in legal, f"parse_move({arg!r}) = {result!r}, not a legal action")
    elif method == "parse_token":
        expect(isinstance(result, list) and result and int(result[0]) in legal,
               f"parse_token({arg!r}) = {result!r}, not legal here")
    elif method == "random_playouts":
        expect(isinstance(result, tuple) and len(result) == 2 and all(is_integer(x) for x in result),
               f"random_playouts{args!r} returned {result!r}")
    elif method == "copy":
        expect(result == state and result is not state, "copy() is not an equal, separate state")
    expect_unchanged(state, before, f"{case!r}")
    return SUCCESS


# ============================================================================ 5. agents
def check_agent(case: AgentCase) -> str:
    from ludothek.ai.base import make_agent

    state = case.spec.build()
    before = snapshot(state)
    try:
        agent = make_agent(case.agent, state.name, seed=case.seed)
    except LudothekError as exc:
        return refusal(exc)
    if not case.choose:
        return SUCCESS
    try:
        with time_limit(60):
            action = agent.choose(state)
    except LudothekError as exc:
        refusal(exc)
        expect_unchanged(state, before, f"agent {case.agent!r} refusing to move")
        return REFUSED
    expect_unchanged(state, before, f"agent {case.agent!r} choosing a move")
    expect(not before["over"], f"agent {case.agent!r} chose {action!r} in a finished game")
    expect(before["player"] != CHANCE, f"agent {case.agent!r} chose {action!r} at a chance node")
    expect(is_integer(action) and int(action) in before["legal"], f"agent {case.agent!r} chose {action!r}, not legal")
    return SUCCESS


# ============================================================================ 6. the command line
def check_cli(case: CliCase) -> str:
    from click.testing import CliRunner

    from ludothek.cli import main

    runner = CliRunner()
    with runner.isolated_filesystem(temp_dir=TMP):
        for name, data in case.files:
            with open(name, "wb") as handle:
                handle.write(data)
        with time_limit(60), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = runner.invoke(main, list(case.args), input=case.stdin, catch_exceptions=True,
                                   env={"LUDOTHEK_LANG": case.lang, "LANG": case.lang})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        text = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else repr(result.exception)
        raise Violation(f"exit status {result.exit_code} with {result.exception!r}\n{text}")
    output = result.output
    lines = output.splitlines()
    expect(result.exit_code in (0, 2), f"exit status {result.exit_code}; output:\n{output[-1500:]}")
    if result.exit_code == 2:
        # one rule in every language: the prefix is "error: ", the message after it translated
        errors = [line for line in lines if line.startswith("error: ")]
        expect(len(errors) == 1, f"exit status 2 without one 'error: ' line ({case.lang or 'no'} locale):\n"
                                 f"{output[-1500:]}")
        expect(not any(line.startswith("Usage:") for line in lines), f"a usage block instead of one line:\n{output[-1500:]}")
        return REFUSED
    return SUCCESS


# ============================================================================ 7. the web API
class WebHarness:
    """The web app on a temporary SQLite file with a few games of every kind ("slots") that
    the fuzzed requests aim at. Refusals are checked against each slot's version and history."""

    KINDS = ("hotseat", "bot", "friend", "waiting")

    def __init__(self, client: Any):
        self.client = client
        self.slots: list[dict[str, Any]] = []
        self.sentinel = 0
        for game in GAMES:
            for kind in self.KINDS:
                self.slots.append(self._new_slot(game, kind))

    # ------------------------------------------------------------------ games
    def _new_slot(self, game: str, kind: str) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "start": "fixed"}
        if game == "trike":
            body["options"] = {"size": 7}
        if game == "hexalit":
            body["options"] = {"cube": True}
        if kind == "bot":
            body.update(opponent="bot", bot="random", seat=0)
        elif kind in ("friend", "waiting"):
            body.update(opponent="friend", seat=0)
        response = self.client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        slot = {"game": game, "kind": kind, "id": created["id"], "tokens": [created["token"]],
                "invite": created.get("invite"), "human": 0, "view": created["game"]}
        if kind == "friend":
            joined = self.client.post(f"/api/games/{slot['id']}/join", json={"invite": created["invite"]})
            assert joined.status_code == 200, joined.text
            slot["tokens"].append(joined.json()["token"])
            slot["invite"] = None
        slot["view"] = self.settled(slot)
        return slot

    def renew(self) -> None:
        """Replace finished games by fresh ones so that moves keep meeting live games."""
        for index, slot in enumerate(self.slots):
            view = slot.get("view") or {}
            if view.get("status") == "over" or view.get("rematch"):
                self.slots[index] = self._new_slot(slot["game"], slot["kind"])

    def view(self, slot: dict[str, Any]) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{slot['id']}")
        expect(response.status_code == 200, f"GET of game {slot['id']} answered {response.status_code}: {response.text[:300]}")
        return response.json()["game"]

    def settled(self, slot: dict[str, Any], seconds: float = 15.0) -> dict[str, Any]:
        """The slot's view once no bot is about to move (bots move by themselves)."""
        deadline = time.monotonic() + seconds
        while True:
            view = self.view(slot)
            if slot["kind"] != "bot" or view["status"] != "ongoing" or view.get("to_seat") == slot["human"]:
                return view
            if time.monotonic() > deadline:
                raise Violation(f"the bot of game {slot['id']} did not move within {seconds} s")
            time.sleep(0.02)

    # ------------------------------------------------------------------ checks
    def check(self, case: WebCase) -> str:
        slot = self.slots[case.slot]
        before = self.settled(slot)
        with time_limit(60):
            if case.kind == "ws":
                outcome = self._websocket(case)
            else:
                outcome = self._request(case, before)
        after = self.settled(slot)
        if outcome == REFUSED:
            for name in ("version", "history", "status", "position"):
                expect(_equal(before.get(name), after.get(name)),
                       f"a refused {case.kind} changed the game's {name}: {before.get(name)!r:.200} -> "
                       f"{after.get(name)!r:.200}")
        slot["view"] = after
        return outcome

    def _request(self, case: WebCase, before: dict[str, Any]) -> str:
        headers = dict(case.headers)
        if case.body is not None:
            headers.setdefault("content-type", "application/json")
        response = self.client.request(case.method, case.path, params=list(case.params), content=case.body,
                                       headers=headers)
        status = response.status_code
        expect(status < 500, f"HTTP {status}: {response.text[:500]}")
        if status >= 400:
            try:
                body = response.json()
            except ValueError:
                raise Violation(f"HTTP {status} without a JSON body: {response.text[:300]!r}") from None
            expect(isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"],
                   f"HTTP {status} without an error message: {response.text[:300]!r}")
            return REFUSED
        if case.kind == "record":
            record = ludothek.loads(response.text)  # the server's record must read back
            check_round_trip(record, "the server's record")
        return SUCCESS

    def _websocket(self, case: WebCase) -> str:
        from starlette.websockets import WebSocketDisconnect

        self.sentinel += 1
        sentinel = f"sentinel-{self.sentinel}"
        outcomes: list[str] = []
        with self.client.websocket_connect(case.path) as ws:
            first = self._receive(ws)
            if first.get("type") == "error":  # no such game: an error, then the socket closes
                self._check_error(first)
                return REFUSED
            expect(first.get("type") == "state", f"the first websocket message is {first!r:.200}")
            for message in case.messages:
                if isinstance(message, bytes):
                    ws.send_bytes(message)
                else:
                    ws.send_text(message)
            ws.send_text(json.dumps({"type": "ping", "ref": sentinel}))
            while True:
                try:
                    reply = self._receive(ws)
                except WebSocketDisconnect as exc:
                    raise Violation(f"the server closed the websocket ({exc.code}) after {case.messages!r:.300}") from None
                kind = reply.get("type")
                if kind == "pong" and reply.get("ref") == sentinel:
                    break
                if kind == "error":
                    self._check_error(reply)
                    outcomes.append(REFUSED)
                elif kind == "ok":
                    outcomes.append(SUCCESS)
        if SUCCESS in outcomes or not outcomes:
            return SUCCESS
        return REFUSED

    @staticmethod
    def _receive(ws: Any) -> dict[str, Any]:
        from starlette.websockets import WebSocketDisconnect

        message = ws.receive()
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8")
        data = json.loads(text)
        expect(isinstance(data, dict), f"a websocket message that is not an object: {text[:200]!r}")
        return data

    @staticmethod
    def _check_error(reply: dict[str, Any]) -> None:
        status = reply.get("status")
        expect(isinstance(status, int) and 400 <= status < 500, f"a websocket error with status {status!r}: {reply!r:.300}")
        expect(isinstance(reply.get("error"), str) and reply["error"], f"a websocket error without a message: {reply!r:.300}")


@contextlib.contextmanager
def web_harness(directory: str | None = None) -> Iterator[WebHarness]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludothek.web import create_app

    directory = directory or tempfile.mkdtemp(prefix="ludothek-fuzz-web-", dir=TMP)
    app = create_app(os.path.join(directory, "fuzz.sqlite3"), bot_executor="thread", rate_limits="off")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app, raise_server_exceptions=True) as client:
            yield WebHarness(client)


def check_web(case: WebCase, harness: WebHarness) -> str:
    return harness.check(case)


# ============================================================================ the categories
@dataclass(frozen=True)
class Category:
    """One fuzzing category: how to make a case and how to check it. ``context`` (for the web)
    makes what both need; the others need nothing."""

    name: str
    generate: Callable[[Chooser, Any], Any]
    check: Callable[[Any, Any], str]
    context: Callable[[], contextlib.AbstractContextManager] | None = None


def _plain(generator: Callable[[Chooser, str | None], Any]) -> Callable[[Chooser, Any], Any]:
    return lambda ch, _context: generator(ch, None)


def _web_generate(ch: Chooser, harness: WebHarness) -> WebCase:
    harness.renew()
    return gen_web_case(ch, harness.slots)


CATEGORIES: dict[str, Category] = {
    "positions": Category("positions", _plain(gen_position_case), lambda c, _: check_position(c)),
    "moves": Category("moves", _plain(gen_move_case), lambda c, _: check_move(c)),
    "records": Category("records", _plain(gen_record_case), lambda c, _: check_record(c)),
    "state_api": Category("state_api", _plain(gen_call_case), lambda c, _: check_call(c)),
    "agents": Category("agents", _plain(gen_agent_case), lambda c, _: check_agent(c)),
    "cli": Category("cli", _plain(gen_cli_case), lambda c, _: check_cli(c)),
    "web": Category("web", _web_generate, check_web, web_harness),
}


def warm_up() -> None:
    """Compile (or load) every game's kernels and the cheap bots once, so that no example
    pays for it (and no time limit is spent on a compile)."""
    from ludothek.ai.base import make_agent

    for game in GAMES:
        state = ludothek.new_game(game)
        state.perft(1)
        state.random_playouts(1, 1)
        while state.current_player() == CHANCE:  # a game may open with a roll
            state.play(state.legal_actions()[0])
        for spec in ("random", "bot:1"):
            make_agent(spec, game, seed=1).choose(state)


# ============================================================================ the tests
FUZZ = settings(
    deadline=None,
    report_multiple_bugs=False,  # shrink one failure, not each kind (benchmarks/fuzz.py surveys them all)
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture],
)


def fuzz(examples: int) -> settings:
    return settings(FUZZ, max_examples=examples)


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm_up()


@pytest.mark.parametrize("game", GAMES)
@fuzz(300)
@given(case=st.data())
def test_positions(game: str, case: Any) -> None:
    check_position(case.draw(positions(game), label="case"))


@pytest.mark.parametrize("game", GAMES)
@fuzz(300)
@given(case=st.data())
def test_moves(game: str, case: Any) -> None:
    check_move(case.draw(move_cases(game), label="case"))


@pytest.mark.parametrize("game", GAMES)
@fuzz(250)
@given(case=st.data())
def test_records(game: str, case: Any) -> None:
    """Records of played games with odd tags and results, mutated record text, files to load
    and paths to dump to."""
    check_record(case.draw(record_cases(game, ("object", "text", "file", "dump")), label="case"))


@pytest.mark.parametrize("game", GAMES)
@fuzz(60)
@given(case=st.data())
def test_edited_records(game: str, case: Any) -> None:
    """Record objects edited after Record.from_state (a move, the setup position): dumps must
    refuse what loads would refuse, or write what reads back equal."""
    check_record(case.draw(record_cases(game, ("edited",)), label="case"))


@pytest.mark.parametrize("game", GAMES)
@fuzz(150)
@given(case=st.data())
def test_state_api(game: str, case: Any) -> None:
    check_call(case.draw(call_cases(game), label="case"))


@pytest.mark.parametrize("game", GAMES)
@fuzz(80)
@given(case=st.data())
def test_agents(game: str, case: Any) -> None:
    check_agent(case.draw(agent_cases(game), label="case"))


@pytest.fixture(scope="module")
def web() -> Iterator[WebHarness]:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with web_harness() as harness:
        yield harness


@fuzz(600)
@given(seed=st.integers(0, 2**32 - 1))
def test_web(web: WebHarness, seed: int) -> None:
    """Requests depend on the games' current state (their legal moves), which earlier examples
    changed, so Hypothesis only draws a seed here (its choices could not replay or shrink)."""
    web.renew()
    case = gen_web_case(RandomChooser(seed), web.slots)
    note(repr(case))
    check_web(case, web)


# ---------------------------------------------------------------------------- the checks can fail
# Each check is run once on a fixed input with a bug planted in the product (monkeypatch), and
# must report it: a property that cannot fail tests nothing.
def _trike(actions: tuple[int, ...] = ()) -> StateSpec:
    return StateSpec("trike", (("size", 7),), actions)


def _play_then_refuse(self: Any, text: str) -> list[int]:
    self._play_action(self.legal_actions()[0])
    raise ludothek.IllegalMove("planted")


def _plant_raw_error(monkeypatch: pytest.MonkeyPatch, target: Any, name: str) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("planted")

    monkeypatch.setattr(target, name, broken)


PLANTED: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], Callable[[], str]]] = {
    # a raw ValueError from position parsing
    "positions": (
        lambda mp: _plant_raw_error(mp, ludothek.game_class("trike"), "_setup_position"),
        lambda: check_position(PositionCase("trike", "1/2/3/4/5/6/7 b")),
    ),
    # a refused move that leaves a stone behind
    "moves": (
        lambda mp: mp.setattr(ludothek.game_class("trike"), "parse_token", _play_then_refuse),
        lambda: check_move(MoveCase(_trike(), "zz")),
    ),
    # dumps writes a tag value without escaping its quotes
    "records": (
        lambda mp: mp.setattr("ludothek.core.record._quote", lambda value: value),
        lambda: check_record(RecordCase("object", _trike(), tags=(("Event", 'say "hi"'),))),
    ),
    # action_to_str answers with something that is not notation
    "state_api": (
        lambda mp: mp.setattr(ludothek.game_class("trike"), "action_to_str", lambda self, action: None),
        lambda: check_call(CallCase(_trike(), "action_to_str", (0,))),
    ),
    # an agent that answers with an action that is not legal
    "agents": (
        lambda mp: mp.setattr("ludothek.ai.base.RandomAgent.choose", lambda self, state: -1),
        lambda: check_agent(AgentCase(_trike(), "random", 1)),
    ),
    # a verb that crashes
    "cli": (
        lambda mp: _plant_raw_error(mp, ludothek.game_class("trike"), "legal_moves"),
        lambda: check_cli(CliCase(("moves", "trike", "--size", "7"))),
    ),
}


@pytest.mark.parametrize("category", sorted(PLANTED))
def test_the_checks_catch_a_planted_bug(category: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plant, run = PLANTED[category]
    assert run() in (SUCCESS, REFUSED)  # the product as it is passes this input
    plant(monkeypatch)
    with pytest.raises((Violation, ValueError)):
        run()


def test_the_web_check_catches_a_planted_bug(web: WebHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    slot = next(i for i, s in enumerate(web.slots) if s["kind"] == "hotseat" and s["game"] == "trike")
    web.slots[slot]["view"] = web.settled(web.slots[slot])
    case = WebCase("preview", slot, "GET", "/api/preview", params=(("game", "trike"), ("position", "1/2/3/4/5/6/7 b")))
    assert web.check(case) == SUCCESS
    _plant_raw_error(monkeypatch, ludothek.game_class("trike"), "_setup_position")
    with pytest.raises((Violation, ValueError)):
        web.check(case)
