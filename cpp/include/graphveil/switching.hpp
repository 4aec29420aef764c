// EdgeSwitch (Section 3.3): degree-preserving edge switches on a simple undirected graph.
// Sequential by nature (every switch depends on the graph left by the previous one), one
// Rng stream; O(m) set-up and O(1) expected work per attempted switch (open-addressing
// hash of the current edges).
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

template <class Index>
struct SwitchResult {
    std::vector<Index> u;  // the switched graph's edges, u < v, unsorted
    std::vector<Index> v;
    std::int64_t performed = 0;  // attempts that changed the graph
};

// `attempts` switch attempts on the graph in CSR form (rows sorted, no self-loops).
//  nearby = false: pick two edges {u,w}, {v,t} uniformly (with a random orientation) and
//                  replace them by {u,t}, {v,w}.
//  nearby = true:  pick an edge {w,v} uniformly, a uniform neighbour u of w and t of v, and
//                  replace the path u-w-v-t's end edges {u,w}, {v,t} by {u,v}, {w,t}: both new
//                  edges join nodes at distance 2 (friend-of-friend), as MaxVar's proposals.
// An attempt is rejected (the graph unchanged) when it would create a self-loop or an
// existing edge. Degrees are preserved exactly.
// directed: arcs x -> y, u -> v become x -> v, u -> y (in- and out-degrees kept).
// dyads (directed only): the dyad-aware chain (switching.cpp), which also keeps the number of
// mutual dyads, with a 3-arc rotation that reverses directed 3-cycles.
template <class Index>
SwitchResult<Index> edge_switch(const std::int64_t* indptr, const Index* indices, std::int64_t n, std::int64_t attempts,
                                bool nearby, std::uint64_t seed, bool directed = false, bool dyads = false);

}  // namespace graphveil
