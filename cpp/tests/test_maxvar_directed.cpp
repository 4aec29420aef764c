// The directed MaxVar QP (minimise sum p^2 subject to every out- and in-degree, 0 <= p <= 1) and
// its fixed arcs on tiny problems solved by hand.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "graphveil/maxvar_directed.hpp"

namespace {

using Arcs = std::vector<std::int32_t>;

// Two blocks, out-copies {0, 1} -> in-copies {4, 5} and {2, 3} -> {6, 7}, each complete, plus the
// arc 2 -> 4; every out-degree of 0..3 and in-degree of 4..7 is 1 (a perfect matching). Each node
// has two or three arcs and degree 1, so no single count forces anything, but nodes 0 and 1 must
// fill both of 4 and 5 (they reach nothing else), so 2 -> 4 is 0 at every feasible point; the
// blocks are then independent, each a four-cycle at p = 1/2.
const Arcs kTails = {0, 0, 1, 1, 2, 2, 3, 3, 2};
const Arcs kHeads = {4, 5, 4, 5, 6, 7, 6, 7, 4};
const std::vector<double> kOut = {1, 1, 1, 1, 0, 0, 0, 0};
const std::vector<double> kIn = {0, 0, 0, 0, 1, 1, 1, 1};

template <class F>
bool throws_invalid_argument(F f) {
    try {
        f();
    } catch (const std::invalid_argument&) {
        return true;
    }
    return false;
}

}  // namespace

TEST(a_group_of_nodes_fixes_an_arc_no_single_count_fixes) {
    std::vector<std::int64_t> component;
    const auto status =
        graphveil::fixed_arcs<std::int32_t>(8, 9, kTails.data(), kHeads.data(), kOut.data(), kIn.data(), &component);
    const std::vector<signed char> expected_status = {-1, -1, -1, -1, -1, -1, -1, -1, 0};
    const std::vector<std::int64_t> expected_component = {0, 0, 0, 0, 1, 1, 1, 1, -1};
    CHECK(status == expected_status);
    CHECK(component == expected_component);
}

TEST(the_directed_qp_fixes_then_solves_each_component) {
    std::vector<double> p(kTails.size());
    const auto stats = graphveil::maxvar_directed_solve<std::int32_t>(8, 9, kTails.data(), kHeads.data(), kOut.data(),
                                                                      kIn.data(), p.data(), graphveil::QpOptions{});
    for (std::size_t k = 0; k < 8; ++k) CHECK_NEAR(p[k], 0.5, 1e-12);
    CHECK(p[8] == 0.0);
    CHECK(stats.flow_fixed == 1 && stats.components == 2);
    CHECK(stats.qp.converged && stats.qp.projection_iterations == 0);
    CHECK_NEAR(stats.qp.objective, 2.0, 1e-12);
    CHECK_NEAR(stats.qp.dual_objective, 2.0, 1e-9);
}

TEST(the_complete_digraph_on_three_nodes_splits_every_arc) {
    // Out- and in-degree 1 at every node: the two directed triangles, each the optimum's half.
    const Arcs tails = {0, 1, 2, 0, 2, 1}, heads = {1, 2, 0, 2, 1, 0};
    const std::vector<double> one = {1, 1, 1};
    std::vector<double> p(tails.size());
    const auto stats = graphveil::maxvar_directed_solve<std::int32_t>(3, 6, tails.data(), heads.data(), one.data(),
                                                                      one.data(), p.data(), graphveil::QpOptions{});
    for (double x : p) CHECK_NEAR(x, 0.5, 1e-12);
    CHECK(stats.flow_fixed == 0 && stats.components == 1 && stats.qp.converged);
}

TEST(degrees_no_arcs_can_meet_are_refused) {
    std::vector<double> out = kOut;
    out[0] = 3;  // node 0 has two arcs
    CHECK(throws_invalid_argument(
        [&] { graphveil::fixed_arcs<std::int32_t>(8, 9, kTails.data(), kHeads.data(), out.data(), kIn.data()); }));
    std::vector<double> in = kIn;
    in[4] = 0;  // out-degrees sum to 4, in-degrees to 3
    CHECK(throws_invalid_argument(
        [&] { graphveil::fixed_arcs<std::int32_t>(8, 9, kTails.data(), kHeads.data(), kOut.data(), in.data()); }));
    out = kOut;
    out[0] = 0.5;  // not a count
    CHECK(throws_invalid_argument(
        [&] { graphveil::fixed_arcs<std::int32_t>(8, 9, kTails.data(), kHeads.data(), out.data(), kIn.data()); }));
}
