"""Passes 7 and 8: variables, arrays, DIM, OPTION BASE and DEF FN."""

from __future__ import annotations

from .passes_helpers import analysis_of, errors_of

# --------------------------------------------------------------------------- variables and arrays


def test_symbols_and_their_types():
    a = analysis_of(
        '10 LET A$ = "X"\n20 LET N% = 2\n30 LET B(3) = 1\n40 DIM C(4, 5)\n50 PRINT Z\n60 END\n'
    )
    assert {n: v.type for n, v in a.variables.items()} == {"A$": "str", "N%": "int", "Z": "num"}
    assert a.variables["A$"].assigned and not a.variables["Z"].assigned
    b, c = a.arrays["B"], a.arrays["C"]
    assert (b.rank, b.upper, b.declared, b.extents) == (1, (10,), False, (11,))
    assert (c.rank, c.upper, c.declared, c.dim_stmt is a.stmts[3]) == (2, (4, 5), True, True)
    assert c.coord.line == 4 and c.coord.column == 8


def test_option_base_applies_to_every_array():
    a = analysis_of("10 OPTION BASE 1\n20 DIM A(3)\n30 B(2) = 1\n40 END\n")
    assert a.option_base == 1 and a.option_base_stmt is a.stmts[0]
    assert a.arrays["A"].extents == (3,) and a.arrays["B"].extents == (10,)


def test_option_base_twice_or_late():
    assert errors_of("10 OPTION BASE 0\n20 OPTION BASE 1\n30 END\n") == [
        (2, 4, "OPTION BASE given twice (first at line 10)")
    ]
    assert errors_of("10 DIM A(3)\n20 OPTION BASE 1\n30 END\n") == [
        (2, 4, "OPTION BASE after an array is dimensioned or used (at line 10)")
    ]
    assert errors_of("10 X = A(1)\n20 OPTION BASE 1\n30 END\n")[0][:2] == (2, 4)


def test_dim_bound_below_option_base():
    assert errors_of("10 OPTION BASE 1\n20 DIM A(0)\n30 END\n") == [
        (2, 10, "DIM bound 0 is below the OPTION BASE (1)")
    ]


def test_dim_bounds_with_too_many_elements_are_refused_when_compiling():
    # 2**28 elements at most, as the runtimes refuse when a DIM with computed bounds runs.
    too_many = "too many elements (at most 268435456)"
    assert errors_of("10 DIM A(1E9)\n20 END\n") == [(1, 8, f"invalid DIM bound A(1E9): {too_many}")]
    assert errors_of("10 DIM A(1E400), B(20000, 20000)\n20 END\n") == [
        (1, 8, f"invalid DIM bound A(1E400): {too_many}"),
        (1, 18, f"invalid DIM bound B(20000,20000): {too_many}"),
    ]
    assert analysis_of("10 DIM A(268435455)\n20 END\n").arrays["A"].extents == (2**28,)


def test_dim_twice_and_dim_after_use():
    assert errors_of("10 DIM A(3)\n20 DIM A(4)\n30 END\n") == [
        (2, 8, "array A dimensioned twice (first at line 10)")
    ]
    assert errors_of("10 A(6) = 1\n20 DIM A(5)\n30 END\n") == [
        (2, 8, "DIM A after its first use at line 10 (DIM must come first)")
    ]


def test_array_ranks_must_agree():
    assert errors_of("10 DIM A(3)\n20 A(1, 2) = 0\n30 END\n") == [
        (2, 4, "array A was dimensioned as a one-dimensional array (line 10)")
    ]
    assert errors_of("10 X = A(1, 2)\n20 Y = A(1)\n30 END\n") == [
        (2, 8, "array A was used as a two-dimensional array (line 10)")
    ]


def test_strict_scalar_and_array_of_the_same_name():
    errs = errors_of("10 LET A = 1\n20 LET A(1) = 2\n30 END\n", std="ecma55")
    assert errs == [(2, 8, "A is a simple variable (line 10), not an array")]
    errs = errors_of("10 DIM A(3)\n20 LET A = 1\n30 END\n", std="ecma55")
    assert errs == [(2, 8, "A is a one-dimensional array (line 10), not a simple variable")]


def test_extended_mode_keeps_scalars_and_arrays_apart():
    a = analysis_of("10 A = 1\n20 A(1) = 2\n30 END\n")
    assert "A" in a.variables and "A" in a.arrays


