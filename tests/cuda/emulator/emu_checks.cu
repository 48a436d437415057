// Emulator behaviour that a GPU-valid test program cannot show (deadlocks, misuse, error
// codes).  `emu_checks MODE` runs one check; tests/test_cuda_emu.py judges the output.
// Not compiled for the GPU: some modes are deliberately wrong CUDA.
#include <chrono>
#include <cstring>
#include <vector>

#include "b2t_cuda.h"

extern "C" __global__ void sum_with_early_exit(const int* in, int* out, int n) {
  __shared__ int total;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  if (i >= n) return;  // the rest still meet at the barrier below
  atomicAdd(&total, in[i]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, total);
}

extern "C" __global__ void divergent_barriers(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16)
    v = __shfl_down_sync(0xffffffffu, v, 1);  // lanes 16..31 never come
  else
    __syncthreads();
  out[threadIdx.x] = v;
}

extern "C" __global__ void partial_mask(int* out) {
  out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 1);
}

// Reads the neighbour's shared slot without a __syncthreads() in between: a bug that
// first-to-last thread order hides and last-to-first order exposes.
extern "C" __global__ void missing_barrier(int* out) {
  __shared__ int slot[64];
  slot[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  out[threadIdx.x] = threadIdx.x > 0 ? slot[threadIdx.x - 1] : 0;
}

extern "C" __global__ void shared_echo(int* out) {
  B2T_DYNAMIC_SHARED(int, buffer);
  buffer[threadIdx.x * 32] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = buffer[(blockDim.x - 1 - threadIdx.x) * 32];
}

extern "C" __global__ void barrier_heavy(float* x, int n) {
  __shared__ float s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (static_cast<int>(threadIdx.x) < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) x[blockIdx.x] = s[0];
}

static int early_return() {
  const int n = 1000;  // 4 blocks of 256: the last one has 24 threads past the end
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i;
  int *d_in, *d_out, out = 0;
  B2T_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  B2T_CHECK(cudaMalloc(&d_out, sizeof(int)));
  B2T_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemset(d_out, 0, sizeof(int)));
  B2T_LAUNCH(sum_with_early_exit, 4, 256, 0)(d_in, d_out, n);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(&out, d_out, sizeof(int), cudaMemcpyDeviceToHost));
  printf("sum %d\n", out);
  return 0;
}

static int run_one_warp(void (*kernel)(int*)) {
  int* d_out;
  B2T_CHECK(cudaMalloc(&d_out, 64 * sizeof(int)));
  B2T_LAUNCH(kernel, 1, 64, 0)(d_out);
  B2T_CHECK(cudaGetLastError());
  std::vector<int> out(64);
  B2T_CHECK(cudaMemcpy(out.data(), d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 1; t < 64; ++t) wrong += out[t] != (t - 1) * 3;
  printf("neighbours wrong %d\n", wrong);
  return 0;
}

static int bad_memcpy() {
  int* d = nullptr;
  int host[4] = {1, 2, 3, 4};
  B2T_CHECK(cudaMalloc(&d, sizeof host));
  B2T_CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice));  // CHECK-FAILS-HERE
  printf("not reached\n");
  return 0;
}

