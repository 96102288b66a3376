"""The ``ludothek`` command: one entry point, many verbs, ``--help`` everywhere."""

from __future__ import annotations

import json
import math
import random
import re
import secrets
import sys
import time
from typing import Any

import click

from . import i18n
from .core import compile_notice, fairdice
from .core.errors import LudothekError
from .core.messages import colour, in_language
from .core.options import parse_assignments
from .core.protocol import CHANCE, GameState
from .core.record import load
from .core.registry import game_class, game_spec, games
from .core.seating import roll_for_first
from .core.texts import TEXTS, os_reason, result_word
from .progress_bars import bars

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Failure(click.ClickException):
    """A clean error: one line ``error: MESSAGE`` on stderr, exit status 2. ``message`` is a
    keyed message, a Ludothek error or plain text; it is shown in ``lang`` (by default the
    user's language, :func:`i18n.default_language`) after ``where`` (a file name, an option) if
    given. The prefix ``error:`` is the same in every language: scripts and the fuzz check match
    it, as they match the exit status; the words after it are for the reader."""

    exit_code = 2

    def __init__(self, message: Any, where: str | None = None, lang: str | None = None):
        self.said, self.where, self.lang = message, where, lang
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        said = str(in_language(self.said, lang))
        return f"{self.where}: {said}" if self.where is not None else said

    def show(self, file: Any = None) -> None:
        lang = self.lang or i18n.default_language()
        click.echo(f"error: {self.text(lang)}", err=True)


def _one_line(exc: click.UsageError) -> Failure:
    """A click usage error (bad option value, missing argument, unknown option ...) as one
    line ``error: ... (see 'ludothek VERB --help')`` instead of click's usage block."""
    message = " ".join(exc.format_message().split())
    message = (message[:1].lower() + message[1:]).rstrip(".")
    if isinstance(exc, click.NoSuchOption) and re.fullmatch(r"-\d.*", exc.option_name or ""):
        message += ": negative numbers are not allowed here"
    names = []
    ctx = exc.ctx
    while ctx is not None:
        names.append(ctx.info_name if ctx.parent is not None else "ludothek")
        ctx = ctx.parent
    names = names or ["ludothek"]
    return Failure(f"{message} (see '{' '.join(reversed(names))} --help')", lang="en")  # click's words: English


class Verb(click.Command):
    """A verb: its usage errors name the verb (some of click's are raised without a context)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            exc.ctx = exc.ctx or ctx
            raise


class LudothekGroup(click.Group):
    """The ``ludothek`` group: every usage error of every verb becomes one ``error:`` line."""

    command_class = Verb

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):
                raise  # plain `ludothek`: the help text is the answer
            raise _one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):
                raise
            raise _one_line(exc) from None


class GameName(click.ParamType):
    """A registered game's name (checked before the command runs)."""

    name = "game"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        if str(value).strip().lower() not in games():
            try:
                game_class(value)
            except LudothekError as exc:
                raise Failure(exc) from None
        return value

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in games() if name.startswith(incomplete.lower())]


