// Vector add with a bounds check; n is not a multiple of the block size.
#include "b2t_cuda.h"

extern "C" __global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

#ifndef __CUDACC_RTC__
#include <vector>

int main() {
  const int n = 100003;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 1.0f - i;
  }
  const size_t bytes = n * sizeof(float);
  float *d_a, *d_b, *d_c;
  B2T_CHECK(cudaMalloc(&d_a, bytes));
  B2T_CHECK(cudaMalloc(&d_b, bytes));
  B2T_CHECK(cudaMalloc(&d_c, bytes));
  B2T_CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  B2T_LAUNCH(vector_add, blocks, threads, 0)(d_a, d_b, d_c, n);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaDeviceSynchronize());
  B2T_CHECK(cudaMemcpy(c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) ++wrong;
  double checksum = 0;
  for (int i = 0; i < n; ++i) checksum += c[i];
  B2T_CHECK(cudaFree(d_a));
  B2T_CHECK(cudaFree(d_b));
  B2T_CHECK(cudaFree(d_c));
  printf("n = %d blocks = %d checksum = %.17g\n", n, blocks, checksum);
  printf("%s vector_add (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong ? 1 : 0;
}
#endif
