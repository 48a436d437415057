"""The table of built-in functions (`transpiler/language/builtins.py`) against the engines.

Forward: every entry is implemented by every engine it claims (the interpreter and the
Python and C++ host runtimes by name, offloaded loop kernels by `kernel`, cuTile BASIC
kernel programs by `kernel_program`), checked by running one program per engine that
the tests build from the table, so a new entry is tested as soon as it claims an engine.
Backward: every function name the compiler recognises anywhere is in the table, and no
module keeps a copy of it.
"""

from __future__ import annotations

import ast as pyast
import builtins
import math
import re
import shutil

import pytest
from transpiler.runtime.dialect import running_dialect

from tests.differential import interpret, run_target
from transpiler import driver, runtime
from transpiler.errors import CompileErrors, SourceFile
from transpiler.frontend.grammar import mat as mat_grammar
from transpiler.frontend.lexer import tokenize
from transpiler.frontend.parser import parse
from transpiler.ir import ast
from transpiler.language.builtins import (
    BUILTINS,
    DIALECT_NAMES,
    EXTENDED_DIALECTS,
    FUNCTION_NAMES,
    QUICKBASIC_ONLY,
    microsoft_only,
)
from transpiler.language.keywords import KEYWORDS, STATEMENT_FUNCTIONS
from transpiler.options import Options
from transpiler.run import kernel_interpreter
from transpiler.run.compare import compare_outputs

from .conftest import ROOT

CALLS = [b for b in BUILTINS.values() if b.syntax == "call"]
HOST = [b for b in CALLS if b.implemented and b.dialects & EXTENDED_DIALECTS]
# The host functions of the programs below: those of files (EOF, LOF) need an open file,
# tests/test_files.py runs them in every engine.
PURE_HOST = [b for b in HOST if b.effect != "io"]
# A program calling one of these runs as Microsoft BASIC (it pins --dialect ms).
MICROSOFT_HOST = [b for b in PURE_HOST if microsoft_only(b)]
# ... and one of these as QuickBASIC (CLNG: it pins --dialect qbasic).
QUICKBASIC_HOST = [b for b in PURE_HOST if b.dialects == QUICKBASIC_ONLY]
KERNEL = [b for b in BUILTINS.values() if b.kernel]
KERNEL_PROGRAM = [b for b in BUILTINS.values() if b.kernel_program]
# Generated CUDA runs on the CPU through g++ and the emulation header.
TARGETS = [
    "cutile",
    pytest.param(
        "cuda", marks=pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
    ),
]
# Sample arguments by type: inside every numeric function's domain.
# ("any": a number or a string, as STRING$'s second argument; a string is sampled.  The
# first string has the 8 characters CVD reads.)
SAMPLE = {"num": ["0.5", "2", "3"], "int": ["2", "3", "4"], "str": ['"ABCDEFGH"', '"B"', '"C"']}
SAMPLE["any"] = SAMPLE["str"]


def front_end(text: str, name: str):
    return driver.front_end(SourceFile(f"{name}.bas", text), Options())


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize("b", BUILTINS.values(), ids=lambda b: b.name)
def test_entries_are_consistent(b):
    assert b.dialects and b.dialects <= DIALECT_NAMES.keys()
    if not b.implemented and b.syntax == "call":
        # A reserved name only: no engine may claim it.
        assert b.python is b.cpp is b.tile_op is b.kernel_program is None
        assert not b.kernel
    if b.kernel or b.kernel_program == "elementwise":
        assert b.tile_op is not None
    if b in HOST:
        # Every legacy function runs in host code of both targets.
        assert b.python is not None and b.cpp is not None
    assert len({len(form) for form in b.forms}) == len(b.forms)  # one form per arity
    # A domain is what makes a function fail; in a kernel, the NaN or infinity it gives
    # outside it marks the block for the host (passes/parallel/vectorize/events.py).
    assert (b.domain != "any") == (b.effect == "fails")
    if b.bounded:  # finite for every argument, infinities included
        fn = getattr(runtime, b.python)
        assert all(math.isfinite(fn(x)) for x in (-math.inf, math.inf, 0.0, 1e308))


