#include "graphveil/signatures.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "graphveil/parallel.hpp"

namespace graphveil {
namespace {

constexpr std::int64_t kBlock = 4096;

inline std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// The signatures of one graph: node u's sorted value set is values[begin[u], begin[u] + size[u]).
template <class Index>
struct SignatureTable {
    std::vector<Index> values;
    std::vector<std::int64_t> begin;
    std::vector<std::int64_t> size;
    std::vector<std::uint64_t> hash;

    bool equal(std::int64_t a, const SignatureTable& other, std::int64_t b) const {
        if (size[a] != other.size[b]) return false;
        const Index* x = values.data() + begin[a];
        const Index* y = other.values.data() + other.begin[b];
        return std::equal(x, x + size[a], y);
    }
};

// Keys: a signature of at most two values below 2^31 is encoded exactly in its key (top bit
// set); any other signature gets a 63-bit hash (top bit clear). Equal exact keys therefore
// mean equal signatures without looking at the values; equal hashes are always checked value
// by value.
constexpr std::uint64_t kExactBit = 1ULL << 63;
constexpr std::uint64_t kSmallLimit = 1ULL << 31;

template <class Index>
SignatureTable<Index> build_signatures(const CsrView<Index>& g, int threads, SignatureHash hash_kind) {
    const std::int64_t n = g.n;
    SignatureTable<Index> t;
    t.begin.resize(static_cast<std::size_t>(n));
    t.size.resize(static_cast<std::size_t>(n));
    t.hash.resize(static_cast<std::size_t>(n));
    // Degrees in a compact array: the gather below touches one int per neighbour, not two
    // int64 offsets.
    std::vector<Index> degree(static_cast<std::size_t>(n));
    parallel_ranges(n, kBlock * 4, threads, [&](std::int64_t lo, std::int64_t hi, std::int64_t) {
        for (std::int64_t u = lo; u < hi; ++u)
            degree[static_cast<std::size_t>(u)] = static_cast<Index>(g.indptr[u + 1] - g.indptr[u]);
    });
    // Every neighbourhood sorts in place inside its own CSR slot: no per-node allocation and
    // no second pass to compact, at the cost of 2m values per graph.
    t.values.resize(static_cast<std::size_t>(g.indptr[n]));
    const bool weak = hash_kind == SignatureHash::weak;
    parallel_ranges(n, kBlock, threads, [&](std::int64_t lo, std::int64_t hi, std::int64_t) {
        for (std::int64_t u = lo; u < hi; ++u) {
            const std::int64_t a = g.indptr[u], b = g.indptr[u + 1];
            Index* out = t.values.data() + a;
            for (std::int64_t e = a; e < b; ++e) out[e - a] = degree[static_cast<std::size_t>(g.indices[e])];
            std::sort(out, out + (b - a));
            const std::int64_t len = std::unique(out, out + (b - a)) - out;
            std::uint64_t key;
            if (!weak && len <= 2 && (len == 0 || static_cast<std::uint64_t>(out[len - 1]) < kSmallLimit)) {
                const auto x = len > 0 ? static_cast<std::uint64_t>(out[0]) + 1 : 0;
                const auto y = len > 1 ? static_cast<std::uint64_t>(out[1]) + 1 : 0;
                key = kExactBit | (x << 32) | y;
            } else {
                std::uint64_t h = mix64(static_cast<std::uint64_t>(len) + 0x9E3779B97F4A7C15ULL);
                for (std::int64_t i = 0; i < len; ++i)
                    h = mix64(h ^ (static_cast<std::uint64_t>(out[i]) + 0x632BE59BD9B4E019ULL));
                key = weak ? (h & 0x3ULL) : (h & ~kExactBit);
            }
            t.begin[static_cast<std::size_t>(u)] = a;
            t.size[static_cast<std::size_t>(u)] = len;
            t.hash[static_cast<std::size_t>(u)] = key;
        }
    });
    return t;
}

// Assigns dense class ids to the signatures of one or two tables (items of the first table
// first, in node order), so equal signatures get equal ids across both tables. Open
// addressing on the hash; a slot is reused only when the stored signature compares equal
// element by element, so colliding hashes still give distinct classes. Sequential and
// therefore deterministic; O(items) expected with a strong hash.
template <class Index>
std::vector<std::int64_t> group(const std::vector<const SignatureTable<Index>*>& tables, std::int64_t n) {
    const std::int64_t items = n * static_cast<std::int64_t>(tables.size());
    std::uint64_t capacity = 16;
    while (capacity < static_cast<std::uint64_t>(items + items / 2)) capacity <<= 1;
    // The key sits in the slot, so a probe touches one cache line; the values of the class
    // representative are read only when the keys are equal hashes.
    struct Slot {
        std::uint64_t key;
        std::int64_t item;  // representative (table * n + node), -1 if empty
    };
    std::vector<Slot> slots(capacity, Slot{0, -1});
    std::vector<std::int64_t> cls(static_cast<std::size_t>(items));
    std::int64_t next_class = 0;
    for (std::int64_t it = 0; it < items; ++it) {
        const auto& tab = *tables[static_cast<std::size_t>(it / n)];
        const std::int64_t u = it % n;
        const std::uint64_t key = tab.hash[static_cast<std::size_t>(u)];
        std::uint64_t s = mix64(key) & (capacity - 1);
        for (;;) {
            Slot& slot = slots[s];
            if (slot.item < 0) {
                slot.key = key;
                slot.item = it;
                cls[static_cast<std::size_t>(it)] = next_class++;
                break;
            }
            if (slot.key == key) {
                const std::int64_t rep = slot.item;
                if ((key & kExactBit) || tab.equal(u, *tables[static_cast<std::size_t>(rep / n)], rep % n)) {
                    cls[static_cast<std::size_t>(it)] = cls[static_cast<std::size_t>(rep)];
                    break;
                }
            }
            s = (s + 1) & (capacity - 1);
        }
    }
    return cls;
}

// H1: the degree is its own exact key; classes are degree values.
template <class Index>
std::vector<std::int64_t> degree_classes(const std::vector<const CsrView<Index>*>& graphs, std::int64_t n) {
    std::int64_t top = 0;
    for (const auto* g : graphs)
        for (std::int64_t u = 0; u < n; ++u) top = std::max(top, g->indptr[u + 1] - g->indptr[u]);
    std::vector<std::int64_t> id(static_cast<std::size_t>(top + 1), -1);
    std::vector<std::int64_t> cls(static_cast<std::size_t>(n) * graphs.size());
    std::int64_t next_class = 0;
    std::size_t it = 0;
    for (const auto* g : graphs) {
        for (std::int64_t u = 0; u < n; ++u, ++it) {
            auto& c = id[static_cast<std::size_t>(g->indptr[u + 1] - g->indptr[u])];
            if (c < 0) c = next_class++;
            cls[it] = c;
        }
    }
    return cls;
}

template <class Index>
std::vector<std::int64_t> classes_of(const std::vector<const CsrView<Index>*>& graphs, SignatureKind kind, int threads,
                                     SignatureHash hash) {
    const std::int64_t n = graphs.front()->n;
    if (kind == SignatureKind::degree) return degree_classes(graphs, n);
    std::vector<SignatureTable<Index>> tables;
    tables.reserve(graphs.size());
    for (const auto* g : graphs) tables.push_back(build_signatures(*g, threads, hash));
    std::vector<const SignatureTable<Index>*> ptrs;
    for (const auto& t : tables) ptrs.push_back(&t);
    return group<Index>(ptrs, n);
}

template <class Index>
void check_view(const CsrView<Index>& g, const char* name) {
    if (g.n < 0 || g.indptr == nullptr) throw std::invalid_argument(std::string(name) + ": invalid CSR");
}

}  // namespace

template <class Index>
ReidentificationResult reidentification_score(const CsrView<Index>& g0, const CsrView<Index>& g, SignatureKind kind,
                                              int threads, SignatureHash hash) {
    check_view(g0, "g0");
    check_view(g, "g");
    if (g0.n != g.n) throw std::invalid_argument("g0 and g must have the same number of nodes");
    const std::int64_t n = g0.n;
    ReidentificationResult res;
    if (n == 0) return res;
    // The same arrays twice (the true graph's own row): one table serves both halves.
    const bool same = g0.indptr == g.indptr && g0.indices == g.indices;
    auto cls =
        classes_of<Index>(same ? std::vector<const CsrView<Index>*>{&g0} : std::vector<const CsrView<Index>*>{&g0, &g},
                          kind, threads, hash);
    if (same) {
        cls.resize(static_cast<std::size_t>(2 * n));
        std::copy(cls.begin(), cls.begin() + n, cls.begin() + n);
    }
    std::int64_t classes = 0;
    for (auto c : cls) classes = std::max(classes, c + 1);
    std::vector<std::int64_t> count_g(static_cast<std::size_t>(classes), 0);
    std::vector<char> seen0(static_cast<std::size_t>(classes), 0), seen1(static_cast<std::size_t>(classes), 0);
    for (std::int64_t u = 0; u < n; ++u) {
        const auto c0 = static_cast<std::size_t>(cls[static_cast<std::size_t>(u)]);
        const auto c1 = static_cast<std::size_t>(cls[static_cast<std::size_t>(n + u)]);
        ++count_g[c1];
        if (!seen0[c0]) seen0[c0] = 1, ++res.classes_g0;
        if (!seen1[c1]) seen1[c1] = 1, ++res.classes_g;
    }
    // Summed per class, in class order: sum_c matched_c / |C_c|. Exact integers on g0 itself
    // (the number of classes) and bit-identical for any thread count.
    std::vector<std::int64_t> matched(static_cast<std::size_t>(classes), 0);
    for (std::int64_t u = 0; u < n; ++u) {
        const auto c0 = cls[static_cast<std::size_t>(u)];
        if (c0 == cls[static_cast<std::size_t>(n + u)]) ++matched[static_cast<std::size_t>(c0)];
    }
    for (std::int64_t c = 0; c < classes; ++c) {
        const auto sc = static_cast<std::size_t>(c);
        if (matched[sc] == 0) continue;
        res.score += static_cast<double>(matched[sc]) / static_cast<double>(count_g[sc]);
        res.matched += matched[sc];
    }
    return res;
}

template <class Index>
std::vector<std::int64_t> signature_classes(const CsrView<Index>& g, SignatureKind kind, int threads,
                                            SignatureHash hash) {
    check_view(g, "g");
    if (g.n == 0) return {};
    return classes_of<Index>({&g}, kind, threads, hash);
}

template ReidentificationResult reidentification_score<std::int32_t>(const CsrView<std::int32_t>&,
                                                                     const CsrView<std::int32_t>&, SignatureKind, int,
                                                                     SignatureHash);
template ReidentificationResult reidentification_score<std::int64_t>(const CsrView<std::int64_t>&,
                                                                     const CsrView<std::int64_t>&, SignatureKind, int,
                                                                     SignatureHash);
template std::vector<std::int64_t> signature_classes<std::int32_t>(const CsrView<std::int32_t>&, SignatureKind, int,
                                                                   SignatureHash);
template std::vector<std::int64_t> signature_classes<std::int64_t>(const CsrView<std::int64_t>&, SignatureKind, int,
                                                                   SignatureHash);

}  // namespace graphveil
