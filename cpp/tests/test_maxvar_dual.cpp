// The MaxVar QP (minimise sum p^2 subject to the expected degrees, 0 <= p <= 1) on tiny
// problems solved by hand.
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "graphveil/maxvar_dual.hpp"

namespace {

std::vector<double> solve(std::int64_t n, const std::vector<std::int32_t>& pu, const std::vector<std::int32_t>& pv,
                          const std::vector<double>& degree, graphveil::QpStats& stats) {
    std::vector<double> p(pu.size());
    stats = graphveil::maxvar_dual_solve<std::int32_t>(n, static_cast<std::int64_t>(pu.size()), pu.data(), pv.data(),
                                                       degree.data(), p.data(), graphveil::QpOptions{});
    return p;
}

}  // namespace

TEST(four_cycle_with_unit_degrees_splits_evenly) {
    // Pairs 01, 12, 23, 30 and every degree 1: p01 = p23 = a, p12 = p30 = 1 - a, and
    // 2a^2 + 2(1 - a)^2 is least at a = 1/2 (objective 1).
    graphveil::QpStats stats;
    const auto p = solve(4, {0, 1, 2, 0}, {1, 2, 3, 3}, {1, 1, 1, 1}, stats);
    for (double x : p) CHECK_NEAR(x, 0.5, 1e-9);
    CHECK(stats.converged);
    CHECK_NEAR(stats.objective, 1.0, 1e-9);
    CHECK(stats.eq_residual <= 1e-9);
    CHECK(stats.box_residual == 0.0);
}

TEST(a_chord_pinned_at_the_upper_bound) {
    // The four-cycle plus the chord 02, degrees (2, 1, 2, 1). Nodes 1 and 3 give p12 = 1 - p01,
    // p23 = 1 - p30; node 0 gives p02 = 2 - p01 - p30, and node 2 then forces p01 + p30 = 1, so
    // p02 = 1 (on the box) and the objective 2a^2 + 2(1 - a)^2 + 1 is least at a = 1/2.
    graphveil::QpStats stats;
    const auto p = solve(4, {0, 1, 2, 0, 0}, {1, 2, 3, 3, 2}, {2, 1, 2, 1}, stats);
    const std::vector<double> expected = {0.5, 0.5, 0.5, 0.5, 1.0};
    for (std::size_t e = 0; e < p.size(); ++e) CHECK_NEAR(p[e], expected[e], 1e-9);
    CHECK(stats.converged);
    CHECK_NEAR(stats.objective, 2.0, 1e-9);
    CHECK(stats.box_residual == 0.0);
}

TEST(dual_objective_meets_the_primal_at_the_optimum) {
    // A star 0-1, 0-2, 0-3 plus the pair 1-2 with degrees (1.5, 0.75, 0.75, 0.5): p03 = 0.5 from
    // node 3, then p01 + p02 = 1, p01 + p12 = 0.75, p02 + p12 = 0.75 give p01 = p02 = 0.5 and
    // p12 = 0.25; objective 3 * 0.25 + 0.0625 = 0.8125. Strong duality: dual value = primal value.
    graphveil::QpStats stats;
    const auto p = solve(4, {0, 0, 0, 1}, {1, 2, 3, 2}, {1.5, 0.75, 0.75, 0.5}, stats);
    const std::vector<double> expected = {0.5, 0.5, 0.5, 0.25};
    for (std::size_t e = 0; e < p.size(); ++e) CHECK_NEAR(p[e], expected[e], 1e-9);
    CHECK_NEAR(stats.objective, 0.8125, 1e-9);
    CHECK_NEAR(stats.dual_objective, stats.objective, 1e-8);
}
