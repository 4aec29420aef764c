#include "graphveil/statistics.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "graphveil/bits.hpp"
#include "graphveil/parallel.hpp"

namespace graphveil {

namespace {

// Number of workers for `n_chunks` chunks; each worker owns one scratch slot.
int worker_count(std::int64_t n_chunks, int threads) {
    return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(resolve_threads(threads), n_chunks)));
}

// Calls body(chunk, worker) for every chunk in [0, n_chunks), chunks handed out dynamically,
// `worker` in [0, workers) identifying a scratch slot no other running call uses.
template <class Body>
void for_each_chunk(std::int64_t n_chunks, int workers, Body&& body) {
    std::atomic<std::int64_t> next{0};
    parallel_blocks(workers, workers, [&](std::int64_t w) {
        for (;;) {
            const std::int64_t c = next.fetch_add(1);
            if (c >= n_chunks) return;
            body(c, static_cast<int>(w));
        }
    });
}

// The SplitMix64 finaliser (Steele, Lea, Flood 2014): a fast 64-bit mixer used as the seeded
// hash of node ids for the HyperLogLog counters.
inline std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Software prefetch: the BFS and HyperBall inner loops read a random neighbour's state per edge
// and are bound by memory latency; asking a few edges ahead hides part of it.
inline void prefetch(const void* address) { bits::prefetch(address); }

constexpr std::int64_t kLookahead = 8;

// Portable SWAR popcount: without -mpopcnt, __builtin_popcountll is a library call.
inline int popcount64(std::uint64_t x) { return bits::portable::popcount64(x); }

inline int clz64(std::uint64_t x) { return bits::clz64(x); }  // x != 0

template <class Index>
void check_csr(const std::int64_t* indptr, std::int64_t n) {
    if (n < 0) throw std::invalid_argument("n must be non-negative");
    if (n > 0 && indptr[0] != 0) throw std::invalid_argument("indptr must start at 0");
}

}  // namespace

// ---------------------------------------------------------------------------------- triangles

template <class Index>
TriangleCounts count_triangles(const std::int64_t* indptr, const Index* indices, std::int64_t n, int threads,
                               std::int64_t* per_node) {
    check_csr<Index>(indptr, n);
    TriangleCounts out;
    if (per_node != nullptr) std::fill(per_node, per_node + n, std::int64_t{0});
    if (n == 0) return out;
    for (std::int64_t v = 0; v < n; ++v) {
        const std::int64_t d = indptr[v + 1] - indptr[v];
        out.triples += d * (d - 1) / 2;
    }

    // Orient every edge towards the endpoint of higher (degree, id) rank. The out-list of v is
    // stored in place at the start of v's CSR row range (no prefix sum, no relabelling), and as
    // a filtered copy of a sorted row it is sorted by id.
    auto above = [indptr](std::int64_t v, std::int64_t w) {
        const std::int64_t dv = indptr[v + 1] - indptr[v], dw = indptr[w + 1] - indptr[w];
        return dw > dv || (dw == dv && w > v);
    };
    constexpr std::int64_t kBlock = 4096;
    std::vector<Index> out_adj(static_cast<std::size_t>(indptr[n]));
    std::vector<std::int64_t> out_end(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t v = begin; v < end; ++v) {
            std::int64_t pos = indptr[v];
            for (std::int64_t k = indptr[v]; k < indptr[v + 1]; ++k) {
                const Index w = indices[k];
                if (above(v, w)) out_adj[static_cast<std::size_t>(pos++)] = w;
            }
            out_end[static_cast<std::size_t>(v)] = pos;
        }
    });

    // Each triangle is counted once, at its lowest-ranked node r: mark out(r), then scan out(x)
    // for x in out(r); a marked node there closes the triangle (r, x, y).
    constexpr std::int64_t kChunk = 512;
    const std::int64_t n_chunks = (n + kChunk - 1) / kChunk;
    int workers = worker_count(n_chunks, threads);
    // Per node, each worker adds into its own array (8 bytes a node: capped at about 2 GiB in
    // all) and the arrays are summed after: exact integers, whatever the schedule.
    if (per_node != nullptr)
        workers =
            static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(workers, (std::int64_t{1} << 28) / n)));
    std::vector<std::vector<std::uint8_t>> marks(static_cast<std::size_t>(workers));
    std::vector<std::vector<std::int64_t>> found(static_cast<std::size_t>(per_node != nullptr ? workers : 0));
    std::vector<std::int64_t> counts(static_cast<std::size_t>(n_chunks), 0);
    const Index* adj = out_adj.data();
    const std::int64_t* ends = out_end.data();
    for_each_chunk(n_chunks, workers, [&](std::int64_t chunk, int worker) {
        auto& mark = marks[static_cast<std::size_t>(worker)];
        if (mark.empty()) mark.assign(static_cast<std::size_t>(n), 0);
        std::int64_t* at = nullptr;
        if (per_node != nullptr) {
            auto& mine = found[static_cast<std::size_t>(worker)];
            if (mine.empty()) mine.assign(static_cast<std::size_t>(n), 0);
            at = mine.data();
        }
        std::int64_t c = 0;
        const std::int64_t end = std::min(n, (chunk + 1) * kChunk);
        for (std::int64_t r = chunk * kChunk; r < end; ++r) {
            const std::int64_t b = indptr[r], e = ends[r];
            if (e - b < 2) continue;
            for (std::int64_t k = b; k < e; ++k) mark[static_cast<std::size_t>(adj[k])] = 1;
            const std::int64_t before = c;
            for (std::int64_t k = b; k < e; ++k) {
                if (k + 2 < e) prefetch(&adj[indptr[adj[k + 2]]]);
                const std::int64_t x = adj[k];
                if (at == nullptr) {
                    for (std::int64_t j = indptr[x]; j < ends[x]; ++j) c += mark[static_cast<std::size_t>(adj[j])];
                    continue;
                }
                const std::int64_t at_x = c;
                for (std::int64_t j = indptr[x]; j < ends[x]; ++j) {
                    const std::int64_t y = adj[j];
                    if (mark[static_cast<std::size_t>(y)]) {
                        ++c;
                        ++at[y];
                    }
                }
                at[x] += c - at_x;
            }
            if (at != nullptr) at[r] += c - before;
            for (std::int64_t k = b; k < e; ++k) mark[static_cast<std::size_t>(adj[k])] = 0;
        }
        counts[static_cast<std::size_t>(chunk)] = c;
    });
    for (const auto c : counts) out.triangles += c;
    if (per_node != nullptr)
        parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
            for (const auto& mine : found)
                if (!mine.empty())
                    for (std::int64_t v = begin; v < end; ++v) per_node[v] += mine[static_cast<std::size_t>(v)];
        });
    return out;
}

