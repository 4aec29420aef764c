#include "graphveil/attack_directed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graphveil/interrupt.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/pool.hpp"
#include "graphveil/scoring.hpp"

namespace graphveil {
namespace {

using Scores = ScoreAccumulator;
// One accumulator per running block; at most `threads` are ever created.
using ScoresPool = ScratchPool<Scores>;

// One entry of a row: the neighbour, its degree on the row's key side and on the other side.
template <class Index>
struct Entry {
    Index node;
    Index key;
    Index other;
};

// The rows of one CSR of a graph reordered by (key degree, id), each entry with its key and other
// degree: the candidates inside a key-degree window are one contiguous run found by binary search,
// and the other degree is checked without reading the node. Mapped nodes are dropped from the rows
// (drop_mapped) as they are mapped, so no scan reads them again.
template <class Index>
struct SideRows {
    const std::int64_t* indptr = nullptr;
    std::vector<std::int64_t> end;  // row y is [indptr[y], end[y])
    std::vector<Entry<Index>> entries;

    // Removes the entries c with mapped[c] >= 0 from row y, keeping the order of the others.
    void drop_mapped(std::int64_t y, const Index* mapped) {
        std::int64_t out = indptr[y];
        for (std::int64_t e = indptr[y]; e < end[y]; ++e)
            if (mapped[entries[e].node] < 0) entries[out++] = entries[e];
        end[y] = out;
    }
};

template <class Index>
Index row_length(const CsrView<Index>& g, std::int64_t c) {
    return static_cast<Index>(g.indptr[c + 1] - g.indptr[c]);
}

// Rows of `rows` sorted by (degree in `key_of`, id), `other_of` the other side's degrees.
template <class Index>
SideRows<Index> side_rows(const CsrView<Index>& rows, const CsrView<Index>& key_of, const CsrView<Index>& other_of,
                          int threads) {
    SideRows<Index> r;
    r.indptr = rows.indptr;
    r.end.assign(rows.indptr + 1, rows.indptr + rows.n + 1);
    r.entries.resize(static_cast<std::size_t>(rows.indptr[rows.n]));
    parallel_ranges(rows.n, 4096, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t y = begin; y < end; ++y) {
            Entry<Index>* row = r.entries.data() + rows.indptr[y];
            const std::int64_t len = rows.indptr[y + 1] - rows.indptr[y];
            for (std::int64_t e = 0; e < len; ++e) {
                const Index c = rows.indices[rows.indptr[y] + e];
                row[e] = {c, row_length(key_of, c), row_length(other_of, c)};
            }
            std::sort(row, row + len, [](const Entry<Index>& a, const Entry<Index>& b) {
                return a.key < b.key || (a.key == b.key && a.node < b.node);
            });
        }
    });
    return r;
}

// What a node of the scoring graph reads of the scored graph `to`.
template <class Index>
struct ScoredGraph {
    std::int64_t n = 0;
    // In-neighbour evidence: a mapped in-neighbour x -> t with image y gives the candidates c
    // with y -> c (y's out-row), keyed by in-degree, each adding 1 / sqrt(in_deg c).
    SideRows<Index> by_in;
    // Out-neighbour evidence: t -> x with image y gives the c with c -> y (y's in-row), keyed by
    // out-degree, each adding 1 / sqrt(out_deg c).
    SideRows<Index> by_out;
    // 1 / sqrt(d) by degree d: an entry's weight from its key.
    std::vector<double> weight;
    std::vector<char> dirty_in, dirty_out;
    std::vector<std::int64_t> dirty;

    // Drops the nodes mapped since the last call (`added`) from every row holding them: node c is
    // in the out-rows of its in-neighbours and in the in-rows of its out-neighbours.
    void drop_mapped(const DigraphView<Index>& g, const std::vector<std::int64_t>& added, const Index* mapped) {
        for (const bool in_rows : {false, true}) {
            auto& flag = in_rows ? dirty_out : dirty_in;
            dirty.clear();
            const CsrView<Index>& holders = in_rows ? g.out : g.in;
            for (const std::int64_t c : added)
                for (std::int64_t e = holders.indptr[c]; e < holders.indptr[c + 1]; ++e) {
                    const Index y = holders.indices[e];
                    if (!flag[y]) flag[y] = 1, dirty.push_back(y);
                }
            for (const std::int64_t y : dirty) {
                (in_rows ? by_out : by_in).drop_mapped(y, mapped);
                flag[y] = 0;
            }
        }
    }
};

