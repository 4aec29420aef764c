// Structural node signatures for the re-identification scores H1 and H2_open (Section 5.1 of
// the paper) and the score itself.
//
// H1 signature of u: its degree. H2_open signature of u: the *set* (duplicates removed) of its
// neighbours' degrees. The score of a published graph g against the true graph g0 is
//     sum over u of 1 / |C(u)| if u is in C(u), else 0,   C(u) = {v : sig_g(v) = sig_g0(u)}.
// Signatures are grouped by a 64-bit hash and then by comparing the actual sorted sets inside
// every run of equal hashes, so a hash collision can never merge two classes.
#pragma once
#include <cstdint>
#include <vector>

#include "graphveil/csr.hpp"

namespace graphveil {

enum class SignatureKind { degree, neighbour_degree_set };

// Hash used for grouping. `weak` keeps only the low 2 bits: a test hook that forces
// collisions so the exact comparison inside runs of equal hashes is exercised.
enum class SignatureHash { strong, weak };

struct ReidentificationResult {
    double score = 0.0;           // sum over u of its re-identification probability
    std::int64_t matched = 0;     // nodes whose class in g still holds them
    std::int64_t classes_g0 = 0;  // distinct signatures in g0
    std::int64_t classes_g = 0;   // distinct signatures in g
};

// The signature classes of one graph (G0), computed once and reused by every score against it:
// the class of every node (dense ids numbered by the first node holding each signature) and,
// for every class, the key and the sorted values of its signature (for the degree kind: the
// degree alone). Memory O(n + the representatives' values), well under the 2m of a full table.
template <class Index>
struct SignatureIndex {
    std::vector<std::int64_t> cls;      // n
    std::vector<std::uint64_t> key;     // one per class
    std::vector<std::int64_t> rep_ptr;  // classes + 1 offsets into rep_values
    std::vector<Index> rep_values;      // class c's signature: rep_values[rep_ptr[c], rep_ptr[c + 1])
};

// A read-only view of a SignatureIndex (over its vectors or over numpy buffers).
template <class Index>
struct SignatureIndexView {
    std::int64_t n = 0;
    std::int64_t classes = 0;
    std::int64_t rep_count = 0;  // length of rep_values
    const std::int64_t* cls = nullptr;
    const std::uint64_t* key = nullptr;
    const std::int64_t* rep_ptr = nullptr;
    const Index* rep_values = nullptr;
};

template <class Index>
SignatureIndexView<Index> index_view(const SignatureIndex<Index>& idx) {
    return {static_cast<std::int64_t>(idx.cls.size()),
            static_cast<std::int64_t>(idx.key.size()),
            static_cast<std::int64_t>(idx.rep_values.size()),
            idx.cls.data(),
            idx.key.data(),
            idx.rep_ptr.data(),
            idx.rep_values.data()};
}

// The classes of g under `kind`. O(m log d_max) for H2_open, O(n) for H1.
template <class Index>
SignatureIndex<Index> signature_index(const CsrView<Index>& g, SignatureKind kind, int threads,
                                      SignatureHash hash = SignatureHash::strong);

// Score of g against G0 given by its index (built with the same kind and hash): only g's own
// signatures are computed. Bit-identical to reidentification_score(g0, g, ...) below.
// Throws std::invalid_argument if the index is inconsistent or its n differs from g's.
template <class Index>
ReidentificationResult reidentification_score(const SignatureIndexView<Index>& g0, const CsrView<Index>& g,
                                              SignatureKind kind, int threads,
                                              SignatureHash hash = SignatureHash::strong);

// Score of g against g0 (both on the same n nodes). O(m log d_max) for H2_open (one sort of
// every neighbourhood's degrees), O(n) for H1; parallel over node blocks, deterministic for
// any thread count.
template <class Index>
ReidentificationResult reidentification_score(const CsrView<Index>& g0, const CsrView<Index>& g, SignatureKind kind,
                                              int threads, SignatureHash hash = SignatureHash::strong);

// Class id of every node's signature in one graph (ids dense, 0..classes-1, numbered by the
// first node holding each signature). Used by tests and by callers that want the classes.
template <class Index>
std::vector<std::int64_t> signature_classes(const CsrView<Index>& g, SignatureKind kind, int threads,
                                            SignatureHash hash = SignatureHash::strong);

}  // namespace graphveil
