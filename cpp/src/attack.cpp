#include "graphveil/attack.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "alike.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/pool.hpp"
#include "graphveil/scoring.hpp"

namespace graphveil {
namespace {

template <class Index>
bool pair_less(Index au, Index av, Index bu, Index bv) {
    return au < bu || (au == bu && av < bv);
}

template <class Index>
void check_canonical(const Index* u, const Index* v, std::int64_t count, const char* what) {
    for (std::int64_t i = 1; i < count; ++i)
        if (!pair_less(u[i - 1], v[i - 1], u[i], v[i]))
            throw std::invalid_argument(std::string(what) + " must be sorted by (u, v) and unique");
}

}  // namespace

template <class Index>
LinkCounts link_counts(const Index* pu, const Index* pv, const double* p, std::int64_t pairs, const Index* eu,
                       const Index* ev, std::int64_t m) {
    check_canonical(pu, pv, pairs, "published pairs");
    check_canonical(eu, ev, m, "edges of g0");
    LinkCounts out;
    out.pairs = pairs;
    // Label every pair by one merge of the two sorted lists.
    std::vector<double> pos, neg;
    pos.reserve(static_cast<std::size_t>(std::min(pairs, m)));
    neg.reserve(static_cast<std::size_t>(pairs));
    std::int64_t j = 0;
    for (std::int64_t i = 0; i < pairs; ++i) {
        while (j < m && pair_less(eu[j], ev[j], pu[i], pv[i])) ++j;
        const bool hit = j < m && eu[j] == pu[i] && ev[j] == pv[i];
        (hit ? pos : neg).push_back(p[i]);
        if (p[i] >= 0.5) {
            ++out.likely;
            out.likely_hits += hit ? 1 : 0;
        }
    }
    out.positives = static_cast<std::int64_t>(pos.size());
    std::sort(pos.begin(), pos.end());
    std::sort(neg.begin(), neg.end());
    // Mann-Whitney: for each true pair, the other pairs strictly below it count 2, ties 1.
    {
        std::size_t below = 0, upto = 0;
        for (const double x : pos) {
            while (below < neg.size() && neg[below] < x) ++below;
            if (upto < below) upto = below;
            while (upto < neg.size() && neg[upto] == x) ++upto;
            out.auc2 += static_cast<std::int64_t>(2 * below + (upto - below));
        }
    }
    // Top k = min(m, pairs) by p, walking down the merged values one tie group at a time.
    out.top_k = std::min(m, pairs);
    std::int64_t taken = 0;
    std::size_t a = pos.size(), b = neg.size();
    while (taken < out.top_k) {
        const double x = std::max(a ? pos[a - 1] : -1.0, b ? neg[b - 1] : -1.0);
        std::int64_t gp = 0, gn = 0;
        while (a && pos[a - 1] == x) --a, ++gp;
        while (b && neg[b - 1] == x) --b, ++gn;
        const std::int64_t group = gp + gn;
        if (taken + group <= out.top_k) {
            out.top_hits += static_cast<double>(gp);
            taken += group;
        } else {
            out.top_hits +=
                static_cast<double>(gp) * static_cast<double>(out.top_k - taken) / static_cast<double>(group);
            taken = out.top_k;
        }
    }
    return out;
}

namespace {

using Accumulator = ScoreAccumulator;
using AccumulatorPool = ScratchPool<Accumulator>;

struct Best {
    std::int64_t node = -1;  // -1: no candidate, or the eccentricity test failed
};

// A graph's rows reordered by (degree, id) with the degrees beside them, so that the neighbours
// inside a degree window are one contiguous run found by binary search: a node of degree 20
// next to a hub skips the hub's thousands of leaves in O(log d) instead of reading them.
template <class Index>
struct DegreeRows {
    const std::int64_t* indptr = nullptr;
    std::vector<Index> indices;
    std::vector<Index> degree;   // degree of indices[e]
    std::vector<double> weight;  // 1 / sqrt(degree of node c), by node
    std::vector<double> entry_weight;  // weight of indices[e], beside it (read in order, not by node)
};

template <class Index>
DegreeRows<Index> degree_rows(const CsrView<Index>& g, int threads) {
    DegreeRows<Index> r;
    r.indptr = g.indptr;
    const std::int64_t nnz = g.indptr[g.n];
    r.indices.assign(g.indices, g.indices + nnz);
    r.degree.resize(static_cast<std::size_t>(nnz));
    r.entry_weight.resize(static_cast<std::size_t>(nnz));
    r.weight.assign(static_cast<std::size_t>(g.n), 0.0);
    auto deg = [&](std::int64_t c) { return static_cast<Index>(g.indptr[c + 1] - g.indptr[c]); };
    for (std::int64_t c = 0; c < g.n; ++c)
        if (deg(c) > 0) r.weight[c] = 1.0 / std::sqrt(static_cast<double>(deg(c)));
    parallel_ranges(g.n, 4096, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t y = begin; y < end; ++y) {
            Index* row = r.indices.data() + g.indptr[y];
            const std::int64_t len = g.indptr[y + 1] - g.indptr[y];
            std::sort(row, row + len, [&](Index a, Index b) {
                const Index da = deg(a), db = deg(b);
                return da < db || (da == db && a < b);
            });
            for (std::int64_t e = 0; e < len; ++e) {
                r.degree[g.indptr[y] + e] = deg(row[e]);
                r.entry_weight[g.indptr[y] + e] = r.weight[row[e]];
            }
        }
    });
    return r;
}

