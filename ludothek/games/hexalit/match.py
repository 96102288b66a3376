"""A Hexalit match for stakes: games with the doubling cube until a player reaches the
agreed number of points (``rules/hexalit.md``, "Stakes and the doubling cube")."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import GameOver, OptionError
from ...core.protocol import GameState
from .texts import TEXTS


@dataclass
class HexalitMatch:
    """The score of a match to ``length`` points between two named players.

    After each game call :meth:`add` with the finished state and the name of the player who
    had White; the winner scores the game's stake (:meth:`HexalitState.points`).  A drawn
    game scores nothing.  :meth:`start` begins the next game so that it knows the score
    (``HexalitState.match_away``: what each colour still needs), which the bots' cube
    decisions use (:mod:`.cube`); :meth:`attach` does the same for a game made elsewhere."""

    length: int
    players: tuple[str, str] = ("player 1", "player 2")
    score: dict[str, int] = field(default_factory=dict)
    #: per game: (winner's name or None for a draw, points)
    games: list[tuple[str | None, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise OptionError(TEXTS("match_length", length=repr(self.length)))
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise OptionError(TEXTS("match_players"))
        self.score = {name: self.score.get(name, 0) for name in self.players}

    def add(self, state: GameState, white: str) -> None:
        """Count a finished game in which ``white`` played White."""
        if self.is_over():
            raise GameOver(TEXTS("match_over", winner=self.winner(), length=self.length))
        if not state.is_over():
            raise GameOver(TEXTS("match_unfinished"))
        if white not in self.players:
            raise OptionError(TEXTS("match_not_player", player=repr(white), players=", ".join(self.players)))
        black = self.players[1] if white == self.players[0] else self.players[0]
        points = state.points()  # type: ignore[attr-defined]
        won = state.winner()
        name = None if won is None else (white if won == "white" else black)
        earned = points[won] if won is not None else 0
        if name is not None:
            self.score[name] += earned
        self.games.append((name, earned))

    def away(self, white: str) -> tuple[int, int]:
        """The points (White, Black) still need to win the match when ``white`` plays White."""
        if white not in self.players:
            raise OptionError(TEXTS("match_not_player", player=repr(white), players=", ".join(self.players)))
        black = self.players[1] if white == self.players[0] else self.players[0]
        return (max(0, self.length - self.score[white]), max(0, self.length - self.score[black]))

    def attach(self, state: GameState, white: str) -> GameState:
        """Tell ``state`` (a game of this match, ``white`` playing White) the match score:
        sets its ``match_away``, which the bots' cube decisions read.  Returns ``state``."""
        state.match_away = self.away(white)  # type: ignore[attr-defined]
        return state

    def start(self, white: str, position: str | None = None, **options) -> GameState:
        """The next game of the match: a new game with the cube (from the start, or from
        ``position``), ``white`` playing White, that knows the match score (:meth:`attach`)."""
        from .state import HexalitState

        if self.is_over():
            raise GameOver(TEXTS("match_over", winner=self.winner(), length=self.length))
        return self.attach(HexalitState(position, **{**options, "cube": True}), white)

    def is_over(self) -> bool:
        return any(points >= self.length for points in self.score.values())

    def winner(self) -> str | None:
        for name, points in self.score.items():
            if points >= self.length:
                return name
        return None
