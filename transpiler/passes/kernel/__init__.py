"""cuTile BASIC kernel programs: the dialect's declarations and checks, and the
lowering to the kernel IR (which the offloaded loops share).
"""
