"""Bitis rules: dice, geometry, opening, moves, chain rule, end conditions, notation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek import GameOver, IllegalMove, LudothekError, ParseError, PositionError
from ludothek.boards.grid import grid
from ludothek.games.bitis import kernels as K
from ludothek.games.bitis.dice import DIE_FACES, FACES, OPPOSITE_PAIRS, ORIENTATIONS
from ludothek.games.bitis.state import BitisState

from .strategies import random_game

START = "- - - - A"
#: III on 3,2 and IV on 4,3 touch at a corner; V on 3,3 faces both; III was placed last
CHAIN = "32:7625 43:8534 33:3486 III B"


def python_perft(state: BitisState, depth: int) -> int:
    """The perft convention of the rules, on the Python state (a reference for the kernel):
    leaves exactly ``depth`` plies deep; a game that ended sooner adds none."""
    if depth == 0:
        return 1
    if state._ended_by_placement():
        return 0
    actions = K_actions(state)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        token = state._apply(action)
        total += python_perft(state, depth - 1)
        state._unapply(token)
    return total


def K_actions(state: BitisState) -> list[int]:
    count = K.gen_moves(state.cells, state.ors, state.last, state._buffer)
    return [int(a) for a in state._buffer[:count]]


# ---------------------------------------------------------------------- geometry and dice
def test_grid_geometry():
    g = grid(6, 4)
    assert g.size == 24 and g.parse_cell("4,3") == g.parse_cell("43") == 14
    assert g.names[14] == "4,3" and g.compact_names[14] == "43"
    assert sorted(g.neighbours(g.parse_cell("11"))) == sorted([g.parse_cell("12"), g.parse_cell("21")])
    assert len(g.diagonal_neighbours(g.parse_cell("33"))) == 4
    assert int(g.touching.sum()) == 2 * (6 * 3 + 5 * 4 + 2 * 5 * 3)  # orthogonal + diagonal pairs
    assert int(g.face_to_face.sum()) == 2 * (6 * 3 + 5 * 4)
    for bad in ("7,1", "0,2", "4,5", "x", "4-3", "", "123"):
        with pytest.raises(ParseError):
            g.parse_cell(bad)


def _rotation_group() -> list[np.ndarray]:
    quarter_x = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
    quarter_z = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]])
    group = {tuple(np.eye(3, dtype=int).flatten())}
    frontier = list(group)
    while frontier:
        new = []
        for m in frontier:
            for q in (quarter_x, quarter_z):
                product = tuple((q @ np.array(m).reshape(3, 3)).flatten())
                if product not in group:
                    group.add(product)
                    new.append(product)
        frontier = new
    return [np.array(m).reshape(3, 3) for m in group]


@pytest.mark.parametrize("die", range(3))
@pytest.mark.parametrize("handedness", (1, -1))
def test_orientations_are_exactly_the_cube_rotations(die, handedness):
    """Put the die's faces on a physical cube (either handedness), turn it through the 24
    rotations and read N, E, S, W: exactly the 24 orientations of the table."""
    rotations = _rotation_group()
    assert len(rotations) == 24
    (a, a2), (b, b2), (c, c2) = OPPOSITE_PAIRS[die]
    # x = east, y = north, z = up
    faces = {(1, 0, 0): a, (-1, 0, 0): a2, (0, 1, 0): b, (0, -1, 0): b2,
             (0, 0, handedness): c, (0, 0, -handedness): c2}
    patterns = set()
    for r in rotations:
        seen = {tuple(int(x) for x in r @ np.array(v)): f for v, f in faces.items()}
        patterns.add((seen[(0, 1, 0)], seen[(1, 0, 0)], seen[(0, -1, 0)], seen[(-1, 0, 0)]))
    assert len(patterns) == 24
    assert patterns == set(ORIENTATIONS[die])
    assert sorted(set(x for p in patterns for x in p)) == list(DIE_FACES[die])


def test_every_number_is_on_exactly_two_dice():
    for number in range(1, 10):
        holders = [d for d in range(3) if number in DIE_FACES[d]]
        assert len(holders) == (0 if number == 0 else 2)


# ---------------------------------------------------------------------- perft
@pytest.mark.parametrize("depth, expected", [(1, 288), (2, 1152), (3, 6144), (4, 93600), (5, 1092096)])
def test_perft_from_start(depth, expected):
    assert ludothek.new_game("bitis").perft(depth) == expected


def test_perft_kernel_agrees_with_python_tree():
    state = BitisState()
    assert python_perft(state, 3) == 6144
    assert python_perft(state, 5) == state.perft(5) == 1092096
    assert state.position() == START
    middle = BitisState(CHAIN)
    assert python_perft(middle, 3) == middle.perft(3)


# ---------------------------------------------------------------------- opening
def test_opening_step_one_row_four_only():
    state = BitisState()
    moves = state.legal_moves()
    assert len(moves) == 288 and all(m[-7] == "4" for m in moves)
    with pytest.raises(IllegalMove, match="row 4"):
        state.play("IV 3,3 9318")
    with pytest.raises(IllegalMove, match="row 4"):
        state.play("IV53:9318")
    state.play("IV 4,3 9318")
    assert state.position() == "- 43:9318 - IV B"


def test_opening_step_two_north_of_first_with_equal_faces():
    state = BitisState("- 43:9318 - IV B")
    moves = state.legal_moves()
    assert moves == ["III33:1297", "III33:1596", "III33:1695", "III33:1792"]  # only III has a 9
    with pytest.raises(IllegalMove, match="already on the board"):
        state.play("IV33:9318")
    with pytest.raises(IllegalMove, match="directly north"):
        state.play("III44:1297")
    with pytest.raises(IllegalMove, match=r"chain rule.*south contact.*shows 1 but IV on 4,3 shows 9"):
        state.play("III33:9712")
    with pytest.raises(IllegalMove, match="chain rule"):
        state.play("V33:2873")  # V has no 9 at all


def test_opening_step_three_beside_first_die():
    state = BitisState("33:1297 43:9318 - III A")
    moves = state.legal_moves()
    assert {m[:3] for m in moves} == {"V42", "V44"}  # west needs an 8, east a 3, south a 1 (V has none)
    assert len(moves) == 8
    with pytest.raises(IllegalMove, match="third die, V"):
        state.play("III53:1297")
    with pytest.raises(IllegalMove, match="west, east or south"):
        state.play("V34:2873")
    with pytest.raises(IllegalMove, match="occupied by III"):
        state.play("V33:2873")
    with pytest.raises(IllegalMove, match="chain rule.*east contact"):
        state.play("V42:2378")
    state.play("V42:2873")
    assert state.position() == "33:1297 43:9318 42:2873 V B" and state.to_move == "b"


# ---------------------------------------------------------------------- moves
def test_chain_rule_on_every_contact():
    state = BitisState(CHAIN)
    # 4,2 faces III (north of it, III's south face 2) and IV (east of it, IV's west face 4)
    assert "V42:2476" in state.legal_moves()
    assert not any(m.startswith("V42") and m != "V42:2476" for m in state.legal_moves())
    with pytest.raises(IllegalMove, match=r"chain rule: at the east contact, V on 4,2 shows 6 but IV on 4,3 shows 4"):
        state.play("V 4,2 2674")
    with pytest.raises(IllegalMove, match=r"chain rule: at the north contact, V on 4,2 shows 7 but III on 3,2 shows 2"):
        state.play("V42:7426")
    state.play("V 4,2 2476")
    assert state.position() == "32:7625 43:8534 42:2476 V A"


def test_lifting_a_die_must_not_strand_the_others():
    # V on 4,3 links III on 5,3 and IV on 3,2; lifting it would leave them apart
    state = BitisState("53:2576 32:1398 43:7426 III A")
    assert state.legal_moves() and all(m.startswith("IV") for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="strands the others: III on 5,3 and IV on 3,2 would no longer touch"):
        state.play("V42:2674")
    # a straight row of three: the middle die may never be lifted (here nothing can move)
    state = BitisState("32:7625 34:8534 33:3486 IV A")
    action = 2 * 576 + grid().parse_cell("23") * 24 + ORIENTATIONS[2].index((2, 6, 7, 4))
    assert K.diagnose(state.cells, state.ors, state.last, action)[0] == K.STRANDS
    assert state.is_over() and state.winner() == "b"


def test_the_die_placed_last_cannot_be_taken():
    state = BitisState(CHAIN)
    assert not any(m.startswith("III") for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="III was placed last"):
        state.play("III 2,2 2971")


def test_target_rules():
    state = BitisState(CHAIN)
    with pytest.raises(IllegalMove, match="another cell than the one it is lifted from"):
        state.play("V33:3486")
    with pytest.raises(IllegalMove, match="occupied by IV"):
        state.play("V43:3486")
    with pytest.raises(IllegalMove, match="not face to face with III or IV"):
        state.play("V24:2674")
    # a corner touch alone is not enough for the target
    with pytest.raises(IllegalMove, match="not face to face"):
        state.play("V21:2674")


def test_moves_are_every_die_cell_and_orientation_that_fits():
    """Compare move generation with a direct reading of the rules on random positions."""
    g = grid()
    for seed in range(40):
        state = BitisState()
        rng = np.random.default_rng(seed)
        for _ in range(int(rng.integers(3, 12))):
            if state.is_over():
                break
            actions = state.legal_actions()
            state.play(actions[int(rng.integers(len(actions)))])
        if state.is_over() or state.dice_on_board() < 3:
            continue
        expected = set()
        for die in range(3):
            if die == state.last:
                continue
            a, b = [k for k in range(3) if k != die]
            if not g.touching[state.cells[a], state.cells[b]]:
                continue
            for cell in range(24):
                if cell in (state.cells[0], state.cells[1], state.cells[2]):
                    continue
                contacts = [k for k in (a, b) if g.face_to_face[cell, state.cells[k]]]
                if not contacts:
                    continue
                for o in range(24):
                    if all(
                        FACES[die, o, g.side_towards[cell, state.cells[k]]]
                        == FACES[k, state.ors[k], g.side_towards[state.cells[k], cell]]
                        for k in contacts
                    ):
                        expected.add(die * 576 + cell * 24 + o)
        assert set(state.legal_actions()) == expected


@settings(max_examples=40)
@given(data=st.data())
def test_diagnose_agrees_with_move_generation(data):
    state = data.draw(random_game("bitis", max_plies=14))
    if state.is_over():
        return
    legal = set(state.legal_actions())
    for action in range(K.NUM_ACTIONS):
        code, _ = K.diagnose(state.cells, state.ors, state.last, action)
        assert (code == K.OK) == (action in legal), state.action_to_str(action)


# ---------------------------------------------------------------------- end of the game
@pytest.mark.parametrize(
    "moves, winner, why",
    [
        (["IV42:9415", "III32:1297", "V43:7624", "IV22:9415", "V31:4762", "IV21:5348", "III11:6752"], "a",
         "A placed III on the opponent's base line"),
        (["III44:9516", "IV34:1893", "V43:3684", "III24:9615", "V33:4368", "IV32:5843", "III22:6752", "V12:4267"], "a",
         "B placed V on his own base line"),
        (["IV42:4853", "V32:6742", "III52:5169", "V43:7328", "III53:2971", "V63:7328"], "b",
         "B placed V on the opponent's base line"),
        (["III42:1695", "IV32:9415", "V43:2476", "III53:7921", "IV52:8139", "III51:7921", "V62:3287"], "b",
         "A placed V on his own base line"),
    ],
)
def test_base_lines(moves, winner, why):
    state = BitisState()
    for move in moves[:-1]:
        state.play(move)
        assert not state.is_over()
    state.play(moves[-1])
    assert state.is_over() and state.winner() == winner and state.result() == winner
    assert state.termination().startswith(why)
    assert state.legal_actions() == []
    with pytest.raises(GameOver):
        state.play("III 3,3 1297")
    # the same end from the position string alone
    again = BitisState(state.position())
    assert again.is_over() and again.winner() == winner


@pytest.mark.parametrize(
    "position, winner",
    [
        ("34:1695 33:9514 32:3486 III A", "b"),
        ("43:7625 42:3584 41:8436 V A", "b"),
        ("22:9516 41:3485 31:8436 IV B", "a"),
    ],
)
def test_no_move_loses(position, winner):
    state = BitisState(position)
    assert state.is_over() and state.legal_actions() == [] and state.winner() == winner
    assert "has no legal placement" in state.termination()
    assert state.perft(1) == 0 and state.perft(0) == 1


def test_threefold_repetition_is_a_draw():
    cycle = ["IV23:8139", "III22:2971", "IV43:8534", "III32:7625"]
    state = BitisState(CHAIN)
    for move in cycle:
        state.play(move)
    assert state.position() == CHAIN and state.repetitions() == 2 and not state.is_over()
    for move in cycle[:3]:
        state.play(move)
    assert not state.is_over()
    state.play(cycle[3])
    assert state.repetitions() == 3 and state.is_over()
    assert state.winner() is None and state.result() == "draw" and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == [] and state.current_player() == ludothek.TERMINAL
    state.undo()
    assert not state.is_over()
    # the record replays to the same draw
    state.play(cycle[3])
    record = ludothek.Record.from_state(state)
    assert record.result == "draw"
    assert ludothek.loads(ludothek.dumps(record)).replay().result() == "draw"


def test_random_playouts_kernel():
    plies, games = BitisState().random_playouts(2000, seed=7)
    assert games == 2000 and 3 * 2000 < plies < 100 * 2000
    again = K.random_playouts(np.full(3, -1, np.int8), np.zeros(3, np.int8), -1, 0, 2000, 7)
    assert again[0] == plies and sum(again[1:]) == 2000


# ---------------------------------------------------------------------- notation and positions
def test_notation_forms():
    state = BitisState()
    action = state.parse_move("IV 4,3 9318")
    assert action == 1 * 576 + 14 * 24 + ORIENTATIONS[1].index((9, 3, 1, 8))
    for text in ("IV43:9318", "iv 43 9318", "Iv 4,3:9318", " IV4,3 9318 "):
        assert state.parse_move(text) == action
    assert state.action_to_str(action) == "IV43:9318"


@pytest.mark.parametrize(
    "text, message",
    [
        ("VI 4,3 9318", "unknown die"),
        ("IV 7,3 9318", "off the board"),
        ("IV 4,5 9318", "off the board"),
        ("IV 4,3 931", "four digits"),
        ("IV 4,3 9312", "IV has no face 2"),
        ("IV 4,3 9315", "east and west faces must be opposite"),
        ("IV 4,3 3918", "north and south faces must be opposite"),
        ("IV43", "not a placement"),
        ("", "not a placement"),
    ],
)
def test_malformed_moves(text, message):
    with pytest.raises(ParseError, match=message):
        BitisState().parse_move(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("- - - A", "5 fields"),
        ("- - - - C", "A or B"),
        ("- - - IV A", "not on the board"),
        ("- - - - B", "A is to move"),
        ("- 33:9318 - IV B", "row 4"),
        ("- 43:9318 - IV A", "B is to move"),
        ("- 43:9318 - - B", "must name the die placed last"),
        ("- 43:9318 44:2873 V A", "north of"),
        ("33:9712 43:9318 - III A", "chain rule.*south contact"),
        ("43:1297 43:9318 - III A", "both on 4,3"),
        ("- 43:9312 - IV B", "no face 2"),
        ("- 93:9318 - IV B", "off the board"),
        ("32:7625 34:8534 33:3486 V A", "do not touch"),
        ("32:7625 54:8534 33:3486 IV A", "face to face with another die"),
        ("12:7625 23:8534 22:2476 IV A", "base line but was not placed last"),
        ("- 43:9318 - VI B", "III, IV, V"),
        ("- 4:9318 - IV B", "row, column"),
        ("52:2179 31:4358 42:7624 III A", "cannot arise in a game"),  # every rule holds, yet no game gets here
    ],
)
def test_bad_positions(text, message):
    with pytest.raises(PositionError, match=message):
        BitisState(text)


@settings(max_examples=60)
@given(data=st.data())
def test_round_trips(data):
    state = data.draw(random_game("bitis", max_plies=30))
    again = BitisState(state.position())
    assert again.position() == state.position() and again.key() == state.key()
    if not state.is_over() or state.winner() is not None:
        assert again.legal_actions() == state.legal_actions()
    record = ludothek.Record.from_state(state)
    text = ludothek.dumps(record)
    assert ludothek.loads(text) == record
    assert record.replay() == state
    assert all(" " not in token for token in record.moves)
    before = (state.position(), state.key(), state.legal_actions(), state.ply)
    for action in state.legal_actions():
        state.play(action)
        state.undo()
        assert (state.position(), state.key(), state.legal_actions(), state.ply) == before


def test_records_accept_spaced_placements():
    text = '[Game "bitis"]\n\n1. IV 4,3 9318 III 33:1297 2. V 4,2 2873 *\n'
    record = ludothek.loads(text)
    assert record.moves == ["IV43:9318", "III33:1297", "V42:2873"]
    assert record.replay().position() == "33:1297 43:9318 42:2873 V B"


@settings(max_examples=150)
@given(text=st.text(alphabet="IVX 0123456789,:-ABab", max_size=20))
def test_fuzzed_placements_give_clean_errors(text):
    for position in (START, "- 43:9318 - IV B", CHAIN):
        state = BitisState(position)
        try:
            action = state.parse_move(text)
        except LudothekError:
            continue
        assert action in state.legal_actions()


@settings(max_examples=150)
@given(data=st.data())
def test_fuzzed_positions_give_clean_errors(data):
    base = data.draw(st.sampled_from([START, "- 43:9318 - IV B", CHAIN, "33:1297 43:9318 42:2873 V B"]))
    fields = base.split()
    i = data.draw(st.integers(0, 4))
    fields[i] = data.draw(st.text(alphabet="IVX-0123456789,:AB", max_size=9))
    try:
        state = BitisState(" ".join(fields))
    except LudothekError:
        return
    assert BitisState(state.position()) == state


def test_render_shows_every_die_and_last_mark():
    state = BitisState(CHAIN)
    text = state.render().plain
    for token in ("III*", "IV", "V", "7", "base line", "B to move"):
        assert token in text
    lines = [line for line in text.splitlines() if line.startswith(" 3 ")]
    assert lines and "5III*6" in lines[0].replace(" ", "")


def test_every_hand_position_is_consistent_with_the_engine():
    for position in (START, "- 43:9318 - IV B", CHAIN, "33:1297 43:9318 42:2873 V B"):
        state = BitisState(position)
        assert state.position() == position
        for a, b in itertools.combinations(state.legal_actions()[:20], 2):
            assert state.action_to_str(a) != state.action_to_str(b)
