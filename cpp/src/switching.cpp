#include "graphveil/switching.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graphveil/bits.hpp"
#include "graphveil/edge_table.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {

template <class Index>
SwitchResult<Index> switch_uniform(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                                   std::int64_t attempts, Rng& rng) {
    const auto nn = static_cast<std::uint64_t>(n);
    auto key = [nn](std::uint64_t a, std::uint64_t b) { return a < b ? a * nn + b : b * nn + a; };
    struct Edge {
        Index a, b;
    };
    std::vector<Edge> edges;  // one cache line per edge read
    edges.reserve(static_cast<std::size_t>(indptr[n] / 2));
    for (std::int64_t x = 0; x < n; ++x)
        for (std::int64_t s = indptr[x]; s < indptr[x + 1]; ++s)
            if (indices[s] > x) edges.push_back({static_cast<Index>(x), indices[s]});
    SwitchResult<Index> out;
    const auto m = static_cast<std::uint64_t>(edges.size());
    if (m >= 2) {
        EdgeTable table(static_cast<std::int64_t>(m), false);
        for (const Edge& e : edges) table.insert(key(e.a, e.b));
        // The random edge picks are drawn kAhead attempts early and their edges prefetched, so
        // the memory latency of the picks overlaps with the work of the attempts in between.
        // The draws are the same sequence (i, j, flip per attempt) as without the look-ahead.
        constexpr std::int64_t kAhead = 8;
        struct Pick {
            std::uint64_t i, j;
            bool flip;
        };
        Pick ring[kAhead];
        auto draw = [&](Pick& p) {
            p.i = rng.below(m);
            p.j = rng.below(m);
            p.flip = (rng.next() >> 63) != 0;
            bits::prefetch(&edges[p.i]);
            bits::prefetch(&edges[p.j]);
        };
        for (std::int64_t a = 0; a < std::min(kAhead, attempts); ++a) draw(ring[a]);
        interrupt::Every<> tick;  // s can be 10**13: stop on a signal
        for (std::int64_t a = 0; a < attempts; ++a) {
            tick.step();
            const Pick pick = ring[a % kAhead];
            if (a + kAhead < attempts) draw(ring[a % kAhead]);
            if (pick.i == pick.j) continue;
            const Index u = edges[pick.i].a, w = edges[pick.i].b;
            Index v = edges[pick.j].a, t = edges[pick.j].b;
            if (pick.flip) std::swap(v, t);
            // {u,w}, {v,t} -> {u,t}, {v,w}
            if (u == t || v == w) continue;
            const std::uint64_t k_ut = key(u, t), k_vw = key(v, w);
            table.prefetch(k_ut);
            table.prefetch(k_vw);
            if (table.contains(k_ut) || table.contains(k_vw)) continue;
            table.erase(key(u, w));
            table.erase(key(v, t));
            table.insert(k_ut);
            table.insert(k_vw);
            edges[pick.i] = {std::min(u, t), std::max(u, t)};
            edges[pick.j] = {std::min(v, w), std::max(v, w)};
            ++out.performed;
        }
    }
    out.u.resize(edges.size());
    out.v.resize(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        out.u[e] = edges[e].a;
        out.v[e] = edges[e].b;
    }
    return out;
}

