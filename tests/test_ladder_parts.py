"""benchmarks/ladder.py's rungs in parts: a long rung is played as several matches with their
own seeds, each kept as it ends and not played again, and summed once all are in."""

from __future__ import annotations

import json

import pytest

from benchmarks import ladder
from ludothek.ai.stats import MatchStats


def part(wins, draws, losses, plies, seconds, commit="c1", a="bot:7", b="bot:6"):
    games = wins + draws + losses
    return {"game": "trike", "a": a, "b": b, "games": games, "wins": wins, "draws": draws,
            "losses": losses, "score": (wins + draws / 2) / games, "mean_plies": plies, "seconds_a": seconds,
            "seconds_b": seconds / 4, "wall_seconds": seconds, "levels": {"bot:7": "mcts"}, "commit": commit}


def test_parts_are_summed_as_one_match():
    total = ladder.summed([part(15, 0, 5, 60.0, 100.0), part(10, 2, 8, 70.0, 50.0, commit="c2"),
                           part(18, 1, 1, 50.0, 30.0, commit="c1")])
    stats = MatchStats(43, 3, 14)
    assert (total["games"], total["wins"], total["draws"], total["losses"]) == (60, 43, 3, 14)
    assert total["score"] == pytest.approx(stats.score)
    assert total["ci95"] == pytest.approx(list(stats.interval()))
    assert total["elo"] == pytest.approx(stats.elo)
    assert total["elo_ci95"] == pytest.approx(list(stats.elo_interval()))
    assert total["mean_plies"] == pytest.approx(60.0)  # every part has 20 games
    assert (total["seconds_a"], total["seconds_b"], total["wall_seconds"]) == pytest.approx((180.0, 45.0, 180.0))
    assert total["commit"] == "c1/c2"


def test_a_clean_sweep_has_no_finite_elo():
    total = ladder.summed([part(20, 0, 0, 60.0, 10.0)])
    assert total["score"] == 1.0 and total["elo"] is None


def test_parts_kept_are_not_played_again(tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "PARTS", tmp_path / "parts.json")
    played = []

    def run(argv, workers, first):
        seed = int(argv[argv.index("--seed") + 1])
        played.append(seed)
        if seed == 3:
            raise SystemExit("stopped")  # the run ends while the third part is played
        return part(seed, 0, 10 - seed, 40.0, 1.0, a="bot:2", b="bot:1")

    args = ("taskset -c 0-0 ludothek match trike bot:2 bot:1 -n 40 --workers 1 --json", "trike", "bot:2",
            "bot:1", [], 40, 1, 0, 4)
    with pytest.raises(SystemExit):
        ladder.in_parts(*args, run=run)
    assert played == [1, 2, 3]
    kept = ladder.load(ladder.PARTS)
    assert sorted(next(iter(kept.values()))) == ["1", "2"]
    # a part played with other levels is stale: played again
    kept[next(iter(kept))]["2"]["levels"] = {"bot:2": "an older search"}
    ladder.PARTS.write_text(json.dumps(kept))

    def run_again(argv, workers, first):
        played.append(int(argv[argv.index("--seed") + 1]))
        return part(5, 0, 5, 40.0, 1.0, a="bot:2", b="bot:1")

    played.clear()
    total = ladder.in_parts(*args, run=run_again)
    assert played == [2, 3, 4]  # only the missing and the stale parts, each with its own seed
    assert total["games"] == 40 and total["wins"] == 1 + 5 + 5 + 5
    assert total["command"].endswith("in 4 parts (--seed 1 … 4, -n 10 each), summed")
