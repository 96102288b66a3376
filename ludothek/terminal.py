"""Terminal play: a board drawing, moves typed in notation, agents as opponents."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from . import i18n
from .ai.base import Agent, make_agent
from .core.errors import LudothekError
from .core.protocol import CHANCE, GameState
from .core.record import Record, dump


class TerminalGame:
    def __init__(self, state: GameState, vs: str, me: str, seat: int, lang: str, rng: random.Random,
                 tags: dict[str, str] | None = None, console: Console | None = None, read=input):
        self.state = state
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
        self.console.print(i18n.text(key, self.lang, **values))

    def colour(self, colour: str | None) -> str:
        return i18n.colour_name(colour or "", self.lang)

    def run(self) -> None:
        self.console.print(self.state.render())
        if all(agent is None for agent in self.seats):
            self.say("help")
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
                self.say("bye")
                return
        self.finish()

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
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return False
        command, _, argument = line.strip().partition(" ")
        lowered = command.lower()
        if not command:
            return True
        if lowered in ("quit", "exit"):
            return False
        if lowered in ("help", "?"):
            self.say("help")
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
            try:
                self.state.play(line.strip())
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

    def save(self, path: str) -> None:
        tags = dict(self.tags)
        for seat in (0, 1):
            tags[self.state.seat_colour(seat).capitalize()] = self.names[seat]
        if self.resigned is not None:
            tags["Termination"] = "resign"
        try:
            dump(Record.from_state(self.state, result=self.result(), **tags), path)
        except OSError as exc:
            self.say("unknown", error=f"{path}: {exc.strerror}")
            return
        self.say("saved", path=path)

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
