// WMMA (nvcuda::wmma).  Each lane holds the whole tile in its fragment (x[] row-major,
// num_elements = rows * cols rather than the GPU's per-lane share) and computes the whole
#include <bit>
// product, so element-wise loops over frag.x[0..num_elements) stay correct.  Loads read
// memory in every lane; stores write from lane 0 and then synchronise the warp.
#pragma once

#include <algorithm>
#include <type_traits>

#include "lowp.h"
#include "warp.h"

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};  // TensorFloat-32 operands, held as float
}  // namespace precision

// What a fragment of element type T stores (tf32 fragments hold floats).
template <class T>
using storage_t = std::conditional_t<std::is_same_v<T, precision::tf32>, float, T>;

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static constexpr bool kLowp = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
  static constexpr bool kTf32 = std::is_same_v<T, precision::tf32> ||
                                (std::is_same_v<T, float> && M == 16 && N == 16 && K == 8);
  static_assert(kTf32 ? (M == 16 && N == 16 && K == 8)
                : (kLowp || std::is_same_v<T, float>)
                    ? ((M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) ||
                       (M == 8 && N == 32 && K == 16))
                    : (std::is_same_v<T, double> && M == 8 && N == 8 && K == 4),
                "emulated WMMA shapes: m16n16k16, m32n8k16, m8n32k16 (half, bf16 -> float or "
                "half), m16n16k8 (tf32 -> float) and m8n8k4 (double)");
  static_assert(std::is_same_v<Use, accumulator> == std::is_same_v<Layout, void>,
                "matrix_a/matrix_b fragments need row_major or col_major; accumulators none");

 public:
  static constexpr int rows = std::is_same_v<Use, matrix_b> ? K : M;
  static constexpr int cols = std::is_same_v<Use, matrix_a> ? K : N;
  static constexpr int num_elements = rows * cols;
  typedef storage_t<T> element_type;
  typedef storage_t<T> storage_element_type;
  storage_t<T> x[num_elements];
};

template <class Use, int M, int N, int K, class T, class L>
void fill_fragment(fragment<Use, M, N, K, T, L>& f, const std::type_identity_t<storage_t<T>>& v) {
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = v;
}

template <class Use, int M, int N, int K, class T, class L>
void load_matrix_sync(fragment<Use, M, N, K, T, L>& f, const storage_t<T>* p, unsigned ldm) {
  static_assert(!std::is_same_v<L, void>, "accumulator loads take a layout_t");
  using F = fragment<Use, M, N, K, T, L>;
  for (int r = 0; r < F::rows; ++r)
    for (int c = 0; c < F::cols; ++c)
      f.x[r * F::cols + c] = std::is_same_v<L, row_major> ? p[r * ldm + c] : p[c * ldm + r];
}

template <int M, int N, int K, class T>
void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm,
                      layout_t layout) {
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      f.x[r * N + c] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];
}

template <int M, int N, int K, class T>
void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm,
                       layout_t layout) {
  if (b2t_emu::Worker::here().tid() % 32 == 0)
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < N; ++c)
        (layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r]) = f.x[r * N + c];
  __syncwarp();
}

// d = a * b + c, products and sums in float (double for double tiles); d may alias c.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC>
void mma_sync(fragment<accumulator, M, N, K, TC>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
              const fragment<matrix_b, M, N, K, TB, LB>& b,
              const fragment<accumulator, M, N, K, TC>& c) {
  static_assert(std::is_same_v<TA, TB>, "matrix_a and matrix_b must have the same type");
  using Acc = std::conditional_t<std::is_same_v<TC, double>, double, float>;
  TC out[M * N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      Acc s = static_cast<Acc>(c.x[i * N + j]);
      for (int k = 0; k < K; ++k)
        s += static_cast<Acc>(a.x[i * K + k]) * static_cast<Acc>(b.x[k * N + j]);
      out[i * N + j] = TC(s);
    }
  std::copy(out, out + M * N, d.x);
}
}  // namespace wmma
}  // namespace nvcuda
