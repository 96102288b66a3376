"""The learned evaluation of the dice games (docs/LEARNED_EVAL.md): the compiled net agrees
with the NumPy reference, the shipped nets give their recorded values, ``ludothek train``
runs, checkpoints and resumes, and the net's agent plays whole games."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from ludothek.ai.pairing import MatchGame, play_game
from ludothek.ai.tasks import run_tasks
from ludothek.boards import triangle66 as T
from ludothek.cli import main
from ludothek.core.protocol import CHANCE
from ludothek.core.registry import new_game
from ludothek.games.dice import net as N
from ludothek.games.dice import search_kernels as K
from ludothek.games.dice.kernels import JUMP_FIELDS_TRIGEO, NO_JUMPS
from ludothek.games.dice.net_kernels import net_pawns
from ludothek.games.dice.position import parse_position
from ludothek.games.dice.search import WEIGHTS

GAMES = {"trigeo": (K.TRIGEO, JUMP_FIELDS_TRIGEO), "hexalit": (K.HEXALIT, NO_JUMPS)}


def _positions(game: str, count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Positions of random games (through the game's API), Hexalit's temporary dice included."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_game(game)
        while not state.is_over() and len(found) < count:
            if state.current_player() == CHANCE:
                outcomes, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(outcomes, weights)[0])
                continue
            if rng.random() < 0.3:
                temp = getattr(state, "temp", np.zeros(T.SIZE, np.bool_))
                found.append((state.board.copy(), np.array(temp, np.bool_), int(state.side)))
            state.play(rng.choice(state.legal_actions()))
    return found


def _random_net(hidden: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    params = N.init_params(hidden, rng)
    params["b1"] = rng.normal(0, 0.3, hidden)
    params["w2"] = rng.normal(0, 1.0, hidden)
    params["b2"] = np.asarray(rng.normal())
    params["scale"] = np.asarray(rng.uniform(0.5, 1.5))
    return params


def _search_weights(kernel_game: int, params: dict) -> np.ndarray:
    w = np.concatenate([WEIGHTS[kernel_game], N.pack(params)])
    w.setflags(write=False)
    return w


@pytest.mark.parametrize("game", sorted(GAMES))
def test_compiled_net_agrees_with_the_numpy_reference(game):
    kernel_game, jumps = GAMES[game]
    positions = _positions(game, 60, seed=3)
    for seed, hidden in ((1, 7), (2, 32)):
        params = _random_net(hidden, seed)
        w = _search_weights(kernel_game, params)
        boards = np.array([p[0] for p in positions])
        temps = np.array([p[1] for p in positions])
        sides = np.array([p[2] for p in positions])
        hands = np.array([K.static_pawns(kernel_game, b, t, s, T.GEO, jumps, WEIGHTS[kernel_game])
                          for b, t, s in positions])
        reference = N.pawns_of(params, boards, temps, sides, hands)
        compiled = np.array([net_pawns(b, t, s, h, w, N.NET_START) for (b, t, s), h in zip(positions, hands)])
        np.testing.assert_allclose(compiled, reference, rtol=1e-9, atol=1e-9)
        # the search's leaf value: the squashed net for the side to move
        leaf = np.array([K.static_value(kernel_game, b, t, s, T.GEO, jumps, w) for b, t, s in positions])
        white = N.value(reference)
        np.testing.assert_allclose(leaf, np.where(sides == 0, white, -white), rtol=1e-9, atol=1e-9)
        assert np.ptp(reference - hands) > 0.1  # the net does change the hand values


def test_a_zero_net_is_the_hand_evaluation():
    params = N.init_params(5, np.random.default_rng(0))  # w2 = 0, scale = 1
    for game, (kernel_game, jumps) in GAMES.items():
        w = _search_weights(kernel_game, params)
        for b, t, s in _positions(game, 10, seed=4):
            assert K.static_value(kernel_game, b, t, s, T.GEO, jumps, w) == pytest.approx(
                K.static_value(kernel_game, b, t, s, T.GEO, jumps, WEIGHTS[kernel_game]), abs=1e-12)


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(5)
    positions = _positions("hexalit", 12, seed=6)
    x = N.features(np.array([p[0] for p in positions]), np.array([p[1] for p in positions]),
                   np.array([p[2] for p in positions]))
    hand = rng.normal(0, 3, len(positions))
    target = rng.uniform(-0.9, 0.9, len(positions))
    params = _random_net(4, 7)
    _, grads = N.loss_and_grads(params, x, hand, target)
    for name, index in (("w2", (1,)), ("b2", ()), ("scale", ()), ("b1", (2,)), ("W1", (int(np.flatnonzero(x[0])[0]), 3))):
        eps = 1e-6
        up = {k: np.array(v, float) for k, v in params.items()}
        down = {k: np.array(v, float) for k, v in params.items()}
        up[name][index] += eps
        down[name][index] -= eps
        numeric = (N.loss_and_grads(up, x, hand, target)[0] - N.loss_and_grads(down, x, hand, target)[0]) / (2 * eps)
        assert grads[name][index] == pytest.approx(numeric, rel=1e-4, abs=1e-9), name


# the shipped nets on fixed positions: pawns for White, computed once with the NumPy
# reference (docs/LEARNED_EVAL.md); new weights must come with new numbers here
FIXED = {
    "trigeo": [
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -", 3.315502465842156),
        ("R1BNKB1R1/2P1PQPPPN1/4P2P5/5n1p5/2pppqppp2/r1b1kbnr1 b -", -4.025853167216274),
        ("b3KBR2/2P1PQPPPN1/13/1k1PN1Pq5/1B1pp1ppp2/Rr3bnr1 b -", 6.29918223200532),
        ("5R3/2P1bKBPPNQ/1N3PP6/9p3/3pprpp1n1/k1r2b3 w -", 5.092262271870731),
    ],
    "hexalit": [
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -", 1.2254347069712774),
        ("1RBNKB1R1/2PPPQPKPN1/6P6/3p2p6/1b1ppqppp2/1r1nkbnr1 b B9", -0.08813600049478365),
        ("1RBNKB1R1/1bPP2P1PN1/2Q2PP6/3p2P6/3pqqpppn1/1r1nkb1r1 b E6", -0.8056719838208308),
        ("R1bN2N2/4RKn1P2/2pPPP1P5/4p1Pppp3/3P1r1p3/3nkb1r1 b -", -7.138354440694249),
    ],
}


@pytest.mark.parametrize("game", sorted(FIXED))
def test_shipped_net_gives_the_recorded_values(game):
    kernel_game, jumps = GAMES[game]
    params = N.unpack(N.shipped_flat(game))
    assert N.shipped_flat(game).nbytes <= 5 * 2**20
    for text, recorded in FIXED[game]:
        board, side, temp = parse_position(text)
        hand = K.static_pawns(kernel_game, board, temp, side, T.GEO, jumps, WEIGHTS[kernel_game])
        reference = float(N.pawns_of(params, board[None], temp[None], np.array([side]), np.array([hand]))[0])
        assert reference == pytest.approx(recorded, rel=1e-9, abs=1e-9), text
        w = _search_weights(kernel_game, params)
        assert net_pawns(board, temp, side, hand, w, N.NET_START) == pytest.approx(recorded, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_net_agent_plays_whole_games(game):
    for number in range(2):  # both seats
        result = play_game(MatchGame(game, "alphabeta_net:300", "alphabeta_hand:300", number, seed=11))
        assert result.result != "*" and result.plies > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_symmetric_images_keep_the_hand_evaluation(game):
    """The training's images of a position (reflected; half-turned with the colours swapped)
    are judged by the hand evaluation as the position is (negated for the colour swap), its
    mobility and 1-safety terms included: the rules are the same on the images."""
    from ludothek.games.dice.training import with_symmetries

    kernel_game, jumps = GAMES[game]
    positions = _positions(game, 40, seed=8)
    boards = np.array([p[0] for p in positions])
    temps = np.array([p[1] for p in positions])
    sides = np.array([p[2] for p in positions], np.int8)
    hands = np.array([K.static_pawns(kernel_game, b, t, s, T.GEO, jumps, WEIGHTS[kernel_game]) for b, t, s in positions])
    assert len(set(hands.round(6))) > 10  # positions that differ
    data = {"boards": boards, "temps": temps, "sides": sides, "hands": hands, "labels": np.tanh(hands),
            "results": np.sign(hands), "chunks": np.arange(len(hands), dtype=np.int32)}
    images = with_symmetries(data)
    assert len(images["hands"]) == 4 * len(hands)
    assert len({b.tobytes() for b in images["boards"]}) > 3 * len(hands)  # the images differ from the positions
    judged = [K.static_pawns(kernel_game, b, t, s, T.GEO, jumps, WEIGHTS[kernel_game])
              for b, t, s in zip(images["boards"], images["temps"], images["sides"])]
    np.testing.assert_allclose(judged, images["hands"], atol=1e-9)
    np.testing.assert_allclose(np.tanh(images["hands"]), images["labels"], atol=1e-12)
    np.testing.assert_array_equal(np.tile(data["chunks"], 4), images["chunks"])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sums_carried_down_the_frames_are_each_positions_own(game):
    """The search keeps the net's first-layer sums per frame and updates a child's from its
    parent's by the cells that changed: along a game, with frames skipped and a line replaced
    halfway (a new move pushed), every frame's sums equal those made from its position."""
    from ludothek.games.dice.net_kernels import frame_sums, position_sums

    kernel_game, _ = GAMES[game]
    w = _search_weights(kernel_game, _random_net(6, seed=12))
    lines = [_positions_in_a_row(game, 40, seed) for seed in (1, 2)]
    boards = np.array([b for b, _ in lines[0]])
    temps = np.array([t for _, t in lines[0]])
    sums, known = np.zeros((len(boards), 6)), np.zeros(len(boards), np.int64)

    def check(frames):
        for p in frames:
            frame_sums(boards, temps, sums, known, p, w, N.NET_START)
            whole = np.empty(6)
            position_sums(boards[p], temps[p], whole, w, N.NET_START)
            np.testing.assert_allclose(sums[p], whole, rtol=1e-9, atol=1e-9)

    check([0, 1, 2, 7, 8, 20, 39])
    boards[20:] = [b for b, _ in lines[1][20:]]  # another line from frame 20 on
    temps[20:] = [t for _, t in lines[1][20:]]
    known[20:] = 0
    check([25, 21, 39])
    assert known[20:].all()


