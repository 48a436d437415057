// b2t_cuda_emu.h -- run a CUDA C++ program on the CPU with g++, unchanged.
//
//   g++ -std=c++20 -O2 -pthread -fwrapv -fcf-protection=none -x c++ prog.cu -o prog
//
// (C++20: the thread pool waits on std::atomic, atomics are std::atomic_ref; nvcc builds
// the same .cu as C++17.)  basic2tile writes this header beside a generated .cu as one
// file, the b2t_emu/ headers of its include folder (`basic2tile --include-dir`) inlined.
//
// Generated code never includes this file itself: it includes "b2t_cuda.h", which picks
// the real CUDA headers under nvcc/NVRTC and this emulator under a host compiler.
//
// Execution model (details in b2t_emu/launch.h)
// - A launch is synchronous.  Its blocks are spread over a pool of OS threads (one per core,
//   B2T_EMU_WORKERS=n to change; 1 makes runs deterministic).  The threads of a block are
//   fibers (user-level threads, b2t_emu/fiber.h) of one OS thread: each runs until it
//   reaches __syncthreads(), a warp operation or its end, then the next one runs.  A
//   barrier therefore costs nanoseconds, threads that returned count as arrived (as on the
//   GPU), and a barrier that not every thread reaches is reported as a deadlock.
// - __shared__ is `static thread_local`: one object per OS thread, and an OS thread runs one
//   block at a time, so every block in flight has its own copy shared by its threads.  Its
//   value survives into the next block on that OS thread; CUDA leaves shared memory
//   uninitialised at block start, so correct code cannot tell.  Dynamic shared memory
//   (B2T_DYNAMIC_SHARED, because `extern __shared__ T a[];` has no C++ spelling) is a
//   per-OS-thread buffer sized by the launch and filled with 0xFF at each block start.
// - Warp operations (b2t_emu/warp.h) synchronise the lanes of a warp through a warp barrier
//   and exchange slots.  Only full masks: a partial mask aborts with a message.
// - WMMA (b2t_emu/wmma.h): every lane holds and computes the whole tile.
// - Device memory is host memory, with cudaMemcpy direction/bounds checks
//   (b2t_emu/runtime.h).
//
// Not emulated: asynchrony (streams and events exist but everything is synchronous),
// dynamic parallelism, cooperative groups, textures/surfaces, __syncthreads_count/and/or,
// partial-warp masks, __half2/__nv_bfloat162, tf32/int8 WMMA, the GPU's rounding of fast
// intrinsics (__expf etc. use libm), device malloc, detecting a kernel that dereferences a
// host pointer, `static __shared__` (write plain `__shared__`) and `__noinline__`.
// Threads of a block switch only at barriers and warp operations, so a thread spinning
// until another thread of its block (or a later block) sets a flag hangs here.
#pragma once
#define B2T_CUDA_EMU 1

#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "b2t_emu/atomics.h"
#include "b2t_emu/builtins.h"
#include "b2t_emu/errors.h"
#include "b2t_emu/fiber.h"
#include "b2t_emu/launch.h"
#include "b2t_emu/lowp.h"
#include "b2t_emu/math_extras.h"
#include "b2t_emu/runtime.h"
#include "b2t_emu/warp.h"
#include "b2t_emu/wmma.h"