// ------------------------------------------------------------------------- multi-source BFS

namespace {

constexpr int kWords = 4;            // 64-bit words per node: one bit per source of the batch
constexpr int kBatch = 64 * kWords;  // sources per batch
// Pull once the frontier's edges reach half the edges of the nodes still missing a source: a
// pushed edge costs about twice a pulled one (measured on web-NotreDame: 14 against 7 ns).
constexpr std::int64_t kPullRatio = 2;
// A pushed arc reads and writes two random lanes, a pulled one reads one: once the BFS state
// outgrows the cache both cost a memory access, and pushing costs about four times as much
// (synthetic-youtube: from the 4th level on, a pulled level takes 125 ms, a pushed one 220 ms).
constexpr std::int64_t kPullRatioUncached = 4;
constexpr std::int64_t kCachedState = std::int64_t{16} << 20;  // bytes: web-NotreDame's is 15.7 MB

// Arcs ahead of the BFS scans whose targets are prefetched, across row ends: rows average a
// few arcs, so a look-ahead within one row leaves most reads unhidden. On synthetic-youtube,
// whose BFS state (109 MB) is far larger than the cache, it makes the BFS 1.4x faster.
constexpr std::int64_t kBfsLookahead = 16;
// A pulled row ORs its neighbours' lanes and checks whether the node still misses a source only
// every this many arcs: the check rarely ends a row early (a node gets all its missing sources
// at one level only at its last), and per arc it cost as much as the OR. web-NotreDame's
// 1,000-source BFS on one thread: 0.59 -> 0.50 s (best of 9); synthetic-youtube unchanged.
constexpr std::int64_t kPullCheck = 8;

// Walks the arcs of the rows of `nodes` in order, one per step(), for a prefetch ahead of a scan
// of the same arcs.
// The list may grow while the cursor walks it (a BFS queue).
template <class Node>
struct ArcCursor {
    const std::int64_t* indptr;
    const std::vector<Node>& nodes;
    std::size_t next_node = 0;
    std::int64_t arc = 0, row_end = 0;

    ArcCursor(const std::int64_t* ip, const std::vector<Node>& list) : indptr(ip), nodes(list) {}

    // The next arc's position in `indices`, or -1 past the last row.
    std::int64_t step() {
        while (arc == row_end) {
            if (next_node == nodes.size()) return -1;
            if (next_node + kBfsLookahead < nodes.size()) prefetch(&indptr[nodes[next_node + kBfsLookahead]]);
            const std::int64_t u = nodes[next_node++];
            arc = indptr[u];
            row_end = indptr[u + 1];
        }
        return arc++;
    }
};

struct Lane {
    std::uint64_t w[kWords];
};

inline bool any(const Lane& a) {
    std::uint64_t x = 0;
    for (int i = 0; i < kWords; ++i) x |= a.w[i];
    return x != 0;
}

// A component holding sources of the batch, with their bits: no other component is reached, and
// a node of it is done once it has seen all of these bits.
struct Reach {
    std::int64_t comp;
    Lane bits;
};

inline bool equal(const Lane& a, const Lane& b) {
    std::uint64_t x = 0;
    for (int i = 0; i < kWords; ++i) x |= a.w[i] ^ b.w[i];
    return x == 0;
}

struct BfsScratch {
    std::vector<Lane> seen, frontier, next;
    std::vector<std::int64_t> active, next_active;
    std::vector<std::int64_t> hist;
    std::vector<std::int32_t> slot;  // component -> its index in `reach`, or -1
    std::vector<Reach> reach;

    void add(std::size_t level, std::int64_t count) {
        if (count == 0) return;
        if (hist.size() <= level) hist.resize(level + 1, 0);
        hist[level] += count;
    }
};

// The graph the multi-source BFS walks: a leaf (a degree-1 node whose neighbour has degree >= 2)
// is folded into a count on that neighbour, its anchor, since its distances are its anchor's
// plus one; the other ("core") nodes are renumbered in BFS order, so that nodes close in the
// graph sit close in memory. About half of a web or social graph's nodes are leaves: folding
// halves the BFS state, which then stays in cache, and renumbering keeps a shuffled graph's
// BFS as fast as a well-ordered one's. Building it is two passes over the edges.
template <class Index>
struct FoldedGraph {
    std::vector<std::int64_t> indptr;
    std::vector<Index> indices;
    std::vector<std::int64_t> leaves;  // leaves hanging on each core node
    std::vector<Index> where;          // node id -> its core id (a leaf's: its anchor's)
    std::vector<std::uint8_t> leaf;    // node id -> 1 if it is a leaf
    std::vector<std::int64_t> start;   // component c holds core ids start[c] .. start[c + 1] - 1
    std::vector<std::int64_t> comp;    // core id -> its component

