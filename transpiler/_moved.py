"""Old import names of what moved to basic2tile-runtime: the same modules, not copies.

The runtime, the device layer and the tile simulator are the `basic2tile_runtime`
distribution, which generated programs import without the compiler.  Modules generated
by basic2tile before the move, the compiler itself and its tests import them as
`transpiler.runtime`, `transpiler.runtime.console`, `transpiler.device`,
`transpiler.tilesim._launch`...: `alias` makes each old name the very module object of its
new name, so module state (the warning hook, the dialect, the open files) is shared.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys


def alias(old: str, new: str) -> None:
    """Make module `old` (being imported) and each plain module under it the runtime's
    `new` and the modules under it (subpackages are aliased by their own old names)."""
    module = importlib.import_module(new)
    sys.modules[old] = module  # what `import old` returns: Python reads it back from here
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        if not info.ispkg:
            sys.modules[f"{old}.{info.name}"] = importlib.import_module(f"{new}.{info.name}")
