"""BASIC's operators in host code, for both targets: the comparisons (written alike in
Python and C++) and the arithmetic the runtime computes (runtime/arith.py and its C++
port in b2t_runtime.h, which puts the same names in `b2t::`), because BASIC reports
their overflows and division by zero."""

COMPARISONS = {"=": "==", "<>": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
RUNTIME_OPERATORS = {"*": "mul", "/": "div", "^": "power", "MOD": "MOD"}
