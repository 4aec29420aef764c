#include "graphveil/leiden.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "graphveil/interrupt.hpp"
#include "graphveil/rng.hpp"

namespace graphveil {

namespace {

template <class Id>
using Ids = std::vector<Id>;

// An aggregate level: a weighted graph without self-loops (they never change a gain), and each
// node's strength k (the total degree of the original nodes it stands for).
template <class Id>
struct Level {
    std::vector<std::int64_t> indptr{0};
    Ids<Id> indices;
    std::vector<double> weights;
    std::vector<double> strength;
};

// A CSR graph as the passes read it: the input (unit weights) or an aggregate level.
template <class Index>
struct View {
    const std::int64_t* indptr;
    const Index* indices;
    const double* weights;  // nullptr: every edge weighs 1
    const double* strength;
    std::int64_t n;

    double weight(std::int64_t slot) const { return weights ? weights[slot] : 1.0; }
};

// The weight from one node to each community among its neighbours, in the order first met.
// Every weight is positive, so a zero marks a community not met yet; begin() clears the last
// node's. Ids are the input's index width (4 bytes below 2^31 nodes): the passes are bound by
// random reads of these arrays.
template <class Id>
class Neighbours {
public:
    explicit Neighbours(std::int64_t n) : weight_(static_cast<std::size_t>(n), 0.0) {}

