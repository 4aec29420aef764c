// MaxVar's first two phases after METIS: split a graph into the induced subgraphs of its
// parts, and propose friend-of-friend potential edges inside every part (Section 4.2 of
// the paper, the selection rule of NOTES.md).
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

// Nodes grouped by part, and the internal (induced) graph of every part in local ids.
// Part i owns positions [node_ptr[i], node_ptr[i+1]); order[pos] is the global id at a
// position, local id = pos - node_ptr[i]. Within a part, local ids increase with global
// ids, so the local rows inherit the sorted order of the global CSR.
template <class Index>
struct PartLayout {
    std::int64_t parts = 0;
    std::vector<std::int64_t> node_ptr;      // parts + 1
    std::vector<Index> order;                // n global ids, grouped by part
    std::vector<std::int64_t> local_indptr;  // n + 1 offsets over positions
    std::vector<Index> local_indices;        // local ids of internal neighbours, rows sorted
    std::vector<std::int64_t> edge_ptr;      // parts + 1 offsets into edge_u / edge_v
    std::vector<Index> edge_u, edge_v;       // internal edges, local ids, u < v, sorted
    std::vector<Index> cut_u, cut_v;         // edges between parts, global ids, u < v, sorted
};

// O(n + m), parallel over parts. labels[i] in [0, parts) (checked by the caller).
template <class Index>
PartLayout<Index> split_parts(std::int64_t n, const std::int64_t* indptr, const Index* indices,
                              const std::int64_t* labels, std::int64_t parts, int threads, bool directed = false);

struct ProposalCounts {
    std::int64_t requested = 0;
    std::int64_t found = 0;
    std::int64_t attempts = 0;
    // Number of friend-of-friend non-edge pairs in the part; counted exactly (O(sum d^2))
    // only when the part fell short of its request, else -1.
    std::int64_t available = -1;
};

template <class Index>
struct Proposals {
    std::vector<std::int64_t> ptr;  // parts + 1 offsets into a / b
    std::vector<Index> a, b;        // local ids, a < b, in order of acceptance
    std::vector<ProposalCounts> counts;
};

// For every part i, up to requested[i] distinct pairs {v, w}: pick u uniformly among the
// part's nodes of internal degree >= 2 (nodes of lower degree never yield a pair, so
// skipping them leaves the distribution of accepted pairs unchanged), pick two internal
// neighbours v, w of u uniformly with replacement, accept {v, w} if v != w, {v, w} is not
// an edge and was not accepted before. At most attempts_per_request * min(requested[i], cap)
// + 1024 picks per part, cap = sum_u C(d_u, 2) >= the pairs that exist, so the loop always ends. Part i draws from Rng(seed, i): the output does
// not depend on the thread count.
// The parts are given as in PartLayout: node_ptr (parts + 1), local_indptr (n + 1, absolute
// offsets into local_indices) and local_indices (local ids, rows sorted).
template <class Index>
Proposals<Index> propose_friend_of_friend(std::int64_t parts, const std::int64_t* node_ptr,
                                          const std::int64_t* local_indptr, const Index* local_indices,
                                          const std::int64_t* requested, std::uint64_t seed,
                                          std::int64_t attempts_per_request, int threads, bool directed = false);

// Exact number of unordered pairs {v, w} at distance exactly 2 in a CSR graph on nodes
// 0..n-1 (row x is indices[indptr[x] .. indptr[x+1]), offsets may start above 0).
// O(n + sum of squared degrees) time, O(n) memory.
template <class Index>
std::int64_t count_friend_of_friend_pairs(std::int64_t n, const std::int64_t* indptr, const Index* indices);

// Directed: ordered pairs (u, v), v != u, with a path u -> w -> v and no arc u -> v (out-CSR).
template <class Index>
std::int64_t count_directed_friend_of_friend_pairs(std::int64_t n, const std::int64_t* indptr, const Index* indices);

}  // namespace graphveil
