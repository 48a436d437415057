"""A plain message when the package imported as `transpiler` is not basic2tile's.

An unrelated PyPI distribution installs a package of the same import name.  pip does not
warn when both are installed into one environment; their files then mix in one folder,
and whichever `transpiler/__init__.py` was written last wins.  This module has a name the
other distribution does not use: the `basic2tile` command and the names modules generated
before the runtime moved out import (`transpiler.device`, `transpiler.runtime`) call
`require_basic2tile()` first (the command through `_console.py`), so that the mix is
reported as what it is instead of a stray ImportError.  Modules generated now import
`basic2tile_runtime`, whose name no other distribution shares.
"""

from __future__ import annotations

import sys


def foreign_package_message() -> str | None:
    """None when `transpiler` is basic2tile's, else what to tell the user."""
    package = sys.modules.get("transpiler")
    if package is None:
        import transpiler as package
    if getattr(package, "DISTRIBUTION", None) == "basic2tile":
        return None
    where = getattr(package, "__file__", None) or "?"
    return (
        f"the Python package 'transpiler' ({where}) is not basic2tile's: another "
        "distribution installs a package of the same name (pip show transpiler).  Uninstall "
        "both and reinstall basic2tile, or give basic2tile a virtual environment of its own."
    )


def require_basic2tile() -> None:
    message = foreign_package_message()
    if message is not None:
        raise ImportError(message)