    FoldedGraph(const std::int64_t* ip, const Index* ix, std::int64_t n)
        : where(static_cast<std::size_t>(n)), leaf(static_cast<std::size_t>(n), 0) {
        auto degree = [&](std::int64_t v) { return ip[v + 1] - ip[v]; };
        for (std::int64_t v = 0; v < n; ++v)
            leaf[static_cast<std::size_t>(v)] = degree(v) == 1 && degree(ix[ip[v]]) >= 2;
        // Core ids in BFS order, component by component from the lowest unnumbered id. A node's
        // row is written when the BFS takes it from the queue: its core neighbours then all have
        // their ids, and rows come out in id order, so one pass over the edges builds the graph.
        const Index unset = static_cast<Index>(-1);
        std::fill(where.begin(), where.end(), unset);
        std::vector<Index> order;
        order.reserve(static_cast<std::size_t>(n));
        indptr.reserve(static_cast<std::size_t>(n) + 1);
        indptr.push_back(0);
        indices.reserve(static_cast<std::size_t>(ip[n]));
        for (std::int64_t s = 0; s < n; ++s) {
            if (leaf[static_cast<std::size_t>(s)] || where[static_cast<std::size_t>(s)] != unset) continue;
            start.push_back(static_cast<std::int64_t>(order.size()));
            where[static_cast<std::size_t>(s)] = static_cast<Index>(order.size());
            order.push_back(static_cast<Index>(s));
            for (std::size_t head = order.size() - 1; head < order.size(); ++head) {
                const Index x = order[head];
                // The queue ahead is known: fetch the rows it will read (random in the input).
                if (head + 2 * kLookahead < order.size()) prefetch(&ip[order[head + 2 * kLookahead]]);
                if (head + kLookahead < order.size()) prefetch(&ix[ip[order[head + kLookahead]]]);
                std::int64_t hanging = 0;
                for (std::int64_t e = ip[x]; e < ip[x + 1]; ++e) {
                    const Index y = ix[e];
                    if (leaf[static_cast<std::size_t>(y)]) {
                        ++hanging;
                        continue;
                    }
                    if (where[static_cast<std::size_t>(y)] == unset) {
                        where[static_cast<std::size_t>(y)] = static_cast<Index>(order.size());
                        order.push_back(y);
                    }
                    indices.push_back(where[static_cast<std::size_t>(y)]);
                }
                indptr.push_back(static_cast<std::int64_t>(indices.size()));
                leaves.push_back(hanging);
            }
        }
        const std::size_t core = order.size();
        start.push_back(static_cast<std::int64_t>(core));
        comp.resize(core);
        for (std::size_t c = 0; c + 1 < start.size(); ++c)
            std::fill(comp.begin() + start[c], comp.begin() + start[c + 1], static_cast<std::int64_t>(c));
        for (std::int64_t v = 0; v < n; ++v)
            if (leaf[static_cast<std::size_t>(v)]) where[static_cast<std::size_t>(v)] = where[static_cast<std::size_t>(ix[ip[v]])];
    }

    std::int64_t n() const { return static_cast<std::int64_t>(leaves.size()); }
};

// Counts the nodes a batch reaches at `level`: `reached` holds, per core node, the sources that
// reach it there. A core source's bit reaches a core node at its own distance and the node's
// leaves one step further; a leaf source's bit started at its anchor, one step late.
struct LevelCount {
    Lane core_bits{};  // sources that are core nodes (the other bits of the batch are leaves)
    std::int64_t nodes[2] = {0, 0}, leaves[2] = {0, 0};  // [0]: core sources, [1]: leaf sources

    void add(const Lane& reached, std::int64_t leaf_count) {
        std::int64_t core = 0, all = 0;
        for (int i = 0; i < kWords; ++i) {
            core += popcount64(reached.w[i] & core_bits.w[i]);
            all += popcount64(reached.w[i]);
        }
        nodes[0] += core;
        nodes[1] += all - core;
        leaves[0] += core * leaf_count;
        leaves[1] += (all - core) * leaf_count;
    }

