#include "graphveil/interrupt.hpp"

#include <atomic>

namespace graphveil::interrupt {

namespace {

std::atomic<std::uint64_t> g_stops{0};
std::atomic<Poll> g_poll{nullptr};
thread_local std::uint64_t t_entry = kNoScope;
thread_local std::chrono::steady_clock::time_point t_last_poll{};

}  // namespace

void set_poll(Poll poll) { g_poll.store(poll); }

void request_stop() { g_stops.fetch_add(1); }

std::uint64_t entry() { return t_entry; }

Scope::Scope() : saved_(t_entry) { t_entry = g_stops.load(); }

Scope::Scope(std::uint64_t begun_under) : saved_(t_entry) { t_entry = begun_under; }

Scope::~Scope() { t_entry = saved_; }

void check() {
    if (t_entry != kNoScope && g_stops.load(std::memory_order_relaxed) != t_entry) throw Interrupted();
    const Poll poll = g_poll.load(std::memory_order_relaxed);
    if (poll == nullptr) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - t_last_poll < kPollInterval) return;
    t_last_poll = now;
    if (poll()) {
        request_stop();
        throw Interrupted();
    }
}

}  // namespace graphveil::interrupt
