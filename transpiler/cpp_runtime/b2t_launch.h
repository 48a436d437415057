// b2t_launch.h -- the host side of the kernel launches of basic2tile's generated programs.
//
// A legacy BASIC program whose loops became kernels includes it after b2t_runtime.h: the
// device copy of each BASIC array (DeviceArray), the scratch arrays of one launch
// (DeviceTemp) and the iteration count of an offloaded FOR loop (loop_count).  Written
// beside the generated .cu, like b2t_cuda.h and b2t_runtime.h; host code only (not for
// NVRTC), on CUDA's runtime API or basic2tile's CPU emulator of it.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "b2t_runtime.h"

namespace b2t {

// The device copy of a BASIC array.  Host code works on the b2t::Array; upload() before a
// launch copies it in when host code may have changed it, written() after a launch that
// changed it, download() before host code uses it again.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    cudaFree(data_);
    cudaFree(saved_);
  }

  T* upload(b2t::Array<T>& host) {
    if (size_ != host.size()) {  // first use, or a DIM gave it another size
      B2T_CHECK(cudaFree(data_));
      data_ = nullptr;
      size_ = host.size();
      if (size_ > 0) B2T_CHECK(cudaMalloc(&data_, sizeof(T) * size_));
      host_newer_ = true;
    }
    if (host_newer_ && size_ > 0) {
      B2T_CHECK(cudaMemcpy(data_, host.data(), sizeof(T) * size_, cudaMemcpyHostToDevice));
    }
    host_newer_ = false;
    return data_;
  }

  void written() { device_newer_ = true; }

  // A launch whose kernel writes the array in place saves it first (after uploading
  // host changes); restore() undoes the launch when a block met an exception.
  void save(b2t::Array<T>& host) {
    upload(host);
    if (saved_size_ != size_) {
      B2T_CHECK(cudaFree(saved_));
      saved_ = nullptr;
      saved_size_ = size_;
      if (size_ > 0) B2T_CHECK(cudaMalloc(&saved_, sizeof(T) * size_));
    }
    if (size_ > 0) B2T_CHECK(cudaMemcpy(saved_, data_, sizeof(T) * size_, cudaMemcpyDeviceToDevice));
  }

  void restore() {
    if (size_ > 0) B2T_CHECK(cudaMemcpy(data_, saved_, sizeof(T) * size_, cudaMemcpyDeviceToDevice));
    device_newer_ = true;
  }

  void download(b2t::Array<T>& host) {
    if (device_newer_ && size_ == host.size() && size_ > 0) {
      B2T_CHECK(cudaMemcpy(host.data(), data_, sizeof(T) * size_, cudaMemcpyDeviceToHost));
    }
    device_newer_ = false;
    host_newer_ = true;  // host code may change it from now on
  }

 private:
  T* data_ = nullptr;
  T* saved_ = nullptr;
  std::size_t size_ = 0, saved_size_ = 0;
  bool host_newer_ = true, device_newer_ = false;
};

// A scratch array of one launch (the blocks' partial results, the error flag): zeros on
// the device; download() brings the values the kernel wrote to the host.
template <class T>
class DeviceTemp {
 public:
  explicit DeviceTemp(int size) : values_(static_cast<std::size_t>(size > 0 ? size : 0)) {
    if (!values_.empty()) {
      B2T_CHECK(cudaMalloc(&data_, sizeof(T) * values_.size()));
      B2T_CHECK(cudaMemset(data_, 0, sizeof(T) * values_.size()));
    }
  }
  DeviceTemp(const DeviceTemp&) = delete;
  DeviceTemp& operator=(const DeviceTemp&) = delete;
  ~DeviceTemp() { cudaFree(data_); }

  T* data() { return data_; }
  int size() const { return static_cast<int>(values_.size()); }
  void download() {
    if (!values_.empty()) {
      B2T_CHECK(cudaMemcpy(values_.data(), data_, sizeof(T) * values_.size(), cudaMemcpyDeviceToHost));
    }
  }
  T operator[](int i) const { return values_[static_cast<std::size_t>(i)]; }
  // Whether every value (of [begin, end)) is nonzero: every block finished, for a
  // launch's flags.
  bool all() const { return all(0, size()); }
  bool all(int begin, int end) const {
    for (int i = begin; i < end; ++i)
      if (values_[static_cast<std::size_t>(i)] == 0) return false;
    return true;
  }
  // `total` plus (minus) the blocks' results, one at a time in block order, in double:
  // each step is BASIC's + (-), which reports an overflow of the running total.
  double added_to(double total) const {
    for (T v : values_) total = b2t::add(total, v);
    return total;
  }
  double subtracted_from(double total) const {
    for (T v : values_) total = b2t::sub(total, v);
    return total;
  }
  // Microsoft BASIC: whether `total + v` (`subtract`: `-`) for each value in turn, each
  // result rounded to its type, fits GW-BASIC's range (msnumbers.totals_fit).
  bool totals_fit(double total, bool single, bool subtract) const {
    for (T v : values_) {
      const double x = subtract ? total - v : total + v;
      if (!b2t::fits(x, single))
        return false;
      total = single ? b2t::sng(x) : b2t::dbl(x);
    }
    return true;
  }

 private:
  std::vector<T> values_;
  T* data_ = nullptr;
};

// The number of iterations of FOR v = start TO limit STEP step (ECMA-55; start and step
// are integers, the limit is evaluated once).
inline int loop_count(int start, double limit, int step) {
  // A loop whose lanes would pass 32-bit values (a NaN limit never ends it) is fatal
  // rather than silently shorter or wrong (runtime/extended.py loop_count).
  const double n = std::floor((limit - start) / step) + 1.0;
  if (std::isnan(n) || n * std::abs(step) > 1073741824.0)
    throw b2t::Fault("FOR loop too long for one kernel launch",
                     "(limit " + b2t::format_number_trimmed(limit) + ")");
  return n > 0.0 ? static_cast<int>(n) : 0;
}

}  // namespace b2t
