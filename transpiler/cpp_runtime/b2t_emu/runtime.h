// The CUDA runtime API subset host code uses.  Device memory is host memory; the emulator
// records cudaMalloc'd ranges so that cudaMemcpy/cudaMemset check directions and bounds
// (a copy the GPU would refuse fails here too), and fills fresh device memory with 0xFF
// bytes (NaN, -1) so that a program relying on zeroed device memory fails here too.
// Everything is synchronous: streams and events exist so that host code compiles.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <thread>

#include "errors.h"
#include "launch.h"

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
typedef struct CUevent_st* cudaEvent_t;

#define cudaMemAttachGlobal 0x01
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  std::size_t sharedMemPerBlockOptin;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int multiProcessorCount;
  int major;
  int minor;
};

namespace b2t_emu {
enum class Space { device, managed, pinned_host };
struct Allocation {
  std::size_t size;
  Space space;
};
// Base address -> allocation, to check cudaMemcpy directions and bounds.
// Never destroyed: it keeps device memory a program did not free reachable (as the GPU
// frees it at exit), so LeakSanitizer does not report it.
inline std::map<std::uintptr_t, Allocation>& allocations() {
  static auto* table = new std::map<std::uintptr_t, Allocation>;
  return *table;
}
// The allocation whose [base, base + size) holds p, and p's offset in it.
inline const Allocation* containing(const void* p, std::size_t* offset) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto& table = allocations();
  auto it = table.upper_bound(addr);
  if (it == table.begin()) return nullptr;
  --it;
  *offset = addr - it->first;
  return *offset < it->second.size ? &it->second : nullptr;
}
inline bool in_device_memory(const void* p, std::size_t count) {
  std::size_t offset = 0;
  const Allocation* a = containing(p, &offset);
  return a && a->space != Space::pinned_host && offset + count <= a->size;
}
inline bool in_host_memory(const void* p, std::size_t count) {
  std::size_t offset = 0;
  const Allocation* a = containing(p, &offset);
  if (!a) return p != nullptr;  // ordinary host memory: not ours to bound-check
  return a->space != Space::device && offset + count <= a->size;
}
inline cudaError_t allocate(void** ptr, std::size_t size, Space space) {
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  // The exact size, so that -fsanitize=address catches a kernel running off the end.
  void* p = ::operator new(size, std::align_val_t(256), std::nothrow);
  if (!p) return record(cudaErrorMemoryAllocation);
  if (space == Space::device) std::memset(p, 0xFF, size);  // not zeroed on the GPU either
  allocations()[reinterpret_cast<std::uintptr_t>(p)] = Allocation{size, space};
  *ptr = p;
  return cudaSuccess;
}
inline cudaError_t release(void* p, bool host) {
  if (!p) return cudaSuccess;
  auto it = allocations().find(reinterpret_cast<std::uintptr_t>(p));
  if (it == allocations().end() || (it->second.space == Space::pinned_host) != host)
    return record(host ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer);
  allocations().erase(it);
  ::operator delete(p, std::align_val_t(256));
  return cudaSuccess;
}
struct Event {
  std::chrono::steady_clock::time_point when{};
};
}  // namespace b2t_emu

struct CUstream_st {};
struct CUevent_st : b2t_emu::Event {};

inline cudaError_t cudaMalloc(void** ptr, std::size_t size) {
  return b2t_emu::allocate(ptr, size, b2t_emu::Space::device);
}
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), size);
}
inline cudaError_t cudaMallocManaged(void** ptr, std::size_t size, unsigned = cudaMemAttachGlobal) {
  return b2t_emu::allocate(ptr, size, b2t_emu::Space::managed);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t size, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
inline cudaError_t cudaMallocHost(void** ptr, std::size_t size) {
  return b2t_emu::allocate(ptr, size, b2t_emu::Space::pinned_host);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
inline cudaError_t cudaFree(void* p) { return b2t_emu::release(p, false); }
inline cudaError_t cudaFreeHost(void* p) { return b2t_emu::release(p, true); }

inline cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  using namespace b2t_emu;
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return record(cudaErrorInvalidValue);
  bool ok = true;
  switch (kind) {
    case cudaMemcpyHostToHost:
      ok = in_host_memory(dst, count) && in_host_memory(src, count);
      break;
    case cudaMemcpyHostToDevice:
      ok = in_device_memory(dst, count) && in_host_memory(src, count);
      break;
    case cudaMemcpyDeviceToHost:
      ok = in_host_memory(dst, count) && in_device_memory(src, count);
      break;
    case cudaMemcpyDeviceToDevice:
      ok = in_device_memory(dst, count) && in_device_memory(src, count);
      break;
    case cudaMemcpyDefault:
      break;
    default:
      return record(cudaErrorInvalidMemcpyDirection);
  }
  if (!ok) return record(cudaErrorInvalidValue);
  std::memmove(dst, src, count);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count,
                                   cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, count, kind);
}
inline cudaError_t cudaMemset(void* p, int value, std::size_t count) {
  if (count == 0) return cudaSuccess;
  if (!b2t_emu::in_device_memory(p, count)) return b2t_emu::record(cudaErrorInvalidValue);
  std::memset(p, value, count);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int value, std::size_t count, cudaStream_t = nullptr) {
  return cudaMemset(p, value, count);
}
// __device__ / __constant__ variables are ordinary globals here.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t count,
                               std::size_t offset = 0, cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + count > sizeof(T)) return b2t_emu::record(cudaErrorInvalidValue);
  std::memcpy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, count);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t count,
                                 std::size_t offset = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + count > sizeof(T)) return b2t_emu::record(cudaErrorInvalidValue);
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, count);
  return cudaSuccess;
}

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int* n) {
  if (!n) return b2t_emu::record(cudaErrorInvalidValue);
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) {
  return d == 0 ? cudaSuccess : b2t_emu::record(cudaErrorInvalidDevice);
}
inline cudaError_t cudaGetDevice(int* d) {
  if (!d) return b2t_emu::record(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return b2t_emu::record(cudaErrorInvalidValue);
  if (d != 0) return b2t_emu::record(cudaErrorInvalidDevice);
  *p = cudaDeviceProp{};
  std::snprintf(p->name, sizeof p->name, "b2t CPU emulator");
  p->totalGlobalMem = std::size_t{1} << 32;
  p->sharedMemPerBlock = b2t_emu::kDefaultDynamicShared;
  p->sharedMemPerBlockOptin = b2t_emu::kMaxDynamicShared;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
  p->multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p->major = 9;
  p->minor = 0;
  return cudaSuccess;
}
template <class... P>
cudaError_t cudaFuncSetAttribute(void (*kernel)(P...), cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || static_cast<std::size_t>(value) > b2t_emu::kMaxDynamicShared)
      return b2t_emu::record(cudaErrorInvalidValue);
    b2t_emu::dynamic_shared_limits()[reinterpret_cast<const void*>(kernel)] =
        static_cast<std::size_t>(value);
  }
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
  if (!s) return b2t_emu::record(cudaErrorInvalidValue);
  *s = new CUstream_st;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  delete s;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  if (!e) return b2t_emu::record(cudaErrorInvalidValue);
  *e = new CUevent_st;
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  if (!e) return b2t_emu::record(cudaErrorInvalidResourceHandle);
  e->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!ms || !start || !stop) return b2t_emu::record(cudaErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(stop->when - start->when).count();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
