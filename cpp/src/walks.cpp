#include "graphveil/walks.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "graphveil/bits.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {

constexpr std::int64_t kNodeBlock = 1024;
// Salt separating the permutation streams from the walk streams of the same seed.
constexpr std::uint64_t kPermSalt = 0x6A09E667F3BCC909ULL;
// Salt of the retry/coin streams of randwalk_retry's sequential pass.
constexpr std::uint64_t kRetrySalt = 0xBB67AE8584CAA73BULL;

// rev[s] = the slot of the reverse edge of slot s (rows must be sorted).
template <class Index>
std::vector<std::int64_t> reverse_slots(const std::int64_t* indptr, const Index* indices, std::int64_t n, int threads) {
    std::vector<std::int64_t> rev(static_cast<std::size_t>(indptr[n]));
    parallel_ranges(n, kNodeBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t u = begin; u < end; ++u) {
            for (std::int64_t s = indptr[u]; s < indptr[u + 1]; ++s) {
                const Index v = indices[s];
                const Index* row = indices + indptr[v];
                const Index* hit = std::lower_bound(row, indices + indptr[v + 1], static_cast<Index>(u));
                rev[s] = hit - indices;
            }
        }
    });
    return rev;
}

// perm[s] for slot s = (x -> y): the local index in row x of the hop taken by a walk that
// entered x from y. One uniform permutation per row (Fisher-Yates), one stream per block.
template <class Index>
std::vector<Index> routing_permutations(const std::int64_t* indptr, std::int64_t n, std::uint64_t seed, int threads) {
    std::vector<Index> perm(static_cast<std::size_t>(indptr[n]));
    parallel_ranges(n, kNodeBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed ^ kPermSalt, static_cast<std::uint64_t>(block));
        for (std::int64_t x = begin; x < end; ++x) {
            Index* row = perm.data() + indptr[x];
            const std::int64_t d = indptr[x + 1] - indptr[x];
            for (std::int64_t i = 0; i < d; ++i) row[i] = static_cast<Index>(i);
            for (std::int64_t i = d - 1; i > 0; --i)
                std::swap(row[i], row[rng.below(static_cast<std::uint64_t>(i + 1))]);
        }
    });
    return perm;
}

// Ends the walk that starts along slot s (u -> v) and makes `hops` further hops from v.
template <class Index>
class Walker {
public:
    Walker(const std::int64_t* indptr, const Index* indices, std::int64_t n, Routing routing, std::uint64_t seed,
           int threads)
        : indptr_(indptr), indices_(indices), routing_(routing) {
        if (routing == Routing::fixed) {
            rev_ = reverse_slots(indptr, indices, n, threads);
            perm_ = routing_permutations<Index>(indptr, n, seed, threads);
        }
    }

    Index end(std::int64_t slot, int hops, Rng& rng) const {
        Index z;
        ends(&slot, 1, hops, rng, &z);
        return z;
    }

