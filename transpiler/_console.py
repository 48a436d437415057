"""The `basic2tile` command's entry point: the package's identity first, then the CLI.

It sits above everything (nothing imports it) and imports the command line only after
`_identity` has said that the `transpiler` package is basic2tile's.
"""

from __future__ import annotations

import sys

from ._identity import foreign_package_message


def console_main() -> int:
    message = foreign_package_message()
    if message is not None:
        print(f"basic2tile: error: {message}", file=sys.stderr)
        return 1
    from .cli import main

    return main()
