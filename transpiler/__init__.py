"""basic2tile: BASIC to cuTile Python and CUDA C++.

The pipeline, in the order a program goes through it (`driver.py` runs it):

    builtins.py keywords.py  the tables of built-in functions and reserved words
    lexer.py grammar/        PLY lexer and grammar (one module per statement family)
    parser.py                source text -> `ast.Program`, line by line
    passes/                  semantic passes -> `model.Analysis`; host structure,
                             offload and kernel lowering -> `hostir`, `ir`
    interpreter/             the reference semantics (kernel_interpreter.py for kernels)
    backends/                cuTile Python and CUDA C++ printers (templates/ beside)

What generated programs run on (the BASIC runtime, the device layer, the CPU tile
simulator) is another distribution, basic2tile-runtime (runtime/ in the repository,
imported as `basic2tile_runtime`), released with this one under the same version;
`transpiler.runtime`, `transpiler.device` and `transpiler.tilesim` are its modules under
their old names (`_moved.py`).
"""

__version__ = "0.1.0"
# Which distribution this `transpiler` package is: the import name is shared with an
# unrelated PyPI distribution, and `_identity.py` checks this marker (docs/install.md).
DISTRIBUTION = "basic2tile"
