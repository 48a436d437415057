"""Deep programs: long and deeply nested expressions, deeply nested blocks.

Every engine (interpreter, cuTile Python on the tile simulator, CUDA C++ on g++) runs
what the front end accepts, and agrees; what it refuses is a located error, never an
internal one (passes/check/expression_depth.py, MAX_BLOCK_DEPTH in model.py)."""

from __future__ import annotations

import io
import sys

import pytest

from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.interpreter import run_program
from transpiler.ir.model import MAX_BLOCK_DEPTH
from transpiler.options import Options
from transpiler.passes.check.expression_depth import MAX_DEPTH, MAX_NESTING

N = MAX_NESTING


@pytest.fixture(autouse=True)
def _empty_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # what --check feeds both programs


def _nested(kind: str, levels: int) -> str:
    """An expression with `levels` levels of `kind` (value 1 or close to it)."""
    if kind == "*":
        return "*".join(["A"] * (levels + 1))
    if kind == "/":
        return "/".join(["A"] * (levels + 1))
    if kind == "^":
        return "^".join(["A"] * (levels + 1))
    if kind == "MOD":
        return " MOD ".join(["A"] * levels) + " MOD 7"
    if kind == "-":
        return "-" * levels + "A"
    if kind == "NOT":
        return "NOT " * levels + "A"
    if kind == "(+)":  # sums nested to the right print with brackets
        return "A+(" * (levels - 1) + "A+A" + ")" * (levels - 1)
    if kind in ("SIN", "ABS", "INT", "FNF", "MAX", "A"):
        inner = "1"
        for _ in range(levels):
            inner = f"{kind}({inner}, 1)" if kind == "MAX" else f"{kind}({inner})"
        return inner
    if kind == "AND":
        return "(A=A) AND (" * (levels - 1) + "(A=A)" + ")" * (levels - 1)
    raise ValueError(kind)


# (Extended BASIC, chosen: `NOT NOT A` would pin Microsoft BASIC, where MAX is no function.)
KINDS = ["*", "/", "^", "MOD", "-", "NOT", "(+)", "SIN", "ABS", "INT", "FNF", "MAX", "A", "AND"]
HEADER = "10 DEF FNF(X) = X\n20 LET A = 1\n30 DIM A(10)\n40 FOR K = 0 TO 10\n50 LET A(K) = 1\n60 NEXT K\n"


def _program(expressions: list[str], kernel_loop: str | None = None) -> str:
    lines = [HEADER]
    for n, expr in enumerate(expressions):
        lines.append(f"{100 + 10 * n} PRINT {expr}\n")
    if kernel_loop is not None:  # an offloadable loop: the expression is kernel code
        lines.append(
            "900 DIM X(300), Y(300)\n910 FOR I = 1 TO 300\n920 LET X(I) = I / 300\n930 NEXT I\n"
            f"940 FOR I = 1 TO 300\n950 LET Y(I) = {kernel_loop}\n960 NEXT I\n"
            "970 LET S = 0\n980 FOR I = 1 TO 300\n990 LET S = S + Y(I)\n995 NEXT I\n"
            "997 PRINT S\n"
        )
    lines.append("999 END\n")
    return "".join(lines)


def _errors(text: str) -> list[str]:
    with pytest.raises(CompileErrors) as info:
        driver.front_end(SourceFile("deep.bas", text), Options(std="extended"))
    return [str(e) for e in info.value.errors]


