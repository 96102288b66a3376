"""Players' public pages: a profile (ratings per game with their history, wins, draws and
losses, recent games) and the leaderboard of a game. Read-only queries over the store."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, or_, select

from ..ratings import Rating
from .accounts import name_key
from .service import GameService
from .store import PROVISIONAL_DEVIATION, Store, games_table, rating_history_table, ratings_table, users_table

LEADERBOARD_SIZE = 100
RECENT_GAMES = 20


def profile(store: Store, name: str) -> dict[str, Any] | None:
    """A player's public record, or None for an unknown (or disabled) name."""
    u, g = users_table.c, games_table.c
    with store._taking_turns(), store.engine.connect() as conn:
        user = conn.execute(select(u.id, u.name, u.created).where(u.name_key == name_key(name), u.disabled.is_(None))).first()
        if user is None:
            return None
        ratings = conn.execute(select(ratings_table).where(ratings_table.c.user_id == user.id)
                               .order_by(ratings_table.c.game)).mappings().all()
        h = rating_history_table.c
        history: dict[str, list[dict[str, Any]]] = {}
        for row in conn.execute(select(h.game, h.at, h.value, h.deviation, h.game_id)
                                .where(h.user_id == user.id).order_by(h.at, h.id)):
            history.setdefault(row.game, []).append({"at": row.at, "value": round(row.value, 2),
                                                     "deviation": round(row.deviation, 2), "game_id": row.game_id})
        seat = case((g.user0 == user.id, 0), else_=1)
        outcome = case((g.winner == seat, "win"), (g.winner == -1, "draw"), (g.winner.in_((0, 1)), "loss"), else_=None)
        counts: dict[str, dict[str, int]] = {}
        played = (select(g.game, outcome.label("outcome"), func.count().label("n"))
                  .where(g.status == "over", or_(g.user0 == user.id, g.user1 == user.id), g.mode == "online")
                  .group_by(g.game, outcome))
        for row in conn.execute(played):
            if row.outcome is not None:
                counts.setdefault(row.game, {"win": 0, "draw": 0, "loss": 0})[row.outcome] = row.n
    recent = store.list_games(None, RECENT_GAMES, user=user.id)
    return {
        "name": user.name, "created": user.created,
        # every rating starts here: a history's chart begins at it
        "start": {"value": Rating().value, "deviation": Rating().deviation},
        "ratings": [{**_rating(r), "games": r["games"], "history": history.get(r["game"], [])} for r in ratings],
        "counts": counts,
        "recent": [GameService.summary(row) for row in recent],
    }


def user_id(store: Store, name: str) -> int | None:
    """An account's id by its name (any case), for filtering lists by player."""
    with store._taking_turns(), store.engine.connect() as conn:
        return conn.execute(select(users_table.c.id).where(users_table.c.name_key == name_key(name[:40]))).scalar()


def leaderboard(store: Store, game: str) -> list[dict[str, Any]]:
    """A game's rated players, best first; the provisional ones after the others."""
    r, u = ratings_table.c, users_table.c
    provisional = case((r.deviation > PROVISIONAL_DEVIATION, 1), else_=0)
    query = (select(u.name, r.game, r.value, r.deviation, r.volatility, r.games)
             .join(users_table, u.id == r.user_id)
             .where(r.game == game, r.games > 0, u.disabled.is_(None))
             .order_by(provisional, r.value.desc(), u.name_key).limit(LEADERBOARD_SIZE))
    with store._taking_turns(), store.engine.connect() as conn:
        rows = conn.execute(query).mappings().all()
    return [{"rank": rank, "name": row["name"], **_rating(row), "games": row["games"]}
            for rank, row in enumerate(rows, 1)]


def _rating(row: Any) -> dict[str, Any]:
    return {"game": row["game"], "value": round(row["value"], 2), "deviation": round(row["deviation"], 2),
            "volatility": round(row["volatility"], 6), "provisional": row["deviation"] > PROVISIONAL_DEVIATION}
