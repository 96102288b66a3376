"""``ludothek tournament``: a Swiss and an Arena between agents, standings and records."""

from __future__ import annotations

import json

from click.testing import CliRunner

import ludothek
from ludothek.cli import main
from ludothek.core.record import load
from ludothek.tournament.local import run_arena, run_swiss
from ludothek.tournament.swiss import pair_round

GAME = ludothek.games()[0]


def test_a_swiss_of_five_plays_every_round_with_a_bye_and_tags_its_records(tmp_path):
    result = CliRunner().invoke(main, ["tournament", GAME, "--swiss", "3", "--players", ",".join(["random"] * 5),
                                       "--seed", "4", "--records", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["kind"] == "swiss" and len(data["rounds"]) == 3
    assert [sum(g["black"] is None for g in games) for games in data["rounds"]] == [1, 1, 1]
    assert sum(s["score"] for s in data["standings"]) == 3 * 3  # two games and a bye a round
    files = sorted(tmp_path.iterdir())
    assert len(files) == 6
    records = [load(path) for path in files]
    assert [r.tags["Round"] for r in records] == ["1", "1", "2", "2", "3", "3"]
    assert {r.tags["Event"] for r in records} == {f"Swiss of 5 ({GAME})"}
    names = {"random", "random (2)", "random (3)", "random (4)", "random (5)"}
    assert all(set(r.tags.values()) & names for r in records)


def test_the_swiss_runner_follows_the_pairing_rules():
    outcome = run_swiss(GAME, ["random"] * 4, 3, seed=2)
    names = outcome.players
    for number in range(3):
        expected = pair_round(names, outcome.swiss_rounds[:number])
        assert [(g.white, g.black) for g in expected] == [(g.white, g.black) for g in outcome.swiss_rounds[number]]
    # each record's seat 0 is the Swiss's white
    for played in outcome.games:
        assert played.record.tags["Round"] in {"1", "2", "3"}


def test_an_arena_scores_every_game_and_tags_the_records():
    outcome = run_arena(GAME, ["random"] * 4, 0.01, seed=3)
    assert outcome.games
    points = {e.player: e.points for e in outcome.arena_table}
    earned = {name: 0 for name in outcome.players}
    for played in outcome.games:
        earned[played.first] += played.points[0]
        earned[played.second] += played.points[1]
        assert played.record.tags["Round"] == "-" and played.record.tags["Event"].startswith("Arena of 4")
    assert earned == points


def test_bad_arguments_are_clear_errors():
    runner = CliRunner()
    both = runner.invoke(main, ["tournament", GAME, "--swiss", "2", "--arena", "1", "--players", "random,random"])
    assert both.exit_code == 2 and "either --swiss" in both.output
    many = runner.invoke(main, ["tournament", GAME, "--swiss", "4", "--players", "random,random,random"])
    assert many.exit_code == 2 and "3 rounds at most" in many.output
    alone = runner.invoke(main, ["tournament", GAME, "--arena", "1", "--players", "random"])
    assert alone.exit_code == 2 and "two players" in alone.output
    unknown = runner.invoke(main, ["tournament", GAME, "--arena", "1", "--players", "random,nobody"])
    assert unknown.exit_code == 2 and "nobody" in unknown.output


def test_errors_are_in_the_readers_language(tmp_path):
    runner = CliRunner()
    blocked = tmp_path / "file"
    blocked.write_text("")
    english = runner.invoke(main, ["tournament", GAME, "--swiss", "1", "--players", "random,random",
                                   "--records", str(blocked / "games")], env={"LUDOTHEK_LANG": "en"})
    assert english.exit_code == 2 and "cannot save records" in english.output, english.output
    german = runner.invoke(main, ["tournament", GAME, "--swiss", "4", "--players", "random,random,random"],
                           env={"LUDOTHEK_LANG": "de"})
    assert german.exit_code == 2 and "höchstens 3 Runden" in german.output, german.output


def test_a_swiss_on_two_processes_plays_the_same_games():
    one = run_swiss(GAME, ["random"] * 4, 2, seed=5)
    two = run_swiss(GAME, ["random"] * 4, 2, seed=5, workers=2)
    assert one.swiss_rounds == two.swiss_rounds
    key = lambda p: (p.round, p.first)
    assert [p.record.moves for p in sorted(one.games, key=key)] == [p.record.moves for p in sorted(two.games, key=key)]
