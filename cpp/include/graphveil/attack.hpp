// Attacks on a release: what an adversary recovers, measured next to the H1 / H2_open scores.
//  - link_inference: rank the published pairs by p against the true edges (AUC, top-m precision,
//    the most-likely world);
//  - propagate: Narayanan-Shmatikov seed-and-extend de-anonymization (IEEE S&P 2009, Section 5.2).
#pragma once
#include <cstdint>
#include <vector>

#include "graphveil/csr.hpp"

namespace graphveil {

// Counts behind the link-inference figures. Pairs and true edges are canonical (u < v, sorted
// by (u, v), unique); a pair is "true" when it is an edge of G0.
struct LinkCounts {
    std::int64_t pairs = 0;      // published pairs
    std::int64_t positives = 0;  // published pairs that are edges of G0
    // Mann-Whitney statistic times 2: sum over (true, other) pairs of 2 [p_true > p_other] +
    // [p_true == p_other]. Exact in integers; AUC = auc2 / (2 positives (pairs - positives)).
    std::int64_t auc2 = 0;
    std::int64_t top_k = 0;   // min(m, pairs): the pairs taken from the top of the ranking
    double top_hits = 0.0;    // true pairs among them; a tie group cut at the k-th place
                              // counts its share (the mean over every order of the tie)
    std::int64_t likely = 0;  // pairs with p >= 0.5 (the most-likely world)
    std::int64_t likely_hits = 0;
};

// Pairs (pu, pv, p) of one uncertain graph and the m edges (eu, ev) of G0, both canonical.
// O(pairs log pairs) for two sorts, O(pairs + m) for the rest. Throws std::invalid_argument if
// either list is not sorted and unique.
template <class Index>
LinkCounts link_counts(const Index* pu, const Index* pv, const double* p, std::int64_t pairs, const Index* eu,
                       const Index* ev, std::int64_t m);

struct PropagationStats {
    std::int64_t rounds = 0;  // rounds run (the last one maps nothing unless max_rounds stopped it)
    std::int64_t mapped = 0;  // pairs added to the seeds
};

// The standard deviation in the eccentricity (max - second max) / std of one node's scores.
enum class Eccentricity {
    // Over every node of the scored graph, zeros included: Narayanan and Shmatikov's
    // definition (the list X of scores has one entry per node; max2 is 0 when one node scored).
    kAllNodes,
    // Over the candidates that scored only (graphveil's earlier rule; much stricter at one theta).
    kScored,
};

// Seed-and-extend propagation. mapping[t] = aux node of target node t, or -1; on entry the
// seeds, on return the seeds plus every accepted pair. Each round, with the mapping of the
// previous round fixed:
//  1. an unmapped target node t with a mapped neighbour scores the unmapped aux nodes c:
//     score(c) = sum over mapped neighbours x of t with mapping[x] adjacent to c of
//     1 / sqrt(deg_aux(c)), over the candidates c whose degree lies within a factor
//     degree_ratio of t's (infinity: every candidate, as the paper); its best c (smallest id
//     among equal scores) is proposed when the eccentricity (max - second max) / std >= theta
//     (population std as `eccentricity` says; equal top scores give 0, a std of 0 otherwise,
//     i.e. a lone score with nothing to compare to, gives +inf). A node is scored again only when it gained a mapped neighbour in the
//     previous round or one of its best two candidates was mapped; otherwise its last result
//     stands (the other candidates mapped since only move the std);
//  2. the same scoring from the proposed c back to the unmapped target nodes (weights
//     1 / sqrt(deg_target)), always fresh, must pass theta and return t (the reverse match);
//  3. every pair that passes is added (they form a matching: each c reverse-matches one t).
// Stops after a round that adds nothing, or after max_rounds. The result depends only on the
// inputs, never on `threads`: rounds read a fixed mapping and scores are summed in row order.
// A scoring reads only the node's degree and its mapped neighbours' images in row order, so in a
// round the nodes alike in both (the pages of a site linking to the same hubs) are scored once.
template <class Index>
PropagationStats propagate(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, double theta,
                           double degree_ratio, Eccentricity eccentricity, std::int64_t max_rounds, int threads);

}  // namespace graphveil
