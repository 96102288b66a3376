"""Terminal play: a board drawing, moves typed in notation, agents as opponents."""

from __future__ import annotations

import random
import sys
from typing import Any

from rich.console import Console

from . import i18n
from .ai.base import Agent, make_agent
from .core.errors import IllegalMove, LudothekError
from .core.protocol import CHANCE, GameState
from .core.record import Record, dump
from .core.registry import game_spec


class TerminalGame:
    """``interactive``: whether leaving early (``quit``, Ctrl-C) asks to save the game; by
    default when a person is at a terminal (stdin is a tty)."""

    def __init__(self, state: GameState, vs: str, me: str, seat: int, lang: str, rng: random.Random,
                 tags: dict[str, str] | None = None, console: Console | None = None, read=input,
                 interactive: bool | None = None):
        self.state = state
        if interactive is None:
            interactive = read is input and sys.stdin is not None and sys.stdin.isatty()
        self.interactive = interactive
        self.saved_as: list[str] | None = None  # the moves when the game was last saved
        self.lang = lang
        self.rng = rng
        self.console = console or Console(highlight=False)
        self.read = read
        self.tags = dict(tags or {})
        self.seats: list[Agent | None] = [None, None]
        for which, spec in ((seat, me), (1 - seat, vs)):
            if spec != "human":
                self.seats[which] = make_agent(spec, state.name, seed=rng.randrange(2**31))
        self.names = [spec for spec in ((me, vs) if seat == 0 else (vs, me))]
        self.resigned: str | None = None

    def say(self, key: str, **values: Any) -> None:
        self.console.print(i18n.text(key, self.lang, **values), markup=False)

    def help(self) -> None:
        self.say("help")
        hint = game_spec(self.state.name).hint
        if hint:
            self.console.print(hint.get(self.lang) or hint.get("en", ""), markup=False)

    def colour(self, colour: str | None) -> str:
        return i18n.colour_name(colour or "", self.lang)

    def run(self) -> None:
        self.console.print(self.state.render())
        if all(agent is None for agent in self.seats):
            self.help()
        try:
            if not self.play_on():
                self.leave()
                return
        except KeyboardInterrupt:  # Ctrl-C while an agent thinks or a die rolls
            self.console.print()
            self.leave()
            return
        self.finish()

    def play_on(self) -> bool:
        """Play until the game ends (True) or the person leaves (False)."""
        while not self.state.is_over() and self.resigned is None:
            player = self.state.current_player()
            if player == CHANCE:
                self.roll()
                continue
            agent = self.seats[player]
            if agent is not None:
                move = self.state.action_to_str(agent.choose(self.state))
                self.state.play(move)
                self.say("played", who=f"{self.colour(self.state.seat_colour(player))} ({agent.name})",
                         move=self.state.move_texts[-1])
                self.console.print(self.state.render())
                continue
            if not self.human_turn(player):
                return False
        return True

    def leave(self) -> None:
        """Leave an unfinished game; at a terminal, offer to save it first."""
        if self.interactive and self.state.ply and self.saved_as != self.state.record_tokens():
            while self.ask("save_ask", "").lower() in i18n.text("yes_answers", self.lang).split():
                default = f"{self.state.name}.ludo"
                if self.save(self.ask("save_file", default, default=default) or default):
                    break
        self.say("bye")

    def ask(self, key: str, empty: str, **values: Any) -> str:
        """The answer to a question; ``empty`` on end of input or Ctrl-C."""
        try:
            return self.read(i18n.text(key, self.lang, **values)).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return empty

    def roll(self) -> None:
        outcomes = self.state.chance_outcomes()
        actions, weights = zip(*outcomes)
        action = self.rng.choices(actions, weights)[0]
        self.say("rolled", face=self.state.action_to_str(action))
        self.state.play(action)
        self.console.print(self.state.render())

    def human_turn(self, player: int) -> bool:
        """One command from the person at ``player``; False when they leave."""
        colour = self.state.seat_colour(player)
        try:
            line = self.read(i18n.text("prompt", self.lang, colour=self.colour(colour), who=i18n.text("you", self.lang)))
        except EOFError:  # the input ended: nobody is there to answer a question
            self.console.print()
            self.interactive = False
            return False
        except KeyboardInterrupt:
            self.console.print()
            return False
        command, _, argument = line.strip().partition(" ")
        lowered = command.lower()
        if not command:
            return True
        if lowered in ("quit", "exit"):
            return False
        if lowered in ("help", "?"):
            self.help()
        elif lowered == "moves":
            self.say("legal", moves=" ".join(self.state.legal_moves()))
        elif lowered == "board":
            self.console.print(self.state.render())
        elif lowered == "undo":
            self.undo()
        elif lowered == "save":
            self.save(argument.strip() or f"{self.state.name}.ludo")
        elif lowered == "resign":
            self.resigned = colour
        else:
            move = line.strip()
            try:
                self.state.play(move)
            except IllegalMove as exc:  # understood, but the rules forbid it here
                reason = str(exc).removeprefix(f"{move!r} is not legal: ")
                self.say("illegal", move=move, reason=reason)
                return True
            except LudothekError as exc:
                self.say("unknown", error=str(exc))
                return True
            self.console.print(self.state.render())
        return True

    def undo(self) -> None:
        """Take back to the last time a person was to move (skipping agents and rolls)."""
        if not self.state.ply:
            self.say("nothing_to_undo")
            return
        self.state.undo()
        while self.state.ply and (
            self.state.current_player() == CHANCE or self.seats[self.state.current_player()] is not None
        ):
            self.state.undo()
        self.console.print(self.state.render())

    def result(self) -> str:
        if self.resigned is not None:
            return next(c for c in self.state.colours if c != self.resigned) if self.resigned in self.state.colours else "*"
        return self.state.result()

    def save(self, path: str) -> bool:
        tags = dict(self.tags)
        for seat in (0, 1):
            tags[self.state.seat_colour(seat).capitalize()] = self.names[seat]
        if self.resigned is not None:
            tags["Termination"] = "resign"
        try:
            dump(Record.from_state(self.state, result=self.result(), **tags), path)
        except (OSError, LudothekError) as exc:
            cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc  # the file system's own words
            self.say("save_failed", path=path, reason=getattr(cause, "strerror", None) or str(exc))
            return False
        self.saved_as = self.state.record_tokens()
        self.say("saved", path=path)
        return True

    def finish(self) -> None:
        if self.resigned is not None:
            self.say("resigned", colour=self.colour(self.resigned))
        result = self.result()
        if result == "draw":
            self.say("draw")
        elif result != "*":
            self.say("winner", colour=self.colour(result))
        score = self.state.score()
        if score is not None:
            self.say("score", score=", ".join(f"{self.colour(c)} {n}" for c, n in score.items()))