    // Ends of the walks along slots[0..count). The walks advance in lock-step, a batch at a
    // time: their hops are independent loads, so the memory latency of one walk overlaps
    // with the others' (a single walk is a chain of dependent cache misses).
    void ends(const std::int64_t* slots, std::int64_t count, int hops, Rng& rng, Index* out) const {
        constexpr std::int64_t kBatch = 64;
        for (std::int64_t b = 0; b < count; b += kBatch) {
            const std::int64_t len = std::min(kBatch, count - b);
            if (routing_ == Routing::random) {
                Index x[kBatch];
                for (std::int64_t i = 0; i < len; ++i) x[i] = indices_[slots[b + i]];
                std::int64_t at[kBatch];
                for (int h = 0; h < hops; ++h) {
                    // Two passes: every walk's row offsets, then every walk's step (same draws in
                    // the same order): each pass's loads are independent, so they all overlap.
                    for (std::int64_t i = 0; i < len; ++i) at[i] = indptr_[x[i]];
                    for (std::int64_t i = 0; i < len; ++i) {
                        const auto d = static_cast<std::uint64_t>(indptr_[x[i] + 1] - at[i]);
                        at[i] += static_cast<std::int64_t>(rng.below(d));
                        bits::prefetch(&indices_[at[i]]);
                    }
                    for (std::int64_t i = 0; i < len; ++i) x[i] = indices_[at[i]];
                }
                for (std::int64_t i = 0; i < len; ++i) out[b + i] = x[i];
            } else {
                std::int64_t s[kBatch];
                for (std::int64_t i = 0; i < len; ++i) s[i] = slots[b + i];
                for (int h = 0; h < hops; ++h) {
                    for (std::int64_t i = 0; i < len; ++i)
                        s[i] = indptr_[indices_[s[i]]] +
                               static_cast<std::int64_t>(perm_[static_cast<std::size_t>(rev_[s[i]])]);
                }
                for (std::int64_t i = 0; i < len; ++i) out[b + i] = indices_[s[i]];
            }
        }
    }

private:
    const std::int64_t* indptr_;
    const Index* indices_;
    Routing routing_;
    std::vector<std::int64_t> rev_;
    std::vector<Index> perm_;
};

template <class Index>
PairList<Index> compact(const std::int64_t* indptr, std::int64_t n, const std::vector<Index>& ends) {
    PairList<Index> out;
    std::int64_t kept = 0;
    for (const Index z : ends) kept += (z >= 0);
    out.u.reserve(static_cast<std::size_t>(kept));
    out.v.reserve(static_cast<std::size_t>(kept));
    for (std::int64_t u = 0; u < n; ++u) {
        for (std::int64_t s = indptr[u]; s < indptr[u + 1]; ++s) {
            if (ends[static_cast<std::size_t>(s)] < 0) continue;
            out.u.push_back(static_cast<Index>(u));
            out.v.push_back(ends[static_cast<std::size_t>(s)]);
        }
    }
    return out;
}

void check_walk_args(int t) {
    if (t < 1) throw std::invalid_argument("walk length t must be >= 1");
}

}  // namespace

template <class Index>
std::vector<Index> walk_ends(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                             const std::int64_t* starts, std::int64_t count, int steps, std::uint64_t seed,
                             int threads) {
    if (steps < 0) throw std::invalid_argument("steps must be >= 0");
    std::vector<Index> ends(static_cast<std::size_t>(count));
    parallel_ranges(count, 4096, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, static_cast<std::uint64_t>(block));
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t start = starts[i];
            if (start < 0 || start >= n) throw std::out_of_range("start node out of range");
            auto x = static_cast<Index>(start);
            for (int h = 0; h < steps; ++h) {
                const std::int64_t first = indptr[x];
                const auto d = static_cast<std::uint64_t>(indptr[x + 1] - first);
                if (d == 0) break;
                x = indices[first + static_cast<std::int64_t>(rng.below(d))];
            }
            ends[static_cast<std::size_t>(i)] = x;
        }
    });
    return ends;
}

template <class Index>
PairList<Index> randwalk_mod(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t, double alpha,
                             Routing routing, std::uint64_t seed, int threads) {
    check_walk_args(t);
    if (!(alpha >= 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must lie in [0, 1]");
    const Walker<Index> walker(indptr, indices, n, routing, seed, threads);
    std::vector<Index> ends(static_cast<std::size_t>(indptr[n]), Index(-1));
    parallel_ranges(n, kNodeBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, static_cast<std::uint64_t>(block));
        // The block's slots are contiguous: walk them all, then flip the keep coins.
        const std::int64_t first = indptr[begin], last = indptr[end];
        std::vector<std::int64_t> slots(static_cast<std::size_t>(last - first));
        for (std::int64_t s = first; s < last; ++s) slots[static_cast<std::size_t>(s - first)] = s;
        walker.ends(slots.data(), last - first, t - 1, rng, ends.data() + first);
        for (std::int64_t u = begin; u < end; ++u) {
            const std::int64_t d = indptr[u + 1] - indptr[u];
            const double later = d > 1 ? (0.5 * static_cast<double>(d) - alpha) / static_cast<double>(d - 1) : 0.0;
            for (std::int64_t k = 0; k < d; ++k) {
                const double keep = d == 1 ? 0.5 : (k == 0 ? alpha : later);
                if (!(rng.uniform() < keep)) ends[static_cast<std::size_t>(indptr[u] + k)] = Index(-1);
            }
        }
    });
    return compact(indptr, n, ends);
}

