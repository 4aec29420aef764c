// Stopping a long kernel: Ctrl-C, SIGTERM, or a caller that gives up on a running task.
//
// Kernels call interrupt::check() every few milliseconds of work at most (parallel_blocks does
// it before each block, so a parallel kernel needs nothing more; a sequential loop calls it
// every few thousand steps). check() throws Interrupted once a stop was asked for: never changes a
// result, only whether there is one. Two sources of stops:
//   - request_stop(), from any thread: every kernel running at that moment stops (a study's
//     main thread calls it when Ctrl-C leaves tasks running on its pools);
//   - the poll hook, which the Python module sets: called by check() at most every
//     kPollInterval on each thread, it runs Python's signal handlers on the main thread and
//     says whether one raised (KeyboardInterrupt, the CLI's SIGTERM exception). A true answer
//     is a request_stop() too, so the kernel's worker threads stop with it.
// A kernel started after a stop request runs normally: each kernel call is a Scope (the bindings'
// KernelRelease) that notes the stop count it began under, and its worker threads adopt that
// Scope (parallel_blocks).
// Without the Python module (the C++ tests) there is no hook: only request_stop() stops.
#pragma once
#include <chrono>
#include <cstdint>
#include <exception>

namespace graphveil {

// Thrown by interrupt::check(); the bindings turn it into the Python exception that caused it.
class Interrupted : public std::exception {
   public:
    const char* what() const noexcept override { return "interrupted"; }
};

namespace interrupt {

// At most this often does check() call the poll hook on one thread.
inline constexpr std::chrono::milliseconds kPollInterval{20};

// The poll hook: true when the kernel must stop. Called from any kernel thread.
using Poll = bool (*)();
void set_poll(Poll poll);

// Asks every running kernel to stop (any thread).
void request_stop();

// The stop count this thread's kernel began under; kNoScope outside any Scope, where only the
// poll hook can stop a kernel (a kernel called without a Scope never sees an old request).
inline constexpr std::uint64_t kNoScope = ~std::uint64_t{0};
std::uint64_t entry();

// One kernel call (or one worker thread of it): check() stops once the stop count moves past
// `begun_under`. The default notes the current count: a new kernel call.
class Scope {
   public:
    Scope();
    explicit Scope(std::uint64_t begun_under);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::uint64_t saved_;
};

// Throws Interrupted when this kernel must stop; cheap (an atomic load, and a clock read).
void check();

// check() every N calls of step(): for tight sequential loops (N a power of two).
template <std::uint64_t N = 4096>
class Every {
    static_assert(N > 0 && (N & (N - 1)) == 0, "N must be a power of two");

   public:
    void step() {
        if ((++count_ & (N - 1)) == 0) check();
    }

   private:
    std::uint64_t count_ = 0;
};

}  // namespace interrupt
}  // namespace graphveil