@pytest.mark.parametrize("b", [b for b in BUILTINS.values() if b.python], ids=lambda b: b.name)
def test_python_runtime_names_exist(b):
    if b.python in vars(builtins):
        assert callable(getattr(builtins, b.python))
    else:
        assert b.python in runtime.__all__ and callable(getattr(runtime, b.python))


@pytest.mark.parametrize("b", [b for b in BUILTINS.values() if b.cpp], ids=lambda b: b.name)
def test_cpp_runtime_declares_names(b):
    header = (ROOT / "transpiler" / "cpp_runtime" / "b2t_runtime.h").read_text()
    assert re.search(rf"^\s*(inline\s+)?[\w:&<>]+\s+{re.escape(b.cpp)}\(", header, re.MULTILINE)


# --------------------------------------------------------------------------- forward


def host_program(functions) -> tuple[str, list[tuple[str, list[str]]]]:
    """PRINT every form of every function of `functions` (and TAB) on sample arguments."""
    lines, calls = [], []
    for b in functions:
        for form in b.forms:
            args = [SAMPLE[t][i] for i, t in enumerate(form)]
            call = f"{b.name}({', '.join(args)})" if args else b.name
            lines.append(f'PRINT "{b.name}"; {call}')
            calls.append((b.name, args))
    lines.append('PRINT TAB(5); "TAB"')
    text = "".join(f"{10 * (n + 1)} {line}\n" for n, line in enumerate(lines))
    return text + f"{10 * (len(lines) + 1)} END\n", calls


@pytest.mark.parametrize(
    "functions, dialect, rel_tol",
    [
        ([b for b in PURE_HOST if b not in MICROSOFT_HOST + QUICKBASIC_HOST], "extended", 1e-7),
        # Microsoft BASIC prints singles: 7 digits.  TIMER reads its value from the
        # environment here, so that the engines agree.
        (MICROSOFT_HOST, "ms", 1e-6),
        (QUICKBASIC_HOST, "qbasic", 1e-6),
    ],
    ids=["extended", "ms", "qbasic"],
)
@pytest.mark.parametrize("target", TARGETS)
def test_host_engines_implement_every_function(target, functions, dialect, rel_tol, monkeypatch):
    monkeypatch.setenv("BASIC2TILE_TIMER", "3600.5")
    text, calls = host_program(functions)
    analysis = driver.front_end(SourceFile("host_builtins.bas", text), Options(std=dialect))
    reference = interpret(analysis)
    assert reference.status == 0, reference.stderr
    printed = reference.stdout.splitlines()
    assert len(printed) == len(calls) + 1
    for line, (name, args) in zip(printed, calls):
        label, value = re.fullmatch(r"([A-Z]+\$?)(.*)", line).groups()
        assert label == name
        b = BUILTINS[name]
        function = getattr(builtins, b.python, None) or getattr(runtime, b.python)
        values = [a.strip('"') if a.startswith('"') else float(a) for a in args]
        if b.effect == "random":
            assert 0.0 <= float(value) < 1.0
        elif b.effect == "input":  # INKEY$ with nothing to read
            assert value == ""
        elif b.result == "str":
            assert value == function(*values)
        else:
            with running_dialect(analysis.runtime_dialect() or dialect):  # (CLNG's .5)
                want = function(*values)
            assert math.isclose(float(value), want, rel_tol=rel_tol), (name, value, want)
    assert printed[-1] == "    TAB"
    generated = run_target(analysis, target)
    assert (generated.status, generated.stdout) == (0, reference.stdout)


