// The math library and intrinsics generated code may call, on device, against the host's
// libm.  Tolerances allow for the GPU's documented ulp errors (fast intrinsics: 1e-5).
#include "b2t_cuda.h"

constexpr int kResults = 40;

extern "C" __global__ void math_f32(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];  // in (0.1, 2.1)
  float* o = out + i * kResults;
  o[0] = sinf(v), o[1] = cosf(v), o[2] = tanf(v), o[3] = atanf(v), o[4] = expf(v);
  o[5] = logf(v), o[6] = sqrtf(v), o[7] = fabsf(-v), o[8] = floorf(3.7f * v);
  o[9] = powf(v, 1.7f), o[10] = fminf(v, 1.0f), o[11] = fmaxf(v, 1.0f), o[12] = rsqrtf(v);
  o[13] = __fdividef(1.0f, v), o[14] = __expf(v), o[15] = __logf(v), o[16] = __sinf(v);
  o[17] = __cosf(v), o[18] = __powf(v, 0.5f), o[19] = exp2f(v), o[20] = log2f(v);
  o[21] = log10f(v), o[22] = ceilf(3.7f * v), o[23] = truncf(-3.7f * v), o[24] = roundf(3.7f * v);
  o[25] = fmodf(7.0f, v), o[26] = atan2f(v, 1.5f), o[27] = asinf(v / 3.0f), o[28] = acosf(v / 3.0f);
  o[29] = sinhf(v), o[30] = coshf(v), o[31] = tanhf(v), o[32] = cbrtf(v), o[33] = hypotf(v, 2.0f);
  o[34] = fmaf(v, 2.0f, 1.0f), o[35] = __saturatef(v - 1.0f), o[36] = copysignf(v, -1.0f);
  o[37] = static_cast<float>(__float2int_rn(2.5f * v)),
  o[38] = static_cast<float>(min(3, 7) + max(2u, 5u));
  o[39] = __int_as_float(__float_as_int(v));
}

extern "C" __global__ void math_f64(const double* __restrict__ x, double* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double v = x[i];
  double* o = out + i * 16;
  o[0] = sin(v), o[1] = cos(v), o[2] = tan(v), o[3] = atan(v), o[4] = exp(v), o[5] = log(v);
  o[6] = sqrt(v), o[7] = fabs(-v), o[8] = floor(3.7 * v), o[9] = pow(v, 1.7), o[10] = fmin(v, 1.0);
  o[11] = fmax(v, 1.0), o[12] = rsqrt(v), o[13] = __longlong_as_double(__double_as_longlong(v));
  o[14] = static_cast<double>(__popc(0xf0f0u) + __clz(1) + __ffs(8)), o[15] = fma(v, v, -1.0);
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cmath>
#include <vector>

int main() {
  const int n = 64;
  std::vector<float> xf(n), of(n * kResults);
  std::vector<double> xd(n), od(n * 16);
  for (int i = 0; i < n; ++i) xd[i] = xf[i] = 0.1f + 2.0f * i / n;
  float *d_xf, *d_of;
  double *d_xd, *d_od;
  B2T_CHECK(cudaMalloc(&d_xf, n * sizeof(float)));
  B2T_CHECK(cudaMalloc(&d_of, of.size() * sizeof(float)));
  B2T_CHECK(cudaMalloc(&d_xd, n * sizeof(double)));
  B2T_CHECK(cudaMalloc(&d_od, od.size() * sizeof(double)));
  B2T_CHECK(cudaMemcpy(d_xf, xf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_xd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  B2T_LAUNCH(math_f32, 2, 32, 0)(d_xf, d_of, n);
  B2T_CHECK(cudaGetLastError());
  B2T_LAUNCH(math_f64, 2, 32, 0)(d_xd, d_od, n);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(of.data(), d_of, of.size() * sizeof(float), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(od.data(), d_od, od.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (void* p : {(void*)d_xf, (void*)d_of, (void*)d_xd, (void*)d_od}) B2T_CHECK(cudaFree(p));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double v = xf[i];
    const double f[kResults] = {std::sin(v),
                                std::cos(v),
                                std::tan(v),
                                std::atan(v),
                                std::exp(v),
                                std::log(v),
                                std::sqrt(v),
                                v,
                                std::floor(3.7f * xf[i]),
                                std::pow(v, 1.7),
                                std::fmin(v, 1.0),
                                std::fmax(v, 1.0),
                                1.0 / std::sqrt(v),
                                1.0 / v,
                                std::exp(v),
                                std::log(v),
                                std::sin(v),
                                std::cos(v),
                                std::sqrt(v),
                                std::exp2(v),
                                std::log2(v),
                                std::log10(v),
                                std::ceil(3.7f * xf[i]),
                                std::trunc(-3.7f * xf[i]),
                                std::round(3.7f * xf[i]),
                                std::fmod(7.0, v),
                                std::atan2(v, 1.5),
                                std::asin(v / 3.0),
                                std::acos(v / 3.0),
                                std::sinh(v),
                                std::cosh(v),
                                std::tanh(v),
                                std::cbrt(v),
                                std::hypot(v, 2.0),
                                2.0 * v + 1.0,
                                std::clamp(v - 1.0, 0.0, 1.0),
                                -v,
                                std::nearbyint(2.5f * xf[i]),
                                8.0,
                                v};
    for (int j = 0; j < kResults; ++j) {
      const double err = std::fabs(of[i * kResults + j] - f[j]);
      if (err > 2e-5 * std::max(1.0, std::fabs(f[j]))) {
        printf("math_f32[%d] at %g: %.9g, expected %.9g\n", j, v, of[i * kResults + j], f[j]);
        ++wrong;
      }
    }
    const double w = xd[i];
    const double d[16] = {std::sin(w),         std::cos(w),
                          std::tan(w),         std::atan(w),
                          std::exp(w),         std::log(w),
                          std::sqrt(w),        w,
                          std::floor(3.7 * w), std::pow(w, 1.7),
                          std::fmin(w, 1.0),   std::fmax(w, 1.0),
                          1.0 / std::sqrt(w),  w,
                          8.0 + 31.0 + 4.0,    std::fma(w, w, -1.0)};
    for (int j = 0; j < 16; ++j) {
      const double err = std::fabs(od[i * 16 + j] - d[j]);
      if (err > 1e-14 * std::max(1.0, std::fabs(d[j]))) {
        printf("math_f64[%d] at %g: %.17g, expected %.17g\n", j, w, od[i * 16 + j], d[j]);
        ++wrong;
      }
    }
  }
  printf("%s math_intrinsics (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong ? 1 : 0;
}
#endif