static int memory_errors() {
  int* d = nullptr;
  int host[8] = {};
  B2T_CHECK(cudaMalloc(&d, 4 * sizeof(int)));
  printf("poison %d\n", [&] {
    B2T_CHECK(cudaMemcpy(host, d, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    return host[0];
  }());
  printf("overflow %s\n",
         cudaGetErrorName(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost)));
  printf("last %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("cleared %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("memset_host %s\n", cudaGetErrorName(cudaMemset(host, 0, sizeof host)));
  printf("free_host %s\n", cudaGetErrorName(cudaFree(host)));
  printf("free %s\n", cudaGetErrorName(cudaFree(d)));
  printf("double_free %s\n", cudaGetErrorName(cudaFree(d)));
  int count = 0;
  B2T_CHECK(cudaGetDeviceCount(&count));
  printf("devices %d\n", count);
  return 0;
}

static int launch_errors() {
  int* d_out;
  const int threads = 512;
  B2T_CHECK(cudaMalloc(&d_out, threads * sizeof(int)));
  B2T_LAUNCH(shared_echo, 1, 2048, 0)(d_out);
  printf("block_2048 %s\n", cudaGetErrorName(cudaGetLastError()));
  B2T_LAUNCH(shared_echo, 0, 32, 0)(d_out);
  printf("grid_0 %s\n", cudaGetErrorName(cudaGetLastError()));
  const size_t big = threads * 32 * sizeof(int);  // 64 KiB: over the default 48 KiB
  B2T_LAUNCH(shared_echo, 1, threads, big)(d_out);
  printf("shmem_64k %s\n", cudaGetErrorName(cudaGetLastError()));
  B2T_CHECK(cudaFuncSetAttribute(shared_echo, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(big)));
  B2T_LAUNCH(shared_echo, 1, threads, big)(d_out);
  printf("shmem_64k_opt_in %s\n", cudaGetErrorName(cudaGetLastError()));
  std::vector<int> out(threads);
  B2T_CHECK(cudaMemcpy(out.data(), d_out, threads * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 0; t < threads; ++t) wrong += out[t] != threads - 1 - t;
  printf("echo wrong %d\n", wrong);
  return 0;
}

static int speed() {
  const int blocks = 4096, threads = 256, n = blocks * threads;
  float* d;
  B2T_CHECK(cudaMalloc(&d, n * sizeof(float)));
  std::vector<float> ones(n, 1.0f);
  B2T_CHECK(cudaMemcpy(d, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const auto start = std::chrono::steady_clock::now();
  B2T_LAUNCH(barrier_heavy, blocks, threads, 0)(d, n);
  B2T_CHECK(cudaGetLastError());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<float> sums(blocks);
  B2T_CHECK(cudaMemcpy(sums.data(), d, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (float s : sums) wrong += s != 256.0f;
  printf("speed %d blocks x %d threads x 9 barriers: %.3f s, wrong %d\n", blocks, threads, seconds,
         wrong);
  return 0;
}

extern "C" __global__ void iota(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

extern "C" __global__ void off_by_one(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;  // the bug: writes out[n]
}

static int out_of_bounds() {
  const int n = 100;
  int* d;
  B2T_CHECK(cudaMalloc(&d, n * sizeof(int)));
  B2T_LAUNCH(off_by_one, 1, 128, 0)(d, n);
  B2T_CHECK(cudaGetLastError());
  printf("no error seen\n");
  return 0;
}

static int from_stdin() {  // sums 0..n-1 on the device for n read from stdin
  int n = 0;
  if (scanf("%d", &n) != 1 || n <= 0) return 3;
  int* d;
  B2T_CHECK(cudaMalloc(&d, n * sizeof(int)));
  B2T_LAUNCH(iota, (n + 127) / 128, 128, 0)(d, n);
  B2T_CHECK(cudaGetLastError());
  std::vector<int> out(n);
  B2T_CHECK(cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int v : out) sum += v;
  printf("sum %lld\n", sum);
  return 0;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "early_return")) return early_return();
  if (!std::strcmp(mode, "deadlock")) return run_one_warp(divergent_barriers);
  if (!std::strcmp(mode, "partial_mask")) return run_one_warp(partial_mask);
  if (!std::strcmp(mode, "missing_barrier")) return run_one_warp(missing_barrier);
  if (!std::strcmp(mode, "bad_memcpy")) return bad_memcpy();
  if (!std::strcmp(mode, "memory_errors")) return memory_errors();
  if (!std::strcmp(mode, "launch_errors")) return launch_errors();
  if (!std::strcmp(mode, "speed")) return speed();
  if (!std::strcmp(mode, "stdin")) return from_stdin();
  if (!std::strcmp(mode, "out_of_bounds")) return out_of_bounds();
  fprintf(stderr, "unknown mode %s\n", mode);
  return 2;
}
