// Random graph generators for scale tests: heavy-tailed degrees with real clustering.
#pragma once
#include <cstdint>

#include "graphveil/csr.hpp"

namespace graphveil {

// Holme-Kim "powerlaw cluster" growth (Holme & Kim, Phys. Rev. E 65, 026107, 2002), the model
// of networkx.powerlaw_cluster_graph, generalised to a per-node edge count.
//
// Nodes arrive in order 0..n-1; node s attaches edges[s] distinct edges to earlier nodes.
// Nodes before the first s with edges[s] > 0 form the seed (no edges, attachment weight 1 each,
// as in networkx). A node with edges[s] == s joins every earlier node. Otherwise its first edge
// goes to a node t drawn by preferential attachment (probability proportional to degree, plus
// 1 for seed nodes); each further edge is, with probability p_triad, a triad-formation step (a
// uniform neighbour of the last preferential target t not yet joined to s) and otherwise, or
// when t has no such neighbour, another preferential-attachment step.
//
// Requires 0 <= edges[s] <= s, and edges[s] >= 1 after the first positive entry, so every
// earlier node has positive weight and a preferential draw always finds a new target.
// Sequential by nature (each node sees the graph built so far): one random stream
// Rng(seed, 0), so the output depends on the seed only. O(sum(edges)) expected time.
// Rows of the returned CSR are sorted in parallel on `threads` threads.
Csr<std::int32_t> powerlaw_cluster(std::int64_t n, const std::int32_t* edges, double p_triad, std::uint64_t seed,
                                   int threads);

}  // namespace graphveil
