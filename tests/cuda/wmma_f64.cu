// Double-precision WMMA (m8n8k4, sm_80+): one warp computes an 8x8 tile of C = A * B + C0
// with A col-major and the accumulator loaded and stored column-major.
#include "b2t_cuda.h"

using namespace nvcuda;

extern "C" __global__ void dmma_8x8(const double* a, const double* b, double* c, int k) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> frag_a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> frag_b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::load_matrix_sync(acc, c, 8, wmma::mem_col_major);
  for (int k0 = 0; k0 < k; k0 += 4) {
    wmma::load_matrix_sync(frag_a, a + k0 * 8, 8);  // a[col * 8 + row], 8 x k
    wmma::load_matrix_sync(frag_b, b + k0 * 8, 8);  // b[row * 8 + col], k x 8
    wmma::mma_sync(acc, frag_a, frag_b, acc);
  }
  wmma::store_matrix_sync(c, acc, 8, wmma::mem_col_major);
}

#ifndef __CUDACC_RTC__
#include <cmath>
#include <vector>

int main() {
  const int k = 12;
  std::vector<double> a(8 * k), b(k * 8), c(64), c0(64);
  for (int i = 0; i < 8 * k; ++i) a[i] = std::sin(0.37 * i);
  for (int i = 0; i < k * 8; ++i) b[i] = std::cos(0.11 * i);
  for (int i = 0; i < 64; ++i) c0[i] = 0.5 * i;
  double *d_a, *d_b, *d_c;
  B2T_CHECK(cudaMalloc(&d_a, a.size() * sizeof(double)));
  B2T_CHECK(cudaMalloc(&d_b, b.size() * sizeof(double)));
  B2T_CHECK(cudaMalloc(&d_c, c.size() * sizeof(double)));
  B2T_CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_c, c0.data(), c0.size() * sizeof(double), cudaMemcpyHostToDevice));
  B2T_LAUNCH(dmma_8x8, 1, 32, 0)(d_a, d_b, d_c, k);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(double), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_a));
  B2T_CHECK(cudaFree(d_b));
  B2T_CHECK(cudaFree(d_c));
  double max_err = 0.0;
  for (int row = 0; row < 8; ++row)
    for (int col = 0; col < 8; ++col) {
      double ref = c0[col * 8 + row];
      for (int p = 0; p < k; ++p) ref += a[p * 8 + row] * b[p * 8 + col];
      max_err = std::fmax(max_err, std::fabs(ref - c[col * 8 + row]));
    }
  printf("max_err = %.3g\n", max_err);
  printf("%s wmma_f64\n", max_err < 1e-12 ? "PASS" : "FAIL");
  return max_err < 1e-12 ? 0 : 1;
}
#endif
