"""Checks of generated code against the real toolchains (no GPU needed).

`cutile_aot` compiles generated `@ct.kernel` functions ahead of time with NVIDIA's cuTile
front end and `tileiras`, for Tile IR bytecode and sm_80/sm_90/sm_100 cubins; `nvrtc`
compiles generated CUDA C++ with NVRTC; `emit` is `--emit`'s use of both.  `cuda_run`
builds and runs a generated .cu (`cpu_cuda`: g++ and the CUDA emulator; `nvcc`).
"""