class Finite(click.FloatRange):
    """A finite number in a range: ``nan`` and ``inf`` are refused (FloatRange lets nan pass)."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class FilePath(click.Path):
    """A file path (``directory``: a directory's); one with a NUL character (which no file
    system takes) is a usage error."""

    def __init__(self, directory: bool = False, exists: bool = False) -> None:
        super().__init__(dir_okay=directory, file_okay=not directory, exists=exists)
        self.directory = directory

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if "\0" in str(value):
            what = "a directory name" if self.directory else "a file name"
            self.fail(f"{str(value)[:60]!r} is not {what}: it contains a NUL character", param, ctx)
        return super().convert(value, param, ctx)


#: seeds reach compiled kernels as 64-bit integers
SEED = click.IntRange(0, 2**63 - 1)

GAMES_EPILOG = f"GAME is one of: {', '.join(games())} ('ludothek games' lists their options)."


def agents_help() -> str:
    """The agent specs, from the agent registry (ludothek.ai.base) and the levels."""
    from .ai.base import agent_names
    from .ai.levels import LEVELS

    generic = agent_names(game=None, own=False)
    listed = ["random", f"bot:{LEVELS[0]} … bot:{LEVELS[-1]}"]  # the levels first, then the searches
    listed += [f"{name}[:BUDGET]" for name in generic if name not in ("random", "bot")]
    for name in agent_names():
        if name not in generic:
            players = [game for game in games() if name in game_spec(game).agents]
            listed.append(f"{name} ({', '.join(players)} only)")
    return ", ".join(listed) + " (BUDGET: 2s, 500ms, 800, 20k)"


AGENTS = agents_help()


def _state(game: str, size: int | None, option: tuple[str, ...], position: str | None,
           lang: str | None = None) -> GameState:
    try:
        options: dict[str, Any] = parse_assignments(list(option))
        if size is not None:
            options["size"] = size
        return game_class(game)(position, **options)
    except LudothekError as exc:
        raise Failure(exc, lang=lang) from None


def _play_moves(state: GameState, moves: tuple[str, ...]) -> None:
    for number, move in enumerate(moves, start=1):
        try:
            state.play(move)
        except LudothekError as exc:
            raise Failure(TEXTS("cli_move", number=number, move=repr(move), error=exc)) from None


def game_options(function: Any) -> Any:
    """The options every game verb shares."""
    function = click.option("--position", "-p", metavar="POS", help="Start from this position string.")(function)
    function = click.option(
        "--option", "-o", "option", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable)."
    )(function)
    function = click.option("--size", type=int, metavar="N", help="Board size, for games with a size option (same as -o size=N).")(function)
    return click.argument("game", type=GameName(), metavar="GAME")(function)


@click.group(cls=LudothekGroup, name="ludothek", context_settings=CONTEXT, epilog=GAMES_EPILOG)
@click.version_option(package_name="ludothek")
def main() -> None:
    """Ludothek: play, analyse and study abstract board games ('ludothek games' lists them)."""
    compile_notice.install(only_terminal=True)  # a first run says why it waits


@main.command("games")
def games_command() -> None:
    """List the games and their options."""
    for name in games():
        cls = game_class(name)
        click.echo(f"{name}: {cls.title['en']}")
        for option in cls.OPTIONS:
            click.echo(f"    {option.describe()}")


@main.command(context_settings=CONTEXT, epilog=GAMES_EPILOG)
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


@main.command(context_settings=CONTEXT, epilog=GAMES_EPILOG)
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


@main.command(context_settings=CONTEXT, epilog=GAMES_EPILOG)
@game_options
@click.option("--seconds", type=Finite(0.1, 3600), default=5.0, show_default=True, help="How long to measure.")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of the random playouts.")
@click.option("--baseline", is_flag=True, help="Also time the plain-Python reference playouts and print the speed-up.")
def bench(game: str, size: int | None, option: tuple[str, ...], position: str | None, seconds: float, seed: int,
          baseline: bool) -> None:
    """Random playouts per second on one core.

    The last line is `playouts_per_s=… plies_per_s=… mean_plies=…`."""
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    state = _state(game, size, option, position)
    if state.is_over():
        raise Failure(TEXTS("cli_bench_over"))
    state.random_playouts(1, seed)  # compile (or load) the kernels before timing
    batch, games_done, plies, elapsed = 1, 0, 0, 0.0
    with bars(
        TextColumn(f"bench {state.name}"), BarColumn(), TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn()) as progress:
        task = progress.add_task("bench", total=seconds, rate="")
        while elapsed < seconds:
            started = time.perf_counter()
            batch_plies, batch_games = state.random_playouts(batch, (seed + games_done) % 2**63)
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
            reference_games += GameState.random_playouts(state, 1, (seed + reference_games) % 2**63)[1]
        reference_rate = reference_games / (time.perf_counter() - started)
        click.echo(f"python_reference_playouts_per_s={reference_rate:.1f} "
                   f"speedup={games_done / elapsed / reference_rate:.0f}x")
    click.echo(
        f"playouts_per_s={games_done / elapsed:.0f} plies_per_s={plies / elapsed:.0f} "
        f"mean_plies={plies / games_done:.2f}"
    )


#: the width of piped output: wide enough that no line is ever wrapped
UNWRAPPED = 100_000


def _stdout_console(**options: Any) -> Any:
    """A rich console for standard output: on a terminal as wide as the terminal; piped (to a
    file, ``less``, ``grep``) lines are not wrapped at rich's default 80 columns, unless
    ``COLUMNS`` is set, which is honoured."""
    import os

    from rich.console import Console

    console = Console(**options)
    if console.is_terminal or os.environ.get("COLUMNS"):
        return console
    return Console(width=UNWRAPPED, soft_wrap=True, **options)


@main.command(context_settings=CONTEXT)
@click.argument("path", type=FilePath())
def replay(path: str) -> None:
    """Check a game record and show its final position."""
    lang = i18n.default_language()
    try:
        record = load(path)
        state = record.replay()
    except LudothekError as exc:
        raise Failure(exc, where=path) from None
    console = _stdout_console()
    console.print(state.render(lang))
    console.print(" ".join(record.moves))
    console.print(i18n.text("replay_result", lang, result=result_word(record.result)))


@main.command(context_settings=CONTEXT)
@click.argument("path", type=FilePath(), metavar="RECORD")
@click.option("--lang", type=click.Choice(["en", "de"]), default=None, help="Language (default from $LANG).")
def verify(path: str, lang: str | None) -> None:
    """Check that a record's dice were rolled fair: its DiceSecret matches the DiceCommitment
    published at the start, and every roll is the one the secret gives. Exit status 0 when
    all is right (or no die was rolled: nothing to verify), 1 naming what is wrong, 2 for a
    file that is no record."""
    lang = lang or i18n.default_language()
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise Failure(TEXTS("cannot_read", path=path, reason=os_reason(exc)), lang=lang) from None
    try:
        report = fairdice.verify(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise Failure(TEXTS("cli_not_utf8", path=path, offset=exc.start), lang=lang) from None
    except LudothekError as exc:
        raise Failure(exc, where=path, lang=lang) from None
    if report.ok and not report.dice:
        click.echo(i18n.text("verify_no_dice", lang, file=path))
        return
    if report.ok:
        start = i18n.text("verify_ok_start", lang) if report.start_roll else ""
        key = "verify_ok_one" if report.rolls == 1 else "verify_ok"
        click.echo(i18n.text(key, lang, file=path, rolls=report.rolls, start=start))
        return
    if report.problem in ("broken", "scheme"):  # why the moves stop replaying, in the game's words
        click.echo(f"{path}: {in_language(report.detail, lang)}", err=True)
    else:
        click.echo(i18n.text(f"verify_{report.problem}", lang, file=path, ply=report.ply, move=report.move,
                             found=report.found, expected=report.expected), err=True)
    sys.exit(1)


@main.command(context_settings=CONTEXT, epilog=GAMES_EPILOG)
@game_options
@click.option("--vs", default="human", show_default=True, metavar="AGENT", help=f"The opponent: human, {AGENTS}.")
@click.option("--me", default="human", show_default=True, metavar="AGENT",
              help="Who plays your seat: human, or an agent as for --vs (to watch).")
@click.option("--seat", type=click.Choice(["1", "2"]), default="1", show_default=True, help="Your seat: 1 moves first.")
@click.option("--start", type=click.Choice(["high", "low", "fixed"]), default="high", show_default=True,
              help="Games with a 'first' option: roll for who starts, high or low wins, or keep the option.")
@click.option("--lang", type=click.Choice(["en", "de"]), default=None, help="Language (default from $LANG).")
@click.option("--seed", type=SEED, default=None, metavar="N",
              help="Seed for random agents, and for the rolls of a hot-seat game (against an agent the dice "
                   "are fair: they follow from a fresh secret, revealed at the end).")
@click.option("--delay", type=Finite(0, 60), default=None, metavar="SECONDS",
              help="When two agents play (--me AGENT): the pause after each move, to watch the game "
                   "[default: 0.5 on a terminal, 0 when the output is piped].")
def play(game: str, size: int | None, option: tuple[str, ...], position: str | None, vs: str, me: str, seat: str,
         start: str, lang: str | None, seed: int | None, delay: float | None) -> None:
    """Play in the terminal against a person (same keyboard) or an agent."""
    from .terminal import TerminalGame

    lang = lang or i18n.default_language()
    rng = random.Random(seed)
    try:
        cls = game_class(game)
    except LudothekError as exc:
        raise Failure(exc, lang=lang) from None
    options = list(option)
    tags: dict[str, str] = {}
    # against an agent every roll, the one for the first move too, follows from a fresh secret
    fair = vs != "human" or me != "human"
    dice_secret, game_id = (fairdice.new_secret(), secrets.token_urlsafe(9)) if fair else (None, None)
    has_first = any(o.name == "first" for o in cls.OPTIONS)
    if has_first and start != "fixed" and position is None and not any(o.startswith("first=") for o in options):
        if fair:
            first, rolls = fairdice.roll_first(cls.colours, start, dice_secret, game_id)
        else:
            first, rolls = roll_for_first(cls.colours, start, rng)
        # the rolls as the StartRoll tag writes them ("white 3, black 5"), the colours in the reader's language
        shown_rolls = re.sub("|".join(rf"\b{re.escape(name)}\b" for name in cls.colours),
                             lambda found: str(in_language(colour(found.group()), lang)), rolls)
        click.echo(i18n.text("start_roll", lang, rule=i18n.text(start, lang), rolls=shown_rolls))
        click.echo(i18n.text("starts", lang, colour=i18n.colour_name(first, lang)))
        options.append(f"first={first}")
        tags[fairdice.TAG_START_ROLL] = f"{start}: {rolls}"
    state = _state(game, size, tuple(options), position, lang)
    try:
        console = _stdout_console(highlight=False)
        if delay is None:
            delay = 0.5 if console.is_terminal else 0.0
        TerminalGame(state, vs=vs, me=me, seat=int(seat) - 1, lang=lang, rng=rng, tags=tags, dice_secret=dice_secret,
                     game_id=game_id, console=console, delay=delay).run()
    except LudothekError as exc:
        raise Failure(exc, lang=lang) from None


# ---------------------------------------------------------------------- bots: analyse and match
@main.command(context_settings=CONTEXT, epilog=GAMES_EPILOG)
@game_options
@click.option("--seconds", type=Finite(0.01, 3600), default=3.0, show_default=True, help="Thinking time.")
@click.option("--iterations", type=click.IntRange(1), default=None,
              help="Count simulations/nodes instead of time (reproducible).")
@click.option("--agent", default=None, metavar="AGENT",
              help=f"Search to use (default: the top level's algorithm): {AGENTS}.")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True, help="Candidate moves to list.")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of the search.")
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
        raise Failure(TEXTS("cli_analyse_over", result=result_word(state.result())))
    if state.current_player() == CHANCE:
        raise Failure(TEXTS("cli_analyse_chance"))
    budget = Budget(iterations=iterations) if iterations else Budget(seconds=seconds)
    try:
        report = analyse_position(state, budget, agent, seed)
    except LudothekError as exc:
        raise Failure(exc) from None
    if as_json:
        click.echo(json.dumps(report.to_json(state), ensure_ascii=False))
        return
    result = report.analysis
    click.echo(f"{state.name} {state.position()}")
    click.echo(f"{state.to_move} to move; {report.agent}: {result.iterations:,} iterations in {result.seconds:.2f}s"
               + (f", depth {result.depth}" if result.depth else ""))
    why = _why_stopped(result, budget)
    if why:
        click.echo(why)
    click.echo(f"best: {report.moves[0][0]} ({report.moves[0][1]:+.3f})")
    for rank, (move, score, visits) in enumerate(report.moves[:top], start=1):
        click.echo(f"{rank:3}. {move:<14} {score:+.3f}" + (f"  visits {visits}" if visits else ""))
    click.echo("line: " + " ".join(report.line))


def _why_stopped(result: Any, budget: Any) -> str:
    """Why a search given a time stopped before it: '' when it used its time (or counted)."""
    if budget.seconds is None or result.stopped is None:
        return ""
    given = f"{budget.seconds:g}s"
    if result.stopped == "decided":
        return f"stopped before the {given}: the result is settled (a forced win or loss was found)"
    if result.stopped == "settled":
        return f"stopped before the {given}: no other move could have overtaken the best one in the time left"
    if result.stopped == "proven":
        return f"stopped before the {given}: the search proved the result"
    if result.stopped == "exhausted":
        return f"stopped before the {given}: the whole game tree was searched"
    if result.stopped == "next_depth":
        return (f"stopped before the {given}: depth {result.depth} took {result.seconds:.2f}s, more than half the "
                f"time, and depth {result.depth + 1} takes several times as long, so it would not finish")
    return f"stopped before the {given}: the search reached its deepest depth ({result.depth})"


@main.command(context_settings=CONTEXT)
@click.argument("path", type=FilePath(), metavar="RECORD")
@click.option("--budget", type=click.IntRange(50, 100_000), default=None, metavar="N",
              help="Simulations (MCTS) or nodes (alpha-beta) per position; default: what suits the game. "
                   "A count, not a time: the same review on every machine.")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of the search.")
@click.option("--search", "search_only", is_flag=True, help="Search even where a solved table knows the values.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def review(path: str, budget: int | None, seed: int, search_only: bool, as_json: bool) -> None:
    """Computer analysis of a recorded game: the evaluation after every ply (for the first
    player, -1..+1), inaccuracies (?!), mistakes (?) and blunders (??) with the best move, and
    for a solved game the exact value of every position."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from .ai.review import review_game, summary_lines, table

    try:
        record = load(path)
        start = game_class(record.game)(record.position, **record.options)
    except LudothekError as exc:
        raise Failure(exc, where=path) from None
    with bars(TextColumn(f"review {record.game}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as progress:
        task = progress.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            result = review_game(start, record.moves, budget, seed=seed, exact=not search_only, progress=advance)
        except LudothekError as exc:
            raise Failure(exc, where=path) from None
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    out = _stdout_console()
    out.print(table(result))
    for line in summary_lines(result):
        out.print(line, highlight=False)


@main.command(context_settings=CONTEXT, epilog=f"{GAMES_EPILOG} AGENT_A and AGENT_B: {AGENTS}.")
@click.argument("game", type=GameName(), metavar="GAME")
@click.argument("agent_a", metavar="AGENT_A")
@click.argument("agent_b", metavar="AGENT_B")
@click.option("-n", "games_count", type=click.IntRange(1), default=10, show_default=True,
              help="Games (pairs of games share an opening, with seats exchanged).")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True, help="Processes.")
@click.option("--seconds-per-move", type=Finite(0.001, 3600), default=None,
              help="Give both agents this time per move (instead of their own budgets).")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of openings, dice and agents.")
@click.option("--size", type=int, metavar="N", help="Board size, for games with a size option.")
@click.option("--option", "-o", "option", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--position", "-p", metavar="POS", help="Start every game from this position.")
@click.option("--opening-plies", type=click.IntRange(0), default=None,
              help="Random plies opening each pair (default: what suits the game, usually 2).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Play on a Ray cluster (ADDRESS, 'auto' or 'local'); needs ludothek[ray].")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def match(game: str, agent_a: str, agent_b: str, games_count: int, workers: int, seconds_per_move: float | None,
          seed: int, size: int | None, option: tuple[str, ...], position: str | None, opening_plies: int | None,
          ray_address: str | None, as_json: bool) -> None:
    """Play AGENT_A against AGENT_B and report score, 95% interval and Elo difference.

    A progress bar on stderr shows the games done, the score so far and the time left.
    Ctrl-C stops at once (the worker processes too) and reports the games finished so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from .ai.base import make_agent
    from .ai.match import MatchInterrupted, game_specs, run_match, tally

    state = _state(game, size, option, position)  # checks game, options and position up front
    try:
        for spec in (agent_a, agent_b):
            make_agent(spec, state.name, seed=0)
    except LudothekError as exc:
        raise Failure(exc) from None
    options = tuple(sorted(parse_assignments(list(option)).items()))
    if size is not None:
        options += (("size", size),)
    specs = game_specs(state.name, agent_a, agent_b, games_count, seed, options=options, position=position,
                       seconds_per_move=seconds_per_move, opening_plies=opening_plies)
    interrupted = False
    started = time.monotonic()

    class TimeLeft(ProgressColumn):
        """Counts down from the estimate made when the last game finished (at the rate so far)."""

        def render(self, task: Any) -> Text:
            if not task.completed:
                return Text("(first games running)")
            left = task.fields["estimate"] - (time.monotonic() - task.fields["at"])
            return Text(f"~{_clock(max(left, 0))} left")

    with bars(
        TextColumn(f"{state.name} {agent_a} vs {agent_b}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"), TimeElapsedColumn(), TimeLeft()) as progress:
        task = progress.add_task("match", total=games_count, tally="", estimate=0.0, at=0.0)

        def advance(_result: Any, done: list) -> None:
            stats = tally(done)
            now = time.monotonic()
            progress.update(task, advance=1, estimate=(now - started) * (games_count - len(done)) / len(done), at=now,
                            tally=f"+{stats.wins} ={stats.draws} -{stats.losses} score {stats.score:.3f}")

        try:
            results = run_match(specs, workers, advance, ray_address)
        except MatchInterrupted as stop:
            results, interrupted = stop.results, True
        except LudothekError as exc:
            raise Failure(exc) from None
    if interrupted:
        click.echo(f"interrupted: {len(results)} of {games_count} games finished", err=True)
        if not results:
            sys.exit(130)
    stats = tally(results)
    think_a = sum(r.seconds[0] for r in results)
    think_b = sum(r.seconds[1] for r in results)
    plies = sum(r.plies for r in results)
    if as_json:
        click.echo(json.dumps({
            "game": state.name, "a": agent_a, "b": agent_b, **stats.summary(),
            "mean_plies": plies / len(results), "seconds_a": think_a, "seconds_b": think_b,
            **({"interrupted": True, "planned_games": games_count} if interrupted else {}),
        }))
    else:
        click.echo(f"{state.name}: {agent_a} vs {agent_b}, {stats.games} games"
                   + (f" of {games_count} (interrupted)" if interrupted else "") + f", seed {seed}")
        for line in stats.describe(agent_a):
            click.echo(line)
        click.echo(f"mean length {plies / len(results):.1f} plies; "
                   f"thinking {agent_a} {think_a:.1f}s, {agent_b} {think_b:.1f}s")
    if interrupted:
        sys.exit(130)


@main.command(context_settings=CONTEXT, epilog="GAME: a game with a learned evaluation (docs/LEARNED_EVAL.md).")
@click.argument("game", type=GameName(), metavar="GAME")
@click.option("--positions", type=click.IntRange(1), default=40000, show_default=True,
              help="Training positions (from self-play games).")
@click.option("--epochs", type=click.IntRange(1), default=20, show_default=True, help="Passes over the data.")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of games and net.")
@click.option("--nodes", type=click.IntRange(1), default=2000, show_default=True,
              help="Nodes a move of the self-play search (its values are the labels).")
@click.option("--hidden", type=click.IntRange(1, 1024), default=64, show_default=True, help="Hidden units.")
@click.option("--batch", type=click.IntRange(1), default=256, show_default=True, help="Minibatch size.")
@click.option("--lr", type=Finite(1e-7, 1.0), default=1e-3, show_default=True, help="Adam's learning rate.")
@click.option("--outcome-weight", type=Finite(0.0, 1.0), default=0.0, show_default=True,
              help="Share of the game's result in the target (the rest: the search's value).")
@click.option("--symmetries/--no-symmetries", default=True, show_default=True,
              help="Fit each position also reflected and with the colours swapped (4x the positions).")
@click.option("--l2", type=Finite(0.0, 1.0), default=1e-4, show_default=True, help="L2 penalty on the first layer.")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True, help="Self-play processes.")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Self-play on a Ray cluster (ADDRESS, 'auto' or 'local'); needs ludothek[ray].")
@click.option("--out", type=FilePath(), default="net.npz", show_default=True,
              help="Where the trained net goes.")
@click.option("--checkpoint", type=FilePath(), default=None,
              help="Where checkpoints go (default: OUT.ckpt.npz).")
@click.option("--resume", type=FilePath(exists=True), default=None,
              help="Continue from this checkpoint (same settings).")
@click.option("--data", type=FilePath(), default=None,
              help=("Self-play data file: used if it exists (same data settings; extended by the games that follow "
                    "if it holds fewer positions), else written (to fit other nets)."))
@click.option("--start-from", type=FilePath(exists=True), default=None, metavar="NET",
              help="Start the fit from this net's weights (same --hidden), e.g. to refine a net on deeper labels.")
def train(game: str, positions: int, epochs: int, seed: int, nodes: int, hidden: int, batch: int, lr: float,
          outcome_weight: float, l2: float, symmetries: bool, workers: int, ray_address: str | None, out: str,
          checkpoint: str | None, resume: str | None, data: str | None, start_from: str | None) -> None:
    """Train GAME's learned evaluation: self-play data labelled by search, then a small net.

    Progress bars on stderr; a checkpoint is written every few chunks of games and every
    epoch, and --resume continues from it. The summary (errors on held-out games) is printed
    as JSON."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import TimeRemainingColumn

    from .core.registry import game_spec, games
    from .core.spec import load_target

    spec = game_spec(game)
    if not spec.trainer:
        raise Failure(TEXTS("no_trainer", game=repr(game), games=", ".join(g for g in games() if game_spec(g).trainer)))
    module = load_target(spec.trainer.partition(":")[0])
    settings = module.settings_from(game, positions=positions, epochs=epochs, seed=seed, nodes=nodes, hidden=hidden,
                                    batch=batch, lr=lr, outcome_weight=outcome_weight, l2=l2, symmetries=symmetries,
                                    workers=workers, ray_address=ray_address, out=out, checkpoint=checkpoint,
                                    resume=resume, data=data, start_from=start_from)
    with bars(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(), TimeRemainingColumn(), transient=False) as progress:
        tasks: dict[str, Any] = {}

        def report(phase: str, done: int, total: int, info: str) -> None:
            if phase not in tasks:
                name = "self-play positions" if phase == "data" else "training steps"
                tasks[phase] = progress.add_task(f"{game} {name}", total=total, info="")
            progress.update(tasks[phase], completed=done, total=total, info=info)

        try:
            summary = load_target(spec.trainer)(game, settings, report)
        except LudothekError as exc:
            raise Failure(exc) from None
        except KeyboardInterrupt:
            click.echo(f"interrupted: resume with --resume {settings.checkpoint or out + '.ckpt.npz'}", err=True)
            sys.exit(130)
    click.echo(json.dumps(summary))


@main.command(context_settings=CONTEXT, epilog=f"{GAMES_EPILOG} PLAYERS: agents, comma-separated: {AGENTS}.")
@click.argument("game", type=GameName(), metavar="GAME")
@click.option("--swiss", "rounds", type=click.IntRange(1, 99), default=None, metavar="ROUNDS",
              help="A Swiss of this many rounds (Dutch-system pairings, Buchholz and Sonneborn-Berger).")
@click.option("--arena", "minutes", type=Finite(0.01, 24 * 60), default=None, metavar="MINUTES",
              help="An Arena of this many minutes (points with streaks; each game lasts as long as the bots "
                   "took to play it).")
@click.option("--players", required=True, metavar="PLAYERS",
              help="Agents, comma-separated, strongest first (the Swiss's initial ranking), e.g. bot:5,bot:4,bot:3.")
@click.option("--seed", type=SEED, default=1, metavar="N", show_default=True, help="Seed of openings, dice and agents.")
@click.option("--event", default=None, metavar="NAME", help="The records' Event tag (default: kind, players, game).")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
              help="Processes playing a Swiss round's games (an Arena plays one game at a time).")
@click.option("--records", "records_dir", type=FilePath(directory=True), default=None, metavar="DIR",
              help="Save every game's record in DIR (with Event and Round tags).")
@click.option("--size", type=int, metavar="N", help="Board size, for games with a size option.")
@click.option("--option", "-o", "option", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as one JSON object.")
def tournament(game: str, rounds: int | None, minutes: float | None, players: str, seed: int, event: str | None,
               workers: int, records_dir: str | None, size: int | None, option: tuple[str, ...], as_json: bool) -> None:
    """Run a Swiss or an Arena between bots on this machine and print the standings.

    A Swiss of the bot levels is a quick ladder: --swiss 4 --players bot:5,bot:4,bot:3,bot:2,bot:1.
    A progress bar on stderr shows the games (Swiss) or the minutes (Arena) done."""
    import os

    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from .ai.base import make_agent
    from .core.record import dump
    from .tournament.local import describe, run_arena, run_swiss, summary
    from .tournament.texts import TEXTS as TOURNAMENT_TEXTS

    if (rounds is None) == (minutes is None):
        raise Failure(TOURNAMENT_TEXTS("either"))
    state = _state(game, size, option, None)
    agents = [spec.strip() for spec in players.split(",")]
    if any(not spec for spec in agents):
        raise Failure(TOURNAMENT_TEXTS("empty_name", players=repr(players)))
    if len(agents) < 2:
        raise Failure(TOURNAMENT_TEXTS("few_players"))
    try:
        for spec in agents:
            make_agent(spec, state.name, seed=0)
    except LudothekError as exc:
        raise Failure(exc) from None
    if rounds is not None and rounds > len(agents) - (1 - len(agents) % 2):
        raise Failure(TOURNAMENT_TEXTS("rounds", rounds=rounds, players=len(agents),
                                       most=len(agents) - 1 + len(agents) % 2))
    options = tuple(sorted(state.options.items()))  # checked by the game, defaults filled in
    if records_dir is not None:
        try:
            os.makedirs(records_dir, exist_ok=True)
        except OSError as exc:
            raise Failure(TOURNAMENT_TEXTS("records", path=records_dir, reason=os_reason(exc))) from None
    label = f"{state.name} {'Swiss' if rounds else 'Arena'} of {len(agents)}"
    with bars(TextColumn(label), BarColumn(), MofNCompleteColumn() if rounds else TextColumn(
              "{task.completed:.1f}/{task.total:g} min"), TextColumn("{task.fields[last]}"), TimeElapsedColumn()) as progress:
        total = rounds * (len(agents) // 2) if rounds else minutes
        task = progress.add_task("tournament", total=total, last="")

        def save(played: Any) -> None:
            if records_dir is not None:
                number = len(done)
                name = f"round{played.round}-game{number:03}.ludo" if rounds else f"game{number:04}.ludo"
                try:
                    dump(played.record, os.path.join(records_dir, name))
                except OSError as exc:
                    raise Failure(TOURNAMENT_TEXTS("records", path=records_dir, reason=os_reason(exc))) from None

        done: list[Any] = []

        def swiss_step(played: Any) -> None:
            done.append(played)
            save(played)
            progress.update(task, advance=1, last=f"round {played.round}")

        def arena_step(played: Any, gone: float) -> None:
            done.append(played)
            save(played)
            progress.update(task, completed=gone, last=f"{len(done)} games")

        try:
            if rounds:
                outcome = run_swiss(state.name, agents, rounds, seed, options, event, swiss_step, workers)
            else:
                outcome = run_arena(state.name, agents, minutes, seed, options, event, arena_step)
        except LudothekError as exc:
            raise Failure(exc) from None
    if as_json:
        click.echo(json.dumps({"game": state.name, "seed": seed, **summary(outcome)}))
        return
    click.echo(f"{label}, {len(outcome.games)} games, seed {seed}")
    for line in describe(outcome):
        click.echo(line)


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


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
              help='Per-address limits of the kinds create, move and analysis (analysis also per account), '
                   'e.g. "create=20/minute;move=10/second"; "off" lifts them.')
@click.option("--claim-after", type=Finite(0.001, 10**6), default=72.0, show_default=True, metavar="HOURS",
              help="Online games without a clock: hours a player may stay away before the other claims the win.")
@click.option("--max-bot-games", type=click.IntRange(0), default=8, show_default=True,
              help="Live games against bots per client address (0: no cap).")
@click.option("--proxy", "trusted_proxy", default=None, metavar="ADDRESSES",
              help="Behind a reverse proxy: its addresses (comma-separated), whose X-Forwarded-For and "
                   "X-Forwarded-Proto are trusted.")
@click.option("--login-limits", default=None, metavar="SPEC",
              help='Failed logins per address, per account and per account and address, new accounts per '
                   'address, e.g. "login=20/minute;account=5/minute,20/hour;pair=5/minute;signup=20/hour"; '
                   '"off" lifts them.')
@click.option("--chat-limits", default=None, metavar="SPEC",
              help='Chat messages per account and per address, e.g. "account=5/10seconds,30/minute;'
                   'address=10/10seconds,60/minute" (the default); "off" lifts them.')
@click.option("--workers", type=click.IntRange(1, 256), default=None, metavar="N",
              help="Server processes behind the one port (default: one per core on PostgreSQL; SQLite: 1, "
                   "the only number it allows). A worker that dies is restarted.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one JSON object a line on stderr (time, level, logger, message, request_id; "
                   "access lines with method, route, status, duration_ms).")
@click.option("--shutdown-timeout", type=Finite(0.1, 3600), default=10.0, show_default=True, metavar="SECONDS",
              help="On SIGTERM or Ctrl-C: let requests in flight finish and bots drain for at most this long, "
                   "then exit.")
@click.option("--metrics-from", default=None, metavar="ADDRESSES",
              help='Who may read /metrics: comma-separated addresses or networks, or "any" '
                   "(default: 127.0.0.0/8,::1, this machine).")
@click.option("--header-timeout", type=Finite(0.001, 3600), default=10.0, show_default=True, metavar="SECONDS",
              help="Close a connection whose request headers are not complete this long after it began (408).")
@click.option("--body-timeout", type=Finite(0.001, 3600), default=30.0, show_default=True, metavar="SECONDS",
              help="Close a connection whose request body pauses this long, or averages less than 500 "
                   "bytes a second after it (408).")
@click.option("--max-connections", type=click.IntRange(0), default=None, metavar="N",
              help="Open connections at most, websockets included; more are answered 503 and closed "
                   "(default: the open-file limit less 256, after raising it to its maximum; 0: no cap).")
@click.option("--max-websockets", type=click.IntRange(0), default=200, show_default=True,
              help="Open websockets per client address (0: no cap).")
@click.option("--allowed-hosts", default="*", show_default=True, metavar="NAMES",
              help='Host names to answer to, comma-separated ("*.example.org": its subdomains); a request '
                   'for another Host gets 400.')
def serve(host: str, port: int, db: str | None, bots: str, sqlite_sync: str, rate_limits: str | None,
          claim_after: float, max_bot_games: int, trusted_proxy: str | None, login_limits: str | None,
          workers: int | None, log_format: str, shutdown_timeout: float, metrics_from: str | None,
          header_timeout: float, body_timeout: float, max_connections: int | None, max_websockets: int,
          allowed_hosts: str, chat_limits: str | None = None) -> None:
    """Run the web app: play in the browser (hot-seat, against bots, online)."""
    import socket

    try:
        import uvicorn  # noqa: F401

        from .web import create_app
        from .web.admission import AllowedHosts, HostListError
        from .web.botpool import cores
        from .web.chat import ChatLimits
        from .web.guard import LoginLimits, RateLimits
        from .web.metrics import parse_addresses
        from .web.serving import Serving, Supervisor, serve_one
        from .web.store import Store, database_url, is_postgres
        from .web.timeouts import uvicorn_options
    except ImportError as exc:
        raise Failure(TEXTS("cli_web_needs", module=exc.name)) from None
    url = database_url(db)
    for where, check, given in (("--rate-limits", RateLimits, rate_limits), ("--login-limits", LoginLimits, login_limits),
                                ("--chat-limits", ChatLimits, chat_limits),
                                ("--metrics-from", parse_addresses, metrics_from)):
        try:
            check(given)
        except ValueError as exc:
            raise Failure(exc.args[0] if exc.args else exc, where=where) from None
    if workers is None:
        workers = cores() if is_postgres(url) else 1
    elif workers > 1 and not is_postgres(url):
        raise Failure(TEXTS("cli_workers_sqlite", workers=workers), where="--workers")
    # the processes share the machine's cores: each worker's bots get their share
    bot_workers = None if workers == 1 else max(1, (cores() - 1) // workers)
    options = {"db": url, "bot_executor": bots, "sqlite_sync": sqlite_sync, "rate_limits": rate_limits,
               "claim_after": claim_after * 3600, "bot_cap": max_bot_games, "login_limits": login_limits,
               "max_websockets": max_websockets, "allowed_hosts": allowed_hosts,
               "bot_workers": bot_workers, "metrics_from": metrics_from, "chat_limits": chat_limits}
    serving = Serving(options, log_format=log_format, shutdown_timeout=shutdown_timeout, trusted_proxy=trusted_proxy,
                      uvicorn_extra=uvicorn_options(header_timeout, body_timeout, max_connections))
    try:
        AllowedHosts(allowed_hosts)
    except HostListError as exc:
        raise Failure(exc, where="--allowed-hosts") from None
    try:
        if workers == 1:
            app = create_app(**options)
        else:  # opened (and migrated) once here, before the workers open it at the same time
            Store(url, sqlite_sync=sqlite_sync).close()
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "open")) from None
    except LudothekError as exc:  # a schema newer than this Ludothek
        raise Failure(exc) from None
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_open"), url=url, error=exc)) from None
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        raise Failure(TEXTS("cli_listen", host=host, port=port, reason=os_reason(exc))) from None
    # listening from here on: a connection made before the app is ready waits in the backlog
    # rather than being refused
    listener.listen(4096)
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    many = "" if workers == 1 else f", {workers} workers"
    address = f"Ludothek is serving on http://{shown}:{bound}/  (database {url}{many}; Ctrl-C stops)"
    if workers == 1:
        from .web import logs

        def started() -> None:  # the address is shown once it answers
            click.echo(address)
            sys.stdout.flush()
            app.state.listening.set()

        logs.setup(log_format)
        try:
            serve_one(app, listener, serving, started)
        except KeyboardInterrupt:  # uvicorn has stopped the server and passes Ctrl-C on
            sys.exit(130)
    else:
        sys.exit(Supervisor(serving, listener, workers, address=address).run())


@main.command(context_settings=CONTEXT)
@click.option("--jobs", type=click.IntRange(1), default=None, help="Processes sharing the work (default: one per core).")
def warm(jobs: int | None) -> None:
    """Compile every game's kernels now (once per installed version): the next serve, play or
    bench loads them from the cache at once."""
    import os

    try:
        from .web.botpool import cores
        from .web.warm import compile_everything
    except ImportError as exc:
        raise Failure(TEXTS("cli_web_needs", module=exc.name)) from None
    seconds = compile_everything(jobs or cores())
    click.echo(f"every game's kernels are ready ({seconds:.1f} s; cache: {os.environ.get('NUMBA_CACHE_DIR', 'none')})")


def _missing_driver(url: str, exc: ModuleNotFoundError, verb: str) -> Any:
    """The message for a database driver that is not installed (psycopg: the postgres extra);
    ``verb`` is ``open`` or ``migrate``."""
    module = (exc.name or "").partition(".")[0]
    doing = TEXTS(f"cli_db_{verb}")
    if module.startswith("psycopg"):
        return TEXTS("cli_db_postgres", verb=doing, url=url)
    return TEXTS("cli_db_driver", verb=doing, url=url, error=str(exc))


DB_OPTION = click.option("--db", default=None, metavar="URL",
                         help="SQLAlchemy database URL or a SQLite file path (default: ./ludothek.sqlite3).")


def _web_import() -> None:
    try:
        import sqlalchemy  # noqa: F401

        from .web import migrations  # noqa: F401
    except ImportError as exc:
        raise Failure(TEXTS("cli_web_needs", module=exc.name)) from None


def _upgrade(db: str | None) -> None:
    """Bring the schema up to date and say from which revision to which."""
    _web_import()
    from sqlalchemy import create_engine

    from .web import migrations
    from .web.backup import shown
    from .web.store import database_url

    url = database_url(db)
    try:
        engine = create_engine(url)
        before = migrations.current(engine)
        migrations.upgrade(engine)
        after = migrations.current(engine)
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "migrate")) from None
    except LudothekError as exc:  # a schema newer than this Ludothek
        raise Failure(exc) from None
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_migrate"), url=url, error=exc)) from None
    click.echo(f"{shown(url)}: schema {after}" + ("" if before == after else f" (was {before or 'empty'})"))


