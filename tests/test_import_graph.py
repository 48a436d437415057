"""The layering of the package, read from its imports (parsed with `ast`, not executed).

- The driver calls the back ends, never the reverse: no module of `backends/` imports
  `driver` or `cli`.
- Printers lay out text: no module of `backends/` imports a pass (`passes/`), nor any pass
  a printer; what the printers need is computed by passes into the IR
  (`passes/host/host_facts.py`, `passes/kernel/cuda_plan.py`).
- The formatting stage (`formatting/`) comes after the back ends: they return their text
  unformatted and the driver formats it, so the one module of `formatting/` a back end
  imports is `cpp_pieces` (the line where clang-format may cut a file); `formatting/`
  itself is text in, text out, and imports no back end, pass, driver or runner.
- Compiling generated code with NVIDIA's compilers (`verify/emit.py`, `nvrtc`,
  `cutile_aot`) is verification, not printing: no module of `backends/` imports them.
- No import cycle among the package's modules, counting imports inside functions too
  (a deferred import hides a cycle from Python, not from a reader), except among the
  private modules of one package (`tilesim/_*.py` share their tile types).  Imports for
  type checkers only (`if TYPE_CHECKING:`) do not count.
- The runtime generated programs import (`basic2tile_runtime`, runtime/) never imports the
  compiler: a generated program runs where only the runtime is installed.  The one
  exception is the self-test of kernel modules, which defers to the compiler's when it is
  installed (`basic2tile_runtime/selftest.py`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "transpiler"
RUNTIME = ROOT / "runtime" / "basic2tile_runtime"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(p, package.parent): p
        for package in (PACKAGE, RUNTIME)
        for p in package.rglob("*.py")
        if "__pycache__" not in p.parts
    }


MODULES = _modules()


def imports_of(name: str) -> set[str]:
    """The package modules `name` imports (a `from package import module` counts as the
    module; `from module import name` as the module)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in MODULES:
                    found.add(f"{target}.{alias.name}")
                elif target in MODULES:
                    found.add(target)
    found.discard(name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}
BACKENDS = sorted(n for n in MODULES if n.startswith("transpiler.backends"))


@pytest.mark.parametrize("module", BACKENDS)
def test_backends_do_not_import_the_driver(module):
    assert not {m for m in GRAPH[module] if m in ("transpiler.driver", "transpiler.cli")}


@pytest.mark.parametrize("module", BACKENDS)
def test_printers_do_not_call_passes(module):
    assert not {m for m in GRAPH[module] if m.startswith("transpiler.passes")}


@pytest.mark.parametrize("module", sorted(n for n in MODULES if n.startswith("transpiler.passes")))
def test_passes_do_not_import_the_printers(module):
    """Passes decide and printers lay out: what a printer needs from a pass is data in the
    IR (`ir/cuda_plan.py`, `hostir.ForPlan`), never a call into `backends/`."""
    assert not {m for m in GRAPH[module] if m.startswith("transpiler.backends")}


@pytest.mark.parametrize(
    "module",
    sorted(n for n in MODULES if n.startswith(("transpiler.backends", "transpiler.passes"))),
)
def test_back_ends_and_passes_do_not_import_the_interpreter(module):
    """What they must agree on with the interpreter is in `transpiler/language/semantics.py`."""
    assert not {m for m in GRAPH[module] if m.startswith("transpiler.interpreter")}


FORMATTING = sorted(n for n in MODULES if n.startswith("transpiler.formatting"))
# What the back ends may take from the formatting stage: the markers they print.
FORMATTING_MARKERS = {"transpiler.formatting", "transpiler.formatting.cpp_pieces"}
NVIDIA_COMPILERS = {f"transpiler.verify.{name}" for name in ("emit", "nvrtc", "cutile_aot")}


@pytest.mark.parametrize("module", BACKENDS)
def test_backends_leave_formatting_to_the_driver(module):
    formatting = {m for m in GRAPH[module] if m.startswith("transpiler.formatting")}
    assert formatting <= FORMATTING_MARKERS


@pytest.mark.parametrize("module", BACKENDS)
def test_backends_do_not_run_nvidia_compilers(module):
    assert not GRAPH[module] & NVIDIA_COMPILERS


@pytest.mark.parametrize("module", FORMATTING)
def test_the_formatting_stage_imports_only_itself_and_errors(module):
    outside = {m for m in GRAPH[module] if not m.startswith("transpiler.formatting")}
    assert outside <= {"transpiler.errors"}


def test_the_formatting_stage_is_found_by_this_test():
    assert {"transpiler.formatting.python", "transpiler.formatting.cpp"} <= set(FORMATTING)
    assert "transpiler.formatting.cpp_pieces" in GRAPH["transpiler.backends.cuda.host"]


@pytest.mark.parametrize(
    "module", sorted(n for n in MODULES if n.startswith("transpiler.hostcode"))
)
def test_hostcode_imports_no_printer(module):
    """hostcode/ decides host code once for both targets (the module's plan, the
    procedures, the launches); backends/ only print it, never the reverse."""
    assert not {m for m in GRAPH[module] if m.startswith("transpiler.backends")}


RUNTIME_MODULES = sorted(n for n in MODULES if n.startswith("basic2tile_runtime"))
# The runtime module that may import the compiler, and what it may import.
DEFERS_TO_THE_COMPILER = {"basic2tile_runtime.selftest": {"transpiler.run.selftest"}}


@pytest.mark.parametrize("module", RUNTIME_MODULES)
def test_the_runtime_does_not_import_the_compiler(module):
    compiler = {m for m in GRAPH[module] if m.split(".")[0] == "transpiler"}
    assert compiler == DEFERS_TO_THE_COMPILER.get(module, set())


def test_the_runtime_is_found_by_this_test():
    assert {"basic2tile_runtime", "basic2tile_runtime.device", "basic2tile_runtime.tilesim"} <= set(
        RUNTIME_MODULES
    )
    assert GRAPH["basic2tile_runtime.device"] >= {"basic2tile_runtime.command"}


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def _private_to_one_package(component: list[str]) -> bool:
    packages = {m.rsplit(".", 1)[0] for m in component}
    return len(packages) == 1 and all(m.rsplit(".", 1)[1].startswith("_") for m in component)


def test_no_import_cycles():
    assert [c for c in _cycles() if not _private_to_one_package(c)] == []


def test_the_cycle_finder_finds_a_cycle():
    saved = dict(GRAPH)
    try:
        GRAPH["transpiler.errors"] = GRAPH["transpiler.errors"] | {"transpiler.driver"}
        assert any("transpiler.errors" in c and "transpiler.driver" in c for c in _cycles())
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


LATER_STAGES = (
    "passes", "hostcode", "backends", "formatting", "verify", "interpreter", "run", "reports",
    "driver", "cli",
)  # fmt: skip


@pytest.mark.parametrize(
    "module, earlier_too",
    [(n, ()) for n in MODULES if n.startswith("transpiler.frontend")]
    + [(n, ("frontend",)) for n in MODULES if n.startswith("transpiler.ir")],
)
def test_the_front_end_and_the_ir_import_no_later_stage(module, earlier_too):
    """The folders read in pipeline order (docs/repository-layout.md): the front end and
    the program's forms (ir/) import no pass, printer, runner or report; ir/ not the front
    end either (the AST is what the front end builds, not what it reads)."""
    later = {f"transpiler.{s}" for s in LATER_STAGES + earlier_too}
    assert not {m for m in GRAPH[module] if any(m == p or m.startswith(p + ".") for p in later)}
