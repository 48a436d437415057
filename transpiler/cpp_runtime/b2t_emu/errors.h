// cudaError_t with CUDA's numbers, names and messages, and the runtime's "last error".
#pragma once

#include <cstdio>
#include <cstdlib>

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;

inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInitializationError:
      return "initialization error";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInvalidSymbol:
      return "invalid device symbol";
    case cudaErrorInvalidDevicePointer:
      return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection:
      return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction:
      return "invalid device function";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle:
      return "invalid resource handle";
    case cudaErrorNotReady:
      return "device not ready";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
    default:
      return "unknown error";
  }
}

inline const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define B2T_EMU_NAME(x) \
  case x:               \
    return #x;
    B2T_EMU_NAME(cudaSuccess)
    B2T_EMU_NAME(cudaErrorInvalidValue)
    B2T_EMU_NAME(cudaErrorMemoryAllocation)
    B2T_EMU_NAME(cudaErrorInitializationError)
    B2T_EMU_NAME(cudaErrorInvalidConfiguration)
    B2T_EMU_NAME(cudaErrorInvalidSymbol)
    B2T_EMU_NAME(cudaErrorInvalidDevicePointer)
    B2T_EMU_NAME(cudaErrorInvalidMemcpyDirection)
    B2T_EMU_NAME(cudaErrorInvalidDeviceFunction)
    B2T_EMU_NAME(cudaErrorNoDevice)
    B2T_EMU_NAME(cudaErrorInvalidDevice)
    B2T_EMU_NAME(cudaErrorInvalidResourceHandle)
    B2T_EMU_NAME(cudaErrorNotReady)
    B2T_EMU_NAME(cudaErrorIllegalAddress)
    B2T_EMU_NAME(cudaErrorLaunchFailure)
#undef B2T_EMU_NAME
    default:
      return "cudaErrorUnknown";
  }
}

namespace b2t_emu {

// Only the host thread calls the runtime API, so the last error is one global.
inline cudaError_t last_error = cudaSuccess;

inline cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

// For misuse the GPU would punish with a hang or garbage: say what and stop.
[[noreturn]] inline void fatal(const char* what) {
  std::fflush(stdout);
  std::fprintf(stderr, "b2t_cuda_emu: %s\n", what);
  std::abort();
}

}  // namespace b2t_emu

inline cudaError_t cudaGetLastError() {
  const cudaError_t e = b2t_emu::last_error;
  b2t_emu::last_error = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError() { return b2t_emu::last_error; }
