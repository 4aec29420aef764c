#include "graphveil/matching.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "alike.hpp"
#include "graphveil/attack_directed.hpp"
#include "graphveil/interrupt.hpp"
#include "graphveil/parallel.hpp"
#include "graphveil/pool.hpp"

namespace graphveil {
namespace {

// The inverse of a partial matching given as mapping[t] = a or -1; throws if it is not one.
template <class Index>
std::vector<Index> inverse_of(const Index* mapping, std::int64_t n_target, std::int64_t n_aux) {
    std::vector<Index> inverse(static_cast<std::size_t>(n_aux), Index(-1));
    for (std::int64_t t = 0; t < n_target; ++t) {
        const Index a = mapping[t];
        if (a < 0) continue;
        if (a >= n_aux) throw std::out_of_range("mapping holds an aux node out of range");
        if (inverse[a] >= 0) throw std::invalid_argument("mapping sends two target nodes to one aux node");
        inverse[a] = static_cast<Index>(t);
    }
    return inverse;
}

// A graph as the matching kernels read it: one side, an undirected graph's rows, or two, a
// digraph's out-rows (side 0) and in-rows (side 1). Rows are numbered over the sides: row r of
// side s is row s n + r. A node's degree is its total over the sides (in + out on a digraph).
template <class Index>
struct Sided {
    std::int64_t n = 0;
    int sides = 1;
    CsrView<Index> side[2];

    explicit Sided(const CsrView<Index>& g) : n(g.n), side{g, g} {}
    explicit Sided(const DigraphView<Index>& g) : n(g.out.n), sides(2), side{g.out, g.in} {
        if (g.out.n != g.in.n || g.out.indptr[g.out.n] != g.in.indptr[g.in.n])
            throw std::invalid_argument("the out- and in-CSR of a digraph must have the same nodes and arcs");
    }
    std::int64_t length(int s, std::int64_t x) const { return side[s].indptr[x + 1] - side[s].indptr[x]; }
    std::int64_t degree(std::int64_t x) const { return sides == 1 ? length(0, x) : length(0, x) + length(1, x); }
    // Row r (numbered over the sides): its first entry and its length.
    const Index* row(std::int64_t r) const {
        return r < n ? side[0].indices + side[0].indptr[r] : side[1].indices + side[1].indptr[r - n];
    }
    std::int64_t row_length(std::int64_t r) const { return r < n ? length(0, r) : length(1, r - n); }
    // The degree of row r's node (undirected: the row's length; a digraph: in + out).
    std::int64_t row_degree(std::int64_t r) const { return degree(r < n ? r : r - n); }
    // The row of this graph that a node's entry on side s reads through its image y: the nodes c
    // that have y on side s. Undirected: y's row. A digraph: an out-neighbour's image y (t -> x,
    // y = image of x) gives the c with c -> y, y's in-row; an in-neighbour's, the c with y -> c.
    std::int64_t image_row(int s, std::int64_t y) const { return sides == 1 || s == 1 ? y : n + y; }
    // Pairs (x, y) one pair (t, a) of these two graphs touches on its sides: sum of len_s(t) len_s(a).
    std::int64_t pairs(const Sided& aux, std::int64_t t, std::int64_t a) const {
        std::int64_t p = 0;
        for (int s = 0; s < sides; ++s) p += length(s, t) * aux.length(s, a);
        return p;
    }
    // The degree gap of (t, a): sum over sides of |len_s(t) - len_s(a)| (undirected: |deg t - deg a|).
    std::int64_t gap(const Sided& aux, std::int64_t t, std::int64_t a) const {
        std::int64_t g = 0;
        for (int s = 0; s < sides; ++s) {
            const std::int64_t d = length(s, t) - aux.length(s, a);
            g += d < 0 ? -d : d;
        }
        return g;
    }
};

// Marks per node pair, one open-addressing table per target node x (its row of aux nodes y):
// a spreading pair marks the pairs (x, y) of one x for a whole run of y, which then probe one
// small table instead of being scattered over a table of every pair. A slot holds y (-1: empty)
// and the marks, whose top bit says whether the pair has spread (the set Z of the paper).
// Fibonacci hashing of y, linear probing, each row grown at three-quarter load.
template <class Index>
class PairMarks {
public:
    static constexpr std::uint32_t kSpread = 0x80000000u;
    static constexpr std::uint32_t kMarks = 0x7fffffffu;

