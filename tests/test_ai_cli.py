"""The bot verbs of the CLI: analyse, match, and play with agents in both seats."""

import json

from click.testing import CliRunner

from ludothek.ai.match import game_specs, play_game, run_match, tally
from ludothek.cli import main

WIN = "1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w"


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_analyse_prints_best_moves_and_line():
    result = run("analyse", "trike", "--position", WIN, "--iterations", "400")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "best: f4" in result.output
    assert lines[-1].startswith("line: f4")


def test_analyse_json_and_moves_from_the_start():
    result = run("analyse", "trike", "--size", "7", "--iterations", "300", "--json", "d2", "swap")
    data = json.loads(result.output)
    assert data["to_move"] == "white" and data["best"] == data["moves"][0]["move"]
    assert data["line"][0] == data["best"] and data["iterations"] == 300


def test_analyse_with_alphabeta_gives_exact_scores():
    result = run("analyse", "trike", "-p", WIN, "--agent", "alphabeta", "--iterations", "3000", "--json")
    data = json.loads(result.output)
    assert data["best"] == "f4" and data["value"] > 0.9 and data["depth"] >= 1


def test_analyse_errors_are_clean():
    assert run("analyse", "trike", "-p", "1/2/3 b").exit_code == 2
    assert run("analyse", "trike", "--size", "7", "--agent", "nobody", "--iterations", "10").exit_code == 2
    over = "b/bW/wbb/bwbw/wbwbw/bwbwbw/wbwbwbw b"
    result = run("analyse", "trike", "-p", over)
    assert result.exit_code == 2


def test_match_reports_score_interval_and_elo():
    result = run("match", "trike", "bot:2", "random", "-n", "4", "--size", "7", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "bot:2: 4 wins, 0 draws, 0 losses in 4 games" in result.output
    assert "95% CI" in result.output and "Elo difference +inf" in result.output


def test_match_json_with_time_per_move():
    result = run("match", "trike", "mcts", "uct", "-n", "2", "--size", "7", "--seconds-per-move", "0.01", "--json")
    data = json.loads(result.output)
    assert data["games"] == 2 and data["wins"] + data["draws"] + data["losses"] == 2


def test_match_rejects_unknown_agents():
    assert run("match", "trike", "bot:2", "nobody", "-n", "2").exit_code == 2


def test_pairs_share_the_opening_with_seats_exchanged():
    specs = game_specs("trike", "bot:1", "random", 4, seed=11, options=(("size", 7),))
    results = [play_game(spec) for spec in specs]
    assert [r.a_seat for r in results] == [0, 1, 0, 1]
    assert results[0].moves[0] == results[1].moves[0]
    assert results[2].moves[0] == results[3].moves[0]
    again = play_game(specs[1])
    assert again.moves == results[1].moves  # reproducible game by game


def test_match_on_a_process_pool_gives_the_same_results():
    specs = game_specs("trike", "bot:1", "bot:2", 4, seed=5, options=(("size", 7),))
    local = run_match(specs, workers=1)
    pooled = run_match(specs, workers=2)
    assert [r.moves for r in local] == [r.moves for r in pooled]
    assert tally(local) == tally(pooled)


def test_play_bot_against_bot_in_the_terminal():
    result = run("play", "trike", "--size", "7", "--me", "bot:1", "--vs", "bot:2", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "bot:2" in result.output


def test_ray_is_optional():
    from ludothek.ai import ray_pool

    if ray_pool.available():
        return
    result = run("match", "trike", "bot:1", "random", "-n", "2", "--size", "7", "--ray", "local")
    assert result.exit_code == 2 and "pip install" in result.output


def test_match_on_a_local_ray_instance(ray_stopped_after):
    import pytest

    pytest.importorskip("ray")
    specs = game_specs("trike", "bot:1", "random", 2, seed=5, options=(("size", 7),))
    results = run_match(specs, ray_address="local")
    assert sorted(r.number for r in results) == [0, 1]
    assert [r.moves for r in results] == [r.moves for r in run_match(specs)]
