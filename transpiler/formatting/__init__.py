"""The formatting stage: a back end's text laid out as people write it.

The back ends print programs from templates without caring for line lengths or
indentation; the pipeline (`driver.generate`) passes their text through here:

- `python`: Ruff's formatter, in Black's style, for cuTile Python (with `comment_runs`,
  which folds long runs of comment lines the formatter is slow on);
- `cpp`: clang-format, in the one style of generated C++, for CUDA C++ (with
  `clang_verbatim`, which keeps the `// clang-format off` regions from clang-format,
  and the pieces side by side in several processes);
- `cpp_pieces`: the line the C++ printers write between top-level pieces, where `cpp`
  may cut a long file; the one module of this package the back ends import.

Text in, text out: nothing here imports a back end, a pass or the driver
(tests/test_import_graph.py).
"""

from __future__ import annotations
