"""Python's cyclic garbage collector, paused while a compiling step runs.

What the steps build (token streams, trees, analyses, IR, generated text, the code object
of the interpreter's program) stays alive until the step ends, so collections would only
re-scan an ever larger heap: for a 10,000-line program they cost about a third of the
time of structuring, offloading and printing, and made the interpreter's compilation of
a 40,000-line program four times slower.  Whatever garbage a step leaves is collected as
usual once the collector runs again.  Programs run (interpreted or generated) with the
collector on.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collector_paused():
    """A context (or, called, a decorator) with the collector off, as it was after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
