#include "graphveil/sampling.hpp"

#include <algorithm>

#include "graphveil/parallel.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {

// The kept pairs of one sample, compacted to the front of (ka, kb) in pair order; returns
// their number. Each block draws from its own stream into its own slice, without
// branches on the random outcome (half the draws would mispredict); the slices are then
// moved to the front in block order.
template <class Index>
std::int64_t draw_kept(const Index* u, const Index* v, const double* p, std::int64_t pairs, std::uint64_t seed,
                       std::int64_t sample, int threads, std::vector<Index>& ka, std::vector<Index>& kb) {
    ka.resize(static_cast<std::size_t>(pairs));
    kb.resize(static_cast<std::size_t>(pairs));
    const std::int64_t n_blocks = (pairs + kSampleBlock - 1) / kSampleBlock;
    std::vector<std::int64_t> kept(static_cast<std::size_t>(n_blocks), 0);
    parallel_ranges(pairs, kSampleBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, sample_stream(sample, block));
        std::int64_t k = begin;
        // uniform() lies in [0, 1) on a 2^-53 grid: p = 0 is never kept, p = 1 always.
        for (std::int64_t i = begin; i < end; ++i) {
            ka[k] = u[i];
            kb[k] = v[i];
            k += rng.uniform() < p[i];
        }
        kept[block] = k - begin;
    });
    std::int64_t total = 0;
    for (std::int64_t b = 0; b < n_blocks; ++b) {
        const std::int64_t begin = b * kSampleBlock;
        if (total != begin) {  // total <= begin: moving forward never overwrites unread data
            std::copy_n(ka.data() + begin, kept[b], ka.data() + total);
            std::copy_n(kb.data() + begin, kept[b], kb.data() + total);
        }
        total += kept[b];
    }
    return total;
}

// The CSR of the graph with the canonical sorted edges (ka, kb)[0, m), without sorting.
// Row r holds its lower neighbours (pairs (a, r), a < r) then its upper ones (pairs
// (r, w), w > r). The upper parts are written in edge order at monotone positions; the
// lower parts are a transpose scattered in edge order, so a ascends within each row. Both
// parts come out sorted. O(m + n), sequential: a cache-blocked bucket pass before the
// scatter, and a version scattering contiguous edge chunks on 2 threads, both measured no
// faster at 2.2M pairs on 325k nodes on the shared 2-core machine.
template <class Index>
Csr<Index> csr_from_edges(std::int64_t n, const Index* ka, const Index* kb, std::int64_t m) {
    Csr<Index> out;
    out.n = n;
    std::vector<std::int64_t> upper(static_cast<std::size_t>(n) + 1, 0), lower(static_cast<std::size_t>(n), 0);
    for (std::int64_t k = 0; k < m; ++k) {
        ++upper[ka[k] + 1];
        ++lower[kb[k]];
    }
    // upper[r] becomes the index of row r's first upper edge in (ka, kb).
    for (std::int64_t r = 0; r < n; ++r) upper[r + 1] += upper[r];
    out.indptr.assign(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t r = 0; r < n; ++r) out.indptr[r + 1] = out.indptr[r] + lower[r] + (upper[r + 1] - upper[r]);
    out.indices.resize(static_cast<std::size_t>(out.indptr[n]));
    Index* indices = out.indices.data();
    // Upper edge k of row a lands at indptr[a] + lower[a] + (k - upper[a]).
    for (std::int64_t k = 0; k < m; ++k) {
        const std::int64_t a = ka[k];
        indices[out.indptr[a] + lower[a] + (k - upper[a])] = kb[k];
    }
    // lower[r] becomes the write cursor of row r's lower part.
    for (std::int64_t r = 0; r < n; ++r) lower[r] = out.indptr[r];
    for (std::int64_t k = 0; k < m; ++k) indices[lower[kb[k]]++] = ka[k];
    return out;
}

}  // namespace

template <class Index>
std::vector<Csr<Index>> sample_csr(std::int64_t n, const Index* u, const Index* v, const double* p, std::int64_t pairs,
                                   std::uint64_t seed, std::int64_t first_sample, std::int64_t count, int threads) {
    std::vector<Csr<Index>> out(static_cast<std::size_t>(count));
    const int workers = resolve_threads(threads);
    auto one = [&](std::int64_t k, int inner_threads) {
        std::vector<Index> ka, kb;
        const std::int64_t m = draw_kept(u, v, p, pairs, seed, first_sample + k, inner_threads, ka, kb);
        out[k] = csr_from_edges(n, ka.data(), kb.data(), m);
    };
    if (count >= 2 && workers >= 2) {
        // Whole samples in parallel; each draws its blocks sequentially (the same streams).
        parallel_blocks(count, workers, [&](std::int64_t k) { one(k, 1); });
    } else {
        for (std::int64_t k = 0; k < count; ++k) one(k, workers);
    }
    return out;
}

template <class Index>
void sample_edges(const Index* u, const Index* v, const double* p, std::int64_t pairs, std::uint64_t seed,
                  std::int64_t sample, int threads, std::vector<Index>& out_u, std::vector<Index>& out_v) {
    const std::int64_t m = draw_kept(u, v, p, pairs, seed, sample, threads, out_u, out_v);
    out_u.resize(static_cast<std::size_t>(m));
    out_v.resize(static_cast<std::size_t>(m));
    out_u.shrink_to_fit();
    out_v.shrink_to_fit();
}

template std::vector<Csr<std::int32_t>> sample_csr(std::int64_t, const std::int32_t*, const std::int32_t*,
                                                   const double*, std::int64_t, std::uint64_t, std::int64_t,
                                                   std::int64_t, int);
template std::vector<Csr<std::int64_t>> sample_csr(std::int64_t, const std::int64_t*, const std::int64_t*,
                                                   const double*, std::int64_t, std::uint64_t, std::int64_t,
                                                   std::int64_t, int);
template void sample_edges(const std::int32_t*, const std::int32_t*, const double*, std::int64_t, std::uint64_t,
                           std::int64_t, int, std::vector<std::int32_t>&, std::vector<std::int32_t>&);
template void sample_edges(const std::int64_t*, const std::int64_t*, const double*, std::int64_t, std::uint64_t,
                           std::int64_t, int, std::vector<std::int64_t>&, std::vector<std::int64_t>&);

}  // namespace graphveil
