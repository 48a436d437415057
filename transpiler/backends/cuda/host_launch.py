"""Kernel launches in a generated C++ host program (the hook the kernel backend completes).

Placeholder until the kernel printer exists: a program without kernels uses no CUDA call
at all, and one with kernels is refused with a located error.
"""

from __future__ import annotations

from ... import hostir
from ...errors import BasicUnsupportedError
from ...naming import Namer


class KernelLaunches:
    def __init__(self, host: hostir.HostProgram, expr, namer: Namer):
        self.host = host
        self.expr = expr
        self.namer = namer

    def helpers(self) -> str:
        return ""

    def members(self) -> list:
        return []

    def launch(self, node: hostir.Launch, stmts) -> list:
        raise BasicUnsupportedError(
            "kernel launches are not supported by the CUDA C++ backend yet", node.decision.coord
        )

    def to_host(self, node: hostir.ToHost) -> list:
        return []
