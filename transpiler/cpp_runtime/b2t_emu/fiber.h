// Fibers: user-level threads with their own stacks, switched cooperatively.
//
// A CUDA thread is a fiber.  A block's fibers run on one OS thread and switch only at
// barriers, so a barrier costs a few nanoseconds per thread instead of an OS context switch
// (measured on 2 cores: OS threads + std::barrier took 0.6 ms per barrier for a 256-thread
// block; glibc swapcontext takes 0.6 us per round trip, it makes a system call).
// x86-64 uses the hand-written switch below; other targets fall back to <ucontext.h>
// (define B2T_EMU_UCONTEXT to force it): correct, but about 15 times slower per barrier.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if !defined(__x86_64__) && !defined(B2T_EMU_UCONTEXT)
#define B2T_EMU_UCONTEXT 1
#endif

#if defined(B2T_EMU_UCONTEXT)
#include <ucontext.h>
#else
// b2t_emu_switch(&from_sp, to_sp): push the callee-saved registers and the x87/SSE control
// words on this stack, save the stack pointer in *from_sp, load to_sp, pop the same
// layout there and return into that context.  b2t_emu_fiber_entry is where a fresh stack
// first "returns" to: it calls the entry function held in r13.  Weak, so that two
// translation units including this header still link.
extern "C" void b2t_emu_switch(void** from_sp, void* to_sp);
extern "C" void b2t_emu_fiber_entry();
asm(R"(
    .text
    .weak b2t_emu_switch
    .type b2t_emu_switch, @function
b2t_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    fldcw (%rsp)
    ldmxcsr 8(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size b2t_emu_switch, .-b2t_emu_switch

    .weak b2t_emu_fiber_entry
    .type b2t_emu_fiber_entry, @function
b2t_emu_fiber_entry:
    callq *%r13
    ud2
    .size b2t_emu_fiber_entry, .-b2t_emu_fiber_entry
)");
#endif

namespace b2t_emu {

#ifndef B2T_EMU_STACK_SIZE
#define B2T_EMU_STACK_SIZE (256 * 1024)  // per CUDA thread; reserved, touched pages only
#endif

// A saved execution context: where to resume a fiber (or the scheduler).
class Context {
 public:
  // Prepare a context that, when first switched to, calls entry() on the given stack.
  // entry must never return.
  void start(void* stack_lo, std::size_t size, void (*entry)()) {
#if defined(B2T_EMU_UCONTEXT)
    getcontext(&uc_);
    uc_.uc_stack.ss_sp = stack_lo;
    uc_.uc_stack.ss_size = size;
    uc_.uc_link = nullptr;
    makecontext(&uc_, entry, 0);
#else
    auto top = (reinterpret_cast<std::uintptr_t>(stack_lo) + size) & ~std::uintptr_t{15};
    auto* frame = reinterpret_cast<std::uint64_t*>(top - 24 - 64);  // see b2t_emu_switch
    std::uint32_t mxcsr;
    std::uint16_t fcw;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fcw));
    frame[0] = fcw;
    frame[1] = mxcsr;
    frame[2] = frame[3] = 0;                            // r15, r14
    frame[4] = reinterpret_cast<std::uint64_t>(entry);  // r13: called by the entry stub
    frame[5] = frame[6] = frame[7] = 0;                 // r12, rbx, rbp
    frame[8] = reinterpret_cast<std::uint64_t>(&b2t_emu_fiber_entry);  // return address
    sp_ = frame;  // after `ret` the stack pointer is 16-byte aligned for the call
#endif
  }

  // Save the running context into `from` and resume `to`.
  static void jump(Context& from, Context& to) {
#if defined(B2T_EMU_UCONTEXT)
    swapcontext(&from.uc_, &to.uc_);
#else
    b2t_emu_switch(&from.sp_, to.sp_);
#endif
  }

 private:
#if defined(B2T_EMU_UCONTEXT)
  ucontext_t uc_;  // not movable: glibc points into it; fibers live behind unique_ptr
#else
  void* sp_ = nullptr;
#endif
};

// A fiber stack with a guard page below it, so an overflow faults instead of corrupting
// the neighbouring stack.
class Stack {
 public:
  Stack() {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (B2T_EMU_STACK_SIZE + page - 1) / page * page + page;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "b2t_cuda_emu: cannot map a %zu-byte thread stack\n", size_);
      std::abort();
    }
    mprotect(p, page, PROT_NONE);
    base_ = static_cast<char*>(p);
    page_ = page;
  }
  ~Stack() { munmap(base_, size_); }
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  void* lo() const { return base_ + page_; }
  std::size_t size() const { return size_ - page_; }

 private:
  char* base_ = nullptr;
  std::size_t size_ = 0, page_ = 0;
};

}  // namespace b2t_emu
