// Atomics on int/unsigned/unsigned long long/float/double, the float/double max/min
// helpers of b2t_cuda.h, dynamic shared memory, and __half/__nv_bfloat16 conversions and
// arithmetic.  The conversions are printed as bits for the Python test to check
// independently (numpy.float16, exact rational rounding for bfloat16).
#include "b2t_cuda.h"

extern "C" __global__ void atomics(int* ints, unsigned* uints, unsigned long long* ulls,
                                   float* floats, double* doubles, int* tickets, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int wobble = (i * 7919) % 1000 - 500;
  atomicAdd(&ints[0], 1);
  atomicSub(&ints[1], 2);
  atomicMax(&ints[2], wobble);
  atomicMin(&ints[3], wobble);
  int seen = ints[4];  // increment by compare-and-swap
  for (int assumed; (assumed = atomicCAS(&ints[4], seen, seen + 1)) != seen;) seen = assumed;
  atomicExch(&ints[5], i);
  tickets[atomicAdd(&ints[6], 1)] = i;

  atomicAdd(&uints[0], 3u);
  atomicMax(&uints[1], static_cast<unsigned>(i));
  atomicMin(&uints[2], static_cast<unsigned>(i) + 5u);
  atomicInc(&uints[3], 9u);
  atomicOr(&uints[4], 1u << (i % 32));
  atomicAnd(&uints[5], ~(1u << (i % 16)));
  atomicXor(&uints[6], static_cast<unsigned>(i));

  atomicAdd(&ulls[0], static_cast<unsigned long long>(i) << 20);

  atomicAdd(&floats[0], 0.5f);
  b2t_atomic_max(&floats[1], sinf(static_cast<float>(i)));
  b2t_atomic_min(&floats[2], sinf(static_cast<float>(i)));
  atomicAdd(&doubles[0], 0.25 * i);
  b2t_atomic_max(&doubles[1], cos(0.001 * i));
  b2t_atomic_min(&doubles[2], cos(0.001 * i));
}

