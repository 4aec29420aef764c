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

// RandWalk-mod(G0, t, alpha): for every node u and its k-th neighbour v (rows sorted, k from 0),
// one (t-1)-hop walk from v ending at z, and {u, z} is kept with probability
// 0.5 if d_u = 1, alpha if k = 0, (0.5 d_u - alpha) / (d_u - 1) otherwise.
// Self-loops and repeated pairs are kept (constraint 2'). Pairs are returned in slot order.
template <class Index>
PairList<Index> randwalk_mod(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t,
                             double alpha, Routing routing, std::uint64_t seed, int threads);

// RandWalk(G0, t, M): as above but a walk is repeated (at most M times in all) while it ends
// at u or at a node u already linked to; the first neighbour keeps its pair with
// probability 1, later ones with (0.5 d_u - 1) / (d_u - 1). The "already linked" check is
// against u's own additions; a pair proposed from both ends appears twice and is merged by
// the caller (the sequential original checked a global G' whose content depends on the node
// order). With fixed routing a repeat follows the same route, so M is effectively 1.
template <class Index>
PairList<Index> randwalk(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t, int max_tries,
                         Routing routing, std::uint64_t seed, int threads);

}  // namespace graphveil
