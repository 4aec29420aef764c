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

template <class Index>
std::int64_t degree(const CsrView<Index>& g, std::int64_t x) {
    return g.indptr[x + 1] - g.indptr[x];
}

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
    Percolation(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, std::int64_t r,
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
                    if (spreads(x, y)) noisy_left_ -= degree(target_, x) * degree(aux_, y);
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
        return degree(target_, t) * degree(aux_, a) <= max_spread_;
    }
    // Calls f(x, y) for the unmatched pairs x in N(t), y in N(a) whose nodes have degree >= r.
    template <class F>
    void neighbour_pairs(std::int64_t t, std::int64_t a, F&& f) {
        for (std::int64_t e = target_.indptr[t]; e < target_.indptr[t + 1]; ++e) {
            const std::int64_t x = target_.indices[e];
            if (mapping_[x] >= 0 || degree(target_, x) < r_) continue;
            for (std::int64_t g = aux_.indptr[a]; g < aux_.indptr[a + 1]; ++g) {
                const std::int64_t y = aux_.indices[g];
                if (inverse_[y] >= 0 || degree(aux_, y) < r_) continue;
                f(x, y);
            }
            if (++work_ % 1024 == 0) interrupt::check();
        }
    }
    // One mark to every neighbouring pair of (t, a) (neighbour_pairs, the y side filtered once).
    void spread(std::int64_t t, std::int64_t a) {
        if (!spreads(t, a)) return;
        ys_.clear();
        for (std::int64_t g = aux_.indptr[a]; g < aux_.indptr[a + 1]; ++g) {
            const Index y = aux_.indices[g];
            if (inverse_[y] < 0 && degree(aux_, y) >= r_) ys_.push_back(y);
        }
        for (std::int64_t e = target_.indptr[t]; e < target_.indptr[t + 1]; ++e) {
            const std::int64_t x = target_.indices[e];
            if (mapping_[x] >= 0 || degree(target_, x) < r_) continue;
            const std::int64_t dx = degree(target_, x);
            for (const Index y : ys_) {
                std::uint32_t& word = marks_.at(x, y);
                const std::uint32_t marks = (word & Marks::kMarks) + 1;
                word = (word & Marks::kSpread) | marks;
                if (marks >= r_) {
                    const std::int64_t gap = dx - degree(aux_, y);
                    queue_.push(marks, order_.key(gap < 0 ? -gap : gap, x, y));
                }
            }
            if (++work_ % 1024 == 0) interrupt::check();
        }
    }

    const CsrView<Index>& target_;
    const CsrView<Index>& aux_;
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
Witnessed best_witnessed(const CsrView<Index>& to, const Index* taken, const std::int64_t* rows, std::size_t k,
                         std::int64_t threshold, std::int64_t bound, std::int64_t max_row, Counter& counter) {
    if (static_cast<std::int64_t>(k) < threshold) return {};
    std::size_t big = static_cast<std::size_t>(threshold - 1);
    while (big < k && degree(to, rows[big]) > max_row) ++big;
    if (big == k) return {};
    auto hits = [&](Index c, std::size_t end) {  // rows[0, end) holding c
        std::int64_t h = 0;
        for (std::size_t i = 0; i < end; ++i)
            h += std::binary_search(to.indices + to.indptr[rows[i]], to.indices + to.indptr[rows[i] + 1], c);
        return h;
    };
    std::int64_t floor = threshold;  // at most the top score, when there is a best
    std::int64_t read = 0;
    for (std::size_t i = big; i < k; ++i) read += degree(to, rows[i]);
    const std::int64_t last = rows[k - 1];
    if (k - big >= 2 && kProbe * degree(to, last) * static_cast<std::int64_t>(k - 1) <= read)
        for (std::int64_t f = to.indptr[last]; f < to.indptr[last + 1]; ++f) {
            const Index c = to.indices[f];
            if (taken[c] < 0 && degree(to, c) >= bound) floor = std::max(floor, 1 + hits(c, k - 1));
        }
    const std::size_t first = std::max(big, static_cast<std::size_t>(floor - 1));  // rows only searched
    for (std::size_t i = first; i < k; ++i)
        for (std::int64_t f = to.indptr[rows[i]]; f < to.indptr[rows[i] + 1]; ++f) {
            const Index c = to.indices[f];
            if (taken[c] >= 0 || degree(to, c) < bound) continue;
            if (counter.count[c]++ == 0) counter.touched.push_back(c);
        }
    for (const std::int64_t c : counter.touched) floor = std::max<std::int64_t>(floor, counter.count[c]);
    Witnessed out;
    std::int64_t top = 0;
    for (const std::int64_t c : counter.touched) {
        std::int64_t s = counter.count[c];
        counter.count[c] = 0;
        if (s + static_cast<std::int64_t>(first) < floor) continue;  // below the top score
        s += hits(static_cast<Index>(c), first);
        if (s > top) {
            top = s;
            out.top = c;
            out.tied = -1;
        } else if (s == top) {
            out.tied = c;
        }
    }
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
void score_nodes(const CsrView<Index>& from, const CsrView<Index>& to, const Index* map, const Index* taken,
                 const std::vector<std::int64_t>& nodes, std::int64_t threshold, std::int64_t bound,
                 std::int64_t max_row, int threads, CounterPool& pool, std::vector<Witnessed>& out) {
    const std::int64_t n = static_cast<std::int64_t>(nodes.size());
    std::vector<std::int64_t> begin(static_cast<std::size_t>(n) + 1, 0), end(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) begin[i + 1] = begin[i] + degree(from, nodes[i]);
    std::vector<std::int64_t> rows(static_cast<std::size_t>(begin[n]));
    std::vector<std::uint64_t> hash(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t first, std::int64_t last, std::int64_t) {
        for (std::int64_t i = first; i < last; ++i) {
            const std::int64_t x = nodes[i];
            std::int64_t* row = rows.data() + begin[i];
            std::int64_t k = 0;
            for (std::int64_t e = from.indptr[x]; e < from.indptr[x + 1]; ++e) {
                const Index y = map[from.indices[e]];
                if (y >= 0) row[k++] = y;
            }
            // Longest rows first, equal lengths by id: an order of the set alone.
            std::sort(row, row + k, [&](std::int64_t p, std::int64_t q) {
                const std::int64_t dp = degree(to, p), dq = degree(to, q);
                return dp > dq || (dp == dq && p < q);
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

}  // namespace

template <class Index>
MatchingStats percolate(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping, std::int64_t r,
                        bool expand_when_stuck, std::int64_t max_spread, std::int64_t max_noisy) {
    if (r < 1) throw std::invalid_argument("r must be at least 1");
    std::int64_t max_gap = 0;
    for (std::int64_t t = 0; t < target.n; ++t) max_gap = std::max(max_gap, degree(target, t));
    for (std::int64_t a = 0; a < aux.n; ++a) max_gap = std::max(max_gap, degree(aux, a));
    if (PackedOrder::fits(max_gap, target.n, aux.n)) {
        Percolation<Index, PackedOrder> run(target, aux, mapping, r, max_spread, max_noisy);
        return run.run(expand_when_stuck);
    }
    Percolation<Index, TripleOrder> run(target, aux, mapping, r, max_spread, max_noisy);
    return run.run(expand_when_stuck);
}

template <class Index>
MatchingStats reconcile(const CsrView<Index>& target, const CsrView<Index>& aux, Index* mapping,
                        std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads) {
    if (threshold < 1) throw std::invalid_argument("threshold must be at least 1");
    std::vector<Index> inverse = inverse_of(mapping, target.n, aux.n);
    std::int64_t max_degree = 0;
    for (std::int64_t t = 0; t < target.n; ++t) max_degree = std::max(max_degree, degree(target, t));
    for (std::int64_t a = 0; a < aux.n; ++a) max_degree = std::max(max_degree, degree(aux, a));
    int top_bucket = 0;
    while ((std::int64_t{2} << top_bucket) <= max_degree) ++top_bucket;  // floor(log2 D)
    CounterPool aux_pool(aux.n), target_pool(target.n);
    // One cached scoring per (target node, bucket it is eligible in): node t of degree d >= 2 is
    // eligible in buckets 1..floor(log2 d), at slot_start[t] + j - 1.
    std::vector<std::int64_t> slot_start(static_cast<std::size_t>(target.n) + 1, 0);
    for (std::int64_t t = 0; t < target.n; ++t) {
        int buckets = 0;
        while ((std::int64_t{2} << buckets) <= degree(target, t)) ++buckets;
        slot_start[t + 1] = slot_start[t] + buckets;
    }
    std::vector<Witnessed> cache(static_cast<std::size_t>(slot_start[target.n]));
    std::vector<std::int64_t> changed(static_cast<std::size_t>(target.n), -1);  // step a neighbour was last matched
    std::vector<std::int64_t> eligible, stale, proposed;
    std::vector<Witnessed> scored;
    std::vector<std::int64_t> forward(static_cast<std::size_t>(target.n), -1), backward;
    MatchingStats stats;
    for (std::int64_t pass = 0, before = -1; pass < iterations && stats.mapped != before; ++pass) {
        before = stats.mapped;  // a pass that adds nothing leaves every later pass the same
        for (int j = top_bucket; j >= 1; --j) {
            ++stats.rounds;
            interrupt::check();
            const std::int64_t bound = std::int64_t{1} << j;
            eligible.clear();
            for (std::int64_t t = 0; t < target.n; ++t)
                if (mapping[t] < 0 && degree(target, t) >= bound) eligible.push_back(t);
            const std::int64_t step = stats.rounds;
            // The last scoring of t at this bound stands unless t gained a matched neighbour
            // since, or a top candidate was matched.
            stale.clear();
            for (const std::int64_t t : eligible) {
                const Witnessed& c = cache[slot_start[t] + (j - 1)];
                if (c.step < 0 || changed[t] >= c.step || (c.top >= 0 && inverse[c.top] >= 0) ||
                    (c.tied >= 0 && inverse[c.tied] >= 0))
                    stale.push_back(t);
            }
            score_nodes(target, aux, mapping, inverse.data(), stale, threshold, bound, max_row, threads, aux_pool,
                        scored);
            for (std::size_t i = 0; i < stale.size(); ++i) {
                Witnessed& c = cache[slot_start[stale[i]] + (j - 1)];
                c = scored[i];
                c.step = step;
            }
            for (const std::int64_t t : eligible) forward[t] = cache[slot_start[t] + (j - 1)].best;
            proposed.clear();
            for (const std::int64_t t : eligible)
                if (forward[t] >= 0) proposed.push_back(forward[t]);
            std::sort(proposed.begin(), proposed.end());
            proposed.erase(std::unique(proposed.begin(), proposed.end()), proposed.end());
            score_nodes(aux, target, inverse.data(), mapping, proposed, threshold, bound, max_row, threads,
                        target_pool, scored);
            backward.resize(proposed.size());
            for (std::size_t i = 0; i < proposed.size(); ++i) backward[i] = scored[i].best;
            for (std::size_t i = 0; i < proposed.size(); ++i) {
                const std::int64_t t = backward[i], a = proposed[i];
                if (t < 0 || forward[t] != a) continue;
                mapping[t] = static_cast<Index>(a);
                inverse[a] = static_cast<Index>(t);
                ++stats.mapped;
                for (std::int64_t e = target.indptr[t]; e < target.indptr[t + 1]; ++e) changed[target.indices[e]] = step;
            }
            for (const std::int64_t t : eligible) forward[t] = -1;
        }
    }
    return stats;
}

template MatchingStats percolate(const CsrView<std::int32_t>&, const CsrView<std::int32_t>&, std::int32_t*,
                                 std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats percolate(const CsrView<std::int64_t>&, const CsrView<std::int64_t>&, std::int64_t*,
                                 std::int64_t, bool, std::int64_t, std::int64_t);
template MatchingStats reconcile(const CsrView<std::int32_t>&, const CsrView<std::int32_t>&, std::int32_t*,
                                 std::int64_t, std::int64_t, std::int64_t, int);
template MatchingStats reconcile(const CsrView<std::int64_t>&, const CsrView<std::int64_t>&, std::int64_t*,
                                 std::int64_t, std::int64_t, std::int64_t, int);

}  // namespace graphveil
