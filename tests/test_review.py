"""Computer analysis of finished games (issue 12, item 7): ludothek.ai.review and ``ludothek review``."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from ludothek.ai import review as R
from ludothek.ai.review import BLUNDER, INACCURACY, MISTAKE, merge, review_game, spans
from ludothek.ai.winchance import mark_of
from ludothek.cli import main
from ludothek.core.errors import LudothekError
from ludothek.core.record import Record, dump
from ludothek.core.registry import game_class

#: Trike, Black to move: a1 walls the pawn in and wins; d4 lets White wall it in with c3
TRIKE_CHOICE = "1/bW/ww1/bwb1/1bbw1/2wbw1/5b1 b"


def trike_blunder():
    return game_class("trike")(TRIKE_CHOICE), ["d4", "c3"]


def random_game(game: str, plies: int, seed: int, **options):
    state = game_class(game)(**options)
    rng = random.Random(seed)
    while not state.is_over() and state.ply < plies:
        state.play(rng.choice(state.legal_actions()))
    return state


def test_marks_by_the_size_of_the_loss():
    # percentage points of winning chances
    assert (INACCURACY, MISTAKE, BLUNDER) == (10, 20, 30)
    assert [mark_of(x) for x in (0.0, 9.9, 10, 19.9, 20, 29.9, 30, 100)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_losing_move_where_a_winning_one_was_there_is_a_blunder():
    start, moves = trike_blunder()
    assert sorted(start.legal_moves()) == ["a1", "c3", "d4", "e5", "f6", "g7"]
    result = review_game(start, moves)
    assert start.ply == 0 and start.position().startswith("1/bW")  # the start is left as it was
    assert result.method == "search" and result.agent == "mcts" and result.budget == R.BUDGETS["mcts"]
    # Black (seat 0) wins with a1, and the search says so
    assert result.start == {"ply": 0, "eval": 1.0, "win": 100.0, "exact": None, "next_best": "a1", "line": ["a1"]}
    first, second = result.entries
    assert (first.ply, first.move, first.colour, first.seat, first.chance) == (1, "d4", "black", 0, False)
    assert first.eval == -1.0 and first.mark == "blunder" and first.symbol == "??"
    assert first.best == "a1" and first.best_eval == 1.0 and first.loss == 100.0 and first.win == 0.0
    # White took the win: the best move, nothing to mark
    assert (second.move, second.colour, second.eval, second.mark, second.best, second.loss) == ("c3", "white", -1.0,
                                                                                                   None, None, 0.0)
    assert result.colours == ["black", "white"]
    assert result.counts(0) == {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    data = result.to_json()
    assert data["entries"][0]["mark"] == "blunder" and data["view"] == "seat0" and data["scale"] == [-1, 1]
    json.dumps(data)  # plain JSON


def test_one_entry_per_ply_reproducible_and_the_same_in_parts():
    game = random_game("trike", 16, seed=4, size=7)
    start = game_class("trike")(size=7)
    whole = review_game(start, game.history, 200)
    assert [e.ply for e in whole.entries] == list(range(1, game.ply + 1))
    assert [e.move for e in whole.entries] == game.move_texts
    assert all(-1 <= e.eval <= 1 for e in whole.entries)
    again = review_game(start, game.history, 200)
    assert [e.to_json() for e in again.entries] == [e.to_json() for e in whole.entries]
    parts = [review_game(start, game.history, 200, span=span) for span in spans(game.ply, 5)]
    assert [p.start["ply"] for p in parts] == [0, 5, 10, 15][: len(parts)]
    assert [e.to_json() for e in merge(parts).entries] == [e.to_json() for e in whole.entries]
    # a marked move names the better one; an unmarked one with no loss names none
    for entry in whole.entries:
        assert (entry.mark is None) == (entry.loss < INACCURACY)
        assert entry.best is None or entry.loss >= R.GROUND


def test_chance_plies_are_evaluated_but_never_marked():
    game = random_game("hexalit", 12, seed=2)
    assert any(colour == "chance" for *_, colour in game._stack)
    result = review_game(game_class("hexalit")(), game.history, 120)
    assert len(result.entries) == game.ply
    chance = [e for e in result.entries if e.chance]
    assert chance and all(e.colour is None and e.seat is None for e in chance)
    assert all(e.mark is None and e.best is None and e.loss == 0 for e in chance)
    assert all(-1 <= e.eval <= 1 for e in chance)
    # the roll before an outcome is a player's decision, judged by the expected value
    for index, entry in enumerate(result.entries):
        if entry.chance:
            assert not result.entries[index - 1].chance and result.entries[index - 1].move.endswith("W")


def test_a_review_from_record_tokens_and_its_errors():
    game = random_game("hexalit", 6, seed=3)
    tokens = game.record_tokens()  # a roll and its outcome are one token
    assert len(tokens) < game.ply
    result = review_game(game_class("hexalit")(), tokens, 100)
    assert [e.ply for e in result.entries] == list(range(1, game.ply + 1))
    with pytest.raises(LudothekError, match="no moves"):
        review_game(game_class("trike")(size=7), [])
    with pytest.raises(LudothekError, match="at least 50"):
        review_game(*trike_blunder(), budget=10)
    with pytest.raises(LudothekError, match="outside"):
        review_game(*trike_blunder(), span=(1, 5))


# ---------------------------------------------------------------------------- Bitis: the solved table
def bitis_game(seed: int):
    from ludothek.ai.levels import level_agent

    state = game_class("bitis")()
    agents = [level_agent("bitis", 2, seed), level_agent("bitis", 3, seed + 1)]
    while not state.is_over() and state.ply < 40:
        state.play(agents[state.current_player()].choose(state))
    return state


def test_bitis_values_are_the_solved_tables():
    from ludothek.games.bitis import perfect
    from ludothek.games.bitis.solution import get_solution

    solution = get_solution()
    marked = 0
    for seed in (1, 2, 3, 4):
        game = bitis_game(seed)
        result = review_game(game_class("bitis")(), game.history)
        assert result.method == "solution" and result.agent == "perfect" and result.note is None
        work = game_class("bitis")()
        for entry, action in zip(result.entries, game.history):
            values = solution.move_values(work)
            top = max(v.rank for v in values.values())
            work.play(action)
            value = perfect.value(work)
            to_move = work.mover
            winner = None if value.outcome == 0 else (to_move if value.outcome > 0 else 1 - to_move)
            assert entry.exact == {"winner": winner, "plies": value.distance}
            assert entry.eval == pytest.approx(value.score() if to_move == 0 else -value.score())
            played = values[action]
            best = max(values.values(), key=lambda v: v.rank)
            # a mistake changes the game-theoretic result: a blunder by two steps
            assert entry.mark == {0: None, 1: "mistake", 2: "blunder"}[best.outcome - played.outcome]
            assert (entry.best is None) == (played.rank == top)
            marked += entry.mark is not None
            if entry.mark:
                assert R.exact_key(entry.best_exact, entry.seat) != R.exact_key(entry.exact, entry.seat)
            assert "in 0" not in R.exact_text(entry.exact, entry.seat)
    assert marked  # the lower levels do throw results away


def test_bitis_without_its_table_falls_back_to_search_and_says_so(monkeypatch):
    game = bitis_game(5)
    monkeypatch.setattr(R, "_table", lambda name: None)
    result = review_game(game_class("bitis")(), game.history[:6], 200)
    assert result.method == "search" and result.agent == "alphabeta" and result.budget == 200
    assert "not available" in result.note and all(e.exact is None for e in result.entries)
    asked = review_game(game_class("bitis")(), game.history[:6], 200, exact=False)
    assert asked.method == "search" and asked.note is None


# ---------------------------------------------------------------------------- the command
def test_review_command(tmp_path):
    start, moves = trike_blunder()
    state = start.copy()
    for move in moves:
        state.play(move)
    path = tmp_path / "blunder.ludo"
    dump(Record.from_state(state), path)
    out = CliRunner().invoke(main, ["review", str(path), "--json", "--budget", "400"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "trike" and data["budget"] == 400 and len(data["entries"]) == 2
    assert data["entries"][0]["mark"] == "blunder" and data["entries"][0]["best"] == "a1"
    table = CliRunner().invoke(main, ["review", str(path), "--budget", "400"])
    assert table.exit_code == 0, table.output
    assert "d4??" in table.output and "a1 (+1.00)" in table.output and "1 blunder" in table.output
    bitis = bitis_game(2)
    path = tmp_path / "bitis.ludo"
    dump(Record.from_state(bitis), path)
    exact = CliRunner().invoke(main, ["review", str(path)])
    assert exact.exit_code == 0, exact.output
    assert "exact values from the solved table" in exact.output
    assert any(word in exact.output for word in ("wins in", "loses in", "with this move", "draw"))
    assert "wins in 0" not in exact.output and "loses in 0" not in exact.output
    missing = CliRunner().invoke(main, ["review", str(tmp_path / "none.ludo")])
    assert missing.exit_code == 2


def test_solved_values_in_natural_words_english_and_german():
    """Bitis's labels (issue 31): the winner's own moves still to make, plurals, and a move
    that ends the game says so: never "in 0"."""
    words = R.exact_text
    assert words({"winner": 0, "plies": 0}, 0) == "wins with this move"
    assert words({"winner": 0, "plies": 0}, 0, "de") == "gewinnt mit diesem Zug"
    assert words({"winner": 0, "plies": 0}, 0, best=True) == "wins at once"
    assert words({"winner": 0, "plies": 0}, 0, "de", best=True) == "gewinnt sofort"
    assert words({"winner": 1, "plies": 0}, 0) == "loses with this move"
    assert words({"winner": 0, "plies": 2}, 0) == "wins in 1 move"
    assert words({"winner": 0, "plies": 2}, 0, "de") == "gewinnt in 1 Zug"
    assert words({"winner": 0, "plies": 4}, 0) == "wins in 2 moves"
    assert words({"winner": 0, "plies": 4}, 0, "de") == "gewinnt in 2 Zügen"
    assert words({"winner": 1, "plies": 1}, 0) == "loses in 1 move"
    assert words({"winner": 1, "plies": 5}, 0) == "loses in 3 moves"
    assert words({"winner": 1, "plies": 5}, 0, "de") == "verliert in 3 Zügen"
    assert words({"winner": None, "plies": None}, 1, "de") == "remis"
    assert words(None, 0) == ""


def test_the_web_page_says_solved_values_in_the_same_words():
    from ludothek.i18n import WEB

    for key, (english, german) in R.EXACT_WORDS.items():
        assert WEB[f"exact_{key}"] == {"en": english, "de": german}


def test_the_played_move_is_judged_against_the_searchs_next_candidates_even_when_it_was_its_choice():
    """A move the search chose at first sight is still compared with other moves, each searched
    as the played one: a real drop is marked even when the search's first choice made it."""
    from ludothek.ai.base import Analysis

    analysis = Analysis(best=5, scores={5: 0.4, 7: 0.3, 9: 0.1, 2: -0.5}, visits={})
    assert R._candidates(analysis, 5) == [7, 9]
    assert R._candidates(analysis, 7) == [5, 9]
    mcts = Analysis(best=2, scores={2: 0.1, 3: 0.2, 4: 0.0}, visits={2: 90, 3: 5, 4: 40})
    assert R._candidates(mcts, 2) == [4, 3]

    class Judge(R._Search):
        """The search's values: the first choice (5) looks best before the move, but after it
        the position is worth far less than after 7."""

        def evaluate(self, state, iterations=None):
            worth = {5: -0.3, 7: 0.2, 9: 0.0}
            return R._Value(worth[state.history[-1]], win=50 * (1 + worth[state.history[-1]]))

    class State:
        history: list[int] = []

        def legal_actions(self):
            return [5, 7, 9, 2]

        def current_player(self):
            return 0

        def action_to_str(self, action):
            return f"m{action}"

        def apply_action(self, action):
            self.history.append(action)

        def undo(self):
            self.history.pop()

    judge = Judge("trigeo", "alphabeta", 100, 1)
    entry = R.Entry(1, "m5", "white", 0, False, -0.3, 35.0)
    judge.judge(State(), 5, R._Value(0.4, analysis), R._Value(-0.3, win=35.0), entry)
    assert entry.best == "m7" and entry.loss == pytest.approx(25.0) and entry.mark == "mistake"