def kernel_loop_program() -> tuple[str, dict[int, str]]:
    """One FOR loop per kernel function, Y<k>(I) = F(X(I)), then PRINT the results."""
    dims = ", ".join(f"Y{k}(16)" for k in range(len(KERNEL)))
    lines = [f"DIM X(16), {dims}", "FOR I = 1 TO 16", "LET X(I) = I / 16", "NEXT I"]
    loops = {}
    for k, b in enumerate(KERNEL):
        args = ", ".join(["X(I)", "0.5"][: len(b.forms[0])])
        loops[10 * (len(lines) + 1)] = b.name
        lines += ["FOR I = 1 TO 16", f"LET Y{k}(I) = {b.name}({args})", "NEXT I"]
    lines += [f'PRINT "{b.name}"; Y{k}(1); Y{k}(7); Y{k}(16)' for k, b in enumerate(KERNEL)]
    text = "".join(f"{10 * (n + 1)} {line}\n" for n, line in enumerate(lines))
    return text + f"{10 * (len(lines) + 1)} END\n", loops


@pytest.mark.parametrize("target", TARGETS)
def test_offloaded_loops_evaluate_every_kernel_function(target):
    # cuTile kernels (on the tile simulator) and CUDA kernels (g++ and the emulator).
    text, loops = kernel_loop_program()
    analysis = front_end(text, "kernel_builtins")
    decisions = {d.label: d for d in driver.host_program(analysis).decisions}
    for label, name in loops.items():
        assert decisions[label].offloaded, (name, decisions[label].reason)
    reference = interpret(analysis)
    assert reference.status == 0, reference.stderr
    assert len(reference.stdout.splitlines()) == len(KERNEL)
    generated = run_target(analysis, target)
    assert generated.status == 0, generated.stderr
    assert not compare_outputs(reference.stdout, generated.stdout, "f64")


def kernel_program() -> str:
    """A 2-D cuTile BASIC kernel with one OUTPUT array per kernel-program function."""
    outputs = [f"C{k}" for k in range(len(KERNEL_PROGRAM))]
    lines = [
        "INPUT N, A(), B()",
        f"DIM A(N, N), B(N, N), {', '.join(f'{c}(N, N)' for c in outputs)}",
        f"TILE A(16, 16), B(16, 16), ACC(16, 16), {', '.join(f'{c}(16, 16)' for c in outputs)}",
        "LET T = A(BID(0), BID(1))",
        "LET U = ABS(T) * 0.5 + 0.25",
    ]
    for c, b in zip(outputs, KERNEL_PROGRAM):
        form, name = b.kernel_program, b.name
        if form == "elementwise":
            value = f"{name}(U)"
        elif form == "to_int":
            value = f"{name}(T * 4)"
        elif form == "reduce":
            value = f"T - {name}(T) + {name}(T, 1)"
            if b.tile_op is not None:
                value += f" + {name}(T, 0.5)"
        elif form == "mma":
            lines += ["LET ACC = 0.0", f"LET ACC = {name}(A(BID(0), 0), B(0, BID(1)), ACC)"]
            value = "ACC"
        else:
            assert form == "block_index"
            value = f"T + {name}(0) + {name}(1) * 2"
        lines.append(f"LET {c}(BID(0), BID(1)) = {value}")
    lines.append(f"OUTPUT {', '.join(outputs)}")
    return "".join(f"{10 * (n + 1)} {line}\n" for n, line in enumerate(lines))


def test_the_kernel_interpreter_implements_exactly_the_table_entries():
    def named(form: str) -> set[str]:
        return {b.name for b in KERNEL_PROGRAM if b.kernel_program == form}

    assert kernel_interpreter.ELEMENTWISE.keys() == named("elementwise")
    assert kernel_interpreter.REDUCTIONS.keys() == named("reduce")
    assert kernel_interpreter.PAIRWISE.keys() == {
        b.name for b in KERNEL_PROGRAM if b.kernel_program == "reduce" and b.tile_op
    }


@pytest.mark.parametrize("target", TARGETS)
def test_kernel_programs_evaluate_every_kernel_program_function(target):
    # The self-test of each generated program compares it with the kernel interpreter.
    analysis = front_end(kernel_program(), "program_builtins")
    assert analysis.kind == "kernel"
    code = driver.generate(analysis, target)
    result = driver.run(analysis, code, target, "cpu")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "verification: PASSED" in result.stdout
    assert result.stdout.count("\nok C") == len(KERNEL_PROGRAM)


