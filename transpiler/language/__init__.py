"""The language's tables and facts, read alike by the interpreter, the passes
and both back ends: built-in functions (`builtins.py`), reserved words (`keywords.py`),
`semantics.py`, `expr_facts.py` and Microsoft BASIC's numeric constants.
"""
