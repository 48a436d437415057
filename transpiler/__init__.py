"""basic2tile: BASIC to cuTile Python and CUDA C++."""

__version__ = "0.1.0"