    explicit PairMarks(std::int64_t n_target) : rows_(static_cast<std::size_t>(n_target)) {}
    std::int64_t size() const { return size_; }

    // The marks word of pair (x, y), created at 0 marks, not spread.
    std::uint32_t& at(std::int64_t x, Index y) {
        Row& row = rows_[static_cast<std::size_t>(x)];
        if (4 * (row.size + 1) > 3 * static_cast<std::int64_t>(row.slots.size())) grow(row);
        Slot& s = find(row, y);
        if (s.y < 0) {
            s.y = y;
            ++row.size;
            ++size_;
        }
        return s.marks;
    }

private:
    struct Slot {
        Index y = -1;
        std::uint32_t marks = 0;
    };
    struct Row {
        std::vector<Slot> slots;
        std::int64_t size = 0;
        int shift = 64;  // 64 - log2(slots)
    };
    static Slot& find(Row& row, Index y) {
        const std::size_t mask = row.slots.size() - 1;
        std::size_t i = static_cast<std::size_t>((static_cast<std::uint64_t>(y) * 0x9e3779b97f4a7c15ULL) >> row.shift);
        while (row.slots[i].y >= 0 && row.slots[i].y != y) i = (i + 1) & mask;
        return row.slots[i];
    }
    static void grow(Row& row) {
        Row bigger;
        const std::size_t capacity = row.slots.empty() ? 4 : 2 * row.slots.size();
        bigger.slots.resize(capacity);
        bigger.shift = 64;
        for (std::size_t c = capacity; c > 1; c >>= 1) --bigger.shift;
        bigger.size = row.size;
        for (const Slot& s : row.slots)
            if (s.y >= 0) find(bigger, s.y) = s;
        row = std::move(bigger);
    }
    std::vector<Row> rows_;
    std::int64_t size_ = 0;
};

// Bits needed to write 0..x.
inline int bits_for(std::uint64_t x) {
    int b = 0;
    for (; x; x >>= 1) ++b;
    return b;
}

// A candidate pair's place among those of equal marks: the smallest degree difference
// |deg(t) - deg(a)| first, then the smallest target node, then the smallest aux node. Packed into
// one 64-bit word (gap, t, a) when the three fit in 63 bits, as they do below 2^21 nodes a side;
// a triple otherwise.
struct PackedOrder {
    using Key = std::uint64_t;
    int bits_a, bits_t;
    static bool fits(std::int64_t max_gap, std::int64_t n_target, std::int64_t n_aux) {
        return bits_for(static_cast<std::uint64_t>(max_gap)) + bits_for(static_cast<std::uint64_t>(n_target)) +
                   bits_for(static_cast<std::uint64_t>(n_aux)) <
               64;
    }
    PackedOrder(std::int64_t n_target, std::int64_t n_aux)
        : bits_a(bits_for(static_cast<std::uint64_t>(n_aux))), bits_t(bits_for(static_cast<std::uint64_t>(n_target))) {}
    Key key(std::int64_t gap, std::int64_t t, std::int64_t a) const {
        return (static_cast<std::uint64_t>(gap) << (bits_a + bits_t)) | (static_cast<std::uint64_t>(t) << bits_a) |
               static_cast<std::uint64_t>(a);
    }
    std::int64_t t(Key k) const { return static_cast<std::int64_t>((k >> bits_a) & ((std::uint64_t{1} << bits_t) - 1)); }
    std::int64_t a(Key k) const { return static_cast<std::int64_t>(k & ((std::uint64_t{1} << bits_a) - 1)); }
};

struct TripleOrder {
    struct Key {
        std::int64_t gap, t, a;
        bool operator>(const Key& o) const { return std::tie(gap, t, a) > std::tie(o.gap, o.t, o.a); }
    };
    TripleOrder(std::int64_t, std::int64_t) {}
    Key key(std::int64_t gap, std::int64_t t, std::int64_t a) const { return Key{gap, t, a}; }
    std::int64_t t(const Key& k) const { return k.t; }
    std::int64_t a(const Key& k) const { return k.a; }
};

// The candidate pairs of percolation, highest marks first, then in Order. One bucket per mark
// count: a pair enters the bucket of its marks each time they grow (from r on), so it may leave
// stale entries in lower buckets, which surface only after its higher entry has been taken, when
// one of its nodes is matched, and are dropped like any entry holding a matched node. A bucket's
// new entries wait unsorted until it is the highest; then those holding a matched node are
// dropped and the rest join its heap (rebuilt when they are many): most pairs of few marks never
// surface sorted, a node of theirs being matched first. Pops the same pairs in the same order as
// one heap of (marks, Order) would.
template <class Order>
class MarkQueue {
public:
    using Key = typename Order::Key;