namespace {
// Slots ahead of the sequential retry pass whose data are fetched (see randwalk_retry).
constexpr std::int64_t kRetryAhead = 16;
}  // namespace

template <class Index>
RetryWalk<Index> randwalk_retry(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t, double alpha,
                                double degree_one, int max_tries, Routing routing, std::uint64_t seed, int threads) {
    check_walk_args(t);
    if (max_tries < 1) throw std::invalid_argument("max_tries M must be >= 1");
    if (!(alpha >= 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must lie in [0, 1]");
    if (!(degree_one >= 0.0 && degree_one <= 1.0)) throw std::invalid_argument("degree_one must lie in [0, 1]");
    const Walker<Index> walker(indptr, indices, n, routing, seed, threads);
    const int tries = routing == Routing::fixed ? 1 : max_tries;
    const std::int64_t slots_total = indptr[n];
    // First tries of every walk, in parallel: independent of G', so drawing them ahead of the
    // sequential pass changes nothing but the speed.
    std::vector<Index> first_try(static_cast<std::size_t>(slots_total));
    parallel_ranges(n, kNodeBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, static_cast<std::uint64_t>(block));
        const std::int64_t first = indptr[begin], last = indptr[end];
        std::vector<std::int64_t> slots(static_cast<std::size_t>(last - first));
        for (std::int64_t s = first; s < last; ++s) slots[static_cast<std::size_t>(s - first)] = s;
        walker.ends(slots.data(), last - first, t - 1, rng, first_try.data() + first);
    });
    RetryWalk<Index> out;
    out.pairs.u.reserve(static_cast<std::size_t>(slots_total / 2 + 1));
    out.pairs.v.reserve(static_cast<std::size_t>(slots_total / 2 + 1));
    // G' as it grows: mark[z] == u iff {u, z} is in G' while u is processed. Edges {w, u}
    // added by an earlier node w < u wait in u's list (head/next/from) until u's turn.
    std::vector<Index> mark(static_cast<std::size_t>(n), Index(-1));
    std::vector<std::int64_t> head(static_cast<std::size_t>(n), -1);
    std::vector<std::int64_t> next;
    std::vector<Index> from;
    next.reserve(static_cast<std::size_t>(slots_total / 4 + 1));
    from.reserve(static_cast<std::size_t>(slots_total / 4 + 1));
    const std::int64_t n_blocks = (n + kNodeBlock - 1) / kNodeBlock;
    for (std::int64_t block = 0; block < n_blocks; ++block) {
        Rng rng(seed ^ kRetrySalt, static_cast<std::uint64_t>(block));
        const std::int64_t end = std::min(n, (block + 1) * kNodeBlock);
        for (std::int64_t u = block * kNodeBlock; u < end; ++u) {
            const auto self = static_cast<Index>(u);
            for (std::int64_t e = head[static_cast<std::size_t>(u)]; e >= 0; e = next[static_cast<std::size_t>(e)])
                mark[static_cast<std::size_t>(from[static_cast<std::size_t>(e)])] = self;
            const std::int64_t d = indptr[u + 1] - indptr[u];
            const double later = d > 1 ? (0.5 * static_cast<double>(d) - alpha) / static_cast<double>(d - 1) : 0.0;
            for (std::int64_t k = 0; k < d; ++k) {
                const std::int64_t s = indptr[u] + k;
                // The slots ahead are known: fetch their first tries' marks, and the rows a
                // retry from them would read first (its start's offsets, then its neighbours).
                if (s + 2 * kRetryAhead < slots_total) {
                    const auto ahead = static_cast<std::size_t>(s + 2 * kRetryAhead);
                    bits::prefetch(&mark[static_cast<std::size_t>(first_try[ahead])]);
                    bits::prefetch(&indptr[indices[ahead]]);
                }
                if (s + kRetryAhead < slots_total) bits::prefetch(&indices[indptr[indices[s + kRetryAhead]]]);
                Index z = first_try[static_cast<std::size_t>(s)];
                int used = 1;
                auto bad = [&](Index x) { return x == self || mark[static_cast<std::size_t>(x)] == self; };
                while (bad(z) && used < tries) {
                    z = walker.end(s, t - 1, rng);
                    ++used;
                }
                const double keep = d == 1 ? degree_one : (k == 0 ? alpha : later);
                if (bad(z)) {
                    ++out.failed;
                    out.lost += keep;
                    continue;
                }
                if (!(rng.uniform() < keep)) continue;
                out.pairs.u.push_back(self);
                out.pairs.v.push_back(z);
                mark[static_cast<std::size_t>(z)] = self;
                if (z > self) {  // z's turn is still to come: it must see {u, z}
                    next.push_back(head[static_cast<std::size_t>(z)]);
                    from.push_back(self);
                    head[static_cast<std::size_t>(z)] = static_cast<std::int64_t>(from.size()) - 1;
                }
            }
        }
    }
    return out;
}

