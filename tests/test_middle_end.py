"""The middle end's stages run in the order passes/pipeline.py writes down, and each
stage's module leaves the later stages to it: offload planning neither vectorises nor
lowers the host program itself (the pipeline calls those stages)."""

from __future__ import annotations

from tests.test_import_graph import GRAPH, imports_of
from transpiler.passes import pipeline

LATER_THAN_PLANNING = {
    "transpiler.passes.parallel.vectorize",
    "transpiler.passes.host.transfers",
    "transpiler.passes.host.host_facts",
    "transpiler.passes.kernel.cuda_plan",
    "transpiler.passes.quickbasic.procedure_functions",
    "transpiler.passes.pipeline",
}


def test_the_stages_are_written_in_order():
    names = [name for name, _, _ in pipeline.STAGES]
    assert names == ["analysis", "structuring", "offload planning", "vectorising", "host lowering"]


def test_offload_planning_does_not_run_the_later_stages():
    assert not imports_of("transpiler.passes.parallel.offload") & LATER_THAN_PLANNING


def test_vectorising_leaves_host_lowering_to_the_pipeline():
    vectorising = [m for m in GRAPH if m.startswith("transpiler.passes.parallel.vectorize")]
    assert len(vectorising) > 1  # the package and its parts
    for module in vectorising:
        assert not imports_of(module) & (LATER_THAN_PLANNING - {"transpiler.passes.parallel.vectorize"})
