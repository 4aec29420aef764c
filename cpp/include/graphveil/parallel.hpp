// A minimal fork-join loop over independent blocks with std::thread. Work is cut into
// blocks whose boundaries depend only on the problem size, never on the thread count,
// so per-block random streams give identical results for any number of threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "graphveil/interrupt.hpp"

namespace graphveil {

// The thread count used when a caller asks for 0 ("the machine's share"): GRAPHVEIL_NUM_THREADS
// if set (std::invalid_argument unless it is a whole number from 1 to 65536), else
// OMP_NUM_THREADS if it is a positive count (its first entry; ignored otherwise), else the CPUs
// this process may run on (Linux: the affinity mask, capped by cgroup v1/v2 CPU quotas rounded
// up; elsewhere std::thread::hardware_concurrency). Never below 1. See src/threads.cpp.
int default_threads();

// Number of worker threads to use: `requested` if positive, else default_threads().
inline int resolve_threads(int requested) { return requested > 0 ? requested : default_threads(); }

// Calls body(block) for block in [0, n_blocks) on up to `threads` threads. Blocks are
// handed out dynamically (good for skewed work); the first exception is rethrown. Each block
// starts with interrupt::check(), and the workers adopt the caller's interrupt::Scope, so a
// kernel made of short blocks stops within a block of a stop request (interrupt.hpp).
template <class Body>
void parallel_blocks(std::int64_t n_blocks, int threads, Body&& body) {
    if (n_blocks <= 0) return;
    const int workers = static_cast<int>(std::min<std::int64_t>(resolve_threads(threads), n_blocks));
    if (workers <= 1) {
        for (std::int64_t b = 0; b < n_blocks; ++b) {
            interrupt::check();
            body(b);
        }
        return;
    }
    const std::uint64_t begun_under = interrupt::entry();
    std::atomic<std::int64_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto run = [&]() {
        interrupt::Scope scope(begun_under);
        for (;;) {
            const std::int64_t b = next.fetch_add(1);
            if (b >= n_blocks) return;
            try {
                interrupt::check();
                body(b);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next.store(n_blocks);
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(workers - 1));
    for (int w = 1; w < workers; ++w) pool.emplace_back(run);
    run();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

// Calls body(begin, end, block) over [0, n) cut into fixed blocks of `block_size`.
template <class Body>
void parallel_ranges(std::int64_t n, std::int64_t block_size, int threads, Body&& body) {
    if (n <= 0) return;
    block_size = std::max<std::int64_t>(1, block_size);
    const std::int64_t n_blocks = (n + block_size - 1) / block_size;
    parallel_blocks(n_blocks, threads, [&](std::int64_t b) {
        const std::int64_t begin = b * block_size;
        body(begin, std::min(n, begin + block_size), b);
    });
}

}  // namespace graphveil
