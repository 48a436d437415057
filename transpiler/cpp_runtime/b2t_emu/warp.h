// Warp-level primitives.  A warp is 32 consecutive linear thread indices of a block.  Each
// operation publishes this lane's value in the warp's exchange slots, waits at the warp
// barrier, reads, and waits again so that no lane overwrites a slot another has not read.
// Only full masks are emulated: every live lane of the warp must take part.
#pragma once

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "launch.h"

namespace b2t_emu {

inline void require_full_mask(unsigned mask, unsigned lanes, const char* fn) {
  const unsigned full = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
  if ((mask & full) != full) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "%s with mask 0x%08x: only full-warp masks are emulated (every lane of the "
                  "warp must take part)",
                  fn, mask);
    fatal(msg);
  }
}

// This lane's value goes out; the value of lane src_of(lane) comes back (this lane's own
// when that lane does not exist).
template <class T, class SrcOf>
T warp_exchange(unsigned mask, T value, SrcOf src_of, const char* fn) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes");
  Worker& w = Worker::here();
  const unsigned warp = w.tid() / 32, lane = w.tid() % 32, lanes = w.lanes_of_warp(warp);
  require_full_mask(mask, lanes, fn);
  unsigned long long* slots = w.warp_slots(warp);
  std::memcpy(&slots[lane], &value, sizeof(T));
  w.wait_at(Wait::warp_barrier);
  const int src = src_of(static_cast<int>(lane));
  T result = value;
  if (src >= 0 && static_cast<unsigned>(src) < lanes) std::memcpy(&result, &slots[src], sizeof(T));
  w.wait_at(Wait::warp_barrier);
  return result;
}

inline unsigned warp_ballot(unsigned mask, int predicate, const char* fn) {
  Worker& w = Worker::here();
  const unsigned warp = w.tid() / 32, lane = w.tid() % 32, lanes = w.lanes_of_warp(warp);
  require_full_mask(mask, lanes, fn);
  unsigned long long* slots = w.warp_slots(warp);
  slots[lane] = predicate != 0;
  w.wait_at(Wait::warp_barrier);
  unsigned bits = 0;
  for (unsigned l = 0; l < lanes; ++l) bits |= static_cast<unsigned>(slots[l]) << l;
  w.wait_at(Wait::warp_barrier);
  return bits & mask;
}

}  // namespace b2t_emu

inline void __syncwarp(unsigned mask = 0xffffffffu) {
  b2t_emu::Worker& w = b2t_emu::Worker::here();
  b2t_emu::require_full_mask(mask, w.lanes_of_warp(w.tid() / 32), "__syncwarp");
  w.wait_at(b2t_emu::Wait::warp_barrier);
}

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return b2t_emu::warp_exchange(
      mask, var, [=](int lane) { return (lane & ~(width - 1)) | (src_lane & (width - 1)); },
      "__shfl_sync");
}

template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  const int d = static_cast<int>(delta);
  return b2t_emu::warp_exchange(
      mask, var, [=](int lane) { return (lane & (width - 1)) >= d ? lane - d : lane; },
      "__shfl_up_sync");
}

template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  const int d = static_cast<int>(delta);
  return b2t_emu::warp_exchange(
      mask, var, [=](int lane) { return (lane & (width - 1)) + d < width ? lane + d : lane; },
      "__shfl_down_sync");
}

template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  return b2t_emu::warp_exchange(
      mask, var,
      [=](int lane) {
        const int src = lane ^ lane_mask;
        return (src & ~(width - 1)) == (lane & ~(width - 1)) ? src : lane;
      },
      "__shfl_xor_sync");
}

inline unsigned __activemask() {
  b2t_emu::Worker& w = b2t_emu::Worker::here();
  const unsigned lanes = w.lanes_of_warp(w.tid() / 32);
  return lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
}

inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return b2t_emu::warp_ballot(mask, predicate, "__ballot_sync");
}
inline int __all_sync(unsigned mask, int predicate) {
  const unsigned voters = mask & __activemask();
  return b2t_emu::warp_ballot(mask, predicate, "__all_sync") == voters;
}
inline int __any_sync(unsigned mask, int predicate) {
  return b2t_emu::warp_ballot(mask, predicate, "__any_sync") != 0;
}
