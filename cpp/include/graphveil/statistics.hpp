// Utility-statistic kernels on an undirected simple CSR graph (Section 5.2 of the paper):
// triangle counting, bit-parallel multi-source BFS distance histograms, and the HyperBall
// (HyperANF) approximation of the neighbourhood function. Every kernel returns results that
// do not depend on the thread count: integer counts are summed exactly, floating sums are
// taken in a fixed order.
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

struct TriangleCounts {
    std::int64_t triangles = 0;  // unordered node triples {u, v, w} forming a triangle
    std::int64_t triples = 0;    // connected triples (paths of length 2): sum_v d_v (d_v - 1) / 2
};

// Counts triangles by the degree-ordered orientation (each edge points from the lower to the
// higher (degree, id) rank; every triangle is then found once, from its lowest-ranked node,
// and every out-degree is O(sqrt m)). O(m sqrt m) time, O(n + m) extra memory. With `per_node`
// (n entries) it also writes the number of triangles through each node (networkx's triangles),
// at the cost of 8 bytes a node per worker thread.
template <class Index>
TriangleCounts count_triangles(const std::int64_t* indptr, const Index* indices, std::int64_t n, int threads,
                               std::int64_t* per_node = nullptr);

// Number of ordered (source, target) pairs at distance d, for d = 0, 1, ..., max distance, over
// BFS from the given sources (each source counts itself at d = 0). Unreachable targets are not
// counted. Sources are processed 256 at a time by bit-parallel BFS (Then et al., VLDB 2015:
// "The More the Merrier: Efficient Multi-Source Graph Traversal"), switching between pushing
// from the frontier and pulling into the nodes still missing a source by the edges each would
// scan; batches run in parallel. The BFS walks a copy of the graph with every leaf (degree-1
// node) folded into its neighbour and the rest renumbered in BFS order; a batch only visits the
// components holding its sources. Memory: the copy (about the graph's size), and 96 bytes per
// non-leaf node per worker thread; workers are capped to stay within about 2 GiB.
template <class Index>
std::vector<std::int64_t> distance_histogram(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                                             const std::int64_t* sources, std::int64_t n_sources, int threads);

// Directed graphs. The sum over the triangles of an undirected simple CSR graph of the product of
// the weights (one byte per CSR entry, equal at both ends of an edge) of its three edges, each
// triangle once (the orientation of count_triangles). With weight 2 on a reciprocated pair and 1
// on a single arc it is a third of sum_v t_v, Fagiolo's directed triangles ((A + A^T)^3)_vv / 2.
template <class Index>
std::int64_t count_weighted_triangles(const std::int64_t* indptr, const Index* indices, const std::uint8_t* weights,
                                      std::int64_t n, int threads);

// distance_histogram along the arcs of an out-CSR (a directed graph: d(s, t) follows arcs from
// s): bit-parallel BFS, 64 sources a batch, pushing from the frontier level by level (no leaf
// folding, no pull: both assume a symmetric CSR); batches in parallel, exact integer counts.
// Memory: 24 bytes per node per worker, workers capped within about 2 GiB.
template <class Index>
std::vector<std::int64_t> directed_distance_histogram(const std::int64_t* indptr, const Index* indices,
                                                      std::int64_t n, const std::int64_t* sources,
                                                      std::int64_t n_sources, int threads);

// HyperBall (Boldi, Rosa, Vigna, WWW 2011; HyperANF): N(t) = number of ordered pairs (u, v)
// with d(u, v) <= t (u = v included), estimated with one HyperLogLog counter of 2^log2m one-byte
// registers per node, for t = 0, 1, ... until no counter changes. Each counter's relative
// standard error is about 1.04 / sqrt(2^log2m); counters are estimated with Ertl's improved
// estimator (arXiv:1702.01284), unbiased from one element up. Memory: 2 * 2^log2m + 10 bytes per
// node. The seed picks the hash function; the result is deterministic for a given seed.
template <class Index>
std::vector<double> hyperball(const std::int64_t* indptr, const Index* indices, std::int64_t n, int log2m,
                              std::uint64_t seed, std::int64_t max_iterations, int threads);

// The diameter (largest finite distance; 0 without edges) by iFUB (Crescenzi, Grossi, Habib,
// Lanzi, Marino, TCS 2013) on every connected component, largest first: a 2-sweep from the
// component's highest-degree node gives a lower bound and a central node u; then the
// eccentricities of the nodes farthest from u, level by level, raise the lower bound while
// the upper bound 2 (level - 1) falls, until they meet. A component with no more nodes than
// the best bound plus one is skipped. Sequential BFS; `bfs` counts them. As soon as a level
// could need more than max_bfs BFS in all, stops with exact = false and `diameter` the best
// lower bound found (so a hopeless search gives up early instead of spending the budget).
// `known` is a lower bound already at hand (the longest distance some BFS found, or 0): the
// search starts from it, skips components too small to beat it and stops sooner; the answer
// stays exact when `exact` is set.
struct DiameterResult {
    std::int64_t diameter = 0;
    bool exact = true;
    std::int64_t bfs = 0;
};

template <class Index>
DiameterResult diameter_ifub(const std::int64_t* indptr, const Index* indices, std::int64_t n, std::int64_t max_bfs,
                             std::int64_t known = 0);

}  // namespace graphveil
