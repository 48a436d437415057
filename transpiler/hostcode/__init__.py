"""Host code as explicit nodes: what the host printers of both targets lay out.

`nodes` is the small IR (If, ForRange, Declare, ...) whose expressions are text already
in the target's syntax; `syntax` holds the two syntax tables (Python, C++) and the one
walker that prints nodes through them; `launch` lowers a kernel launch (with its replay,
restore and finish) to nodes once for both targets; `module_plan` and `procedures`
decide a program's module (names, DATA, arrays, procedure functions) once for both.
"""