    void flush(std::size_t level, BfsScratch& s) {
        s.add(level, nodes[0]);
        s.add(level + 1, nodes[1] + leaves[0]);
        s.add(level + 2, leaves[1]);
        nodes[0] = nodes[1] = leaves[0] = leaves[1] = 0;
    }
};

template <class Index>
void bfs_batch(const FoldedGraph<Index>& g, const std::int64_t* sources, int count, BfsScratch& s) {
    const std::int64_t pull_ratio =
        3 * static_cast<std::int64_t>(sizeof(Lane)) * g.n() > kCachedState ? kPullRatioUncached : kPullRatio;
    const std::int64_t* indptr = g.indptr.data();
    const Index* indices = g.indices.data();
    const Lane zero{};
    std::fill(s.seen.begin(), s.seen.end(), zero);
    std::fill(s.frontier.begin(), s.frontier.end(), zero);
    std::fill(s.next.begin(), s.next.end(), zero);
    s.active.clear();
    s.reach.clear();
    LevelCount counts;
    std::int64_t frontier_edges = 0, leaf_sources = 0, open_edges = 0;
    auto degree = [&](std::int64_t v) { return indptr[v + 1] - indptr[v]; };
    for (int i = 0; i < count; ++i) {
        const auto source = static_cast<std::size_t>(sources[i]);
        const std::int64_t v = g.where[source];
        const std::uint64_t bit = 1ULL << (i % 64);
        if (g.leaf[source])
            ++leaf_sources;
        else
            counts.core_bits.w[i / 64] |= bit;
        const auto c = static_cast<std::size_t>(g.comp[static_cast<std::size_t>(v)]);
        if (s.slot[c] < 0) {
            s.slot[c] = static_cast<std::int32_t>(s.reach.size());
            s.reach.push_back({static_cast<std::int64_t>(c), zero});
            open_edges += indptr[g.start[c + 1]] - indptr[g.start[c]];
        }
        s.reach[static_cast<std::size_t>(s.slot[c])].bits.w[i / 64] |= bit;
        if (!any(s.frontier[static_cast<std::size_t>(v)])) {
            s.active.push_back(v);
            frontier_edges += degree(v);
        }
        s.seen[static_cast<std::size_t>(v)].w[i / 64] |= bit;
        s.frontier[static_cast<std::size_t>(v)].w[i / 64] |= bit;
    }
    auto bits_of = [&](std::int64_t v) -> const Lane& {
        return s.reach[static_cast<std::size_t>(s.slot[static_cast<std::size_t>(g.comp[static_cast<std::size_t>(v)])])].bits;
    };
    // A leaf source: itself at distance 0; counted again at 2 among its anchor's leaves.
    s.add(0, leaf_sources);
    s.add(2, -leaf_sources);
    for (const std::int64_t v : s.active) {
        counts.add(s.frontier[static_cast<std::size_t>(v)], g.leaves[static_cast<std::size_t>(v)]);
        if (equal(s.seen[static_cast<std::size_t>(v)], bits_of(v))) open_edges -= degree(v);
    }
    counts.flush(0, s);

    Lane* seen = s.seen.data();
    Lane* frontier = s.frontier.data();
    Lane* next = s.next.data();
    for (std::size_t level = 1; !s.active.empty(); ++level) {
        s.next_active.clear();
        // Push from a small frontier; pull into the nodes still missing a source once the
        // frontier's edges are a sizeable share of theirs (direction-optimising BFS, Beamer et
        // al. SC 2012, with the unexplored edges counted per node as sources reach it).
        if (frontier_edges * pull_ratio < open_edges) {
            ArcCursor<std::int64_t> ahead(indptr, s.active);
            for (std::int64_t k = 0; k < kBfsLookahead; ++k) ahead.step();
            const std::size_t active = s.active.size();
            for (std::size_t at = 0; at < active; ++at) {
                if (at + 4 < active) prefetch(&frontier[s.active[at + 4]]);
                const std::int64_t u = s.active[at];
                const Lane f = frontier[u];
                const std::int64_t row_end = indptr[u + 1];
                for (std::int64_t k = indptr[u]; k < row_end; ++k) {
                    if (const std::int64_t a = ahead.step(); a >= 0) {
                        prefetch(&seen[indices[a]]);
                        prefetch(&next[indices[a]]);
                    }
                    const std::int64_t v = indices[k];
                    Lane nw;
                    std::uint64_t hit = 0;
                    for (int i = 0; i < kWords; ++i) {
                        nw.w[i] = f.w[i] & ~seen[v].w[i];
                        hit |= nw.w[i];
                    }
                    if (!hit) continue;
                    if (!any(next[v])) s.next_active.push_back(v);
                    for (int i = 0; i < kWords; ++i) next[v].w[i] |= nw.w[i];
                }
            }
        } else {
            for (const Reach& r : s.reach) {
                const auto c = static_cast<std::size_t>(r.comp);
                const std::int64_t edges_end = indptr[g.start[c + 1]];
                for (std::int64_t v = g.start[c]; v < g.start[c + 1]; ++v) {
                    Lane need;
                    std::uint64_t open = 0;
                    for (int i = 0; i < kWords; ++i) {
                        need.w[i] = r.bits.w[i] & ~seen[v].w[i];
                        open |= need.w[i];
                    }
                    if (!open) continue;
                    Lane acc{};
                    const std::int64_t row_end = indptr[v + 1];
                    for (std::int64_t k = indptr[v]; k < row_end;) {
                        const std::int64_t stop = std::min(row_end, k + kPullCheck);
                        for (; k < stop; ++k) {
                            if (k + kBfsLookahead < edges_end) prefetch(&frontier[indices[k + kBfsLookahead]]);
                            const Lane& f = frontier[indices[k]];
                            for (int i = 0; i < kWords; ++i) acc.w[i] |= f.w[i];
                        }
                        std::uint64_t rest = 0;
                        for (int i = 0; i < kWords; ++i) rest |= need.w[i] & ~acc.w[i];
                        if (!rest) break;
                    }
                    for (int i = 0; i < kWords; ++i) acc.w[i] &= need.w[i];
                    if (any(acc)) {
                        next[v] = acc;
                        s.next_active.push_back(v);
                    }
                }
            }
        }
        for (const std::int64_t u : s.active) frontier[u] = zero;
        frontier_edges = 0;
        for (const std::int64_t v : s.next_active) {
            for (int i = 0; i < kWords; ++i) seen[v].w[i] |= next[v].w[i];
            counts.add(next[v], g.leaves[static_cast<std::size_t>(v)]);
            frontier[v] = next[v];
            next[v] = zero;
            frontier_edges += degree(v);
            if (equal(seen[v], bits_of(v))) open_edges -= degree(v);
        }
        counts.flush(level, s);
        std::swap(s.active, s.next_active);
    }
    for (const Reach& r : s.reach) s.slot[static_cast<std::size_t>(r.comp)] = -1;
}

}  // namespace

template <class Index>
std::vector<std::int64_t> distance_histogram(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                                             const std::int64_t* sources, std::int64_t n_sources, int threads) {
    check_csr<Index>(indptr, n);
    for (std::int64_t i = 0; i < n_sources; ++i)
        if (sources[i] < 0 || sources[i] >= n)
            throw std::out_of_range("BFS source " + std::to_string(sources[i]) + " is not a node id in [0, n)");
    if (n_sources == 0) return {};
    const FoldedGraph<Index> folded(indptr, indices, n);
    const std::int64_t core = folded.n();
    const std::int64_t n_batches = (n_sources + kBatch - 1) / kBatch;
    // Every worker holds 3 lanes (96 bytes) per core node: cap the workers so that all of them
    // together stay within about 2 GiB, whatever the core count.
    const std::int64_t per_worker = 3 * static_cast<std::int64_t>(sizeof(Lane)) * std::max<std::int64_t>(core, 1);
    const auto memory_cap = static_cast<int>(std::max<std::int64_t>(1, (std::int64_t{1} << 31) / per_worker));
    const int workers = std::min(worker_count(n_batches, threads), memory_cap);
    std::vector<BfsScratch> scratch(static_cast<std::size_t>(workers));
    for_each_chunk(n_batches, workers, [&](std::int64_t batch, int worker) {
        BfsScratch& s = scratch[static_cast<std::size_t>(worker)];
        if (s.seen.empty()) {
            s.seen.resize(static_cast<std::size_t>(core));
            s.frontier.resize(static_cast<std::size_t>(core));
            s.next.resize(static_cast<std::size_t>(core));
            s.slot.assign(folded.start.size(), -1);
        }
        const std::int64_t begin = batch * kBatch;
        const int count = static_cast<int>(std::min<std::int64_t>(kBatch, n_sources - begin));
        bfs_batch(folded, sources + begin, count, s);
    });
    std::vector<std::int64_t> hist;
    for (const auto& s : scratch) {
        if (hist.size() < s.hist.size()) hist.resize(s.hist.size(), 0);
        for (std::size_t d = 0; d < s.hist.size(); ++d) hist[d] += s.hist[d];
    }
    while (!hist.empty() && hist.back() == 0) hist.pop_back();
    return hist;
}

