#include "graphveil/switching.hpp"

#include <algorithm>
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

}  // namespace

template <class Index>
SwitchResult<Index> edge_switch(const std::int64_t* indptr, const Index* indices, std::int64_t n, std::int64_t attempts,
                                bool nearby, std::uint64_t seed, bool directed) {
    if (attempts < 0) throw std::invalid_argument("the number of switches must be >= 0");
    if (n >= (std::int64_t(1) << 32)) throw std::invalid_argument("edge_switch supports graphs below 2**32 nodes");
    Rng rng(seed, 0);
    if (directed) {
        if (nearby) throw std::invalid_argument("the nearby switch has no directed form");
        return switch_directed(indptr, indices, n, attempts, rng);
    }
    return nearby ? switch_nearby(indptr, indices, n, attempts, rng)
                  : switch_uniform(indptr, indices, n, attempts, rng);
}

template SwitchResult<std::int32_t> edge_switch(const std::int64_t*, const std::int32_t*, std::int64_t, std::int64_t,
                                                bool, std::uint64_t, bool);
template SwitchResult<std::int64_t> edge_switch(const std::int64_t*, const std::int64_t*, std::int64_t, std::int64_t,
                                                bool, std::uint64_t, bool);

}  // namespace graphveil
