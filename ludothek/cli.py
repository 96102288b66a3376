"""The ``ludothek`` command: one entry point, many verbs, ``--help`` everywhere."""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

import click

from . import i18n
from .core.errors import LudothekError
from .core.options import parse_assignments
from .core.protocol import CHANCE, GameState
from .core.record import load
from .core.registry import game_class, games
from .core.seating import roll_for_first

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Failure(click.ClickException):
    """A clean error: message on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def _state(game: str, size: int | None, option: tuple[str, ...], position: str | None) -> GameState:
    try:
        options: dict[str, Any] = parse_assignments(list(option))
        if size is not None:
            options["size"] = size
        return game_class(game)(position, **options)
    except LudothekError as exc:
        raise Failure(str(exc)) from None


def _play_moves(state: GameState, moves: tuple[str, ...]) -> None:
    for number, move in enumerate(moves, start=1):
        try:
            state.play(move)
        except LudothekError as exc:
            raise Failure(f"move {number} {move!r}: {exc}") from None


def game_options(function: Any) -> Any:
    """The options every game verb shares."""
    function = click.option("--position", "-p", metavar="POS", help="Start from this position string.")(function)
    function = click.option(
        "--option", "-o", "option", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable)."
    )(function)
    function = click.option("--size", type=int, metavar="N", help="Board size (Trike: side 7..19).")(function)
    return click.argument("game", metavar="GAME")(function)


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="ludothek")
def main() -> None:
    """Ludothek: play, analyse and study Hexalit, Trigeo, Bitis and Trike."""


@main.command("games")
def games_command() -> None:
    """List the games and their options."""
    for name in games():
        cls = game_class(name)
        click.echo(f"{name}: {cls.title['en']}")
        for option in cls.OPTIONS:
            click.echo(f"    {option.describe()}")


@main.command(context_settings=CONTEXT)
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a list.")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
def moves(game: str, size: int | None, option: tuple[str, ...], position: str | None, as_json: bool, moves: tuple[str, ...]) -> None:
    """Play MOVEs from POS (or the start) and print the legal moves that follow."""
    state = _state(game, size, option, position)
    _play_moves(state, moves)
    if as_json:
        click.echo(json.dumps(state.summary(), ensure_ascii=False))
    elif not state.is_over():
        for move in state.legal_moves():
            click.echo(move)


@main.command(context_settings=CONTEXT)
@game_options
@click.argument("depth", type=click.IntRange(1, 20), metavar="DEPTH")
@click.option("--stats", is_flag=True, help="Also print leaves per second on stderr.")
def perft(game: str, size: int | None, option: tuple[str, ...], position: str | None, depth: int, stats: bool) -> None:
    """Print `<depth> <leaves>` for every depth from 1 to DEPTH."""
    state = _state(game, size, option, position)
    for d in range(1, depth + 1):
        started = time.perf_counter()
        leaves = state.perft(d)
        seconds = time.perf_counter() - started
        click.echo(f"{d} {leaves}")
        if stats:
            click.echo(f"  {seconds:.3f}s {leaves / max(seconds, 1e-9):,.0f} leaves/s", err=True)


@main.command(context_settings=CONTEXT)
@game_options
@click.option("--seconds", type=click.FloatRange(0.1, 3600), default=5.0, show_default=True, help="How long to measure.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--baseline", is_flag=True, help="Also time the plain-Python reference playouts and print the speed-up.")
def bench(game: str, size: int | None, option: tuple[str, ...], position: str | None, seconds: float, seed: int,
          baseline: bool) -> None:
    """Random playouts per second on one core.

    The last line is `playouts_per_s=… plies_per_s=… mean_plies=…`."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    state = _state(game, size, option, position)
    if state.is_over():
        raise Failure("the position is already over: nothing to play out")
    state.random_playouts(1, seed)  # compile (or load) the kernels before timing
    batch, games_done, plies, elapsed = 1, 0, 0, 0.0
    with Progress(
        TextColumn(f"bench {state.name}"), BarColumn(), TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(), transient=True, console=_stderr_console(),
    ) as progress:
        task = progress.add_task("bench", total=seconds, rate="")
        while elapsed < seconds:
            started = time.perf_counter()
            batch_plies, batch_games = state.random_playouts(batch, seed + games_done)
            took = time.perf_counter() - started
            elapsed += took
            plies += batch_plies
            games_done += batch_games
            if took < 0.05:
                batch *= 2
            progress.update(task, completed=min(elapsed, seconds), rate=f"{games_done / elapsed:,.0f} playouts/s")
    if baseline:
        reference_games, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds / 4:
            reference_games += GameState.random_playouts(state, 1, seed + reference_games)[1]
        reference_rate = reference_games / (time.perf_counter() - started)
        click.echo(f"python_reference_playouts_per_s={reference_rate:.1f} "
                   f"speedup={games_done / elapsed / reference_rate:.0f}x")
    click.echo(
        f"playouts_per_s={games_done / elapsed:.0f} plies_per_s={plies / elapsed:.0f} "
        f"mean_plies={plies / games_done:.2f}"
    )


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@main.command(context_settings=CONTEXT)
@click.argument("path", type=click.Path(dir_okay=False))
def replay(path: str) -> None:
    """Check a game record and show its final position."""
    from rich.console import Console

    try:
        record = load(path)
        state = record.replay()
    except LudothekError as exc:
        raise Failure(f"{path}: {exc}") from None
    console = Console()
    console.print(state.render())
    console.print(" ".join(record.moves))
    console.print(f"result: {record.result}")


