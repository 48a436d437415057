// The runtime API beyond malloc/memcpy: device properties, __constant__ and __device__
// symbols, pinned and managed memory, streams (launch and async copies), events.
#include "b2t_cuda.h"

__constant__ float coefficients[4];
__device__ int launches_seen;

extern "C" __global__ void polynomial(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&launches_seen, 1);
  if (i < n) {
    const float v = x[i];
    y[i] = ((coefficients[3] * v + coefficients[2]) * v + coefficients[1]) * v + coefficients[0];
  }
}

#ifndef __CUDACC_RTC__
#include <cmath>

int main() {
  int count = 0;
  B2T_CHECK(cudaGetDeviceCount(&count));
  B2T_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop;
  B2T_CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device 0 of %d: %s, %d SMs\n", count, prop.name, prop.multiProcessorCount);

  const float coeffs[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  const int zero = 0;
  B2T_CHECK(cudaMemcpyToSymbol(coefficients, coeffs, sizeof coeffs));
  B2T_CHECK(cudaMemcpyToSymbol(launches_seen, &zero, sizeof zero));

  const int n = 3000, threads = 128, blocks = (n + threads - 1) / threads;
  const size_t bytes = n * sizeof(float);
  float *h_x, *d_x, *d_y, *d_y2, *managed;
  B2T_CHECK(cudaMallocHost(&h_x, bytes));
  B2T_CHECK(cudaMalloc(&d_x, bytes));
  B2T_CHECK(cudaMalloc(&d_y, bytes));
  B2T_CHECK(cudaMalloc(&d_y2, bytes));
  B2T_CHECK(cudaMallocManaged(&managed, bytes));
  for (int i = 0; i < n; ++i) h_x[i] = 0.001f * i - 1.0f;

  cudaStream_t stream;
  cudaEvent_t start, stop;
  B2T_CHECK(cudaStreamCreate(&stream));
  B2T_CHECK(cudaEventCreate(&start));
  B2T_CHECK(cudaEventCreate(&stop));
  B2T_CHECK(cudaMemcpyAsync(d_x, h_x, bytes, cudaMemcpyHostToDevice, stream));
  B2T_CHECK(cudaMemsetAsync(d_y, 0, bytes, stream));
  B2T_CHECK(cudaEventRecord(start, stream));
  B2T_LAUNCH(polynomial, blocks, threads, 0, stream)(d_x, d_y, n);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaEventRecord(stop, stream));
  B2T_CHECK(cudaMemcpyAsync(d_y2, d_y, bytes, cudaMemcpyDeviceToDevice, stream));
  B2T_CHECK(cudaStreamSynchronize(stream));
  B2T_CHECK(cudaEventSynchronize(stop));
  float ms = -1.0f;
  B2T_CHECK(cudaEventElapsedTime(&ms, start, stop));

  B2T_LAUNCH(polynomial, blocks, threads, 0)(d_x, managed, n);  // the host reads it directly
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaDeviceSynchronize());

  float* y = nullptr;
  B2T_CHECK(cudaMallocHost(&y, bytes));
  B2T_CHECK(cudaMemcpy(y, d_y2, bytes, cudaMemcpyDeviceToHost));
  int launches = 0;
  B2T_CHECK(cudaMemcpyFromSymbol(&launches, launches_seen, sizeof launches));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double v = h_x[i];
    const double expected = ((0.25 * v + 0.5) * v - 2.0) * v + 1.0;
    wrong += std::fabs(y[i] - expected) > 1e-5 || managed[i] != y[i];
  }
  const bool ok = wrong == 0 && count >= 1 && prop.warpSize == 32 &&
                  prop.maxThreadsPerBlock == 1024 && launches == 2 && ms >= 0.0f;
  B2T_CHECK(cudaEventDestroy(start));
  B2T_CHECK(cudaEventDestroy(stop));
  B2T_CHECK(cudaStreamDestroy(stream));
  B2T_CHECK(cudaFreeHost(h_x));
  B2T_CHECK(cudaFreeHost(y));
  B2T_CHECK(cudaFree(d_x));
  B2T_CHECK(cudaFree(d_y));
  B2T_CHECK(cudaFree(d_y2));
  B2T_CHECK(cudaFree(managed));
  printf("launches %d, %d wrong\n", launches, wrong);
  printf("%s runtime_api\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
#endif
