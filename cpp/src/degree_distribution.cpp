#include "graphveil/degree_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "graphveil/parallel.hpp"

namespace graphveil {
namespace {

constexpr std::int64_t kBlock = 1024;

// Per node: `sure` degree from pairs with p = 1 (a sure self-loop adds 2), the probabilities
// strictly inside (0, 1) of its pairs to other nodes, and those of its self-loops (a loop
// adds 2 to the degree: the adjacency matrix of Theorem 3.1).
struct Incidence {
    std::vector<std::int64_t> sure;
    std::vector<std::int64_t> offsets;  // n + 1
    std::vector<double> probs;
    std::vector<std::int64_t> loop_offsets;  // n + 1
    std::vector<double> loop_probs;

    std::int64_t pairs(std::size_t v) const { return offsets[v + 1] - offsets[v]; }
    std::int64_t loops(std::size_t v) const { return loop_offsets[v + 1] - loop_offsets[v]; }
    // The largest degree v can take.
    std::int64_t top(std::size_t v) const { return sure[v] + pairs(v) + 2 * loops(v); }
};

template <class Index>
Incidence build_incidence(const PairView<Index>& pr) {
    const std::int64_t n = pr.n;
    Incidence inc;
    inc.sure.assign(static_cast<std::size_t>(n), 0);
    inc.offsets.assign(static_cast<std::size_t>(n + 1), 0);
    inc.loop_offsets.assign(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t i = 0; i < pr.count; ++i) {
        const std::int64_t a = pr.u[i], b = pr.v[i];
        const double p = pr.p[i];
        if (a < 0 || a >= n || b < 0 || b >= n) throw std::invalid_argument("pair end outside [0, n)");
        if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("probability outside [0, 1]");
        if (p == 0.0) continue;
        const auto sa = static_cast<std::size_t>(a), sb = static_cast<std::size_t>(b);
        if (p == 1.0) {
            inc.sure[sa] += a == b ? 2 : 1;
            if (b != a) ++inc.sure[sb];
        } else if (a == b) {
            ++inc.loop_offsets[sa + 1];
        } else {
            ++inc.offsets[sa + 1];
            ++inc.offsets[sb + 1];
        }
    }
    for (std::size_t v = 0; v < static_cast<std::size_t>(n); ++v) {
        inc.offsets[v + 1] += inc.offsets[v];
        inc.loop_offsets[v + 1] += inc.loop_offsets[v];
    }
    inc.probs.resize(static_cast<std::size_t>(inc.offsets[static_cast<std::size_t>(n)]));
    inc.loop_probs.resize(static_cast<std::size_t>(inc.loop_offsets[static_cast<std::size_t>(n)]));
    std::vector<std::int64_t> fill(inc.offsets.begin(), inc.offsets.end() - 1);
    std::vector<std::int64_t> loop_fill(inc.loop_offsets.begin(), inc.loop_offsets.end() - 1);
    for (std::int64_t i = 0; i < pr.count; ++i) {
        const double p = pr.p[i];
        if (p == 0.0 || p == 1.0) continue;
        const auto sa = static_cast<std::size_t>(pr.u[i]), sb = static_cast<std::size_t>(pr.v[i]);
        if (sa == sb) {
            inc.loop_probs[static_cast<std::size_t>(loop_fill[sa]++)] = p;
            continue;
        }
        inc.probs[static_cast<std::size_t>(fill[sa]++)] = p;
        inc.probs[static_cast<std::size_t>(fill[sb]++)] = p;
    }
    return inc;
}

// Poisson-binomial law of one node by exact convolution. On return X(sure + j) = cur[j] for
// j in [lo, hi); outside that window every value is exactly 0.0 (windows shrink only past
// entries that are exactly zero, so the result equals the full computation bit for bit).
struct Convolver {
    std::vector<double> a, b;

    // `q` pairs adding 1 each, then `l` self-loops adding 2 each.
    const double* run(const double* probs, std::int64_t q, const double* loops, std::int64_t l, std::int64_t& lo,
                      std::int64_t& hi) {
        a.resize(static_cast<std::size_t>(q + 2 * l + 1));
        b.resize(static_cast<std::size_t>(q + 2 * l + 1));
        double* cur = a.data();
        double* nxt = b.data();
        lo = 0;
        hi = 1;
        cur[0] = 1.0;
        for (std::int64_t i = 0; i < q; ++i) {
            const double p = probs[i], r = 1.0 - p;
            convolve_step(cur, nxt, lo, hi, p, r);
            ++hi;
            trim(nxt, lo, hi);
            std::swap(cur, nxt);
        }
        for (std::int64_t i = 0; i < l; ++i) {
            const double p = loops[i], r = 1.0 - p;
            // nxt[j] = cur[j] r + cur[j - 2] p over [lo, hi + 2)
            for (std::int64_t j = lo; j < hi + 2; ++j)
                nxt[j] = (j < hi ? cur[j] * r : 0.0) + (j >= lo + 2 ? cur[j - 2] * p : 0.0);
            hi += 2;
            trim(nxt, lo, hi);
            std::swap(cur, nxt);
        }
        return cur;
    }

    static void trim(const double* x, std::int64_t& lo, std::int64_t& hi) {
        while (lo < hi && x[lo] == 0.0) ++lo;
        while (hi > lo && x[hi - 1] == 0.0) --hi;
    }

