// Kernel launches: blocks spread over a pool of OS threads, the threads of a block run as
// fibers of one OS thread, __syncthreads() and warp barriers switch between fibers.
//
// Scheduling of one block: resume every runnable fiber in thread order until it reaches a
// barrier or returns; then release a barrier that every live thread (of the warp, or of
// the block) waits at, and sweep again.  A thread that returned counts as arrived, as on
// the GPU, so `if (i >= n) return;` before a __syncthreads() is fine.  When no barrier
// can be released the block is deadlocked (a __syncthreads() or warp operation that not
// every thread reaches): the emulator says so and aborts instead of hanging.
//
// Environment: B2T_EMU_WORKERS=n runs blocks on n OS threads (default: one per core; 1
// gives a fully deterministic run).  B2T_EMU_REVERSE=1 runs each block's threads last to
// first, which exposes a missing __syncthreads() that thread order happens to hide.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "builtins.h"
#include "errors.h"
#include "fiber.h"

typedef struct CUstream_st* cudaStream_t;

namespace b2t_emu {

inline constexpr unsigned kMaxThreadsPerBlock = 1024;
inline constexpr unsigned kMaxWarps = kMaxThreadsPerBlock / 32;
inline constexpr std::size_t kDefaultDynamicShared = 48 * 1024;  // without cudaFuncSetAttribute
inline constexpr std::size_t kMaxDynamicShared = 227 * 1024;     // sm_90's opt-in limit

inline unsigned env_unsigned(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v && *v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : fallback;
}

// One thread's work: call the kernel with the launch's arguments.
struct Task {
  void (*call)(const void*);
  const void* ctx;
};

// One launch, shared by the OS threads that run its blocks.
struct Grid {
  Task task;
  dim3 grid, block;
  std::size_t shmem;
  unsigned long long nblocks;
  std::atomic<unsigned long long> next_block{0};
};

enum class Wait : unsigned char { none, block_barrier, warp_barrier, done };

struct Fiber {
  Stack stack;
  Context context;
  uint3 thread_idx{0, 0, 0};
  Wait wait = Wait::none;
};

// The block runner of one OS thread: its fibers, and the per-block state they share.
class Worker {
 public:
  static Worker& here() {
    static thread_local Worker worker;
    return worker;
  }

  // Run blocks of `g` until none is left.
  void run(Grid& g) {
    prepare(g);
    const unsigned long long gx = g.grid.x, gxy = gx * g.grid.y;
    for (unsigned long long b;
         (b = g.next_block.fetch_add(1, std::memory_order_relaxed)) < g.nblocks;)
      run_block(uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>(b / gx % g.grid.y),
                      static_cast<unsigned>(b / gxy)});
  }

  // Called by the running fiber: wait at a barrier (or finish) and let the others run.
  void wait_at(Wait w) {
    Fiber* f = current_;
    f->wait = w;
    Context::jump(f->context, scheduler_);
  }

  unsigned tid() const { return current_tid_; }  // linear thread index in the block
  unsigned lanes_of_warp(unsigned warp) const { return std::min(32u, nthreads_ - warp * 32); }
  unsigned long long* warp_slots(unsigned warp) { return slots_[warp]; }
  void* dynamic_shared() { return shmem_ ? shared_base_ : nullptr; }

 private:
  Worker() = default;

  [[noreturn]] static void fiber_main() {
    Worker& w = here();
    for (;;) {  // a fiber is reused for one thread of every block this worker runs
      w.task_->call(w.task_->ctx);
      w.wait_at(Wait::done);
    }
  }

  void prepare(Grid& g) {
    task_ = &g.task;
    nthreads_ = g.block.x * g.block.y * g.block.z;
    blockDim = g.block;
    gridDim = g.grid;
    while (fibers_.size() < nthreads_) {
      fibers_.push_back(std::make_unique<Fiber>());
      Fiber& f = *fibers_.back();
      f.context.start(f.stack.lo(), f.stack.size(), &fiber_main);
    }
    for (unsigned t = 0; t < nthreads_; ++t)
      fibers_[t]->thread_idx =
          uint3{t % g.block.x, t / g.block.x % g.block.y, t / (g.block.x * g.block.y)};
    shmem_ = g.shmem;
    if (shared_buffer_.size() < shmem_ + 128) shared_buffer_.resize(shmem_ + 128);
    const auto addr = reinterpret_cast<std::uintptr_t>(shared_buffer_.data());
    shared_base_ = shared_buffer_.data() + (128 - addr % 128) % 128;
    reverse_ = env_unsigned("B2T_EMU_REVERSE", 0) != 0;
  }