// -------------------------------------------------------------------------------- HyperBall

namespace {

// Ertl (2017), "New cardinality estimation algorithms for HyperLogLog sketches", Algorithm 6.
double ertl_sigma(double x) {
    if (x == 1.0) return std::numeric_limits<double>::infinity();
    double y = 1.0, z = x, previous;
    do {
        x *= x;
        previous = z;
        z += x * y;
        y += y;
    } while (previous != z);
    return z;
}

double ertl_tau(double x) {
    if (x == 0.0 || x == 1.0) return 0.0;
    double y = 1.0, z = 1.0 - x, previous;
    do {
        x = std::sqrt(x);
        previous = z;
        y *= 0.5;
        z -= (1.0 - x) * (1.0 - x) * y;
    } while (previous != z);
    return z / 3.0;
}

struct HllEstimator {
    int m = 0, q = 0;
    std::vector<double> sigma_term, tau_term;  // indexed by C_0 and by C_{q+1}
    std::uint64_t weight[66] = {};             // 2^(q - r) for 1 <= r <= q, else 0
    double unit = 0.0, scale = 0.0;

    explicit HllEstimator(int log2m) : m(1 << log2m), q(64 - log2m) {
        sigma_term.resize(static_cast<std::size_t>(m) + 1);
        tau_term.resize(static_cast<std::size_t>(m) + 1);
        for (int c = 0; c <= m; ++c) {
            sigma_term[static_cast<std::size_t>(c)] = m * ertl_sigma(static_cast<double>(c) / m);
            tau_term[static_cast<std::size_t>(c)] =
                m * ertl_tau(1.0 - static_cast<double>(c) / m) * std::ldexp(1.0, -q);
        }
        for (int r = 1; r <= q; ++r) weight[r] = 1ULL << (q - r);
        unit = std::ldexp(1.0, -q);
        scale = 0.5 / std::log(2.0) * m * m;
    }

    // sum_{1 <= r_j <= q} 2^-r_j in fixed point (at most m 2^(q-1) = 2^63, no overflow), with
    // independent accumulators: a serial floating-point sum would cost 4 cycles per register.
    double operator()(const std::uint8_t* r) const {
        int zeros = 0, saturated = 0;
        for (int j = 0; j < m; ++j) zeros += r[j] == 0;
        for (int j = 0; j < m; ++j) saturated += r[j] == q + 1;
        std::uint64_t acc[4] = {0, 0, 0, 0};
        for (int j = 0; j < m; j += 4)
            for (int k = 0; k < 4; ++k) acc[k] += weight[r[j + k]];
        const double z = static_cast<double>(acc[0] + acc[1] + acc[2] + acc[3]) * unit;
        return scale /
               (sigma_term[static_cast<std::size_t>(zeros)] + z + tau_term[static_cast<std::size_t>(saturated)]);
    }
};

// Register-wise maximum of two counters; M is the register count when known at compile time
// (fully unrolled into SIMD byte-max instructions), 0 for a run-time count m.
template <int M>
inline void merge_max(std::uint8_t* out, const std::uint8_t* other, int m) {
    const int count = M > 0 ? M : m;
    for (int j = 0; j < count; ++j) out[j] = std::max(out[j], other[j]);
}

template <int M, class Index>
std::vector<double> hyperball_impl(const std::int64_t* indptr, const Index* indices, std::int64_t n, int log2m,
                                   std::uint64_t seed, std::int64_t max_iterations, int threads) {
    const int m = 1 << log2m;
    const int q = 64 - log2m;
    const auto sm = static_cast<std::size_t>(m);
    const HllEstimator estimate(log2m);
    // cur holds every counter after round t; a round writes only the counters that grow, into
    // nxt, and copies them back afterwards, so unchanged counters cost no memory traffic.
    std::vector<std::uint8_t> cur(static_cast<std::size_t>(n) * sm, 0), nxt(static_cast<std::size_t>(n) * sm);
    std::vector<double> est(static_cast<std::size_t>(n));
    std::vector<std::uint8_t> changed(static_cast<std::size_t>(n), 1), now_changed(static_cast<std::size_t>(n));

    const std::uint64_t salt = mix64(seed ^ 0x6A09E667F3BCC909ULL);
    constexpr std::int64_t kBlock = 2048;
    const std::int64_t n_blocks = (n + kBlock - 1) / kBlock;
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t v = begin; v < end; ++v) {
            const std::uint64_t h = mix64(salt + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(v) + 1));
            const std::uint64_t rest = h >> log2m;
            const int value = rest == 0 ? q + 1 : clz64(rest) - log2m + 1;
            std::uint8_t* r = cur.data() + static_cast<std::size_t>(v) * sm;
            r[h & static_cast<std::uint64_t>(m - 1)] = static_cast<std::uint8_t>(value);
            est[static_cast<std::size_t>(v)] = estimate(r);
        }
    });
    auto total = [&]() {
        double s = 0.0;
        for (const double e : est) s += e;
        return s;
    };
    std::vector<double> neighbourhood{total()};
    std::vector<std::int64_t> block_changes(static_cast<std::size_t>(n_blocks));
    for (std::int64_t t = 1; max_iterations <= 0 || t <= max_iterations; ++t) {
        parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
            std::int64_t changes = 0;
            for (std::int64_t v = begin; v < end; ++v) {
                const std::uint8_t* own = cur.data() + static_cast<std::size_t>(v) * sm;
                std::uint8_t* out = nxt.data() + static_cast<std::size_t>(v) * sm;
                // c_{t+1}(v) = c_t(v) joined with c_t(u) of the neighbours u whose counter changed
                // in round t: an unchanged c_t(u) = c_{t-1}(u) is already inside c_t(v).
                bool started = false;
                const std::int64_t row_end = indptr[v + 1];
                for (std::int64_t k = indptr[v]; k < row_end; ++k) {
                    if (k + kLookahead < row_end) {
                        const auto ahead = static_cast<std::size_t>(indices[k + kLookahead]);
                        prefetch(&changed[ahead]);
                        prefetch(cur.data() + ahead * sm);
                        if (M > 64 || M == 0) prefetch(cur.data() + ahead * sm + 64);
                    }
                    const auto u = static_cast<std::size_t>(indices[k]);
                    if (!changed[u]) continue;
                    if (!started) {
                        std::memcpy(out, own, sm);
                        started = true;
                    }
                    merge_max<M>(out, cur.data() + u * sm, m);
                }
                const std::uint8_t moved = started && std::memcmp(out, own, sm) != 0;
                if (moved) est[static_cast<std::size_t>(v)] = estimate(out);
                now_changed[static_cast<std::size_t>(v)] = moved;
                changes += moved;
            }
            block_changes[static_cast<std::size_t>(block)] = changes;
        });
        std::int64_t changes = 0;
        for (const auto c : block_changes) changes += c;
        if (changes == 0) break;
        neighbourhood.push_back(total());
        parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
            for (std::int64_t v = begin; v < end; ++v)
                if (now_changed[static_cast<std::size_t>(v)])
                    std::memcpy(cur.data() + static_cast<std::size_t>(v) * sm,
                                nxt.data() + static_cast<std::size_t>(v) * sm, sm);
        });
        std::swap(changed, now_changed);
    }
    return neighbourhood;
}

}  // namespace

