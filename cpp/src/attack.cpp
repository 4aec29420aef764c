#include "graphveil/attack.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "graphveil/parallel.hpp"

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
            out.top_hits += static_cast<double>(gp) * static_cast<double>(out.top_k - taken) / static_cast<double>(group);
            taken = out.top_k;
        }
    }
    return out;
}

namespace {

// A dense score accumulator over one graph's nodes with the list of touched entries, reused
// across the nodes a worker scores (cleared through the touched list, O(touched)).
struct Accumulator {
    std::vector<double> score;
    std::vector<std::int64_t> touched;
    explicit Accumulator(std::int64_t n) : score(static_cast<std::size_t>(n), 0.0) {}
};

// A pool handing one accumulator to each running block; at most `threads` are ever created.
class AccumulatorPool {
  public:
    explicit AccumulatorPool(std::int64_t n) : n_(n) {}
    std::unique_ptr<Accumulator> acquire() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) return std::make_unique<Accumulator>(n_);
        auto acc = std::move(free_.back());
        free_.pop_back();
        return acc;
    }
    void release(std::unique_ptr<Accumulator> acc) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(std::move(acc));
    }

  private:
    std::int64_t n_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<Accumulator>> free_;
};

struct Best {
    std::int64_t node = -1;  // -1: no candidate, or the eccentricity test failed
};

// Scores the unmapped nodes of `to` from node x of `from` (see propagate) and returns the best
// one if its eccentricity passes theta. `map` sends `from` nodes to `to` nodes (-1 unmapped),
// `taken[c]` says whether `to` node c is already an image.
template <class Index>
std::int64_t best_match(const CsrRef<Index>& from, const CsrRef<Index>& to, const Index* map, const Index* taken,
                        const double* weight, std::int64_t x, double theta, double degree_ratio, Accumulator& acc) {
    // Candidates of degree outside [deg x / ratio, deg x * ratio] are not scored.
    const double dx = static_cast<double>(from.indptr[x + 1] - from.indptr[x]);
    const double low = dx / degree_ratio, high = dx * degree_ratio;
    for (std::int64_t e = from.indptr[x]; e < from.indptr[x + 1]; ++e) {
        const Index y = map[from.indices[e]];
        if (y < 0) continue;
        for (std::int64_t f = to.indptr[y]; f < to.indptr[y + 1]; ++f) {
            const Index c = to.indices[f];
            if (taken[c] >= 0) continue;
            const double dc = static_cast<double>(to.indptr[c + 1] - to.indptr[c]);
            if (dc < low || dc > high) continue;
            if (acc.score[c] == 0.0) acc.touched.push_back(c);
            acc.score[c] += weight[c];
        }
    }
    const std::size_t k = acc.touched.size();
    if (k == 0) return -1;
    double sum = 0.0, top = -1.0, second = 0.0;
    std::int64_t best = -1;
    for (const std::int64_t c : acc.touched) {
        const double s = acc.score[c];
        sum += s;
        if (s > top || (s == top && c < best)) {
            if (best >= 0) second = std::max(second, top);
            top = s;
            best = c;
        } else {
            second = std::max(second, s);
        }
    }
    const double mean = sum / static_cast<double>(k);
    double ss = 0.0;
    for (const std::int64_t c : acc.touched) {
        const double d = acc.score[c] - mean;
        ss += d * d;
        acc.score[c] = 0.0;
    }
    acc.touched.clear();
    const double sd = std::sqrt(ss / static_cast<double>(k));
    double ecc;
    if (k == 1)
        ecc = std::numeric_limits<double>::infinity();
    else if (top == second)
        ecc = 0.0;
    else
        ecc = (top - second) / sd;
    return ecc >= theta ? best : -1;
}

template <class Index>
std::vector<double> inverse_sqrt_degree(const CsrRef<Index>& g) {
    std::vector<double> w(static_cast<std::size_t>(g.n), 0.0);
    for (std::int64_t c = 0; c < g.n; ++c) {
        const std::int64_t d = g.indptr[c + 1] - g.indptr[c];
        if (d > 0) w[c] = 1.0 / std::sqrt(static_cast<double>(d));
    }
    return w;
}

constexpr std::int64_t kBlock = 256;

}  // namespace