  void resume(unsigned t) {
    current_ = fibers_[t].get();
    current_tid_ = t;
    threadIdx = current_->thread_idx;
    Context::jump(scheduler_, current_->context);
  }

  void run_block(uint3 idx) {
    blockIdx = idx;
    std::memset(shared_base_, 0xFF, shmem_);  // uninitialised on the GPU: NaN here
    for (unsigned t = 0; t < nthreads_; ++t) fibers_[t]->wait = Wait::none;
    unsigned live = nthreads_;
    for (;;) {
      for (unsigned i = 0; i < nthreads_; ++i) {
        const unsigned t = reverse_ ? nthreads_ - 1 - i : i;
        if (fibers_[t]->wait != Wait::none) continue;
        resume(t);
        if (fibers_[t]->wait == Wait::done) --live;
      }
      if (live == 0) return;
      release_barrier();
    }
  }

  // Every live fiber now waits.  Release a warp whose live lanes all wait at a warp
  // barrier, else the block if all wait at __syncthreads(), else report the deadlock.
  void release_barrier() {
    bool released = false;
    for (unsigned w = 0; w * 32 < nthreads_; ++w) {
      unsigned alive = 0, waiting = 0;
      for (unsigned t = w * 32; t < w * 32 + lanes_of_warp(w); ++t) {
        alive += fibers_[t]->wait != Wait::done;
        waiting += fibers_[t]->wait == Wait::warp_barrier;
      }
      if (alive == 0 || waiting != alive) continue;
      for (unsigned t = w * 32; t < w * 32 + lanes_of_warp(w); ++t)
        if (fibers_[t]->wait == Wait::warp_barrier) fibers_[t]->wait = Wait::none;
      released = true;
    }
    if (released) return;
    unsigned at_block = 0, at_warp = 0, done = 0;
    for (unsigned t = 0; t < nthreads_; ++t) {
      at_block += fibers_[t]->wait == Wait::block_barrier;
      at_warp += fibers_[t]->wait == Wait::warp_barrier;
      done += fibers_[t]->wait == Wait::done;
    }
    if (at_warp == 0) {
      for (unsigned t = 0; t < nthreads_; ++t)
        if (fibers_[t]->wait == Wait::block_barrier) fibers_[t]->wait = Wait::none;
      return;
    }
    char msg[300];
    std::snprintf(msg, sizeof msg,
                  "deadlock in block (%u,%u,%u): %u threads wait at __syncthreads(), %u at a "
                  "warp operation whose other lanes never arrive, %u have returned",
                  blockIdx.x, blockIdx.y, blockIdx.z, at_block, at_warp, done);
    fatal(msg);
  }

  std::vector<std::unique_ptr<Fiber>> fibers_;
  Context scheduler_;
  Fiber* current_ = nullptr;
  unsigned current_tid_ = 0;
  const Task* task_ = nullptr;
  unsigned nthreads_ = 0;
  bool reverse_ = false;
  std::size_t shmem_ = 0;
  std::vector<unsigned char> shared_buffer_;
  unsigned char* shared_base_ = nullptr;
  alignas(64) unsigned long long slots_[kMaxWarps][32];
};

