"""The host program: a legacy program's structure as host IR (`structure.py`), its
control-flow graph and liveness, and the facts both printers need (`host_facts.py`).
"""
