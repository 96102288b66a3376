"""Terminal play: a board drawing, moves typed in notation, agents as opponents."""

from __future__ import annotations

import random
import re
import secrets
import sys
import time
from typing import Any

from rich.console import Console

from . import i18n
from .ai.base import Agent, make_agent
from .core import fairdice
from .core.errors import IllegalMove, LudothekError
from .core.messages import Message, in_language
from .core.protocol import CHANCE, GameState
from .core.record import Record, dump
from .core.registry import game_spec
from .core.texts import os_reason

#: the start of a game's message that a move is not legal (``{move} is not legal: {why}``)
_NOT_LEGAL = re.compile(r"^(\{\w+\}|'[^']*') is not legal: ")
#: what a person may type besides a move: these English words in every language ...
COMMANDS = ("moves", "undo", "save", "resign", "board", "help", "quit")
#: ... and the German ones, which the German help lists (the first of each; the others are
#: spellings without umlauts and synonyms)
GERMAN_COMMANDS = {"moves": ("züge", "zuege"), "undo": ("zurück", "zurueck"), "save": ("speichern",),
                   "resign": ("aufgeben",), "board": ("brett",), "help": ("hilfe",), "quit": ("ende", "beenden")}
_TYPED = {**{command: command for command in COMMANDS},
          **{word: command for command, words in GERMAN_COMMANDS.items() for word in words},
          "exit": "quit", "?": "help"}


def typed_command(word: str) -> str | None:
    """The command a typed word names (``züge`` -> ``moves``), or None: then it is a move."""
    return _TYPED.get(word.lower())


def command_word(command: str, lang: str) -> str:
    """How the help of ``lang`` writes a command."""
    return GERMAN_COMMANDS[command][0] if lang == "de" else command


