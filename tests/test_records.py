"""Game records: exact round trips and clear errors naming the line."""

import pytest

import ludothek
from ludothek import RecordError

GAME = """[Game "trike"]
[Size "7"]
[Black "Ada"]
[White "Max"]
[Date "2026.11.29"]
[Result "white"]

1. c1 f4 2. f2 f1 3. e1 e4 4. e3 g3 5. g1 g2 white
"""


def test_a_finished_game_loads_and_replays():
    record = ludothek.loads(GAME)
    assert record.game == "trike" and record.options == {"size": 7}
    assert record.moves == ["c1", "f4", "f2", "f1", "e1", "e4", "e3", "g3", "g1", "g2"]
    assert record.tags == {"Black": "Ada", "White": "Max", "Date": "2026.11.29"}
    state = record.replay()
    assert state.is_over() and state.winner() == "white"
    assert ludothek.dumps(record) == GAME


def test_load_and_dump_files(tmp_path):
    path = tmp_path / "game.ludo"
    ludothek.dump(ludothek.loads(GAME), str(path))
    assert path.read_text(encoding="utf-8") == GAME
    assert ludothek.load(str(path)).moves[-1] == "g2"
    with pytest.raises(RecordError, match="cannot read"):
        ludothek.load(str(tmp_path / "missing.ludo"))


def test_setup_position_and_resignation_round_trip():
    state = ludothek.new_game("trike", position="1/2/3/Wb2/5/6/7 b")
    state.play("c1")
    record = ludothek.Record.from_state(state, result="white", Termination="resign")
    text = ludothek.dumps(record)
    assert '[Position "1/2/3/Wb2/5/6/7 b"]' in text
    assert ludothek.loads(text) == record


@pytest.mark.parametrize(
    "text,line,message",
    [
        ('[Game "trike"]\n[Size "7"\n\n1. c1 *\n', 2, "malformed tag"),
        ('[Game "chess"]\n\n1. e4 *\n', 1, "unknown game 'chess'"),
        ('[Size "7"]\n\n1. c1 *\n', 1, "missing"),
        ('[Game "trike"]\n[Size "77"]\n\n1. c1 *\n', 1, "at most 19"),
        ('[Game "trike"]\n[Size "7"]\n\n1. c1 f4\n2. f2 zz *\n', 5, "move 'zz' \\(ply 4\\)"),
        ('[Game "trike"]\n[Size "7"]\n\n1. c1 f4\n2. f2 c1 *\n', 5, "occupied"),
        ('[Game "trike"]\n[Size "7"]\n\n1. c1 {good} *\n', 4, "comments"),
        ('[Game "trike"]\n[Game "trike"]\n\n1. c1 *\n', 2, "appears twice"),
        ('[Game "trike"]\n[Result "black"]\n\n1. c1 white\n', 2, "Result tag says"),
        ('[Game "trike"]\n[Result "red"]\n\n1. c1\n', 2, "must be one of"),
        ('[Game "trike"]\n\n1. c1\n[Size "7"]\n', 4, "after the moves"),
        ('[Game "trike"]\n[Position "1/2/3 b"]\n\n*\n', 2, "rows"),
    ],
)
def test_broken_records_name_the_line(text, line, message):
    with pytest.raises(RecordError, match=message) as caught:
        ludothek.loads(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}:")


def test_wrong_result_for_a_finished_game():
    with pytest.raises(RecordError, match="result 'white'"):
        ludothek.loads(GAME.replace('"white"', '"black"').replace("g2 white", "g2 black"))


def test_records_must_be_text():
    with pytest.raises(RecordError):
        ludothek.loads(b"[Game]")  # type: ignore[arg-type]