@main.command(context_settings=CONTEXT)
@DB_OPTION
def migrate(db: str | None) -> None:
    """The same as 'ludothek db upgrade' (kept for scripts that call it)."""
    _upgrade(db)


@main.group("db", cls=LudothekGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def db_command(ctx: click.Context) -> None:
    """The web app's database schema: upgrade, current. Servers also upgrade when they start."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@db_command.command("upgrade")
@DB_OPTION
def db_upgrade(db: str | None) -> None:
    """Run the schema migrations up to the newest revision this Ludothek knows."""
    _upgrade(db)


@db_command.command("current")
@DB_OPTION
def db_current(db: str | None) -> None:
    """Print the database's schema revision and whether it is up to date, older (run 'ludothek
    db upgrade') or newer than this Ludothek (upgrade Ludothek). Exit status 1 when it is newer."""
    _web_import()
    from sqlalchemy import create_engine

    from .web import migrations
    from .web.backup import shown
    from .web.store import database_url

    url = database_url(db)
    try:
        engine = create_engine(url)
        at = migrations.current(engine)
        engine.dispose()
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "open")) from None
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_open"), url=url, error=exc)) from None
    head = migrations.head()
    if at is None:
        state = "empty (no schema yet: 'ludothek db upgrade' or a server's start creates it)"
    elif at == head:
        state = "up to date"
    elif at in migrations.known():
        state = f"older than this Ludothek's {head}: run 'ludothek db upgrade'"
    else:
        state = f"NEWER than this Ludothek knows ({head}): upgrade Ludothek"
    click.echo(f"{shown(url)}: schema {at or '-'}, {state}")
    if at is not None and at not in migrations.known():
        sys.exit(1)


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _size(count: int) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    return str(count)  # pragma: no cover