class TerminalGame:
    """``interactive``: whether leaving early (``quit``, Ctrl-C) asks to save the game; by
    default when a person is at a terminal (stdin is a tty).

    Against an agent the dice are fair (:mod:`ludothek.core.fairdice`): every roll follows from
    ``dice_secret`` (a fresh one if not given) and ``game_id``, the commitment is shown at the
    start and the secret when the session ends, and a typed outcome (``B5W6``) is refused. A
    hot-seat game rolls with ``rng`` and takes typed outcomes (for analysis).

    ``delay``: when agents play both seats, the seconds ``sleep`` waits after each move, so a
    person can follow the game."""

    def __init__(self, state: GameState, vs: str, me: str, seat: int, lang: str, rng: random.Random,
                 tags: dict[str, str] | None = None, console: Console | None = None, read=input,
                 interactive: bool | None = None, dice_secret: str | None = None, game_id: str | None = None,
                 delay: float = 0.0, sleep=None):
        self.state = state
        self.sleep = sleep or time.sleep
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
        self.fair = any(agent is not None for agent in self.seats)
        self.delay = delay if all(agent is not None for agent in self.seats) else 0.0
        self.dice_secret = (dice_secret or fairdice.new_secret()) if self.fair else None
        self.game_id = (game_id or secrets.token_urlsafe(9)) if self.fair else None
        self.revealed = False  # the session is over: records hold the secret

    def fair_dice(self) -> bool:
        """Whether this session's dice are fair and matter: it rolled for the first move, or
        the game rolls dice."""
        return self.fair and (fairdice.TAG_START_ROLL in self.tags or fairdice.has_chance(self.state.name))

    def reveal(self) -> None:
        """The session is over: show the dice secret (saved records hold it from now on)."""
        if self.fair_dice() and not self.revealed:
            self.revealed = True
            self.say("dice_revealed", secret=self.dice_secret)

    def say(self, key: str, **values: Any) -> None:
        self.console.print(i18n.text(key, self.lang, **values), markup=False)

    def help(self) -> None:
        self.say("help", commands=i18n.text("help_commands", self.lang,
                                            **{command: command_word(command, self.lang) for command in COMMANDS}))
        hint = game_spec(self.state.name).hint
        if hint:
            self.console.print(hint.get(self.lang) or hint.get("en", ""), markup=False)

    def colour(self, colour: str | None) -> str:
        return i18n.colour_name(colour or "", self.lang)

    def run(self) -> None:
        if self.fair_dice():
            self.say("dice_fair", commitment=fairdice.commitment(self.dice_secret), game_id=self.game_id)
        self.console.print(self.state.render(self.lang))
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
                self.console.print(self.state.render(self.lang))
                if self.delay > 0 and not self.state.is_over():
                    self.sleep(self.delay)
                continue
            if not self.human_turn(player):
                return False
        return True

    def leave(self) -> None:
        """Leave an unfinished game; at a terminal, offer to save it first."""
        self.reveal()
        self.offer_save()
        self.say("bye")

    def offer_save(self) -> None:
        """At a terminal, ask whether to save the game (unless saved as it stands)."""
        if self.interactive and self.state.ply and self.saved_as != self.state.record_tokens():
            while self.ask("save_ask", "").lower() in i18n.text("yes_answers", self.lang).split():
                default = f"{self.state.name}.ludo"
                if self.save(self.ask("save_file", default, default=default) or default):
                    break

    def ask(self, key: str, empty: str, **values: Any) -> str:
        """The answer to a question; ``empty`` on end of input or Ctrl-C."""
        try:
            return self.read(i18n.text(key, self.lang, **values)).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return empty

    def roll(self) -> None:
        if self.fair:
            action = fairdice.roll(self.state, self.dice_secret, self.game_id)
        else:
            actions, weights = zip(*self.state.chance_outcomes())
            action = self.rng.choices(actions, weights)[0]
        self.say("rolled", face=self.state.action_to_str(action))
        self.state.play(action)
        self.console.print(self.state.render(self.lang))

    def human_turn(self, player: int) -> bool:
        """One command from the person at ``player``; False when they leave."""
        colour = self.state.seat_colour(player)
        try:
            line = self.read(f"{self.colour(colour)} ({i18n.text('you', self.lang)}) > ")
        except EOFError:  # the input ended: nobody is there to answer a question
            self.console.print()
            self.interactive = False
            return False
        except KeyboardInterrupt:
            self.console.print()
            return False
        word, _, argument = line.strip().partition(" ")
        if not word:
            return True
        command = typed_command(word)
        if command == "quit":
            return False
        if command == "help":
            self.help()
        elif command == "moves":
            self.say("legal", moves=" ".join(self.state.legal_moves()))
        elif command == "board":
            self.console.print(self.state.render(self.lang))
        elif command == "undo":
            self.undo()
        elif command == "save":
            self.save(argument.strip() or f"{self.state.name}.ludo")
        elif command == "resign":
            self.resigned = colour
        else:
            move = line.strip()
            try:
                if not self.play_typed(move):
                    return True
            except IllegalMove as exc:  # understood, but the rules forbid it here
                self.say("illegal", move=move, reason=self.why_illegal(exc, move))
                return True
            except LudothekError as exc:
                self.say("unknown", error=exc)
                return True
            self.console.print(self.state.render(self.lang))
        return True

    def why_illegal(self, exc: IllegalMove, move: str) -> Any:
        """Why ``move`` is not legal, in the session's language: the error without its
        "'c1' is not legal: " (``Illegal move c1: …`` names the move already), else the whole
        error."""
        message = exc.message
        if not isinstance(message, Message):  # a plugin game's English text
            return str(exc).removeprefix(f"{move!r} is not legal: ")
        # "{move} is not legal: {why}" / "{move} ist nicht erlaubt: {why}": the template after its first ": "
        if not _NOT_LEGAL.match(message.templates["en"]):
            return exc
        template = message.templates.get(self.lang) or message.templates["en"]
        _, separator, rest = template.partition(": ")
        if not separator:
            return exc
        return rest.format(**{name: in_language(value, self.lang) for name, value in message.values.items()})

    def play_typed(self, move: str) -> bool:
        """Play a typed move; against an agent, refuse one that names a roll's outcome (the
        program rolls) and return False."""
        if not self.fair:
            self.state.play(move)
            return True
        start = self.state.ply
        try:
            for action in self.state.parse_token(move):
                if self.state.current_player() == CHANCE:
                    example = " ".join(text for text in self.state.move_texts[start:] if text)
                    self.rewind(start)
                    agent = next(name for name, seat in zip(self.names, self.seats) if seat is not None)
                    self.say("dice_typed", agent=agent, example=f" ({example})" if example else "")
                    return False
                self.state.play(int(action))
        except LudothekError:
            self.rewind(start)
            raise
        return True

    def rewind(self, ply: int) -> None:
        while self.state.ply > ply:
            self.state.undo()

    def undo(self) -> None:
        """Take back to the last time a person was to move (skipping agents and rolls):
        against an agent, the person's last move and the agent's reply. Never after the end,
        and against an agent never past a roll that was shown (its face stays: nobody learns a
        face and then chooses anew)."""
        if self.state.is_over() or self.resigned is not None:
            self.say("undo_over")
            return
        if not self.state.ply:
            self.say("nothing_to_undo")
            return
        probe = self.state.copy()
        crosses_a_roll = False
        while True:
            probe.undo()
            crosses_a_roll = crosses_a_roll or probe.current_player() == CHANCE
            if not probe.ply or (probe.current_player() != CHANCE and self.seats[probe.current_player()] is None):
                break
        if crosses_a_roll and self.fair:
            self.say("undo_past_roll")
            return
        self.rewind(probe.ply)
        self.console.print(self.state.render(self.lang))

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
        if self.fair_dice():
            tags.update(fairdice.tags(self.game_id, self.dice_secret, reveal=self.revealed))
        try:
            dump(Record.from_state(self.state, result=self.result(), **tags), path)
        except (OSError, LudothekError) as exc:
            cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc  # the file system's own words
            self.say("save_failed", path=path, reason=os_reason(cause) if getattr(cause, "strerror", None) else exc)
            return False
        self.saved_as = self.state.record_tokens()
        self.say("saved", path=path)
        return True

    def finish(self) -> None:
        if self.resigned is not None:
            self.say("resigned", colour=self.colour(self.resigned))
        elif self.state.is_over():  # why the rules ended it, in the game's own words
            reason = self.state.ending()
            words = game_spec(self.state.name).endings.get(reason or "")
            if words:
                self.console.print(words.get(self.lang) or words["en"], markup=False)
            else:
                self.say("ended_by_rules")
        result = self.result()
        if result == "draw":
            self.say("draw")
        elif result != "*":
            self.say("winner", colour=self.colour(result))
        score = self.state.score()
        if score is not None:
            self.say("score", score=", ".join(f"{self.colour(c)} {n}" for c, n in score.items()))
        self.reveal()
        if self.revealed:  # the record proves the dice: offer to keep it
            self.offer_save()
