// The graph-matching kernels alone: on a graph against itself both grow the seeds to every node
// without a structural twin, the same on any thread count, and refuse seeds that are not a
// partial matching.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "graphveil/csr.hpp"
#include "graphveil/matching.hpp"

namespace {

graphveil::Csr<std::int32_t> graph(std::int64_t n, const std::vector<std::int64_t>& u,
                                   const std::vector<std::int64_t>& v) {
    graphveil::CsrBuildCounts counts;
    return graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), static_cast<std::int64_t>(u.size()), 1, counts);
}

graphveil::CsrView<std::int32_t> view(const graphveil::Csr<std::int32_t>& g) {
    return {g.n, g.indptr.data(), g.indices.data()};
}

// Two triangles 0-1-2 and 3-4-5 joined by 2-3, a square 5-6-7-8 with a chord 6-8, a leaf 9 on 8:
// no two nodes share a neighbourhood but 0 and 1 (true twins).
const auto kGraph = graph(10, {0, 0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 6, 8}, {1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 5, 8, 9});

}  // namespace

TEST(percolation_grows_the_seeds_on_a_graph_against_itself) {
    const auto g = view(kGraph);
    std::vector<std::int32_t> mapping(10, -1);
    mapping[2] = 2;
    mapping[3] = 3;
    const auto stats = graphveil::percolate(g, g, mapping.data(), 1, true, INT64_MAX, INT64_MAX);
    for (std::int32_t x = 2; x < 10; ++x) CHECK(mapping[x] == x);
    CHECK((mapping[0] == 0 && mapping[1] == 1) || (mapping[0] == 1 && mapping[1] == 0));  // twins: a guess
    CHECK(stats.mapped == 8 && stats.marked > 0);
}

TEST(reconciliation_never_guesses_and_ignores_threads) {
    const auto g = view(kGraph);
    std::vector<std::int32_t> one(10, -1), many(10, -1);
    for (auto* m : {&one, &many}) (*m)[2] = 2, (*m)[3] = 3, (*m)[5] = 5;
    graphveil::reconcile(g, g, one.data(), 1, 10, INT64_MAX, 1);
    graphveil::reconcile(g, g, many.data(), 1, 10, INT64_MAX, 4);
    CHECK(one == many);
    CHECK(one[0] == -1 && one[1] == -1);  // the twins tie: neither is matched
    for (std::int32_t x = 2; x < 9; ++x) CHECK(one[x] == x);
    CHECK(one[9] == -1);  // degree 1: below the last bucket (degree >= 2)
}

TEST(matching_kernels_refuse_a_seed_mapping_that_is_not_a_matching) {
    const auto g = view(kGraph);
    std::vector<std::int32_t> mapping(10, -1);
    mapping[0] = 4;
    mapping[1] = 4;
    CHECK(graphveil::test::throws<std::invalid_argument>([&] { graphveil::percolate(g, g, mapping.data(), 2, true, 100, 100); }));
    CHECK(graphveil::test::throws<std::invalid_argument>([&] { graphveil::reconcile(g, g, mapping.data(), 2, 1, 100, 1); }));
    mapping[1] = 10;
    CHECK(graphveil::test::throws<std::out_of_range>([&] { graphveil::reconcile(g, g, mapping.data(), 2, 1, 100, 1); }));
}
