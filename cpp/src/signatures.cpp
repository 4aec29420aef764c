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

std::uint64_t slot_capacity(std::int64_t items) {
    std::uint64_t capacity = 16;
    while (capacity < static_cast<std::uint64_t>(items + items / 2)) capacity <<= 1;
    return capacity;
}

// Assigns dense class ids to one table's signatures, numbered by the first node holding each
// (that node is the class's representative, stored in `first`). Open addressing on the key; a
// slot is reused only when the stored signature compares equal element by element, so
// colliding hashes still give distinct classes. Sequential and therefore deterministic; O(n)
// expected with a strong hash.
template <class Index>
std::vector<std::int64_t> group(const SignatureTable<Index>& tab, std::int64_t n, std::vector<std::int64_t>& first) {
    const std::uint64_t capacity = slot_capacity(n);
    // The key sits in the slot, so a probe touches one cache line; the values of the class
    // representative are read only when the keys are equal hashes.
    struct Slot {
        std::uint64_t key;
        std::int64_t node;  // representative, -1 if empty
    };
    std::vector<Slot> slots(capacity, Slot{0, -1});
    std::vector<std::int64_t> cls(static_cast<std::size_t>(n));
    for (std::int64_t u = 0; u < n; ++u) {
        const std::uint64_t key = tab.hash[static_cast<std::size_t>(u)];
        std::uint64_t s = mix64(key) & (capacity - 1);
        for (;;) {
            Slot& slot = slots[s];
            if (slot.node < 0) {
                slot.key = key;
                slot.node = u;
                cls[static_cast<std::size_t>(u)] = static_cast<std::int64_t>(first.size());
                first.push_back(u);
                break;
            }
            if (slot.key == key && ((key & kExactBit) || tab.equal(u, tab, slot.node))) {
                cls[static_cast<std::size_t>(u)] = cls[static_cast<std::size_t>(slot.node)];
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

// An index handed in from outside (numpy buffers) is checked before any lookup trusts it.
template <class Index>
void check_index(const SignatureIndexView<Index>& x, SignatureKind kind) {
    const auto bad = [](const char* what) {
        throw std::invalid_argument(std::string("invalid signature index: ") + what +
                                    "; build it with signature_index of G0");
    };
    if (x.n < 0 || x.classes < 0 || x.rep_count < 0) bad("negative sizes");
    if (x.rep_ptr == nullptr || x.rep_ptr[0] != 0 || x.rep_ptr[x.classes] != x.rep_count)
        bad("rep_ptr must run from 0 to len(rep_values)");
    for (std::int64_t c = 0; c < x.classes; ++c) {
        const std::int64_t len = x.rep_ptr[c + 1] - x.rep_ptr[c];
        if (len < 0 || (kind == SignatureKind::degree && len != 1)) bad("a class has a wrong number of values");
    }
    for (std::int64_t u = 0; u < x.n; ++u)
        if (x.cls[u] < 0 || x.cls[u] >= x.classes) bad("a node's class is out of range");
    if (kind == SignatureKind::degree)
        for (std::int64_t i = 0; i < x.rep_count; ++i)
            if (x.rep_values[i] < 0) bad("a negative degree");
}

// H1 classes of g against G0's degree classes: a degree G0 holds gets its class; any other
// degree gets a new class, numbered after G0's by the first node of g holding it.
template <class Index>
std::vector<std::int64_t> degree_classes_against(const SignatureIndexView<Index>& g0, const CsrView<Index>& g,
                                                 std::int64_t& classes) {
    std::int64_t top0 = -1;
    for (std::int64_t c = 0; c < g0.classes; ++c) top0 = std::max<std::int64_t>(top0, g0.rep_values[c]);
    std::vector<std::int64_t> id(static_cast<std::size_t>(top0 + 1), -1);
    for (std::int64_t c = 0; c < g0.classes; ++c) id[static_cast<std::size_t>(g0.rep_values[c])] = c;
    std::int64_t top = 0;
    for (std::int64_t u = 0; u < g.n; ++u) top = std::max(top, g.indptr[u + 1] - g.indptr[u]);
    std::vector<std::int64_t> fresh(static_cast<std::size_t>(top + 1), -1);
    std::vector<std::int64_t> cls(static_cast<std::size_t>(g.n));
    classes = g0.classes;
    for (std::int64_t u = 0; u < g.n; ++u) {
        const std::int64_t d = g.indptr[u + 1] - g.indptr[u];
        std::int64_t c = d <= top0 ? id[static_cast<std::size_t>(d)] : -1;
        if (c < 0) {
            auto& f = fresh[static_cast<std::size_t>(d)];
            if (f < 0) f = classes++;
            c = f;
        }
        cls[static_cast<std::size_t>(u)] = c;
    }
    return cls;
}

// H2_open classes of g against G0's: G0's representatives sit in a read-only hash table that
// every thread probes for its own nodes; the nodes whose signature G0 lacks are then grouped
// among themselves, in node order, into new classes numbered after G0's.
template <class Index>
std::vector<std::int64_t> set_classes_against(const SignatureIndexView<Index>& g0, const SignatureTable<Index>& t,
                                              std::int64_t n, int threads, std::int64_t& classes) {
    const std::uint64_t capacity = slot_capacity(g0.classes);
    struct Slot {
        std::uint64_t key;
        std::int64_t cls;  // -1 if empty
    };
    std::vector<Slot> slots(capacity, Slot{0, -1});
    for (std::int64_t c = 0; c < g0.classes; ++c) {
        std::uint64_t s = mix64(g0.key[c]) & (capacity - 1);
        while (slots[s].cls >= 0) s = (s + 1) & (capacity - 1);
        slots[s] = Slot{g0.key[c], c};
    }
    const auto equal_rep = [&](std::int64_t u, std::int64_t c) {
        const std::int64_t a = g0.rep_ptr[c], b = g0.rep_ptr[c + 1];
        if (t.size[static_cast<std::size_t>(u)] != b - a) return false;
        const Index* x = t.values.data() + t.begin[static_cast<std::size_t>(u)];
        return std::equal(x, x + (b - a), g0.rep_values + a);
    };
    std::vector<std::int64_t> cls(static_cast<std::size_t>(n), -1);
    parallel_ranges(n, kBlock, threads, [&](std::int64_t lo, std::int64_t hi, std::int64_t) {
        for (std::int64_t u = lo; u < hi; ++u) {
            const std::uint64_t key = t.hash[static_cast<std::size_t>(u)];
            for (std::uint64_t s = mix64(key) & (capacity - 1); slots[s].cls >= 0; s = (s + 1) & (capacity - 1)) {
                if (slots[s].key == key && ((key & kExactBit) || equal_rep(u, slots[s].cls))) {
                    cls[static_cast<std::size_t>(u)] = slots[s].cls;
                    break;
                }
            }
        }
    });
    std::vector<std::int64_t> unmatched;
    for (std::int64_t u = 0; u < n; ++u)
        if (cls[static_cast<std::size_t>(u)] < 0) unmatched.push_back(u);
    const std::uint64_t cap2 = slot_capacity(static_cast<std::int64_t>(unmatched.size()));
    struct Fresh {
        std::uint64_t key;
        std::int64_t node;  // representative, -1 if empty
    };
    std::vector<Fresh> fresh(cap2, Fresh{0, -1});
    classes = g0.classes;
    for (const std::int64_t u : unmatched) {
        const std::uint64_t key = t.hash[static_cast<std::size_t>(u)];
        for (std::uint64_t s = mix64(key) & (cap2 - 1);; s = (s + 1) & (cap2 - 1)) {
            Fresh& slot = fresh[s];
            if (slot.node < 0) {
                slot = Fresh{key, u};
                cls[static_cast<std::size_t>(u)] = classes++;
                break;
            }
            if (slot.key == key && ((key & kExactBit) || t.equal(u, t, slot.node))) {
                cls[static_cast<std::size_t>(u)] = cls[static_cast<std::size_t>(slot.node)];
                break;
            }
        }
    }
    return cls;
}

// The score from both class arrays (G0's classes are 0..classes_g0-1, numbered as in G0).
ReidentificationResult score_classes(const std::int64_t* cls0, const std::int64_t* cls1, std::int64_t n,
                                     std::int64_t classes) {
    ReidentificationResult res;
    std::vector<std::int64_t> count_g(static_cast<std::size_t>(classes), 0);
    std::vector<char> seen0(static_cast<std::size_t>(classes), 0), seen1(static_cast<std::size_t>(classes), 0);
    for (std::int64_t u = 0; u < n; ++u) {
        const auto c0 = static_cast<std::size_t>(cls0[u]);
        const auto c1 = static_cast<std::size_t>(cls1[u]);
        ++count_g[c1];
        if (!seen0[c0]) seen0[c0] = 1, ++res.classes_g0;
        if (!seen1[c1]) seen1[c1] = 1, ++res.classes_g;
    }
    // Summed per class, in class order: sum_c matched_c / |C_c|. Exact integers on g0 itself
    // (the number of classes) and bit-identical for any thread count.
    std::vector<std::int64_t> matched(static_cast<std::size_t>(classes), 0);
    for (std::int64_t u = 0; u < n; ++u)
        if (cls0[u] == cls1[u]) ++matched[static_cast<std::size_t>(cls0[u])];
    for (std::int64_t c = 0; c < classes; ++c) {
        const auto sc = static_cast<std::size_t>(c);
        if (matched[sc] == 0) continue;
        res.score += static_cast<double>(matched[sc]) / static_cast<double>(count_g[sc]);
        res.matched += matched[sc];
    }
    return res;
}

}  // namespace

template <class Index>
SignatureIndex<Index> signature_index(const CsrView<Index>& g, SignatureKind kind, int threads, SignatureHash hash) {
    check_view(g, "g");
    const std::int64_t n = g.n;
    SignatureIndex<Index> idx;
    idx.rep_ptr.push_back(0);
    idx.cls.resize(static_cast<std::size_t>(n));
    if (kind == SignatureKind::degree) {
        // The degree is its own exact key; classes are degree values.
        std::int64_t top = 0;
        for (std::int64_t u = 0; u < n; ++u) top = std::max(top, g.indptr[u + 1] - g.indptr[u]);
        std::vector<std::int64_t> id(static_cast<std::size_t>(top + 1), -1);
        for (std::int64_t u = 0; u < n; ++u) {
            const std::int64_t d = g.indptr[u + 1] - g.indptr[u];
            auto& c = id[static_cast<std::size_t>(d)];
            if (c < 0) {
                c = static_cast<std::int64_t>(idx.key.size());
                idx.key.push_back(static_cast<std::uint64_t>(d));
                idx.rep_values.push_back(static_cast<Index>(d));
                idx.rep_ptr.push_back(static_cast<std::int64_t>(idx.rep_values.size()));
            }
            idx.cls[static_cast<std::size_t>(u)] = c;
        }
        return idx;
    }
    const auto t = build_signatures(g, threads, hash);
    std::vector<std::int64_t> first;
    idx.cls = group(t, n, first);
    for (const std::int64_t u : first) {
        const auto su = static_cast<std::size_t>(u);
        idx.key.push_back(t.hash[su]);
        const Index* x = t.values.data() + t.begin[su];
        idx.rep_values.insert(idx.rep_values.end(), x, x + t.size[su]);
        idx.rep_ptr.push_back(static_cast<std::int64_t>(idx.rep_values.size()));
    }
    return idx;
}

template <class Index>
ReidentificationResult reidentification_score(const SignatureIndexView<Index>& g0, const CsrView<Index>& g,
                                              SignatureKind kind, int threads, SignatureHash hash) {
    check_view(g, "g");
    check_index(g0, kind);
    if (g0.n != g.n) throw std::invalid_argument("G0's signature index and g must have the same number of nodes");
    if (g.n == 0) return {};
    std::int64_t classes = 0;
    const auto cls = kind == SignatureKind::degree
                         ? degree_classes_against(g0, g, classes)
                         : set_classes_against(g0, build_signatures(g, threads, hash), g.n, threads, classes);
    return score_classes(g0.cls, cls.data(), g.n, classes);
}

template <class Index>
ReidentificationResult reidentification_score(const CsrView<Index>& g0, const CsrView<Index>& g, SignatureKind kind,
                                              int threads, SignatureHash hash) {
    check_view(g0, "g0");
    check_view(g, "g");
    if (g0.n != g.n) throw std::invalid_argument("g0 and g must have the same number of nodes");
    if (g0.n == 0) return {};
    const auto idx = signature_index(g0, kind, threads, hash);
    // The same arrays twice (the true graph's own row): its classes serve both halves.
    if (g0.indptr == g.indptr && g0.indices == g.indices)
        return score_classes(idx.cls.data(), idx.cls.data(), g0.n, static_cast<std::int64_t>(idx.key.size()));
    return reidentification_score(index_view(idx), g, kind, threads, hash);
}

template <class Index>
std::vector<std::int64_t> signature_classes(const CsrView<Index>& g, SignatureKind kind, int threads,
                                            SignatureHash hash) {
    check_view(g, "g");
    if (g.n == 0) return {};
    return signature_index(g, kind, threads, hash).cls;
}

template SignatureIndex<std::int32_t> signature_index<std::int32_t>(const CsrView<std::int32_t>&, SignatureKind, int,
                                                                    SignatureHash);
template SignatureIndex<std::int64_t> signature_index<std::int64_t>(const CsrView<std::int64_t>&, SignatureKind, int,
                                                                    SignatureHash);
template ReidentificationResult reidentification_score<std::int32_t>(const SignatureIndexView<std::int32_t>&,
                                                                     const CsrView<std::int32_t>&, SignatureKind, int,
                                                                     SignatureHash);
template ReidentificationResult reidentification_score<std::int64_t>(const SignatureIndexView<std::int64_t>&,
                                                                     const CsrView<std::int64_t>&, SignatureKind, int,
                                                                     SignatureHash);
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