// OS threads that run blocks next to the launching thread.  They sleep on `word_` (a
// generation counter, with the number of helpers wanted in its low bits).
class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
    return pool;
  }

  void run(Grid& g) {
    const unsigned helpers =
        static_cast<unsigned>(std::min<unsigned long long>(size_ - 1, g.nblocks - 1));
    grow(helpers);
    grid_ = &g;
    remaining_.store(helpers, std::memory_order_relaxed);
    if (helpers) {
      const std::uint64_t gen = (word_.load(std::memory_order_relaxed) >> kCountBits) + 1;
      word_.store((gen << kCountBits) | helpers, std::memory_order_release);
      word_.notify_all();
    }
    Worker::here().run(g);
    for (unsigned left; (left = remaining_.load(std::memory_order_acquire)) != 0;)
      remaining_.wait(left, std::memory_order_acquire);
  }

  ~Pool() {
    word_.store(kStop, std::memory_order_release);
    word_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  static constexpr unsigned kCountBits = 16;
  static constexpr std::uint64_t kStop = ~std::uint64_t{0};

  Pool() {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    size_ = std::clamp(env_unsigned("B2T_EMU_WORKERS", cores), 1u, 256u);
  }

  void grow(unsigned n) {
    // A new thread starts from the current word, so it cannot miss the launch to come.
    const std::uint64_t seen = word_.load(std::memory_order_relaxed);
    while (threads_.size() < n) {
      const unsigned id = static_cast<unsigned>(threads_.size()) + 1;
      threads_.emplace_back([this, id, seen] { serve(id, seen); });
    }
  }

  void serve(unsigned id, std::uint64_t seen) {
    for (;;) {
      word_.wait(seen, std::memory_order_acquire);
      seen = word_.load(std::memory_order_acquire);
      if (seen == kStop) return;
      // Only the low bits decide: a thread that sits this launch out must not read grid_,
      // which the host may already be rewriting for the next launch.
      if (id <= (seen & ((1u << kCountBits) - 1))) {
        Worker::here().run(*grid_);
        if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
      }
    }
  }

  unsigned size_ = 1;
  std::vector<std::thread> threads_;
  std::atomic<std::uint64_t> word_{0};
  std::atomic<unsigned> remaining_{0};
  Grid* grid_ = nullptr;
};

// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, n) raises one
// kernel's dynamic shared memory limit, as on the GPU.
inline std::unordered_map<const void*, std::size_t>& dynamic_shared_limits() {
  static std::unordered_map<const void*, std::size_t> limits;
  return limits;
}

inline cudaError_t check_config(dim3 grid, dim3 block, std::size_t shmem, const void* kernel) {
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads == 0 || threads > kMaxThreadsPerBlock || block.x > 1024 || block.y > 1024 ||
      block.z > 64)
    return cudaErrorInvalidConfiguration;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
      grid.z > 65535)
    return cudaErrorInvalidConfiguration;
  std::size_t limit = kDefaultDynamicShared;
  if (auto it = dynamic_shared_limits().find(kernel); it != dynamic_shared_limits().end())
    limit = it->second;
  return shmem > limit ? cudaErrorInvalidValue : cudaSuccess;
}

inline void run_grid(dim3 grid, dim3 block, std::size_t shmem, const void* kernel, Task task) {
  if (record(check_config(grid, block, shmem, kernel)) != cudaSuccess) return;
  Grid g;
  g.task = task;
  g.grid = grid;
  g.block = block;
  g.shmem = shmem;
  g.nblocks = 1ull * grid.x * grid.y * grid.z;
  Pool::instance().run(g);
}

// B2T_LAUNCH(kernel, grid, block, shmem[, stream])(args...) is
// b2t_emu::launch(kernel, grid, block, shmem[, stream])(args...).  The arguments are
// converted once to the kernel's parameter types, as a real launch copies them.
template <class... Params>
struct Launch {
  void (*kernel)(Params...);
  dim3 grid, block;
  std::size_t shmem;

  template <class... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "kernel launched with the wrong number of arguments");
    const std::tuple<std::decay_t<Params>...> values(std::forward<Args>(args)...);
    auto body = [&] { std::apply(kernel, values); };
    Task task{[](const void* f) { (*static_cast<const decltype(body)*>(f))(); }, &body};
    run_grid(grid, block, shmem, reinterpret_cast<const void*>(kernel), task);
  }
};

template <class... Params>
Launch<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shmem = 0,
                         cudaStream_t = nullptr) {
  return Launch<Params...>{kernel, grid, block, shmem};
}

inline void* dynamic_shared_memory() { return Worker::here().dynamic_shared(); }

}  // namespace b2t_emu

inline void __syncthreads() { b2t_emu::Worker::here().wait_at(b2t_emu::Wait::block_barrier); }
// Fibers of a block share one OS thread; blocks on other OS threads need real fences.
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
