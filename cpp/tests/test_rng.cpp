// Random streams: the reference SplitMix64, determinism of Rng(seed, stream), independent
// streams, and kernels whose output depends on (seed, task) only, never on the thread count.
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "graphveil/rng.hpp"
#include "graphveil/sampling.hpp"

using graphveil::Rng;

TEST(splitmix64_matches_the_reference_outputs) {
    // First outputs of Vigna's splitmix64.c from state 0.
    std::uint64_t state = 0;
    CHECK(graphveil::splitmix64(state) == 0xE220A8397B1DCDAFULL);
    CHECK(graphveil::splitmix64(state) == 0x6E789E6AA1B965F4ULL);
    CHECK(graphveil::splitmix64(state) == 0x06C45D188009454FULL);
}

TEST(a_stream_is_a_function_of_seed_and_stream_id) {
    Rng a(42, 7), b(42, 7), other_stream(42, 8), other_seed(43, 7);
    int same_stream = 0, same_seed = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t x = a.next();
        CHECK(x == b.next());
        same_stream += x == other_stream.next();
        same_seed += x == other_seed.next();
    }
    CHECK(same_stream == 0);
    CHECK(same_seed == 0);
}

TEST(uniform_and_below_have_the_right_range_and_mean) {
    Rng rng(1, 0);
    const int draws = 200000;
    double sum = 0.0;
    std::vector<int> counts(10, 0);
    for (int i = 0; i < draws; ++i) {
        const double u = rng.uniform();
        CHECK(u >= 0.0 && u < 1.0);
        sum += u;
        const std::uint64_t k = rng.below(10);
        CHECK(k < 10);
        ++counts[static_cast<std::size_t>(k < 10 ? k : 0)];
    }
    // Mean of U(0, 1): sd of the average is 1 / sqrt(12 * draws) ~ 6.5e-4; allow 6 sd.
    CHECK_NEAR(sum / draws, 0.5, 6 * 6.5e-4);
    // Each of 10 values: binomial(draws, 0.1), sd ~ 134; allow 6 sd.
    for (int c : counts) CHECK_NEAR(static_cast<double>(c), draws / 10.0, 6 * 134.0);
    CHECK(rng.below(0) == 0);
    CHECK(rng.below(1) == 0);
}

namespace {

// Every pair (i, j), i < j < n, in canonical order: n = 800 gives 319,600 pairs, five blocks
// of kSampleBlock, so a sample has several random streams to spread over threads.
struct AllPairs {
    std::vector<std::int32_t> u, v;
    std::vector<double> p;
    explicit AllPairs(std::int32_t n, double prob) {
        for (std::int32_t i = 0; i < n; ++i)
            for (std::int32_t j = i + 1; j < n; ++j) {
                u.push_back(i);
                v.push_back(j);
                p.push_back(prob);
            }
    }
    std::int64_t size() const { return static_cast<std::int64_t>(u.size()); }
};

}  // namespace

TEST(a_sample_does_not_depend_on_the_thread_count) {
    const AllPairs g(800, 0.3);
    CHECK(g.size() > 4 * graphveil::kSampleBlock);
    std::vector<std::int32_t> u1, v1, u4, v4, u_other, v_other;
    graphveil::sample_edges(g.u.data(), g.v.data(), g.p.data(), g.size(), 99, 3, 1, u1, v1);
    graphveil::sample_edges(g.u.data(), g.v.data(), g.p.data(), g.size(), 99, 3, 4, u4, v4);
    CHECK(u1 == u4 && v1 == v4);
    graphveil::sample_edges(g.u.data(), g.v.data(), g.p.data(), g.size(), 99, 4, 4, u_other, v_other);
    CHECK(u1 != u_other);
    // Kept pairs: binomial(pairs, 0.3), sd ~ 259; allow 6 sd.
    CHECK_NEAR(static_cast<double>(u1.size()), 0.3 * static_cast<double>(g.size()), 6 * 259.0);

    // sample_csr builds the same world k, whichever other samples share the call and threads.
    const auto one = graphveil::sample_csr(800, g.u.data(), g.v.data(), g.p.data(), g.size(), 99, 3, 1, 1);
    const auto many = graphveil::sample_csr(800, g.u.data(), g.v.data(), g.p.data(), g.size(), 99, 1, 4, 3);
    CHECK(one.size() == 1 && many.size() == 4);
    CHECK(one[0].indptr == many[2].indptr && one[0].indices == many[2].indices);
    CHECK(2 * static_cast<std::int64_t>(u1.size()) == one[0].indptr.back());
}
