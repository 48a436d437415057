"""`python kernel.py`: the self-test of a generated kernel module, when basic2tile is there.

The self-test compares the module's `run()` with basic2tile's reference interpreter, which
is part of the compiler, not of this runtime: with the runtime alone the module still
imports and runs (`run(...)`), and its command line says in one line what to install.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from .version import __version__


def main(module: ModuleType, argv: list[str]) -> int:
    """The compiler's self-test of `module` (transpiler.run.selftest), or exit status 1 with
    one line on stderr when the compiler is not installed."""
    if importlib.util.find_spec("transpiler") is None:
        name = (getattr(module, "__file__", None) or "module").replace("\\", "/").rsplit("/")[-1]
        print(
            f"{name}: error: its self-test compares run() with basic2tile's reference "
            f"interpreter, which comes with the compiler: pip install 'basic2tile~={__version__}' "
            "(importing the module and calling run() needs only basic2tile-runtime)",
            file=sys.stderr,
        )
        return 1
    from transpiler.run.selftest import main as compiler_self_test

    return compiler_self_test(module, argv)