// Reverses each block's slice through dynamic shared memory sized by the launch.
extern "C" __global__ void reverse_blocks(const float* __restrict__ in, float* __restrict__ out) {
  B2T_DYNAMIC_SHARED(float, buffer);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  buffer[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buffer[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void lowp(const float* __restrict__ in, unsigned short* __restrict__ bits,
                                float* __restrict__ back, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half h = __float2half(in[i]);
  const __nv_bfloat16 b = __float2bfloat16(in[i]);
  bits[i * 4 + 0] = __half_as_ushort(h);
  bits[i * 4 + 1] = __bfloat16_as_ushort(b);
  bits[i * 4 + 2] = __half_as_ushort(__hadd(h, __float2half(1.0f)));
  bits[i * 4 + 3] = __bfloat16_as_ushort(b * b);
  back[i * 2 + 0] = __half2float(h);
  back[i * 2 + 1] = __bfloat162float(b);
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

static int atomics_wrong() {
  const int n = 5000, threads = 256, blocks = (n + threads - 1) / threads;
  int ints[7] = {0, 0, -1000000, 1000000, 0, -1, 0};
  unsigned uints[7] = {0, 0, 0xffffffffu, 0, 0, 0xffffffffu, 0};
  unsigned long long ulls[1] = {0};
  float floats[3] = {0.0f, -2.0f, 2.0f};
  double doubles[3] = {0.0, -2.0, 2.0};
  int *d_ints, *d_tickets;
  unsigned* d_uints;
  unsigned long long* d_ulls;
  float* d_floats;
  double* d_doubles;
  B2T_CHECK(cudaMalloc(&d_ints, sizeof ints));
  B2T_CHECK(cudaMalloc(&d_uints, sizeof uints));
  B2T_CHECK(cudaMalloc(&d_ulls, sizeof ulls));
  B2T_CHECK(cudaMalloc(&d_floats, sizeof floats));
  B2T_CHECK(cudaMalloc(&d_doubles, sizeof doubles));
  B2T_CHECK(cudaMalloc(&d_tickets, n * sizeof(int)));
  B2T_CHECK(cudaMemcpy(d_ints, ints, sizeof ints, cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_uints, uints, sizeof uints, cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_ulls, ulls, sizeof ulls, cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_floats, floats, sizeof floats, cudaMemcpyHostToDevice));
  B2T_CHECK(cudaMemcpy(d_doubles, doubles, sizeof doubles, cudaMemcpyHostToDevice));
  B2T_LAUNCH(atomics, blocks, threads, 0)(d_ints, d_uints, d_ulls, d_floats, d_doubles, d_tickets,
                                          n);
  B2T_CHECK(cudaGetLastError());
  std::vector<int> tickets(n);
  B2T_CHECK(cudaMemcpy(ints, d_ints, sizeof ints, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(uints, d_uints, sizeof uints, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(ulls, d_ulls, sizeof ulls, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(floats, d_floats, sizeof floats, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(doubles, d_doubles, sizeof doubles, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(tickets.data(), d_tickets, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (void* p : {(void*)d_ints, (void*)d_uints, (void*)d_ulls, (void*)d_floats, (void*)d_doubles,
                  (void*)d_tickets})
    B2T_CHECK(cudaFree(p));

  int max_wobble = -1000, min_wobble = 1000;
  unsigned xor_all = 0, and_mask = 0xffffffffu;
  unsigned long long sum_shifted = 0;
  float max_sin = -2.0f, min_sin = 2.0f;
  double max_cos = -2.0, min_cos = 2.0;
  for (int i = 0; i < n; ++i) {
    max_wobble = std::max(max_wobble, (i * 7919) % 1000 - 500);
    min_wobble = std::min(min_wobble, (i * 7919) % 1000 - 500);
    xor_all ^= static_cast<unsigned>(i);
    and_mask &= ~(1u << (i % 16));
    sum_shifted += static_cast<unsigned long long>(i) << 20;
    max_sin = std::max(max_sin, std::sin(static_cast<float>(i)));
    min_sin = std::min(min_sin, std::sin(static_cast<float>(i)));
    max_cos = std::max(max_cos, std::cos(0.001 * i));
    min_cos = std::min(min_cos, std::cos(0.001 * i));
  }
  std::sort(tickets.begin(), tickets.end());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += tickets[i] != i;
  const bool checks[] = {ints[0] == n,
                         ints[1] == -2 * n,
                         ints[2] == max_wobble,
                         ints[3] == min_wobble,
                         ints[4] == n,
                         ints[5] >= 0 && ints[5] < n,
                         ints[6] == n,
                         uints[0] == 3u * n,
                         uints[1] == static_cast<unsigned>(n - 1),
                         uints[2] == 5u,
                         uints[3] == static_cast<unsigned>(n % 10),
                         uints[4] == 0xffffffffu,
                         uints[5] == and_mask,
                         uints[6] == xor_all,
                         ulls[0] == sum_shifted,
                         floats[0] == 0.5f * n,
                         std::fabs(floats[1] - max_sin) < 1e-6f,
                         std::fabs(floats[2] - min_sin) < 1e-6f,
                         doubles[0] == 0.25 * (n - 1.0) * n / 2,
                         std::fabs(doubles[1] - max_cos) < 1e-15,
                         std::fabs(doubles[2] - min_cos) < 1e-15};
  for (bool ok : checks) wrong += !ok;
  return wrong;
}

static int dynamic_shared_wrong() {
  const int threads = 192, blocks = 5, n = threads * blocks;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = 0.25f * i;
  float *d_in, *d_out;
  B2T_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  B2T_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  B2T_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  B2T_LAUNCH(reverse_blocks, blocks, threads, threads * sizeof(float))(d_in, d_out);
  B2T_CHECK(cudaGetLastError());
  B2T_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_in));
  B2T_CHECK(cudaFree(d_out));
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      wrong += out[b * threads + t] != in[b * threads + threads - 1 - t];
  return wrong;
}

static int lowp_wrong() {
  const float inputs[] = {0.0f,        -0.0f,          1.0f,           1.0f / 3.0f, -2.5f,
                          3.14159265f, 65504.0f,       65519.0f,       65520.0f,    1e-8f,
                          6e-8f,       1.00048828125f, 1.00146484375f, 1.00390625f, 1.01171875f,
                          1e38f,       3.3961e38f,     -123.456f,      0.1f,        1e-40f,
                          INFINITY,    -INFINITY};
  const int n = sizeof inputs / sizeof inputs[0];
  float* d_in;
  unsigned short* d_bits;
  float* d_back;
  B2T_CHECK(cudaMalloc(&d_in, sizeof inputs));
  B2T_CHECK(cudaMalloc(&d_bits, n * 4 * sizeof(unsigned short)));
  B2T_CHECK(cudaMalloc(&d_back, n * 2 * sizeof(float)));
  B2T_CHECK(cudaMemcpy(d_in, inputs, sizeof inputs, cudaMemcpyHostToDevice));
  B2T_LAUNCH(lowp, 1, 32, 0)(d_in, d_bits, d_back, n);
  B2T_CHECK(cudaGetLastError());
  std::vector<unsigned short> bits(n * 4);
  std::vector<float> back(n * 2);
  B2T_CHECK(cudaMemcpy(bits.data(), d_bits, bits.size() * 2, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaMemcpy(back.data(), d_back, back.size() * 4, cudaMemcpyDeviceToHost));
  B2T_CHECK(cudaFree(d_in));
  B2T_CHECK(cudaFree(d_bits));
  B2T_CHECK(cudaFree(d_back));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    unsigned in_bits;
    std::memcpy(&in_bits, &inputs[i], 4);
    printf("lowp %08x %04x %04x %04x %04x\n", in_bits, bits[i * 4], bits[i * 4 + 1],
           bits[i * 4 + 2], bits[i * 4 + 3]);
    // Host-side conversions must agree with the device's.
    wrong += __half_as_ushort(__float2half(inputs[i])) != bits[i * 4];
    wrong += __bfloat16_as_ushort(__float2bfloat16(inputs[i])) != bits[i * 4 + 1];
    wrong += __half2float(__float2half(inputs[i])) != back[i * 2] && !std::isnan(back[i * 2]);
    wrong += __bfloat162float(__float2bfloat16(inputs[i])) != back[i * 2 + 1];
  }
  return wrong;
}

int main() {
  const int a = atomics_wrong(), d = dynamic_shared_wrong(), l = lowp_wrong();
  printf("%s atomics_types (atomics: %d wrong, dynamic shared: %d wrong, lowp: %d wrong)\n",
         a || d || l ? "FAIL" : "PASS", a, d, l);
  return a || d || l ? 1 : 0;
}
#endif