template <class Index>
std::vector<double> hyperball(const std::int64_t* indptr, const Index* indices, std::int64_t n, int log2m,
                              std::uint64_t seed, std::int64_t max_iterations, int threads) {
    check_csr<Index>(indptr, n);
    if (log2m < 4 || log2m > 16) throw std::invalid_argument("log2m must lie in [4, 16]");
    if (n == 0) return {};
    switch (log2m) {
        case 6: return hyperball_impl<64>(indptr, indices, n, log2m, seed, max_iterations, threads);
        case 7: return hyperball_impl<128>(indptr, indices, n, log2m, seed, max_iterations, threads);
        case 8: return hyperball_impl<256>(indptr, indices, n, log2m, seed, max_iterations, threads);
        default: return hyperball_impl<0>(indptr, indices, n, log2m, seed, max_iterations, threads);
    }
}

// ------------------------------------------------------------------ directed graphs (arcs)

template <class Index>
std::int64_t count_weighted_triangles(const std::int64_t* indptr, const Index* indices, const std::uint8_t* weights,
                                      std::int64_t n, int threads) {
    check_csr<Index>(indptr, n);
    if (n == 0) return 0;
    // The orientation of count_triangles, each kept entry with its weight beside it.
    auto above = [indptr](std::int64_t v, std::int64_t w) {
        const std::int64_t dv = indptr[v + 1] - indptr[v], dw = indptr[w + 1] - indptr[w];
        return dw > dv || (dw == dv && w > v);
    };
    constexpr std::int64_t kBlock = 4096;
    std::vector<Index> out_adj(static_cast<std::size_t>(indptr[n]));
    std::vector<std::uint8_t> out_w(static_cast<std::size_t>(indptr[n]));
    std::vector<std::int64_t> out_end(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t v = begin; v < end; ++v) {
            std::int64_t pos = indptr[v];
            for (std::int64_t k = indptr[v]; k < indptr[v + 1]; ++k) {
                const Index w = indices[k];
                if (above(v, w)) {
                    out_w[static_cast<std::size_t>(pos)] = weights[k];
                    out_adj[static_cast<std::size_t>(pos++)] = w;
                }
            }
            out_end[static_cast<std::size_t>(v)] = pos;
        }
    });
    // Each triangle once, at its lowest-ranked node r: mark[y] holds w(r, y) for y in out(r).
    constexpr std::int64_t kChunk = 512;
    const std::int64_t n_chunks = (n + kChunk - 1) / kChunk;
    const int workers = worker_count(n_chunks, threads);
    std::vector<std::vector<std::uint8_t>> marks(static_cast<std::size_t>(workers));
    std::vector<std::int64_t> sums(static_cast<std::size_t>(n_chunks), 0);
    for_each_chunk(n_chunks, workers, [&](std::int64_t chunk, int worker) {
        auto& mark = marks[static_cast<std::size_t>(worker)];
        if (mark.empty()) mark.assign(static_cast<std::size_t>(n), 0);
        std::int64_t c = 0;
        const std::int64_t end = std::min(n, (chunk + 1) * kChunk);
        for (std::int64_t r = chunk * kChunk; r < end; ++r) {
            const std::int64_t b = indptr[r], e = out_end[static_cast<std::size_t>(r)];
            if (e - b < 2) continue;
            for (std::int64_t k = b; k < e; ++k) mark[static_cast<std::size_t>(out_adj[k])] = out_w[k];
            for (std::int64_t k = b; k < e; ++k) {
                const std::int64_t x = out_adj[k];
                const std::int64_t wrx = out_w[k];
                for (std::int64_t j = indptr[x]; j < out_end[static_cast<std::size_t>(x)]; ++j)
                    c += wrx * mark[static_cast<std::size_t>(out_adj[j])] * out_w[j];
            }
            for (std::int64_t k = b; k < e; ++k) mark[static_cast<std::size_t>(out_adj[k])] = 0;
        }
        sums[static_cast<std::size_t>(chunk)] = c;
    });
    std::int64_t total = 0;
    for (const auto c : sums) total += c;
    return total;
}

