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

template <class Index>
SignatureTable<Index> build_signatures(const CsrView<Index>& g, SignatureKind kind, int threads,
                                       SignatureHash hash_kind) {
    const std::int64_t n = g.n;
    SignatureTable<Index> t;
    t.begin.resize(static_cast<std::size_t>(n));
    t.size.resize(static_cast<std::size_t>(n));
    t.hash.resize(static_cast<std::size_t>(n));
    const bool sets = kind == SignatureKind::neighbour_degree_set;
    // Every neighbourhood sorts in place inside its own CSR slot: no per-node allocation and
    // no second pass to compact, at the cost of 2m values per graph.
    t.values.resize(static_cast<std::size_t>(sets ? g.indptr[n] : n));
    const std::uint64_t mask = hash_kind == SignatureHash::weak ? 0x3ULL : ~0ULL;
    parallel_ranges(n, kBlock, threads, [&](std::int64_t lo, std::int64_t hi, std::int64_t) {
        for (std::int64_t u = lo; u < hi; ++u) {
            Index* out;
            std::int64_t len;
            if (sets) {
                const std::int64_t a = g.indptr[u], b = g.indptr[u + 1];
                out = t.values.data() + a;
                for (std::int64_t e = a; e < b; ++e) {
                    const Index w = g.indices[e];
                    out[e - a] = static_cast<Index>(g.indptr[w + 1] - g.indptr[w]);
                }
                std::sort(out, out + (b - a));
                len = std::unique(out, out + (b - a)) - out;
                t.begin[static_cast<std::size_t>(u)] = a;
            } else {
                out = t.values.data() + u;
                out[0] = static_cast<Index>(g.indptr[u + 1] - g.indptr[u]);
                len = 1;
                t.begin[static_cast<std::size_t>(u)] = u;
            }
            std::uint64_t h = mix64(static_cast<std::uint64_t>(len) + 0x9E3779B97F4A7C15ULL);
            for (std::int64_t i = 0; i < len; ++i) h = mix64(h ^ (static_cast<std::uint64_t>(out[i]) + 0x632BE59BD9B4E019ULL));
            t.size[static_cast<std::size_t>(u)] = len;
            t.hash[static_cast<std::size_t>(u)] = h & mask;
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
    while (capacity < static_cast<std::uint64_t>(2 * items)) capacity <<= 1;
    // slot -> (table, node) of the class representative, or -1.
    std::vector<std::int64_t> slot_item(capacity, -1);
    std::vector<std::int64_t> slot_class(capacity, -1);
    std::vector<std::int64_t> cls(static_cast<std::size_t>(items));
    std::int64_t next_class = 0;
    for (std::int64_t it = 0; it < items; ++it) {
        const auto& tab = *tables[static_cast<std::size_t>(it / n)];
        const std::int64_t u = it % n;
        const std::uint64_t h = tab.hash[static_cast<std::size_t>(u)];
        std::uint64_t s = mix64(h) & (capacity - 1);
        for (;;) {
            const std::int64_t rep = slot_item[s];
            if (rep < 0) {
                slot_item[s] = it;
                slot_class[s] = next_class;
                cls[static_cast<std::size_t>(it)] = next_class++;
                break;
            }
            const auto& rtab = *tables[static_cast<std::size_t>(rep / n)];
            const std::int64_t r = rep % n;
            if (rtab.hash[static_cast<std::size_t>(r)] == h && tab.equal(u, rtab, r)) {
                cls[static_cast<std::size_t>(it)] = slot_class[s];
                break;
            }
            s = (s + 1) & (capacity - 1);
        }
    }
    return cls;
}

template <class Index>
void check_view(const CsrView<Index>& g, const char* name) {
    if (g.n < 0 || g.indptr == nullptr) throw std::invalid_argument(std::string(name) + ": invalid CSR");
}

}  // namespace

template <class Index>
ReidentificationResult reidentification_score(const CsrView<Index>& g0, const CsrView<Index>& g,
                                              SignatureKind kind, int threads, SignatureHash hash) {
    check_view(g0, "g0");
    check_view(g, "g");
    if (g0.n != g.n) throw std::invalid_argument("g0 and g must have the same number of nodes");
    const std::int64_t n = g0.n;
    ReidentificationResult res;
    if (n == 0) return res;
    const auto t0 = build_signatures(g0, kind, threads, hash);
    const auto t1 = build_signatures(g, kind, threads, hash);
    const auto cls = group<Index>({&t0, &t1}, n);
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
    const auto t = build_signatures(g, kind, threads, hash);
    return group<Index>({&t}, g.n);
}

template ReidentificationResult reidentification_score<std::int32_t>(const CsrView<std::int32_t>&,
                                                                     const CsrView<std::int32_t>&, SignatureKind,
                                                                     int, SignatureHash);
template ReidentificationResult reidentification_score<std::int64_t>(const CsrView<std::int64_t>&,
                                                                     const CsrView<std::int64_t>&, SignatureKind,
                                                                     int, SignatureHash);
template std::vector<std::int64_t> signature_classes<std::int32_t>(const CsrView<std::int32_t>&, SignatureKind,
                                                                   int, SignatureHash);
template std::vector<std::int64_t> signature_classes<std::int64_t>(const CsrView<std::int64_t>&, SignatureKind,
                                                                   int, SignatureHash);

}  // namespace graphveil
