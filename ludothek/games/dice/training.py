"""``ludothek train trigeo|hexalit``: the learned evaluation's training (docs/LEARNED_EVAL.md).

1. **Data.** Self-play games of the compiled alpha-beta with the hand evaluation at
   ``nodes`` nodes a move, after a few random plies (openings differ). Every position where a
   side chose a move is kept with its hand evaluation (pawns for White), the search's value
   of it (the label) and the game's result. Games come in chunks, each reproducible from
   (seed, chunk number), run in worker processes or on Ray; the data are the first chunks in
   number order up to ``positions`` positions, so they do not depend on the workers.
2. **Fit.** The net (:mod:`.net`) regresses ``(1 - λ) · search value + λ · 0.9 · result``
   (values for White) with Adam over minibatches and an L2 penalty on the first layer,
   ``epochs`` passes; every tenth chunk (whole games) is held out, and the net written is
   that of the epoch with the least held-out error (the positions of a game are alike: a
   net soon learns the training games by heart).

A checkpoint (npz: settings, data so far, parameters, optimiser state, epochs done) is
written after every few chunks and every epoch; ``resume`` continues from one with the same
settings and ends with the same net as an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import zipfile
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from ...core.errors import OptionError
from . import net as N
from .texts import TEXTS

#: settings that shape the data, and those that shape the net too: a data file serves
#: only the same data settings, a checkpoint resumes only with the same settings
DATA = ("game", "positions", "seed", "nodes", "random_plies")
SHAPING = DATA + ("hidden", "batch", "lr", "outcome_weight", "l2", "symmetries", "start_from")


@dataclass
class Settings:
    game: str
    positions: int = 40000
    epochs: int = 20
    seed: int = 1
    nodes: int = 2000
    hidden: int = 64
    batch: int = 256
    lr: float = 1e-3
    outcome_weight: float = 0.0
    l2: float = 1e-4
    #: fit every position also in its three symmetric images (:func:`with_symmetries`)
    symmetries: bool = True
    random_plies: int = 6
    #: a net whose weights the fit starts from (same hidden units), e.g. one fitted to
    #: shallower labels; None: small random weights
    start_from: str | None = None
    games_per_chunk: int = 4
    workers: int = 1
    ray_address: str | None = None
    out: str = "net.npz"
    data: str | None = None
    checkpoint: str | None = None
    resume: str | None = None


# ---------------------------------------------------------------------- data
def play_chunk(game: str, seed: int, chunk: int, games: int, nodes: int, random_plies: int) -> dict:
    """Self-play games ``chunk * games ..``: positions, hand values, labels, results."""
    from ...ai.alphabeta import AlphaBetaAgent
    from ...ai.budget import Budget
    from ...boards import triangle66 as T
    from ...core.protocol import CHANCE
    from ...core.registry import new_game
    from . import search_kernels as K
    from .kernels import JUMP_FIELDS_TRIGEO, NO_JUMPS
    from .search import WEIGHTS

    kernel_game = K.TRIGEO if game == "trigeo" else K.HEXALIT
    jumps = JUMP_FIELDS_TRIGEO if kernel_game == K.TRIGEO else NO_JUMPS
    w = WEIGHTS[kernel_game]
    boards, temps, sides, hands, labels, results = [], [], [], [], [], []
    for g in range(chunk * games, (chunk + 1) * games):
        rng = random.Random(f"{seed}/train/{g}")
        state = new_game(game)
        agents = [AlphaBetaAgent(game, rng.getrandbits(31), Budget(iterations=nodes)) for _ in range(2)]
        start = len(boards)
        ply = 0
        while not state.is_over():
            player = state.current_player()
            if player == CHANCE:
                outcomes, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(outcomes, weights)[0])
                continue
            if ply < random_plies:
                state.play(rng.choice(state.legal_actions()))
                ply += 1
                continue
            analysis = agents[player].analyse(state)
            if analysis.depth >= 1:  # a search's value (not a decided turn)
                temp = getattr(state, "temp", None)
                temp = np.zeros(T.SIZE, np.bool_) if temp is None else temp.copy()
                boards.append(state.board.copy())
                temps.append(temp)
                sides.append(int(state.side))
                hands.append(float(K.static_pawns(kernel_game, state.board, temp, state.side, T.GEO, jumps, w)))
                labels.append(analysis.value if state.side == 0 else -analysis.value)  # for White
            state.play(analysis.best)
            ply += 1
        returns = state.returns()
        white = returns[0] if state.seat_colour(0) == "white" else returns[1]
        results.extend([float(white)] * (len(boards) - start))
    n = len(boards)
    return {
        "boards": np.array(boards, np.int8).reshape(n, T.SIZE),
        "temps": np.array(temps, np.bool_).reshape(n, T.SIZE),
        "sides": np.array(sides, np.int8), "hands": np.array(hands), "labels": np.array(labels),
        "results": np.array(results), "chunks": np.full(n, chunk, np.int32),
    }


_FIELDS = ("boards", "temps", "sides", "hands", "labels", "results", "chunks")


def _join(parts: list[dict]) -> dict:
    return {f: np.concatenate([p[f] for p in parts]) for f in _FIELDS}


def _prefix(chunks: dict[int, dict], positions: int) -> tuple[dict | None, int]:
    """The first chunks in number order holding ``positions`` positions (cut to that many),
    or None; and how many positions the unbroken prefix of chunks holds."""
    total, taken = 0, []
    i = 0
    while i in chunks:
        taken.append(chunks[i])
        total += len(chunks[i]["labels"])
        if total >= positions:
            data = _join(taken)
            return {f: v[:positions] for f, v in data.items()}, total
        i += 1
    return None, total


def with_symmetries(data: dict) -> dict:
    """The positions and their images under the board's symmetries, which the rules and the
    hand evaluation respect (a test checks): the left-right reflection (same values) and the
    half-turn with the colours and the side to move swapped (values negated), and both. A
    copy keeps its game's chunk, so held-out games stay held out."""
    from ...boards import triangle66 as T

    images = [data]
    for cells, swap in ((T.REFLECT, False), (T.MIRROR, True)):
        for source in list(images):
            image = dict(source)
            image["boards"] = np.empty_like(source["boards"])
            image["boards"][:, cells] = -source["boards"] if swap else source["boards"]
            image["temps"] = np.empty_like(source["temps"])
            image["temps"][:, cells] = source["temps"]
            if swap:
                image["sides"] = (1 - source["sides"]).astype(source["sides"].dtype)
                for field in ("hands", "labels", "results"):
                    image[field] = -source[field]
            images.append(image)
    return _join(images)


