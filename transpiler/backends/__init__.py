"""Back ends: the kernel IR and the host IR as program text, one package per target.

- `cutile/`: cuTile Python (kernels and the Python host module).
- `cuda/`: CUDA C++ (kernels, matrix products, reductions, launches and the C++ host).
- Shared by both: `render.py` (the one Jinja environment over `templates/`) and
  `basic_origin.py` (the BASIC text quoted in the comments of generated host code).

Back ends lay out text, and return it unformatted: the driver passes it through the
formatting stage (`transpiler/formatting/`: Ruff's formatter, clang-format).  Decisions
are made by the passes (`transpiler/passes/`), which annotate the IR the printers read;
the driver calls the back ends, never the reverse (tests/test_import_graph.py).
"""
