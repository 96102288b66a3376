"""Cross-process notifications over a real PostgreSQL (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("psycopg")

from sqlalchemy import create_engine, text

from ludothek.web.notify import CHANNEL, ORIGIN, PgListener, conninfo, is_postgres, notify_statement

OTHER = "another-process"


def test_urls():
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgresql+psycopg://u@/db?host=/tmp/s")
    assert is_postgres("postgresql+psycopg2://u@h/db")
    assert not is_postgres("sqlite:///x.sqlite3") and not is_postgres("ludothek.sqlite3") and not is_postgres("")
    info = conninfo("postgresql+psycopg://root@/ludothek?host=/tmp/sock%20dir")
    assert "dbname=ludothek" in info and "user=root" in info and "host='/tmp/sock dir'" in info
    info = conninfo("postgresql+psycopg2://a%40b:p%3Aw@db.example:5433/x?sslmode=require")
    assert all(part in info for part in ("user=a@b", "password=p:w", "host=db.example", "port=5433", "sslmode=require"))


def test_statement_payload():
    statement = notify_statement("abc-_9", 7)
    assert statement.compile().params == {"channel": CHANNEL, "payload": f"abc-_9:7:{ORIGIN}"}


class Recorder:
    def __init__(self):
        self.changes: list[tuple[str, int, float]] = []
        self.resyncs = 0

    async def on_change(self, game_id: str, version: int) -> None:
        self.changes.append((game_id, version, time.monotonic()))

    def on_resync(self) -> None:  # a plain function works too
        self.resyncs += 1

    async def wait(self, condition, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True


@pytest.fixture()
def engine(postgres_url):
    engine = create_engine(postgres_url)
    yield engine
    engine.dispose()


def listen(postgres_url, engine, body):
    """Run ``body(listener, recorder, send)`` with a started listener."""
    async def main():
        recorder = Recorder()
        listener = PgListener(postgres_url, recorder.on_change, recorder.on_resync)
        await listener.start()
        try:
            await body(listener, recorder, lambda *args, **kw: asyncio.to_thread(send, engine, *args, **kw))
        finally:
            await listener.stop()
    asyncio.run(main())


def send(engine, game_id: str, version: int, origin: str = OTHER, commit: bool = True) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))  # the same transaction also writes, in the store
        conn.execute(notify_statement(game_id, version, origin=origin))
        conn.commit() if commit else conn.rollback()


def test_a_committed_change_arrives_within_a_second(postgres_url, engine):
    async def body(listener, recorder, send):
        sent = time.monotonic()
        await send("game1", 3)
        assert await recorder.wait(lambda: recorder.changes, 1.0)
        assert [c[:2] for c in recorder.changes] == [("game1", 3)]
        assert recorder.changes[0][2] - sent < 1.0
    listen(postgres_url, engine, body)


def test_rolled_back_and_own_changes_never_arrive(postgres_url, engine):
    async def body(listener, recorder, send):
        await send("rolled-back", 1, commit=False)
        await send("mine", 2, origin=ORIGIN)  # this process published it already
        await send("marker", 3)  # notifications arrive in commit order: nothing can come after this
        assert await recorder.wait(lambda: recorder.changes, 2.0)
        await asyncio.sleep(0.3)
        assert [c[:2] for c in recorder.changes] == [("marker", 3)]
    listen(postgres_url, engine, body)


def test_the_listener_reconnects_and_asks_for_a_resync(postgres_url, engine):
    async def body(listener, recorder, send):
        first = listener.backend_pid
        with engine.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first}).scalar()
        assert await recorder.wait(lambda: recorder.resyncs == 1, 10.0)
        assert listener.backend_pid not in (None, first)
        await send("after", 5)
        assert await recorder.wait(lambda: recorder.changes, 2.0)
        assert [c[:2] for c in recorder.changes] == [("after", 5)]
    listen(postgres_url, engine, body)


def test_a_failing_callback_does_not_stop_the_listener(postgres_url, engine):
    seen = []

    async def on_change(game_id, version):
        seen.append(game_id)
        raise RuntimeError("boom")

    async def main():
        listener = PgListener(postgres_url, on_change, lambda: None)
        await listener.start()
        try:
            await asyncio.to_thread(send, engine, "one", 1)
            await asyncio.to_thread(send, engine, "two", 1)
            deadline = time.monotonic() + 2
            while len(seen) < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert seen == ["one", "two"]
        finally:
            await listener.stop()
    asyncio.run(main())
