#include "graphveil/proposal.hpp"

#include <algorithm>
#include <stdexcept>

#include "graphveil/parallel.hpp"
#include "graphveil/rng.hpp"
#include "graphveil/interrupt.hpp"

namespace graphveil {

template <class Index>
PartLayout<Index> split_parts(std::int64_t n, const std::int64_t* indptr, const Index* indices,
                              const std::int64_t* labels, std::int64_t parts, int threads, bool directed) {
    PartLayout<Index> out;
    out.parts = parts;
    out.node_ptr.assign(static_cast<std::size_t>(parts) + 1, 0);
    for (std::int64_t x = 0; x < n; ++x) ++out.node_ptr[labels[x] + 1];
    for (std::int64_t i = 0; i < parts; ++i) out.node_ptr[i + 1] += out.node_ptr[i];

    // Stable bucketing: inside a part, positions follow global ids.
    out.order.resize(static_cast<std::size_t>(n));
    std::vector<Index> local(static_cast<std::size_t>(n));
    {
        std::vector<std::int64_t> fill(out.node_ptr.begin(), out.node_ptr.end() - 1);
        for (std::int64_t x = 0; x < n; ++x) {
            const std::int64_t pos = fill[labels[x]]++;
            out.order[pos] = static_cast<Index>(x);
            local[x] = static_cast<Index>(pos - out.node_ptr[labels[x]]);
        }
    }

    // Internal degree of every position, then the concatenated local CSR.
    out.local_indptr.assign(static_cast<std::size_t>(n) + 1, 0);
    parallel_blocks(parts, threads, [&](std::int64_t part) {
        for (std::int64_t pos = out.node_ptr[part]; pos < out.node_ptr[part + 1]; ++pos) {
            const std::int64_t x = out.order[pos];
            std::int64_t inside = 0;
            for (std::int64_t j = indptr[x]; j < indptr[x + 1]; ++j) inside += labels[indices[j]] == part;
            out.local_indptr[pos + 1] = inside;
        }
    });
    for (std::int64_t pos = 0; pos < n; ++pos) out.local_indptr[pos + 1] += out.local_indptr[pos];
    out.local_indices.resize(static_cast<std::size_t>(out.local_indptr[n]));
    out.edge_ptr.assign(static_cast<std::size_t>(parts) + 1, 0);
    for (std::int64_t i = 0; i < parts; ++i)
        out.edge_ptr[i + 1] =
            out.edge_ptr[i] + (out.local_indptr[out.node_ptr[i + 1]] - out.local_indptr[out.node_ptr[i]]) / (directed ? 1 : 2);
    out.edge_u.resize(static_cast<std::size_t>(out.edge_ptr[parts]));
    out.edge_v.resize(static_cast<std::size_t>(out.edge_ptr[parts]));
    parallel_blocks(parts, threads, [&](std::int64_t part) {
        const std::int64_t base = out.node_ptr[part];
        std::int64_t k = out.edge_ptr[part];
        for (std::int64_t pos = base; pos < out.node_ptr[part + 1]; ++pos) {
            const std::int64_t x = out.order[pos];
            const auto me = static_cast<Index>(pos - base);
            std::int64_t w = out.local_indptr[pos];
            // Global rows are sorted and the local map is increasing inside a part, so
            // local rows come out sorted and edges in (u, v) order.
            for (std::int64_t j = indptr[x]; j < indptr[x + 1]; ++j) {
                const Index y = indices[j];
                if (labels[y] != part) continue;
                out.local_indices[w++] = local[y];
                if (directed || local[y] > me) {  // an arc me -> y, or an edge once
                    out.edge_u[k] = me;
                    out.edge_v[k] = local[y];
                    ++k;
                }
            }
        }
    });

    for (std::int64_t x = 0; x < n; ++x)
        for (std::int64_t j = indptr[x]; j < indptr[x + 1]; ++j)
            if ((directed || indices[j] > x) && labels[indices[j]] != labels[x]) {
                out.cut_u.push_back(static_cast<Index>(x));
                out.cut_v.push_back(indices[j]);
            }
    return out;
}

namespace {

// Open-addressing set of pair keys (never erased), sized for the part's request.
class PairSet {
public:
    explicit PairSet(std::int64_t expected) {
        std::size_t cap = 16;
        while (cap < static_cast<std::size_t>(2 * expected + 16)) cap <<= 1;
        slots_.assign(cap, 0);
        mask_ = cap - 1;
    }
    // Inserts key (any value but ~0); returns false if it was present.
    bool insert(std::uint64_t key) {
        const std::uint64_t stored = key + 1;  // 0 marks an empty slot
        std::size_t i = mix(key) & mask_;
        for (;;) {
            if (slots_[i] == stored) return false;
            if (slots_[i] == 0) {
                slots_[i] = stored;
                return true;
            }
            i = (i + 1) & mask_;
        }
    }

private:
    static std::size_t mix(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return static_cast<std::size_t>(z ^ (z >> 31));
    }
    std::vector<std::uint64_t> slots_;
    std::size_t mask_ = 0;
};

}  // namespace

template <class Index>
std::int64_t count_friend_of_friend_pairs(std::int64_t n, const std::int64_t* indptr, const Index* indices) {
    std::vector<std::int64_t> adjacent(static_cast<std::size_t>(n), -1), seen(static_cast<std::size_t>(n), -1);
    std::int64_t count = 0;
    for (std::int64_t v = 0; v < n; ++v) {
        for (std::int64_t j = indptr[v]; j < indptr[v + 1]; ++j) adjacent[indices[j]] = v;
        for (std::int64_t j = indptr[v]; j < indptr[v + 1]; ++j) {
            const std::int64_t u = indices[j];
            for (std::int64_t k = indptr[u]; k < indptr[u + 1]; ++k) {
                const std::int64_t w = indices[k];
                if (w > v && adjacent[w] != v && seen[w] != v) {
                    seen[w] = v;
                    ++count;
                }
            }
        }
    }
    return count;
}

template <class Index>
std::int64_t count_directed_friend_of_friend_pairs(std::int64_t n, const std::int64_t* indptr, const Index* indices) {
    std::vector<std::int64_t> successor(static_cast<std::size_t>(n), -1), seen(static_cast<std::size_t>(n), -1);
    std::int64_t count = 0;
    for (std::int64_t u = 0; u < n; ++u) {
        for (std::int64_t j = indptr[u]; j < indptr[u + 1]; ++j) successor[indices[j]] = u;
        for (std::int64_t j = indptr[u]; j < indptr[u + 1]; ++j) {
            const std::int64_t w = indices[j];
            for (std::int64_t k = indptr[w]; k < indptr[w + 1]; ++k) {
                const std::int64_t v = indices[k];
                if (v != u && successor[v] != u && seen[v] != u) {
                    seen[v] = u;
                    ++count;
                }
            }
        }
    }
    return count;
}

template <class Index>
Proposals<Index> propose_friend_of_friend(std::int64_t parts, const std::int64_t* node_ptr,
                                          const std::int64_t* local_indptr, const Index* local_indices,
                                          const std::int64_t* requested, std::uint64_t seed,
                                          std::int64_t attempts_per_request, int threads, bool directed) {
    if (attempts_per_request < 1) throw std::invalid_argument("attempts_per_request must be positive");
    Proposals<Index> out;
    out.counts.resize(static_cast<std::size_t>(parts));
    std::vector<std::vector<Index>> found_a(static_cast<std::size_t>(parts)), found_b(static_cast<std::size_t>(parts));
    // Dynamic scheduling over parts; part i always draws from stream i.
    parallel_blocks(parts, threads, [&](std::int64_t part) {
        ProposalCounts& c = out.counts[part];
        c.requested = requested[part];
        const std::int64_t base = node_ptr[part];
        const std::int64_t size = node_ptr[part + 1] - base;
        const std::int64_t* rows = local_indptr + base;  // rows[x] .. rows[x+1], absolute offsets
        std::vector<Index> starts;
        if (directed) {
            // Arcs u -> w -> v with v != u and no arc u -> v: no part holds more such pairs than
            // sum_w in(w) out(w).
            std::vector<std::int64_t> in(static_cast<std::size_t>(size), 0);
            for (std::int64_t j = rows[0]; j < rows[size]; ++j) ++in[local_indices[j]];
            std::int64_t cap = 0;
            for (std::int64_t x = 0; x < size; ++x) {
                const std::int64_t d = rows[x + 1] - rows[x];
                if (d >= 1) starts.push_back(static_cast<Index>(x));
                cap = std::min<std::int64_t>(cap + d * in[x], std::int64_t{1} << 40);
            }
            const std::int64_t target = std::min(c.requested, cap);
            auto& a = found_a[part];
            auto& b = found_b[part];
            if (target > 0) {
                a.reserve(static_cast<std::size_t>(target));
                b.reserve(static_cast<std::size_t>(target));
                PairSet chosen(target);
                Rng rng(seed, static_cast<std::uint64_t>(part));
                const std::int64_t budget = attempts_per_request * target + 1024;
                const auto n_starts = static_cast<std::uint64_t>(starts.size());
                interrupt::Every<> tick;
                while (c.found < c.requested && c.attempts < budget) {
                    ++c.attempts;
                    tick.step();
                    const Index u = starts[rng.below(n_starts)];
                    const auto du = static_cast<std::uint64_t>(rows[u + 1] - rows[u]);
                    const Index w = local_indices[rows[u] + static_cast<std::int64_t>(rng.below(du))];
                    const auto dw = static_cast<std::uint64_t>(rows[w + 1] - rows[w]);
                    if (dw == 0) continue;
                    const Index v = local_indices[rows[w] + static_cast<std::int64_t>(rng.below(dw))];
                    if (v == u) continue;
                    if (std::binary_search(local_indices + rows[u], local_indices + rows[u + 1], v)) continue;
                    const std::uint64_t key =
                        static_cast<std::uint64_t>(u) * static_cast<std::uint64_t>(size) + static_cast<std::uint64_t>(v);
                    if (!chosen.insert(key)) continue;
                    a.push_back(u);
                    b.push_back(v);
                    ++c.found;
                }
            }
            if (c.found < c.requested)
                c.available = count_directed_friend_of_friend_pairs<Index>(size, rows, local_indices);
            return;
        }
        // No part holds more friend-of-friend pairs than sum_u C(d_u, 2): memory and the pick
        // budget follow this cap, so an absurd request cannot exhaust memory or loop for hours.
        std::int64_t cap = 0;
        for (std::int64_t x = 0; x < size; ++x) {
            const std::int64_t d = rows[x + 1] - rows[x];
            if (d >= 2) starts.push_back(static_cast<Index>(x));
            cap = std::min<std::int64_t>(cap + d * (d - 1) / 2, std::int64_t{1} << 40);
        }
        const std::int64_t target = std::min(c.requested, cap);
        auto& a = found_a[part];
        auto& b = found_b[part];
        if (target > 0) {
            a.reserve(static_cast<std::size_t>(target));
            b.reserve(static_cast<std::size_t>(target));
            PairSet chosen(target);
            Rng rng(seed, static_cast<std::uint64_t>(part));
            const std::int64_t budget = attempts_per_request * target + 1024;
            const auto n_starts = static_cast<std::uint64_t>(starts.size());
            interrupt::Every<> tick;
            while (c.found < c.requested && c.attempts < budget) {
                ++c.attempts;
                tick.step();
                const std::int64_t u = starts[rng.below(n_starts)];
                const auto deg = static_cast<std::uint64_t>(rows[u + 1] - rows[u]);
                Index v = local_indices[rows[u] + static_cast<std::int64_t>(rng.below(deg))];
                Index w = local_indices[rows[u] + static_cast<std::int64_t>(rng.below(deg))];
                if (v == w) continue;
                if (w < v) std::swap(v, w);
                if (std::binary_search(local_indices + rows[v], local_indices + rows[v + 1], w)) continue;
                const std::uint64_t key =
                    static_cast<std::uint64_t>(v) * static_cast<std::uint64_t>(size) + static_cast<std::uint64_t>(w);
                if (!chosen.insert(key)) continue;
                a.push_back(v);
                b.push_back(w);
                ++c.found;
            }
        }
        if (c.found < c.requested) c.available = count_friend_of_friend_pairs<Index>(size, rows, local_indices);
    });
    out.ptr.assign(static_cast<std::size_t>(parts) + 1, 0);
    for (std::int64_t i = 0; i < parts; ++i) out.ptr[i + 1] = out.ptr[i] + out.counts[i].found;
    out.a.resize(static_cast<std::size_t>(out.ptr[parts]));
    out.b.resize(static_cast<std::size_t>(out.ptr[parts]));
    parallel_blocks(parts, threads, [&](std::int64_t part) {
        std::copy(found_a[part].begin(), found_a[part].end(), out.a.begin() + out.ptr[part]);
        std::copy(found_b[part].begin(), found_b[part].end(), out.b.begin() + out.ptr[part]);
    });
    return out;
}

#define GRAPHVEIL_INSTANTIATE(Index)                                                                                   \
    template PartLayout<Index> split_parts(std::int64_t, const std::int64_t*, const Index*, const std::int64_t*,       \
                                           std::int64_t, int, bool);                                                   \
    template Proposals<Index> propose_friend_of_friend(std::int64_t, const std::int64_t*, const std::int64_t*,         \
                                                       const Index*, const std::int64_t*, std::uint64_t, std::int64_t, \
                                                       int, bool);                                                     \
    template std::int64_t count_friend_of_friend_pairs(std::int64_t, const std::int64_t*, const Index*);               \
    template std::int64_t count_directed_friend_of_friend_pairs(std::int64_t, const std::int64_t*, const Index*);

GRAPHVEIL_INSTANTIATE(std::int32_t)
GRAPHVEIL_INSTANTIATE(std::int64_t)
#undef GRAPHVEIL_INSTANTIATE

}  // namespace graphveil
