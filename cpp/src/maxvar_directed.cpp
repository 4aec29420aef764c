#include "graphveil/maxvar_directed.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graphveil/interrupt.hpp"

namespace graphveil {

namespace {

constexpr const char* kInfeasible = "no p in [0, 1] meets the part's in- and out-degrees";

// Dinic's maximum flow on a small network (the arcs a part's degrees leave undecided): residual
// capacities on paired edges (e, e ^ 1), levels from breadth-first search, blocking flows by an
// iterative depth-first search. Deterministic: edges are scanned in insertion order.
class MaxFlow {
public:
    explicit MaxFlow(std::int64_t nodes) : nodes_(nodes) {}

    // Returns the edge's id; its flow is the capacity its reverse edge has gained.
    std::int64_t add(std::int64_t from, std::int64_t to, std::int64_t capacity) {
        from_.push_back(from);
        to_.push_back(to);
        cap_.push_back(capacity);
        from_.push_back(to);
        to_.push_back(from);
        cap_.push_back(0);
        return static_cast<std::int64_t>(to_.size()) - 2;
    }

    std::int64_t flow_on(std::int64_t edge) const { return cap_[static_cast<std::size_t>(edge ^ 1)]; }

    std::int64_t run(std::int64_t source, std::int64_t sink) {
        build_adjacency();
        std::int64_t total = 0;
        while (levels(source, sink)) {
            next_.assign(start_.begin(), start_.end() - 1);
            total += blocking_flow(source, sink);
        }
        return total;
    }

private:
    void build_adjacency() {
        start_.assign(static_cast<std::size_t>(nodes_) + 1, 0);
        for (std::int64_t x : from_) ++start_[static_cast<std::size_t>(x) + 1];
        for (std::size_t x = 0; x < static_cast<std::size_t>(nodes_); ++x) start_[x + 1] += start_[x];
        adjacency_.resize(from_.size());
        std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
        for (std::size_t e = 0; e < from_.size(); ++e)
            adjacency_[static_cast<std::size_t>(fill[static_cast<std::size_t>(from_[e])]++)] =
                static_cast<std::int64_t>(e);
    }

    bool levels(std::int64_t source, std::int64_t sink) {
        level_.assign(static_cast<std::size_t>(nodes_), -1);
        std::vector<std::int64_t> queue{source};
        level_[static_cast<std::size_t>(source)] = 0;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::int64_t x = queue[head];
            for (std::int64_t j = start_[x]; j < start_[x + 1]; ++j) {
                const std::int64_t e = adjacency_[static_cast<std::size_t>(j)];
                const std::int64_t y = to_[static_cast<std::size_t>(e)];
                if (cap_[static_cast<std::size_t>(e)] > 0 && level_[static_cast<std::size_t>(y)] < 0) {
                    level_[static_cast<std::size_t>(y)] = level_[static_cast<std::size_t>(x)] + 1;
                    queue.push_back(y);
                }
            }
        }
        return level_[static_cast<std::size_t>(sink)] >= 0;
    }

    std::int64_t blocking_flow(std::int64_t source, std::int64_t sink) {
        std::int64_t total = 0;
        std::vector<std::int64_t> path;  // edges from the source
        std::int64_t x = source;
        while (true) {
            if (x == sink) {
                std::int64_t push = cap_[static_cast<std::size_t>(path[0])];
                for (std::int64_t e : path) push = std::min(push, cap_[static_cast<std::size_t>(e)]);
                std::size_t keep = path.size();
                for (std::size_t i = 0; i < path.size(); ++i) {
                    cap_[static_cast<std::size_t>(path[i])] -= push;
                    cap_[static_cast<std::size_t>(path[i] ^ 1)] += push;
                    if (cap_[static_cast<std::size_t>(path[i])] == 0 && keep == path.size()) keep = i;
                }
                total += push;
                path.resize(keep);  // back to the tail of the first saturated edge
                x = path.empty() ? source : to_[static_cast<std::size_t>(path.back())];
                if ((++augmentations_ & 1023) == 0) interrupt::check();
                continue;
            }
            bool advanced = false;
            for (std::int64_t& j = next_[static_cast<std::size_t>(x)]; j < start_[x + 1]; ++j) {
                const std::int64_t e = adjacency_[static_cast<std::size_t>(j)];
                const std::int64_t y = to_[static_cast<std::size_t>(e)];
                if (cap_[static_cast<std::size_t>(e)] > 0 &&
                    level_[static_cast<std::size_t>(y)] == level_[static_cast<std::size_t>(x)] + 1) {
                    path.push_back(e);
                    x = y;
                    advanced = true;
                    break;
                }
            }
            if (advanced) continue;
            if (x == source) break;
            level_[static_cast<std::size_t>(x)] = -1;  // a dead end for the rest of this phase
            path.pop_back();
            x = path.empty() ? source : to_[static_cast<std::size_t>(path.back())];
            ++next_[static_cast<std::size_t>(x)];
        }
        return total;
    }