    void push(std::int64_t marks, const Key& key) {
        if (marks >= static_cast<std::int64_t>(buckets_.size())) buckets_.resize(static_cast<std::size_t>(marks) + 1);
        buckets_[static_cast<std::size_t>(marks)].pending.push_back(key);
        top_ = std::max(top_, marks);
    }

    // The highest entry whose nodes are both unmatched (`matched(key)` false), removed; false
    // when there is none left (the queue is then empty).
    template <class Matched>
    bool pop(Matched&& matched, Key& out) {
        for (; top_ >= 0; --top_) {
            Bucket& b = buckets_[static_cast<std::size_t>(top_)];
            if (!b.pending.empty()) merge(b, matched);
            while (!b.heap.empty()) {
                std::pop_heap(b.heap.begin(), b.heap.end(), std::greater<Key>());
                out = b.heap.back();
                b.heap.pop_back();
                if (!matched(out)) return true;
            }
            std::vector<Key>().swap(b.heap);
        }
        return false;
    }

private:
    struct Bucket {
        std::vector<Key> heap;     // a min-heap in Order
        std::vector<Key> pending;  // entries not in the heap yet
    };
    template <class Matched>
    static void merge(Bucket& b, Matched& matched) {
        b.pending.erase(std::remove_if(b.pending.begin(), b.pending.end(), matched), b.pending.end());
        if (4 * b.pending.size() >= b.heap.size()) {
            b.heap.erase(std::remove_if(b.heap.begin(), b.heap.end(), matched), b.heap.end());
            b.heap.insert(b.heap.end(), b.pending.begin(), b.pending.end());
            std::make_heap(b.heap.begin(), b.heap.end(), std::greater<Key>());
        } else {
            for (const Key& k : b.pending) {
                b.heap.push_back(k);
                std::push_heap(b.heap.begin(), b.heap.end(), std::greater<Key>());
            }
        }
        b.pending.clear();
        if (b.pending.capacity() > 4 * b.heap.size() + 1024) std::vector<Key>().swap(b.pending);
    }
    std::vector<Bucket> buckets_;
    std::int64_t top_ = -1;  // no bucket above it holds an entry
};

template <class Index, class Order>
class Percolation {
public:
    Percolation(const Sided<Index>& target, const Sided<Index>& aux, Index* mapping, std::int64_t r,
                std::int64_t max_spread, std::int64_t max_noisy)
        : target_(target),
          aux_(aux),
          mapping_(mapping),
          inverse_(inverse_of(mapping, target.n, aux.n)),
          r_(r),
          max_spread_(max_spread),
          noisy_left_(max_noisy),
          order_(target.n, aux.n),
          marks_(target.n) {}

    MatchingStats run(bool expand_when_stuck) {
        MatchingStats stats;
        std::vector<std::pair<std::int64_t, std::int64_t>> phase;  // the pairs that spread next (A)
        for (std::int64_t t = 0; t < target_.n; ++t)
            if (mapping_[t] >= 0) {
                matched_.emplace_back(t, mapping_[t]);
                phase.emplace_back(t, mapping_[t]);
                marks_.at(t, mapping_[t]) |= Marks::kSpread;
            }
        auto taken = [&](const Key& k) { return mapping_[order_.t(k)] >= 0 || inverse_[order_.a(k)] >= 0; };
        Key top{};
        while (!phase.empty()) {
            ++stats.rounds;
            for (const auto& [t, a] : phase) spread(t, a);
            while (queue_.pop(taken, top)) {
                const std::int64_t t = order_.t(top), a = order_.a(top);
                mapping_[t] = static_cast<Index>(a);
                inverse_[a] = static_cast<Index>(t);
                matched_.emplace_back(t, a);
                ++stats.mapped;
                std::uint32_t& word = marks_.at(t, static_cast<Index>(a));
                if (!(word & Marks::kSpread)) {
                    word |= Marks::kSpread;
                    spread(t, a);
                }
            }
            phase.clear();
            if (!expand_when_stuck) break;
            // ExpandWhenStuck: the neighbouring pairs of the pairs matched since the last
            // expansion (those of earlier ones have spread or hold a matched node by now).
            // Once the noisy seeds have used up max_noisy marks, no more are taken.
            for (; expanded_ < matched_.size() && noisy_left_ > 0; ++expanded_) {
                const auto [t, a] = matched_[expanded_];
                if (!spreads(t, a)) continue;
                neighbour_pairs(t, a, [&](std::int64_t x, std::int64_t y) {
                    if (noisy_left_ <= 0) return;
                    std::uint32_t& word = marks_.at(x, static_cast<Index>(y));
                    if (word & Marks::kSpread) return;
                    word |= Marks::kSpread;
                    phase.emplace_back(x, y);
                    if (spreads(x, y)) noisy_left_ -= target_.pairs(aux_, x, y);
                });
            }
        }
        stats.marked = marks_.size();
        return stats;
    }

private:
    using Marks = PairMarks<Index>;
    using Key = typename MarkQueue<Order>::Key;