template <class Index>
SwitchResult<Index> switch_nearby(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                                  std::int64_t attempts, Rng& rng) {
    const auto nn = static_cast<std::uint64_t>(n);
    // Directed key (x, y) -> the slot of y in x's row. Rows keep their lengths (degrees are
    // preserved), so a switch only rewrites four slots.
    auto key = [nn](std::uint64_t x, std::uint64_t y) { return x * nn + y; };
    const std::int64_t slots = indptr[n];
    std::vector<Index> adj(indices, indices + slots);
    std::vector<Index> owner(static_cast<std::size_t>(slots));
    EdgeTable where(slots, true);
    for (std::int64_t x = 0; x < n; ++x)
        for (std::int64_t s = indptr[x]; s < indptr[x + 1]; ++s) {
            owner[static_cast<std::size_t>(s)] = static_cast<Index>(x);
            where.insert(key(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(adj[s])), s);
        }
    SwitchResult<Index> out;
    if (slots > 0) {
        interrupt::Every<> tick;
        for (std::int64_t a = 0; a < attempts; ++a) {
            tick.step();
            const auto s = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(slots)));
            const Index w = owner[static_cast<std::size_t>(s)], v = adj[s];
            const std::int64_t su =
                indptr[w] + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(indptr[w + 1] - indptr[w])));
            const std::int64_t st =
                indptr[v] + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(indptr[v + 1] - indptr[v])));
            const Index u = adj[su], t = adj[st];
            // path u - w - v - t; new edges {u,v}, {w,t}
            if (u == v || t == w || u == t) continue;
            if (where.contains(key(u, v)) || where.contains(key(w, t))) continue;
            const std::int64_t s_uw = where.value(key(u, w));
            const std::int64_t s_tv = where.value(key(t, v));
            where.erase(key(w, u));
            where.erase(key(u, w));
            where.erase(key(v, t));
            where.erase(key(t, v));
            // rows: w swaps u for t, u swaps w for v, v swaps t for u, t swaps v for w
            adj[su] = t;
            adj[s_uw] = v;
            adj[st] = u;
            adj[s_tv] = w;
            where.insert(key(w, t), su);
            where.insert(key(u, v), s_uw);
            where.insert(key(v, u), st);
            where.insert(key(t, w), s_tv);
            ++out.performed;
        }
    }
    for (std::int64_t s = 0; s < slots; ++s)
        if (owner[static_cast<std::size_t>(s)] < adj[s]) {
            out.u.push_back(owner[static_cast<std::size_t>(s)]);
            out.v.push_back(adj[s]);
        }
    return out;
}

// Directed switches on the arcs of an out-CSR: arcs x -> y, u -> v become x -> v, u -> y, so
// every out-degree (x, u) and in-degree (y, v) is kept. Rejected: a loop (x == v, u == y) or an
// arc already present (which covers x == u and y == v).
template <class Index>
SwitchResult<Index> switch_directed(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                                    std::int64_t attempts, Rng& rng) {
    const auto nn = static_cast<std::uint64_t>(n);
    auto key = [nn](std::uint64_t a, std::uint64_t b) { return a * nn + b; };
    struct Arc {
        Index a, b;
    };
    std::vector<Arc> arcs;
    arcs.reserve(static_cast<std::size_t>(indptr[n]));
    for (std::int64_t x = 0; x < n; ++x)
        for (std::int64_t s = indptr[x]; s < indptr[x + 1]; ++s) arcs.push_back({static_cast<Index>(x), indices[s]});
    SwitchResult<Index> out;
    const auto m = static_cast<std::uint64_t>(arcs.size());
    if (m >= 2) {
        EdgeTable table(static_cast<std::int64_t>(m), false);
        for (const Arc& e : arcs) table.insert(key(e.a, e.b));
        interrupt::Every<> tick;
        for (std::int64_t a = 0; a < attempts; ++a) {
            tick.step();
            const std::uint64_t i = rng.below(m), j = rng.below(m);
            if (i == j) continue;
            const Index x = arcs[i].a, y = arcs[i].b, u = arcs[j].a, v = arcs[j].b;
            if (x == v || u == y) continue;
            const std::uint64_t k_xv = key(x, v), k_uy = key(u, y);
            if (table.contains(k_xv) || table.contains(k_uy)) continue;
            table.erase(key(x, y));
            table.erase(key(u, v));
            table.insert(k_xv);
            table.insert(k_uy);
            arcs[i] = {x, v};
            arcs[j] = {u, y};
            ++out.performed;
        }
    }
    out.u.resize(arcs.size());
    out.v.resize(arcs.size());
    for (std::size_t e = 0; e < arcs.size(); ++e) {
        out.u[e] = arcs[e].a;
        out.v[e] = arcs[e].b;
    }
    return out;
}