    std::int64_t nodes_, augmentations_ = 0;
    std::vector<std::int64_t> from_, to_, cap_, start_, adjacency_, next_, level_;
};

// Strongly connected components of a graph given as CSR (Tarjan's algorithm, iterative).
std::vector<std::int64_t> strong_components(const std::vector<std::int64_t>& start,
                                            const std::vector<std::int64_t>& target) {
    const std::size_t n = start.size() - 1;
    std::vector<std::int64_t> index(n, -1), low(n, 0), component(n, -1), stack, call;
    std::vector<std::int64_t> next(start.begin(), start.end() - 1);
    std::vector<char> on_stack(n, 0);
    std::int64_t counter = 0, components = 0;
    for (std::size_t root = 0; root < n; ++root) {
        if (index[root] >= 0) continue;
        call.push_back(static_cast<std::int64_t>(root));
        index[root] = low[root] = counter++;
        stack.push_back(static_cast<std::int64_t>(root));
        on_stack[root] = 1;
        while (!call.empty()) {
            const auto x = static_cast<std::size_t>(call.back());
            if (next[x] < start[x + 1]) {
                const auto y = static_cast<std::size_t>(target[static_cast<std::size_t>(next[x]++)]);
                if (index[y] < 0) {
                    index[y] = low[y] = counter++;
                    stack.push_back(static_cast<std::int64_t>(y));
                    on_stack[y] = 1;
                    call.push_back(static_cast<std::int64_t>(y));
                } else if (on_stack[y]) {
                    low[x] = std::min(low[x], index[y]);
                }
                continue;
            }
            call.pop_back();
            if (!call.empty()) {
                const auto parent = static_cast<std::size_t>(call.back());
                low[parent] = std::min(low[parent], low[x]);
            }
            if (low[x] == index[x]) {
                std::int64_t y;
                do {
                    y = stack.back();
                    stack.pop_back();
                    on_stack[static_cast<std::size_t>(y)] = 0;
                    component[static_cast<std::size_t>(y)] = components;
                } while (y != static_cast<std::int64_t>(x));
                ++components;
            }
        }
    }
    return component;
}

// The degrees as counts: non-negative integers, else the QP has no feasible point to speak of.
std::vector<std::int64_t> degree_counts(std::int64_t n, const double* out_degree, const double* in_degree) {
    std::vector<std::int64_t> count(static_cast<std::size_t>(2 * n));
    for (std::int64_t x = 0; x < 2 * n; ++x) {
        const double d = x < n ? out_degree[x] : in_degree[x - n];
        if (!(d >= 0.0) || d != std::floor(d) || d > 9.0e15)
            throw std::invalid_argument("the in- and out-degrees must be non-negative integers");
        count[static_cast<std::size_t>(x)] = static_cast<std::int64_t>(d);
    }
    return count;
}

}  // namespace

