"""A fifth game that lives only under tests/: Race (Wettlauf), the package in tests/plugin,
found like a third party's plugin through its entry point (registered for the tests' processes by
tests/plugin_registration.py, not installed).

It proves that a game is one package: nothing in ``ludothek/`` names it, and yet it is listed,
played in the terminal, matched by every bot, recorded, and served to OpenSpiel and PettingZoo
(the browser: tests/test_plugin_game_browser.py)."""

from __future__ import annotations

import json
import itertools
import random
import re
import warnings
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE, TERMINAL
from ludothek.ai.base import make_agent
from ludothek.ai.levels import LEVELS, level_agent
from ludothek.cli import main
from ludothek.core.errors import GameOver, IllegalMove, OptionError, ParseError, PositionError
from ludothek.core.record import Record, dump, dumps, load, loads
from ludothek.core.registry import game_spec

from .strategies import random_game

GAME = "wettlauf"
PLUGIN = Path(__file__).parent / "plugin"
PACKAGE = Path(__file__).parent.parent / "ludothek"

if GAME not in ludothek.games():
    pytest.fail("the Race plugin is not registered (tests/conftest.py registers it for the tests)",
                pytrace=False)


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def at(position: str, **options) -> ludothek.GameState:
    return ludothek.new_game(GAME, position=position, **options)


def play_random(state, rng: random.Random, plies: int | None = None):
    """Random legal actions (chance by its probabilities) until the end or ``plies`` actions."""
    while not state.is_over() and (plies is None or plies > 0):
        if state.current_player() == CHANCE:
            actions, weights = zip(*state.chance_outcomes())
            state.play(rng.choices(actions, weights)[0])
        else:
            state.play(rng.choice(state.legal_actions()))
        plies = None if plies is None else plies - 1
    return state


# ---------------------------------------------------------------------------- a plugin
def test_it_is_found_through_its_entry_point_only():
    points = [p for p in entry_points(group="ludothek.games") if p.name == GAME]
    assert len(points) == 1 and points[0].value == "ludothek_wettlauf:SPEC"
    assert points[0].dist.name == "ludothek-wettlauf"
    spec = game_spec(GAME)
    assert spec.state == "ludothek_wettlauf.state:RaceState"
    assert ludothek.game_class(GAME).__module__ == "ludothek_wettlauf.state"
    assert Path(__import__("ludothek_wettlauf").__file__).resolve().is_relative_to(PLUGIN.resolve())


def test_nothing_in_ludothek_names_it():
    for path in PACKAGE.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".js", ".html", ".json", ".css", ".toml", ".md"):
            text = path.read_text("utf-8", errors="replace").lower()
            assert "wettlauf" not in text and "racestate" not in text, path


def test_it_is_listed_by_the_registry_and_the_cli():
    assert GAME in ludothek.games()
    output = run("games").output
    assert "wettlauf: Race" in output
    assert "max_plies=1..100000 (default 200)" in output


def test_the_spec_part_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys, ludothek; ludothek.games(); from ludothek.core.registry import game_spec; "
            "game_spec('wettlauf'); print('ludothek_wettlauf.state' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"


# ---------------------------------------------------------------------------- rules
def test_the_start_is_a_roll_of_one_two_or_three():
    state = ludothek.new_game(GAME)
    assert state.position() == "s,s s,s w -"
    assert state.current_player() == CHANCE and state.to_move == "chance"
    assert state.chance_outcomes() == [(13, 1 / 3), (14, 1 / 3), (15, 1 / 3)]
    assert state.legal_moves() == ["1", "2", "3"]
    state.play("2")
    assert state.position() == "s,s s,s w 2" and state.to_move == "white"
    assert state.legal_moves() == ["s-2"] and state.chance_outcomes() == []


def test_a_move_goes_forward_by_the_roll_and_passes_the_turn():
    state = at("4,s 9,s w 3")
    assert state.legal_moves() == ["4-7", "s-3"]
    state.play("4-7")
    assert state.position() == "7,s 9,s b -"
    assert state.current_player() == CHANCE
    state.play("1")
    assert state.legal_moves() == ["9-10", "s-1"] and state.to_move == "black"


