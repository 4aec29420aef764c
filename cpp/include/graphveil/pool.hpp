#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace graphveil {

// Per-node scratch objects (T(n): a dense array over a graph's n nodes) handed to the blocks that
// run at once and taken back when a block ends: at most `threads` are ever created, each reused
// across blocks. The attack kernels' score accumulators and mark counters.
template <class T>
class ScratchPool {
public:
    explicit ScratchPool(std::int64_t n) : n_(n) {}
    std::unique_ptr<T> acquire() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) return std::make_unique<T>(n_);
        auto item = std::move(free_.back());
        free_.pop_back();
        return item;
    }
    void release(std::unique_ptr<T> item) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(std::move(item));
    }

private:
    std::int64_t n_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<T>> free_;
};

}  // namespace graphveil