template <class Index>
std::vector<signed char> fixed_arcs(std::int64_t n, std::int64_t np, const Index* tails, const Index* heads,
                                    const double* out_degree, const double* in_degree,
                                    std::vector<std::int64_t>* component) {
    if (n < 0 || np < 0) throw std::invalid_argument("node and arc counts must be non-negative");
    const auto N2 = static_cast<std::size_t>(2 * n);
    std::vector<std::int64_t> remaining = degree_counts(n, out_degree, in_degree);
    // Node x < n is u's out-copy, n + v is v's in-copy; arc k joins tails[k] and n + heads[k].
    auto end_of = [&](std::int64_t k, bool in_copy) {
        return static_cast<std::size_t>(in_copy ? n + heads[k] : tails[k]);
    };
    std::vector<std::int64_t> start(N2 + 1, 0), at(static_cast<std::size_t>(2 * np));
    for (std::int64_t k = 0; k < np; ++k) {
        ++start[end_of(k, false) + 1];
        ++start[end_of(k, true) + 1];
    }
    for (std::size_t x = 0; x < N2; ++x) start[x + 1] += start[x];
    {
        std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
        for (std::int64_t k = 0; k < np; ++k) {
            at[static_cast<std::size_t>(fill[end_of(k, false)]++)] = k;
            at[static_cast<std::size_t>(fill[end_of(k, true)]++)] = k;
        }
    }
    // Peel the arcs one node's count forces (all its undecided arcs at 1, or all at 0), as the
    // QP solver's presolve does, so that the max-flow runs on what is left.
    std::vector<signed char> status(static_cast<std::size_t>(np), -1);
    std::vector<std::int64_t> open(N2);
    for (std::size_t x = 0; x < N2; ++x) open[x] = start[x + 1] - start[x];
    auto decided = [&](std::size_t x) { return open[x] > 0 && (remaining[x] == open[x] || remaining[x] == 0); };
    std::vector<std::size_t> queue;
    for (std::size_t x = 0; x < N2; ++x) {
        if (remaining[x] > open[x]) throw std::invalid_argument(kInfeasible);
        if (decided(x)) queue.push_back(x);
    }
    while (!queue.empty()) {
        const std::size_t x = queue.back();
        queue.pop_back();
        if (!decided(x)) continue;
        const signed char value = remaining[x] == 0 ? 0 : 1;
        for (std::int64_t j = start[x]; j < start[x + 1]; ++j) {
            const std::int64_t k = at[static_cast<std::size_t>(j)];
            if (status[static_cast<std::size_t>(k)] >= 0) continue;
            status[static_cast<std::size_t>(k)] = value;
            for (const std::size_t y : {end_of(k, false), end_of(k, true)}) {
                --open[y];
                remaining[y] -= value;
                if (remaining[y] < 0 || remaining[y] > open[y]) throw std::invalid_argument(kInfeasible);
                if (y != x && decided(y)) queue.push_back(y);
            }
        }
    }
    // A maximum flow of the rest: source -> out-copy (its remaining out-degree), arc (capacity 1),
    // in-copy -> sink (its remaining in-degree). It must meet every degree.
    const auto source = static_cast<std::int64_t>(N2), sink = source + 1;
    MaxFlow flow(source + 2);
    std::int64_t supply = 0, demand = 0;
    for (std::size_t x = 0; x < N2; ++x) {
        if (remaining[x] == 0) continue;
        const auto node = static_cast<std::int64_t>(x);
        if (node < n) {
            flow.add(source, node, remaining[x]);
            supply += remaining[x];
        } else {
            flow.add(node, sink, remaining[x]);
            demand += remaining[x];
        }
    }
    std::vector<std::int64_t> undecided, edge;
    for (std::int64_t k = 0; k < np; ++k)
        if (status[static_cast<std::size_t>(k)] < 0) {
            undecided.push_back(k);
            edge.push_back(flow.add(tails[k], n + heads[k], 1));
        }
    if (supply != demand || flow.run(source, sink) != supply) throw std::invalid_argument(kInfeasible);
    // The residual graph on the copies: an empty arc can gain (tail -> head), a full one can lose
    // (head -> tail). An arc on no cycle of it is the same at every feasible point.
    std::vector<std::int64_t> res_start(N2 + 1, 0), res_target(undecided.size());
    std::vector<signed char> value(undecided.size());
    for (std::size_t i = 0; i < undecided.size(); ++i) {
        const std::int64_t k = undecided[i];
        value[i] = static_cast<signed char>(flow.flow_on(edge[i]));
        ++res_start[end_of(k, value[i] == 1) + 1];
    }
    for (std::size_t x = 0; x < N2; ++x) res_start[x + 1] += res_start[x];
    {
        std::vector<std::int64_t> fill(res_start.begin(), res_start.end() - 1);
        for (std::size_t i = 0; i < undecided.size(); ++i) {
            const std::int64_t k = undecided[i];
            const bool full = value[i] == 1;
            res_target[static_cast<std::size_t>(fill[end_of(k, full)]++)] = static_cast<std::int64_t>(end_of(k, !full));
        }
    }
    const std::vector<std::int64_t> scc = strong_components(res_start, res_target);
    if (component) component->assign(static_cast<std::size_t>(np), -1);
    std::vector<std::int64_t> number(N2, -1);
    std::int64_t components = 0;
    for (std::size_t i = 0; i < undecided.size(); ++i) {
        const std::int64_t k = undecided[i];
        const std::int64_t c = scc[end_of(k, false)];
        if (c != scc[end_of(k, true)]) {
            status[static_cast<std::size_t>(k)] = value[i];
        } else if (component) {
            if (number[static_cast<std::size_t>(c)] < 0) number[static_cast<std::size_t>(c)] = components++;
            (*component)[static_cast<std::size_t>(k)] = number[static_cast<std::size_t>(c)];
        }
    }
    return status;
}

