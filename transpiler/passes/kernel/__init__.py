"""Kernels: cuTile BASIC kernel programs (the dialect's declarations and checks, and
the lowering to the kernel IR, which the offloaded loops share), and what the CUDA
lowering decides about every kernel before it is printed (`cuda_plan`, with
`cuda_launch_shape`, `cuda_locals`, `mma_strategy`, `reduce_strategy`).
"""