@main.command(context_settings=CONTEXT)
@game_options
@click.option("--vs", default="human", show_default=True, metavar="AGENT", help="The opponent: human, random, …")
@click.option("--me", default="human", show_default=True, metavar="AGENT", help="Who plays your seat (an agent to watch).")
@click.option("--seat", type=click.Choice(["1", "2"]), default="1", show_default=True, help="Your seat: 1 moves first.")
@click.option("--start", type=click.Choice(["high", "low", "fixed"]), default="high", show_default=True,
              help="Games with a 'first' option: roll for who starts, high or low wins, or keep the option.")
@click.option("--lang", type=click.Choice(["en", "de"]), default=None, help="Language (default from $LANG).")
@click.option("--seed", type=int, default=None, help="Seed for rolls and random agents.")
def play(game: str, size: int | None, option: tuple[str, ...], position: str | None, vs: str, me: str, seat: str,
         start: str, lang: str | None, seed: int | None) -> None:
    """Play in the terminal against a person (same keyboard) or an agent."""
    from .terminal import TerminalGame

    lang = lang or i18n.default_language()
    rng = random.Random(seed)
    cls = game_class(game)
    options = list(option)
    tags: dict[str, str] = {}
    has_first = any(o.name == "first" for o in cls.OPTIONS)
    if has_first and start != "fixed" and position is None and not any(o.startswith("first=") for o in options):
        first, rolls = roll_for_first(cls.colours, start, rng)
        click.echo(i18n.text("start_roll", lang, rule=i18n.text(start, lang), rolls=rolls))
        click.echo(i18n.text("starts", lang, colour=i18n.colour_name(first, lang)))
        options.append(f"first={first}")
        tags["StartRoll"] = f"{start}: {rolls}"
    state = _state(game, size, tuple(options), position)
    try:
        TerminalGame(state, vs=vs, me=me, seat=int(seat) - 1, lang=lang, rng=rng, tags=tags).run()
    except LudothekError as exc:
        raise Failure(str(exc)) from None


# ---------------------------------------------------------------------- bots: analyse and match
@main.command(context_settings=CONTEXT)
@game_options
@click.option("--seconds", type=click.FloatRange(0.01, 3600), default=3.0, show_default=True, help="Thinking time.")
@click.option("--iterations", type=click.IntRange(1), default=None,
              help="Count simulations/nodes instead of time (reproducible).")
