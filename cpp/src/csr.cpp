#include "graphveil/csr.hpp"

#include <algorithm>

#include "graphveil/parallel.hpp"

namespace graphveil {

namespace {

// The one CSR builder: undirected (every pair in both rows) or directed (arc u -> v in row u only).
template <class Index>
Csr<Index> build_rows(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count, int threads,
                      bool directed, CsrBuildCounts& counts) {
    counts = CsrBuildCounts{};
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t i = 0; i < count; ++i) {
        if (u[i] == v[i]) {
            ++counts.self_loops;
            continue;
        }
        ++offsets[static_cast<std::size_t>(u[i]) + 1];
        if (!directed) ++offsets[static_cast<std::size_t>(v[i]) + 1];
    }
    for (std::int64_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];

    std::vector<Index> raw(static_cast<std::size_t>(offsets[n]));
    {
        std::vector<std::int64_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::int64_t i = 0; i < count; ++i) {
            if (u[i] == v[i]) continue;
            raw[fill[u[i]]++] = static_cast<Index>(v[i]);
            if (!directed) raw[fill[v[i]]++] = static_cast<Index>(u[i]);
        }
    }

    // Sort and deduplicate each row in place; kept[r] is the row's new length.
    std::vector<std::int64_t> kept(static_cast<std::size_t>(n), 0);
    parallel_ranges(n, 4096, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t r = begin; r < end; ++r) {
            Index* first = raw.data() + offsets[r];
            Index* last = raw.data() + offsets[r + 1];
            std::sort(first, last);
            kept[r] = std::unique(first, last) - first;
        }
    });

    Csr<Index> out;
    out.n = n;
    out.indptr.assign(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t r = 0; r < n; ++r) out.indptr[r + 1] = out.indptr[r] + kept[r];
    const std::int64_t entries = offsets[n];  // row entries before merging
    counts.duplicates = directed ? entries - out.indptr[n] : (entries - out.indptr[n]) / 2;
    if (out.indptr[n] == entries) {
        out.indices = std::move(raw);
        return out;
    }
    out.indices.resize(static_cast<std::size_t>(out.indptr[n]));
    parallel_ranges(n, 4096, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t r = begin; r < end; ++r)
            std::copy_n(raw.data() + offsets[r], kept[r], out.indices.data() + out.indptr[r]);
    });
    return out;
}

}  // namespace

template <class Index>
Csr<Index> build_csr(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count, int threads,
                     CsrBuildCounts& counts) {
    return build_rows<Index>(n, u, v, count, threads, false, counts);
}

template <class Index>
Csr<Index> build_digraph_csr(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                             int threads, CsrBuildCounts& counts) {
    return build_rows<Index>(n, u, v, count, threads, true, counts);
}

template <class Index>
Csr<Index> csr_transpose(const std::int64_t* indptr, const Index* indices, std::int64_t n) {
    // A counting sort by column; scanning the rows in ascending order leaves every new row sorted.
    Csr<Index> out;
    out.n = n;
    out.indptr.assign(static_cast<std::size_t>(n) + 1, 0);
    const std::int64_t nnz = indptr[n];
    for (std::int64_t j = 0; j < nnz; ++j) ++out.indptr[static_cast<std::size_t>(indices[j]) + 1];
    for (std::int64_t r = 0; r < n; ++r) out.indptr[r + 1] += out.indptr[r];
    out.indices.resize(static_cast<std::size_t>(nnz));
    std::vector<std::int64_t> fill(out.indptr.begin(), out.indptr.end() - 1);
    for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t j = indptr[r]; j < indptr[r + 1]; ++j)
            out.indices[static_cast<std::size_t>(fill[indices[j]]++)] = static_cast<Index>(r);
    return out;
}

template <class Index>
void csr_edges(const std::int64_t* indptr, const Index* indices, std::int64_t n, Index* out_u, Index* out_v) {
    std::int64_t k = 0;
    for (std::int64_t r = 0; r < n; ++r) {
        for (std::int64_t j = indptr[r]; j < indptr[r + 1]; ++j) {
            if (indices[j] > r) {
                out_u[k] = static_cast<Index>(r);
                out_v[k] = indices[j];
                ++k;
            }
        }
    }
}

template Csr<std::int32_t> build_csr(std::int64_t, const std::int64_t*, const std::int64_t*, std::int64_t, int,
                                     CsrBuildCounts&);
template Csr<std::int64_t> build_csr(std::int64_t, const std::int64_t*, const std::int64_t*, std::int64_t, int,
                                     CsrBuildCounts&);
template Csr<std::int32_t> build_digraph_csr(std::int64_t, const std::int64_t*, const std::int64_t*, std::int64_t,
                                             int, CsrBuildCounts&);
template Csr<std::int64_t> build_digraph_csr(std::int64_t, const std::int64_t*, const std::int64_t*, std::int64_t,
                                             int, CsrBuildCounts&);
template Csr<std::int32_t> csr_transpose(const std::int64_t*, const std::int32_t*, std::int64_t);
template Csr<std::int64_t> csr_transpose(const std::int64_t*, const std::int64_t*, std::int64_t);
template void csr_edges(const std::int64_t*, const std::int32_t*, std::int64_t, std::int32_t*, std::int32_t*);
template void csr_edges(const std::int64_t*, const std::int64_t*, std::int64_t, std::int64_t*, std::int64_t*);

}  // namespace graphveil
