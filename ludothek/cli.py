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
from .core.record import Record, dump, load
from .core.registry import game_class, games

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


def roll_for_first(colours: tuple[str, str], rule: str, rng: random.Random) -> tuple[str, str]:
    """Each side rolls a die until they differ; the high (or low) roll starts."""
    rolls = []
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls.append(f"{colours[0]} {a}, {colours[1]} {b}")
        if a != b:
            wins_a = a > b if rule == "high" else a < b
            return (colours[0] if wins_a else colours[1]), "; ".join(rolls)


def save_record(state: GameState, path: str, result: str | None = None, **tags: str) -> None:
    dump(Record.from_state(state, result=result, **tags), path)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
