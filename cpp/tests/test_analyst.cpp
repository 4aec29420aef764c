// The analyst kernels (analyst.hpp, count_triangles' per-node counts) against closed forms on
// small graphs, and the same answers for any thread count on a pseudo-random one.
#include <cmath>
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "graphveil/analyst.hpp"
#include "graphveil/csr.hpp"
#include "graphveil/statistics.hpp"

namespace {

graphveil::Csr<std::int32_t> graph(std::int64_t n, const std::vector<std::int64_t>& u,
                                   const std::vector<std::int64_t>& v, int threads = 1) {
    graphveil::CsrBuildCounts counts;
    return graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), static_cast<std::int64_t>(u.size()), threads,
                                              counts);
}

// A star: node 0 joined to 1, 2, 3.
graphveil::Csr<std::int32_t> star() { return graph(4, {0, 0, 0}, {1, 2, 3}); }

// A pseudo-random graph on n nodes with about `pairs` edges (an LCG keeps it self-contained).
graphveil::Csr<std::int32_t> random_graph(std::int64_t n, std::int64_t pairs) {
    std::vector<std::int64_t> u(static_cast<std::size_t>(pairs)), v(static_cast<std::size_t>(pairs));
    std::uint64_t x = 2024;
    for (std::size_t i = 0; i < u.size(); ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        u[i] = static_cast<std::int64_t>((x >> 33) % static_cast<std::uint64_t>(n));
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        // half the pairs near the diagonal: triangles and a skewed spectrum
        v[i] = i % 2 ? static_cast<std::int64_t>((x >> 33) % static_cast<std::uint64_t>(n))
                     : (u[i] + 1 + static_cast<std::int64_t>((x >> 33) % 5)) % n;
    }
    return graph(n, u, v, 2);
}

}  // namespace

TEST(pagerank_of_a_star_is_its_closed_form) {
    const auto g = star();
    const auto r = graphveil::pagerank<std::int32_t>(g.indptr.data(), g.indices.data(), 4, 0.85, 1e-14, 1000, 1);
    // c = 0.15 / 4 + 0.85 * 3 l and l = 0.15 / 4 + 0.85 c / 3 give c = 0.133125 / 0.2775
    const double centre = 0.133125 / 0.2775, leaf = (1.0 - centre) / 3.0;
    CHECK_NEAR(r.rank[0], centre, 1e-12);
    for (int v = 1; v < 4; ++v) CHECK_NEAR(r.rank[static_cast<std::size_t>(v)], leaf, 1e-12);
    CHECK(r.iterations > 1 && r.iterations < 1000);
}

TEST(top_eigenvector_of_a_star_and_a_clique) {
    const auto s = star();  // lambda = sqrt(3), x = (sqrt(3), 1, 1, 1) / sqrt(6)
    auto e = graphveil::top_eigenvector<std::int32_t>(s.indptr.data(), s.indices.data(), 4, 1e-12, 100, 1);
    CHECK(e.converged && e.residual < 1e-12);
    CHECK_NEAR(e.value, std::sqrt(3.0), 1e-12);
    CHECK_NEAR(std::abs(e.vector[0]), std::sqrt(0.5), 1e-12);
    CHECK_NEAR(std::abs(e.vector[3]), std::sqrt(1.0 / 6.0), 1e-12);
    std::vector<std::int64_t> u, v;  // K5: lambda = 4, x uniform
    for (int a = 0; a < 5; ++a)
        for (int b = a + 1; b < 5; ++b) u.push_back(a), v.push_back(b);
    const auto k5 = graph(5, u, v);
    e = graphveil::top_eigenvector<std::int32_t>(k5.indptr.data(), k5.indices.data(), 5, 1e-12, 100, 1);
    CHECK(e.converged && e.steps == 1);  // ones is the eigenvector: an invariant subspace at once
    CHECK_NEAR(e.value, 4.0, 1e-12);
    for (const double x : e.vector) CHECK_NEAR(x, 1.0 / std::sqrt(5.0), 1e-12);
    e = graphveil::top_eigenvector<std::int32_t>(s.indptr.data(), s.indices.data(), 4, 1e-12, 0, 1);
    CHECK(!e.converged && e.vector.empty());  // no steps allowed: refused, not guessed
}

TEST(per_node_triangles_of_a_clique_and_a_star) {
    std::vector<std::int64_t> u{0, 0, 0, 1, 1, 2, 3}, v{1, 2, 3, 2, 3, 3, 4};  // K4 and a pendant 4
    const auto g = graph(5, u, v);
    std::vector<std::int64_t> per(5, -1);
    const auto counts = graphveil::count_triangles<std::int32_t>(g.indptr.data(), g.indices.data(), 5, 2, per.data());
    CHECK(counts.triangles == 4);
    CHECK((per == std::vector<std::int64_t>{3, 3, 3, 3, 0}));
}

TEST(influence_reach_at_p_zero_and_one) {
    const auto g = graph(6, {0, 0, 3}, {1, 2, 4});  // {0,1,2}, {3,4}, 5 alone
    const std::vector<std::int64_t> seeds{1, 1, 4};
    CHECK(graphveil::influence_reach<std::int32_t>(g.indptr.data(), g.indices.data(), 6, seeds.data(), 3, 1.0, 7, 9,
                                                   2) == 7 * 5);
    CHECK(graphveil::influence_reach<std::int32_t>(g.indptr.data(), g.indices.data(), 6, seeds.data(), 3, 0.0, 7, 9,
                                                   2) == 7 * 2);
}

TEST(analyst_kernels_are_the_same_for_any_thread_count) {
    const std::int64_t n = 20000;  // five blocks of 4096 nodes
    const auto g = random_graph(n, 60000);
    const auto* ip = g.indptr.data();
    const auto* ix = g.indices.data();
    const auto r1 = graphveil::pagerank<std::int32_t>(ip, ix, n, 0.85, 1e-10, 1000, 1);
    const auto e1 = graphveil::top_eigenvector<std::int32_t>(ip, ix, n, 1e-12, 10000, 1);
    std::vector<std::int64_t> t1(static_cast<std::size_t>(n)), tk(static_cast<std::size_t>(n));
    graphveil::count_triangles<std::int32_t>(ip, ix, n, 1, t1.data());
    const std::vector<std::int64_t> seeds{0, 17, 4000, 19999};
    const auto s1 = graphveil::influence_reach<std::int32_t>(ip, ix, n, seeds.data(), 4, 0.3, 50, 7, 1);
    CHECK(e1.converged && e1.residual < 1e-10);
    for (const int threads : {2, 3, 8}) {
        const auto rk = graphveil::pagerank<std::int32_t>(ip, ix, n, 0.85, 1e-10, 1000, threads);
        const auto ek = graphveil::top_eigenvector<std::int32_t>(ip, ix, n, 1e-12, 10000, threads);
        graphveil::count_triangles<std::int32_t>(ip, ix, n, threads, tk.data());
        CHECK(rk.rank == r1.rank && rk.iterations == r1.iterations);
        CHECK(ek.vector == e1.vector && ek.value == e1.value && ek.steps == e1.steps);
        CHECK(tk == t1);
        CHECK(graphveil::influence_reach<std::int32_t>(ip, ix, n, seeds.data(), 4, 0.3, 50, 7, threads) == s1);
    }
}
