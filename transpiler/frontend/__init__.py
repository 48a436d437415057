"""The front end: BASIC source text -> `ast.Program` (PLY lexer and grammar,
run line by line; the LALR tables cached per user).
"""