    bool spreads(std::int64_t t, std::int64_t a) const {
        return target_.pairs(aux_, t, a) <= max_spread_;
    }
    // Calls f(x, y) for the unmatched pairs x, y of one side of t and a (both in N(t), N(a); both
    // out-neighbours or both in-neighbours on a digraph) whose nodes have degree >= r.
    template <class F>
    void neighbour_pairs(std::int64_t t, std::int64_t a, F&& f) {
        for (int s = 0; s < target_.sides; ++s) {
            const CsrView<Index>& ts = target_.side[s];
            const CsrView<Index>& as = aux_.side[s];
            for (std::int64_t e = ts.indptr[t]; e < ts.indptr[t + 1]; ++e) {
                const std::int64_t x = ts.indices[e];
                if (mapping_[x] >= 0 || target_.degree(x) < r_) continue;
                for (std::int64_t g = as.indptr[a]; g < as.indptr[a + 1]; ++g) {
                    const std::int64_t y = as.indices[g];
                    if (inverse_[y] >= 0 || aux_.degree(y) < r_) continue;
                    f(x, y);
                }
                if (++work_ % 1024 == 0) interrupt::check();
            }
        }
    }
    // One mark to every neighbouring pair of (t, a) on each side (neighbour_pairs, the y side
    // filtered once): a pair that is a neighbour on both sides (mutual arcs) gets two.
    void spread(std::int64_t t, std::int64_t a) {
        if (!spreads(t, a)) return;
        for (int s = 0; s < target_.sides; ++s) {
            const CsrView<Index>& ts = target_.side[s];
            const CsrView<Index>& as = aux_.side[s];
            ys_.clear();
            for (std::int64_t g = as.indptr[a]; g < as.indptr[a + 1]; ++g) {
                const Index y = as.indices[g];
                if (inverse_[y] < 0 && aux_.degree(y) >= r_) ys_.push_back(y);
            }
            for (std::int64_t e = ts.indptr[t]; e < ts.indptr[t + 1]; ++e) {
                const std::int64_t x = ts.indices[e];
                if (mapping_[x] >= 0 || target_.degree(x) < r_) continue;
                for (const Index y : ys_) {
                    std::uint32_t& word = marks_.at(x, y);
                    const std::uint32_t marks = (word & Marks::kMarks) + 1;
                    word = (word & Marks::kSpread) | marks;
                    if (marks >= r_) queue_.push(marks, order_.key(target_.gap(aux_, x, y), x, y));
                }
                if (++work_ % 1024 == 0) interrupt::check();
            }
        }
    }

