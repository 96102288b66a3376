"""Tournament games on a Ray cluster (optional: ``pip install ray``, the ``ludothek[ray]``
extra). Each game is one Ray task running :func:`ludothek.ai.pairing.play_game`; results
stream back as tasks finish, exactly as from the local process pool."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from ..core.errors import OptionError
from ..core.texts import TEXTS
from .pairing import GameResult, MatchGame, play_game


def available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_games_ray(specs: list[MatchGame], address: str | None) -> Iterator[GameResult]:
    """``address``: a cluster (``ray://host:10001``, ``auto``) or ``local`` for a fresh
    local Ray instance."""
    ray = connect(address)
    task = ray.remote(play_game)
    pending = [task.remote(spec) for spec in specs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:  # stopped early (Ctrl-C, an error): cancel the games not yet played
        cancel(ray, pending)


def connect(address: str | None) -> Any:
    """The ``ray`` module, connected to ``address`` (a cluster, ``auto``, or ``local``/None
    for a fresh local instance); a clear error if Ray is not installed."""
    try:
        import ray
    except ImportError:
        raise OptionError(TEXTS("ray_missing")) from None
    if not ray.is_initialized():
        ray.init(address=None if address in (None, "", "local") else address, ignore_reinit_error=True,
                 log_to_driver=False)
    return ray


def cancel(ray: Any, refs: Iterable[Any]) -> None:
    """Cancel the tasks not finished yet."""
    for ref in refs:
        try:
            ray.cancel(ref, force=True)
        except Exception:  # noqa: BLE001, S110 - a task that finished meanwhile, a lost cluster
            pass
