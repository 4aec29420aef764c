// Kernels of the analyst statistics (python/graphveil/measure/analyst.py) on an undirected
// simple CSR graph: PageRank, eigenvector centrality and independent-cascade spread. Results do
// not depend on the thread count: every node's value is computed by one thread in a fixed order,
// floating sums are taken over fixed blocks of nodes and added in block order, and the random
// coins of a cascade are a hash of (seed, run, CSR slot).
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

struct PageRankResult {
    std::vector<double> rank;  // sums to 1
    std::int64_t iterations = 0;
};

// PageRank by power iteration (networkx's pagerank: uniform teleport, a node without edges
// spreading its mass uniformly): x <- damping (A (x / d) + s / n) + (1 - damping) / n, s the mass
// on nodes without edges, from x = 1 / n until the L1 change of one step is below `tol` (at most
// max_iter steps); the answer divided by its sum. One parallel pass over the rows a step.
template <class Index>
PageRankResult pagerank(const std::int64_t* indptr, const Index* indices, std::int64_t n, double damping, double tol,
                        std::int64_t max_iter, int threads);

struct EigenResult {
    std::vector<double> vector;  // unit L2 norm, signed as found (empty if not converged)
    double value = 0.0;          // the largest eigenvalue (Ritz value)
    std::int64_t steps = 0;      // Lanczos steps (matrix-vector products: twice this, plus one)
    bool converged = false;
    double residual = 0.0;  // ||A y - value y|| / |value| of the vector returned, measured
};

// The eigenvector of the largest (algebraic) eigenvalue of the adjacency, by Lanczos from the
// all-ones vector, without reorthogonalisation, stopped as soon as the top Ritz pair's residual
// ||A y - theta y|| is at most tol |theta| (the first Ritz value to converge is the largest: the
// start vector meets the non-negative Perron vector of every component). Memory O(n): a second
// pass repeats the same recurrence (the same operations, so the same vectors) and accumulates
// the Ritz vector. The small tridiagonal problem is solved by bisection (Sturm counts) and
// inverse iteration. Gives up after max_steps steps (converged = false). A last product measures
// the residual of the vector returned.
template <class Index>
EigenResult top_eigenvector(const std::int64_t* indptr, const Index* indices, std::int64_t n, double tol,
                            std::int64_t max_steps, int threads);

// Total number of nodes active at the end of `runs` independent cascades (Kempe, Kleinberg,
// Tardos 2003) from `seeds`, each edge passing the cascade on with probability p, the live slots
// of a node's CSR row in run r drawn by geometric jumps, jump j's uniform a splitmix64 hash of
// (salt_r, slot) with salt_r = mix(seed + r * golden); runs in parallel, each by one thread.
template <class Index>
std::int64_t influence_reach(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                             const std::int64_t* seeds, std::int64_t n_seeds, double p, std::int64_t runs,
                             std::uint64_t seed, int threads);

}  // namespace graphveil
