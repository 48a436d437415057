"""Mutation fuzzing of the NBS corpus: real programs, damaged at random, must only ever
produce located diagnostics.

Each mutant (characters, tokens or lines deleted, duplicated or swapped; keywords,
punctuation, huge numbers or odd characters inserted) goes through the CLI three ways:
`--interpret --max-steps 100000` with empty stdin, `-o out.py` and `-o out.cu`.  For each:
no Python traceback, exit status 0 or 1 (2 is basic2tile's "internal error", a bug), a
failure names the file and a line (`prog.bas:12:7: error: ...`), and no hang.

The bulk runs `cli.main` in-process (a subprocess per call would cost 0.3 s of start-up)
under an interval timer; a few mutants also run as real subprocesses with a timeout.
Mutations are seeded by (program, index), so every failure reproduces.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import cli

CHUNKS = 8  # parametrized slices, so pytest-xdist spreads the work
MUTANTS_PER_CHUNK = 50
SUBPROCESS_MUTANTS = 6
SECONDS_PER_CALL = 20

KEYWORDS = (
    "PRINT", "LET", "GOTO", "GOSUB", "RETURN", "IF", "THEN", "ELSE", "FOR", "TO", "STEP",
    "NEXT", "DIM", "DEF", "FN", "FNA", "READ", "DATA", "RESTORE", "INPUT", "END", "STOP",
    "ON", "REM", "RANDOMIZE", "OPTION", "BASE", "WHILE", "WEND", "MAT", "TAB", "SQR",
    "INT", "RND", "LEN", "MID$", "CHR$", "KERNEL", "TILE", "OUTPUT", "AND", "OR", "NOT",
)  # fmt: skip
PUNCTUATION = tuple("()[],;:\"'=<>+-*/^$%#&.!?@\\{}_")
HUGE_NUMBERS = (
    "1E999", "-1E999", "1E-999", "99999999999999999999999999", "4294967297", "65536",
    "2147483648", "0", "-0", ".", "1E", "1E+", "0.0000000000000000000001", "1.7976931348623157E308",
)  # fmt: skip
ODD_CHARACTERS = (
    "\t", "\x00", "\x01", "\x07", "\x1b", "\x7f", "\r", "\x0c", "\x0b", "\u00e9", "\u6f22",
    "\U0001f600", "\ufeff", "\u00a0", "\u2028", "\u0301",
)  # fmt: skip
INVALID_UTF8 = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xfe")

LOCATED = r"{name}:\d+(?::\d+)?: (?:error|warning|internal error): |{name}: error: line \d+"
TRACEBACK = "Traceback (most recent call last)"


class Hang(BaseException):
    """A call ran past SECONDS_PER_CALL (BaseException: the CLI catches every Exception)."""


# ---------------------------------------------------------------------- mutations

_TOKEN = re.compile(r"[A-Za-z]+\$?|\d+(?:\.\d*)?(?:E[+-]?\d+)?|\"[^\"\n]*\"?|\s+|.", re.DOTALL)


def _splice(items: list, rng: random.Random, what: str) -> list:
    """Delete, duplicate or swap one element of `items`."""
    if len(items) < 2:
        return items
    i = rng.randrange(len(items) - 1)
    if what == "delete":
        return items[:i] + items[i + 1 :]
    if what == "duplicate":
        return items[: i + 1] + items[i:]
    return items[:i] + [items[i + 1], items[i]] + items[i + 2 :]


def _insert(text: str, rng: random.Random, piece: str) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + piece + text[at:]


def _replace_token(text: str, rng: random.Random, pattern: str, pool: tuple[str, ...]) -> str:
    """Replace one token matching `pattern` by a choice from `pool` (or another such token)."""
    tokens = _TOKEN.findall(text)
    spots = [i for i, t in enumerate(tokens) if re.fullmatch(pattern, t)]
    if not spots:
        return text
    tokens[rng.choice(spots)] = rng.choice(pool or tuple(tokens[i] for i in spots))
    return "".join(tokens)


def _swap_line_bodies(text: str, rng: random.Random) -> str:
    """Swap the statements of two lines but keep the line numbers in order, so the
    mutant more often parses and reaches the passes and the backends."""
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text
    i, j = rng.sample(range(len(lines)), 2)
    (ni, _, bi), (nj, _, bj) = (lines[i].partition(" "), lines[j].partition(" "))
    lines[i], lines[j] = f"{ni} {bj}", f"{nj} {bi}"
    return "".join(lines)


def mutate_once(text: str, rng: random.Random) -> str:
    kinds = ("char", "token", "line", "keyword", "punct", "number", "odd") + ("deep",) * 4
    kind = rng.choice(kinds)
    if kind == "deep":  # mutations that keep the program well-formed more often
        what = rng.randrange(3)
        if what == 0:
            return _replace_token(text, rng, r"\d+(?:\.\d*)?(?:E[+-]?\d+)?", HUGE_NUMBERS[:9])
        if what == 1:
            return _replace_token(text, rng, r"[A-Z]\d?\$?", ())
        return _swap_line_bodies(text, rng)
    if kind in ("char", "token", "line"):
        what = rng.choice(("delete", "duplicate", "swap"))
        if kind == "char":
            return "".join(_splice(list(text), rng, what))
        if kind == "token":
            return "".join(_splice(_TOKEN.findall(text), rng, what))
        return "".join(_splice(text.splitlines(keepends=True), rng, what))
    pool = {"keyword": KEYWORDS, "punct": PUNCTUATION, "number": HUGE_NUMBERS}.get(kind)
    piece = rng.choice(pool or ODD_CHARACTERS)
    if kind == "keyword":
        piece = rng.choice(("", " ")) + piece + rng.choice(("", " "))
    return _insert(text, rng, piece)


def mutant(text: str, seed: str) -> bytes:
    """`text` damaged by 1 to 4 mutations; sometimes with an invalid UTF-8 byte."""
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 4)):
        text = mutate_once(text, rng)
    data = text.encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.1:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice(INVALID_UTF8) + data[at:]
    return data


def corpus_programs(nbs_dir: Path) -> list[Path]:
    return sorted(nbs_dir.glob("P*.BAS"))


def mutants_of_chunk(nbs_dir: Path, chunk: int, count: int) -> list[tuple[str, bytes]]:
    """`count` (name, bytes) mutants, spread over the corpus, chosen by `chunk`."""
    programs = corpus_programs(nbs_dir)
    picker = random.Random(f"chunk{chunk}")
    out = []
    for i in range(count):
        path = picker.choice(programs)
        seed = f"{path.stem}-{chunk}-{i}"
        out.append((seed, mutant(path.read_text(encoding="utf-8", errors="replace"), seed)))
    return out


# ---------------------------------------------------------------------- running the CLI


def _on_alarm(signum, frame):
    raise Hang()


def run_cli_in_process(argv: list[str]) -> tuple[int, str]:
    """`basic2tile argv` in this process with empty stdin; (exit status, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    stdin, sys.stdin = sys.stdin, io.StringIO("")
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_CALL)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    except Hang:
        status = "hang"
    except SystemExit as exc:  # argparse
        status = exc.code
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = stdin
    return status, err.getvalue()


