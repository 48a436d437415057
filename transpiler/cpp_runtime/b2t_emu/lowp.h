#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "math_extras.h"

// __half (IEEE binary16, through g++'s _Float16) and __nv_bfloat16 (bfloat16, bit-level),
// with the constructors and conversions of cuda_fp16.h / cuda_bf16.h.  So `h + 1.0f` is
// ambiguous here exactly as it is under nvcc: generated code converts explicitly
// (__half2float, __float2half, ...) and computes in float.
struct __half_raw {
  unsigned short x;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};

namespace b2t_emu {
inline unsigned short half_bits(_Float16 v) { return std::bit_cast<unsigned short>(v); }
inline _Float16 half_value(unsigned short bits) { return std::bit_cast<_Float16>(bits); }

inline unsigned short bf16_bits(float f) {  // round to nearest even
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;  // NaN, as CUDA returns it
  return static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline unsigned short bf16_bits(double d) {
  // Round to odd in float first: one correct rounding to bf16 follows (24 >= 8 + 2 bits).
  float f = static_cast<float>(d);
  if (std::isfinite(d) && static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) | 1u);
  }
  return bf16_bits(f);
}
inline float bf16_value(unsigned short bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}
}  // namespace b2t_emu

struct alignas(2) __half {
  unsigned short __x;
  __half() = default;
  constexpr __half(const __half_raw& r) : __x(r.x) {}
  __half(float f) : __x(b2t_emu::half_bits(static_cast<_Float16>(f))) {}
  __half(double d) : __x(b2t_emu::half_bits(static_cast<_Float16>(d))) {}
  __half(short v) : __half(static_cast<float>(v)) {}
  __half(unsigned short v) : __half(static_cast<float>(v)) {}
  __half(int v) : __x(b2t_emu::half_bits(static_cast<_Float16>(v))) {}
  __half(unsigned int v) : __x(b2t_emu::half_bits(static_cast<_Float16>(v))) {}
  __half(long long v) : __x(b2t_emu::half_bits(static_cast<_Float16>(v))) {}
  __half(unsigned long long v) : __x(b2t_emu::half_bits(static_cast<_Float16>(v))) {}
  operator float() const { return static_cast<float>(b2t_emu::half_value(__x)); }
  operator __half_raw() const { return __half_raw{__x}; }
};
typedef __half half;

struct alignas(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __nv_bfloat16(float f) : __x(b2t_emu::bf16_bits(f)) {}
  __nv_bfloat16(double d) : __x(b2t_emu::bf16_bits(d)) {}
  __nv_bfloat16(short v) : __nv_bfloat16(static_cast<float>(v)) {}
  __nv_bfloat16(unsigned short v) : __nv_bfloat16(static_cast<float>(v)) {}
  __nv_bfloat16(int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  operator float() const { return b2t_emu::bf16_value(__x); }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
};
typedef __nv_bfloat16 nv_bfloat16;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int v) { return __half(v); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline int __half2int_rn(__half h) { return __float2int_rn(static_cast<float>(h)); }
inline int __half2int_rz(__half h) { return __float2int_rz(static_cast<float>(h)); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __ushort_as_half(unsigned short x) { return __half(__half_raw{x}); }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __short_as_half(short x) {
  return __half(__half_raw{static_cast<unsigned short>(x)});
}

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline __nv_bfloat16 __int2bfloat16_rn(int v) { return __nv_bfloat16(v); }
inline float __bfloat162float(__nv_bfloat16 h) { return static_cast<float>(h); }
inline int __bfloat162int_rn(__nv_bfloat16 h) { return __float2int_rn(static_cast<float>(h)); }
inline int __bfloat162int_rz(__nv_bfloat16 h) { return __float2int_rz(static_cast<float>(h)); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short x) {
  return __nv_bfloat16(__nv_bfloat16_raw{x});
}

// Arithmetic rounds the float result once, which is exact rounding for + - * / (a float
// holds at least twice the 11- or 8-bit significand plus two bits).
#define B2T_EMU_LOWP_OPS(H)                                                               \
  inline H operator+(const H& a, const H& b) { return H(float(a) + float(b)); }           \
  inline H operator-(const H& a, const H& b) { return H(float(a) - float(b)); }           \
  inline H operator*(const H& a, const H& b) { return H(float(a) * float(b)); }           \
  inline H operator/(const H& a, const H& b) { return H(float(a) / float(b)); }           \
  inline H operator-(const H& a) {                                                        \
    H r = a;                                                                              \
    r.__x ^= 0x8000;                                                                      \
    return r;                                                                             \
  }                                                                                       \
  inline H operator+(const H& a) { return a; }                                            \
  inline H& operator+=(H& a, const H& b) { return a = a + b; }                            \
  inline H& operator-=(H& a, const H& b) { return a = a - b; }                            \
  inline H& operator*=(H& a, const H& b) { return a = a * b; }                            \
  inline H& operator/=(H& a, const H& b) { return a = a / b; }                            \
  inline bool operator==(const H& a, const H& b) { return float(a) == float(b); }         \
  inline bool operator!=(const H& a, const H& b) { return float(a) != float(b); }         \
  inline bool operator<(const H& a, const H& b) { return float(a) < float(b); }           \
  inline bool operator<=(const H& a, const H& b) { return float(a) <= float(b); }         \
  inline bool operator>(const H& a, const H& b) { return float(a) > float(b); }           \
  inline bool operator>=(const H& a, const H& b) { return float(a) >= float(b); }         \
  inline H __hadd(H a, H b) { return a + b; }                                             \
  inline H __hsub(H a, H b) { return a - b; }                                             \
  inline H __hmul(H a, H b) { return a * b; }                                             \
  inline H __hdiv(H a, H b) { return a / b; }                                             \
  inline H __hneg(H a) { return -a; }                                                     \
  inline H __habs(H a) {                                                                  \
    a.__x &= 0x7fff;                                                                      \
    return a;                                                                             \
  }                                                                                       \
  inline H __hfma(H a, H b, H c) {                                                        \
    return H(static_cast<double>(float(a)) * float(b) + float(c));                        \
  }                                                                                       \
  inline H __hmax(H a, H b) { return H(std::fmax(float(a), float(b))); }                  \
  inline H __hmin(H a, H b) { return H(std::fmin(float(a), float(b))); }                  \
  inline bool __heq(H a, H b) { return a == b; }                                          \
  inline bool __hne(H a, H b) { return a != b; }                                          \
  inline bool __hlt(H a, H b) { return a < b; }                                           \
  inline bool __hle(H a, H b) { return a <= b; }                                          \
  inline bool __hgt(H a, H b) { return a > b; }                                           \
  inline bool __hge(H a, H b) { return a >= b; }                                          \
  inline bool __hisnan(H a) { return std::isnan(float(a)); }                              \
  inline int __hisinf(H a) { return std::isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0; } \
  inline H hsqrt(H a) { return H(std::sqrt(float(a))); }
B2T_EMU_LOWP_OPS(__half)
B2T_EMU_LOWP_OPS(__nv_bfloat16)
#undef B2T_EMU_LOWP_OPS
