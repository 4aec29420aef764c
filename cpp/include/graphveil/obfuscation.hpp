// The candidate-pair draw of (k, eps)-obfuscation (Boldi et al., VLDB 2012, Algorithm 2):
// sequential by definition (each draw's effect depends on the earlier ones), one Rng stream.
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

struct CandidateDraw {
    std::vector<std::int64_t> removed;  // keys u * n + v (u < v; any order when directed) of edges drawn, hence removed
    std::vector<std::int64_t> added;    // keys of non-edges drawn, hence added
    std::int64_t draws = 0;             // pairs drawn (including u == v and repeats)
};

// E_C starts as the m edges (keys sorted or not). Repeatedly draw u and v independently from
// `pool` with probability proportional to `weights` (positive); skip u == v; a drawn
// edge leaves E_C (once), a drawn non-edge joins it (once); stop as soon as |E_C| = target.
// Throws std::runtime_error after max_draws draws.
CandidateDraw draw_candidates(const std::int64_t* edge_keys, std::int64_t m, std::int64_t n, const std::int64_t* pool,
                              const double* weights, std::int64_t pool_size, std::int64_t target,
                              std::int64_t max_draws, std::uint64_t seed, bool directed = false);

}  // namespace graphveil