def invocations(path: Path) -> list[list[str]]:
    return [
        [str(path), "--interpret", "--max-steps", "100000"],
        [str(path), "-o", str(path.with_suffix(".py"))],
        [str(path), "-o", str(path.with_suffix(".cu"))],
    ]


def problem(argv: list[str], status, stderr: str) -> str | None:
    """What is wrong with one CLI call's outcome, or None."""
    name = re.escape(argv[0])
    if status == "hang":
        return f"no answer after {SECONDS_PER_CALL} s"
    if TRACEBACK in stderr:
        return "printed a Python traceback"
    if status not in (0, 1):
        return f"exit status {status}"
    if status == 1 and not re.search(LOCATED.format(name=name), stderr):
        return "failed without a located diagnostic"
    return None


def report(failures: list[str]) -> str:
    return f"{len(failures)} failing call(s):\n" + "\n\n".join(failures[:10])


# ---------------------------------------------------------------------- tests


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutants_get_located_diagnostics_in_process(nbs_dir, tmp_path, chunk, monkeypatch):
    monkeypatch.delenv("BASIC2TILE_TRACEBACK", raising=False)
    failures = []
    for seed, data in mutants_of_chunk(nbs_dir, chunk, MUTANTS_PER_CHUNK):
        path = tmp_path / f"{seed}.bas"
        path.write_bytes(data)
        for argv in invocations(path):
            status, stderr = run_cli_in_process(argv)
            why = problem(argv, status, stderr)
            if why:
                failures.append(f"mutant {seed} {argv[1:]}: {why}\n{stderr[-1500:]}")
    assert not failures, report(failures)


def test_mutants_as_subprocesses(nbs_dir, tmp_path, monkeypatch):
    """The real command: a separate process, empty stdin, killed if it hangs."""
    monkeypatch.delenv("BASIC2TILE_TRACEBACK", raising=False)
    failures = []
    for seed, data in mutants_of_chunk(nbs_dir, CHUNKS, SUBPROCESS_MUTANTS):
        path = tmp_path / f"{seed}.bas"
        path.write_bytes(data)
        for argv in invocations(path):
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "transpiler", *argv],
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    errors="replace",
                    timeout=SECONDS_PER_CALL * 2,
                    check=False,
                )
                status, stderr = proc.returncode, proc.stderr
            except subprocess.TimeoutExpired:
                status, stderr = "hang", ""
            why = problem(argv, status, stderr)
            if why:
                failures.append(f"mutant {seed} {argv[1:]}: {why}\n{stderr[-1500:]}")
    assert not failures, report(failures)


# The checks themselves must be able to fail.


def test_problem_flags_tracebacks_internal_errors_unlocated_errors_and_hangs():
    argv = ["/t/p.bas", "--interpret"]
    assert problem(argv, 0, "") is None
    assert problem(argv, 1, "/t/p.bas:3:4: error: expected expression\n") is None
    assert problem(argv, 1, f"{TRACEBACK}\n  File ...") is not None
    assert problem(argv, 2, "/t/p.bas:3:4: internal error: KeyError\n") is not None
    assert problem(argv, 1, "error: something went wrong\n") is not None
    assert problem(argv, "hang", "") is not None


def test_in_process_runner_reports_an_internal_error(tmp_path, monkeypatch):
    monkeypatch.delenv("BASIC2TILE_TRACEBACK", raising=False)

    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr("transpiler.driver.front_end", broken)
    path = tmp_path / "p.bas"
    path.write_text("10 END\n")
    status, stderr = run_cli_in_process([str(path), "--interpret"])
    assert status == 2 and problem([str(path)], status, stderr)


def test_mutations_are_deterministic_and_change_the_program():
    text = '10 PRINT "HELLO"\n20 LET A = 1 + 2\n30 END\n'
    assert mutant(text, "s1") == mutant(text, "s1")
    assert any(mutant(text, f"s{i}") != text.encode() for i in range(5))
