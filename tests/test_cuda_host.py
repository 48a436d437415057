"""The CUDA C++ host printer (transpiler/backends/cuda/host*.py) on programs written for
it: each is translated, compiled with g++ and the CUDA emulator (one g++ call for all,
tests/cpp/batch.py) and run; what it prints must be what the reference interpreter
prints (stdout byte for byte, warnings, rejected replies and the fatal error).  Then a
few properties of the generated text itself.
"""

from __future__ import annotations

import functools
import os
import re

import pytest

from tests.cpp.batch import build_batch, run_program
from tests.cpp.compare import interpret, outcome_of_run
from transpiler import driver
from transpiler.backends.cuda.host import render_host_program
from transpiler.errors import SourceFile
from transpiler.formatting.cpp import format_cpp
from transpiler.options import Options
from transpiler.run.outfiles import write_cuda_program

SEED = "77"

# name -> (BASIC source, options, stdin)
PROGRAMS = {
    # Random numbers in one expression: C++ must still draw them left to right.
    "rnd_order": (
        """\
10 PRINT RND + 2 * RND; RND - RND
20 DEF FNR(X) = X + RND
30 PRINT FNR(1) - FNR(2) * FNR(3)
40 LET A = MAX(RND, 0.5) + MIN(RND, 0.5)
50 PRINT A
60 IF RND < RND THEN PRINT "LESS" ELSE PRINT "MORE"
70 RANDOMIZE
80 PRINT RND
90 END
""",
        Options(),
        "",
    ),
    # `%` variables: int32 storage, rounding on store, double arithmetic, overflow.
    "int_variables": (
        """\
10 LET A% = 2.5
20 LET B% = -2.5
30 PRINT A%; B%; A% + B%; -A%; A% / B%
40 LET C% = 2147483647
50 PRINT C% + C%, -C%
60 FOR I% = 1 TO 3 STEP 0.6
70 PRINT I%;
80 NEXT I%
90 PRINT
100 DIM N%(3)
110 LET N%(1) = 7.7
120 PRINT N%(1) * 2; N%(1) + N%(1)
130 LET D% = 1E10
140 PRINT "NOT HERE"
""",
        Options(),
        "",
    ),
    # Strings: concatenation (extended), comparisons, literals C++ must escape.
    "strings": (
        """\
10 A$ = "AB" + "CD"
20 B$ = A$ + "!"
30 IF "X" = "X" THEN PRINT "EQ"
40 IF A$ < B$ THEN PRINT A$; B$
50 PRINT "??="; "\\"; "É€"; "TAB"; TAB(20); "X"
60 C$ = "A" + "B" + "C"
70 PRINT C$, LEN$
80 END
""",
        Options(),
        "",
    ),
    # WHILE, block IF / ELSEIF, ON GOSUB, a recursive GOSUB (return stack), STOP in a
    # subroutine.
    "control": (
        """\
10 LET I = 0
20 WHILE I < 3
30 LET I = I + 1
40 IF I = 1 THEN
50 PRINT "ONE"
60 ELSEIF I = 2 THEN
70 PRINT "TWO"
80 ELSE
90 PRINT "MANY"
100 END IF
110 WEND
120 FOR K = 1 TO 3
130 ON K GOSUB 500, 600, 700
140 NEXT K
150 LET N = 5
160 GOSUB 800
170 PRINT "FACT"; F
180 GOSUB 900
190 PRINT "NOT REACHED"
200 END
500 PRINT "A"; : RETURN
600 PRINT "B"; : RETURN
700 PRINT "C" : RETURN
800 IF N <= 1 THEN LET F = 1 : RETURN
810 LET N = N - 1
820 GOSUB 800
830 LET N = N + 1
840 LET F = F * N
850 RETURN
900 PRINT "STOPPING"
910 STOP
920 RETURN
""",
        Options(),
        "",
    ),
    # An ELSEIF whose condition fails: the error names its line.
    "elseif_error": (
        """\
10 LET X = -1
20 IF X > 0 THEN
30 PRINT "POSITIVE"
40 ELSEIF SQR(X) > 1 THEN
50 PRINT "BIG"
60 END IF
""",
        Options(),
        "",
    ),
    # --precision f32: values are rounded to float when stored, arithmetic is double.
    "precision_f32": (
        """\
10 LET A = 1 / 3
20 PRINT A; A * 3; 16777217; A + A + A
30 DIM X(3)
40 LET X(1) = 0.1
50 LET X(2) = X(1) + X(1) + X(1)
60 PRINT X(1); X(2); X(1) * 3 = X(2)
70 FOR T = 0.1 TO 0.35 STEP 0.1
80 PRINT T;
90 NEXT T
100 PRINT
110 LET B = 1E39
120 PRINT B
130 END
""",
        Options(precision="f32"),
        "",
    ),
    # DIM with bounds computed at run time, OPTION BASE 1, rounded subscripts.
    "arrays": (
        """\
10 OPTION BASE 1
20 LET N = 4
30 DIM A(N, N + 1), B$(3)
40 FOR I = 1 TO N
50 FOR J = 1 TO N + 1
60 LET A(I, J) = I * 10 + J
70 NEXT J
80 NEXT I
90 LET B$(2) = "HI"
100 PRINT A(2, 3); A(N, N + 1); B$(2); B$(1); "|"
110 LET K = 2.5
120 PRINT A(K, K)
130 PRINT A(0, 1)
""",
        Options(),
        "",
    ),
    # INPUT with a prompt and a rejected reply; READ, RESTORE, and READ of a string.
    "input_and_data": (
        """\
10 INPUT "HOW MANY"; N
20 INPUT A$, B
30 PRINT N; A$; B
40 READ X, Y$, Z
50 PRINT X; Y$; Z
60 RESTORE
70 READ W
80 PRINT W
90 DATA 1.5, "HELLO, WORLD", -3E2
100 READ Q
""",
        Options(),
        "7\nabc\nabc, 2\n",
    ),
    # ECMA-55's warnings, and a fatal error.
    "warnings": (
        """\
10 PRINT 1 / 0; -1 / 0; 0 / 0
20 PRINT 0 ^ -1; EXP(1000); 10 ^ 400
30 PRINT TAB(0); "X"; TAB(-3); "Y"
40 PRINT 5 MOD 0; 7 MOD 3; -7 MOD 3; MAX(1, 2); MIN(1, 2)
50 PRINT 1E300 * 1E300
60 LET X = LOG(0)
""",
        Options(),
        "",
    ),
    # No line numbers: the error message has no line either.
    "unnumbered": (
        """\
PRINT "NO LINE NUMBERS"
X = 3
PRINT SQR(X - 4)
""",
        Options(),
        "",
    ),
    # GOTO out of nested loops (a dispatch loop with lowered FOR/NEXT), a loop with a
    # computed step, ON GOTO, a subroutine with two RETURNs.
    "dispatch": (
        """\
10 FOR I = 1 TO 5
20 FOR J = 1 TO 5
30 IF I * J = 6 THEN 80
40 NEXT J
50 NEXT I
60 PRINT "NONE"
70 GOTO 100
80 PRINT "FOUND"; I; J
90 GOTO 100
100 LET S = 2
110 FOR K = 10 TO 1 STEP -S
120 PRINT K;
130 IF K < 5 THEN 150
140 NEXT K
150 PRINT
160 ON 2 GOTO 170, 180
170 PRINT "WRONG"
180 PRINT "RIGHT"
190 GOSUB 300
200 PRINT "BACK"
210 END
300 IF S = 2 THEN 320
310 RETURN
320 PRINT "SUB"
330 RETURN
""",
        Options(),
        "",
    ),
    # MAT statements: READ, PRINT (zoned and packed), products, TRN, INV, IDN, INPUT,
    # new dimensions, and a singular matrix.
    "mat": (
        """\
10 OPTION BASE 1
20 DIM A(2, 3), B(3, 2), C(3, 3), V(3), W(3), S$(2)
30 MAT READ A, B
40 MAT PRINT A; B
50 MAT C = A * B
60 MAT PRINT C,
70 MAT C = TRN(A)
80 MAT PRINT C
90 MAT C = IDN(2, 2)
100 MAT V = CON
110 MAT W = (2.5) * V
120 MAT PRINT V, W;
130 MAT V = V + W
140 MAT V = V - W
150 MAT PRINT V
160 MAT W = A * V
170 MAT PRINT W
180 MAT C = ZER(2, 2)
190 LET C(1, 1) = 4
200 LET C(2, 2) = 2
210 LET C(1, 2) = 1
220 MAT B = INV(C)
230 MAT PRINT B
240 MAT INPUT S$
250 MAT PRINT S$;
260 MAT INPUT V(2)
270 MAT PRINT V
280 MAT C = ZER(2, 2)
290 MAT B = INV(C)
300 DATA 1, 2, 3, 4, 5, 6
310 DATA 7, 8, 9, 10, 11, 12
""",
        Options(),
        "AB, CD\n1, 2\n",
    ),
    # MAT errors: the interpreter's messages.
    "mat_shape": (
        "10 DIM A(2, 3), B(3, 2)\n20 MAT A = A + B\n",
        Options(),
        "",
    ),
    "mat_too_large": (
        "10 DIM A(2, 2)\n20 MAT READ A(3, 3)\n30 DATA 1\n",
        Options(),
        "",
    ),
    "mat_not_square": (
        "10 DIM A(2, 3), B(3, 3)\n20 MAT B = INV(A)\n",
        Options(),
        "",
    ),
    # NUL inside strings: DATA items, an INPUT prompt and a constant keep every byte.
    "nul_strings": (
        '10 DATA "A\0B", "C\0", D\0E\n20 READ A$, B$, C$\n30 PRINT A$; "|"; B$; "|"; C$\n'
        '40 INPUT "P\0Q"; D$\n50 PRINT D$; "|"; "X\0Y"\n60 END\n',
        Options(),
        "R\n",
    ),
    # Strict ECMA-55: strings are checked on LET (18 characters).
    "strict_strings": (
        """\
10 LET A$ = "EIGHTEEN CHARS OK!"
20 PRINT A$
30 LET B$ = A$
40 LET A$ = "NINETEEN CHARACTERS"
50 END
""",
        Options(std="ecma55"),
        "",
    ),
}


