// C = 2 * A * B with WMMA 16x16x16 tiles, one warp per output tile, for half and bfloat16
// inputs with float accumulators.  A is row-major, B column-major.  The inputs are
// multiples of 1/8 in [-2, 2], exact in both formats, so every product and sum is exact in
// float and the result must equal the host's exactly.
#include "b2t_cuda.h"

using namespace nvcuda;

template <class T>
__device__ void wmma_gemm_tile(const T* __restrict__ a, const T* __restrict__ b,
                               float* __restrict__ c, int m, int n, int k) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int tiles_n = n / 16;
  const int tile_m = warp / tiles_n, tile_n = warp % tiles_n;
  if (tile_m >= m / 16) return;  // the whole warp leaves together
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> frag_a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> frag_b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < k; k0 += 16) {
    wmma::load_matrix_sync(frag_a, a + tile_m * 16 * k + k0, k);
    wmma::load_matrix_sync(frag_b, b + tile_n * 16 * k + k0, k);
    wmma::mma_sync(acc, frag_a, frag_b, acc);
  }
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(c + tile_m * 16 * n + tile_n * 16, acc, n, wmma::mem_row_major);
}

extern "C" __global__ void wmma_gemm_f16(const __half* a, const __half* b, float* c, int m, int n,
                                         int k) {
  wmma_gemm_tile(a, b, c, m, n, k);
}

extern "C" __global__ void wmma_gemm_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c,
                                          int m, int n, int k) {
  wmma_gemm_tile(a, b, c, m, n, k);
}

#ifndef __CUDACC_RTC__
#include <vector>

static float value(int i, int salt) { return static_cast<float>((i * salt) % 33 - 16) / 8.0f; }

// Runs one kernel; returns the number of elements that differ from the host product.
template <class T, class Convert, class Kernel>
static int check(Kernel kernel, Convert to_lowp, int m, int n, int k) {
  std::vector<T> a(m * k), b(k * n);  // b[col * k + row]: column-major
  std::vector<float> a_ref(m * k), b_ref(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = to_lowp(a_ref[i] = value(i, 7));
  for (int i = 0; i < k * n; ++i) b[i] = to_lowp(b_ref[i] = value(i, 11));
  T *d_a, *d_b;
  float* d_c;
  B2T_CHECK(cudaMalloc(&d_a, a.size() * sizeof(T)));
  B2T_CHECK(cudaMalloc(&d_b, b.size() * sizeof(T)));
  B2T_CHECK(cudaMalloc(&d_c, c.size() * sizeof(float)));
  B2T_CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice));
  const int warps = (m / 16) * (n / 16);
  const int threads = 128;  // four warps per block
  const int blocks = (warps * 32 + threads - 1) / threads;
  B2T_LAUNCH(kernel, blocks, threads, 0)(d_a, d_b, d_c, m, n, k);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_a));
  B2T_CHECK(cudaFree(d_b));
  B2T_CHECK(cudaFree(d_c));
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float ref = 0.0f;
      for (int p = 0; p < k; ++p) ref += a_ref[i * k + p] * b_ref[j * k + p];
      wrong += c[i * n + j] != 2.0f * ref;
    }
  return wrong;
}

int main() {
  const int m = 48, n = 80, k = 64;
  const int wrong_f16 = check<__half>(wmma_gemm_f16, __float2half, m, n, k);
  const int wrong_bf16 = check<__nv_bfloat16>(wmma_gemm_bf16, __float2bfloat16, m, n, k);
  printf("%s wmma_matmul (f16: %d wrong, bf16: %d wrong)\n",
         wrong_f16 || wrong_bf16 ? "FAIL" : "PASS", wrong_f16, wrong_bf16);
  return wrong_f16 || wrong_bf16 ? 1 : 0;
}
#endif
