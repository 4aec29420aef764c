#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "graphveil/attack.hpp"

namespace graphveil {

// What the propagation kernels (attack.cpp, attack_directed.cpp) share: the score accumulator of
// one scoring, the degree window of the candidates, and the eccentricity test of Narayanan and
// Shmatikov that decides whether the best candidate is proposed.

// A dense score accumulator over one graph's nodes with the list of touched entries, reused
// across the nodes a worker scores (cleared through the touched list, O(touched)).
struct ScoreAccumulator {
    std::vector<double> score;
    std::vector<std::int64_t> touched;
    std::vector<double> values;  // the touched scores in touched order (the test's second pass)
    explicit ScoreAccumulator(std::int64_t n) : score(static_cast<std::size_t>(n), 0.0) {}
};

// The outcome of scoring one node: its best two candidates (-1 when absent) in (score desc, id
// asc) order and whether the best passes the eccentricity test.
struct Match {
    std::int64_t best = -1;
    std::int64_t second = -1;
    bool accepted = false;
};

// A degree window: the degrees d with d / ratio <= d' <= d * ratio, as integer bounds; every
// degree when the ratio is infinite (no window).
template <class Index>
struct Window {
    Index low = 0;
    Index high = std::numeric_limits<Index>::max();
    Window(double d, double ratio) {
        if (std::isfinite(ratio)) {
            low = static_cast<Index>(std::ceil(d / ratio));
            const double top = std::floor(d * ratio);
            if (top < static_cast<double>(high)) high = static_cast<Index>(top);
        }
    }
    bool holds(Index d) const { return low <= d && d <= high; }
};

// The run [first, last) of [begin, end), sorted by key(entry) ascending, whose keys lie in `window`.
template <class It, class Index, class Key>
std::pair<It, It> window_run(It begin, It end, const Window<Index>& window, Key&& key) {
    const It first = std::partition_point(begin, end, [&](const auto& e) { return key(e) < window.low; });
    const It last = std::partition_point(first, end, [&](const auto& e) { return key(e) <= window.high; });
    return {first, last};
}

// The eccentricity test of the touched scores of `acc` (see propagate in attack.hpp), clearing
// them: (max - second max) / std, std over the n nodes of the scored graph (kAllNodes, zeros
// included) or over the touched candidates (kScored); equal top scores give 0, a std of 0
// otherwise (a lone score) +inf. Sums run in touched order, so the result depends on it alone.
// `deps`, when given, receives the touched candidates.
inline Match eccentricity_test(ScoreAccumulator& acc, double n, double theta, Eccentricity eccentricity,
                               std::vector<std::int64_t>* deps = nullptr) {
    Match out;
    const std::size_t k = acc.touched.size();
    if (deps != nullptr) deps->assign(acc.touched.begin(), acc.touched.end());
    if (k == 0) return out;
    double sum = 0.0, top = 0.0, second = 0.0;
    auto better = [](double s, std::int64_t c, double s2, std::int64_t c2) {
        return c2 < 0 || s > s2 || (s == s2 && c < c2);
    };
    acc.values.resize(k);
    for (std::size_t i = 0; i < k; ++i) {
        const std::int64_t c = acc.touched[i];
        const double s = acc.score[c];
        acc.values[i] = s;
        acc.score[c] = 0.0;
        sum += s;
        if (better(s, c, top, out.best)) {
            second = top;
            out.second = out.best;
            top = s;
            out.best = c;
        } else if (better(s, c, second, out.second)) {
            second = s;
            out.second = c;
        }
    }
    const double mean = sum / static_cast<double>(k);
    double ss = 0.0;  // sum of squared deviations of the k nonzero scores from their mean
    for (const double s : acc.values) {
        const double d = s - mean;
        ss += d * d;
    }
    acc.touched.clear();
    // Over every node (NS 2009): the z = n - k others score 0. Merging the two groups (Chan et
    // al.): ss + mean^2 k z / n, in O(k) instead of O(n) and free of cancellation.
    const double kd = static_cast<double>(k);
    const bool all = eccentricity == Eccentricity::kAllNodes;
    const double count = all ? n : kd;
    const double spread = all ? ss + mean * mean * kd * (n - kd) / n : ss;
    double ecc;
    if (top == second)
        ecc = 0.0;
    else if (spread <= 0.0)  // a lone score and nothing else to compare with: no rival at all
        ecc = std::numeric_limits<double>::infinity();
    else
        ecc = (top - second) / std::sqrt(spread / count);
    out.accepted = ecc >= theta;
    return out;
}

}  // namespace graphveil