# ---------------------------------------------------------------------- checkpoints
def _save_checkpoint(path: str, settings: Settings, chunks: dict[int, dict], data: dict | None,
                     params: dict | None, adam: dict | None, epochs_done: int, history: list,
                     best: tuple | None = None) -> None:
    arrays = {"settings": np.asarray(json.dumps({k: getattr(settings, k) for k in SHAPING})),
              "epochs_done": np.asarray(epochs_done), "history": np.asarray(json.dumps(history))}
    if data is not None:  # a prefix: every chunk up to its last one
        arrays.update({f"data_{f}": v for f, v in data.items()})
        arrays["chunk_ids"] = np.arange(int(data["chunks"].max()) + 1 if len(data["chunks"]) else 0)
    elif chunks:
        arrays.update({f"data_{f}": v for f, v in _join([chunks[i] for i in sorted(chunks)]).items()})
        arrays["chunk_ids"] = np.asarray(sorted(chunks))
    if params is not None:
        arrays["net"] = N.pack(params)
        for name, value in adam.items():
            arrays[f"adam_{name}"] = np.asarray(value)
    if best is not None:
        arrays["best_net"] = N.pack(best[2])
        arrays["best_epoch"] = np.asarray(best[1])
        arrays["best_error"] = np.asarray(np.nan if best[0] is None else best[0])
    tmp = f"{path}.tmp.npz"
    np.savez(tmp, **arrays)
    os.replace(tmp, path)  # a checkpoint is never half written


