// Random walks on a CSR graph and the two walk-based schemes of Section 3.2:
// RandWalk (Mittal et al., NDSS 2013, with its retry bound M) and RandWalk-mod.
//
// Every directed edge slot s of the CSR (row u, neighbour v = indices[s]) starts one walk:
// (t - 1) hops from v; its end z proposes the pair {u, z}. Nodes are processed in fixed
// blocks, each block drawing from its own Rng stream, so the output is identical for any
// thread count.
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

// How a walk picks its next hop.
//  random: a uniform neighbour, independently at every hop.
//  fixed:  SybilGuard-style routing (the paper's remark after Theorem 3.2): one random
//          permutation of the neighbours of every node, drawn once; a walk entering x from y
//          leaves towards pi_x(y). The walk from a start slot is then a fixed route.
enum class Routing { random, fixed };

// A pair list: out_u[i] proposed pair {out_u[i], out_v[i]} (self-loops possible).
template <class Index>
struct PairList {
    std::vector<Index> u;
    std::vector<Index> v;
};

// End node of a `steps`-hop uniform random walk from each of `count` start nodes.
// Start nodes of degree 0 end where they start.
template <class Index>
std::vector<Index> walk_ends(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                             const std::int64_t* starts, std::int64_t count, int steps, std::uint64_t seed,
                             int threads);

// RandWalk-mod(G0, t, alpha) as printed (the paper's Algorithm 2): for every node u and its
// k-th neighbour v (rows sorted, k from 0), one (t-1)-hop walk from v ending at z, and {u, z}
// is kept with probability 0.5 if d_u = 1, alpha if k = 0, (0.5 d_u - alpha) / (d_u - 1)
// otherwise. No retries: self-loops and repeated pairs are kept (constraint 2'). Pairs are
// returned in slot order. Parallel over node blocks, one stream per block.
template <class Index>
PairList<Index> randwalk_mod(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t, double alpha,
                             Routing routing, std::uint64_t seed, int threads);

// The pairs of a retrying walk, the number of walks whose M tries all failed, and `lost`, the
// sum of the acceptance probabilities of those walks: the expected edges they cost, so that
// E[pairs] = m - E[lost] (each node accepts d_u / 2 walks in expectation).
template <class Index>
struct RetryWalk {
    PairList<Index> pairs;
    std::int64_t failed = 0;
    double lost = 0.0;
};

// RandWalk / RandWalk-mod as the authors ran them (their random_walk_transform(G, t, M, alpha);
// RandWalk is alpha = 1): ONE output graph G' shared by all nodes, filled in node order.
// For u = 0..n-1 and its k-th neighbour v: walk t-1 hops from v to z, again while z == u or
// {u, z} is already in G' (added by any node so far, either direction), at most max_tries
// walks in all; if all fail, the walk is counted in `failed` (and its acceptance probability in `lost`). Otherwise {u, z} is added with
// probability `degree_one` if d_u = 1 (0.5 in the authors' code, 1 in the printed Algorithm 1), alpha if k = 0,
// (0.5 d_u - alpha) / (d_u - 1) otherwise.
// The output has no self-loops and no duplicates.
//
// The first try of every walk is drawn in parallel (one stream per node block); the retries
// and the acceptance coins are drawn in one sequential pass in node order (a second stream per
// block), since whether a walk must be retried depends on everything added before it. The
// output depends on the seed only, never on the thread count. O(n + m t) time, O(n + m) memory.
// With fixed routing a retry would repeat the same route, so every walk is tried once.
template <class Index>
RetryWalk<Index> randwalk_retry(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t, double alpha,
                                double degree_one, int max_tries, Routing routing, std::uint64_t seed, int threads);

// out = M x for a CSR matrix M (n_rows rows; `data` its entries, or nullptr for all ones) and a
// dense block x of `width` columns, both row-major: one walk step of a block of distributions
// (RandWalk-mod's model TV, A P^(t-1) E). Each out row sums its row's entries in CSR order from
// zero, as scipy's sparse-times-dense product does, so the two agree to the bit where neither
// contracts to fused multiply-adds. The x rows of the arcs ahead are prefetched across row ends:
// on a million-node graph the gathers miss the cache. Sequential; blocks run side by side.
template <class Index>
struct DirectedWalk {
    PairList<Index> pairs;     // arcs u -> z in slot order
    std::int64_t failed = 0;   // arcs whose tries all failed (no arc published for them)
    std::int64_t dead = 0;     // walks (tries) that stopped at a node without out-arcs
};

// Directed RandWalk along out-links (out-CSR): for every arc u -> v a walk of t - 1 hops from v
// ends at z; retried (at most max_tries walks) while it dies at a node without out-arcs, ends at
// u, or ends at a z already chosen by u. Every successful walk publishes u -> z. Nodes are
// independent (only u adds arcs out of u), so blocks of nodes run in parallel, one stream each.
template <class Index>
DirectedWalk<Index> randwalk_directed(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t,
                                      int max_tries, std::uint64_t seed, int threads);

template <class Index>
void csr_dense_product(const std::int64_t* indptr, const Index* indices, const double* data, std::int64_t n_rows,
                       const double* x, std::int64_t width, double* out);

}  // namespace graphveil
