// Directed Narayanan-Shmatikov propagation: the seed-and-extend attack of propagate (attack.hpp)
// on directed graphs, reading in- and out-neighbourhoods apart as the paper's matchScores does
// (IEEE S&P 2009, Section 5.2: the in-edges and the out-edges of a node are scored in two loops,
// each normalised by the candidate's degree on that side).
#pragma once
#include <cstdint>

#include "graphveil/attack.hpp"
#include "graphveil/csr.hpp"

namespace graphveil {

// A directed graph as its out-CSR (arc u -> v: v in row u) and in-CSR (the transpose: u in row
// v), both with sorted rows.
template <class Index>
struct DigraphView {
    CsrView<Index> out;
    CsrView<Index> in;
};

// Seed-and-extend propagation on directed graphs. mapping[t] = aux node of target node t, or -1;
// on entry the seeds, on return the seeds plus every accepted pair. Each round, with the mapping
// of the previous round fixed:
//  1. an unmapped target node t with a mapped in- or out-neighbour scores the unmapped aux nodes c:
//       for each mapped in-neighbour x of t (x -> t), each c with mapping[x] -> c adds
//       1 / sqrt(in_deg_aux(c));
//       for each mapped out-neighbour x of t (t -> x), each c with c -> mapping[x] adds
//       1 / sqrt(out_deg_aux(c));
//     (a mutual neighbour counts on both sides), over the candidates c whose in-degree lies within
//     a factor degree_ratio of t's in-degree and whose out-degree within that factor of t's
//     out-degree (infinity: every candidate, as the paper). Contributions to one candidate are
//     summed in the order of t's in-row, then its out-row. Its best c (smallest id among equal
//     scores) is proposed when the eccentricity (max - second max) / std >= theta, std as
//     `eccentricity` says and as propagate; a node is scored again only when it gained a mapped
//     in- or out-neighbour in the previous round or one of its best two candidates was mapped;
//  2. the same scoring from the proposed c back to the unmapped target nodes (in- and out-degrees of
//     the target), always fresh, must pass theta and return t (the reverse match);
//  3. every pair that passes is added (they form a matching).
// Stops after a round that adds nothing, or after max_rounds. The result depends only on the
// inputs, never on `threads`. Throws std::invalid_argument if the out- and in-CSR of a graph
// differ in their node or arc counts, or the seeds are not a partial matching.
template <class Index>
PropagationStats propagate_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                    double theta, double degree_ratio, Eccentricity eccentricity,
                                    std::int64_t max_rounds, int threads);

}  // namespace graphveil