@main.command(context_settings=CONTEXT)
@DB_OPTION
@click.argument("file", type=FilePath(), metavar="FILE")
def backup(db: str | None, file: str) -> None:
    """Back the web app's database up into FILE, safely while servers run: SQLite with its online
    backup API, PostgreSQL with pg_dump --format=custom (Debian: postgresql-client). Restore
    with 'ludothek restore'. The last line says the size and what the backup holds."""
    _web_import()
    from .web.backup import backup as make_backup
    from .web.backup import shown
    from .web.store import database_url

    url = database_url(db)
    try:
        summary = make_backup(url, file)
    except LudothekError as exc:
        raise Failure(exc) from None
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "open")) from None
    except OSError as exc:
        raise Failure(TEXTS("cannot_write", path=file, reason=os_reason(exc))) from None
    except Exception as exc:  # noqa: BLE001 - an unreachable database, a locked file
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_open"), url=url, error=exc)) from None
    click.echo(f"backed up {shown(url)} into {file}: {_size(summary.size)}, {_counted(summary.games, 'game')}, "
               f"{_counted(summary.moves, 'move')}, schema {summary.revision}")


@main.command(context_settings=CONTEXT)
@DB_OPTION
@click.option("--force", is_flag=True, help="Replace what the target database holds (stop its servers first).")
@click.argument("file", type=FilePath(), metavar="FILE")
def restore(db: str | None, force: bool, file: str) -> None:
    """Restore a backup made by 'ludothek backup' into a fresh database (one that holds no rows;
    --force replaces what it holds), then upgrade its schema if the backup is older."""
    _web_import()
    from .web.backup import restore as do_restore
    from .web.backup import shown
    from .web.store import database_url

    url = database_url(db)
    try:
        summary = do_restore(file, url, force=force)
    except LudothekError as exc:
        raise Failure(exc) from None
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "open")) from None
    except Exception as exc:  # noqa: BLE001 - an unreachable database, a locked file
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_open"), url=url, error=exc)) from None
    migrated = f", upgraded to {summary.migrated_to}" if summary.migrated_to else ""
    click.echo(f"restored {file} into {shown(url)}: {_counted(summary.games, 'game')}, "
               f"{_counted(summary.moves, 'move')}, "
               f"schema {summary.revision}{migrated}")


