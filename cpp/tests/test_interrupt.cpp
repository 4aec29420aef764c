// Stopping kernels (interrupt.hpp): a stop request reaches the kernels running under a Scope,
// their worker threads too, and never a kernel started after it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "check.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/switching.hpp"

namespace interrupt = graphveil::interrupt;

namespace {

bool throws_interrupted() {
    try {
        interrupt::check();
    } catch (const graphveil::Interrupted&) {
        return true;
    }
    return false;
}

}  // namespace

TEST(a_stop_reaches_the_running_scope_and_not_a_later_one) {
    CHECK(!throws_interrupted());  // outside a Scope: only a poll hook (none here) stops
    interrupt::Scope running;
    CHECK(!throws_interrupted());
    interrupt::request_stop();
    CHECK(throws_interrupted());
    {
        interrupt::Scope later;
        CHECK(!throws_interrupted());
    }
    CHECK(throws_interrupted());  // the outer kernel's stop still stands
}

TEST(parallel_workers_stop_with_their_kernel) {
    std::atomic<bool> started{false};
    std::atomic<std::int64_t> blocks{0};
    bool stopped = false;
    {
        interrupt::Scope kernel;
        std::thread asker([&] {
            while (!started.load()) std::this_thread::yield();
            interrupt::request_stop();
        });
        try {
            graphveil::parallel_blocks(1 << 30, 4, [&](std::int64_t) {
                started.store(true);
                blocks.fetch_add(1);
            });
        } catch (const graphveil::Interrupted&) {
            stopped = true;
        }
        asker.join();
    }
    CHECK(stopped);
    CHECK(blocks.load() < (std::int64_t{1} << 30));
}

TEST(edge_switch_stops_on_a_stop_request) {
    // A 4-cycle, switched "forever": the request from another thread ends it.
    const std::vector<std::int64_t> indptr{0, 2, 4, 6, 8};
    const std::vector<std::int32_t> indices{1, 3, 0, 2, 1, 3, 0, 2};
    bool stopped = false;
    {
        interrupt::Scope kernel;
        std::thread asker([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            interrupt::request_stop();
        });
        try {
            graphveil::edge_switch<std::int32_t>(indptr.data(), indices.data(), 4, std::int64_t{1} << 62, false, 1);
        } catch (const graphveil::Interrupted&) {
            stopped = true;
        }
        asker.join();
    }
    CHECK(stopped);
    // and a kernel started afterwards runs to its end
    interrupt::Scope next;
    const auto out = graphveil::edge_switch<std::int32_t>(indptr.data(), indices.data(), 4, 1000, false, 1);
    CHECK(out.u.size() == 4);
}
