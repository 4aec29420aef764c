#include <stdexcept>
#include <string>

#include "convert.hpp"
#include "graphveil/csr.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple build_csr_width(std::int64_t n, const PairView<std::int64_t>& pairs, int threads, bool directed) {
    CsrBuildCounts counts;
    Csr<Index> csr;
    {
        // Safe: the kernel reads only the numpy buffers held alive by u and v.
        KernelRelease release;
        csr = directed ? build_digraph_csr<Index>(n, pairs.u, pairs.v, pairs.count, threads, counts)
                       : build_csr<Index>(n, pairs.u, pairs.v, pairs.count, threads, counts);
    }
    return py::make_tuple(to_numpy(std::move(csr.indptr)), to_numpy(std::move(csr.indices)), counts.self_loops,
                          counts.duplicates);
}

// The input ids are always int64; `index_dtype` picks the width of the output indices (the
// caller's one rule, graphveil._common.index_dtype, decides it from n).
py::tuple build_csr_py(std::int64_t n, const carray<std::int64_t>& u, const carray<std::int64_t>& v,
                       const py::dtype& index_dtype, int threads, bool directed) {
    const auto pairs = pair_view<std::int64_t>(n, u, v);
    if (index_dtype.equal(py::dtype::of<std::int32_t>()))
        return build_csr_width<std::int32_t>(n, pairs, threads, directed);
    if (index_dtype.equal(py::dtype::of<std::int64_t>()))
        return build_csr_width<std::int64_t>(n, pairs, threads, directed);
    throw std::invalid_argument("index_dtype must be numpy.int32 or numpy.int64, got " +
                                py::str(index_dtype).cast<std::string>());
}

template <class Index>
py::tuple csr_edges_py(const carray<std::int64_t>& indptr, const carray<Index>& indices) {
    const auto g = csr_view(indptr, indices);
    const std::int64_t m = indices.shape(0) / 2;
    std::vector<Index> u(static_cast<std::size_t>(m)), v(static_cast<std::size_t>(m));
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        csr_edges<Index>(g.indptr, g.indices, g.n, u.data(), v.data());
    }
    return py::make_tuple(to_numpy(std::move(u)), to_numpy(std::move(v)));
}

template <class Index>
py::tuple csr_transpose_py(const carray<std::int64_t>& indptr, const carray<Index>& indices) {
    const auto g = csr_view(indptr, indices);
    Csr<Index> t;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local CSR.
        KernelRelease release;
        t = csr_transpose<Index>(g.indptr, g.indices, g.n);
    }
    return py::make_tuple(to_numpy(std::move(t.indptr)), to_numpy(std::move(t.indices)));
}

}  // namespace

void register_graph(py::module_& m) {
    m.def("build_csr", &build_csr_py, py::arg("n"), py::arg("u").noconvert(), py::arg("v").noconvert(),
          py::arg("index_dtype"), py::arg("threads") = 0, py::arg("directed") = false,
          "CSR (int64 indptr, index_dtype indices) of the simple graph (directed: the out-CSR of the arcs u -> v); "
          "returns (indptr, indices, self_loops, duplicates)");
    def_widths(m, "csr_edges", &csr_edges_py<std::int32_t>, &csr_edges_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), "Canonical (u < v) edge arrays of a CSR graph");
    def_widths(m, "csr_transpose", &csr_transpose_py<std::int32_t>, &csr_transpose_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
               "The transpose (in-CSR of an out-CSR), rows sorted: returns (indptr, indices)");
}

}  // namespace graphveil::bind
