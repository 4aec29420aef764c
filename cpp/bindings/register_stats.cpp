#include <stdexcept>

#include "convert.hpp"
#include "graphveil/statistics.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple count_triangles_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int threads) {
    const auto g = csr_view(indptr, indices);
    TriangleCounts counts;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        counts = count_triangles<Index>(g.indptr, g.indices, g.n, threads);
    }
    return py::make_tuple(counts.triangles, counts.triples);
}

template <class Index>
py::array_t<std::int64_t> distance_histogram_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                                const carray<std::int64_t>& sources, int threads) {
    const auto g = csr_view(indptr, indices);
    require_1d(sources, "sources");
    std::vector<std::int64_t> hist;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        hist = distance_histogram<Index>(g.indptr, g.indices, g.n, sources.data(), sources.shape(0), threads);
    }
    return to_numpy(std::move(hist));
}

template <class Index>
py::array_t<std::int64_t> directed_distance_histogram_py(const carray<std::int64_t>& indptr,
                                                         const carray<Index>& indices,
                                                         const carray<std::int64_t>& sources, int threads) {
    const auto g = csr_view(indptr, indices);
    require_1d(sources, "sources");
    std::vector<std::int64_t> hist;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        hist = directed_distance_histogram<Index>(g.indptr, g.indices, g.n, sources.data(), sources.shape(0),
                                                  threads);
    }
    return to_numpy(std::move(hist));
}

template <class Index>
std::int64_t count_weighted_triangles_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                         const carray<std::uint8_t>& weights, int threads) {
    const auto g = csr_view(indptr, indices);
    require_1d(weights, "weights");
    if (weights.shape(0) != indices.shape(0))
        throw std::invalid_argument("weights must hold one value per CSR entry (as many as indices)");
    // Safe: reads only the numpy buffers kept alive by the arguments.
    KernelRelease release;
    return count_weighted_triangles<Index>(g.indptr, g.indices, weights.data(), g.n, threads);
}

template <class Index>
py::array_t<double> hyperball_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int log2m,
                                 std::uint64_t seed, std::int64_t max_iterations, int threads) {
    const auto g = csr_view(indptr, indices);
    std::vector<double> nf;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        nf = hyperball<Index>(g.indptr, g.indices, g.n, log2m, seed, max_iterations, threads);
    }
    return to_numpy(std::move(nf));
}

template <class Index>
py::tuple diameter_ifub_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, std::int64_t max_bfs,
                           std::int64_t known) {
    const auto g = csr_view(indptr, indices);
    DiameterResult result;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        result = diameter_ifub<Index>(g.indptr, g.indices, g.n, max_bfs, known);
    }
    return py::make_tuple(result.diameter, result.exact, result.bfs);
}

}  // namespace

void register_stats(py::module_& m) {
    def_widths(m, "count_triangles", &count_triangles_py<std::int32_t>, &count_triangles_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("threads") = 0,
               "(triangles, connected triples) of a CSR graph by degree-ordered orientation");
    def_widths(m, "distance_histogram", &distance_histogram_py<std::int32_t>, &distance_histogram_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("sources").noconvert(),
               py::arg("threads") = 0,
               "Ordered (source, target) pairs per BFS distance 0, 1, ... from the given sources");
    def_widths(m, "directed_distance_histogram", &directed_distance_histogram_py<std::int32_t>,
               &directed_distance_histogram_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("sources").noconvert(), py::arg("threads") = 0,
               "Ordered (source, target) pairs per distance 0, 1, ... along the arcs of an out-CSR");
    def_widths(m, "count_weighted_triangles", &count_weighted_triangles_py<std::int32_t>,
               &count_weighted_triangles_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("weights").noconvert(), py::arg("threads") = 0,
               "Sum over the triangles of a CSR graph of the product of their edges' weights");
    def_widths(m, "hyperball", &hyperball_py<std::int32_t>, &hyperball_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("log2m"), py::arg("seed"), py::arg("max_iterations") = 0,
               py::arg("threads") = 0,
               "HyperBall estimate of the neighbourhood function N(0), N(1), ... (pairs within distance t)");
    def_widths(m, "diameter_ifub", &diameter_ifub_py<std::int32_t>, &diameter_ifub_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("max_bfs"),
               py::arg("known") = 0,
               "(diameter, exact, BFS run) by iFUB from a known lower bound; a lower bound if not exact");
}

}  // namespace graphveil::bind
