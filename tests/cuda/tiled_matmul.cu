// C = A * B with 16x16 shared-memory tiles; M, N, K are not multiples of 16, so the tile
// loads pad with zeros and the store is bounds-checked.
#include "b2t_cuda.h"

constexpr int kTile = 16;

extern "C" __global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int m, int n, int k) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    const int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    tile_a[threadIdx.y][threadIdx.x] = (row < m && ka < k) ? a[row * k + ka] : 0.0f;
    tile_b[threadIdx.y][threadIdx.x] = (kb < k && col < n) ? b[kb * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i) acc += tile_a[threadIdx.y][i] * tile_b[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

#ifndef __CUDACC_RTC__
#include <cmath>
#include <vector>

int main() {
  const int m = 77, n = 53, k = 91;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 37 % 101) - 50) / 25.0f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 53 % 89) - 44) / 22.0f;
  float *d_a, *d_b, *d_c;
  B2T_CHECK(cudaMalloc(&d_a, a.size() * sizeof(float)));
  B2T_CHECK(cudaMalloc(&d_b, b.size() * sizeof(float)));
  B2T_CHECK(cudaMalloc(&d_c, c.size() * sizeof(float)));
  B2T_CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 block(kTile, kTile);
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  B2T_LAUNCH(matmul_tiled, grid, block, 0)(d_a, d_b, d_c, m, n, k);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_a));
  B2T_CHECK(cudaFree(d_b));
  B2T_CHECK(cudaFree(d_c));
  double max_err = 0.0, checksum = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0.0;
      for (int p = 0; p < k; ++p) ref += static_cast<double>(a[i * k + p]) * b[p * n + j];
      max_err = std::fmax(max_err, std::fabs(ref - c[i * n + j]));
      checksum += c[i * n + j];
    }
  const bool ok = max_err < 1e-3;
  const int probes[][2] = {{0, 0}, {m - 1, n - 1}, {16, 17}, {m - 1, 0}, {40, n - 1}};
  for (const auto& p : probes) printf("c[%d][%d] = %.9g\n", p[0], p[1], c[p[0] * n + p[1]]);
  printf("max_err = %.3g checksum = %.10g\n", max_err, checksum);
  printf("%s tiled_matmul\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
#endif