// The dyad-aware directed chain: every in-degree, every out-degree and the number of mutual
// dyads (pairs joined both ways) kept. Each attempt draws one of three moves, each a k-arc
// switch in the sense of Tabourier, Roth and Cointet (2011): k arcs removed, k arcs with the
// same tails and a permutation of their heads added.
//  0: the 2-arc switch x -> y, u -> v  =>  x -> v, u -> y (arcs i, j uniform);
//  1: the 3-arc rotation of arcs i, j, k (uniform, distinct) a_l -> b_l  =>  a_l -> b_{l+1}
//     or a_l -> b_{l-1} (a fair coin), which reverses a directed 3-cycle a -> b -> c -> a (Rao,
//     Jana and Bandyopadhyay 1996: the 2-arc switch alone cannot, so it does not connect the
//     digraphs with the same degrees);
//  2: the mutual-dyad switch: arcs i, j uniform, x -> y and u -> v both with their reverse
//     arcs, the dyads {x, y}, {u, v} become {x, v}, {u, y} (both ways; Milo et al. 2002 switch
//     mutual edges among themselves).
// A move is rejected (the graph unchanged) when it would create a loop or an arc present, or
// change the number of mutual dyads. Each move's proposal is symmetric (the reverse move is
// drawn with the same probability), so the chain's stationary law is uniform on the digraphs
// it reaches; tests/test_directed_schemes.py enumerates tiny state spaces to check it reaches
// them all.
template <class Index>
class DyadSwitcher {
public:
    DyadSwitcher(const std::int64_t* indptr, const Index* indices, std::int64_t n)
        : nn_(static_cast<std::uint64_t>(n)), table_(indptr[n], true) {
        arcs_.reserve(static_cast<std::size_t>(indptr[n]));
        for (std::int64_t x = 0; x < n; ++x)
            for (std::int64_t s = indptr[x]; s < indptr[x + 1]; ++s) {
                table_.insert(key(static_cast<Index>(x), indices[s]), static_cast<std::int64_t>(arcs_.size()));
                arcs_.push_back({static_cast<Index>(x), indices[s]});
            }
    }

    std::int64_t run(std::int64_t attempts, Rng& rng) {
        const auto m = static_cast<std::uint64_t>(arcs_.size());
        std::int64_t performed = 0;
        if (m < 2) return 0;
        interrupt::Every<> tick;
        for (std::int64_t a = 0; a < attempts; ++a) {
            tick.step();
            const std::uint64_t move = rng.below(3);
            const std::uint64_t i = rng.below(m), j = rng.below(m);
            if (move == 0) {
                if (i == j) continue;
                const Arc x = arcs_[i], u = arcs_[j];
                performed += replace({i, j}, {Arc{x.a, u.b}, Arc{u.a, x.b}});
            } else if (move == 1) {
                const std::uint64_t k = rng.below(m);
                const bool forward = (rng.next() >> 63) != 0;
                if (i == j || j == k || i == k) continue;
                const Arc p = arcs_[i], q = arcs_[j], r = arcs_[k];
                if (forward)
                    performed += replace({i, j, k}, {Arc{p.a, q.b}, Arc{q.a, r.b}, Arc{r.a, p.b}});
                else
                    performed += replace({i, j, k}, {Arc{p.a, r.b}, Arc{q.a, p.b}, Arc{r.a, q.b}});
            } else {
                const Arc x = arcs_[i], u = arcs_[j];
                const std::uint64_t back_x = key(x.b, x.a), back_u = key(u.b, u.a);
                if (i == j || !table_.contains(back_x) || !table_.contains(back_u)) continue;
                const auto i2 = static_cast<std::uint64_t>(table_.value(back_x));
                const auto j2 = static_cast<std::uint64_t>(table_.value(back_u));
                if (i2 == j) continue;  // one dyad twice
                performed += replace({i, i2, j, j2}, {Arc{x.a, u.b}, Arc{u.b, x.a}, Arc{u.a, x.b}, Arc{x.b, u.a}});
            }
        }
        return performed;
    }

    void write(SwitchResult<Index>& out) const {
        out.u.resize(arcs_.size());
        out.v.resize(arcs_.size());
        for (std::size_t e = 0; e < arcs_.size(); ++e) {
            out.u[e] = arcs_[e].a;
            out.v[e] = arcs_[e].b;
        }
    }

private:
    struct Arc {
        Index a, b;
    };
    static constexpr std::size_t kMax = 4;
    struct Slots {
        std::uint64_t id[kMax];
        std::size_t k;
        Slots(std::initializer_list<std::uint64_t> list) : id{}, k(list.size()) {
            std::size_t t = 0;
            for (std::uint64_t x : list) id[t++] = x;
        }
    };
    struct Arcs {
        Arc arc[kMax];
        std::size_t k;
        Arcs(std::initializer_list<Arc> list) : arc{}, k(list.size()) {
            std::size_t t = 0;
            for (const Arc& x : list) arc[t++] = x;
        }
    };

