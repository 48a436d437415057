"""Running and checking what was generated: child processes, output files, scratch
folders, output comparison, kernel programs' self-test and reference semantics
(`kernel_interpreter.py`), and a grid split across Dask workers (`scaleout.py`).
"""
