// Degree distributions of an uncertain graph and the per-degree entropy used by the
// (k, eps)-obfuscation check (Boldi et al. VLDB 2012; Section 2.2 of the paper).
//
// Node v's degree is a sum of independent Bernoulli variables, one per pair at v: its law
// X_v is Poisson-binomial, computed exactly by convolution, O(d_v^2) per node. Pairs with
// p = 1 only shift the law and pairs with p = 0 do nothing, so both skip the convolution.
// A pair (u, w), u != w, counts for both ends; a self-loop (u, u) of the relaxed model adds 2
// to u's degree (the adjacency matrix of Theorem 3.1, matching expected degrees), so a node's
// law is the Poisson-binomial of its other pairs convolved with one 2-step Bernoulli per loop.
//
// Per degree value d: S_d = sum_v X_v(d), T_d = sum_v X_v(d) log2 X_v(d) and
// H_d = log2 S_d - T_d / S_d, the entropy in bits of Y_d(v) = X_v(d) / S_d. S and T are
// accumulated per fixed block of nodes and the blocks merged in order: no n x d_max matrix,
// and the same bits for any thread count.
#pragma once
#include <cstdint>
#include <vector>

#include "graphveil/csr.hpp"

namespace graphveil {

struct DegreeEntropy {
    std::vector<double> entropy;  // H_d for d = 0..size-1 (0 where S_d = 0)
    std::vector<double> mass;     // S_d: the expected number of nodes of degree d
};

// Entropy of every degree value up to the largest degree any node can take. Throws
// std::invalid_argument for a probability outside [0, 1] or an id outside [0, n).
template <class Index>
DegreeEntropy degree_entropy(const PairView<Index>& pairs, int threads);

// X_v(d) for every node, d = 0..max degree of v: values[offsets[v] + d]. O(n + pairs) memory
// in total; for tests and small graphs.
template <class Index>
void degree_distributions(const PairView<Index>& pairs, int threads, std::vector<std::int64_t>& offsets,
                          std::vector<double>& values);

}  // namespace graphveil