// Scores the unmapped nodes of `to` from node x of `from` (see propagate). `map` sends `from`
// nodes to `to` nodes (-1 unmapped), `taken[c]` says whether `to` node c is already an image.
// Contributions to one candidate are summed in the order of x's row; candidates are first met
// in the (degree, id) order of each row.
template <class Index>
Match best_match(const CsrView<Index>& from, const DegreeRows<Index>& to, const Index* map, const Index* taken,
                 std::int64_t x, double theta, double degree_ratio, Eccentricity eccentricity, Accumulator& acc) {
    // Candidates of degree outside [deg x / ratio, deg x * ratio] are not scored.
    const Window<Index> degrees(static_cast<double>(from.indptr[x + 1] - from.indptr[x]), degree_ratio);
    auto window = [&](Index y) {
        const Index* dbegin = to.degree.data() + to.indptr[y];
        const auto [first, last] =
            window_run(dbegin, to.degree.data() + to.indptr[y + 1], degrees, [](Index d) { return d; });
        return std::pair<std::int64_t, std::int64_t>(to.indptr[y] + (first - dbegin), to.indptr[y] + (last - dbegin));
    };
    Match out;
    // Shortcut, exact for theta > 0: with one mapped neighbour y every candidate scores its own
    // weight 1 / sqrt(degree), so the best two are the first two unmapped ones of y's
    // degree-sorted row. Equal degrees there are a tie at the top (eccentricity 0): reject
    // without scoring the rest. This keeps the leaves of a mapped hub from reading each other.
    if (theta > 0.0) {
        Index only = -1;
        int mapped = 0;
        for (std::int64_t e = from.indptr[x]; e < from.indptr[x + 1] && mapped < 2; ++e) {
            const Index y = map[from.indices[e]];
            if (y >= 0) {
                only = y;
                ++mapped;
            }
        }
        if (mapped == 1) {
            const auto [begin, end] = window(only);
            std::int64_t first = -1;
            for (std::int64_t f = begin; f < end; ++f) {
                if (taken[to.indices[f]] >= 0) continue;
                if (first < 0) {
                    first = f;
                    continue;
                }
                if (to.degree[f] == to.degree[first]) {
                    out.best = to.indices[first];
                    out.second = to.indices[f];
                    return out;
                }
                break;
            }
            if (first < 0) return out;
        }
    }
    for (std::int64_t e = from.indptr[x]; e < from.indptr[x + 1]; ++e) {
        const Index y = map[from.indices[e]];
        if (y < 0) continue;
        const auto [begin, end] = window(y);
        for (std::int64_t f = begin; f < end; ++f) {
            const Index c = to.indices[f];
            if (taken[c] >= 0) continue;
            if (acc.score[c] == 0.0) acc.touched.push_back(c);
            acc.score[c] += to.entry_weight[f];
        }
    }
    return eccentricity_test(acc, static_cast<double>(to.weight.size()), theta, eccentricity);
}

