"""Which loops run as kernels: dependence (exact with isl), scans, forwarding,
vectorizing a parallel loop, the matrix product, and the offload that rewrites the host
program.
"""
