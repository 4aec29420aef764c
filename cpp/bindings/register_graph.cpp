#include "convert.hpp"
#include "graphveil/csr.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple build_csr_py(std::int64_t n, const carray<std::int64_t>& u, const carray<std::int64_t>& v,
                       int threads) {
    if (u.ndim() != 1 || v.ndim() != 1 || u.shape(0) != v.shape(0))
        throw std::invalid_argument("u and v must be 1-d arrays of the same length");
    CsrBuildCounts counts;
    Csr<Index> csr;
    {
        // Safe: the kernel reads only the numpy buffers held alive by u and v.
        py::gil_scoped_release release;
        csr = build_csr<Index>(n, u.data(), v.data(), u.shape(0), threads, counts);
    }
    return py::make_tuple(to_numpy(std::move(csr.indptr)), to_numpy(std::move(csr.indices)), counts.self_loops,
                          counts.duplicates);
}

template <class Index>
py::tuple csr_edges_py(const carray<std::int64_t>& indptr, const carray<Index>& indices) {
    const std::int64_t n = indptr.shape(0) - 1;
    const std::int64_t m = indices.shape(0) / 2;
    std::vector<Index> u(static_cast<std::size_t>(m)), v(static_cast<std::size_t>(m));
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        py::gil_scoped_release release;
        csr_edges<Index>(indptr.data(), indices.data(), n, u.data(), v.data());
    }
    return py::make_tuple(to_numpy(std::move(u)), to_numpy(std::move(v)));
}

}  // namespace

void register_graph(py::module_& m) {
    m.def("build_csr32", &build_csr_py<std::int32_t>, py::arg("n"), py::arg("u").noconvert(),
          py::arg("v").noconvert(), py::arg("threads") = 0,
          "CSR (int64 indptr, int32 indices) of the simple graph; returns (indptr, indices, self_loops, duplicates)");
    m.def("build_csr64", &build_csr_py<std::int64_t>, py::arg("n"), py::arg("u").noconvert(),
          py::arg("v").noconvert(), py::arg("threads") = 0, "As build_csr32 with int64 indices");
    m.def("csr_edges32", &csr_edges_py<std::int32_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
          "Canonical (u < v) edge arrays of a CSR graph");
    m.def("csr_edges64", &csr_edges_py<std::int64_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
          "Canonical (u < v) edge arrays of a CSR graph");
}

}  // namespace graphveil::bind