def _positions_in_a_row(game, count, seed):
    rng = random.Random(seed)
    state, found = new_game(game), []
    while len(found) < count:
        if state.is_over():
            state = new_game(game)
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state.play(rng.choices(outcomes, weights)[0])
        else:
            state.play(rng.choice(state.legal_actions()))
        found.append((state.board.copy(), np.array(getattr(state, "temp", np.zeros(T.SIZE, np.bool_)), np.bool_)))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_after_a_search_every_frame_with_known_sums_has_its_positions_own(game):
    """A push that forgot to clear a frame's mark would leave sums of another position there."""
    from ludothek.ai.base import make_agent
    from ludothek.games.dice import search_kernels as SK
    from ludothek.games.dice.net_kernels import position_sums

    agent = make_agent("alphabeta_net:3000", game, seed=1)
    state = new_game(game)
    rng = random.Random(5)
    for _ in range(12):
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state.play(rng.choices(outcomes, weights)[0])
        else:
            state.play(agent.choose(state))
    tables = agent.compiled_tables
    known = np.flatnonzero(tables.ints[:, SK.F_SUMS])
    assert len(known) >= 4
    whole = np.empty(tables.sums.shape[1])
    for p in known:
        position_sums(tables.boards[p], tables.temps[p], whole, tables.weights, N.NET_START)
        np.testing.assert_allclose(tables.sums[p], whole, rtol=1e-9, atol=1e-9)