    void begin() {
        for (const Id c : touched_) weight_[c] = 0.0;
        touched_.clear();
    }
    void add(Id c, double w) {
        if (weight_[c] == 0.0) touched_.push_back(c);
        weight_[c] += w;
    }
    double weight(Id c) const { return weight_[c]; }
    std::size_t size() const { return touched_.size(); }
    Id id(std::size_t i) const { return touched_[i]; }
    double weight_at(std::size_t i) const { return weight_[touched_[i]]; }

private:
    std::vector<double> weight_;
    std::vector<Id> touched_;
};

// The same for a node of at most kFew neighbours, in a small array searched in full: no read of
// an n-sized array (each a likely cache miss on a large graph), the same order and sums.
constexpr std::int64_t kFew = 16;

template <class Id>
class Few {
public:
    void begin() { count_ = 0; }
    void add(Id c, double w) {
        for (std::size_t i = 0; i < count_; ++i)
            if (ids_[i] == c) {
                weights_[i] += w;
                return;
            }
        ids_[count_] = c;
        weights_[count_++] = w;
    }
    double weight(Id c) const {
        for (std::size_t i = 0; i < count_; ++i)
            if (ids_[i] == c) return weights_[i];
        return 0.0;
    }
    std::size_t size() const { return count_; }
    Id id(std::size_t i) const { return ids_[i]; }
    double weight_at(std::size_t i) const { return weights_[i]; }

private:
    Id ids_[kFew];
    double weights_[kFew];
    std::size_t count_ = 0;
};

// The nodes in a seeded random order of blocks of kRun consecutive nodes, each block in node
// order: random where it matters (which region of the graph moves first), sequential within a
// block so that the rows read follow one another in memory.
constexpr std::int64_t kRun = 256;

template <class Id>
Ids<Id> shuffled(std::int64_t n, Rng& rng) {
    const std::int64_t runs = (n + kRun - 1) / kRun;
    Ids<std::int64_t> block(static_cast<std::size_t>(runs));
    for (std::int64_t i = 0; i < runs; ++i) block[i] = i;
    for (std::int64_t i = runs - 1; i > 0; --i) std::swap(block[i], block[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    Ids<Id> order;
    order.reserve(static_cast<std::size_t>(n));
    for (const std::int64_t b : block)
        for (std::int64_t v = b * kRun; v < std::min(n, (b + 1) * kRun); ++v) order.push_back(static_cast<Id>(v));
    return order;
}

// Labels renumbered 0, 1, ... in order of first appearance; returns how many there are.
template <class Id>
std::int64_t renumber(Ids<Id>& labels, std::int64_t bound) {
    Ids<Id> to(static_cast<std::size_t>(bound), Id(-1));
    Id next = 0;
    for (auto& label : labels) {
        if (to[label] < 0) to[label] = next++;
        label = to[label];
    }
    return next;
}

// Leiden's MoveNodesFast: every node once in random order, then the neighbours (outside its new
// community) of each node that moved. comm is in [0, n); total and size are per community.
template <class Index>
void move_nodes(const View<Index>& g, Ids<Index>& comm, double m2, double gamma, Rng& rng, Neighbours<Index>& nb) {
    const std::int64_t n = g.n;
    std::vector<double> total(static_cast<std::size_t>(n), 0.0);
    Ids<Index> size(static_cast<std::size_t>(n), 0);
    for (std::int64_t v = 0; v < n; ++v) {
        total[comm[v]] += g.strength[v];
        ++size[comm[v]];
    }
    Ids<Index> empty;
    for (std::int64_t c = n - 1; c >= 0; --c)
        if (size[c] == 0) empty.push_back(static_cast<Index>(c));
    Ids<Index> queue = shuffled<Index>(n, rng);  // a ring of capacity n: a node is in it at most once
    std::vector<char> queued(static_cast<std::size_t>(n), 1);
    std::int64_t head = 0, count = n;
    std::int64_t visits = 0;
    Few<Index> few;
    while (count > 0) {
        if ((++visits & 0xFFFF) == 0) interrupt::check();
        const Index v = queue[head];
        head = head + 1 == n ? 0 : head + 1;
        --count;
        queued[v] = 0;
        const Index old = comm[v];
        const double kv = g.strength[v];
        total[old] -= kv;
        if (--size[old] == 0) empty.push_back(old);
        const double scale = gamma * kv / m2;
        Index best = old;
        double best_gain = 0.0;
        const auto choose = [&](auto& acc) {
            acc.begin();
            for (std::int64_t slot = g.indptr[v]; slot < g.indptr[v + 1]; ++slot) {
                const Index u = g.indices[slot];
                if (u != v) acc.add(comm[u], g.weight(slot));
            }
            best_gain = acc.weight(old) - scale * total[old];
            for (std::size_t i = 0; i < acc.size(); ++i) {
                const Index c = acc.id(i);
                const double gain = acc.weight_at(i) - scale * total[c];
                if (gain > best_gain) {
                    best = c;
                    best_gain = gain;
                }
            }
        };
        if (g.indptr[v + 1] - g.indptr[v] <= kFew)
            choose(few);
        else
            choose(nb);
        if (best_gain < 0.0) best = empty.back();  // alone is better: an empty community (gain 0)
        if (size[best] == 0) empty.pop_back();  // an empty community is the stack's top: old or the one taken
        total[best] += kv;
        ++size[best];
        if (best == old) continue;
        comm[v] = best;
        for (std::int64_t slot = g.indptr[v]; slot < g.indptr[v + 1]; ++slot) {
            const Index u = g.indices[slot];
            if (queued[u] || comm[u] == best) continue;
            queued[u] = 1;
            const std::int64_t tail = head + count < n ? head + count : head + count - n;
            queue[tail] = u;
            ++count;
        }
    }
}

// Leiden's RefinePartition with greedy merges: within each community, a node still alone and
// well connected to the rest of its community joins the well-connected sub-community of its
// community with the largest positive gain. Returns the sub-community of each node, renumbered;
// `count` receives how many.
template <class Index>
Ids<Index> refine(const View<Index>& g, const Ids<Index>& comm, double m2, double gamma, Rng& rng,
                  Neighbours<Index>& nb, std::int64_t& count) {
    const std::int64_t n = g.n;
    std::vector<double> community_total(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t v = 0; v < n; ++v) community_total[comm[v]] += g.strength[v];
    Ids<Index> sub(static_cast<std::size_t>(n));
    Ids<Index> size(static_cast<std::size_t>(n), 1);
    std::vector<double> total(g.strength, g.strength + n);
    std::vector<double> outside(static_cast<std::size_t>(n), 0.0);  // w(S, C - S) of sub-community S
    for (std::int64_t v = 0; v < n; ++v) {
        sub[v] = static_cast<Index>(v);
        for (std::int64_t slot = g.indptr[v]; slot < g.indptr[v + 1]; ++slot) {
            const Index u = g.indices[slot];
            if (u != v && comm[u] == comm[v]) outside[v] += g.weight(slot);
        }
    }
    const double scale = gamma / m2;
    const auto connected = [&](Index s, double whole) {
        return outside[s] >= scale * total[s] * (whole - total[s]);
    };
    const Ids<Index> order = shuffled<Index>(n, rng);
    Few<Index> few;
    for (std::int64_t i = 0; i < n; ++i) {
        if ((i & 0xFFFF) == 0) interrupt::check();
        const Index v = order[i];
        const double whole = community_total[comm[v]];
        if (size[v] != 1 || sub[v] != v || !connected(v, whole)) continue;
        Index best = -1;
        double best_gain = 0.0, best_weight = 0.0;
        const auto choose = [&](auto& acc) {
            acc.begin();
            for (std::int64_t slot = g.indptr[v]; slot < g.indptr[v + 1]; ++slot) {
                const Index u = g.indices[slot];
                if (u != v && comm[u] == comm[v]) acc.add(sub[u], g.weight(slot));
            }
            for (std::size_t j = 0; j < acc.size(); ++j) {
                const Index s = acc.id(j);
                if (!connected(s, whole)) continue;
                const double gain = acc.weight_at(j) - scale * g.strength[v] * total[s];
                if (gain > best_gain) {
                    best = s;
                    best_gain = gain;
                    best_weight = acc.weight_at(j);
                }
            }
        };
        if (g.indptr[v + 1] - g.indptr[v] <= kFew)
            choose(few);
        else
            choose(nb);
        if (best < 0) continue;
        outside[best] += outside[v] - 2.0 * best_weight;
        total[best] += total[v];
        ++size[best];
        size[v] = 0;
        total[v] = 0.0;
        sub[v] = best;
    }
    count = renumber(sub, n);
    return sub;
}

// The graph of the groups: group weights summed, edges inside a group dropped (kept in strength).
template <class Index>
Level<Index> aggregate(const View<Index>& g, const Ids<Index>& group, std::int64_t groups) {
    Level<Index> out;
    out.strength.assign(static_cast<std::size_t>(groups), 0.0);
    std::vector<std::int64_t> start(static_cast<std::size_t>(groups) + 1, 0);
    for (std::int64_t v = 0; v < g.n; ++v) ++start[group[v] + 1];
    for (std::int64_t c = 0; c < groups; ++c) start[c + 1] += start[c];
    Ids<Index> members(static_cast<std::size_t>(g.n));
    {
        std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
        for (std::int64_t v = 0; v < g.n; ++v) members[fill[group[v]]++] = static_cast<Index>(v);
    }
    Neighbours<Index> nb(groups);
    Few<Index> few;
    out.indptr.reserve(static_cast<std::size_t>(groups) + 1);
    for (std::int64_t c = 0; c < groups; ++c) {
        const auto gather = [&](auto& acc) {
            acc.begin();
            for (std::int64_t i = start[c]; i < start[c + 1]; ++i) {
                const Index v = members[i];
                out.strength[c] += g.strength[v];
                for (std::int64_t slot = g.indptr[v]; slot < g.indptr[v + 1]; ++slot) {
                    const Index d = group[g.indices[slot]];
                    if (d != c) acc.add(d, g.weight(slot));
                }
            }
            for (std::size_t i = 0; i < acc.size(); ++i) {
                out.indices.push_back(acc.id(i));
                out.weights.push_back(acc.weight_at(i));
            }
        };
        std::int64_t slots = 0;  // a bound on the group's neighbours
        for (std::int64_t i = start[c]; i < start[c + 1] && slots <= kFew; ++i)
            slots += g.indptr[members[i] + 1] - g.indptr[members[i]];
        if (slots <= kFew)
            gather(few);
        else
            gather(nb);
        out.indptr.push_back(static_cast<std::int64_t>(out.indices.size()));
    }
    return out;
}

template <class Index>
View<Index> view(const Level<Index>& level) {
    return {level.indptr.data(), level.indices.data(), level.weights.data(), level.strength.data(),
            static_cast<std::int64_t>(level.strength.size())};
}

// One run of the algorithm from `comm` on the input graph; returns its final partition.
template <class Index>
Ids<Index> run_once(const View<Index>& base, Ids<Index> comm, double m2, double gamma, Rng& rng,
                    std::int64_t& levels) {
    Ids<Index> node_of(static_cast<std::size_t>(base.n));  // each input node's node in the current level
    for (std::int64_t v = 0; v < base.n; ++v) node_of[v] = static_cast<Index>(v);
    Level<Index> level;
    bool aggregated = false;
    for (;;) {
        const auto step = [&](const auto& g) {
            Neighbours<Index> nb(g.n);
            move_nodes(g, comm, m2, gamma, rng, nb);
            Ids<Index> moved = comm;
            if (renumber(moved, g.n) == g.n) return false;  // every node alone: done
            std::int64_t groups = 0;
            Ids<Index> sub = refine(g, comm, m2, gamma, rng, nb, groups);
            if (groups == g.n) {  // refinement merged nothing: aggregate by the communities
                sub = std::move(moved);
                groups = renumber(sub, g.n);
            }
            Ids<Index> next(static_cast<std::size_t>(groups));
            for (std::int64_t v = 0; v < g.n; ++v) next[sub[v]] = comm[v];
            renumber(next, g.n);
            for (auto& node : node_of) node = sub[node];
            level = aggregate(g, sub, groups);
            comm = std::move(next);
            return true;
        };
        const bool more = aggregated ? step(view(level)) : step(base);
        if (!more) break;
        aggregated = true;
        ++levels;
    }
    Ids<Index> out(static_cast<std::size_t>(base.n));
    for (std::int64_t v = 0; v < base.n; ++v) out[v] = comm[node_of[v]];
    return out;
}

}  // namespace

template <class Index>
LeidenResult leiden_modularity(const std::int64_t* indptr, const Index* indices, std::int64_t n, double resolution,
                               std::int64_t iterations, std::uint64_t seed) {
    if (n < 0) throw std::invalid_argument("n must be non-negative");
    if (!(resolution > 0.0)) throw std::invalid_argument("resolution must be positive");
    if (iterations < 1) throw std::invalid_argument("iterations must be at least 1");
    LeidenResult result;
    std::vector<double> degree(static_cast<std::size_t>(n), 0.0);
    double m2 = 0.0;
    for (std::int64_t v = 0; v < n; ++v) {
        for (std::int64_t slot = indptr[v]; slot < indptr[v + 1]; ++slot)
            if (static_cast<std::int64_t>(indices[slot]) != v) degree[v] += 1.0;
        m2 += degree[v];
    }
    Ids<Index> comm(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) comm[v] = static_cast<Index>(v);
    if (m2 > 0.0) {
        const View<Index> base{indptr, indices, nullptr, degree.data(), n};
        Rng rng(seed, 0);
        for (std::int64_t it = 0; it < iterations; ++it) comm = run_once(base, std::move(comm), m2, resolution, rng, result.levels);
    }
    renumber(comm, n);
    result.membership.assign(comm.begin(), comm.end());
    return result;
}

template LeidenResult leiden_modularity<std::int32_t>(const std::int64_t*, const std::int32_t*, std::int64_t, double,
                                                      std::int64_t, std::uint64_t);
template LeidenResult leiden_modularity<std::int64_t>(const std::int64_t*, const std::int64_t*, std::int64_t, double,
                                                      std::int64_t, std::uint64_t);

}  // namespace graphveil