# --------------------------------------------------------------------------- backward


def test_the_lexer_reads_the_function_names_from_the_table():
    assert FUNCTION_NAMES == {b.name for b in CALLS}
    # Statements that are functions too: the lexer reads `WORD(` away from the start of
    # a statement as the function (tests/test_unsupported_words.py).
    assert FUNCTION_NAMES & KEYWORDS == STATEMENT_FUNCTIONS
    for b in BUILTINS.values():
        if b.syntax == "call" and b.implemented:
            assert [t.type for t in tokenize(b.name)] == ["FUNC"]
        elif b.syntax == "keyword":
            assert [t.type for t in tokenize(b.name)] == [b.name]
        elif b.syntax == "mat":
            assert [t.type for t in tokenize(b.name)] == ["NAME"]
    assert mat_grammar._MAT_FILLS | mat_grammar._MAT_FUNCS == {
        b.name for b in BUILTINS.values() if b.syntax == "mat"
    }


@pytest.mark.parametrize("b", CALLS, ids=lambda b: b.name)
def test_a_builtin_is_never_an_implicit_array(b):
    text = f"10 LET X = {b.name}(1)\n20 END\n"
    try:
        program = parse(SourceFile("f.bas", text), Options())
    except CompileErrors as errors:
        assert not b.implemented
        assert errors.errors[0].message.startswith(f"unsupported function {b.name} ")
        return
    value = program.lines[0].statements[0].value
    assert isinstance(value, ast.Call) and not isinstance(value, ast.Index)


def _package_sources():
    packages = (ROOT / "transpiler", ROOT / "runtime" / "basic2tile_runtime")
    for path in sorted(p for package in packages for p in package.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), pyast.parse(path.read_text(encoding="utf-8"))


def test_every_name_compared_with_a_call_is_in_the_table():
    # `call.name == "MMA"`, `name in ("SUM", ...)`: the engines' special cases.
    strays = []
    for path, tree in _package_sources():
        for node in pyast.walk(tree):
            if not isinstance(node, pyast.Compare):
                continue
            left = node.left
            if not (
                (isinstance(left, pyast.Attribute) and left.attr == "name")
                or (isinstance(left, pyast.Name) and left.id == "name")
            ):
                continue
            for comparator in node.comparators:
                for const in pyast.walk(comparator):
                    if (
                        isinstance(const, pyast.Constant)
                        and isinstance(const.value, str)
                        and re.fullmatch(r"[A-Z][A-Z0-9]*\$?", const.value)
                        and const.value not in BUILTINS
                    ):
                        strays.append(f"{path}:{node.lineno}: {const.value}")
    assert not strays


# Modules that may list function names: the table itself, the reserved words, the
# runtime's exports, the kernel interpreter's implementations and the MAT grammar
# (the last two checked against the table above).
_MAY_LIST_NAMES = {
    "transpiler/language/builtins.py",
    "transpiler/language/keywords.py",
    "runtime/basic2tile_runtime/__init__.py",
    "runtime/basic2tile_runtime/_interp_extras.py",
    "transpiler/run/kernel_interpreter.py",
    "transpiler/frontend/grammar/mat.py",
}


def test_no_module_keeps_its_own_list_of_builtins():
    copies = []
    for path, tree in _package_sources():
        if path in _MAY_LIST_NAMES:
            continue
        for node in pyast.walk(tree):
            elements = node.keys if isinstance(node, pyast.Dict) else getattr(node, "elts", None)
            if not isinstance(node, (pyast.Dict, pyast.Set, pyast.List, pyast.Tuple)):
                continue
            names = [
                e.value
                for e in elements
                if isinstance(e, pyast.Constant)
                and isinstance(e.value, str)
                and e.value in BUILTINS
            ]
            if len(names) >= 2:
                copies.append(f"{path}:{node.lineno}: {names}")
    assert not copies