@main.group("users", cls=LudothekGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def users_command(ctx: click.Context) -> None:
    """The web app's accounts, for whoever runs the server: list, reset-password, disable, enable;
    the chat's reports, mute, ban."""
    if ctx.invoked_subcommand is None:  # `ludothek users` alone: its help is the answer
        click.echo(ctx.get_help())


def _accounts(db: str | None) -> Any:
    """The accounts of the database ``db`` (migrated first, as a server would); close its store."""
    try:
        from .web.accounts import Accounts
        from .web.store import Store, database_url
    except ImportError as exc:
        raise Failure(TEXTS("cli_web_needs", module=exc.name)) from None
    url = database_url(db)
    try:
        store = Store(url)
    except ModuleNotFoundError as exc:
        raise Failure(_missing_driver(url, exc, "open")) from None
    except LudothekError as exc:  # a schema newer than this Ludothek
        raise Failure(exc) from None
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise Failure(TEXTS("cli_db_failed", verb=TEXTS("cli_db_open"), url=url, error=exc)) from None
    return Accounts(store)


def _account_change(db: str | None, change: Any) -> None:
    """Run ``change(accounts)``; a web error (no such user, a weak password) is a clean failure."""
    from .web.service import WebError

    accounts = _accounts(db)
    try:
        change(accounts)
    except WebError as exc:
        raise Failure(exc.keyed) from None
    finally:
        accounts.store.close()


def _printable(text: str) -> str:
    """A name as the terminal may show it: no control characters (an operator's terminal obeys them)."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _when(seconds: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(seconds)) if seconds else "-"


@users_command.command("list")
@DB_OPTION
def users_list(db: str | None) -> None:
    """Every account: name, created and last seen (UTC), live sessions, games, active or disabled."""
    accounts = _accounts(db)
    try:
        rows = accounts.users()
    finally:
        accounts.store.close()
    if not rows:
        click.echo("no accounts")
        return
    table = [("NAME", "CREATED", "LAST SEEN", "SESSIONS", "GAMES", "STATUS")]
    for row in rows:
        status = f"disabled {_when(row['disabled'])}" if row["disabled"] else "active"
        table.append((_printable(row["name"]), _when(row["created"]), _when(row["seen"]), str(row["sessions"]),
                      str(row["games"]), status))
    widths = [max(len(line[k]) for line in table) for k in range(len(table[0]))]
    for line in table:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def _has_terminal() -> bool:
    """Whether a person can be asked (standard input is a terminal)."""
    return sys.stdin is not None and sys.stdin.isatty()


@users_command.command("reset-password")
@click.argument("name")
@DB_OPTION
@click.option("--password-stdin", is_flag=True, help="Read the new password from the first line of standard input.")
def users_reset_password(name: str, db: str | None, password_stdin: bool) -> None:
    """Give the account NAME a new password (asked twice on a terminal, not shown; from a script
    use --password-stdin) and end its sessions."""
    from .web.service import WebError

    accounts = _accounts(db)
    try:
        accounts.user(name)  # an unknown name is refused before any password is asked for
        if password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        elif not _has_terminal():
            raise Failure(TEXTS("cli_password_terminal"))
        else:
            password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
        accounts.reset_password(name, password)
    except WebError as exc:
        raise Failure(exc.keyed) from None
    finally:
        accounts.store.close()
    click.echo(f"{_printable(name)}: new password set; its sessions ended")


@users_command.command("disable")
@click.argument("name")
@DB_OPTION
def users_disable(name: str, db: str | None) -> None:
    """Disable the account NAME: it can no longer log in, and its sessions end (its games stay)."""
    _account_change(db, lambda accounts: accounts.set_disabled(name, True))
    click.echo(f"{_printable(name)}: disabled")


@users_command.command("enable")
@click.argument("name")
@DB_OPTION
def users_enable(name: str, db: str | None) -> None:
    """Enable the disabled account NAME again."""
    _account_change(db, lambda accounts: accounts.set_disabled(name, False))
    click.echo(f"{_printable(name)}: enabled")


@users_command.command("reports")
@DB_OPTION
def users_reports(db: str | None) -> None:
    """Reported chat messages, newest first, each with the messages before it in its room."""
    from .web import chat

    accounts = _accounts(db)
    try:
        rows = chat.reports(accounts.store)
    finally:
        accounts.store.close()
    if not rows:
        click.echo("no reports")
        return
    for row in rows:
        reason = f" ({_printable(row['reason'])})" if row["reason"] else ""
        click.echo(f"#{row['id']} {_when(row['at'])} {_printable(row['reporter'])} reported "
                   f"{_printable(row['author'] or 'a guest')} in {row['room']}{reason}:")
        for line in row["context"]:
            click.echo(f"    {_when(line['at'])} {_printable(line['name'] or 'guest')}: {_printable(line['text'])}")


@users_command.command("mute")
@click.argument("name")
@click.option("--hours", type=Finite(0, 8760), required=True, help="How long (0 lifts the mute).")
@DB_OPTION
def users_mute(name: str, hours: float, db: str | None) -> None:
    """Mute NAME in the chat for HOURS: cannot write, and his messages are hidden from everyone else."""
    from .web import chat

    until: list[float | None] = []
    _account_change(db, lambda accounts: until.append(chat.mute(accounts.store, name, hours)))
    click.echo(f"{_printable(name)}: muted until {_when(until[0])} UTC" if until[0] else f"{_printable(name)}: mute lifted")


@users_command.command("ban")
@click.argument("name")
@click.option("--lift", is_flag=True, help="Lift the ban.")
@DB_OPTION
def users_ban(name: str, lift: bool, db: str | None) -> None:
    """Ban NAME from the chat: cannot write, and his messages are hidden from everyone else."""
    from .web import chat

    _account_change(db, lambda accounts: chat.ban(accounts.store, name, not lift))
    click.echo(f"{_printable(name)}: {'ban lifted' if lift else 'banned from the chat'}")


def _old_output_option(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if value is not None:
        raise click.UsageError("solve writes its table with -O/--output now (-o sets a game option in the other "
                               "verbs)", ctx)


def _solvable() -> list[str]:
    return [name for name in games() if game_spec(name).solver]


@main.command("solve", context_settings=CONTEXT,
              epilog=f"GAME: {', '.join(_solvable()) or 'none installed'} (the games small enough to solve).")
@click.argument("game", type=GameName(), metavar="GAME")
@click.option("--output", "-O", type=FilePath(), default=None, metavar="FILE",
              help="Also write the table (.npz) to FILE. (-O, not -o: elsewhere -o sets a game option.)")
@click.option("-o", "old_output", hidden=True, expose_value=False, callback=_old_output_option)
def solve_command(game: str, output: str | None) -> None:
    """Solve GAME outright by retrograde analysis (for games small enough)."""
    spec = game_spec(game)
    if not spec.solver:
        raise Failure(TEXTS("cli_solve", game=repr(game), solvable=", ".join(_solvable()) or TEXTS("cli_no_solvable")))
    spec.load("solver")(_stdout_console(), output)


@main.group("puzzles", cls=LudothekGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def puzzles_command(ctx: click.Context) -> None:
    """Puzzles: positions where exactly one move wins or saves the game (docs/PUZZLES.md)."""
    if ctx.invoked_subcommand is None:  # `ludothek puzzles` alone: its help is the answer
        click.echo(ctx.get_help())


@puzzles_command.command("mine", context_settings=CONTEXT, epilog=GAMES_EPILOG)
@click.argument("game", type=GameName(), metavar="GAME")
@click.option("--count", type=click.IntRange(1, 100000), default=200, show_default=True,
              help="Stop once the file holds this many puzzles.")
@click.option("--games", "max_games", type=click.IntRange(1, 1000000), default=1000, show_default=True,
              help="Stop after playing this many more games.")
@click.option("--seed", type=click.IntRange(0, 2**31), default=1, show_default=True,
              help="Seed of the first game (a file being extended goes on from its own next seed).")
@click.option("--out", "out", type=FilePath(), default=None, metavar="FILE",
              help="The puzzle file to create or extend (default: puzzles-GAME.json).")
@click.option("--agents", default="bot:5,bot:5", show_default=True, metavar="A,B",
              help="The two agents that play the games (any agent spec, e.g. alphabeta:20k).")
@click.option("--random-plies", type=click.IntRange(0, 1000), default=2, show_default=True,
              help="Random moves that open each game (variety).")
@click.option("--window", type=click.IntRange(1, 100000), default=30, show_default=True,
              help="Look for puzzles in the last N plies of each game.")
@click.option("--branch", is_flag=True, help="Also look at the positions one other move away from them.")
@click.option("--per-game", type=click.IntRange(1, 1000), default=4, show_default=True,
              help="Keep at most this many puzzles from one game.")
def puzzles_mine(game: str, count: int, max_games: int, seed: int, out: str | None, agents: str, random_plies: int,
                 window: int, branch: bool, per_game: int) -> None:
    """Mine puzzles of GAME from games between two bots into a JSON file (resumable: it is
    written after every game, and a second run extends it)."""
    from pathlib import Path

    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from .ai.base import make_agent
    from .ai.puzzles import mine

    pair = tuple(a.strip() for a in agents.split(","))
    if len(pair) != 2 or not all(pair):
        raise Failure(f"--agents takes two agents separated by a comma, not {agents!r}")
    for spec in pair:
        try:
            make_agent(spec, game, 0)
        except LudothekError as exc:
            raise Failure(exc, where="--agents") from None
    path = Path(out or f"puzzles-{game}.json")
    with bars(TextColumn(f"mining {game}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
              TimeElapsedColumn(), transient=False) as progress:
        task = progress.add_task("", total=count)

        def tell(found: int, played: int, kept: int) -> None:
            progress.update(task, completed=found, description=f"puzzles, {played} games played")

        try:
            data = mine(game, path, count, max_games, seed, pair, random_plies, per_game, window, branch, tell)
        except (ValueError, OSError) as exc:  # not a puzzle file, or one that cannot be read or written
            raise Failure(os_reason(exc) if isinstance(exc, OSError) else str(exc), where=str(path)) from None
    click.echo(f"{path}: {len(data['puzzles'])} puzzles ({data['mined']['games']} games mined)")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(prog_name="ludothek"))
