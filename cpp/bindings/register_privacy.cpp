#include <stdexcept>
#include <string>

#include "convert.hpp"
#include "graphveil/degree_distribution.hpp"
#include "graphveil/signatures.hpp"

namespace graphveil::bind {

namespace {

SignatureKind parse_kind(const std::string& kind) {
    if (kind == "h1") return SignatureKind::degree;
    if (kind == "h2_open") return SignatureKind::neighbour_degree_set;
    throw std::invalid_argument("signature kind must be 'h1' or 'h2_open', got '" + kind + "'");
}

template <class Index>
py::tuple reidentification_score_py(const carray<std::int64_t>& indptr0, const carray<Index>& indices0,
                                    const carray<std::int64_t>& indptr1, const carray<Index>& indices1,
                                    const std::string& kind, int threads, bool weak_hash) {
    const auto g0 = csr_view(indptr0, indices0);
    const auto g1 = csr_view(indptr1, indices1);
    const SignatureKind k = parse_kind(kind);
    ReidentificationResult r;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        r = reidentification_score(g0, g1, k, threads, weak_hash ? SignatureHash::weak : SignatureHash::strong);
    }
    return py::make_tuple(r.score, r.matched, r.classes_g0, r.classes_g);
}

template <class Index>
py::tuple signature_index_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, const std::string& kind,
                             int threads, bool weak_hash) {
    const auto g = csr_view(indptr, indices);
    const SignatureKind k = parse_kind(kind);
    SignatureIndex<Index> idx;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        idx = signature_index(g, k, threads, weak_hash ? SignatureHash::weak : SignatureHash::strong);
    }
    return py::make_tuple(to_numpy(std::move(idx.cls)), to_numpy(std::move(idx.key)), to_numpy(std::move(idx.rep_ptr)),
                          to_numpy(std::move(idx.rep_values)));
}

template <class Index>
py::tuple reidentification_score_indexed_py(const carray<std::int64_t>& classes0, const carray<std::uint64_t>& keys0,
                                            const carray<std::int64_t>& rep_ptr0, const carray<Index>& rep_values0,
                                            const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                            const std::string& kind, int threads, bool weak_hash) {
    require_1d(classes0, "classes0");
    require_1d(keys0, "keys0");
    require_1d(rep_ptr0, "rep_ptr0");
    require_1d(rep_values0, "rep_values0");
    if (rep_ptr0.shape(0) != keys0.shape(0) + 1)
        throw std::invalid_argument("rep_ptr0 must hold one offset more than keys0 (one key per class)");
    const auto g = csr_view(indptr, indices);
    const SignatureIndexView<Index> g0{classes0.shape(0), keys0.shape(0),  rep_values0.shape(0), classes0.data(),
                                       keys0.data(),      rep_ptr0.data(), rep_values0.data()};
    const SignatureKind k = parse_kind(kind);
    ReidentificationResult r;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        r = reidentification_score(g0, g, k, threads, weak_hash ? SignatureHash::weak : SignatureHash::strong);
    }
    return py::make_tuple(r.score, r.matched, r.classes_g0, r.classes_g);
}

template <class Index>
py::array_t<std::int64_t> signature_classes_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                               const std::string& kind, int threads, bool weak_hash) {
    const auto g = csr_view(indptr, indices);
    const SignatureKind k = parse_kind(kind);
    std::vector<std::int64_t> cls;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        cls = signature_classes(g, k, threads, weak_hash ? SignatureHash::weak : SignatureHash::strong);
    }
    return to_numpy(std::move(cls));
}

template <class Index>
py::tuple degree_entropy_py(std::int64_t n, const carray<Index>& u, const carray<Index>& v, const carray<double>& p,
                            int threads) {
    const auto pr = pair_view(n, u, v, &p);
    DegreeEntropy de;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        de = degree_entropy(pr, threads);
    }
    return py::make_tuple(to_numpy(std::move(de.entropy)), to_numpy(std::move(de.mass)));
}

template <class Index>
py::tuple degree_distributions_py(std::int64_t n, const carray<Index>& u, const carray<Index>& v,
                                  const carray<double>& p, int threads) {
    const auto pr = pair_view(n, u, v, &p);
    std::vector<std::int64_t> offsets;
    std::vector<double> values;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        degree_distributions(pr, threads, offsets, values);
    }
    return py::make_tuple(to_numpy(std::move(offsets)), to_numpy(std::move(values)));
}

}  // namespace

void register_privacy(py::module_& m) {
    def_widths(m, "reidentification_score", &reidentification_score_py<std::int32_t>,
               &reidentification_score_py<std::int64_t>, py::arg("indptr0").noconvert(),
               py::arg("indices0").noconvert(), py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
               py::arg("kind"), py::arg("threads") = 0, py::arg("weak_hash") = false,
               "Re-identification score of g against g0; returns (score, matched, classes_g0, classes_g)");
    def_widths(m, "signature_index", &signature_index_py<std::int32_t>, &signature_index_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("kind"), py::arg("threads") = 0,
               py::arg("weak_hash") = false,
               "G0's signature classes, computed once; returns (classes, keys, rep_ptr, rep_values)");
    def_widths(m, "reidentification_score_indexed", &reidentification_score_indexed_py<std::int32_t>,
               &reidentification_score_indexed_py<std::int64_t>, py::arg("classes0").noconvert(),
               py::arg("keys0").noconvert(), py::arg("rep_ptr0").noconvert(), py::arg("rep_values0").noconvert(),
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("kind"), py::arg("threads") = 0,
               py::arg("weak_hash") = false,
               "Re-identification score of g against G0's signature index (signature_index); returns (score, matched, "
               "classes_g0, classes_g)");
    def_widths(m, "signature_classes", &signature_classes_py<std::int32_t>, &signature_classes_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("kind"), py::arg("threads") = 0,
               py::arg("weak_hash") = false, "Dense class id of every node's signature");
    def_widths(m, "degree_entropy", &degree_entropy_py<std::int32_t>, &degree_entropy_py<std::int64_t>, py::arg("n"),
               py::arg("u").noconvert(), py::arg("v").noconvert(), py::arg("p").noconvert(), py::arg("threads") = 0,
               "Per-degree entropy H_d and mass S_d of an uncertain graph; returns (entropy, mass)");
    def_widths(m, "degree_distributions", &degree_distributions_py<std::int32_t>,
               &degree_distributions_py<std::int64_t>, py::arg("n"), py::arg("u").noconvert(), py::arg("v").noconvert(),
               py::arg("p").noconvert(), py::arg("threads") = 0,
               "Poisson-binomial degree law of every node; returns (offsets, values)");
}

}  // namespace graphveil::bind