template <class Index>
std::vector<std::int64_t> directed_distance_histogram(const std::int64_t* indptr, const Index* indices,
                                                      std::int64_t n, const std::int64_t* sources,
                                                      std::int64_t n_sources, int threads) {
    check_csr<Index>(indptr, n);
    for (std::int64_t i = 0; i < n_sources; ++i)
        if (sources[i] < 0 || sources[i] >= n)
            throw std::out_of_range("BFS source " + std::to_string(sources[i]) + " is not a node id in [0, n)");
    if (n_sources == 0) return {};
    constexpr int kLanes = 64;  // sources per batch: one bit each in a 64-bit word per node
    const std::int64_t n_batches = (n_sources + kLanes - 1) / kLanes;
    struct Scratch {
        std::vector<std::uint64_t> seen, frontier, next;
        std::vector<std::int64_t> active, touched, visited, hist;
    };
    // 24 bytes per node per worker (plus the lists): cap the workers within about 2 GiB.
    const std::int64_t per_worker = 48 * std::max<std::int64_t>(n, 1);
    const auto memory_cap = static_cast<int>(std::max<std::int64_t>(1, (std::int64_t{1} << 31) / per_worker));
    const int workers = std::min(worker_count(n_batches, threads), memory_cap);
    std::vector<Scratch> scratch(static_cast<std::size_t>(workers));
    for_each_chunk(n_batches, workers, [&](std::int64_t batch, int worker) {
        Scratch& s = scratch[static_cast<std::size_t>(worker)];
        if (s.seen.empty()) {
            s.seen.assign(static_cast<std::size_t>(n), 0);
            s.frontier.assign(static_cast<std::size_t>(n), 0);
            s.next.assign(static_cast<std::size_t>(n), 0);
            s.hist.assign(1, 0);
        }
        const std::int64_t begin = batch * kLanes;
        const int count = static_cast<int>(std::min<std::int64_t>(kLanes, n_sources - begin));
        s.active.clear();
        s.visited.clear();
        for (int i = 0; i < count; ++i) {
            const auto src = static_cast<std::size_t>(sources[begin + i]);
            const std::uint64_t bit = std::uint64_t{1} << i;
            if (s.seen[src] == 0) {
                s.active.push_back(static_cast<std::int64_t>(src));
                s.visited.push_back(static_cast<std::int64_t>(src));
            }
            if ((s.seen[src] & bit) == 0) s.hist[0] += 1;
            s.seen[src] |= bit;
            s.frontier[src] |= bit;
        }
        // Level-synchronous push along the out-arcs: the bits new at a node travel its arcs.
        for (std::size_t level = 1; !s.active.empty(); ++level) {
            s.touched.clear();
            for (const std::int64_t u : s.active) {
                const std::uint64_t f = s.frontier[static_cast<std::size_t>(u)];
                s.frontier[static_cast<std::size_t>(u)] = 0;
                for (std::int64_t k = indptr[u]; k < indptr[u + 1]; ++k) {
                    const auto w = static_cast<std::size_t>(indices[k]);
                    const std::uint64_t fresh = f & ~s.seen[w];
                    if (fresh == 0) continue;
                    if (s.next[w] == 0) s.touched.push_back(static_cast<std::int64_t>(w));
                    s.next[w] |= fresh;
                }
            }
            std::int64_t reached = 0;
            for (const std::int64_t w : s.touched) {
                const auto i = static_cast<std::size_t>(w);
                const std::uint64_t fresh = s.next[i];
                s.next[i] = 0;
                if (s.seen[i] == 0) s.visited.push_back(w);
                s.seen[i] |= fresh;
                s.frontier[i] = fresh;
                reached += popcount64(fresh);
            }
            if (reached > 0) {
                if (s.hist.size() <= level) s.hist.resize(level + 1, 0);
                s.hist[level] += reached;
            }
            s.active.swap(s.touched);
        }
        for (const std::int64_t v : s.visited) {
            s.seen[static_cast<std::size_t>(v)] = 0;
            s.frontier[static_cast<std::size_t>(v)] = 0;
        }
    });
    std::vector<std::int64_t> hist;
    for (const auto& s : scratch) {
        if (hist.size() < s.hist.size()) hist.resize(s.hist.size(), 0);
        for (std::size_t d = 0; d < s.hist.size(); ++d) hist[d] += s.hist[d];
    }
    while (!hist.empty() && hist.back() == 0) hist.pop_back();
    return hist;
}

#define GRAPHVEIL_INSTANTIATE(Index)                                                                                   \
    template TriangleCounts count_triangles<Index>(const std::int64_t*, const Index*, std::int64_t, int,               \
                                                   std::int64_t*);                                                    \
    template std::vector<std::int64_t> distance_histogram<Index>(const std::int64_t*, const Index*, std::int64_t,      \
                                                                 const std::int64_t*, std::int64_t, int);              \
    template std::vector<double> hyperball<Index>(const std::int64_t*, const Index*, std::int64_t, int, std::uint64_t, \
                                                  std::int64_t, int); \
    template std::int64_t count_weighted_triangles<Index>(const std::int64_t*, const Index*, const std::uint8_t*,     \
                                                          std::int64_t, int);                                         \
    template std::vector<std::int64_t> directed_distance_histogram<Index>(                                             \
        const std::int64_t*, const Index*, std::int64_t, const std::int64_t*, std::int64_t, int);

GRAPHVEIL_INSTANTIATE(std::int32_t)
GRAPHVEIL_INSTANTIATE(std::int64_t)
#undef GRAPHVEIL_INSTANTIATE

namespace {

// One BFS over a component with reusable buffers: dist is -1 outside the current search.
template <class Index>
struct Bfs {
    const std::int64_t* indptr;
    const Index* indices;
    std::vector<std::int32_t> dist;
    std::vector<Index> order;  // visited nodes in BFS order (by distance)

    Bfs(const std::int64_t* ip, const Index* ix, std::int64_t n)
        : indptr(ip), indices(ix), dist(static_cast<std::size_t>(n), -1) {
        order.reserve(static_cast<std::size_t>(n));
    }

