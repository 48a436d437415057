"""Deep programs: deeply nested blocks.

Every engine (interpreter, cuTile Python on the tile simulator, CUDA C++ on g++) runs
any nesting (MAX_BLOCK_DEPTH in model.py)."""

from __future__ import annotations

import io
import sys

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.model import MAX_BLOCK_DEPTH
from transpiler.options import Options


@pytest.fixture(autouse=True)
def _empty_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # what --check feeds both programs


def _interpret(analysis) -> str:
    out = io.StringIO()
    assert driver.interpret(analysis, stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    return out.getvalue()


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
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options())
    assert _interpret(analysis).split()[0] == "1"


@pytest.mark.parametrize("name", NESTS)
def test_generated_python_compiles_for_any_nesting(name):
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options())
    code = driver.generate(analysis, "cutile")
    compile(code, "nest.py", "exec")  # CPython: 20 nested loops, 100 indentation levels
    levels = max(len(line) - len(line.lstrip(" ")) for line in code.splitlines()) // 4
    assert levels <= MAX_BLOCK_DEPTH + 5  # def program, a dispatch loop's while/match/case


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", ["for", "mixed", "goto"])
def test_generated_programs_run_any_nesting(name, target):
    analysis = driver.front_end(SourceFile("nest.bas", _nest(NESTS[name])), Options())
    report = io.StringIO()
    code = driver.generate(analysis, target)
    assert driver.check(analysis, code, target, "cpu", out=report) == 0, report.getvalue()


def test_a_nest_within_the_limit_keeps_every_level_structured():
    analysis = driver.front_end(SourceFile("nest.bas", _nest(["FOR"] * MAX_BLOCK_DEPTH)), Options())
    code = driver.generate(analysis, "cutile", offload=False)
    assert "match label" not in code and code.count("for i") == MAX_BLOCK_DEPTH - 1
    assert code.count("while i0 <= 1.0:") == 1  # I0 is printed after its loop
