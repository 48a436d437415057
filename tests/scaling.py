"""How the work of a step grows with the size of its input, measured without a clock.

`lines_run(fn)` counts the lines of basic2tile's own code that run while `fn()` runs
(Python's line tracing, limited to the `transpiler` and `basic2tile_runtime` packages): the same number on every
machine and under any load, so a test can assert on it.  Work done in C (a `str` join,
a formatter in its own process) is not counted: the tests that need it time the step
instead (see `cpu_seconds`).

`growth` tells linear work from worse without knowing its fixed cost: with c(N) the
count for input size N, (c(4N) - c(2N)) / (c(2N) - c(N)) is 2 for work a + bN, about
2 + 2/log2(N) for N log N, and tends to 4 as a quadratic term takes over.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import basic2tile_runtime
import transpiler

_OURS = tuple(os.path.dirname(p.__file__) + os.sep for p in (transpiler, basic2tile_runtime))

# Above this growth a step is not linear (see the module docstring).
LINEAR_GROWTH = 2.2


def lines_run(fn: Callable[[], object]) -> int:
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        if event == "call" and not frame.f_code.co_filename.startswith(_OURS):
            return None  # not our code: neither it nor its lines are counted
        count += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(previous)
    return count


def growth(measure: Callable[[int], float], size: int) -> tuple[float, list[float]]:
    """The growth of `measure` from `size` to 4 * `size`, and the three measures."""
    counts = [measure(size * k) for k in (1, 2, 4)]
    first, second = counts[1] - counts[0], counts[2] - counts[1]
    return (second / first if first > 0 else float("inf")), counts


def cpu_seconds(fn: Callable[[], object]) -> float:
    """CPU time of this process and of the processes it waited for while `fn()` ran
    (less disturbed than wall time by other work on the machine)."""
    before, own = os.times(), time.process_time()
    fn()
    own, after = time.process_time() - own, os.times()
    return (
        own
        + after.children_user
        - before.children_user
        + after.children_system
        - before.children_system
    )


# The most time_ratio may be for a cost linear in the size: 4 when linear, 16 when
# quadratic; 8 leaves room for a noisy machine (5 failed once on a linear cost).
LINEAR_TIME_RATIO = 8


def time_ratio(measure: Callable[[int], float], size: int, repeat: int = 2) -> float:
    """The best time at 4 * `size` over the best at `size`."""
    small = min(measure(size) for _ in range(repeat))
    large = min(measure(4 * size) for _ in range(repeat))
    return large / small
