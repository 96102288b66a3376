"""Edges of the Python API (issue 14): bad input raises a ``LudothekError`` subclass whose
message names what is wrong and where, never a raw ValueError, IndexError, TypeError or
numba error; records round-trip whatever ``dumps`` writes; Bitis perft counts as written."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludothek
from ludothek import (
    CHANCE,
    GameOver,
    IllegalMove,
    LudothekError,
    OptionError,
    ParseError,
    PositionError,
    Record,
    RecordError,
)
from ludothek.ai.base import make_agent
from ludothek.core.record import _tag_name

from .strategies import random_game

GAMES = ("trike", "trigeo", "hexalit", "bitis")
DICE_START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"
LONG = "1" * 5000  # int() refuses more than 4,300 digits


# ---------------------------------------------------------------------- 1. positions
@pytest.mark.parametrize(
    "game, position, message",
    [
        ("trike", "1/2/3/4/5/6/6² b", r"row 7 \(g\): unknown character '²'"),
        ("trike", "1/2/③/4/5/6/7 b", r"row 3 \(c\): unknown character '③'"),
        ("trike", "1/2/3/4/5/6/ⅷ b", r"row 7 \(g\): unknown character 'ⅷ'"),
        ("trike", f"1/2/3/4/5/6/{LONG} b", r"row 7 \(g\) has more than 7 cells"),
        ("trike", f"1/2/3/4/5/6/{'0' * 5000} b", r"row 7 \(g\): empty-cell count '0000"),
        ("trigeo", DICE_START.replace("1rbnkbnr1", "1rbnkbnr²"), "row F: unknown character '²'"),
        ("trigeo", DICE_START.replace("6P6", "6P③"), "row C: unknown character '③'"),
        ("trigeo", DICE_START.replace("6P6", f"6P{LONG}"), "row C has more than 13 cells"),
        ("hexalit", DICE_START.replace("2PPPQPPP2", "²PPPQPPP2"), "row B: unknown character '²'"),
        ("hexalit", DICE_START.replace("6p6", f"{LONG}p6"), "row D has more than 13 cells"),
        ("bitis", "- 4³:9318 - IV B", "die IV"),
        ("bitis", "- 43:931² - IV B", "die IV"),
        ("bitis", f"- 43:{LONG} - IV B", "must be four digits: the faces north, east, south and west of IV"),
        ("bitis", f"- {LONG}:9318 - IV B", "die IV"),
    ],
    ids=lambda value: str(value)[:24],
)
def test_positions_with_odd_digits_name_the_row(game, position, message):
    with pytest.raises(PositionError, match=message) as caught:
        ludothek.new_game(game, position=position)
    assert len(str(caught.value)) < 300


# ---------------------------------------------------------------------- 2. the cube
@pytest.mark.parametrize("stake", ["²", "③", "２", "9" * 5000, LONG], ids=lambda value: value[:8])
def test_hexalit_double_with_odd_numbers(stake):
    state = ludothek.new_game("hexalit", cube=True)
    with pytest.raises((ParseError, IllegalMove), match="double") as caught:
        state.play(f"double {stake}")
    assert len(str(caught.value)) < 300
    assert state.ply == 0
    state.play("double 2")  # the right stake is still fine
    assert state.offer


# ---------------------------------------------------------------------- 3. records
@pytest.mark.parametrize(
    "game, position, message",
    [
        ("trike", "1/2/3/4/5/6/6² b", "unknown character '²'"),
        ("trike", f"1/2/3/4/5/6/{LONG} b", "more than 7 cells"),
        ("trigeo", DICE_START.replace("1rbnkbnr1", "1rbnkbnr③"), "unknown character '③'"),
        ("hexalit", DICE_START.replace("6p6", f"{LONG}p6"), "more than 13 cells"),
        ("bitis", "- 4³:9318 - IV B", "die IV"),
    ],
    ids=lambda value: str(value)[:24],
)
def test_a_record_with_such_a_position_names_the_tag_line(game, position, message):
    text = f'[Game "{game}"]\n[Position "{position}"]\n\n*\n'
    with pytest.raises(RecordError, match=message) as caught:
        ludothek.loads(text)
    assert caught.value.line == 2


def test_a_record_with_an_odd_stake_names_the_move_line():
    text = '[Game "hexalit"]\n[Cube "true"]\n\n1. double ²\n'
    with pytest.raises(RecordError, match="double") as caught:
        ludothek.loads(text)
    assert caught.value.line == 4


# ---------------------------------------------------------------------- 4. files
def test_a_file_that_is_not_utf8_is_a_record_error(tmp_path):
    path = tmp_path / "latin1.ludo"
    path.write_bytes('[Game "trike"]\n[Black "Zoë"]\n\n*\n'.encode("latin-1"))
    with pytest.raises(RecordError, match=r"not UTF-8 text: byte 0xeb at offset 25") as caught:
        ludothek.load(str(path))
    assert caught.value.line == 2
    with pytest.raises(RecordError, match="not UTF-8"):
        ludothek.load(path)  # a Path works too


@pytest.mark.parametrize("path", [None, 0, 3.5, ["game.ludo"]])
def test_a_path_must_be_a_path(path):
    with pytest.raises(RecordError, match="path"):
        ludothek.load(path)


def test_a_path_with_a_nul_cannot_be_read(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        ludothek.load(str(tmp_path / "game.ludo") + "\x00")


# ---------------------------------------------------------------------- 5. dumps / loads
def _finished_trike() -> ludothek.GameState:
    state = ludothek.new_game("trike", size=7)
    for move in "c1 f4 f2 f1 e1 e4 e3 g3 g1 g2".split():
        state.play(move)
    return state


SEPARATORS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x00"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_tag_values_with_line_separators_round_trip(separator, tmp_path):
    record = Record.from_state(_finished_trike(), Black=f"Ada{separator}Lovelace", Event=f'"q"{separator}\\')
    text = ludothek.dumps(record)
    assert len(text.splitlines()) == len(ludothek.dumps(Record.from_state(_finished_trike())).splitlines()) + 2
    assert ludothek.loads(text) == record
    path = tmp_path / "game.ludo"
    ludothek.dump(record, str(path))
    assert ludothek.load(str(path)) == record


def test_lone_surrogates_round_trip_through_a_file(tmp_path):
    record = Record.from_state(_finished_trike(), Black="\ud800 and \udfff")
    path = tmp_path / "game.ludo"
    ludothek.dump(record, str(path))
    assert ludothek.load(str(path)) == record


def test_old_escapes_still_read_as_before():
    text = '[Game "trike"]\n[Size "7"]\n[Black "A \\"B\\" \\\\ C"]\n\n*\n'
    assert ludothek.loads(text).tags["Black"] == 'A "B" \\ C'


@pytest.mark.parametrize("name", ["Black Name", "", "1st", "Ümlaut", "A-B", "X]", 'Q"', 7])
def test_tag_names_the_format_cannot_hold_are_refused(name):
    record = Record.from_state(_finished_trike())
    record.tags[name] = "x"
    with pytest.raises(RecordError, match="tag name"):
        ludothek.dumps(record)


@pytest.mark.parametrize(
    "game, name", [("trike", "Result"), ("trike", "Game"), ("trike", "Size"), ("trike", "Position"),
                   ("trigeo", "MaxPlies"), ("trigeo", "First"), ("hexalit", "Cube")]
)
def test_tags_the_record_writes_itself_are_refused(game, name):
    record = Record.from_state(ludothek.new_game(game))
    record.tags[name] = "x"
    with pytest.raises(RecordError, match=f"tag '{name}'"):
        ludothek.dumps(record)


def test_a_tag_named_like_another_games_option_is_fine():
    record = Record.from_state(ludothek.new_game("trigeo"), Size="7", Cube="no")
    assert ludothek.loads(ludothek.dumps(record)) == record


@pytest.mark.parametrize("result", ["White", "red", "", "1-0"])
def test_a_result_the_game_does_not_have_is_refused(result):
    with pytest.raises(RecordError, match="result"):
        ludothek.dumps(Record.from_state(ludothek.new_game("trike"), result=result))


def _edited(**changes) -> Record:
    record = Record.from_state(_finished_trike())
    for name, value in changes.items():
        setattr(record, name, value)
    return record


@pytest.mark.parametrize(
    "record, message",
    [
        (_edited(result="black"), "the moves end the game with result 'white', but the record says 'black'"),
        (_edited(result="*"), "the moves end the game with result 'white'"),
        (_edited(moves=["C1", "f4"]), "move 1 must be written as the game writes it: 'c1', not 'C1'"),
        (_edited(moves=["c1", "c1"]), r"move 'c1' \(move 2\): 'c1' is not legal: the cell is occupied"),
        (_edited(moves=["zz"]), r"move 'zz' \(move 1\)"),
        (_edited(moves=["c1\nf4"]), r"move 'c1\\nf4' \(move 1\)"),
        (_edited(moves=[3]), "move 1 must be text"),
        (_edited(moves=("c1",)), "moves a list"),
        (_edited(options={}), "every option of trike"),
        (_edited(options={"size": 99}), "at most 19"),
        (_edited(position="1/2/3/4/5/6/6² b"), "unknown character '²'"),
        (_edited(position="1/2/3/4/5/6/7  b", moves=[]), "setup position '1/2/3/4/5/6/7  b' must be written"),
        (_edited(game="Trike"), "game 'Trike' must be written 'trike'"),
        (_edited(game="chess"), "unknown game 'chess'"),
    ],
    ids=lambda value: str(value)[:30] if isinstance(value, str) else None,
)
def test_dumps_refuses_what_loads_would_refuse_or_read_otherwise(record, message):
    with pytest.raises(RecordError, match=message):
        ludothek.dumps(record)


def test_a_resignation_or_draw_in_an_open_game_is_fine():
    state = ludothek.new_game("trike", size=7)
    state.play("c1")
    for result in ("white", "black", "draw", "*"):
        record = Record.from_state(state, result=result)
        assert ludothek.loads(ludothek.dumps(record)) == record


def test_a_tag_value_must_be_text():
    record = Record.from_state(_finished_trike())
    record.tags["Round"] = 3  # type: ignore[assignment]
    with pytest.raises(RecordError, match="'Round'"):
        ludothek.dumps(record)


_TAG_NAME = st.from_regex(r"\A[A-Za-z][A-Za-z0-9_]{0,10}\Z")
_ANY_CHAR = st.one_of(
    st.characters(exclude_categories=[]),  # surrogates and control characters included
    st.sampled_from("\n\r\u2028\u2029\x85\v\f\x1c\t\"\\[]{}();* "),
)


@given(data=st.data(), game=st.sampled_from(GAMES))
def test_whatever_dumps_writes_loads_reads_back(data, game):
    state = data.draw(random_game(game, max_plies=12), label="state")
    names = st.one_of(_TAG_NAME, st.text(_ANY_CHAR, max_size=6))
    tags = data.draw(st.dictionaries(names, st.text(_ANY_CHAR, max_size=12), max_size=4), label="tags")
    result = None if state.is_over() else data.draw(st.sampled_from(["*", "draw", *state.colours]), label="result")
    record = Record.from_state(state, result=result)
    record.tags = tags
    own = {"Game", "Position", "Result", *(_tag_name(o.name) for o in state.OPTIONS)}
    writable = all(isinstance(n, str) and _is_tag_name(n) and n not in own for n in tags)
    try:
        text = ludothek.dumps(record)
    except RecordError:
        assert not writable
        return
    assert writable
    assert ludothek.loads(text) == record


def _is_tag_name(name: str) -> bool:
    return bool(name) and name[0].isascii() and name[0].isalpha() and all(
        c.isascii() and (c.isalnum() or c == "_") for c in name
    )


# ---------------------------------------------------------------------- 6. result line
def test_a_wrong_result_names_its_line():
    text = ludothek.dumps(Record.from_state(_finished_trike(), Black="Ada"))
    lines = text.splitlines()
    wrong = text.replace('[Result "white"]', '[Result "black"]').replace("g2 white", "g2 black")
    with pytest.raises(RecordError, match="result 'white'") as caught:
        ludothek.loads(wrong)
    assert caught.value.line == lines.index('[Result "white"]') + 1
    no_tag = "\n".join(line for line in wrong.splitlines() if not line.startswith("[Result"))
    with pytest.raises(RecordError, match="result 'white'") as caught:
        ludothek.loads(no_tag)
    assert caught.value.line == len(no_tag.splitlines())  # the move text ends with "black"


# ---------------------------------------------------------------------- 7. perft and actions
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("depth", [-1, -10**30, "2", 2.0, 1.5, True, None, np.float64(1), 10**30, 1001])
def test_perft_refuses_a_bad_depth(game, depth):
    with pytest.raises(OptionError, match="perft depth"):
        ludothek.new_game(game).perft(depth)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "count, seed", [(-1, 0), (1, -1), (1, 2**63), (2**64, 1), ("1", 0), (1, 0.5), (True, 0), (1, None)]
)
def test_random_playouts_refuse_bad_arguments(game, count, seed):
    state = ludothek.new_game(game)
    with pytest.raises(OptionError, match="playout (count|seed)"):
        state.random_playouts(count, seed)
    with pytest.raises(OptionError, match="playout (count|seed)"):
        ludothek.GameState.random_playouts(state, count, seed)


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_take_numpy_integers(game):
    state = ludothek.new_game(game)
    assert state.random_playouts(np.int64(2), np.uint32(5)) == state.random_playouts(2, 5)


@pytest.mark.parametrize("game", GAMES)
def test_perft_takes_numpy_depths(game):
    state = ludothek.new_game(game)
    assert state.perft(np.int64(2)) == state.perft(2) > 0
    assert state.perft(np.uint8(0)) == 1


@pytest.mark.parametrize("game", GAMES)
def test_actions_outside_the_encoding(game):
    state = ludothek.new_game(game)
    before = state.position()
    for action in (10**6, -5, -1, state.num_actions, 10**30):
        with pytest.raises(IllegalMove, match=f"action {action} is outside {game}'s action encoding"):
            state.action_to_str(action)
        with pytest.raises(IllegalMove, match="outside"):
            state.apply_action(action)
        with pytest.raises(IllegalMove):
            state.play(action)
        assert state.is_legal(action) is False
    for bad in ("a", "c1", 1.0, None, True, np.bool_(True), [3]):
        with pytest.raises(ParseError):
            state.action_to_str(bad)
        with pytest.raises(ParseError):
            state.is_legal(bad)
        with pytest.raises(ParseError):
            state.apply_action(bad)
    assert state.position() == before and state.ply == 0


# ---------------------------------------------------------------------- 8. agents
def _finished(game: str) -> ludothek.GameState:
    state = ludothek.new_game(game)
    rng = random.Random(7)
    while not state.is_over():
        if state.current_player() == CHANCE:
            state.play(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.play(rng.choice(state.legal_actions()))
    return state


def _at_chance() -> ludothek.GameState:
    state = ludothek.new_game("hexalit")
    state.play(next(move for move in state.legal_moves() if move.endswith("W")))
    assert state.current_player() == CHANCE
    return state


AGENTS = ["random", "mcts:20", "uct:20", "alphabeta:20", "bot:1", "bot:2", "bot:3", "bot:4", "bot:5"]


def _specs(game):
    return AGENTS + (["perfect"] if game == "bitis" else [])


@pytest.mark.parametrize("game", GAMES)
def test_agents_refuse_a_finished_game(game):
    state = _finished(game)
    for spec in _specs(game):
        agent = make_agent(spec, game, seed=1)
        with pytest.raises(GameOver, match="the game is over"):
            agent.choose(state)
        with pytest.raises(GameOver):
            agent.analyse(state)


def test_agents_refuse_a_chance_node():
    state = _at_chance()
    for spec in AGENTS:
        agent = make_agent(spec, "hexalit", seed=1)
        for ask in (agent.choose, agent.analyse):
            with pytest.raises(IllegalMove, match="chance") as caught:
                ask(state)
            assert not isinstance(caught.value, GameOver)


def test_agents_refuse_another_games_state():
    with pytest.raises(OptionError, match="made for trike, not bitis"):
        make_agent("mcts:20", "trike").choose(ludothek.new_game("bitis"))
    with pytest.raises(ParseError, match="game state"):
        make_agent("random", "trike").choose("c1")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_agents_still_play(game):
    state = ludothek.new_game(game)
    for spec in ("random", "bot:1"):
        assert state.is_legal(make_agent(spec, game, seed=1).choose(state))


# ---------------------------------------------------------------------- 9. NumPy integers
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", [np.int64, np.int32, np.int16, np.uint16, np.uint64])
def test_numpy_integers_are_actions(game, kind):
    state = ludothek.new_game(game)
    action = state.legal_actions()[-1]
    number = kind(action)
    assert state.is_legal(number)
    assert state.action_to_str(number) == state.action_to_str(action)
    state.play(number)
    assert type(state.history[-1]) is int and state.history[-1] == action
    state.undo()
    state.apply_action(number)
    assert type(state.history[-1]) is int
    state.undo()
    for bad in (True, False, float(action), np.float64(action), np.bool_(True)):
        with pytest.raises(ParseError):
            state.play(bad)
    assert state.ply == 0


# ---------------------------------------------------------------------- 10. Bitis perft
def slow_perft(state: ludothek.GameState, depth: int) -> int:
    """Leaves exactly ``depth`` plies deep over the public API (a finished game has no moves)."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += slow_perft(state, depth - 1)
        state.undo()
    return total


