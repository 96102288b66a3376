"""One package per game: rules kernels, the state class, notation and rendering."""