@functools.cache
def analysis_of(name: str):
    text, options, _ = PROGRAMS[name]
    return driver.front_end(SourceFile(f"{name}.bas", text), options)


@functools.cache
def generated(name: str) -> str:
    return driver.generate_host(driver.host_program(analysis_of(name), offload=False), "cuda")


@functools.cache
def executable():
    return build_batch({name: generated(name) for name in PROGRAMS})


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_the_interpreter_prints(name, monkeypatch):
    monkeypatch.setenv("BASIC2TILE_SEED", SEED)
    stdin = PROGRAMS[name][2]
    reference = interpret(analysis_of(name), stdin)
    run = run_program(executable(), name, stdin, dict(os.environ))
    assert outcome_of_run(run, analysis_of(name)) == reference


def test_each_statement_has_its_basic_comment():
    code = generated("dispatch")
    for number in (10, 20, 30, 40, 50, 60, 80, 100, 110, 120, 130, 140, 160, 300, 320):
        assert re.search(rf"^\s*// {number} ", code, re.MULTILINE), number


def test_random_operands_are_evaluated_in_order():
    code = generated("rnd_order")
    # `RND + 2 * RND`: the first RND is drawn into a temporary before the statement.
    assert re.search(
        r"const auto (\w+) = b2t::RND\(\);\n\s*con\.print\(\1 \+ b2t::mul\(2\.0, b2t::RND\(\)\)\)",
        code,
    )