def _read(path: str) -> dict[str, np.ndarray]:
    """Every array of a checkpoint or data file, or an :class:`OptionError` that says why not."""
    try:
        with np.load(path) as arrays:
            return {name: arrays[name] for name in arrays.files}
    except OSError as exc:
        raise OptionError(TEXTS("train_unreadable", path=path, error=exc.strerror or exc)) from None
    except (EOFError, ValueError, zipfile.BadZipFile):  # empty, pickled or broken: not written by us
        raise OptionError(TEXTS("train_not_ours", path=path)) from None


def _chunks_of(ck: dict[str, np.ndarray]) -> dict[int, dict]:
    """A file's positions by chunk. The chunks played are listed apart from the positions, as
    a chunk can hold none (files written before that list: the chunks seen in the positions)."""
    order = np.argsort(ck["data_chunks"], kind="stable")  # written in chunk order; sorted to be sure
    joined = {f: ck[f"data_{f}"][order] for f in _FIELDS}
    ids = ck["chunk_ids"] if "chunk_ids" in ck else np.unique(joined["chunks"])
    starts = np.searchsorted(joined["chunks"], ids, "left")
    ends = np.searchsorted(joined["chunks"], ids, "right")
    return {int(c): {f: v[a:b] for f, v in joined.items()} for c, a, b in zip(ids, starts, ends)}


def _load_checkpoint(path: str, settings: Settings):
    ck = _read(path)
    try:
        saved = json.loads(str(ck["settings"]))
        mine = {k: getattr(settings, k) for k in SHAPING}
        different = [k for k in SHAPING if saved.get(k) != mine[k]]
        if different:
            raise _Mismatch(TEXTS("train_resume_settings", path=path, names=", ".join(
                f"{k} {saved.get(k)!r} (not {mine[k]!r})" for k in different)))
        chunks = _chunks_of(ck) if "data_labels" in ck else {}
        data = None
        params = adam = best_net = None
        if "best_net" in ck:
            error = float(ck["best_error"])
            best_net = (None if np.isnan(error) else error, int(ck["best_epoch"]), N.unpack(ck["best_net"]))
        if "net" in ck:
            params = N.unpack(ck["net"])
            adam = {k[5:]: ck[k] for k in ck if k.startswith("adam_")}
            adam = {"t": int(adam["t"]), "m": N.unpack(adam["m"]), "v": N.unpack(adam["v"])}
            data = {f: ck[f"data_{f}"] for f in _FIELDS}
        return chunks, data, params, adam, int(ck["epochs_done"]), json.loads(str(ck["history"])), best_net
    except _Mismatch as exc:
        raise OptionError(exc.args[0]) from None
    except (KeyError, ValueError):
        raise OptionError(TEXTS("train_not_ours", path=path)) from None


def _data_chunks(path: str, settings: Settings) -> dict[int, dict]:
    """The chunks of games in a data file (or a checkpoint) made with these data settings; the
    number of positions may differ (the first chunks are the same games)."""
    ck = _read(path)
    try:
        saved = json.loads(str(ck["settings"]))
        different = [k for k in DATA if k != "positions" and saved.get(k) != getattr(settings, k)]
        if different:
            raise _Mismatch(TEXTS("train_resume_settings", path=path, names=", ".join(
                f"{k} {saved.get(k)!r} (not {getattr(settings, k)!r})" for k in different)))
        chunks = _chunks_of(ck)
    except _Mismatch as exc:
        raise OptionError(exc.args[0]) from None
    except (KeyError, ValueError):
        raise OptionError(TEXTS("train_not_ours", path=path)) from None
    return chunks


