#include "graphveil/obfuscation.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "graphveil/edge_table.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {
// Draws made, and their hash slots fetched, before the first of them is weighed.
constexpr std::int64_t kDrawAhead = 32;
}  // namespace

CandidateDraw draw_candidates(const std::int64_t* edge_keys, std::int64_t m, std::int64_t n, const std::int64_t* pool,
                              const double* weights, std::int64_t pool_size, std::int64_t target,
                              std::int64_t max_draws, std::uint64_t seed, bool directed) {
    CandidateDraw out;
    std::int64_t size = m;
    if (size >= target) return out;
    if (pool_size < 2) throw std::invalid_argument("fewer than two nodes to draw pairs from");
    EdgeTable edges(m, false);
    for (std::int64_t e = 0; e < m; ++e) {
        if (e + kDrawAhead < m) edges.prefetch(static_cast<std::uint64_t>(edge_keys[e + kDrawAhead]));
        edges.insert(static_cast<std::uint64_t>(edge_keys[e]));
    }
    EdgeTable touched(target - m + 1024, false);  // pairs whose first draw already acted
    Rng rng(seed, 0);
    // Walker/Vose alias table: O(1) per draw, two memory reads (a binary search over the
    // cumulative weights costs ~log2(pool) cache misses per draw on large graphs).
    std::vector<double> prob(static_cast<std::size_t>(pool_size));
    std::vector<std::int64_t> alias(static_cast<std::size_t>(pool_size));
    {
        double total = 0.0;
        for (std::int64_t i = 0; i < pool_size; ++i) total += weights[i];
        std::vector<std::int64_t> small, large;
        for (std::int64_t i = 0; i < pool_size; ++i) {
            prob[i] = weights[i] * static_cast<double>(pool_size) / total;
            (prob[i] < 1.0 ? small : large).push_back(i);
        }
        while (!small.empty() && !large.empty()) {
            const std::int64_t s = small.back(), l = large.back();
            small.pop_back();
            alias[s] = l;
            prob[l] -= 1.0 - prob[s];
            if (prob[l] < 1.0) {
                large.pop_back();
                small.push_back(l);
            }
        }
        for (const std::int64_t i : large) prob[i] = 1.0;
        for (const std::int64_t i : small) prob[i] = 1.0;  // round-off leftovers
    }
    auto pick = [&]() {
        const auto i = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(pool_size)));
        return pool[rng.uniform() < prob[i] ? i : alias[i]];
    };
    // Draws are made kDrawAhead at a time and their table slots fetched before any is weighed:
    // each draw takes the same four numbers from the stream whatever happened before it, so
    // the draws, and what they do, are those of a one-at-a-time loop (the surplus of the last
    // batch is dropped). The tables outgrow the cache on large graphs: the fetches overlap.
    std::uint64_t batch[kDrawAhead];
    constexpr std::uint64_t kLoop = EdgeTable::kEmpty;  // a == b: no pair
    interrupt::Every<256> tick;  // one batch of kDrawAhead draws a step
    while (size < target) {
        tick.step();
        for (auto& key : batch) {
            const std::int64_t a = pick(), b = pick();
            key = a == b      ? kLoop
                  : directed ? static_cast<std::uint64_t>(a * n + b)
                             : static_cast<std::uint64_t>(std::min(a, b) * n + std::max(a, b));
            if (key == kLoop) continue;
            touched.prefetch(key);
            edges.prefetch(key);
        }
        for (std::int64_t j = 0; j < kDrawAhead && size < target; ++j) {
            if (++out.draws > max_draws)
                throw std::runtime_error("too many draws without reaching the candidate count");
            const std::uint64_t key = batch[j];
            if (key == kLoop || touched.contains(key)) continue;
            touched.insert(key);
            if (edges.contains(key)) {
                out.removed.push_back(static_cast<std::int64_t>(key));
                --size;
            } else {
                out.added.push_back(static_cast<std::int64_t>(key));
                ++size;
            }
        }
    }
    return out;
}

}  // namespace graphveil