template <class Index>
DirectedQpStats maxvar_directed_solve(std::int64_t n, std::int64_t np, const Index* tails, const Index* heads,
                                      const double* out_degree, const double* in_degree, double* p,
                                      const QpOptions& options) {
    std::vector<std::int64_t> component;
    const std::vector<signed char> status = fixed_arcs(n, np, tails, heads, out_degree, in_degree, &component);
    DirectedQpStats out;
    // What the fixed arcs leave of every degree (exact: integers).
    std::vector<double> rest(static_cast<std::size_t>(2 * n));
    for (std::int64_t u = 0; u < n; ++u) {
        rest[static_cast<std::size_t>(u)] = out_degree[u];
        rest[static_cast<std::size_t>(n + u)] = in_degree[u];
    }
    std::int64_t components = 0;
    for (std::int64_t k = 0; k < np; ++k) {
        const signed char s = status[static_cast<std::size_t>(k)];
        if (s >= 0) {
            p[k] = s;
            ++out.flow_fixed;
            rest[static_cast<std::size_t>(tails[k])] -= s;
            rest[static_cast<std::size_t>(n + heads[k])] -= s;
            out.qp.dual_objective += s;
        } else {
            components = std::max(components, component[static_cast<std::size_t>(k)] + 1);
        }
    }
    // The free arcs grouped by component (counting sort keeps arc order within one).
    std::vector<std::int64_t> first(static_cast<std::size_t>(components) + 1, 0), order(static_cast<std::size_t>(np));
    for (std::int64_t k = 0; k < np; ++k)
        if (status[static_cast<std::size_t>(k)] < 0) ++first[static_cast<std::size_t>(component[k]) + 1];
    for (std::size_t c = 0; c < static_cast<std::size_t>(components); ++c) first[c + 1] += first[c];
    {
        std::vector<std::int64_t> fill(first.begin(), first.end() - 1);
        for (std::int64_t k = 0; k < np; ++k)
            if (status[static_cast<std::size_t>(k)] < 0)
                order[static_cast<std::size_t>(fill[static_cast<std::size_t>(component[k])]++)] = k;
    }
    std::vector<std::int64_t> local(static_cast<std::size_t>(2 * n), -1);
    std::vector<Index> pu, pv;
    std::vector<double> degree, side, x;
    std::vector<std::int64_t> nodes;
    out.qp.converged = true;
    for (std::int64_t c = 0; c < components; ++c) {
        pu.clear();
        pv.clear();
        degree.clear();
        side.clear();
        nodes.clear();
        auto id = [&](std::int64_t copy) {
            std::int64_t& slot = local[static_cast<std::size_t>(copy)];
            if (slot < 0) {
                slot = static_cast<std::int64_t>(nodes.size());
                nodes.push_back(copy);
                degree.push_back(rest[static_cast<std::size_t>(copy)]);
                side.push_back(copy < n ? 1.0 : -1.0);
            }
            return static_cast<Index>(slot);
        };
        for (std::int64_t j = first[static_cast<std::size_t>(c)]; j < first[static_cast<std::size_t>(c) + 1]; ++j) {
            const std::int64_t k = order[static_cast<std::size_t>(j)];
            pu.push_back(id(tails[k]));
            pv.push_back(id(n + heads[k]));
        }
        x.assign(pu.size(), 0.0);
        const QpStats s =
            maxvar_dual_solve<Index>(static_cast<std::int64_t>(nodes.size()), static_cast<std::int64_t>(pu.size()),
                                     pu.data(), pv.data(), degree.data(), x.data(), options, side.data());
        for (std::int64_t copy : nodes) local[static_cast<std::size_t>(copy)] = -1;
        for (std::size_t j = 0; j < pu.size(); ++j)
            p[order[static_cast<std::size_t>(first[static_cast<std::size_t>(c)]) + j]] = x[j];
        QpStats& q = out.qp;
        q.iterations = std::max(q.iterations, s.iterations);
        q.cg_iterations += s.cg_iterations;
        q.repair_iterations += s.repair_iterations;
        q.evaluations += s.evaluations;
        q.projection_iterations += s.projection_iterations;
        q.raw_eq_residual = std::max(q.raw_eq_residual, s.raw_eq_residual);
        q.raw_box_residual = std::max(q.raw_box_residual, s.raw_box_residual);
        q.eq_residual = std::max(q.eq_residual, s.eq_residual);
        q.box_residual = std::max(q.box_residual, s.box_residual);
        q.dual_objective += s.dual_objective;
        q.converged = q.converged && s.converged;
    }
    out.components = components;
    for (std::int64_t k = 0; k < np; ++k) out.qp.objective += p[k] * p[k];
    return out;
}

#define GRAPHVEIL_INSTANTIATE(Index)                                                                                   \
    template std::vector<signed char> fixed_arcs(std::int64_t, std::int64_t, const Index*, const Index*,               \
                                                 const double*, const double*, std::vector<std::int64_t>*);            \
    template DirectedQpStats maxvar_directed_solve(std::int64_t, std::int64_t, const Index*, const Index*,             \
                                                   const double*, const double*, double*, const QpOptions&);

GRAPHVEIL_INSTANTIATE(std::int32_t)
GRAPHVEIL_INSTANTIATE(std::int64_t)
#undef GRAPHVEIL_INSTANTIATE

}  // namespace graphveil