def _train(runner, tmp_path, *extra):
    return runner.invoke(main, ["train", "trigeo", "--positions", "150", "--nodes", "40", "--hidden", "4",
                                "--batch", "32", "--seed", "3", *extra], catch_exceptions=False)


def test_train_writes_a_net_and_resumes_to_the_same_one(tmp_path):
    runner = CliRunner()
    whole = _train(runner, tmp_path, "--epochs", "3", "--out", str(tmp_path / "whole.npz"))
    assert whole.exit_code == 0, whole.output
    part = _train(runner, tmp_path, "--epochs", "2", "--out", str(tmp_path / "part.npz"))
    assert part.exit_code == 0, part.output
    checkpoint = tmp_path / "part.npz.ckpt.npz"
    assert checkpoint.exists()
    with np.load(checkpoint) as ck:
        assert int(ck["epochs_done"]) == 2 and len(ck["data_labels"]) == 150
    resumed = _train(runner, tmp_path, "--epochs", "3", "--out", str(tmp_path / "resumed.npz"),
                     "--resume", str(checkpoint))
    assert resumed.exit_code == 0, resumed.output
    np.testing.assert_array_equal(N.pack(N.load(tmp_path / "resumed.npz")), N.pack(N.load(tmp_path / "whole.npz")))
    # the net plays: an agent reads the file
    from ludothek.ai.base import make_agent

    agent = make_agent(f"alphabeta_net:100,file={tmp_path / 'resumed.npz'}", "trigeo", seed=0)
    state = new_game("trigeo")
    assert agent.choose(state) in state.legal_actions()


