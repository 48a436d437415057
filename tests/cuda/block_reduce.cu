// Shared-memory tree reduction per block, then one double atomicAdd per block.
// Sums 1/(i+1) for i < n (a harmonic number); prints it for the Python test to check.
#include "b2t_cuda.h"

constexpr int kThreads = 256;

extern "C" __global__ void block_sum(const double* __restrict__ x, int n,
                                     double* __restrict__ total) {
  __shared__ double partial[kThreads];
  const int tid = threadIdx.x;
  double sum = 0.0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += x[i];
  partial[tid] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, partial[0]);
}

#ifndef __CUDACC_RTC__
#include <cmath>
#include <vector>

int main() {
  const int n = 1000000;
  const int blocks = 1024;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = 1.0 / (i + 1);
  double *d_x, *d_total;
  B2T_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
  B2T_CHECK(cudaMalloc(&d_total, sizeof(double)));
  B2T_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemset(d_total, 0, sizeof(double)));
  B2T_LAUNCH(block_sum, blocks, kThreads, 0)(d_x, n, d_total);
  B2T_CHECK(cudaGetLastError());
  double total = 0.0;
  B2T_CHECK(cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_x));
  B2T_CHECK(cudaFree(d_total));
  double expected = 0.0;
  for (int i = n - 1; i >= 0; --i) expected += x[i];
  const bool ok = std::fabs(total - expected) <= 1e-12 * expected;
  printf("sum = %.17g\n", total);
  printf("%s block_reduce\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
#endif
