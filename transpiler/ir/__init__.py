"""The program's forms, in pipeline order: the AST (`ast.py`), the analysed program
(`model.py`, `procedure_records.py`), the host IR (`hostir.py`) and the kernel IR
(`kernel.py`, built by `irbuild.py`; imported as `ir`), and the `Namer` of generated names.
"""