@click.option("--agent", default=None, metavar="AGENT", help="Search to use (default: the top level's algorithm).")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True, help="Candidate moves to list.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
def analyse(game: str, size: int | None, option: tuple[str, ...], position: str | None, seconds: float,
            iterations: int | None, agent: str | None, top: int, seed: int, as_json: bool,
            moves: tuple[str, ...]) -> None:
    """Best moves with scores (for the side to move, -1..+1) and the expected line."""
    from .ai.analysis import analyse_position
    from .ai.budget import Budget

    state = _state(game, size, option, position)
    _play_moves(state, moves)
    if state.is_over():
        raise Failure(f"the game is over ({state.result()}): nothing to analyse")
    if state.current_player() == CHANCE:
        raise Failure("a die is to be rolled here: analyse the position after the roll")
    budget = Budget(iterations=iterations) if iterations else Budget(seconds=seconds)
    try:
        report = analyse_position(state, budget, agent, seed)
    except LudothekError as exc:
        raise Failure(str(exc)) from None
    if as_json:
        click.echo(json.dumps(report.to_json(state), ensure_ascii=False))
        return
    result = report.analysis
    click.echo(f"{state.name} {state.position()}")
    click.echo(f"{state.to_move} to move; {report.agent}: {result.iterations:,} iterations in {result.seconds:.2f}s"
               + (f", depth {result.depth}" if result.depth else ""))
    click.echo(f"best: {report.moves[0][0]} ({report.moves[0][1]:+.3f})")
    for rank, (move, score, visits) in enumerate(report.moves[:top], start=1):
        click.echo(f"{rank:3}. {move:<14} {score:+.3f}" + (f"  visits {visits}" if visits else ""))
    click.echo("line: " + " ".join(report.line))


@main.command(context_settings=CONTEXT)
@click.argument("game", metavar="GAME")
@click.argument("agent_a", metavar="AGENT_A")
@click.argument("agent_b", metavar="AGENT_B")
@click.option("-n", "games_count", type=click.IntRange(1), default=10, show_default=True,
              help="Games (pairs of games share an opening, with seats exchanged).")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True, help="Processes.")
@click.option("--seconds-per-move", type=click.FloatRange(0.001), default=None,
              help="Give both agents this time per move (instead of their own budgets).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--size", type=int, metavar="N", help="Board size (Trike).")