constexpr std::int64_t kBlock = 256;

// best_match of each of `nodes` (of `from`; `map` its mapping into `to`), into out. A scoring
// reads only the node's degree and the images of its mapped neighbours in the order of its row,
// so nodes alike in both (twins: the pages of a site linking to the same hubs) are scored once.
template <class Index>
void match_nodes(const CsrView<Index>& from, const DegreeRows<Index>& to, const Index* map, const Index* taken,
                 const std::vector<std::int64_t>& nodes, double theta, double degree_ratio, Eccentricity eccentricity,
                 int threads, AccumulatorPool& pool, std::vector<Match>& out) {
    const std::int64_t n = static_cast<std::int64_t>(nodes.size());
    auto degree = [&](std::int64_t x) { return from.indptr[x + 1] - from.indptr[x]; };
    std::vector<std::int64_t> begin(static_cast<std::size_t>(n) + 1, 0), end(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) begin[i + 1] = begin[i] + degree(nodes[i]);
    std::vector<Index> images(static_cast<std::size_t>(begin[n]));
    std::vector<std::uint64_t> hash(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t first, std::int64_t last, std::int64_t) {
        for (std::int64_t i = first; i < last; ++i) {
            Index* image = images.data() + begin[i];
            std::uint64_t h = detail::mix64(static_cast<std::uint64_t>(degree(nodes[i])));
            for (std::int64_t e = from.indptr[nodes[i]]; e < from.indptr[nodes[i] + 1]; ++e) {
                const Index y = map[from.indices[e]];
                if (y < 0) continue;
                *image++ = y;
                h = detail::mix64(h ^ static_cast<std::uint64_t>(y));
            }
            end[i] = image - images.data();
            hash[i] = h;
        }
    });
    std::vector<std::int64_t> same;  // the first node alike
    detail::first_alike(
        n, hash.data(), images.data(), begin.data(), end.data(), [](std::int64_t) { return true; },
        [&](std::int64_t i, std::int64_t j) { return degree(nodes[i]) == degree(nodes[j]); }, same);
    out.resize(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t first, std::int64_t last, std::int64_t) {
        auto acc = pool.acquire();
        for (std::int64_t i = first; i < last; ++i)
            if (same[i] == i)
                out[i] = best_match(from, to, map, taken, nodes[i], theta, degree_ratio, eccentricity, *acc);
        pool.release(std::move(acc));
    });
    for (std::int64_t i = 0; i < n; ++i)
        if (same[i] != i) out[i] = out[same[i]];
}

}  // namespace