    const Sided<Index>& target_;
    const Sided<Index>& aux_;
    Index* mapping_;
    std::vector<Index> inverse_;
    std::int64_t r_, max_spread_;
    std::int64_t noisy_left_;  // marks the noisy seeds may still spread (an upper bound each)
    Order order_;
    Marks marks_;
    MarkQueue<Order> queue_;
    std::vector<Index> ys_;
    std::vector<std::pair<std::int64_t, std::int64_t>> matched_;
    std::size_t expanded_ = 0;
    std::int64_t work_ = 0;
};

// A dense counter over one graph's nodes with the list of touched entries, cleared in O(touched).
struct Counter {
    std::vector<std::int32_t> count;
    std::vector<std::int64_t> touched;
    std::vector<std::int64_t> order;   // the touched entries by count, highest first
    std::vector<std::int64_t> starts;  // counting sort's bucket starts
    explicit Counter(std::int64_t n) : count(static_cast<std::size_t>(n), 0) {}
};

using CounterPool = ScratchPool<Counter>;

// A node's scoring: its best candidate (-1: none), and what can change it while its matched
// neighbours stay the same: a top-scoring candidate and, on a tie, another one being matched.
// Any candidate of the top score will do for top and tied: the cached best stands while both
// are unmatched, whichever two they are.
struct Witnessed {
    std::int64_t best = -1;
    std::int64_t top = -1;   // a candidate of the top score (-1: none scored)
    std::int64_t tied = -1;  // another one of the top score (-1: the top is unique)
    std::int64_t step = -1;  // the step it was computed in (-1: never)
};

// Reading the shortest row's candidates and searching every other row for each is tried when it
// costs less than reading the rows (a search counted as kProbe reads).
constexpr std::int64_t kProbe = 4;

// The strictly best unmatched node of `to` from the image rows of a node's matched neighbours
// (`rows`, longest first, equal lengths by id): the most witnesses (rows holding it), at least
// `threshold`, among the nodes of degree >= bound; -1 when there is none or the top is tied.
// Only candidates read from a row besides the threshold - 1 longest and those longer than
// max_row count (the departure; exact for the former by pigeonhole). A node with f witnesses
// lies in a row besides the f - 1 longest, so with a lower bound f of the top score those are
// only searched (rows are sorted by id), not read: a hub's row is read once per candidate found
// elsewhere instead of in full. The bound is the threshold, or the best exact score among the
// shortest row's candidates when those are cheap to score; candidates whose count read so far
// plus the rows only searched stays below the highest count are not searched at all.
template <class Index>
Witnessed best_witnessed(const Sided<Index>& to, const Index* taken, const std::int64_t* rows, std::size_t k,
                         std::int64_t threshold, std::int64_t bound, std::int64_t max_row, Counter& counter) {
    if (static_cast<std::int64_t>(k) < threshold) return {};
    std::size_t big = static_cast<std::size_t>(threshold - 1);
    while (big < k && to.row_degree(rows[big]) > max_row) ++big;
    if (big == k) return {};
    // The rows of rows[0, end) holding c when they are `need` or more; else some count below
    // `need` (the search stops once the rows left cannot make up for the misses).
    auto hits = [&](Index c, std::size_t end, std::int64_t need) {
        std::int64_t h = 0, misses = static_cast<std::int64_t>(end) - need;  // misses allowed
        for (std::size_t i = 0; i < end; ++i) {
            if (std::binary_search(to.row(rows[i]), to.row(rows[i]) + to.row_length(rows[i]), c))
                ++h;
            else if (--misses < 0)
                break;
        }
        return h;
    };
    std::int64_t floor = threshold;  // at most the top score, when there is a best
    std::int64_t read = 0;
    for (std::size_t i = big; i < k; ++i) read += to.row_length(rows[i]);
    const std::int64_t last = rows[k - 1];
    if (k - big >= 2 && kProbe * to.row_length(last) * static_cast<std::int64_t>(k - 1) <= read)
        for (const Index *f = to.row(last), *stop = f + to.row_length(last); f < stop; ++f) {
            const Index c = *f;
            if (taken[c] < 0 && to.degree(c) >= bound) floor = std::max(floor, 1 + hits(c, k - 1, floor));
        }
    const std::size_t first = std::max(big, static_cast<std::size_t>(floor - 1));  // rows only searched
    for (std::size_t i = first; i < k; ++i)
        for (const Index *f = to.row(rows[i]), *stop = f + to.row_length(rows[i]); f < stop; ++f) {
            const Index c = *f;
            if (taken[c] >= 0 || to.degree(c) < bound) continue;
            if (counter.count[c]++ == 0) counter.touched.push_back(c);
        }
    // The candidates by read count, highest first (a counting sort): a candidate whose count plus
    // the rows only searched stays below the top score so far (or floor) is neither the top nor
    // tied, and neither is any after it, so the search stops there.
    std::int64_t most = 0;
    for (const std::int64_t c : counter.touched) most = std::max<std::int64_t>(most, counter.count[c]);
    floor = std::max(floor, most);
    counter.starts.assign(static_cast<std::size_t>(most) + 2, 0);
    for (const std::int64_t c : counter.touched) ++counter.starts[static_cast<std::size_t>(most - counter.count[c]) + 1];
    for (std::size_t b = 1; b < counter.starts.size(); ++b) counter.starts[b] += counter.starts[b - 1];
    counter.order.resize(counter.touched.size());
    for (const std::int64_t c : counter.touched)
        counter.order[static_cast<std::size_t>(counter.starts[static_cast<std::size_t>(most - counter.count[c])]++)] = c;
    Witnessed out;
    std::int64_t top = 0;
    for (const std::int64_t c : counter.order) {
        std::int64_t s = counter.count[c];
        const std::int64_t bar = std::max(floor, top);  // a candidate below it is not the top
        if (s + static_cast<std::int64_t>(first) < bar) break;
        s += hits(static_cast<Index>(c), first, bar - s);
        if (s < bar) continue;  // exact from bar up (below floor, no candidate is the best)
        if (s > top) {
            top = s;
            out.top = c;
            out.tied = -1;
        } else if (s == top) {
            out.tied = c;
        }
    }
    for (const std::int64_t c : counter.touched) counter.count[c] = 0;
    counter.touched.clear();
    if (top >= threshold && out.tied < 0) out.best = out.top;
    return out;
}

constexpr std::int64_t kBlock = 256;

// best_witnessed of each of `nodes` (of `from`; `map` its matching into `to`), into out. Nodes
// with the same image rows (the same matched neighbours) have the same scoring, which reads
// nothing else: each set of rows is scored once (on a web graph the pages of a site link to the
// same few hubs, and most scorings repeat one).
template <class Index>
void score_nodes(const Sided<Index>& from, const Sided<Index>& to, const Index* map, const Index* taken,
                 const std::vector<std::int64_t>& nodes, std::int64_t threshold, std::int64_t bound,
                 std::int64_t max_row, int threads, CounterPool& pool, std::vector<Witnessed>& out) {
    const std::int64_t n = static_cast<std::int64_t>(nodes.size());
    std::vector<std::int64_t> begin(static_cast<std::size_t>(n) + 1, 0), end(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) begin[i + 1] = begin[i] + from.degree(nodes[i]);
    std::vector<std::int64_t> rows(static_cast<std::size_t>(begin[n]));
    std::vector<std::uint64_t> hash(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t first, std::int64_t last, std::int64_t) {
        for (std::int64_t i = first; i < last; ++i) {
            const std::int64_t x = nodes[i];
            std::int64_t* row = rows.data() + begin[i];
            std::int64_t k = 0;
            for (int s = 0; s < from.sides; ++s)
                for (std::int64_t e = from.side[s].indptr[x]; e < from.side[s].indptr[x + 1]; ++e) {
                    const Index y = map[from.side[s].indices[e]];
                    if (y >= 0) row[k++] = to.image_row(s, y);
                }
            // The rows of nodes of degree above max_row first, then the longest, equal lengths by
            // id: an order of the set alone (undirected: the longest first).
            std::sort(row, row + k, [&](std::int64_t p, std::int64_t q) {
                const bool hp = to.row_degree(p) > max_row, hq = to.row_degree(q) > max_row;
                const std::int64_t dp = to.row_length(p), dq = to.row_length(q);
                return hp > hq || (hp == hq && (dp > dq || (dp == dq && p < q)));
            });
            std::uint64_t h = detail::mix64(static_cast<std::uint64_t>(k));
            for (std::int64_t r = 0; r < k; ++r) h = detail::mix64(h ^ static_cast<std::uint64_t>(row[r]));
            end[i] = begin[i] + k;
            hash[i] = h;
        }
    });
    std::vector<std::int64_t> same;  // the first node of its rows
    detail::first_alike(
        n, hash.data(), rows.data(), begin.data(), end.data(),
        [&](std::int64_t i) { return end[i] - begin[i] >= threshold; },  // else scored at once
        [](std::int64_t, std::int64_t) { return true; }, same);
    out.resize(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t first, std::int64_t last, std::int64_t) {
        auto counter = pool.acquire();
        for (std::int64_t i = first; i < last; ++i)
            if (same[i] == i)
                out[i] = best_witnessed(to, taken, rows.data() + begin[i], static_cast<std::size_t>(end[i] - begin[i]),
                                        threshold, bound, max_row, *counter);
        pool.release(std::move(counter));
    });
    for (std::int64_t i = 0; i < n; ++i)
        if (same[i] != i) out[i] = out[same[i]];
}