def test_train_refuses_bad_input_in_one_line(tmp_path):
    runner = CliRunner()
    cases = [
        (["train", "bitis"], "has no learned evaluation"),
        (["train", "trigeo", "--hidden", "0"], "--hidden"),
        (["train", "trigeo", "--outcome-weight", "2"], "--outcome-weight"),
    ]
    first = _train(runner, tmp_path, "--epochs", "1", "--out", str(tmp_path / "a.npz"))
    assert first.exit_code == 0, first.output
    cases.append((["train", "trigeo", "--positions", "150", "--nodes", "41", "--hidden", "4", "--batch", "32",
                   "--seed", "3", "--resume", str(tmp_path / "a.npz.ckpt.npz"), "--out", str(tmp_path / "b.npz")],
                  "nodes 40 (not 41)"))
    for name, content in (("junk.npz", b"not a checkpoint"), ("empty.npz", b""), ("zip.npz", b"PK\x03\x04broken")):
        (tmp_path / name).write_bytes(content)
        for option in ("--resume", "--data"):
            cases.append((["train", "trigeo", option, str(tmp_path / name)], f"{name} is not a checkpoint or data file"))
    cases.append((["train", "trigeo", "--out", str(tmp_path / "nowhere" / "c.npz")], "the folder"))
    for args, words in cases:
        result = runner.invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], (args, result.output)


def test_train_can_start_from_a_net(tmp_path):
    runner = CliRunner()
    first = _train(runner, tmp_path, "--epochs", "1", "--out", str(tmp_path / "first.npz"))
    assert first.exit_code == 0, first.output
    data = str(tmp_path / "first.npz.ckpt.npz")
    again = _train(runner, tmp_path, "--epochs", "1", "--lr", "0.01", "--data", data,
                   "--start-from", str(tmp_path / "first.npz"), "--out", str(tmp_path / "again.npz"))
    assert again.exit_code == 0, again.output
    assert json.loads(again.output.strip().splitlines()[-1])["settings"]["start_from"].endswith("first.npz")
    assert not np.array_equal(N.pack(N.load(tmp_path / "again.npz")), N.pack(N.load(tmp_path / "first.npz")))
    (tmp_path / "junk.npz").write_bytes(b"junk")
    for start, hidden, words in ((tmp_path / "first.npz", "8", "has 4 hidden units, not the 8"),
                                 (tmp_path / "junk.npz", "4", "junk.npz is not a net")):
        result = runner.invoke(main, ["train", "trigeo", "--positions", "150", "--nodes", "40", "--hidden", hidden,
                                      "--seed", "3", "--data", data, "--start-from", str(start),
                                      "--out", str(tmp_path / "x.npz")])
        assert result.exit_code == 2 and words in result.output, result.output


