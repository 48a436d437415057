"""basic2tile: BASIC to cuTile Python and CUDA C++.

The pipeline, in the order a program goes through it (`driver.py` runs it):

    language/                the tables of built-in functions and reserved words, and
                             the facts every engine reads alike
    frontend/                PLY lexer and grammar/ (one module per statement family);
                             parser.py: source text -> `ast.Program`, line by line
    ir/                      the program's forms: ast, model, hostir, kernel (`ir`)
    passes/                  semantic passes -> `model.Analysis`; host structure,
                             offload and kernel lowering -> `hostir`, `ir`
    hostcode/                host code lowered once for both targets
    backends/                cuTile Python and CUDA C++ printers (templates/ beside)
    cpp_runtime/             the C++ headers generated CUDA C++ includes
    interpreter/             the reference semantics (run/kernel_interpreter.py for kernels)
    run/ verify/             running, checking and building what was generated
    reports/                 --explain, --dump-*, --html
    cli.py api.py driver.py  the command line, the library, the pipeline

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
