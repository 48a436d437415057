"""The cuTile Python target.

Kernel IR as `@ct.kernel` functions (`expr`, `helpers`), the Python host module that
launches them (`host`, `host_stmt`, `host_expr`, `host_kernels`, `host_microsoft`), and the
whole module (`program`), all as text before Ruff's formatter (formatting/python.py);
the kernels' export to Tile IR / cubins is verify/emit.py's.
"""