template <class Index>
DirectedWalk<Index> randwalk_directed(const std::int64_t* indptr, const Index* indices, std::int64_t n, int t,
                                      int max_tries, std::uint64_t seed, int threads) {
    check_walk_args(t);
    if (max_tries < 1) throw std::invalid_argument("max_tries M must be >= 1");
    const std::int64_t slots_total = indptr[n];
    std::vector<Index> ends(static_cast<std::size_t>(slots_total), Index(-1));
    const std::int64_t n_blocks = (n + kNodeBlock - 1) / kNodeBlock;
    std::vector<std::int64_t> failed(static_cast<std::size_t>(std::max<std::int64_t>(n_blocks, 0)), 0);
    std::vector<std::int64_t> dead(failed.size(), 0);
    parallel_ranges(n, kNodeBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        Rng rng(seed, static_cast<std::uint64_t>(block));
        std::vector<Index> chosen;  // z already taken by the current u (a row: degrees are small)
        interrupt::Every<256> tick;
        for (std::int64_t u = begin; u < end; ++u) {
            tick.step();
            chosen.clear();
            const auto self = static_cast<Index>(u);
            for (std::int64_t s = indptr[u]; s < indptr[u + 1]; ++s) {
                bool ok = false;
                Index z = self;
                for (int k = 0; k < max_tries && !ok; ++k) {
                    z = indices[s];
                    bool died = false;
                    for (int h = 0; h < t - 1; ++h) {
                        const std::int64_t first = indptr[z];
                        const auto d = static_cast<std::uint64_t>(indptr[z + 1] - first);
                        if (d == 0) {
                            died = true;
                            break;
                        }
                        z = indices[first + static_cast<std::int64_t>(rng.below(d))];
                    }
                    if (died) {
                        ++dead[static_cast<std::size_t>(block)];
                        continue;
                    }
                    ok = z != self && std::find(chosen.begin(), chosen.end(), z) == chosen.end();
                }
                if (!ok) {
                    ++failed[static_cast<std::size_t>(block)];
                    continue;
                }
                chosen.push_back(z);
                ends[static_cast<std::size_t>(s)] = z;
            }
        }
    });
    DirectedWalk<Index> out;
    out.pairs = compact(indptr, n, ends);
    for (std::size_t b = 0; b < failed.size(); ++b) {
        out.failed += failed[b];
        out.dead += dead[b];
    }
    return out;
}