template <class Index>
MatchingStats percolate_sided(const Sided<Index>& target, const Sided<Index>& aux, Index* mapping, std::int64_t r,
                              bool expand_when_stuck, std::int64_t max_spread, std::int64_t max_noisy) {
    if (r < 1) throw std::invalid_argument("r must be at least 1");
    std::int64_t top_t = 0, top_a = 0;  // the largest degrees: the gap is at most their sum
    for (std::int64_t t = 0; t < target.n; ++t) top_t = std::max(top_t, target.degree(t));
    for (std::int64_t a = 0; a < aux.n; ++a) top_a = std::max(top_a, aux.degree(a));
    const std::int64_t max_gap = target.sides == 1 ? std::max(top_t, top_a) : top_t + top_a;
    if (PackedOrder::fits(max_gap, target.n, aux.n)) {
        Percolation<Index, PackedOrder> run(target, aux, mapping, r, max_spread, max_noisy);
        return run.run(expand_when_stuck);
    }
    Percolation<Index, TripleOrder> run(target, aux, mapping, r, max_spread, max_noisy);
    return run.run(expand_when_stuck);
}

// The cached scorings of one graph's nodes (best_witnessed against the other graph), one per
// (node, degree bucket it is eligible in): node x of degree d >= 2 is eligible in buckets
// 1..floor(log2 d), at slot_start[x] + j - 1. A scoring stands until the node gains a matched
// neighbour or its top or tied candidate is matched: nothing else moves its strict best.
template <class Index>
class Scorings {
public:
    explicit Scorings(const Sided<Index>& g)
        : slot_start_(static_cast<std::size_t>(g.n) + 1, 0), changed_(static_cast<std::size_t>(g.n), -1) {
        for (std::int64_t x = 0; x < g.n; ++x) {
            int buckets = 0;
            while ((std::int64_t{2} << buckets) <= g.degree(x)) ++buckets;
            slot_start_[x + 1] = slot_start_[x] + buckets;
        }
        cache_.resize(static_cast<std::size_t>(slot_start_[g.n]));
    }
    const Witnessed& at(std::int64_t x, int j) const { return cache_[slot_start_[x] + (j - 1)]; }
    // The nodes whose scoring at bucket j no longer stands (`taken`: the candidates matched).
    void stale(const std::vector<std::int64_t>& nodes, int j, const Index* taken, std::vector<std::int64_t>& out) const {
        out.clear();
        for (const std::int64_t x : nodes) {
            const Witnessed& c = at(x, j);
            if (c.step < 0 || changed_[x] >= c.step || (c.top >= 0 && taken[c.top] >= 0) ||
                (c.tied >= 0 && taken[c.tied] >= 0))
                out.push_back(x);
        }
    }
    void store(const std::vector<std::int64_t>& nodes, int j, const std::vector<Witnessed>& scored, std::int64_t step) {
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            Witnessed& c = cache_[slot_start_[nodes[i]] + (j - 1)];
            c = scored[i];
            c.step = step;
        }
    }
    // Node x of g was matched at `step`: its neighbours' scorings no longer stand.
    void matched(const Sided<Index>& g, std::int64_t x, std::int64_t step) {
        for (int s = 0; s < g.sides; ++s)
            for (std::int64_t e = g.side[s].indptr[x]; e < g.side[s].indptr[x + 1]; ++e)
                changed_[g.side[s].indices[e]] = step;
    }