def _starting_net(settings: Settings) -> dict:
    path = settings.start_from
    try:
        params = N.load(path)
    except OSError as exc:
        raise OptionError(TEXTS("train_unreadable", path=path, error=exc.strerror or exc)) from None
    except (EOFError, KeyError, ValueError, zipfile.BadZipFile):
        raise OptionError(TEXTS("train_not_a_net", path=path)) from None
    if params["w2"].shape[0] != settings.hidden:
        raise OptionError(TEXTS("train_start_hidden", path=path, have=params["w2"].shape[0], hidden=settings.hidden))
    return params


def _check_writable(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
        raise OptionError(TEXTS("train_unwritable", path=path, folder=folder))


class _Mismatch(Exception):
    """(a checkpoint of other settings: its message as it is)"""


# ---------------------------------------------------------------------- fitting
def _adam_step(params: dict, grads: dict, adam: dict, lr: float) -> None:
    adam["t"] += 1
    t = adam["t"]
    for k in params:
        m = adam["m"][k] = 0.9 * adam["m"][k] + 0.1 * grads[k]
        v = adam["v"][k] = 0.999 * adam["v"][k] + 0.001 * grads[k] ** 2
        params[k] = params[k] - lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)


def targets(data: dict, outcome_weight: float) -> np.ndarray:
    label = np.clip(data["labels"], -0.9, 0.9)
    return (1.0 - outcome_weight) * label + outcome_weight * 0.9 * data["results"]


def _error(params: dict, data: dict, pick: np.ndarray, target: np.ndarray) -> float | None:
    """The mean squared error on the rows ``pick`` (None: no rows, e.g. too few chunks)."""
    if not pick.any():
        return None
    v = N.value(N.pawns_of(params, data["boards"][pick], data["temps"][pick], data["sides"][pick],
                           data["hands"][pick]))
    return float(np.mean((v - target[pick]) ** 2))