def test_landing_on_a_lone_opposing_token_sends_it_back():
    state = at("7,s 9,4 w 2")
    assert state.legal_moves() == ["7-9*", "s-2"]
    state.play("7-9*")
    assert state.position() == "9,s 4,s b -"
    # a mixed square: the one white token there is alone, so Black sends it back
    state = at("5,s 5,3 b 2")
    state.play("3")
    assert state.position() == "s,s 5,5 w -"


def test_two_opposing_tokens_are_safe_and_own_tokens_may_share():
    state = at("7,s 9,9 w 2")
    assert state.legal_moves() == ["7-9", "s-2"]
    state.play("7-9")
    assert state.position() == "9,s 9,9 b -"
    state = at("2,s s,s w 2")
    state.play("s")
    assert state.position() == "2,2 s,s b -"


def test_passing_square_twelve_brings_a_token_home():
    assert at("10,s s,s w 2").legal_moves() == ["10-12", "s-2"]
    assert at("10,s s,s w 3").legal_moves() == ["10-h", "s-3"]
    assert at("12,s s,s w 1").legal_moves() == ["12-h", "s-1"]
    state = at("h,s 11,s b 3")  # a token at home is never sent back
    state.play("11-h")
    assert state.position() == "h,s h,s w -"
    assert at("h,6 s,s w 1").legal_moves() == ["6-7"]  # a token at home does not move


def test_bringing_the_second_token_home_wins():
    state = at("h,11 8,6 w 3")
    state.play("11-h")
    assert state.is_over() and state.current_player() == TERMINAL and state.to_move is None
    assert state.winner() == "white" and state.result() == "white"
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []
    assert state.position() == "h,h 8,6 b -"
    with pytest.raises(GameOver, match="the game is over"):
        state.play("1")


def test_max_plies_ends_a_long_game_as_a_draw():
    state = ludothek.new_game(GAME, max_plies=2)
    for action in ("1", "s", "3", "s"):
        assert not state.is_over()
        state.play(action)
    assert state.is_over() and state.winner() is None and state.result() == "draw"
    assert state.returns() == [0.0, 0.0]
    # only moves count, not rolls; and a setup position counts from itself
    assert at("4,s 9,s w 3", max_plies=1).legal_moves() == ["4-7", "s-3"]
    with pytest.raises(OptionError, match="max_plies"):
        ludothek.new_game(GAME, max_plies=0)


def test_the_length_bound_is_a_roll_and_a_move_per_turn():
    cls = ludothek.game_class(GAME)
    assert cls.length_bound({"max_plies": 7}) == 14
    assert cls.length_bound(ludothek.new_game(GAME).options) == 400
    rng = random.Random(5)
    for _ in range(20):
        state = play_random(ludothek.new_game(GAME, max_plies=15), rng)
        assert state.ply <= cls.length_bound(state.options)


def test_moves_may_be_typed_loosely():
    for text in ("s-3", "S-3", " s - 3 ", "s", "S"):
        assert at("4,s 9,s w 3").parse_move(text) == 0
    assert at("7,s 9,4 w 2").parse_move("7") == 7  # the star may be left out
    assert at("7,s 9,4 w 2").action_to_str(7) == "7-9*"


@pytest.mark.parametrize("position,move,error,fragment", [
    ("s,s s,s w -", "s-2", ParseError, "the die is being rolled"),
    ("s,s s,s w -", "4", ParseError, "1, 2 or 3"),
    ("4,s 9,s w 3", "5-8", IllegalMove, "white has no token on square 5"),
    ("4,s 9,s b 3", "4-7", IllegalMove, "black has no token on square 4"),
    ("4,s 9,s w 3", "s-2", IllegalMove, "the die shows 3, so the token on the start (s) reaches square 3"),
    ("4,s 9,s w 3", "4-7*", IllegalMove, "marked '*'"),
    ("h,4 9,s w 3", "h", IllegalMove, "a token at home"),
    ("4,s 9,s w 3", "x-2", ParseError, "'x' is not a square"),
    ("4,s 9,s w 3", "13-h", ParseError, "there is no square '13'"),
    ("4,s 9,s w 3", "4--7", ParseError, "is not a move"),
    ("4,s 9,s w 3", "   ", ParseError, "empty"),
])
def test_bad_moves_are_refused_with_the_reason(position, move, error, fragment):
    state = at(position)
    with pytest.raises(error, match=re.escape(fragment)):
        state.play(move)
    assert state.position() == at(position).position() and state.ply == 0