def test_names_come_from_the_basic_source():
    code = generated("int_variables")
    assert "std::int32_t a_int = 0" in code and "b2t::Array<std::int32_t> n_int" in code
    assert "a_str = " in generated("strings")
    assert "double fn_r(double x)" in generated("rnd_order")


def test_program_without_kernels_calls_no_cuda_api():
    for name in PROGRAMS:
        code = generated(name)
        assert not re.search(r"\bcuda\w*\(|B2T_CHECK|B2T_LAUNCH", code), name
        assert code.index('#include "b2t_cuda.h"') < code.index("#ifndef __CUDACC_RTC__")
        assert code.index("#ifndef __CUDACC_RTC__") < code.index('#include "b2t_runtime.h"')


def test_kernels_code_goes_after_the_cuda_header():
    host = driver.host_program(analysis_of("strings"), offload=False)
    kernel = 'extern "C" __global__ void k(float* a) {\n  a[threadIdx.x] = 0.0f;\n}'
    code = format_cpp(render_host_program(host, kernels_code=kernel))
    assert (
        code.index('#include "b2t_cuda.h"')
        < code.index(kernel)
        < code.index("#ifndef __CUDACC_RTC__")
    )


def test_nvrtc_sees_only_the_device_part(tmp_path):
    # NVRTC compiles the whole file: the host code must be fenced off from it.
    nvrtc = pytest.importorskip("transpiler.verify.nvrtc")
    for name in ("control", "mat"):
        assert nvrtc.compile_cuda(generated(name), f"{name}.cu", arch="sm_90")


def test_written_program_has_its_headers_beside_it(tmp_path):
    files = write_cuda_program(generated("strings"), tmp_path / "strings.cu")
    assert sorted(f.name for f in files) == [
        "b2t_cuda.h",
        "b2t_cuda_emu.h",
        "b2t_runtime.h",
        "strings.cu",
    ]
    assert (tmp_path / "strings.cu").read_text() == generated("strings")


def test_generated_code_is_clang_format_clean():
    for name in PROGRAMS:
        assert format_cpp(generated(name)) == generated(name)