private:
    std::vector<std::int64_t> slot_start_;
    std::vector<Witnessed> cache_;
    std::vector<std::int64_t> changed_;  // by node: the step a neighbour was last matched
};

template <class Index>
MatchingStats reconcile_sided(const Sided<Index>& target, const Sided<Index>& aux, Index* mapping,
                              std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads) {
    if (threshold < 1) throw std::invalid_argument("threshold must be at least 1");
    std::vector<Index> inverse = inverse_of(mapping, target.n, aux.n);
    std::int64_t max_degree = 0;
    for (std::int64_t t = 0; t < target.n; ++t) max_degree = std::max(max_degree, target.degree(t));
    for (std::int64_t a = 0; a < aux.n; ++a) max_degree = std::max(max_degree, aux.degree(a));
    int top_bucket = 0;
    while ((std::int64_t{2} << top_bucket) <= max_degree) ++top_bucket;  // floor(log2 D)
    CounterPool aux_pool(aux.n), target_pool(target.n);
    // The scorings of both ways are kept from step to step (the forward ones of the eligible
    // target nodes, the backward ones of the proposed aux nodes), rescored only when stale.
    Scorings<Index> forward_scorings(target), backward_scorings(aux);
    std::vector<std::int64_t> eligible, stale, proposed;
    std::vector<Witnessed> scored;
    std::vector<std::int64_t> forward(static_cast<std::size_t>(target.n), -1);
    MatchingStats stats;
    for (std::int64_t pass = 0, before = -1; pass < iterations && stats.mapped != before; ++pass) {
        before = stats.mapped;  // a pass that adds nothing leaves every later pass the same
        for (int j = top_bucket; j >= 1; --j) {
            ++stats.rounds;
            interrupt::check();
            const std::int64_t bound = std::int64_t{1} << j;
            eligible.clear();
            for (std::int64_t t = 0; t < target.n; ++t)
                if (mapping[t] < 0 && target.degree(t) >= bound) eligible.push_back(t);
            const std::int64_t step = stats.rounds;
            forward_scorings.stale(eligible, j, inverse.data(), stale);
            score_nodes(target, aux, mapping, inverse.data(), stale, threshold, bound, max_row, threads, aux_pool,
                        scored);
            forward_scorings.store(stale, j, scored, step);
            for (const std::int64_t t : eligible) forward[t] = forward_scorings.at(t, j).best;
            proposed.clear();
            for (const std::int64_t t : eligible)
                if (forward[t] >= 0) proposed.push_back(forward[t]);
            std::sort(proposed.begin(), proposed.end());
            proposed.erase(std::unique(proposed.begin(), proposed.end()), proposed.end());
            backward_scorings.stale(proposed, j, mapping, stale);
            score_nodes(aux, target, inverse.data(), mapping, stale, threshold, bound, max_row, threads, target_pool,
                        scored);
            backward_scorings.store(stale, j, scored, step);
            for (const std::int64_t a : proposed) {
                const std::int64_t t = backward_scorings.at(a, j).best;
                if (t < 0 || forward[t] != a) continue;
                mapping[t] = static_cast<Index>(a);
                inverse[a] = static_cast<Index>(t);
                ++stats.mapped;
                forward_scorings.matched(target, t, step);
                backward_scorings.matched(aux, a, step);
            }
            for (const std::int64_t t : eligible) forward[t] = -1;
        }
    }
    return stats;
}

}  // namespace

