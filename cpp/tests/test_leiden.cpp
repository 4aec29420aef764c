// The Leiden kernel (leiden.hpp) on graphs whose best communities are known: two cliques joined
// by one edge, a graph without edges; seeded runs repeat; bad arguments are refused.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "graphveil/csr.hpp"
#include "graphveil/leiden.hpp"

namespace {

graphveil::Csr<std::int32_t> graph(std::int64_t n, const std::vector<std::int64_t>& u,
                                   const std::vector<std::int64_t>& v) {
    graphveil::CsrBuildCounts counts;
    return graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), static_cast<std::int64_t>(u.size()), 1,
                                              counts);
}

// Two 5-cliques, {0..4} and {5..9}, joined by the edge 4-5.
graphveil::Csr<std::int32_t> two_cliques() {
    std::vector<std::int64_t> u, v;
    for (std::int64_t side = 0; side < 2; ++side)
        for (std::int64_t i = 0; i < 5; ++i)
            for (std::int64_t j = i + 1; j < 5; ++j) {
                u.push_back(5 * side + i);
                v.push_back(5 * side + j);
            }
    u.push_back(4);
    v.push_back(5);
    return graph(10, u, v);
}

}  // namespace

TEST(leiden_splits_two_joined_cliques) {
    const auto g = two_cliques();
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        const auto r = graphveil::leiden_modularity<std::int32_t>(g.indptr.data(), g.indices.data(), g.n, 1.0, 2, seed);
        const std::vector<std::int64_t> expected{0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
        CHECK(r.membership == expected);
        CHECK(r.levels >= 1);
    }
}

TEST(leiden_leaves_nodes_without_edges_alone_and_repeats_a_seed) {
    const auto empty = graph(3, {}, {});
    const auto r = graphveil::leiden_modularity<std::int32_t>(empty.indptr.data(), empty.indices.data(), 3, 1.0, 2, 1);
    CHECK((r.membership == std::vector<std::int64_t>{0, 1, 2}));
    const auto g = two_cliques();
    const auto a = graphveil::leiden_modularity<std::int32_t>(g.indptr.data(), g.indices.data(), g.n, 0.5, 1, 9);
    const auto b = graphveil::leiden_modularity<std::int32_t>(g.indptr.data(), g.indices.data(), g.n, 0.5, 1, 9);
    CHECK(a.membership == b.membership);
}

TEST(leiden_refuses_bad_arguments) {
    const auto g = two_cliques();
    const auto run = [&](double resolution, std::int64_t iterations) {
        graphveil::leiden_modularity<std::int32_t>(g.indptr.data(), g.indices.data(), g.n, resolution, iterations, 1);
    };
    CHECK(graphveil::test::throws<std::invalid_argument>([&] { run(0.0, 2); }));
    CHECK(graphveil::test::throws<std::invalid_argument>([&] { run(1.0, 0); }));
}