    // Runs from s; returns its eccentricity. order/dist stay valid until clear(). The queue ahead
    // of the scan is known, so the rows it will read and their arcs' dist are fetched early.
    std::int32_t run(Index s) {
        clear();
        dist[static_cast<std::size_t>(s)] = 0;
        order.push_back(s);
        ArcCursor<Index> ahead(indptr, order);
        std::int64_t lead = 0;  // arcs the cursor is ahead of the scan
        for (std::size_t head = 0; head < order.size(); ++head) {
            const Index x = order[head];
            if (head + kLookahead < order.size()) prefetch(&indices[indptr[order[head + kLookahead]]]);
            const std::int32_t dx = dist[static_cast<std::size_t>(x)];
            for (std::int64_t e = indptr[x]; e < indptr[x + 1]; ++e, --lead) {
                for (; lead < kBfsLookahead; ++lead) {  // at least to e, which is in the queue
                    const std::int64_t a = ahead.step();
                    if (a < 0) break;
                    prefetch(&dist[static_cast<std::size_t>(indices[a])]);
                }
                const Index y = indices[e];
                if (dist[static_cast<std::size_t>(y)] < 0) {
                    dist[static_cast<std::size_t>(y)] = dx + 1;
                    order.push_back(y);
                }
            }
        }
        return dist[static_cast<std::size_t>(order.back())];
    }

    // A node at distance `steps` closer to the last run's source than `v` (on a shortest path).
    Index towards_source(Index v, std::int64_t steps) const {
        for (; steps > 0; --steps) {
            const std::int32_t d = dist[static_cast<std::size_t>(v)];
            for (std::int64_t e = indptr[v];; ++e) {
                if (dist[static_cast<std::size_t>(indices[e])] == d - 1) {
                    v = indices[e];
                    break;
                }
            }
        }
        return v;
    }

    void clear() {
        for (const Index x : order) dist[static_cast<std::size_t>(x)] = -1;
        order.clear();
    }
};

}  // namespace

template <class Index>
DiameterResult diameter_ifub(const std::int64_t* indptr, const Index* indices, std::int64_t n, std::int64_t max_bfs,
                             std::int64_t known) {
    DiameterResult out;
    out.diameter = std::max<std::int64_t>(known, 0);
    if (n <= 0) return out;
    // Components, largest first (their labelling is one pass over the graph, not budgeted).
    std::vector<std::int64_t> comp(static_cast<std::size_t>(n), -1);
    std::vector<std::pair<std::int64_t, Index>> comps;  // (size, highest-degree node)
    {
        std::vector<Index> stack;
        for (std::int64_t s = 0; s < n; ++s) {
            if (comp[static_cast<std::size_t>(s)] >= 0) continue;
            const auto id = static_cast<std::int64_t>(comps.size());
            std::int64_t size = 0;
            Index hub = static_cast<Index>(s);
            comp[static_cast<std::size_t>(s)] = id;
            stack.assign(1, static_cast<Index>(s));
            while (!stack.empty()) {
                const Index x = stack.back();
                stack.pop_back();
                ++size;
                if (indptr[x + 1] - indptr[x] > indptr[hub + 1] - indptr[hub]) hub = x;
                for (std::int64_t e = indptr[x]; e < indptr[x + 1]; ++e) {
                    const Index y = indices[e];
                    if (comp[static_cast<std::size_t>(y)] < 0) {
                        comp[static_cast<std::size_t>(y)] = id;
                        stack.push_back(y);
                    }
                }
            }
            comps.emplace_back(size, hub);
        }
    }
    std::stable_sort(comps.begin(), comps.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    Bfs<Index> bfs(indptr, indices, n);
    std::int64_t lb = out.diameter;
    auto ecc = [&](Index s) -> std::int64_t {
        ++out.bfs;
        return bfs.run(s);
    };
    for (const auto& [size, hub] : comps) {
        if (size - 1 <= lb) break;  // a component's diameter is at most its size - 1
        // 2-sweep: hub -> a (farthest), a -> b; u = the middle of the a-b path.
        if (out.bfs + 3 > max_bfs) {
            out.exact = false;
            break;
        }
        ecc(hub);
        const Index a = bfs.order.back();
        const std::int64_t ecc_a = ecc(a);
        lb = std::max(lb, ecc_a);
        const Index u = bfs.towards_source(bfs.order.back(), ecc_a / 2);
        const std::int64_t ecc_u = ecc(u);
        lb = std::max(lb, ecc_u);
        // Fringe levels of u, from the farthest: F_i = order[level_start[i] .. level_start[i + 1])
        const std::vector<Index> order = bfs.order;
        std::vector<std::size_t> level_start(static_cast<std::size_t>(ecc_u + 2), order.size());
        for (std::size_t k = order.size(); k-- > 0;)
            level_start[static_cast<std::size_t>(bfs.dist[static_cast<std::size_t>(order[k])])] = k;
        std::int64_t ub = 2 * ecc_u;
        for (std::int64_t level = ecc_u; ub > lb && level > 0; --level) {
            // A level that may need more BFS than are left: give up now, not at the budget's end.
            const auto width = static_cast<std::int64_t>(level_start[static_cast<std::size_t>(level + 1)] -
                                                         level_start[static_cast<std::size_t>(level)]);
            if (out.bfs + width > max_bfs) {
                out.exact = false;
                out.diameter = lb;
                return out;
            }
            std::int64_t best = 0;
            for (std::size_t k = level_start[static_cast<std::size_t>(level)];
                 k < level_start[static_cast<std::size_t>(level + 1)]; ++k) {
                best = std::max(best, ecc(order[k]));
                if (std::max(lb, best) > 2 * (level - 1)) break;  // nothing farther can beat it
            }
            lb = std::max(lb, best);
            ub = 2 * (level - 1);
        }
    }
    out.diameter = lb;
    return out;
}

template DiameterResult diameter_ifub<std::int32_t>(const std::int64_t*, const std::int32_t*, std::int64_t,
                                                    std::int64_t, std::int64_t);
template DiameterResult diameter_ifub<std::int64_t>(const std::int64_t*, const std::int64_t*, std::int64_t,
                                                    std::int64_t, std::int64_t);

}  // namespace graphveil