#: perft of Bitis from the start; 5 and 6 are checked by slow_perft too (6 takes over a minute)
BITIS_PERFT = [1, 288, 1152, 6144, 93600, 1092096, 14674128]


def test_bitis_perft_counts_leaves_exactly_n_plies_deep():
    state = ludothek.new_game("bitis")
    assert [state.perft(d) for d in range(6)] == BITIS_PERFT[:6]
    assert [slow_perft(state, d) for d in range(6)] == BITIS_PERFT[:6]
    assert state.position() == "- - - - A"


def test_bitis_perft_adds_no_leaf_below_a_finished_game():
    state = _finished("bitis")
    assert state.is_over()
    assert state.perft(0) == 1 and state.perft(1) == 0 and state.perft(3) == 0


@given(state=random_game("bitis", max_plies=40))
def test_bitis_perft_agrees_with_the_slow_count_anywhere(state):
    assert [state.perft(d) for d in (1, 2, 3)] == [slow_perft(state, d) for d in (1, 2, 3)]


def test_bitis_perft_sees_threefold_repetition():
    """Play a four-ply cycle (two dice away and back) once and three plies of it again: the
    fourth ply would make the third occurrence, so perft(2) counts nothing below it."""
    rng = random.Random(3)
    cycle = None
    while cycle is None:
        state = ludothek.new_game("bitis")
        while not state.is_over() and state.ply < 30:
            state.play(rng.choice(state.legal_actions()))
            if state.dice_on_board() == 3 and not state.is_over():
                cycle = _cycle(state)
                if cycle:
                    break
    moves_here = len(state.legal_actions())
    for action in cycle + cycle[:3]:
        state.play(action)
    assert state.repetitions() == 2
    fresh = ludothek.new_game("bitis", position=state.position())
    assert state.perft(1) == fresh.perft(1) == slow_perft(state, 1)
    assert state.perft(2) == slow_perft(state, 2) == fresh.perft(2) - moves_here
    assert state.perft(3) == slow_perft(state, 3)


def _cycle(state) -> list[int] | None:
    """Four actions that lead back here: die X away, die Y away, X back, Y back."""
    start = state.key()

    def home(die: int) -> int:
        return die * 576 + int(state.cells[die]) * 24 + int(state.ors[die])

    for first in state.legal_actions():
        back_x = home(first // 576)
        state.play(first)
        for second in state.legal_actions():
            back_y = home(second // 576)
            state.play(second)
            if state.is_legal(back_x):
                state.play(back_x)
                if state.is_legal(back_y):
                    state.play(back_y)
                    found = state.key() == start
                    state.undo()
                    if found:
                        for _ in range(3):
                            state.undo()
                        return [first, second, back_x, back_y]
                state.undo()
            state.undo()
        state.undo()
    return None


def test_every_error_here_is_a_ludothek_error():
    assert issubclass(OptionError, LudothekError) and issubclass(RecordError, LudothekError)


@pytest.mark.parametrize("where", ["missing-folder/game.ludo", ".", "game\0.ludo", 12])
def test_dump_to_a_bad_path_is_a_record_error(tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    record = Record.from_state(ludothek.new_game("trike", size=7))
    with pytest.raises(RecordError, match="cannot write|path must be"):
        ludothek.dump(record, where)
