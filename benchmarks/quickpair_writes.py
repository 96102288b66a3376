"""What quick pairing's lobby hook costs the database per look at the lobby (every 1.5 s).

Every page of a logged-in player keeps a lobby socket, so the hook runs for all of them; some
are waiting at a quick-pairing button (``--waiting``, rated so far apart that nobody is paired),
the others only have a page open (``--watching``). The script runs ``--looks`` looks 1.5 s of
(simulated) time apart and counts, per look, the SQL statements by kind, the write statements
(INSERT/UPDATE/DELETE), the transactions that wrote, and the commits, and the hook's wall time.
Nothing is paired and nothing changes between looks: a look should then write nothing most of
the time.

    python benchmarks/quickpair_writes.py --waiting 20 --watching 50
    python benchmarks/quickpair_writes.py --db "postgresql+psycopg://root@/ludothek?host=/tmp/pg"
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import secrets
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete, event, insert

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ludothek.web.lobby import Watcher
from ludothek.web.quickpair import QuickPairing, pool_key
from ludothek.web.store import Account, Store, quick_pairing_table, users_table

LOOK_SECONDS = 1.5


class Counter:
    def __init__(self, engine):
        self.kinds: collections.Counter[str] = collections.Counter()
        self.commits = 0
        self.writing = 0  # transactions that held a write statement
        self._wrote = False
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)
        event.listen(engine, "rollback", self._end)

    def _statement(self, conn, cursor, statement, parameters, context, executemany):
        kind = statement.lstrip().split(None, 1)[0].upper()
        self.kinds[kind] += 1
        if kind in ("INSERT", "UPDATE", "DELETE"):
            self._wrote = True

    def _commit(self, conn):
        self.commits += 1
        self._end(conn)

    def _end(self, conn):
        if self._wrote:
            self.writing += 1
        self._wrote = False

    def reset(self):
        self.kinds.clear()
        self.commits = self.writing = 0
        self._wrote = False


def setup(store: Store, waiting: int, watching: int, at: float, prefix: str) -> dict[object, Watcher]:
    watchers = {}
    with store.engine.begin() as conn:
        for k in range(waiting + watching):
            name = f"{prefix}{k}"
            user_id = conn.execute(insert(users_table).values(
                name=name, name_key=name, password="x", created=at, disabled=None)).inserted_primary_key[0]
            if k < waiting:  # all at one button, 1000 rating points apart: nobody fits anybody
                conn.execute(insert(quick_pairing_table).values(
                    user_id=user_id, pool=pool_key("trike", "3+2"), rating=1000.0 * k, joined=at, seen=at, game_id=None))
            watchers[object()] = Watcher(user=Account(user_id, name))
    return watchers


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or f"sqlite:///{tmp}/quick.sqlite3")
        clock = [time.time()]
        # a database of its own, or an existing one (its players get names of their own and go again)
        prefix = f"qpw{secrets.token_hex(3)}_"
        watchers = setup(store, args.waiting, args.watching, clock[0], prefix)
        try:
            await measure(store, watchers, clock, args)
        finally:
            ids = [w.user.id for w in watchers.values()]
            with store.engine.begin() as conn:
                conn.execute(delete(quick_pairing_table).where(quick_pairing_table.c.user_id.in_(ids)))
                conn.execute(delete(users_table).where(users_table.c.id.in_(ids)))
            store.close()


async def measure(store: Store, watchers: dict[object, Watcher], clock: list[float], args) -> None:
    async def nothing(*_):
        return None

    quick = QuickPairing(store, service=None, after_create=nothing, announce=nothing, now=lambda: clock[0])
    counter = Counter(store.engine)
    started = time.perf_counter()
    for _ in range(args.looks):
        clock[0] += LOOK_SECONDS
        await quick.hook(watchers)
    elapsed = time.perf_counter() - started
    looks = args.looks
    print(f"database: {'PostgreSQL' if store.is_postgres else 'SQLite'}; {args.waiting} waiting, "
          f"{args.watching} only watching; {looks} looks {LOOK_SECONDS} s apart")
    print("statements per look: " + ", ".join(f"{k} {n / looks:.2f}" for k, n in sorted(counter.kinds.items())))
    writes = sum(n for k, n in counter.kinds.items() if k in ("INSERT", "UPDATE", "DELETE"))
    print(f"write statements per look: {writes / looks:.2f}; transactions that wrote per look: "
          f"{counter.writing / looks:.2f}; commits per look: {counter.commits / looks:.2f}")
    print(f"hook time per look: {1000 * elapsed / looks:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiting", type=int, default=20, help="players waiting at a button (at most 500)")
    parser.add_argument("--watching", type=int, default=50, help="logged-in pages not waiting (at most 5000)")
    parser.add_argument("--looks", type=int, default=40, help="looks at the lobby (at most 1000)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    if not (0 <= args.waiting <= 500 and 0 <= args.watching <= 5000 and 1 <= args.looks <= 1000):
        parser.error("--waiting 0..500, --watching 0..5000, --looks 1..1000")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