template <class Index>
PropagationStats propagate(const CsrRef<Index>& target, const CsrRef<Index>& aux, Index* mapping, double theta,
                           double degree_ratio, std::int64_t max_rounds, int threads) {
    std::vector<Index> inverse(static_cast<std::size_t>(aux.n), Index(-1));
    for (std::int64_t t = 0; t < target.n; ++t) {
        const Index a = mapping[t];
        if (a < 0) continue;
        if (a >= aux.n) throw std::out_of_range("mapping holds an aux node out of range");
        if (inverse[a] >= 0) throw std::invalid_argument("mapping sends two target nodes to one aux node");
        inverse[a] = static_cast<Index>(t);
    }
    const std::vector<double> w_aux = inverse_sqrt_degree(aux);
    const std::vector<double> w_target = inverse_sqrt_degree(target);
    AccumulatorPool aux_pool(aux.n), target_pool(target.n);
    std::vector<std::int64_t> frontier, proposed, proposal, reverse_list;
    std::vector<Index> reverse_of(static_cast<std::size_t>(aux.n), Index(-1));
    PropagationStats stats;
    while (stats.rounds < max_rounds) {
        ++stats.rounds;
        // Unmapped target nodes with a mapped neighbour: the only ones that can score.
        frontier.clear();
        for (std::int64_t t = 0; t < target.n; ++t) {
            if (mapping[t] >= 0) continue;
            for (std::int64_t e = target.indptr[t]; e < target.indptr[t + 1]; ++e)
                if (mapping[target.indices[e]] >= 0) {
                    frontier.push_back(t);
                    break;
                }
        }
        proposal.assign(frontier.size(), -1);
        parallel_ranges(static_cast<std::int64_t>(frontier.size()), kBlock, threads,
                        [&](std::int64_t begin, std::int64_t end, std::int64_t) {
                            auto acc = aux_pool.acquire();
                            for (std::int64_t i = begin; i < end; ++i)
                                proposal[i] = best_match(target, aux, mapping, inverse.data(), w_aux.data(),
                                                         frontier[i], theta, degree_ratio, *acc);
                            aux_pool.release(std::move(acc));
                        });
        // Reverse match, once per distinct proposed aux node.
        reverse_list.clear();
        for (const std::int64_t c : proposal) {
            if (c < 0 || reverse_of[c] == -2) continue;
            reverse_of[c] = -2;  // queued
            reverse_list.push_back(c);
        }
        proposed.assign(reverse_list.size(), -1);
        parallel_ranges(static_cast<std::int64_t>(reverse_list.size()), kBlock, threads,
                        [&](std::int64_t begin, std::int64_t end, std::int64_t) {
                            auto acc = target_pool.acquire();
                            for (std::int64_t i = begin; i < end; ++i)
                                proposed[i] = best_match(aux, target, inverse.data(), mapping, w_target.data(),
                                                         reverse_list[i], theta, degree_ratio, *acc);
                            target_pool.release(std::move(acc));
                        });
        for (std::size_t i = 0; i < reverse_list.size(); ++i) reverse_of[reverse_list[i]] = static_cast<Index>(proposed[i]);
        std::int64_t added = 0;
        for (std::size_t i = 0; i < frontier.size(); ++i) {
            const std::int64_t t = frontier[i], c = proposal[i];
            if (c < 0 || reverse_of[c] != t) continue;
            mapping[t] = static_cast<Index>(c);
            inverse[c] = static_cast<Index>(t);
            ++added;
        }
        for (const std::int64_t c : reverse_list) reverse_of[c] = -1;
        stats.mapped += added;
        if (added == 0) break;
    }
    return stats;
}

template LinkCounts link_counts(const std::int32_t*, const std::int32_t*, const double*, std::int64_t,
                                const std::int32_t*, const std::int32_t*, std::int64_t);
template LinkCounts link_counts(const std::int64_t*, const std::int64_t*, const double*, std::int64_t,
                                const std::int64_t*, const std::int64_t*, std::int64_t);
template PropagationStats propagate(const CsrRef<std::int32_t>&, const CsrRef<std::int32_t>&, std::int32_t*, double,
                                    double, std::int64_t, int);
template PropagationStats propagate(const CsrRef<std::int64_t>&, const CsrRef<std::int64_t>&, std::int64_t*, double,
                                    double, std::int64_t, int);

}  // namespace graphveil
