// Graph-matching de-anonymization: percolation with ExpandWhenStuck and Korula-Lattanzi
// reconciliation. Both map the nodes of a target graph to the nodes of an auxiliary graph from a
// few seed pairs, reading structure only; both return the same mapping on any thread count.
#pragma once
#include <cstdint>

#include "graphveil/attack_directed.hpp"
#include "graphveil/csr.hpp"

namespace graphveil {

struct MatchingStats {
    std::int64_t rounds = 0;  // percolation: spreading phases (seeds, then each ExpandWhenStuck);
                              // reconciliation: degree-bucket steps run
    std::int64_t mapped = 0;  // pairs added to the seeds
    std::int64_t marked = 0;  // percolation: distinct pairs that received a mark (its memory)
};

// Percolation graph matching with ExpandWhenStuck (Kazemi, Hassani, Grossglauser, VLDB 2015,
// Algorithm 2; the percolation of Yartseva and Grossglauser, COSN 2013). mapping[t] = aux node of
// target node t or -1: on entry the seeds, on return every matched pair. A pair (t, a) spreads
// one mark to each neighbouring pair (t', a'), t' in N(t), a' in N(a), both unmatched. The
// unmatched pair with the most marks, at least r, is matched next (equal marks: the smallest
// degree difference |deg(t') - deg(a')|, as iGraphMatch's implementation, then the smallest t',
// then a'), and spreads its marks unless it already did. When no pair has r marks, every
// neighbouring pair of a matched pair that never spread is used as a noisy seed: it spreads its
// marks once without being matched (ExpandWhenStuck; expand_when_stuck = false stops instead,
// the plain percolation). Stops when a phase has no pair to spread.
// Departures, both exact where they do not apply:
//  - a pair with a node of degree < r is never marked: it cannot collect r marks from matched
//    pairs, which form a matching (only noisy seeds sharing a node could give it more);
//  - a pair (t, a) with deg(t) deg(a) > max_spread neither spreads marks nor offers its
//    neighbouring pairs as noisy seeds: it would touch deg(t) deg(a) pairs, 10^8 for two hubs of
//    a web graph;
//  - noisy seeds are taken (in the order their matched pairs were matched, then row order) only
//    until they may spread max_noisy marks in all (the sum of their deg(x) deg(y)): every matched
//    pair offers deg(t) deg(a) noisy seeds, each spreading up to its own product, which on a web
//    graph is out of reach.
// Sequential; O(sum over spreading pairs of deg(t) deg(a)) time, a hash table of the marked
// pairs. Throws std::invalid_argument if the seeds are not a partial matching.
template <class Index>
MatchingStats percolate(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, std::int64_t r,
                        bool expand_when_stuck, std::int64_t max_spread, std::int64_t max_noisy);

// Korula-Lattanzi reconciliation (VLDB 2014, Algorithm 1, User-Matching). mapping as percolate.
// For each of `iterations` passes, for j = floor(log2 D) down to 1 (D the larger maximum degree),
// one step with the mapping of the previous step fixed: every unmatched pair (t, a) with
// deg(t) >= 2^j and deg(a) >= 2^j scores its similarity witnesses, the matched pairs (x, y) with
// x in N(t) and y in N(a); a pair is added when it scores at least `threshold` (>= 1) and is the
// strictly highest-scoring pair of t and of a (a tie at the top adds neither). The added pairs
// form a matching. Passes stop early after one that adds nothing (every later one would be the
// same). A node's scoring at a bucket is kept from the previous pass unless the node gained a
// matched neighbour since or one of its top candidates was matched (nothing else moves it), so
// later passes rescore only around the new pairs; so are the backward scorings. Candidates are
// searched by their count in the rows read, highest first, and the search stops at the first that
// can no longer reach the top score (exact). Within a step, nodes with the same matched
// neighbours (the pages of a web site linking to the same hubs) share one scoring, which reads
// nothing else. Scores are integers, nodes are scored in parallel from a fixed mapping, so the
// result does not depend on `threads`.
// Departure, exact where no node has more than max_row neighbours: a node's witnesses through a
// matched neighbour whose image has more than max_row neighbours count only for the candidates
// with a witness through a shorter row. The candidates of t are found by reading the image rows
// of its matched neighbours; a candidate with `threshold` witnesses lies in a row besides the
// threshold - 1 longest ones, so those are only searched (exact), and so are the rows longer than
// max_row (the departure: the thousands of pages around a hub of a web graph). With a top score
// of f or more (f from the exact scores of the shortest row's candidates), a candidate lies in a
// row besides the f - 1 longest, and only those are read.
template <class Index>
MatchingStats reconcile(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping,
                        std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads);

// Directed percolation: percolate on digraphs, reading out- and in-neighbourhoods apart. A pair
// (t, a) spreads one mark to each pair (x, y) of out-neighbours (t -> x, a -> y) and one to each
// pair of in-neighbours (x -> t, y -> a); a pair that is a neighbour on both sides (mutual arcs in
// both graphs) gets two, the arcs that agree. The rest is percolate's, with a node's degree its
// in- plus out-degree (the filter of degree < r, exact again: a pair collects at most
// min(in x, in y) + min(out x, out y) marks from a matching), the pairs (t, a) touches
// out(t) out(a) + in(t) in(a) (max_spread and max_noisy bound these), and the order among equal
// marks the smallest |in(t') - in(a')| + |out(t') - out(a')|, then t', then a'. Yartseva and
// Grossglauser and Kazemi et al. define percolation on undirected graphs; this directed form is
// graphveil's: a mark is an arc of each graph that the matched pair explains in the same
// direction. Sequential; throws std::invalid_argument if a graph's out- and in-CSR differ in
// nodes or arcs, or the seeds are not a partial matching.
template <class Index>
MatchingStats percolate_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                 std::int64_t r, bool expand_when_stuck, std::int64_t max_spread,
                                 std::int64_t max_noisy);

// Directed reconciliation: reconcile on digraphs. The similarity witnesses of (t, a) are the
// matched pairs (x, y) with t -> x and a -> y (out-witnesses) plus those with x -> t and y -> a
// (in-witnesses), counted apart and summed: a matched pair joined to t and a by arcs both ways
// counts twice, one that agrees on one arc only once, and a pair joined by arcs of opposite
// directions not at all. Degree buckets and eligibility read a node's in- plus out-degree; the
// rest (max_row, on a node's in- plus out-degree, the caching, threads) is reconcile's, the rows
// of the images being their in-rows (for out-witnesses) and out-rows (for in-witnesses). Korula and Lattanzi define the algorithm
// on undirected graphs; the directed witness count is graphveil's, the count of matched arcs
// that the pair explains with their directions. Throws as percolate_directed.
template <class Index>
MatchingStats reconcile_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                 std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads);

}  // namespace graphveil