template <class Index>
ScoredGraph<Index> scored_graph(const DigraphView<Index>& g, const Index* mapped, int threads) {
    ScoredGraph<Index> s;
    s.n = g.out.n;
    s.by_in = side_rows(g.out, g.in, g.out, threads);
    s.by_out = side_rows(g.in, g.out, g.in, threads);
    std::int64_t top = 0;
    for (std::int64_t c = 0; c < s.n; ++c)
        top = std::max<std::int64_t>(top, std::max(row_length(g.in, c), row_length(g.out, c)));
    s.weight.assign(static_cast<std::size_t>(top + 1), 0.0);
    for (std::int64_t d = 1; d <= top; ++d) s.weight[d] = 1.0 / std::sqrt(static_cast<double>(d));
    s.dirty_in.assign(static_cast<std::size_t>(s.n), 0);
    s.dirty_out.assign(static_cast<std::size_t>(s.n), 0);
    std::vector<std::int64_t> seeds;
    for (std::int64_t c = 0; c < s.n; ++c)
        if (mapped[c] >= 0) seeds.push_back(c);
    s.drop_mapped(g, seeds, mapped);
    return s;
}

// The entries [begin, end) of row y of `rows` whose key lies in `window`.
template <class Index>
std::pair<std::int64_t, std::int64_t> key_run(const SideRows<Index>& rows, Index y, const Window<Index>& window) {
    const auto [first, last] = window_run(rows.entries.data() + rows.indptr[y], rows.entries.data() + rows.end[y],
                                          window, [](const Entry<Index>& e) { return e.key; });
    return {first - rows.entries.data(), last - rows.entries.data()};
}

// One evidence side of a node x: its neighbours on that side (a row of `from`), the rows of `to`
// their images open, and the windows of the key and of the other degree.
template <class Index>
struct Side {
    const CsrView<Index>* from;
    const SideRows<Index>* rows;
    Window<Index> key;
    Window<Index> other;
};

// The shortcut of propagate, exact for theta > 0: with one mapped neighbour entry every candidate
// scores its own weight, which falls with the key degree, so the best two are the first two
// admissible ones of the image's row. Equal keys tie at the top (eccentricity 0): rejected without
// scoring the rest. Returns true when it decided `out`.
template <class Index>
bool single_evidence(const Side<Index>& side, Index y, Match& out) {
    const auto [begin, end] = key_run(*side.rows, y, side.key);
    std::int64_t first = -1;
    const Entry<Index>* row = side.rows->entries.data();
    for (std::int64_t f = begin; f < end; ++f) {
        if (!side.other.holds(row[f].other)) continue;
        if (first < 0) {
            first = f;
            continue;
        }
        if (row[f].key == row[first].key) {
            out.best = row[first].node;
            out.second = row[f].node;
            return true;
        }
        return false;
    }
    return first < 0;  // no admissible candidate: nothing to propose
}

// Scores the unmapped nodes of `to` from node x of `from` (see propagate_directed). `map` sends
// `from` nodes to `to` nodes (-1 unmapped); the rows of `to` hold its unmapped nodes only.
// `deps`, when given, receives the candidates whose mapping would change the result: the result
// stands as long as none of them is mapped and x gains no mapped neighbour (a candidate that scored
// nothing is a zero in the eccentricity's list whether mapped or not).
template <class Index>
Match best_match(const DigraphView<Index>& from, const ScoredGraph<Index>& to, const Index* map, std::int64_t x,
                 double theta, double degree_ratio, Eccentricity eccentricity, Scores& acc,
                 std::vector<std::int64_t>* deps = nullptr) {
    const Window<Index> in_window(static_cast<double>(row_length(from.in, x)), degree_ratio);
    const Window<Index> out_window(static_cast<double>(row_length(from.out, x)), degree_ratio);
    const Side<Index> sides[2] = {{&from.in, &to.by_in, in_window, out_window},
                                  {&from.out, &to.by_out, out_window, in_window}};
    Match out;
    if (theta > 0.0) {
        int mapped = 0, which = -1;
        Index only = -1;
        for (int s = 0; s < 2 && mapped < 2; ++s)
            for (std::int64_t e = sides[s].from->indptr[x]; e < sides[s].from->indptr[x + 1] && mapped < 2; ++e) {
                const Index y = map[sides[s].from->indices[e]];
                if (y >= 0) {
                    only = y;
                    which = s;
                    ++mapped;
                }
            }
        if (mapped == 1 && single_evidence(sides[which], only, out)) {
            if (deps != nullptr) {  // the tie at the top, or no admissible candidate at all
                deps->clear();
                for (const std::int64_t c : {out.best, out.second})
                    if (c >= 0) deps->push_back(c);
            }
            return out;
        }
    }
    const double* weight = to.weight.data();
    for (const Side<Index>& side : sides) {
        for (std::int64_t e = side.from->indptr[x]; e < side.from->indptr[x + 1]; ++e) {
            const Index y = map[side.from->indices[e]];
            if (y < 0) continue;
            const auto [begin, end] = key_run(*side.rows, y, side.key);
            const Entry<Index>* row = side.rows->entries.data();
            for (std::int64_t f = begin; f < end; ++f) {
                if (!side.other.holds(row[f].other)) continue;
                const Index c = row[f].node;
                if (acc.score[c] == 0.0) acc.touched.push_back(c);
                acc.score[c] += weight[row[f].key];
            }
        }
    }
    return eccentricity_test(acc, static_cast<double>(to.n), theta, eccentricity, deps);
}