template <class Index>
PropagationStats propagate(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, double theta,
                           double degree_ratio, Eccentricity eccentricity, std::int64_t max_rounds, int threads) {
    std::vector<Index> inverse(static_cast<std::size_t>(aux.n), Index(-1));
    for (std::int64_t t = 0; t < target.n; ++t) {
        const Index a = mapping[t];
        if (a < 0) continue;
        if (a >= aux.n) throw std::out_of_range("mapping holds an aux node out of range");
        if (inverse[a] >= 0) throw std::invalid_argument("mapping sends two target nodes to one aux node");
        inverse[a] = static_cast<Index>(t);
    }
    const DegreeRows<Index> aux_rows = degree_rows(aux, threads);
    const DegreeRows<Index> target_rows = degree_rows(target, threads);
    AccumulatorPool aux_pool(aux.n), target_pool(target.n);
    // Forward results kept between rounds: a node is scored again only when it gains a mapped
    // neighbour or one of its best two candidates is mapped (see propagate in attack.hpp).
    std::vector<Match> cached(static_cast<std::size_t>(target.n));
    std::vector<char> fresh(static_cast<std::size_t>(target.n), 1);  // must be scored this round
    std::vector<std::int64_t> frontier, rescore, reverse_list, added_t;
    std::vector<Match> scored, reverse_match;
    std::vector<char> queued(static_cast<std::size_t>(aux.n), 0);
    std::vector<Index> reverse_of(static_cast<std::size_t>(aux.n), Index(-1));
    // The frontier: unmapped target nodes with a mapped neighbour, the only ones that can score,
    // in id order; kept from round to round (near[t]: t has a mapped neighbour).
    std::vector<char> near(static_cast<std::size_t>(target.n), 0);
    std::vector<std::int64_t> joined, merged;
    for (std::int64_t t = 0; t < target.n; ++t)
        if (mapping[t] >= 0)
            for (std::int64_t e = target.indptr[t]; e < target.indptr[t + 1]; ++e) near[target.indices[e]] = 1;
    for (std::int64_t t = 0; t < target.n; ++t)
        if (mapping[t] < 0 && near[t]) frontier.push_back(t);
    PropagationStats stats;
    while (stats.rounds < max_rounds) {
        ++stats.rounds;
        interrupt::check();
        rescore.clear();
        for (const std::int64_t t : frontier) {
            const Match& c = cached[t];
            if (fresh[t] || (c.best >= 0 && inverse[c.best] >= 0) || (c.second >= 0 && inverse[c.second] >= 0))
                rescore.push_back(t);
        }
        match_nodes(target, aux_rows, mapping, inverse.data(), rescore, theta, degree_ratio, eccentricity, threads,
                    aux_pool, scored);
        for (std::size_t i = 0; i < rescore.size(); ++i) {
            cached[rescore[i]] = scored[i];
            fresh[rescore[i]] = 0;
        }
        // Reverse match, once per distinct accepted candidate, always against this round's mapping.
        reverse_list.clear();
        for (const std::int64_t t : frontier) {
            const Match& c = cached[t];
            if (!c.accepted || queued[c.best]) continue;
            queued[c.best] = 1;
            reverse_list.push_back(c.best);
        }
        match_nodes(aux, target_rows, inverse.data(), mapping, reverse_list, theta, degree_ratio, eccentricity, threads,
                    target_pool, reverse_match);
        for (std::size_t i = 0; i < reverse_list.size(); ++i) {
            const Match& r = reverse_match[i];
            reverse_of[reverse_list[i]] = static_cast<Index>(r.accepted ? r.best : -1);
            queued[reverse_list[i]] = 0;
        }
        added_t.clear();
        for (const std::int64_t t : frontier) {
            const Match& c = cached[t];
            if (!c.accepted || reverse_of[c.best] != t) continue;
            mapping[t] = static_cast<Index>(c.best);
            inverse[c.best] = static_cast<Index>(t);
            added_t.push_back(t);
        }
        for (const std::int64_t c : reverse_list) reverse_of[c] = -1;
        // Neighbours of the new pairs have new evidence; the unmapped ones join the frontier.
        joined.clear();
        for (const std::int64_t t : added_t)
            for (std::int64_t e = target.indptr[t]; e < target.indptr[t + 1]; ++e) {
                const std::int64_t x = target.indices[e];
                fresh[x] = 1;
                if (!near[x] && mapping[x] < 0) joined.push_back(x);
                near[x] = 1;
            }
        stats.mapped += static_cast<std::int64_t>(added_t.size());
        if (added_t.empty()) break;
        frontier.erase(std::remove_if(frontier.begin(), frontier.end(), [&](std::int64_t t) { return mapping[t] >= 0; }),
                       frontier.end());
        std::sort(joined.begin(), joined.end());
        merged.clear();
        std::merge(frontier.begin(), frontier.end(), joined.begin(), joined.end(), std::back_inserter(merged));
        frontier.swap(merged);
    }
    return stats;
}

template LinkCounts link_counts(const std::int32_t*, const std::int32_t*, const double*, std::int64_t,
                                const std::int32_t*, const std::int32_t*, std::int64_t);
template LinkCounts link_counts(const std::int64_t*, const std::int64_t*, const double*, std::int64_t,
                                const std::int64_t*, const std::int64_t*, std::int64_t);
template PropagationStats propagate(const CsrView<std::int32_t>&, const CsrView<std::int32_t>&, std::int32_t*, double,
                                    double, Eccentricity, std::int64_t, int);
template PropagationStats propagate(const CsrView<std::int64_t>&, const CsrView<std::int64_t>&, std::int64_t*, double,
                                    double, Eccentricity, std::int64_t, int);

}  // namespace graphveil