def test_a_refit_starts_where_the_given_net_ended(tmp_path):
    from ludothek.games.dice.training import Settings, train

    def fit(name: str, **more) -> dict:  # one game a chunk: ten games give held-out ones
        return train("trigeo", Settings("trigeo", positions=1200, epochs=1, nodes=40, hidden=4, batch=32, seed=3,
                                        games_per_chunk=1, data=str(tmp_path / "data.npz"),
                                        out=str(tmp_path / name), **more))

    before = fit("first.npz")
    after = fit("again.npz", start_from=str(tmp_path / "first.npz"), lr=0.01)
    assert before["held_out_positions"] > 0
    assert after["start_error"] == pytest.approx(before["net_error"], rel=1e-9)
    assert after["net_error"] != before["net_error"]


def test_a_data_file_with_a_chunk_of_no_positions_reads_back_whole(tmp_path):
    # a chunk's games can all be decided turns (no search values): its positions are none
    from ludothek.games.dice import training as TR

    settings = TR.Settings("trigeo", nodes=40, seed=3)
    played = [TR.play_chunk("trigeo", 3, c, 1, 40, 6) for c in range(3)]
    chunks = {0: played[0], 1: {f: v[:0] for f, v in played[1].items()}, 2: played[2]}
    settings.positions = len(played[0]["labels"]) + len(played[2]["labels"])
    data, _ = TR._prefix(chunks, settings.positions)
    TR._save_checkpoint(str(tmp_path / "data.npz"), settings, chunks, data, None, None, 0, [])
    again, _ = TR._prefix(TR._data_chunks(str(tmp_path / "data.npz"), settings), settings.positions)
    for field in TR._FIELDS:
        np.testing.assert_array_equal(again[field], data[field])