template <class Index>
void check_digraph(const DigraphView<Index>& g, const char* what) {
    if (g.out.n != g.in.n || g.out.indptr[g.out.n] != g.in.indptr[g.in.n])
        throw std::invalid_argument(std::string("the out- and in-CSR of the ") + what +
                                    " graph must have the same nodes and arcs");
}

template <class Index>
bool has_mapped_neighbour(const DigraphView<Index>& g, const Index* mapping, std::int64_t t) {
    for (const CsrView<Index>* side : {&g.in, &g.out})
        for (std::int64_t e = side->indptr[t]; e < side->indptr[t + 1]; ++e)
            if (mapping[side->indices[e]] >= 0) return true;
    return false;
}

constexpr std::int64_t kBlock = 256;

}  // namespace

// The bookkeeping of the rounds, so that a round costs what changed, not the size of the frontier.
// The rule it keeps is propagate's: a frontier node is scored again only when it gained a mapped
// neighbour in the previous round (it is `pending`) or one of its best two candidates was mapped
// (it is in the `watch` list of that candidate); the other frontier nodes keep their result, and
// those whose result is accepted are the `proposals`.
template <class Index>
struct Rounds {
    std::vector<Match> cached;                    // by target node: its last forward result
    std::vector<std::int64_t> pending;            // target nodes to score this round
    std::vector<char> is_pending;                 // by target node
    std::vector<std::vector<std::int64_t>> watch;  // by aux node: target nodes that had it in their top two
    std::vector<std::int64_t> proposals;          // target nodes whose result may be accepted
    std::vector<char> is_proposal;                // by target node

    Rounds(std::int64_t nt, std::int64_t na)
        : cached(static_cast<std::size_t>(nt)),
          is_pending(static_cast<std::size_t>(nt), 0),
          watch(static_cast<std::size_t>(na)),
          is_proposal(static_cast<std::size_t>(nt), 0) {}

    void mark(std::int64_t t) {
        if (!is_pending[t]) {
            is_pending[t] = 1;
            pending.push_back(t);
        }
    }

    // After scoring `pending`: registers each node with its top two and as a proposal.
    void scored() {
        for (const std::int64_t t : pending) {
            is_pending[t] = 0;
            const Match& c = cached[t];
            for (const std::int64_t a : {c.best, c.second})
                if (a >= 0) watch[a].push_back(t);
            if (c.accepted && !is_proposal[t]) {
                is_proposal[t] = 1;
                proposals.push_back(t);
            }
        }
        pending.clear();
    }

    // Aux node a was just mapped: the unmapped nodes that have it in their top two are scored again.
    template <class Mapping>
    void lost(std::int64_t a, const Mapping& unmapped) {
        for (const std::int64_t t : watch[a]) {
            const Match& c = cached[t];
            if (unmapped(t) && (c.best == a || c.second == a)) mark(t);
        }
        std::vector<std::int64_t>().swap(watch[a]);
    }
};