def test_bad_actions_are_refused():
    state = ludothek.new_game(GAME)
    with pytest.raises(IllegalMove, match="outside wettlauf's action encoding"):
        state.play(16)
    with pytest.raises(IllegalMove, match="not legal"):
        state.play(0)  # a move while the die is to be rolled
    with pytest.raises(ParseError):
        state.play(1.5)


@pytest.mark.parametrize("text,fragment", [
    ("", "4 fields"),
    ("s,s s,s w", "4 fields"),
    ("s s,s w -", "white's tokens 's' must be two squares"),
    ("s,s,s s,s w -", "white's tokens"),
    ("s,x s,s w -", "white's tokens: 'x' is not a square"),
    ("s,s s,13 w -", "black's tokens: there is no square '13'"),
    ("s,s s,s x -", "side to move must be w (white) or b (black)"),
    ("s,s s,s w 4", "the roll must be 1, 2 or 3"),
    ("h,h h,h b -", "both sides have both tokens home"),
    ("h,h s,s w -", "white has both tokens home and has won"),
    ("s,s h,h w 2", "black has both tokens home and has won"),
])
def test_bad_positions_are_refused_with_the_reason(text, fragment):
    with pytest.raises(PositionError, match=re.escape(fragment)):
        at(text)


def test_positions_are_written_canonically():
    state = at(" 5,H  S,12 B 3 ")
    assert state.position() == "h,5 12,s b 3"
    assert at(state.position()) == state
    assert at("05,s s,s w -").position() == "5,s s,s w -"
    assert at("h,h 8,6 b -").is_over()


def test_render_shows_the_squares_the_tokens_and_the_turn():
    text = at("h,5 5,s b 2").render()
    lines = text.splitlines()
    assert lines[0].split() == ["s", *map(str, range(1, 13)), "h"]
    assert lines[1].split() == ["white", *".....1.......1"]
    assert lines[2].split() == ["black", "1", *"....1........"]
    assert lines[3] == "black to move, the die shows 2"
    assert ludothek.new_game(GAME).render().endswith("white to move, the die is to be rolled")


# ---------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_undo_restores_everything(data):
    state = data.draw(random_game(GAME, max_plies=120))
    before = (state.position(), state.key(), state.legal_actions(), state.to_move, state.ply)
    for action in state.legal_actions():
        state.play(action)
        state.undo()
        assert (state.position(), state.key(), state.legal_actions(), state.to_move, state.ply) == before


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_position_strings_round_trip(data):
    state = data.draw(random_game(GAME, max_plies=120))
    again = at(state.position())
    assert again.position() == state.position() and again.key() == state.key()
    if not state.is_over():
        assert again.legal_actions() == state.legal_actions()
    for side in (0, 1):
        assert len(state.tokens[side]) == 2 and all(0 <= square <= 13 for square in state.tokens[side])


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_moves_and_their_notation_agree(data):
    state = data.draw(random_game(GAME, max_plies=120))
    for action in state.legal_actions():
        assert state.parse_move(state.action_to_str(action)) == action
    entries = state.record_entries()
    assert [entry.text for entry in entries] == state.record_tokens()
    assert sum(entry.end - entry.start for entry in entries) == state.ply


# ---------------------------------------------------------------------------- records
def test_a_record_joins_each_roll_to_the_move_before_it():
    state = ludothek.new_game(GAME)
    for action in ("2", "s-2", "3", "s-3", "1"):
        state.play(action)
    assert state.record_tokens() == ["2", "s-2/3", "s-3/1"]
    assert [entry.colour for entry in state.record_entries()] == [None, "white", "black"]
    again = ludothek.new_game(GAME)
    for token in state.record_tokens():
        again.play(token)
    assert again == state and again.move_texts == state.move_texts


