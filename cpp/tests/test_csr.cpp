// CSR building: rows sorted, self-loops dropped, repeats and reversals merged and counted,
// the same arrays for any thread count, and csr_edges inverting it.
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "graphveil/csr.hpp"

TEST(build_csr_merges_repeats_and_drops_self_loops) {
    // Edges {0,1} (three times, once reversed), {1,2}, {0,3}; a self-loop (2, 2); node 4 isolated.
    const std::vector<std::int64_t> u = {0, 1, 1, 2, 3, 0, 2};
    const std::vector<std::int64_t> v = {1, 0, 2, 2, 0, 1, 1};
    graphveil::CsrBuildCounts counts;
    const auto csr = graphveil::build_csr<std::int32_t>(5, u.data(), v.data(), 7, 1, counts);
    CHECK(csr.n == 5);
    CHECK((csr.indptr == std::vector<std::int64_t>{0, 2, 4, 5, 6, 6}));
    CHECK((csr.indices == std::vector<std::int32_t>{1, 3, 0, 2, 1, 0}));
    CHECK(counts.self_loops == 1);
    CHECK(counts.duplicates == 3);  // (1,0), (0,1) again and (2,1): reversals and repeats

    std::vector<std::int32_t> eu(3), ev(3);
    graphveil::csr_edges<std::int32_t>(csr.indptr.data(), csr.indices.data(), 5, eu.data(), ev.data());
    CHECK((eu == std::vector<std::int32_t>{0, 0, 1}));
    CHECK((ev == std::vector<std::int32_t>{1, 3, 2}));
}

TEST(build_csr_is_the_same_for_any_thread_count_and_width) {
    // A pseudo-random multigraph on 3000 nodes with 60000 pairs (an LCG keeps it self-contained).
    const std::int64_t n = 3000, count = 60000;
    std::vector<std::int64_t> u(count), v(count);
    std::uint64_t x = 12345;
    for (std::int64_t i = 0; i < count; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        u[static_cast<std::size_t>(i)] = static_cast<std::int64_t>((x >> 33) % n);
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        v[static_cast<std::size_t>(i)] = static_cast<std::int64_t>((x >> 33) % n);
    }
    graphveil::CsrBuildCounts c1, c4, c64;
    const auto a = graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), count, 1, c1);
    const auto b = graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), count, 4, c4);
    const auto w = graphveil::build_csr<std::int64_t>(n, u.data(), v.data(), count, 3, c64);
    CHECK(a.indptr == b.indptr && a.indices == b.indices);
    CHECK(a.indptr == w.indptr && a.indices.size() == w.indices.size());
    bool same = true;
    for (std::size_t i = 0; i < a.indices.size(); ++i) same &= a.indices[i] == w.indices[i];
    CHECK(same);
    CHECK(c1.self_loops == c4.self_loops && c1.duplicates == c4.duplicates && c1.duplicates == c64.duplicates);
    // Every input pair is a self-loop, a duplicate, or one of the m = indptr[n] / 2 edges.
    CHECK(c1.self_loops + c1.duplicates + a.indptr.back() / 2 == count);
    // Rows are strictly increasing and the graph is symmetric (u in row v iff v in row u).
    bool sorted = true, symmetric = true;
    for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t j = a.indptr[r]; j < a.indptr[r + 1]; ++j) {
            if (j > a.indptr[r]) sorted &= a.indices[j - 1] < a.indices[j];
            const std::int64_t c = a.indices[j];
            bool found = false;
            for (std::int64_t k = a.indptr[c]; k < a.indptr[c + 1]; ++k) found |= a.indices[k] == r;
            symmetric &= found && c != r;
        }
    CHECK(sorted);
    CHECK(symmetric);
}

TEST(build_digraph_csr_keeps_reversed_arcs_and_transposes) {
    // Arcs 0->1 (twice), 1->0 (its reverse, kept), 1->2, 3->0; a self-loop 2->2; node 4 isolated.
    const std::vector<std::int64_t> u = {0, 1, 1, 2, 3, 0};
    const std::vector<std::int64_t> v = {1, 0, 2, 2, 0, 1};
    graphveil::CsrBuildCounts counts;
    const auto out = graphveil::build_digraph_csr<std::int32_t>(5, u.data(), v.data(), 6, 1, counts);
    CHECK((out.indptr == std::vector<std::int64_t>{0, 1, 3, 3, 4, 4}));
    CHECK((out.indices == std::vector<std::int32_t>{1, 0, 2, 0}));
    CHECK(counts.self_loops == 1);
    CHECK(counts.duplicates == 1);  // the second 0->1 only
    const auto in = graphveil::csr_transpose<std::int32_t>(out.indptr.data(), out.indices.data(), 5);
    CHECK((in.indptr == std::vector<std::int64_t>{0, 2, 3, 4, 4, 4}));
    CHECK((in.indices == std::vector<std::int32_t>{1, 3, 0, 1}));
}