template <class Index>
PropagationStats propagate_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                    double theta, double degree_ratio, Eccentricity eccentricity,
                                    std::int64_t max_rounds, int threads) {
    check_digraph(target, "target");
    check_digraph(aux, "aux");
    const std::int64_t nt = target.out.n, na = aux.out.n;
    std::vector<Index> inverse(static_cast<std::size_t>(na), Index(-1));
    for (std::int64_t t = 0; t < nt; ++t) {
        const Index a = mapping[t];
        if (a < 0) continue;
        if (a >= na) throw std::out_of_range("mapping holds an aux node out of range");
        if (inverse[a] >= 0) throw std::invalid_argument("mapping sends two target nodes to one aux node");
        inverse[a] = static_cast<Index>(t);
    }
    ScoredGraph<Index> aux_rows = scored_graph(aux, inverse.data(), threads);
    ScoredGraph<Index> target_rows = scored_graph(target, static_cast<const Index*>(mapping), threads);
    ScoresPool aux_pool(na), target_pool(nt);
    Rounds<Index> rounds(nt, na);
    for (std::int64_t t = 0; t < nt; ++t)  // the first frontier: every node next to a seed
        if (mapping[t] < 0 && has_mapped_neighbour(target, mapping, t)) rounds.mark(t);
    std::vector<std::int64_t> reverse_list, added_t, added_a;
    std::vector<char> queued(static_cast<std::size_t>(na), 0);
    std::vector<Index> reverse_of(static_cast<std::size_t>(na), Index(-1));
    // Reverse results kept between rounds with what they depend on (see best_match's deps): reused
    // only when still exact, so the reverse match is always that of the round's mapping.
    std::vector<Match> reverse_cached(static_cast<std::size_t>(na));
    std::vector<char> reverse_valid(static_cast<std::size_t>(na), 0);
    std::vector<std::vector<std::int64_t>> reverse_deps(static_cast<std::size_t>(na));
    auto unmapped = [&](std::int64_t t) { return mapping[t] < 0; };
    PropagationStats stats;
    while (stats.rounds < max_rounds) {
        ++stats.rounds;
        interrupt::check();
        std::sort(rounds.pending.begin(), rounds.pending.end());  // memory order
        const auto& rescore = rounds.pending;
        parallel_ranges(static_cast<std::int64_t>(rescore.size()), kBlock, threads,
                        [&](std::int64_t begin, std::int64_t end, std::int64_t) {
                            auto acc = aux_pool.acquire();
                            for (std::int64_t i = begin; i < end; ++i)
                                rounds.cached[rescore[i]] = best_match(target, aux_rows, mapping, rescore[i], theta,
                                                                       degree_ratio, eccentricity, *acc);
                            aux_pool.release(std::move(acc));
                        });
        rounds.scored();
        auto& proposals = rounds.proposals;
        proposals.erase(std::remove_if(proposals.begin(), proposals.end(),
                                       [&](std::int64_t t) {
                                           const bool gone = mapping[t] >= 0 || !rounds.cached[t].accepted;
                                           if (gone) rounds.is_proposal[t] = 0;
                                           return gone;
                                       }),
                        proposals.end());
        std::sort(proposals.begin(), proposals.end());
        reverse_list.clear();
        for (const std::int64_t t : proposals) {
            const std::int64_t c = rounds.cached[t].best;
            if (queued[c]) continue;
            queued[c] = 1;
            reverse_list.push_back(c);
        }
        parallel_ranges(static_cast<std::int64_t>(reverse_list.size()), kBlock, threads,
                        [&](std::int64_t begin, std::int64_t end, std::int64_t) {
                            auto acc = target_pool.acquire();
                            for (std::int64_t i = begin; i < end; ++i) {
                                const std::int64_t c = reverse_list[i];
                                auto& deps = reverse_deps[c];
                                if (reverse_valid[c] && std::none_of(deps.begin(), deps.end(), [&](std::int64_t t) {
                                        return mapping[t] >= 0;
                                    }))
                                    continue;
                                reverse_cached[c] = best_match(aux, target_rows, inverse.data(), c, theta,
                                                               degree_ratio, eccentricity, *acc, &deps);
                                reverse_valid[c] = 1;
                            }
                            target_pool.release(std::move(acc));
                        });
        for (const std::int64_t c : reverse_list) {
            const Match& r = reverse_cached[c];
            reverse_of[c] = static_cast<Index>(r.accepted ? r.best : -1);
            queued[c] = 0;
        }
        added_t.clear();
        added_a.clear();
        for (const std::int64_t t : proposals) {
            const std::int64_t c = rounds.cached[t].best;
            if (reverse_of[c] != t) continue;
            mapping[t] = static_cast<Index>(c);
            inverse[c] = static_cast<Index>(t);
            added_t.push_back(t);
            added_a.push_back(c);
        }
        for (const std::int64_t c : reverse_list) reverse_of[c] = -1;
        target_rows.drop_mapped(target, added_t, mapping);
        aux_rows.drop_mapped(aux, added_a, inverse.data());
        for (std::size_t i = 0; i < added_t.size(); ++i) {
            for (const CsrView<Index>* side : {&target.in, &target.out})  // new evidence
                for (std::int64_t e = side->indptr[added_t[i]]; e < side->indptr[added_t[i] + 1]; ++e)
                    if (mapping[side->indices[e]] < 0) rounds.mark(side->indices[e]);
            rounds.lost(added_a[i], unmapped);
            for (const CsrView<Index>* side : {&aux.in, &aux.out})
                for (std::int64_t e = side->indptr[added_a[i]]; e < side->indptr[added_a[i] + 1]; ++e)
                    reverse_valid[side->indices[e]] = 0;
        }
        stats.mapped += static_cast<std::int64_t>(added_t.size());
        if (added_t.empty()) break;
    }
    return stats;
}

template PropagationStats propagate_directed(const DigraphView<std::int32_t>&, const DigraphView<std::int32_t>&,
                                             std::int32_t*, double, double, Eccentricity, std::int64_t, int);
template PropagationStats propagate_directed(const DigraphView<std::int64_t>&, const DigraphView<std::int64_t>&,
                                             std::int64_t*, double, double, Eccentricity, std::int64_t, int);

}  // namespace graphveil
