// The directed propagation kernel alone (and the directed matching kernels at the end): direction tells apart the nodes that the undirected graph
// cannot (the twins of a triangle), the mapping is the same on any thread count, and an out- and
// in-CSR that disagree, or seeds that are not a partial matching, are refused.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "graphveil/attack_directed.hpp"
#include "graphveil/csr.hpp"
#include "graphveil/matching.hpp"

namespace {

struct Digraph {
    graphveil::Csr<std::int32_t> out;
    graphveil::Csr<std::int32_t> in;
    graphveil::DigraphView<std::int32_t> view() const {
        return {{out.n, out.indptr.data(), out.indices.data()}, {in.n, in.indptr.data(), in.indices.data()}};
    }
};

Digraph digraph(std::int64_t n, const std::vector<std::int64_t>& u, const std::vector<std::int64_t>& v) {
    graphveil::CsrBuildCounts counts;
    Digraph g;
    g.out = graphveil::build_digraph_csr<std::int32_t>(n, u.data(), v.data(), static_cast<std::int64_t>(u.size()), 1,
                                                      counts);
    g.in = graphveil::csr_transpose<std::int32_t>(g.out.indptr.data(), g.out.indices.data(), n);
    return g;
}

// The 3-cycle 0 -> 1 -> 2 -> 0 and the tail 2 -> 3 -> 4 -> 5, with 5 -> 3 and 4 -> 2.
const auto kGraph = digraph(6, {0, 1, 2, 2, 3, 4, 5, 4}, {1, 2, 0, 3, 4, 5, 3, 2});

graphveil::PropagationStats run(const Digraph& g, std::vector<std::int32_t>& mapping, int threads) {
    return graphveil::propagate_directed(g.view(), g.view(), mapping.data(), 0.5, 2.0,
                                         graphveil::Eccentricity::kAllNodes, 100, threads);
}

}  // namespace

TEST(directed_propagation_maps_a_digraph_against_itself_on_any_thread_count) {
    std::vector<std::int32_t> one(6, -1), many(6, -1);
    one[2] = many[2] = 2;
    const auto stats = run(kGraph, one, 1);
    run(kGraph, many, 4);
    CHECK(one == many);
    for (std::int32_t x = 0; x < 6; ++x) CHECK(one[x] == x);  // 0 and 1: told apart by direction
    CHECK(stats.mapped == 5 && stats.rounds >= 2);
}

TEST(directed_propagation_refuses_bad_input) {
    std::vector<std::int32_t> mapping(6, -1);
    mapping[0] = 1;
    mapping[2] = 1;  // two target nodes on one aux node
    CHECK(graphveil::test::throws<std::invalid_argument>([&] { run(kGraph, mapping, 1); }));
    std::vector<std::int32_t> seeds(6, -1);
    seeds[2] = 2;
    auto bad = kGraph.view();
    bad.in.n = 5;  // an in-CSR of another graph
    CHECK(graphveil::test::throws<std::invalid_argument>([&] {
        graphveil::propagate_directed(bad, kGraph.view(), seeds.data(), 0.5, 2.0,
                                      graphveil::Eccentricity::kAllNodes, 100, 1);
    }));
}

TEST(directed_matching_maps_a_digraph_against_itself_on_any_thread_count) {
    std::vector<std::int32_t> marks(6, -1), one(6, -1), many(6, -1);
    marks[2] = 2;  // percolation at r = 2: marks along out-arcs and in-arcs reach every node
    const auto stats = graphveil::percolate_directed(kGraph.view(), kGraph.view(), marks.data(), 2, true, INT64_MAX,
                                                     INT64_MAX);
    for (std::int32_t x = 0; x < 6; ++x) CHECK(marks[x] == x);
    CHECK(stats.mapped == 5 && stats.marked > 0);
    for (auto* m : {&one, &many}) (*m)[2] = 2, (*m)[3] = 3;
    graphveil::reconcile_directed(kGraph.view(), kGraph.view(), one.data(), 1, 10, INT64_MAX, 1);
    graphveil::reconcile_directed(kGraph.view(), kGraph.view(), many.data(), 1, 10, INT64_MAX, 4);
    CHECK(one == many);
    for (std::int32_t x = 0; x < 6; ++x) CHECK(one[x] == x);
    std::vector<std::int32_t> bad(6, -1);
    bad[0] = bad[1] = 2;
    CHECK(graphveil::test::throws<std::invalid_argument>([&] {
        graphveil::reconcile_directed(kGraph.view(), kGraph.view(), bad.data(), 1, 10, INT64_MAX, 1);
    }));
}