def test_strict_letter_digit_array_name():
    errs = errors_of("10 LET A9(1) = 2\n20 END\n", std="ecma55")
    assert errs == [(1, 8, "A9 is a simple variable name, not an array name")]
    assert analysis_of("10 A9(1) = 2\n").arrays["A9"].rank == 1


def test_extended_dim_with_expression_bounds():
    a = analysis_of("10 N = 5\n20 DIM A(N, 2)\n30 END\n")
    symbol = a.arrays["A"]
    assert symbol.upper is None and symbol.extents is None
    assert len(symbol.bound_exprs) == 2


def test_mat_statements_redimension_their_targets():
    a = analysis_of(
        "10 DIM A(2, 3), B(3, 2), C(5, 5)\n20 MAT READ A\n30 MAT C = A * B\n"
        "40 MAT B = ZER(2, 2)\n50 DATA 1, 2, 3, 4, 5, 6\n60 END\n"
    )
    assert not a.arrays["A"].redimensioned
    assert a.arrays["B"].redimensioned and a.arrays["C"].redimensioned


def test_mat_needs_known_dimensions():
    assert errors_of("10 MAT PRINT Q\n") == [
        (1, 4, "MAT needs the dimensions of Q: DIM it before this statement")
    ]
    errs = errors_of("10 DIM A(3)\n20 MAT B = A\n30 B(1, 1) = 0\n")
    assert errs == [(3, 4, "array B was used as a one-dimensional array (line 20)")]


def test_parameter_used_as_array():
    errs = errors_of("10 DEF FNA(X) = X(1)\n20 END\n")
    assert errs == [(1, 17, "parameter X used as an array")]


# --------------------------------------------------------------------------- DEF FN


def test_functions_are_recorded():
    a = analysis_of("10 DEF FNA(X) = X * 2 + FNB(X)\n20 DEF FNB(Y) = Y\n30 END\n")
    fn = a.functions["FNA"]
    assert (fn.params, fn.param_types, fn.result_type, fn.index) == (["X"], ["num"], "num", 0)
    assert fn.calls == ["FNB"]
    # the parameter is local: it is not a program variable
    assert "X" not in a.variables


def test_undefined_function_and_wrong_argument_count():
    assert errors_of("10 LET A = FNA(1)\n20 END\n") == [(1, 12, "undefined function FNA")]
    errs = errors_of("10 DEF FNP = 1\n20 DEF FND(X) = X\n30 A = FNP(0) + FND\n40 END\n")
    assert errs == [
        (3, 8, "function FNP takes no argument, 1 given"),
        (3, 17, "function FND takes 1 argument, 0 given"),
    ]


def test_function_defined_twice():
    errs = errors_of("10 DEF FNA(X) = X\n20 DEF FNA(X) = 2\n30 END\n")
    assert errs == [(2, 4, "function FNA defined twice (first at line 10)")]


def test_recursive_functions():
    errs = errors_of("10 DEF FNA(X) = X / FNA(X - 1)\n20 END\n")
    assert errs == [(1, 21, "function FNA calls itself (DEF FN cannot recurse)")]
    errs = errors_of("10 DEF FNA(X) = FNB(X)\n20 DEF FNB(X) = FNA(X)\n30 END\n")
    assert errs == [(1, 4, "recursive functions: FNA -> FNB -> FNA (DEF FN cannot recurse)")]


def test_use_before_def_is_strict_only():
    text = "10 LET A = FND(5)\n20 DEF FND(X) = X\n30 END\n"
    assert errors_of(text, std="ecma55") == [(1, 12, "function FND used before its DEF (line 20)")]
    assert analysis_of(text).functions["FND"].index == 1


def test_an_element_type_in_a_legacy_program_is_an_error_not_ignored():
    # `DIM A(5) AS INTEGER` once stored 1.7 and printed it back.
    # (QuickBASIC's `AS INTEGER` is an error outside --dialect qbasic: tests/test_qbasic.py)
    errs = errors_of("10 DIM A(5) AS F16\n20 LET A(1) = 1.7\n30 PRINT A(1)\n40 END\n")
    assert errs == [
        (
            1,
            8,
            (
                "DIM ... AS F16 is for cuTile BASIC kernel programs; the elements of a "
                "legacy array have the type of its name (A% for integers)"
            ),
        )
    ]
