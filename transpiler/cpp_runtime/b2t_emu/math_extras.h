// CUDA's math extras.  <cmath> and <math.h> already give sinf, sin(float), fminf, ...;
// the fast intrinsics (__expf, ...) use libm here, so they are more accurate than on the GPU.
#pragma once

#include <math.h>  // after <cmath>: float overloads (sin(float), ...) in the global namespace

#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>

#include "errors.h"

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float sinpif(float x) { return std::sin(static_cast<float>(M_PI) * x); }
inline float cospif(float x) { return std::cos(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return std::sin(M_PI * x); }
inline double cospi(double x) { return std::cos(M_PI * x); }
inline float fdividef(float a, float b) { return a / b; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline float __saturatef(float x) { return !(x > 0.0f) ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// The GPU's float-to-integer conversions (PTX cvt.rni/rzi/rmi/rpi) saturate to the
// integer type's range and give 0 for NaN; a C++ cast of such a value is undefined (x86
// gives INT_MIN).  `rounded` is the value already rounded to an integral double.
template <class I>
inline I b2t_emu_saturated(double rounded) {
  if (std::isnan(rounded)) return 0;
  if (rounded <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (rounded >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(rounded);
}
inline int __float2int_rn(float x) { return b2t_emu_saturated<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return b2t_emu_saturated<int>(std::trunc(x)); }
inline int __float2int_rd(float x) { return b2t_emu_saturated<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return b2t_emu_saturated<int>(std::ceil(x)); }
inline long long __float2ll_rn(float x) { return b2t_emu_saturated<long long>(std::nearbyint(x)); }
inline int __double2int_rn(double x) { return b2t_emu_saturated<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return b2t_emu_saturated<int>(std::trunc(x)); }
inline int __double2int_rd(double x) { return b2t_emu_saturated<int>(std::floor(x)); }
inline int __double2int_ru(double x) { return b2t_emu_saturated<int>(std::ceil(x)); }
inline long long __double2ll_rn(double x) { return b2t_emu_saturated<long long>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }

inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}
inline int __mulhi(int a, int b) { return static_cast<int>((1ll * a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((1ull * a * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }

// CUDA's global min/max for every pair of arithmetic types (the usual conversions apply).
template <class A, class B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  if constexpr (std::is_floating_point_v<C>)
    return std::fmin(C(a), C(b));
  else
    return C(b) < C(a) ? C(b) : C(a);
}
template <class A, class B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
inline std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  if constexpr (std::is_floating_point_v<C>)
    return std::fmax(C(a), C(b));
  else
    return C(a) < C(b) ? C(b) : C(a);
}

template <class T>
inline T __ldg(const T* p) {
  return *p;
}
inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
inline void __nanosleep(unsigned ns) { std::this_thread::sleep_for(std::chrono::nanoseconds(ns)); }
[[noreturn]] inline void __trap() { b2t_emu::fatal("__trap() called in device code"); }
