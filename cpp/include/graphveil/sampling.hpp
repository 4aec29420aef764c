// Possible worlds of an uncertain graph: every pair is kept independently with its
// probability. Pairs are cut into fixed blocks of kSampleBlock; block b of sample k draws
// from Rng(seed, sample_stream(k, b)), so a sample depends only on (seed, k) and never on
// the thread count or on how many other samples are drawn in the same call.
//
// Precondition for every function here (checked by the Python caller, UncertainGraph):
// pairs are canonical, u[i] < v[i] < n, sorted by (u, v) and unique. A relaxed uncertain
// graph (self-loops, multi-edges) is first reduced to its simplified strict form, whose
// samples have exactly the law of the relaxed graph's simplified samples.
#pragma once
#include <cstdint>
#include <vector>

#include "graphveil/csr.hpp"

namespace graphveil {

// Pairs per random block. Part of the output definition: changing it changes samples.
inline constexpr std::int64_t kSampleBlock = 1 << 16;

// Stream id of block `block` of sample `sample` (unique while a graph has < 2^32 blocks).
inline std::uint64_t sample_stream(std::int64_t sample, std::int64_t block) {
    return (static_cast<std::uint64_t>(sample) << 32) ^ static_cast<std::uint64_t>(block);
}

// Sample `first_sample + k` for k in [0, count), each as a CSR (rows sorted). Samples run in parallel when there are several;
// a single sample draws its blocks in parallel. O(pairs + n) per sample.
template <class Index>
std::vector<Csr<Index>> sample_csr(std::int64_t n, const Index* u, const Index* v, const double* p, std::int64_t pairs,
                                   std::uint64_t seed, std::int64_t first_sample, std::int64_t count, int threads);

// The kept pairs of sample `sample` (the world sample_csr builds), in pair order.
template <class Index>
void sample_edges(const Index* u, const Index* v, const double* p, std::int64_t pairs, std::uint64_t seed,
                  std::int64_t sample, int threads, std::vector<Index>& out_u, std::vector<Index>& out_v);

}  // namespace graphveil