namespace {

// Arcs ahead of the product's scan whose x rows are prefetched.
constexpr std::int64_t kProductLookahead = 16;

// csr_dense_product with the block width W known at compile time (the accumulator in
// registers; W = 0 reads it from `width`) and Ones set when every entry is 1 (`data` unread).
template <int W, bool Ones, class Index>
void product_rows(const std::int64_t* indptr, const Index* indices, const double* data, std::int64_t n_rows,
                  const double* x, std::int64_t width, double* out) {
    const std::int64_t w = W > 0 ? W : width;
    const std::int64_t arcs = indptr[n_rows];
    std::vector<double> wide(W > 0 ? 0 : static_cast<std::size_t>(w));
    double fixed[W > 0 ? W : 1];
    double* acc = W > 0 ? fixed : wide.data();
    interrupt::Every<1024> tick;
    for (std::int64_t r = 0; r < n_rows; ++r) {
        tick.step();
        for (std::int64_t c = 0; c < w; ++c) acc[c] = 0.0;
        for (std::int64_t k = indptr[r]; k < indptr[r + 1]; ++k) {
            if (k + kProductLookahead < arcs) {
                const double* ahead = x + static_cast<std::int64_t>(indices[k + kProductLookahead]) * w;
                for (std::int64_t c = 0; c < w; c += 8) bits::prefetch(ahead + c);
            }
            const double* row = x + static_cast<std::int64_t>(indices[k]) * w;
            if constexpr (Ones) {
                for (std::int64_t c = 0; c < w; ++c) acc[c] += row[c];
            } else {
                const double a = data[k];
                for (std::int64_t c = 0; c < w; ++c) acc[c] += a * row[c];
            }
        }
        double* dst = out + r * w;
        for (std::int64_t c = 0; c < w; ++c) dst[c] = acc[c];
    }
}

}  // namespace

template <class Index>
void csr_dense_product(const std::int64_t* indptr, const Index* indices, const double* data, std::int64_t n_rows,
                       const double* x, std::int64_t width, double* out) {
    auto run = [&](auto ones) {
        constexpr bool kOnes = decltype(ones)::value;
        switch (width) {
            case 8: return product_rows<8, kOnes>(indptr, indices, data, n_rows, x, width, out);
            case 16: return product_rows<16, kOnes>(indptr, indices, data, n_rows, x, width, out);
            default: return product_rows<0, kOnes>(indptr, indices, data, n_rows, x, width, out);
        }
    };
    if (data == nullptr)
        run(std::true_type{});
    else
        run(std::false_type{});
}

#define GRAPHVEIL_WALKS_INSTANTIATE(Index)                                                                             \
    template std::vector<Index> walk_ends(const std::int64_t*, const Index*, std::int64_t, const std::int64_t*,        \
                                          std::int64_t, int, std::uint64_t, int);                                      \
    template PairList<Index> randwalk_mod(const std::int64_t*, const Index*, std::int64_t, int, double, Routing,       \
                                          std::uint64_t, int);                                                         \
    template RetryWalk<Index> randwalk_retry(const std::int64_t*, const Index*, std::int64_t, int, double, double,     \
                                             int, Routing, std::uint64_t, int);                           \
    template DirectedWalk<Index> randwalk_directed(const std::int64_t*, const Index*, std::int64_t, int, int,          \
                                                   std::uint64_t, int);                                                \
    template void csr_dense_product(const std::int64_t*, const Index*, const double*, std::int64_t, const double*,      \
                                    std::int64_t, double*);

GRAPHVEIL_WALKS_INSTANTIATE(std::int32_t)
GRAPHVEIL_WALKS_INSTANTIATE(std::int64_t)

}  // namespace graphveil