def test_record_tokens_are_checked():
    with pytest.raises(ParseError, match="follows a move"):
        ludothek.new_game(GAME).play("/2")
    with pytest.raises(GameOver, match="no roll follows"):
        at("h,11 8,6 w 3").play("11-h/2")
    with pytest.raises(ParseError, match="the die is being rolled"):
        at("4,s 9,s w 3").play("4-7/2/1")


def test_a_played_game_dumps_and_loads(tmp_path):
    state = play_random(ludothek.new_game(GAME), random.Random(8))
    assert state.is_over()
    record = Record.from_state(state, White="Ada", Black="Max")
    path = tmp_path / "race.ludo"
    dump(record, path)
    text = path.read_text("utf-8")
    assert '[Game "wettlauf"]' in text and text.rstrip().endswith(state.result())
    loaded = load(path)
    assert loaded == record and loads(dumps(loaded)) == loaded
    assert loaded.replay() == state and loaded.replay().result() == state.result()


def test_an_unfinished_game_with_options_round_trips():
    state = play_random(ludothek.new_game(GAME, max_plies=50), random.Random(2), plies=9)
    record = Record.from_state(state)
    text = dumps(record)
    assert '[MaxPlies "50"]' in text
    assert loads(text) == record and loads(text).replay() == state


# ---------------------------------------------------------------------------- command line
def test_cli_moves_lists_the_rolls_then_the_moves():
    assert run("moves", GAME).output.split() == ["1", "2", "3"]
    assert run("moves", GAME, "2").output.split() == ["s-2"]
    data = json.loads(run("moves", GAME, "--json", "2", "s-2", "3").output)
    assert data == {"game": GAME, "position": "2,s s,s b 3", "to_move": "black", "legal": ["s-3"],
                    "status": "ongoing", "winner": None}
    result = CliRunner().invoke(main, ["moves", GAME, "2", "s-3"])
    assert result.exit_code == 2 and "move 2 's-3'" in result.output and "reaches square 2" in result.output


def test_cli_perft_counts_rolls_and_moves():
    assert run("perft", GAME, "4").output == "1 3\n2 3\n3 9\n4 9\n"


def test_cli_hot_seat_to_the_end():
    result = run("play", GAME, "-p", "h,12 h,12 w -", "--lang", "en", "--seed", "1", input="12\n")
    assert result.exit_code == 0, result.output
    assert "The die shows" in result.output and "White wins." in result.output
    result = run("play", GAME, "-p", "h,12 h,12 b -", "--lang", "de", "--seed", "1", input="12-h\n")
    assert "Schwarz gewinnt." in result.output


