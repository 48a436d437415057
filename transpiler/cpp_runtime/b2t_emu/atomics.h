// Atomics through std::atomic_ref: exactly the overloads CUDA has (CUDA has no float or
// double atomicMax/atomicMin; b2t_cuda.h offers b2t_atomic_max/min built on atomicCAS).
#pragma once

#include <atomic>

namespace b2t_emu {
template <class T>
std::atomic_ref<T> atomic_at(T* address) {
  return std::atomic_ref<T>(*address);
}
template <class T, class F>
T atomic_update(T* address, F f) {  // CAS loop for the operations std::atomic lacks
  auto a = atomic_at(address);
  T old = a.load();
  while (!a.compare_exchange_weak(old, f(old))) {
  }
  return old;
}
}  // namespace b2t_emu

#define B2T_EMU_ATOMIC_ADD_SUB(T) \
  inline T atomicAdd(T* a, T v) { return b2t_emu::atomic_at(a).fetch_add(v); }
B2T_EMU_ATOMIC_ADD_SUB(int)
B2T_EMU_ATOMIC_ADD_SUB(unsigned int)
B2T_EMU_ATOMIC_ADD_SUB(unsigned long long)
B2T_EMU_ATOMIC_ADD_SUB(float)
B2T_EMU_ATOMIC_ADD_SUB(double)
#undef B2T_EMU_ATOMIC_ADD_SUB
inline int atomicSub(int* a, int v) { return b2t_emu::atomic_at(a).fetch_sub(v); }
inline unsigned atomicSub(unsigned* a, unsigned v) { return b2t_emu::atomic_at(a).fetch_sub(v); }

#define B2T_EMU_ATOMIC_INT(T)                                                   \
  inline T atomicMax(T* a, T v) {                                               \
    return b2t_emu::atomic_update(a, [v](T old) { return old < v ? v : old; }); \
  }                                                                             \
  inline T atomicMin(T* a, T v) {                                               \
    return b2t_emu::atomic_update(a, [v](T old) { return v < old ? v : old; }); \
  }                                                                             \
  inline T atomicAnd(T* a, T v) { return b2t_emu::atomic_at(a).fetch_and(v); }  \
  inline T atomicOr(T* a, T v) { return b2t_emu::atomic_at(a).fetch_or(v); }    \
  inline T atomicXor(T* a, T v) { return b2t_emu::atomic_at(a).fetch_xor(v); }
B2T_EMU_ATOMIC_INT(int)
B2T_EMU_ATOMIC_INT(unsigned int)
B2T_EMU_ATOMIC_INT(unsigned long long)
#undef B2T_EMU_ATOMIC_INT
inline long long atomicMax(long long* a, long long v) {
  return b2t_emu::atomic_update(a, [v](long long old) { return old < v ? v : old; });
}
inline long long atomicMin(long long* a, long long v) {
  return b2t_emu::atomic_update(a, [v](long long old) { return v < old ? v : old; });
}

#define B2T_EMU_ATOMIC_CAS_EXCH(T)                               \
  inline T atomicCAS(T* a, T compare, T val) {                   \
    b2t_emu::atomic_at(a).compare_exchange_strong(compare, val); \
    return compare;                                              \
  }                                                              \
  inline T atomicExch(T* a, T v) { return b2t_emu::atomic_at(a).exchange(v); }
B2T_EMU_ATOMIC_CAS_EXCH(int)
B2T_EMU_ATOMIC_CAS_EXCH(unsigned int)
B2T_EMU_ATOMIC_CAS_EXCH(unsigned long long)
#undef B2T_EMU_ATOMIC_CAS_EXCH
inline float atomicExch(float* a, float v) { return b2t_emu::atomic_at(a).exchange(v); }
inline unsigned atomicInc(unsigned* a, unsigned limit) {
  return b2t_emu::atomic_update(a, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* a, unsigned limit) {
  return b2t_emu::atomic_update(
      a, [limit](unsigned old) { return (old == 0 || old > limit) ? limit : old - 1; });
}
