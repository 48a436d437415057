"""The semantic checks `passes.analyze` runs, in its order: the program's kind, names
and their types, the flat statement list, jumps, blocks, ECMA-55's rules, DEF FN, DATA.
"""