def test_cli_hot_seat_with_commands_undo_and_save(tmp_path):
    path = tmp_path / "race.ludo"
    script = ["help", "moves", "zz", "5", "s", "s", "undo", "s", f"save {path}"]
    result = run("play", GAME, "--lang", "en", "--seed", "4", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert "s-2 (from the start)" in result.output  # the game's own hint
    assert "Legal moves: s-" in result.output
    assert "Not understood" in result.output and "white has no token on square 5" in result.output
    assert "Game left unfinished." in result.output
    record = load(path)
    assert record.game == GAME and record.tags["White"] == "human"
    state = record.replay()
    # roll, s, roll, s (taken back by the undo, with the roll after it, and played again), roll
    assert state.ply == 5 and state.to_move == "white"
    assert "s-" in run("replay", str(path)).output


def test_cli_match_against_a_bot():
    result = run("match", GAME, "random", "bot:1", "-n", "4", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["game"] == GAME and data["games"] == 4
    assert data["wins"] + data["draws"] + data["losses"] == 4


def test_cli_analyse_after_a_roll():
    result = run("analyse", GAME, "-p", "4,s 9,s w -", "3", "--iterations", "200", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["to_move"] == "white" and data["best"] in ("4-7", "s-3")
    assert {entry["move"] for entry in data["moves"]} == {"4-7", "s-3"}


# ---------------------------------------------------------------------------- bots
def decision_states() -> list:
    """A state right after the opening roll and one in mid-game, the die rolled."""
    mid = play_random(ludothek.new_game(GAME), random.Random(6), plies=21)
    while mid.current_player() == CHANCE:
        mid.play(mid.legal_actions()[0])
    return [at("s,s s,s w 3"), mid]


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_level_picks_a_legal_move(level):
    states = decision_states() if level < 4 else decision_states()[1:]  # 4, 5: seconds a move
    for state in states:
        agent = level_agent(GAME, level, seed=1)
        if agent.budget is not None and agent.budget.seconds is not None:  # levels 6-8: no real seconds
            agent.now = itertools.count(step=0.01).__next__
        action = agent.choose(state.copy())
        assert action in state.legal_actions(), (level, state.position(), action)


@pytest.mark.parametrize("spec", ["random", "mcts:300", "alphabeta:300", "uct:100"])
def test_every_search_picks_a_legal_move(spec):
    for state in decision_states():
        before = state.position()
        action = make_agent(spec, GAME, seed=2).choose(state)
        assert action in state.legal_actions() and state.position() == before


# ---------------------------------------------------------------------------- OpenSpiel
def test_openspiel_plays_it():
    pyspiel = pytest.importorskip("pyspiel")
    from ludothek.integrations import openspiel as los

    assert "ludothek_wettlauf" in pyspiel.registered_names()
    game = pyspiel.load_game("ludothek_wettlauf(max_plies=30)")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 16
    assert game.max_game_length() >= 60
    assert game.observation_tensor_shape() == [10, 1, 14]
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(13, 1 / 3), (14, 1 / 3), (15, 1 / 3)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in (13, 14, 15)] == ["1", "2", "3"]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        ours = ludothek.new_game(GAME, max_plies=30)
        while not ours.is_over():
            assert str(state) == ours.position() and state.current_player() == ours.current_player()
            assert state.legal_actions() == ours.legal_actions()
            if not state.is_chance_node():
                tensor = np.array(state.observation_tensor(state.current_player()))
                assert tensor.shape == (140,) and set(np.unique(tensor)) <= {0.0, 1.0}
                player = state.current_player()
                for action in state.legal_actions():
                    assert state.string_to_action(state.action_to_string(player, action)) == action
            action = (rng.choices(*zip(*ours.chance_outcomes()))[0] if state.is_chance_node()
                      else rng.choice(ours.legal_actions()))
            state.apply_action(action)
            ours.play(action)
        assert state.is_terminal() and state.returns() == ours.returns()
        text = pyspiel.serialize_game_and_state(game, state)
        _, again = pyspiel.deserialize_game_and_state(text)
        assert str(again) == str(state) and again.history() == state.history()
    assert los.load_game(GAME).num_distinct_actions() == 16


def test_openspiel_mcts_searches_it():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("ludothek_wettlauf")
    state = game.new_initial_state()
    state.apply_action(14)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 30, 100, True, 0, False)
    assert bot.mcts_search(state).best_child().action in state.legal_actions()


# ---------------------------------------------------------------------------- PettingZoo
def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from ludothek.integrations import pettingzoo as lpz

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's style hints about dict observations
        api_test(lpz.env(GAME, render_mode="ansi", max_plies=40), num_cycles=60)
    seed_test(lambda: lpz.env(GAME, max_plies=40), num_cycles=40)
    env = lpz.env(GAME, render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert env.action_space("player_0").n == 16


def test_the_race_is_registered_for_the_tests_only():
    """Outside the tests' processes (no PYTHONPATH of theirs) the user's ``ludothek`` has four
    games: scripts/test.sh must not install the test plugin where it would stay."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    listed = subprocess.run([sys.executable, "-c", "import ludothek; print(ludothek.games())"],
                            env=env, capture_output=True, text=True, timeout=600, cwd="/")
    assert listed.returncode == 0, listed.stderr
    assert GAME not in listed.stdout, "ludothek-wettlauf is installed in this environment: pip uninstall it"
    assert GAME in ludothek.games()
