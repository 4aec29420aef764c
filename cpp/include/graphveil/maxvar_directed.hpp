// The MaxVar quadratic program of one directed part:
//     minimise sum_k p_k^2  subject to  0 <= p_k <= 1,
//     sum of p over the arcs leaving u = d+_u,  sum of p over the arcs entering v = d-_v,
// over the arcs tails[k] -> heads[k] of the part (its arcs and its potential arcs).
//
// Its constraints are a transportation polytope: flows of capacity 1 along the arcs from
// out-copies (supplies d+) to in-copies (demands d-). Some arcs are the same, 0 or 1, at every
// feasible point, forced by a group of nodes whose degrees leave no slack; on them the dual has no
// finite optimum. fixed_arcs finds them exactly (an arc is fixed iff its two ends lie in
// different strongly connected components of the residual graph of one maximum flow, since any
// two feasible points differ by a circulation in it), and maxvar_directed_solve fixes them, then
// solves the QP of the other arcs as the bipartite QP of out-copies u and in-copies n + v
// (maxvar_dual_solve with sides), one strongly connected component at a time: the components
// share no free arc, so their QPs are independent.
#pragma once
#include <cstdint>
#include <vector>

#include "graphveil/maxvar_dual.hpp"

namespace graphveil {

// Per arc: -1 for an arc that is not fixed, else its value at every feasible point (0 or 1).
// component[k] (when given, sized np) receives the strongly connected component of a free arc
// (-1 for a fixed one), numbered 0.. in order of first appearance. Throws std::invalid_argument
// when the degrees are not non-negative integers or no p in [0, 1] meets them.
template <class Index>
std::vector<signed char> fixed_arcs(std::int64_t n, std::int64_t np, const Index* tails, const Index* heads,
                                    const double* out_degree, const double* in_degree,
                                    std::vector<std::int64_t>* component = nullptr);

struct DirectedQpStats {
    QpStats qp;                   // over every arc: iterations the most of any component, counts summed
    std::int64_t flow_fixed = 0;  // arcs fixed by fixed_arcs
    std::int64_t components = 0;  // independent QPs solved (strongly connected components with free arcs)
};

// Solves one directed part (n nodes, np arcs tails[k] -> heads[k], no self-loop). Writes p[0..np).
// Deterministic, single-threaded (parallelism is across parts).
template <class Index>
DirectedQpStats maxvar_directed_solve(std::int64_t n, std::int64_t np, const Index* tails, const Index* heads,
                                      const double* out_degree, const double* in_degree, double* p,
                                      const QpOptions& options);

}  // namespace graphveil
