// Compressed sparse row storage of an undirected simple graph: every edge {u, v} appears
// as v in row u and as u in row v, each row sorted ascending. A directed graph is stored as its
// out-CSR (arc u -> v as v in row u only, rows sorted) and, when needed, its in-CSR (the
// transpose: arc u -> v as u in row v).
#pragma once
#include <cstdint>
#include <vector>

namespace graphveil {

template <class Index>
struct Csr {
    std::int64_t n = 0;
    std::vector<std::int64_t> indptr;  // n + 1 offsets into indices
    std::vector<Index> indices;        // 2 m neighbour ids
};

// A CSR graph seen through raw pointers (n nodes, indptr of n + 1 offsets, indptr[n] neighbour ids).
template <class Index>
struct CsrView {
    std::int64_t n = 0;
    const std::int64_t* indptr = nullptr;
    const Index* indices = nullptr;
};

// Node pairs (u[i], v[i]) on nodes 0..n-1, with a probability p[i] when the pairs carry one
// (p == nullptr otherwise).
template <class Index>
struct PairView {
    std::int64_t n = 0;
    std::int64_t count = 0;
    const Index* u = nullptr;
    const Index* v = nullptr;
    const double* p = nullptr;
};

struct CsrBuildCounts {
    std::int64_t self_loops = 0;  // input pairs (u, u), dropped
    std::int64_t duplicates = 0;  // input pairs merged into an earlier one (repeats and reversals;
                                  // directed: exact repeats only, reversed arcs are kept)
};

// Builds the CSR of the simple undirected graph on nodes 0..n-1 with the given pairs.
// Ids must lie in [0, n) (checked by the caller). O(n + m log d_max), rows sorted in parallel.
template <class Index>
Csr<Index> build_csr(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count, int threads,
                     CsrBuildCounts& counts);

// Builds the out-CSR of the simple directed graph on nodes 0..n-1 with arcs u[i] -> v[i]: self-loops
// dropped, repeated arcs merged (both counted), arcs u -> v and v -> u both kept. Ids as build_csr.
template <class Index>
Csr<Index> build_digraph_csr(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                             int threads, CsrBuildCounts& counts);

// The transpose of a CSR (n x n, rows sorted or not): the in-CSR of a directed graph's out-CSR,
// every row sorted ascending. O(n + nnz).
template <class Index>
Csr<Index> csr_transpose(const std::int64_t* indptr, const Index* indices, std::int64_t n);

// Canonical edge arrays (u < v, sorted by (u, v)) of a CSR graph.
template <class Index>
void csr_edges(const std::int64_t* indptr, const Index* indices, std::int64_t n, Index* out_u, Index* out_v);

}  // namespace graphveil
