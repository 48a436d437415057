"""The CUDA C++ target.

Kernel IR as CUDA kernels (`kernels`, with `expr`, `index`, `mma`, `reduce`, `scan`,
`element_types`, `helpers`: they lay out what passes/kernel/cuda_plan.py decided, the
`Kernel.cuda` plan), their launches from host code (`launch`), the
C++ host program (`host`, `host_stmt`, `host_expr`, `host_text`, `host_microsoft`), the
whole `.cu` file and its headers (`program`, `build`), all as text before clang-format
(formatting/cpp.py), and running it on the CPU emulator or a GPU (`program`, through
verify/cuda_run.py); compiling its kernels with NVRTC is verify/emit.py's.
"""
