// The release kernel of the direct edge-DP schemes (TmF, EdgeFlip): every node pair gets an
// independent published bit, 1 with probability p_keep on a true edge and p_add on a non-edge.
// The caller draws the number of non-edges published (Binomial(N - m, p_add)); the kernel
// decides the edges one by one and places that many non-edges uniformly at random, in
// O(m + output) time and memory, never visiting the N = n(n-1)/2 pairs.
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

struct PairRelease {
    std::vector<std::int64_t> kept;   // the true edges published, in input order
    std::vector<std::int64_t> added;  // the non-edges published, distinct, in draw order
};

// edge_keys: the m edges as sorted distinct keys u * n + v with u < v. Each edge is kept with
// probability p_keep (blocks of edges with their own stream from (seed, block): the same
// output for any thread count); `added` distinct non-edge keys are drawn uniformly from the
// N - m non-edges by one further stream: by rejection against the edges and the pairs
// already drawn while they are at most half the non-edges, else by a partial shuffle of the
// listed non-edges (then N <= m + 2 added, so the listing stays linear).
// std::invalid_argument if added exceeds the non-edges or p_keep lies outside [0, 1].
PairRelease release_pairs(const std::int64_t* edge_keys, std::int64_t m, std::int64_t n, double p_keep,
                          std::int64_t added, std::uint64_t seed, int threads);

}  // namespace graphveil