    std::uint64_t key(Index a, Index b) const { return static_cast<std::uint64_t>(a) * nn_ + static_cast<std::uint64_t>(b); }
    bool has(Index a, Index b) const { return table_.contains(key(a, b)); }

    // Mutual dyads among the unordered pairs of `ends` (each pair counted once).
    int mutual(const Arc* ends, std::size_t count) const {
        int total = 0;
        for (std::size_t e = 0; e < count; ++e) {
            bool seen = false;
            for (std::size_t f = 0; f < e && !seen; ++f)
                seen = (ends[f].a == ends[e].a && ends[f].b == ends[e].b) ||
                       (ends[f].a == ends[e].b && ends[f].b == ends[e].a);
            if (!seen && has(ends[e].a, ends[e].b) && has(ends[e].b, ends[e].a)) ++total;
        }
        return total;
    }

    // Replace the arcs in `slots` by `fresh` (slot for slot), or leave the graph as it was and
    // return 0 when a fresh arc is a loop or present, or the mutual dyads would change.
    int replace(const Slots& slots, const Arcs& fresh) {
        Arc old[kMax], ends[2 * kMax];
        const std::size_t k = slots.k;
        for (std::size_t t = 0; t < k; ++t) {
            old[t] = arcs_[slots.id[t]];
            if (fresh.arc[t].a == fresh.arc[t].b) return 0;
            ends[t] = old[t];
            ends[k + t] = fresh.arc[t];
        }
        const int before = mutual(ends, 2 * k);
        for (std::size_t t = 0; t < k; ++t) table_.erase(key(old[t].a, old[t].b));
        std::size_t added = 0;
        for (; added < k; ++added) {
            const std::uint64_t fk = key(fresh.arc[added].a, fresh.arc[added].b);
            if (table_.contains(fk)) break;
            table_.insert(fk, static_cast<std::int64_t>(slots.id[added]));
        }
        if (added == k && mutual(ends, 2 * k) == before) {
            for (std::size_t t = 0; t < k; ++t) arcs_[slots.id[t]] = fresh.arc[t];
            return 1;
        }
        for (std::size_t t = 0; t < added; ++t) table_.erase(key(fresh.arc[t].a, fresh.arc[t].b));
        for (std::size_t t = 0; t < k; ++t) table_.insert(key(old[t].a, old[t].b), static_cast<std::int64_t>(slots.id[t]));
        return 0;
    }

    std::uint64_t nn_;
    EdgeTable table_;  // arc key -> its slot in arcs_
    std::vector<Arc> arcs_;
};

}  // namespace

template <class Index>
SwitchResult<Index> edge_switch(const std::int64_t* indptr, const Index* indices, std::int64_t n, std::int64_t attempts,
                                bool nearby, std::uint64_t seed, bool directed, bool dyads) {
    if (attempts < 0) throw std::invalid_argument("the number of switches must be >= 0");
    if (n >= (std::int64_t(1) << 32)) throw std::invalid_argument("edge_switch supports graphs below 2**32 nodes");
    Rng rng(seed, 0);
    if (dyads && (!directed || nearby))
        throw std::invalid_argument("the dyad-aware switch is for directed graphs, nearby = false");
    if (dyads) {
        DyadSwitcher<Index> switcher(indptr, indices, n);
        SwitchResult<Index> out;
        out.performed = switcher.run(attempts, rng);
        switcher.write(out);
        return out;
    }
    if (directed) {
        if (nearby) throw std::invalid_argument("the nearby switch has no directed form");
        return switch_directed(indptr, indices, n, attempts, rng);
    }
    return nearby ? switch_nearby(indptr, indices, n, attempts, rng)
                  : switch_uniform(indptr, indices, n, attempts, rng);
}

template SwitchResult<std::int32_t> edge_switch(const std::int64_t*, const std::int32_t*, std::int64_t, std::int64_t,
                                                bool, std::uint64_t, bool, bool);
template SwitchResult<std::int64_t> edge_switch(const std::int64_t*, const std::int64_t*, std::int64_t, std::int64_t,
                                                bool, std::uint64_t, bool, bool);

}  // namespace graphveil
