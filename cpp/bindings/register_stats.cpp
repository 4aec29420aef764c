#include <stdexcept>

#include "convert.hpp"
#include "graphveil/statistics.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
void check_csr_arrays(const carray<std::int64_t>& indptr, const carray<Index>& indices) {
    if (indptr.ndim() != 1 || indptr.shape(0) < 1 || indices.ndim() != 1)
        throw std::invalid_argument("indptr and indices must be 1-d arrays, indptr of length n + 1");
    if (indptr.at(indptr.shape(0) - 1) != indices.shape(0))
        throw std::invalid_argument("indptr[-1] must equal len(indices)");
}

template <class Index>
py::tuple count_triangles_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int threads) {
    check_csr_arrays(indptr, indices);
    TriangleCounts counts;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        py::gil_scoped_release release;
        counts = count_triangles<Index>(indptr.data(), indices.data(), indptr.shape(0) - 1, threads);
    }
    return py::make_tuple(counts.triangles, counts.triples);
}

template <class Index>
py::array_t<std::int64_t> distance_histogram_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                                const carray<std::int64_t>& sources, int threads) {
    check_csr_arrays(indptr, indices);
    if (sources.ndim() != 1) throw std::invalid_argument("sources must be a 1-d array of node ids");
    std::vector<std::int64_t> hist;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        py::gil_scoped_release release;
        hist = distance_histogram<Index>(indptr.data(), indices.data(), indptr.shape(0) - 1, sources.data(),
                                         sources.shape(0), threads);
    }
    return to_numpy(std::move(hist));
}

template <class Index>
py::array_t<double> hyperball_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int log2m,
                                 std::uint64_t seed, std::int64_t max_iterations, int threads) {
    check_csr_arrays(indptr, indices);
    std::vector<double> nf;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        py::gil_scoped_release release;
        nf = hyperball<Index>(indptr.data(), indices.data(), indptr.shape(0) - 1, log2m, seed, max_iterations,
                              threads);
    }
    return to_numpy(std::move(nf));
}

template <class Index>
py::tuple diameter_ifub_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, std::int64_t max_bfs) {
    check_csr_arrays(indptr, indices);
    DiameterResult result;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        py::gil_scoped_release release;
        result = diameter_ifub<Index>(indptr.data(), indices.data(), indptr.shape(0) - 1, max_bfs);
    }
    return py::make_tuple(result.diameter, result.exact, result.bfs);
}

}  // namespace

void register_stats(py::module_& m) {
    // One name for both index widths: .noconvert() picks the overload of the indices' dtype.
    m.def("diameter_ifub", &diameter_ifub_py<std::int32_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("max_bfs"),
          "(diameter, exact, BFS run) by iFUB; a lower bound if not exact");
    m.def("diameter_ifub", &diameter_ifub_py<std::int64_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("max_bfs"), "As above, int64 indices");
    m.def("count_triangles32", &count_triangles_py<std::int32_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("threads") = 0,
          "(triangles, connected triples) of a CSR graph by degree-ordered orientation");
    m.def("count_triangles64", &count_triangles_py<std::int64_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("threads") = 0, "As count_triangles32 with int64 indices");
    m.def("distance_histogram32", &distance_histogram_py<std::int32_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("sources").noconvert(), py::arg("threads") = 0,
          "Ordered (source, target) pairs per BFS distance 0, 1, ... from the given sources");
    m.def("distance_histogram64", &distance_histogram_py<std::int64_t>, py::arg("indptr").noconvert(),
          py::arg("indices").noconvert(), py::arg("sources").noconvert(), py::arg("threads") = 0,
          "As distance_histogram32 with int64 indices");
    m.def("hyperball32", &hyperball_py<std::int32_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
          py::arg("log2m"), py::arg("seed"), py::arg("max_iterations") = 0, py::arg("threads") = 0,
          "HyperBall estimate of the neighbourhood function N(0), N(1), ... (pairs within distance t)");
    m.def("hyperball64", &hyperball_py<std::int64_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
          py::arg("log2m"), py::arg("seed"), py::arg("max_iterations") = 0, py::arg("threads") = 0,
          "As hyperball32 with int64 indices");
}

}  // namespace graphveil::bind