def test_a_data_file_of_fewer_positions_is_extended_by_the_same_games(tmp_path):
    """Asked for more positions than its --data file holds, train plays the games that follow
    and writes them to the file: the data are those of one run of the larger size."""
    runner = CliRunner()

    def fit(positions: str, out: str, data: str):
        result = runner.invoke(main, ["train", "trigeo", "--positions", positions, "--nodes", "40", "--hidden", "4",
                                      "--batch", "32", "--seed", "3", "--epochs", "1", "--data", str(tmp_path / data),
                                      "--out", str(tmp_path / out)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.output.strip().splitlines()[-1])

    fit("150", "small.npz", "grown.npz")
    with np.load(tmp_path / "grown.npz") as before:
        small_chunks = int(before["chunk_ids"].max()) + 1
    assert fit("400", "grown-net.npz", "grown.npz")["positions"] == 400
    fit("400", "whole-net.npz", "whole.npz")
    with np.load(tmp_path / "grown.npz") as grown, np.load(tmp_path / "whole.npz") as whole:
        assert int(grown["chunk_ids"].max()) + 1 > small_chunks
        for name in ("data_boards", "data_temps", "data_labels", "data_results", "chunk_ids"):
            np.testing.assert_array_equal(grown[name], whole[name])
    np.testing.assert_array_equal(N.pack(N.load(tmp_path / "grown-net.npz")), N.pack(N.load(tmp_path / "whole-net.npz")))


def test_a_net_file_keeps_the_case_of_its_path_and_the_names_do_not_need_it(tmp_path):
    from ludothek.ai.base import make_agent

    N.save(tmp_path / "Net-B.npz", N.unpack(N.shipped_flat("trigeo")))
    state = new_game("trigeo")
    for spec in (f"alphabeta_net:100,file={tmp_path / 'Net-B.npz'}", f"ALPHABETA_NET:100,FILE={tmp_path / 'Net-B.npz'}",
                 "Alphabeta_With:100,MOBILITY=0.1"):
        assert make_agent(spec, "trigeo", seed=0).choose(state) in state.legal_actions()
    assert make_agent("MCTS_WITH:50,RAVE=OFF", "trike", seed=0) is not None


def test_a_net_file_that_is_not_one_is_a_clear_error(tmp_path):
    from ludothek.ai.base import make_agent
    from ludothek.core.errors import OptionError

    (tmp_path / "x.npz").write_bytes(b"junk")
    with pytest.raises(OptionError, match="cannot read the net"):
        make_agent(f"alphabeta_net:100,file={tmp_path / 'x.npz'}", "trigeo")
    with pytest.raises(OptionError, match="file=PATH"):
        make_agent("alphabeta_net:100,depth=3", "hexalit")


def test_tasks_run_in_worker_processes():
    results = dict(run_tasks(pow, ((b, 2) for b in range(7)), workers=2))
    assert results == {(b, 2): b * b for b in range(7)}


def test_tasks_run_on_a_local_ray_instance(ray_stopped_after):
    import textwrap

    pytest.importorskip("ray")
    tasks = [("x", "-" * k) for k in range(5)]  # (a pure-Python function: Ray refuses builtins)
    results = dict(run_tasks(textwrap.indent, iter(tasks), workers=1, ray_address="local"))
    assert results == {(text, prefix): prefix + text for text, prefix in tasks}


def test_the_data_do_not_depend_on_the_workers(tmp_path):
    runner = CliRunner()
    for workers in ("1", "2"):
        result = runner.invoke(main, ["train", "hexalit", "--positions", "120", "--nodes", "30", "--hidden", "3",
                                      "--epochs", "1", "--workers", workers, "--out", str(tmp_path / f"w{workers}.npz")])
        assert result.exit_code == 0, result.output
    with np.load(tmp_path / "w1.npz.ckpt.npz") as one, np.load(tmp_path / "w2.npz.ckpt.npz") as two:
        for name in ("data_boards", "data_temps", "data_labels", "data_hands", "net"):
            np.testing.assert_array_equal(one[name], two[name])


@pytest.mark.parametrize("game", GAMES)
def test_the_levels_from_3000_nodes_on_and_the_analysis_search_with_the_shipped_net(game):
    from ludothek.ai.analysis import strongest_agent
    from ludothek.ai.budget import Budget
    from ludothek.ai.levels import LEVELS, level_agent, level_of
    from ludothek.ai.review import _agent, search_algorithm
    from ludothek.games.dice import NET_FROM_NODES

    shipped = N.shipped_flat(game)

    def net_of(agent):
        return agent.search_options.get("net")

    for level in LEVELS:
        budget = level_of(game, level).budget
        agent = level_agent(game, level, seed=1)
        assert agent.name == f"bot:{level}" and agent.budget == budget
        if budget.seconds is not None or budget.iterations >= NET_FROM_NODES:
            np.testing.assert_array_equal(net_of(agent), shipped)
        else:  # the weakest levels keep the formula
            assert net_of(agent) is None
    analysing = strongest_agent(game, Budget(iterations=700), seed=1)
    assert analysing.exact_root and analysing.budget == Budget(iterations=700)
    np.testing.assert_array_equal(net_of(analysing), shipped)
    reviewing = _agent(game, search_algorithm(game), 900, seed=1)
    assert reviewing.budget == Budget(iterations=900)
    np.testing.assert_array_equal(net_of(reviewing), shipped)
    state = new_game(game)
    assert level_agent(game, 4, seed=1).choose(state) in state.legal_actions()