def train(game: str, settings: Settings, progress: Callable[[str, int, int, str], None] | None = None) -> dict:
    """Make the data, fit the net, write ``settings.out``; returns a summary."""
    from ...ai.tasks import run_tasks

    if game not in N.SHIPPED:
        raise OptionError(TEXTS("train_game", game=repr(game)))
    settings.game = game
    report = progress or (lambda *_: None)
    checkpoint = settings.checkpoint or f"{settings.out}.ckpt.npz"
    for path in (settings.out, checkpoint, settings.data):  # before hours of self-play, not after
        if path and not os.path.exists(path):
            _check_writable(path)
    chunks: dict[int, dict] = {}
    data = params = adam = best_net = None
    epochs_done, history = 0, []
    if settings.resume:
        chunks, data, params, adam, epochs_done, history, best_net = _load_checkpoint(settings.resume, settings)

    # 1. data (a data file of the same data settings is used, extended by more games if it
    # holds fewer positions, or written)
    if data is None and settings.data and os.path.exists(settings.data):
        stored = _data_chunks(settings.data, settings)
        data, _ = _prefix(stored, settings.positions)
        if data is not None:
            report("data", len(data["labels"]), settings.positions, "from " + settings.data)
        elif stored:  # to be extended: its last chunk was cut at the size asked for then, so it is played again
            del stored[max(stored)]
            chunks = {**stored, **chunks}
    if data is None:
        data, have = _prefix(chunks, settings.positions)
        report("data", min(have, settings.positions), settings.positions, "")
        if data is None:
            def wanted():
                c = 0
                while True:
                    if c not in chunks:
                        yield (game, settings.seed, c, settings.games_per_chunk, settings.nodes,
                               settings.random_plies)
                    c += 1

            tasks = run_tasks(play_chunk, wanted(), settings.workers, settings.ray_address)
            try:
                for count, (arguments, part) in enumerate(tasks, start=1):
                    chunks[arguments[2]] = part
                    data, have = _prefix(chunks, settings.positions)
                    report("data", min(have, settings.positions), settings.positions, f"{len(chunks)} chunks")
                    if data is not None:
                        break
                    if count % 5 == 0:
                        _save_checkpoint(checkpoint, settings, chunks, None, None, None, 0, history)
            finally:
                tasks.close()
        _save_checkpoint(checkpoint, settings, chunks, data, None, None, 0, history)
        if settings.data:
            _save_checkpoint(settings.data, settings, chunks, data, None, None, 0, [])

    # 2. fit
    # (the errors are measured on the held-out games' own positions, the fit sees their images too)
    fitted = with_symmetries(data) if settings.symmetries else data
    fitted_target = targets(fitted, settings.outcome_weight)
    train_rows = np.flatnonzero(fitted["chunks"] % 10 != 9)
    target = targets(data, settings.outcome_weight)
    held = data["chunks"] % 10 == 9
    starting = _starting_net(settings) if settings.start_from else None
    if params is None:
        params = ({k: v.copy() for k, v in starting.items()} if starting is not None
                  else N.init_params(settings.hidden, np.random.default_rng([settings.seed, 0])))
        adam = {"t": 0, "m": {k: np.zeros_like(v) for k, v in params.items()},
                "v": {k: np.zeros_like(v) for k, v in params.items()}}
    base = {"scale": np.ones(()), "b2": np.zeros(()), "b1": np.zeros(settings.hidden),
            "w2": np.zeros(settings.hidden), "W1": np.zeros((N.N_IN, settings.hidden))}
    hand_error = _error(base, data, held, target)
    start_error = None if starting is None else _error(starting, data, held, target)
    steps = max(1, len(train_rows) // settings.batch)
    best = None if best_net is None else (best_net[0], best_net[1], best_net[2])
    report("fit", epochs_done * steps, settings.epochs * steps, "")
    for epoch in range(epochs_done, settings.epochs):
        order = np.random.default_rng([settings.seed, 1, epoch]).permutation(train_rows)
        losses = []
        for s in range(steps):
            rows = order[s * settings.batch:(s + 1) * settings.batch]
            x = N.features(fitted["boards"][rows], fitted["temps"][rows], fitted["sides"][rows])
            loss, grads = N.loss_and_grads(params, x, fitted["hands"][rows], fitted_target[rows])
            grads["W1"] = grads["W1"] + settings.l2 * params["W1"]
            _adam_step(params, grads, adam, settings.lr)
            losses.append(loss)
            if s % 20 == 0 or s == steps - 1:
                report("fit", epoch * steps + s + 1, settings.epochs * steps, f"epoch {epoch + 1} loss {np.mean(losses):.4f}")
        held_error = _error(params, data, held, target)
        history.append({"epoch": epoch + 1, "train": float(np.mean(losses)), "held_out": held_error})
        if best is None or held_error is None or (best[0] is not None and held_error < best[0]):
            best = (held_error, epoch + 1, {k: np.array(v) for k, v in params.items()})
        report("fit", (epoch + 1) * steps, settings.epochs * steps,
               f"epoch {epoch + 1} loss {np.mean(losses):.4f} held-out {_shown(held_error)} (hand {_shown(hand_error)})")
        _save_checkpoint(checkpoint, settings, chunks, data, params,
                         {"t": np.asarray(adam["t"]), "m": N.pack(adam["m"]), "v": N.pack(adam["v"])},
                         epoch + 1, history, best)
    if best is not None:
        params = best[2]
    summary = {"game": game, "positions": int(len(target)), "held_out_positions": int(held.sum()),
               "hand_error": hand_error, "net_error": _error(params, data, held, target),
               "epoch": None if best is None else best[1], "history": history,
               **({"start_error": start_error} if start_error is not None else {}),
               "settings": {k: getattr(settings, k) for k in SHAPING + ("epochs",)}}
    N.save(settings.out, params, summary=json.dumps(summary))
    return summary


def _shown(error: float | None) -> str:
    return "-" if error is None else f"{error:.4f}"


def settings_from(game: str, **given) -> Settings:
    return Settings(game=game, **{k: v for k, v in given.items() if v is not None})


__all__ = ["Settings", "asdict", "play_chunk", "settings_from", "train"]
