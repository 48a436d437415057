// CUDA's qualifiers, vector types, dim3 and the built-in index variables.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
// One copy per block: the threads of a block are fibers of one OS thread, and a block runs
// on one OS thread at a time, so a thread_local static is exactly "per block in flight".
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
// No __noinline__: libstdc++ spells __attribute__((__noinline__)), which the macro would break.
#define __align__(n) __attribute__((aligned(n)))  // GNU form: legal among decl-specifiers
#define __launch_bounds__(...)
// __restrict__ is a g++ keyword already.

#define B2T_EMU_VEC2(T, name, A) \
  struct alignas(A) name {       \
    T x, y;                      \
  };                             \
  inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define B2T_EMU_VEC3(T, name) \
  struct name {               \
    T x, y, z;                \
  };                          \
  inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define B2T_EMU_VEC4(T, name, A) \
  struct alignas(A) name {       \
    T x, y, z, w;                \
  };                             \
  inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
B2T_EMU_VEC2(int, int2, 8)
B2T_EMU_VEC3(int, int3)
B2T_EMU_VEC4(int, int4, 16)
B2T_EMU_VEC2(unsigned int, uint2, 8)
B2T_EMU_VEC3(unsigned int, uint3)
B2T_EMU_VEC4(unsigned int, uint4, 16)
B2T_EMU_VEC2(float, float2, 8)
B2T_EMU_VEC3(float, float3)
B2T_EMU_VEC4(float, float4, 16)
B2T_EMU_VEC2(double, double2, 16)
B2T_EMU_VEC3(double, double3)
B2T_EMU_VEC4(double, double4, 16)
B2T_EMU_VEC2(long long, longlong2, 16)
#undef B2T_EMU_VEC2
#undef B2T_EMU_VEC3
#undef B2T_EMU_VEC4

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Per OS thread; the scheduler stores the running fiber's threadIdx before resuming it.
// Constant-initialised, so a read is one TLS load with no wrapper call.
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
inline constexpr int warpSize = 32;