    static void convolve_step(const double* __restrict cur, double* __restrict nxt, std::int64_t lo, std::int64_t hi,
                              double p, double r) {
        nxt[lo] = cur[lo] * r;
        for (std::int64_t j = lo + 1; j < hi; ++j) nxt[j] = cur[j] * r + cur[j - 1] * p;
        nxt[hi] = cur[hi - 1] * p;
    }
};

}  // namespace

template <class Index>
DegreeEntropy degree_entropy(const PairView<Index>& pr, int threads) {
    const std::int64_t n = pr.n;
    DegreeEntropy out;
    if (n <= 0) return out;
    const Incidence inc = build_incidence(pr);
    const std::int64_t n_blocks = (n + kBlock - 1) / kBlock;
    // Per block: S and T over degrees 0..(largest possible degree in the block). The total
    // size is at most n + 2 * pairs, never n x d_max.
    std::vector<std::vector<double>> part_s(static_cast<std::size_t>(n_blocks));
    std::vector<std::vector<double>> part_t(static_cast<std::size_t>(n_blocks));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t lo_v, std::int64_t hi_v, std::int64_t blk) {
        std::int64_t top = 0;
        for (std::int64_t v = lo_v; v < hi_v; ++v) {
            const auto sv = static_cast<std::size_t>(v);
            top = std::max(top, inc.top(sv));
        }
        auto& s = part_s[static_cast<std::size_t>(blk)];
        auto& t = part_t[static_cast<std::size_t>(blk)];
        s.assign(static_cast<std::size_t>(top + 1), 0.0);
        t.assign(static_cast<std::size_t>(top + 1), 0.0);
        Convolver conv;
        for (std::int64_t v = lo_v; v < hi_v; ++v) {
            const auto sv = static_cast<std::size_t>(v);
            std::int64_t lo, hi;
            const double* x = conv.run(inc.probs.data() + inc.offsets[sv], inc.pairs(sv),
                                       inc.loop_probs.data() + inc.loop_offsets[sv], inc.loops(sv), lo, hi);
            const std::int64_t shift = inc.sure[sv];
            for (std::int64_t j = lo; j < hi; ++j) {
                const double xj = x[j];
                if (xj > 0.0) {
                    s[static_cast<std::size_t>(shift + j)] += xj;
                    t[static_cast<std::size_t>(shift + j)] += xj * std::log2(xj);
                }
            }
        }
    });
    std::size_t size = 0;
    for (const auto& s : part_s) size = std::max(size, s.size());
    std::vector<double> s_all(size, 0.0), t_all(size, 0.0);
    // Merged in block order: fixed summation order, so results do not depend on threads.
    for (std::int64_t blk = 0; blk < n_blocks; ++blk) {
        const auto& s = part_s[static_cast<std::size_t>(blk)];
        const auto& t = part_t[static_cast<std::size_t>(blk)];
        for (std::size_t d = 0; d < s.size(); ++d) {
            s_all[d] += s[d];
            t_all[d] += t[d];
        }
    }
    while (!s_all.empty() && s_all.back() == 0.0) {
        s_all.pop_back();
        t_all.pop_back();
    }
    out.entropy.assign(s_all.size(), 0.0);
    for (std::size_t d = 0; d < s_all.size(); ++d) {
        if (s_all[d] > 0.0) {
            // Rounding can leave -1e-16 when one node holds all the mass: entropy is >= 0.
            out.entropy[d] = std::max(0.0, std::log2(s_all[d]) - t_all[d] / s_all[d]);
        }
    }
    out.mass = std::move(s_all);
    return out;
}

template <class Index>
void degree_distributions(const PairView<Index>& pr, int threads, std::vector<std::int64_t>& offsets,
                          std::vector<double>& values) {
    const std::int64_t n = pr.n;
    offsets.assign(static_cast<std::size_t>(std::max<std::int64_t>(n, 0) + 1), 0);
    values.clear();
    if (n <= 0) return;
    const Incidence inc = build_incidence(pr);
    for (std::int64_t v = 0; v < n; ++v) {
        const auto sv = static_cast<std::size_t>(v);
        offsets[sv + 1] = offsets[sv] + inc.top(sv) + 1;
    }
    values.assign(static_cast<std::size_t>(offsets[static_cast<std::size_t>(n)]), 0.0);
    parallel_ranges(n, kBlock, threads, [&](std::int64_t lo_v, std::int64_t hi_v, std::int64_t) {
        Convolver conv;
        for (std::int64_t v = lo_v; v < hi_v; ++v) {
            const auto sv = static_cast<std::size_t>(v);
            std::int64_t lo, hi;
            const double* x = conv.run(inc.probs.data() + inc.offsets[sv], inc.pairs(sv),
                                       inc.loop_probs.data() + inc.loop_offsets[sv], inc.loops(sv), lo, hi);
            double* row = values.data() + offsets[sv] + inc.sure[sv];
            for (std::int64_t j = lo; j < hi; ++j) row[j] = x[j];
        }
    });
}

template DegreeEntropy degree_entropy<std::int32_t>(const PairView<std::int32_t>&, int);
template DegreeEntropy degree_entropy<std::int64_t>(const PairView<std::int64_t>&, int);
template void degree_distributions<std::int32_t>(const PairView<std::int32_t>&, int, std::vector<std::int64_t>&,
                                                 std::vector<double>&);
template void degree_distributions<std::int64_t>(const PairView<std::int64_t>&, int, std::vector<std::int64_t>&,
                                                 std::vector<double>&);

}  // namespace graphveil
