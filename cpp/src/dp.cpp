#include "graphveil/dp.hpp"

#include <algorithm>
#include <stdexcept>

#include "graphveil/edge_table.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {
// Edges per block of the keep decisions: fixed, so the streams do not depend on threads.
constexpr std::int64_t kBlock = 1 << 16;
}  // namespace

PairRelease release_pairs(const std::int64_t* edge_keys, std::int64_t m, std::int64_t n, double p_keep,
                          std::int64_t added, std::uint64_t seed, int threads) {
    if (!(p_keep >= 0.0 && p_keep <= 1.0)) throw std::invalid_argument("p_keep must lie in [0, 1]");
    if (n < 0 || m < 0 || added < 0) throw std::invalid_argument("n, m and added must be >= 0");
    const std::int64_t pairs = n < 2 ? 0 : n * (n - 1) / 2;
    if (added > pairs - m) throw std::invalid_argument("more non-edges asked for than the graph has");
    PairRelease out;

    // 1. true edges: one Bernoulli(p_keep) each, a stream per block, then compacted in order.
    const std::int64_t blocks = (m + kBlock - 1) / kBlock;
    std::vector<std::uint8_t> keep(static_cast<std::size_t>(m));
    parallel_ranges(m, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, static_cast<std::uint64_t>(block));
        for (std::int64_t e = begin; e < end; ++e) keep[e] = rng.uniform() < p_keep;
    });
    std::int64_t kept = 0;
    for (std::int64_t e = 0; e < m; ++e) kept += keep[e];
    out.kept.reserve(static_cast<std::size_t>(kept));
    for (std::int64_t e = 0; e < m; ++e)
        if (keep[e]) out.kept.push_back(edge_keys[e]);
    std::vector<std::uint8_t>().swap(keep);

    // 2. non-edges: `added` distinct ones, uniformly, on the stream after the blocks' streams.
    if (added == 0) return out;
    Rng rng(seed, static_cast<std::uint64_t>(blocks));
    out.added.reserve(static_cast<std::size_t>(added));
    const std::int64_t free = pairs - m;
    if (2 * added <= free) {
        // Each draw is accepted with probability >= 1/2: O(added) expected draws.
        EdgeTable edges(m, false);
        for (std::int64_t e = 0; e < m; ++e) edges.insert(static_cast<std::uint64_t>(edge_keys[e]));
        EdgeTable chosen(added, false);
        const auto un = static_cast<std::uint64_t>(n);
        std::uint64_t draws = 0;
        while (static_cast<std::int64_t>(out.added.size()) < added) {
            if ((++draws & 4095) == 0) interrupt::check();
            const std::uint64_t a = rng.below(un), b = rng.below(un);
            if (a == b) continue;  // ordered pairs a != b: every unordered pair equally likely
            const std::uint64_t key = std::min(a, b) * un + std::max(a, b);
            if (edges.contains(key) || chosen.contains(key)) continue;
            chosen.insert(key);
            out.added.push_back(static_cast<std::int64_t>(key));
        }
        return out;
    }
    // Dense case: free < 2 added, so listing the non-edges costs O(m + added).
    std::vector<std::int64_t> pool;
    pool.reserve(static_cast<std::size_t>(free));
    std::int64_t e = 0;
    for (std::int64_t u = 0; u < n; ++u) {
        if ((u & 255) == 0) interrupt::check();
        for (std::int64_t v = u + 1; v < n; ++v) {
            const std::int64_t key = u * n + v;
            while (e < m && edge_keys[e] < key) ++e;
            if (e < m && edge_keys[e] == key) continue;
            pool.push_back(key);
        }
    }
    for (std::int64_t i = 0; i < added; ++i) {
        const auto j = i + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(free - i)));
        std::swap(pool[i], pool[j]);
        out.added.push_back(pool[i]);
    }
    return out;
}

}  // namespace graphveil