@click.option("--option", "-o", "option", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--position", "-p", metavar="POS", help="Start every game from this position.")
@click.option("--opening-plies", type=click.IntRange(0), default=None,
              help="Random plies opening each pair (default: Trike 1, others 2).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Play on a Ray cluster (ADDRESS, 'auto' or 'local'); needs ludothek[ray].")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def match(game: str, agent_a: str, agent_b: str, games_count: int, workers: int, seconds_per_move: float | None,
          seed: int, size: int | None, option: tuple[str, ...], position: str | None, opening_plies: int | None,
          ray_address: str | None, as_json: bool) -> None:
    """Play AGENT_A against AGENT_B and report score, 95% interval and Elo difference."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from .ai.base import make_agent
    from .ai.match import game_specs, run_match, tally

    state = _state(game, size, option, position)  # checks game, options and position up front
    try:
        for spec in (agent_a, agent_b):
            make_agent(spec, state.name, seed=0)
    except LudothekError as exc:
        raise Failure(str(exc)) from None
    options = tuple(sorted(parse_assignments(list(option)).items()))
    if size is not None:
        options += (("size", size),)
    specs = game_specs(state.name, agent_a, agent_b, games_count, seed, options=options, position=position,
                       seconds_per_move=seconds_per_move, opening_plies=opening_plies)
    with Progress(
        TextColumn(f"{state.name} {agent_a} vs {agent_b}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=_stderr_console(), transient=True,
    ) as progress:
        task = progress.add_task("match", total=games_count, tally="")

        def advance(_result: Any, done: list) -> None:
            stats = tally(done)
            progress.update(task, advance=1,
                            tally=f"+{stats.wins} ={stats.draws} -{stats.losses} score {stats.score:.3f}")

        try:
            results = run_match(specs, workers, advance, ray_address)
        except LudothekError as exc:
            raise Failure(str(exc)) from None
    stats = tally(results)
    think_a = sum(r.seconds[0] for r in results)
    think_b = sum(r.seconds[1] for r in results)
    plies = sum(r.plies for r in results)
    if as_json:
        low, high = stats.interval()
        elo_low, elo_high = stats.elo_interval()
        click.echo(json.dumps({
            "game": state.name, "a": agent_a, "b": agent_b, "games": stats.games, "wins": stats.wins,
            "draws": stats.draws, "losses": stats.losses, "score": stats.score, "ci95": [low, high],
            "elo": _finite(stats.elo), "elo_ci95": [_finite(elo_low), _finite(elo_high)],
            "mean_plies": plies / len(results), "seconds_a": think_a, "seconds_b": think_b,
        }))
        return
    click.echo(f"{state.name}: {agent_a} vs {agent_b}, {stats.games} games, seed {seed}")
    for line in stats.describe(agent_a):
        click.echo(line)
    click.echo(f"mean length {plies / len(results):.1f} plies; thinking {agent_a} {think_a:.1f}s, {agent_b} {think_b:.1f}s")


def _finite(value: float) -> float | None:
    return value if value == value and abs(value) != float("inf") else None


@main.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--db", default=None, metavar="URL",
              help="SQLAlchemy database URL or a SQLite file path (default: ./ludothek.sqlite3).")
@click.option("--bots", type=click.Choice(["process", "thread"]), default="process", show_default=True,
              help="Where bots think: a worker process (default) or a thread.")
@click.option("--sqlite-sync", type=click.Choice(["full", "normal"]), default="full", show_default=True,
              help="SQLite: full = every move synced to disk; normal = survives server crashes, not power cuts.")
@click.option("--rate-limits", default=None, metavar="SPEC",
              help='Per-address limits, e.g. "create=20/minute;move=10/second"; "off" lifts them.')
@click.option("--claim-after", type=click.FloatRange(0.001), default=72.0, show_default=True, metavar="HOURS",
              help="Online games without a clock: hours a player may stay away before the other claims the win.")
@click.option("--max-bot-games", type=click.IntRange(0), default=8, show_default=True,
              help="Live games against bots per client address (0: no cap).")
@click.option("--proxy", "trusted_proxy", default=None, metavar="ADDRESSES",
              help="Behind a reverse proxy: its addresses (comma-separated), whose X-Forwarded-For is trusted.")
def serve(host: str, port: int, db: str | None, bots: str, sqlite_sync: str, rate_limits: str | None,
          claim_after: float, max_bot_games: int, trusted_proxy: str | None) -> None:
    """Run the web app: play in the browser (hot-seat, against bots, online)."""
    import socket

    try:
        import uvicorn

        from .web import create_app
        from .web.guard import RateLimits
        from .web.store import database_url
    except ImportError as exc:
        raise Failure(f"the web app needs its dependencies ({exc.name}): pip install -e .") from None
    url = database_url(db)
    try:
        RateLimits(rate_limits)
    except ValueError as exc:
        raise Failure(f"--rate-limits: {exc}") from None
    try:
        app = create_app(url, bot_executor=bots, sqlite_sync=sqlite_sync, rate_limits=rate_limits,
                         claim_after=claim_after * 3600, bot_cap=max_bot_games)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(f"cannot open the database {url}: {exc}") from None
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        raise Failure(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Ludothek is serving on http://{shown}:{bound}/  (database {url}; Ctrl-C stops)", err=False)
    sys.stdout.flush()
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, ws_max_size=64 * 1024, lifespan="on", backlog=4096,
        proxy_headers=trusted_proxy is not None, forwarded_allow_ips=trusted_proxy,
    )
    uvicorn.Server(config).run(sockets=[listener])



@main.command(context_settings=CONTEXT)
@click.option("--db", default=None, metavar="URL",
              help="SQLAlchemy database URL or a SQLite file path (default: ./ludothek.sqlite3).")
def migrate(db: str | None) -> None:
    """Bring the web app's database schema up to date (servers also do this when they start)."""
    try:
        from sqlalchemy import create_engine

        from .web import migrations
        from .web.store import database_url
    except ImportError as exc:
        raise Failure(f"the web app needs its dependencies ({exc.name}): pip install -e .") from None
    url = database_url(db)
    try:
        engine = create_engine(url)
        before = migrations.current(engine)
        migrations.upgrade(engine)
        after = migrations.current(engine)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(f"cannot migrate the database {url}: {exc}") from None
    click.echo(f"{url}: schema {after}" + ("" if before == after else f" (was {before or 'empty'})"))


@main.command("solve", context_settings=CONTEXT)
@click.argument("game", metavar="GAME")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Also write the table (.npz) here.")
def solve_command(game: str, output: str | None) -> None:
    """Solve GAME outright by retrograde analysis (Bitis is small enough)."""
    if game.strip().lower() != "bitis":
        raise Failure(f"cannot solve {game!r}: only bitis is small enough to solve outright")
    from rich.console import Console

    from .games.bitis.solve_cli import run

    run(Console(), output)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
