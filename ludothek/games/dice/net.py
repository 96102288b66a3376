"""The learned evaluation of the dice games (docs/LEARNED_EVAL.md): a small network that
corrects the hand-written evaluation (:mod:`.eval_kernels`), here in NumPy — the reference
the compiled forward pass (:mod:`.net_kernels`) is tested against, and what training uses.

Inputs (White's point of view; :func:`features`): per cell a one-hot plane for each face
and colour (66 x 12), Hexalit's temporary dice by colour (66 x 2) and the side to move
(+1 White, -1 Black): :data:`N_IN` numbers. One hidden layer of ReLU units; the output is
in pawns for White::

    pawns = scale * hand_pawns + b2 + w2 . relu(W1^T x + b1)

then squashed as the hand evaluation is (``0.9 tanh(pawns / 6)``). With ``w2 = 0`` and
``scale = 1`` it is the hand evaluation exactly, which is where training starts.

The parameters travel as one flat float64 array (:func:`pack`), appended to the hand
evaluation's weights: the compiled search sees a longer weights array and uses the net.
"""

from __future__ import annotations

from importlib import resources

import numpy as np

from .eval_kernels import WEIGHT_NAMES
from .kernels import CELLS

FACE_PLANES = 12  # faces 1..6 of White, then of Black
TEMP_INPUT = CELLS * FACE_PLANES  # Hexalit's temporary dice: 2 per cell (White, Black)
SIDE_INPUT = TEMP_INPUT + 2 * CELLS
N_IN = SIDE_INPUT + 1
#: where the net's parameters start in the search's weights array
NET_START = len(WEIGHT_NAMES)
HEADER = 4  # hidden units, inputs, scale, b2
SQUASH = 6.0


def init_params(hidden: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A net equal to the hand evaluation (``w2 = 0``), its hidden layer random."""
    return {
        "W1": rng.normal(0.0, 1.0 / np.sqrt(32.0), (N_IN, hidden)),
        "b1": np.zeros(hidden),
        "w2": np.zeros(hidden),
        "b2": np.zeros(()),
        "scale": np.ones(()),
    }


def features(boards: np.ndarray, temps: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """The inputs of ``n`` positions: boards int8[n, 66], temps bool[n, 66], sides int[n]."""
    boards = np.asarray(boards, np.int64)
    n = boards.shape[0]
    x = np.zeros((n, N_IN))
    rows, cells = np.nonzero(boards)
    values = boards[rows, cells]
    faces = np.where(values > 0, values - 1, 5 - values)
    x[rows, cells * FACE_PLANES + faces] = 1.0
    trows, tcells = np.nonzero(np.asarray(temps, bool) & (boards != 0))
    x[trows, TEMP_INPUT + 2 * tcells + (boards[trows, tcells] < 0)] = 1.0
    x[:, SIDE_INPUT] = np.where(np.asarray(sides) == 0, 1.0, -1.0)
    return x


def forward(params: dict, x: np.ndarray, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pawns for White, hidden pre-activations, hidden activations)."""
    pre = x @ params["W1"] + params["b1"]
    hidden = np.maximum(pre, 0.0)
    pawns = params["scale"] * hand + params["b2"] + hidden @ params["w2"]
    return pawns, pre, hidden


def value(pawns: np.ndarray) -> np.ndarray:
    """The squashed value for White in (-0.9, 0.9), as the search's leaves see it."""
    return 0.9 * np.tanh(np.asarray(pawns) / SQUASH)


def pawns_of(params: dict, boards, temps, sides, hand) -> np.ndarray:
    """The reference forward pass: pawns for White of positions with hand values ``hand``."""
    return forward(params, features(boards, temps, sides), np.asarray(hand, float))[0]


def loss_and_grads(params: dict, x: np.ndarray, hand: np.ndarray, target: np.ndarray) -> tuple[float, dict]:
    """Mean squared error of the squashed value against ``target`` (values for White), and
    its gradients."""
    pawns, pre, hidden = forward(params, x, hand)
    v = value(pawns)
    err = v - target
    n = len(target)
    # d v / d pawns = 0.9 (1 - tanh^2) / SQUASH
    t = v / 0.9
    dz = (2.0 / n) * err * 0.9 * (1.0 - t * t) / SQUASH
    dh = np.outer(dz, params["w2"]) * (pre > 0)
    grads = {
        "w2": hidden.T @ dz,
        "b2": np.asarray(dz.sum()),
        "scale": np.asarray(dz @ hand),
        "W1": x.T @ dh,
        "b1": dh.sum(axis=0),
    }
    return float(np.mean(err * err)), grads


def pack(params: dict) -> np.ndarray:
    hidden = params["w2"].shape[0]
    flat = np.concatenate([[hidden, N_IN, float(params["scale"]), float(params["b2"])], params["b1"], params["w2"],
                           np.asarray(params["W1"], float).ravel()])
    return flat.astype(np.float64)


def unpack(flat: np.ndarray) -> dict:
    hidden, n_in = int(flat[0]), int(flat[1])
    if n_in != N_IN or flat.shape[0] != HEADER + 2 * hidden + n_in * hidden:
        raise ValueError(f"not a net of these inputs: {n_in} inputs, {flat.shape[0]} numbers")
    o = HEADER
    return {
        "scale": np.asarray(flat[2]), "b2": np.asarray(flat[3]),
        "b1": flat[o:o + hidden].copy(), "w2": flat[o + hidden:o + 2 * hidden].copy(),
        "W1": flat[o + 2 * hidden:].reshape(n_in, hidden).copy(),
    }


def save(path, params: dict, **info) -> None:
    """The shipped form: the packed parameters and how they were made (``info``, text)."""
    np.savez_compressed(path, net=pack(params), **{k: np.asarray(str(v)) for k, v in info.items()})


def load(path) -> dict:
    with np.load(path) as data:
        return unpack(np.asarray(data["net"], np.float64))


#: the shipped weights, by game (``ludothek/games/<game>/net.npz``)
SHIPPED = {"trigeo": "ludothek.games.trigeo", "hexalit": "ludothek.games.hexalit"}
_LOADED: dict[str, np.ndarray] = {}


def shipped_flat(game: str) -> np.ndarray:
    """The game's shipped net, packed (read-only; loaded once)."""
    if game not in _LOADED:
        with resources.files(SHIPPED[game]).joinpath("net.npz").open("rb") as f:
            flat = pack(load(f))
        flat.setflags(write=False)
        _LOADED[game] = flat
    return _LOADED[game]