def _interpret(analysis) -> str:
    out = io.StringIO()
    assert driver.interpret(analysis, stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    return out.getvalue()


# ---------------------------------------------------------------------- the limits


@pytest.mark.parametrize("kind", KINDS)
def test_one_level_past_the_nesting_limit_is_a_located_error(kind):
    text = _program([_nested(kind, N + 1)])
    [message] = _errors(text)
    assert message.startswith("deep.bas:7:11: error: expression nested too deeply: ")
    assert f"(at most {N}); compute parts of it with LET first" in message


def test_a_flat_sum_may_be_long_but_not_endless():
    assert driver.front_end(
        SourceFile("deep.bas", _program(["+".join(["A"] * (MAX_DEPTH + 1))])),
        Options(std="extended"),
    )
    [message] = _errors(_program(["+".join(["A"] * (MAX_DEPTH + 2))]))
    assert message == (
        f"deep.bas:7:11: error: expression too long: {MAX_DEPTH + 1} operations deep "
        f"(at most {MAX_DEPTH}); compute parts of it with LET first"
    )


@pytest.mark.parametrize(
    "expr",
    [
        "+".join(map(str, range(350))),  # the reported programs: a flat sum of 350 terms,
        "-" * 1000 + "1",  # 1,000 unary minus signs,
        "^".join(["1"] * 400),  # and 400 chained ^
    ],
    ids=["sum350", "minus1000", "power400"],
)
def test_the_reported_expressions_never_end_in_an_internal_error(expr):
    text = f"10 LET X = {expr}\n20 PRINT X\n30 END\n"
    try:
        analysis = driver.front_end(SourceFile("deep.bas", text), Options(std="extended"))
    except CompileErrors as errors:
        assert all("expression nested too deeply" in str(e) for e in errors.errors)
        return
    assert _interpret(analysis) == " 61075 \n"  # only the sum is accepted


# ---------------------------------------------------------------------- every engine


def _at_the_limits(precision: str = "f64"):
    """A program with every kind of expression at the nesting limit, a flat sum at the
    depth limit, and both in an offloaded loop."""
    expressions = [_nested(kind, N) for kind in KINDS]
    expressions.append("+".join(["A"] * (MAX_DEPTH + 1)))
    kernel = "+".join(["X(I)"] * 300) + " + " + _nested("*", N - 2).replace("A", "X(I)")
    text = _program(expressions, kernel_loop=kernel)
    return driver.front_end(
        SourceFile("deep.bas", text), Options(std="extended", precision=precision)
    )


@pytest.fixture(scope="module")
def at_the_limits():
    return _at_the_limits()


def test_the_interpreter_runs_expressions_at_the_limits(at_the_limits):
    lines = _interpret(at_the_limits).splitlines()
    assert len(lines) == len(KINDS) + 2
    assert lines[-2].strip() == str(MAX_DEPTH + 1)
    structured_off = io.StringIO()  # the other way the interpreter compiles a program
    run_program(at_the_limits, stdin=io.StringIO(""), stdout=structured_off, structure=False)
    assert structured_off.getvalue().splitlines() == lines


@pytest.mark.slow
@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_generated_programs_run_expressions_at_the_limits(target, precision):
    analysis = _at_the_limits(precision)
    code = driver.generate(analysis, target)
    assert "@ct.kernel" in code or "__global__" in code  # the loop at 940 is a kernel
    report = io.StringIO()
    assert driver.check(analysis, code, target, "cpu", out=report) == 0, report.getvalue()


# ---------------------------------------------------------------------- nested blocks


def _nest(kinds: list[str]) -> str:
    """Blocks nested in the order of `kinds` (FOR, WHILE, IF, IFELSE, GOTO), the
    innermost adding to S; each level runs once (an IF's ELSE never)."""
    opening, closing = [], []  # closing: one group of lines per level
    for k, kind in enumerate(kinds):
        if kind == "FOR":
            opening.append(f"FOR I{k} = 1 TO 1")
            closing.append([f"NEXT I{k}"])
        elif kind == "WHILE":
            opening += [f"LET W{k} = 0", f"WHILE W{k} < 1", f"LET W{k} = W{k} + 1"]
            closing.append(["WEND"])
        elif kind in ("IF", "IFELSE"):
            opening.append(f"IF S >= {-k} THEN")
            closing.append((["ELSE", "PRINT -1"] if kind == "IFELSE" else []) + ["END IF"])
        else:  # a loop made of a backward GOTO
            opening += [f"LET G{k} = 0", f"REM G{k}"]
            closing.append([f"LET G{k} = G{k} + 1", f"IF G{k} < 1 THEN @G{k}@"])
    tail = [line for group in reversed(closing) for line in group]
    body = opening + ["LET S = S + 1"] + tail + ["PRINT S; I0", "END"]
    numbered = [f"{10 * (n + 1)} {line}" for n, line in enumerate(body)]
    for k in (k for k, kind in enumerate(kinds) if kind == "GOTO"):  # targets are line numbers
        target = next(line.split()[0] for line in numbered if line.endswith(f"REM G{k}"))
        numbered = [line.replace(f"@G{k}@", target) for line in numbered]
    return "\n".join(numbered) + "\n"


NESTS = {
    "for": ["FOR"] * 25,
    "while": ["WHILE"] * 25,
    "if": ["IF"] * 30,
    "ifelse": ["IFELSE"] * 30,
    "mixed": ["FOR", "WHILE", "IF", "IFELSE"] * 8,
    "goto": ["FOR"] + ["GOTO"] * 24,
}


@pytest.mark.parametrize("name", NESTS)
def test_the_interpreter_runs_any_nesting(name):
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options(std="extended"))
    assert _interpret(analysis).split()[0] == "1"


@pytest.mark.parametrize("name", NESTS)
def test_generated_python_compiles_for_any_nesting(name):
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options(std="extended"))
    code = driver.generate(analysis, "cutile")
    compile(code, "nest.py", "exec")  # CPython: 20 nested loops, 100 indentation levels
    levels = max(len(line) - len(line.lstrip(" ")) for line in code.splitlines()) // 4
    assert levels <= MAX_BLOCK_DEPTH + 5  # def program, a dispatch loop's while/match/case


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", ["for", "mixed", "goto"])
def test_generated_programs_run_any_nesting(name, target):
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options(std="extended"))
    report = io.StringIO()
    code = driver.generate(analysis, target)
    assert driver.check(analysis, code, target, "cpu", out=report) == 0, report.getvalue()


def test_a_nest_within_the_limit_keeps_every_level_structured():
    analysis = driver.front_end(
        SourceFile("nest.bas", _nest(["FOR"] * MAX_BLOCK_DEPTH)), Options(std="extended")
    )
    code = driver.generate(analysis, "cutile", offload=False)
    assert "match label" not in code and code.count("for i") == MAX_BLOCK_DEPTH - 1
    assert code.count("while i0 <= 1.0:") == 1  # I0 is printed after its loop
