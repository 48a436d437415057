// b2t_cuda.h -- the one header basic2tile's generated CUDA C++ includes, first.
//
// One .cu file builds three ways:
//   nvcc:   nvcc -arch=sm_90 -std=c++17 prog.cu -o prog   (real CUDA; this header beside it)
//   NVRTC:  device code only; host code is fenced by #ifndef __CUDACC_RTC__
//   g++:    g++ -std=c++20 -O2 -pthread -fwrapv -fcf-protection=none -x c++ prog.cu -o prog
//           (the CPU emulator, C++20, b2t_cuda_emu.h beside this header; see it for what it
//           does and does not model)
//
// Conventions for generated code:
//   #include "b2t_cuda.h"                         // no other CUDA header
//   extern "C" __global__ void k(...) { ... }     // unmangled names, found by NVRTC users
//   #ifndef __CUDACC_RTC__                        // host code: std headers, helpers, main()
//   ...  B2T_LAUNCH(k, grid, block, 0)(args...);  B2T_CHECK(cudaGetLastError());
//   #endif
#pragma once

#if defined(__CUDACC_RTC__)
// NVRTC: device code only, no C++ standard library.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#elif defined(__CUDACC__)
// nvcc: the real runtime.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#elif !defined(B2T_CUDA_EMU)
// A host compiler: the CPU emulator (normally already there through -include).
#include "b2t_cuda_emu.h"
#endif

// B2T_LAUNCH(kernel, grid, block, shmem[, stream])(args...) is
// kernel<<<grid, block, shmem[, stream]>>>(args...).  `kernel` must be one name: wrap a
// template-id with commas in a non-template extern "C" kernel instead.
#if defined(__CUDACC__)
#define B2T_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block), __VA_ARGS__>>>
#else
#define B2T_LAUNCH(kernel, grid, block, ...) ::b2t_emu::launch(kernel, (grid), (block), __VA_ARGS__)
#endif

// B2T_DYNAMIC_SHARED(float, tile); is `extern __shared__ float tile[];`, the shared memory
// whose size is the launch's shmem argument.  Use one per kernel and carve it by hand.
#if defined(__CUDACC__)
#define B2T_DYNAMIC_SHARED(T, name) extern __shared__ T name[]
#else
#define B2T_DYNAMIC_SHARED(T, name) \
  T* const name = static_cast<T*>(::b2t_emu::dynamic_shared_memory())
#endif

#if !defined(__CUDACC_RTC__)
// B2T_CHECK(cudaMalloc(&p, n)); prints file:line, the error and the call, then exits.
#define B2T_CHECK(call) ::b2t_check_cuda((call), #call, __FILE__, __LINE__)
static inline void b2t_check_cuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err != cudaSuccess) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s:%d: CUDA error %s: %s\n    in %s\n", file, line, cudaGetErrorName(err),
                 cudaGetErrorString(err), call);
    std::exit(EXIT_FAILURE);
  }
}
#endif

// Floating-point atomic max/min, which CUDA lacks: a compare-and-swap loop on the bits,
// with fmaxf/fminf semantics (a NaN operand loses).  Returns the old value, like atomicMax.
__device__ __forceinline__ float b2t_atomic_max(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits;
  for (;;) {
    const int desired = __float_as_int(fmaxf(__int_as_float(old), value));
    if (desired == old) return __int_as_float(old);
    const int seen = atomicCAS(bits, old, desired);
    if (seen == old) return __int_as_float(old);
    old = seen;
  }
}
__device__ __forceinline__ float b2t_atomic_min(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits;
  for (;;) {
    const int desired = __float_as_int(fminf(__int_as_float(old), value));
    if (desired == old) return __int_as_float(old);
    const int seen = atomicCAS(bits, old, desired);
    if (seen == old) return __int_as_float(old);
    old = seen;
  }
}
__device__ __forceinline__ double b2t_atomic_max(double* address, double value) {
  auto* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits;
  for (;;) {
    const auto desired = static_cast<unsigned long long>(
        __double_as_longlong(fmax(__longlong_as_double(static_cast<long long>(old)), value)));
    if (desired == old) return __longlong_as_double(static_cast<long long>(old));
    const unsigned long long seen = atomicCAS(bits, old, desired);
    if (seen == old) return __longlong_as_double(static_cast<long long>(old));
    old = seen;
  }
}
__device__ __forceinline__ double b2t_atomic_min(double* address, double value) {
  auto* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits;
  for (;;) {
    const auto desired = static_cast<unsigned long long>(
        __double_as_longlong(fmin(__longlong_as_double(static_cast<long long>(old)), value)));
    if (desired == old) return __longlong_as_double(static_cast<long long>(old));
    const unsigned long long seen = atomicCAS(bits, old, desired);
    if (seen == old) return __longlong_as_double(static_cast<long long>(old));
    old = seen;
  }
}
