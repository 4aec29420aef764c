// Communities maximising modularity by the Leiden algorithm (Traag, Waltman, van Eck 2019,
// "From Louvain to Leiden: guaranteeing well-connected communities", Sci. Rep. 9:5233), on an
// undirected simple CSR graph: fast local moving of nodes (a queue of the nodes whose
// neighbourhood changed), refinement of each community into well-connected sub-communities,
// aggregation by the refined partition with the unrefined one as the aggregate's start, until
// local moving leaves every node of the aggregate alone. One sequential pass in a seeded random
// order: the result depends on the seed alone (no thread count enters).
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

struct LeidenResult {
    std::vector<std::int64_t> membership;  // one community per node, numbered by first appearance
    std::int64_t levels = 0;               // aggregation levels, over all iterations
};

// `iterations` runs of the algorithm, each from the partition the previous one found (the
// first from singletons), as igraph's community_leiden(n_iterations=...). Modularity with
// resolution gamma: a node v joins the community C that maximises w(v, C) - gamma k_v K_C / 2m
// (w: edges between, k: degree, K: total degree), ties kept in its own, else the first met in
// its CSR row. Refinement is greedy: where Leiden draws the sub-community with probability
// proportional to exp(gain / beta), this takes the largest gain (the beta -> 0 limit), so that
// the only randomness is the order of the nodes. Self-loops in the input are ignored.
template <class Index>
LeidenResult leiden_modularity(const std::int64_t* indptr, const Index* indices, std::int64_t n, double resolution,
                               std::int64_t iterations, std::uint64_t seed);

}  // namespace graphveil