template <class Index>
MatchingStats percolate(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, std::int64_t r,
                        bool expand_when_stuck, std::int64_t max_spread, std::int64_t max_noisy) {
    return percolate_sided(Sided<Index>(target), Sided<Index>(aux), mapping, r, expand_when_stuck, max_spread,
                           max_noisy);
}

template <class Index>
MatchingStats percolate_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                 std::int64_t r, bool expand_when_stuck, std::int64_t max_spread,
                                 std::int64_t max_noisy) {
    return percolate_sided(Sided<Index>(target), Sided<Index>(aux), mapping, r, expand_when_stuck, max_spread,
                           max_noisy);
}

template <class Index>
MatchingStats reconcile(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping,
                        std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads) {
    return reconcile_sided(Sided<Index>(target), Sided<Index>(aux), mapping, threshold, iterations, max_row, threads);
}

template <class Index>
MatchingStats reconcile_directed(const DigraphView<Index>& target, const DigraphView<Index>& aux, Index* mapping,
                                 std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads) {
    return reconcile_sided(Sided<Index>(target), Sided<Index>(aux), mapping, threshold, iterations, max_row, threads);
}

template MatchingStats percolate(const CsrView<std::int32_t>&, const CsrView<std::int32_t>&, std::int32_t*,
                                 std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats percolate(const CsrView<std::int64_t>&, const CsrView<std::int64_t>&, std::int64_t*,
                                 std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats reconcile(const CsrView<std::int32_t>&, const CsrView<std::int32_t>&, std::int32_t*,
                                 std::int64_t, std::int64_t, std::int64_t, int);
template MatchingStats reconcile(const CsrView<std::int64_t>&, const CsrView<std::int64_t>&, std::int64_t*,
                                 std::int64_t, std::int64_t, std::int64_t, int);
template MatchingStats percolate_directed(const DigraphView<std::int32_t>&, const DigraphView<std::int32_t>&,
                                          std::int32_t*, std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats percolate_directed(const DigraphView<std::int64_t>&, const DigraphView<std::int64_t>&,
                                          std::int64_t*, std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats reconcile_directed(const DigraphView<std::int32_t>&, const DigraphView<std::int32_t>&,
                                          std::int32_t*, std::int64_t, std::int64_t, std::int64_t, int);
template MatchingStats reconcile_directed(const DigraphView<std::int64_t>&, const DigraphView<std::int64_t>&,
                                          std::int64_t*, std::int64_t, std::int64_t, std::int64_t, int);

}  // namespace graphveil
