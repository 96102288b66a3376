"""Pure board geometry, precomputed as NumPy tables for the kernels."""
