// Warp shuffles and votes: per-warp sum with __shfl_down_sync, all-reduce max with
// __shfl_xor_sync, broadcast with __shfl_sync, inclusive scan with __shfl_up_sync,
// sub-warp (width 8) sums, and __ballot_sync/__all_sync/__any_sync.
#include "b2t_cuda.h"

constexpr unsigned kFull = 0xffffffffu;

extern "C" __global__ void warp_ops(const int* __restrict__ in, int* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int v = in[i];

  int sum = v;  // lane 0 ends with the warp's sum
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(kFull, sum, offset);

  int biggest = v;  // every lane ends with the warp's maximum
  for (int mask = warpSize / 2; mask > 0; mask /= 2)
    biggest = max(biggest, __shfl_xor_sync(kFull, biggest, mask));

  const int first = __shfl_sync(kFull, v, 0);

  int scan = v;
  for (int offset = 1; offset < warpSize; offset *= 2) {
    const int other = __shfl_up_sync(kFull, scan, offset);
    if (lane >= offset) scan += other;
  }

  float part = static_cast<float>(v);  // sums over groups of 8 lanes
  for (int offset = 4; offset > 0; offset /= 2) part += __shfl_xor_sync(kFull, part, offset, 8);

  const unsigned odd = __ballot_sync(kFull, v % 2 != 0);
  const int all_small = __all_sync(kFull, v < 1000);
  const int any_big = __any_sync(kFull, v > 90);

  out[i * 8 + 0] = __shfl_sync(kFull, sum, 0);
  out[i * 8 + 1] = biggest;
  out[i * 8 + 2] = first;
  out[i * 8 + 3] = scan;
  out[i * 8 + 4] = static_cast<int>(part);
  out[i * 8 + 5] = static_cast<int>(odd);
  out[i * 8 + 6] = all_small;
  out[i * 8 + 7] = any_big;
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <vector>

int main() {
  const int threads = 128, blocks = 3, n = threads * blocks;
  std::vector<int> in(n), out(n * 8);
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 97;
  int *d_in, *d_out;
  B2T_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  B2T_CHECK(cudaMalloc(&d_out, out.size() * sizeof(int)));
  B2T_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  B2T_LAUNCH(warp_ops, blocks, threads, 0)(d_in, d_out);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_in));
  B2T_CHECK(cudaFree(d_out));
  int wrong = 0;
  for (int w = 0; w < n / 32; ++w) {
    const int* v = &in[w * 32];
    int sum = 0, biggest = 0, scan = 0;
    unsigned odd = 0;
    bool all_small = true, any_big = false;
    for (int l = 0; l < 32; ++l) {
      sum += v[l];
      biggest = std::max(biggest, v[l]);
      odd |= (v[l] % 2 != 0 ? 1u : 0u) << l;
      all_small = all_small && v[l] < 1000;
      any_big = any_big || v[l] > 90;
    }
    for (int l = 0; l < 32; ++l) {
      const int* o = &out[(w * 32 + l) * 8];
      scan += v[l];
      int part = 0;
      for (int g = l / 8 * 8; g < l / 8 * 8 + 8; ++g) part += v[g];
      const int expected[8] = {sum,       biggest, v[0], scan, part, static_cast<int>(odd),
                               all_small, any_big};
      for (int j = 0; j < 8; ++j) wrong += o[j] != expected[j];
    }
  }
  printf("%s warp_ops (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong ? 1 : 0;
}
#endif
