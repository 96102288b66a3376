"""The compiled kernels' random numbers: splitmix64 with Lemire's unbiased bounded draw.

A kernel keeps its generator's state in one ``uint64`` (``state = np.uint64(seed)``) and draws
with ``state, k = random_below(state, n)``.  About ten times faster than numba's
``np.random.randint`` (measured: 1.2 ns against 14.7 ns a draw), and a kernel's stream
depends only on its seed, not on numba's global generator.
"""

import numpy as np

from .njit import njit

_ONE = np.uint64(1)
_LOW32 = np.uint64(0xFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _next32(state):
    """splitmix64; returns the new state and 32 random bits (as uint64)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, (z ^ (z >> np.uint64(31))) >> np.uint64(32)


@njit(cache=True, inline="always")
def random_below(state, n):
    """A uniform integer in ``[0, n)`` (Lemire's multiply-shift, rejecting the bias)."""
    bound = np.uint64(n)
    state, bits = _next32(state)
    product = bits * bound
    if product & _LOW32 < bound:
        threshold = (_LOW32 + _ONE - bound) % bound
        while product & _LOW32 < threshold:
            state, bits = _next32(state)
            product = bits * bound
    return state, np.int64(product >> np.uint64(32))
