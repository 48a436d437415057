"""Sizes the BASIC runtime refuses, shared by the front end (constant DIM bounds are
checked when compiling), the interpreter and the generated Python (bounds known only
when the DIM runs).  transpiler/cpp_runtime/b2t_runtime.h has the same number."""

# The bounds of an array that is used without DIM (ECMA-55 8.4: 10 in each dimension),
# also after ERASE (Microsoft BASIC).
IMPLICIT_UPPER_BOUND = 10

# The most elements an array may have: more would exhaust memory (2 GiB of doubles).
TOO_MANY_ELEMENTS = 1 << 28
