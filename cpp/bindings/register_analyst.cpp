#include <stdexcept>

#include "convert.hpp"
#include "graphveil/analyst.hpp"
#include "graphveil/leiden.hpp"
#include "graphveil/statistics.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple local_triangles_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int threads) {
    const auto g = csr_view(indptr, indices);
    std::vector<std::int64_t> per_node(static_cast<std::size_t>(g.n));
    TriangleCounts counts;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments, writes per_node.
        KernelRelease release;
        counts = count_triangles<Index>(g.indptr, g.indices, g.n, threads, per_node.data());
    }
    return py::make_tuple(counts.triangles, to_numpy(std::move(per_node)));
}

template <class Index>
py::tuple pagerank_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, double damping, double tol,
                      std::int64_t max_iter, int threads) {
    const auto g = csr_view(indptr, indices);
    if (!(damping >= 0.0 && damping < 1.0)) throw std::invalid_argument("damping must be in [0, 1)");
    PageRankResult result;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        result = pagerank<Index>(g.indptr, g.indices, g.n, damping, tol, max_iter, threads);
    }
    return py::make_tuple(to_numpy(std::move(result.rank)), result.iterations);
}

template <class Index>
py::tuple top_eigenvector_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, double tol,
                             std::int64_t max_steps, int threads) {
    const auto g = csr_view(indptr, indices);
    EigenResult result;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        result = top_eigenvector<Index>(g.indptr, g.indices, g.n, tol, max_steps, threads);
    }
    return py::make_tuple(to_numpy(std::move(result.vector)), result.value, result.steps, result.converged,
                          result.residual);
}

template <class Index>
std::int64_t influence_reach_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                const carray<std::int64_t>& seeds, double p, std::int64_t runs, std::uint64_t seed,
                                int threads) {
    const auto g = csr_view(indptr, indices);
    require_1d(seeds, "seeds");
    // Safe: reads only the numpy buffers kept alive by the arguments.
    KernelRelease release;
    return influence_reach<Index>(g.indptr, g.indices, g.n, seeds.data(), seeds.shape(0), p, runs, seed, threads);
}

template <class Index>
py::tuple leiden_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, double resolution,
                    std::int64_t iterations, std::uint64_t seed) {
    const auto g = csr_view(indptr, indices);
    LeidenResult result;
    {
        // Safe: reads only the numpy buffers kept alive by the arguments.
        KernelRelease release;
        result = leiden_modularity<Index>(g.indptr, g.indices, g.n, resolution, iterations, seed);
    }
    return py::make_tuple(to_numpy(std::move(result.membership)), result.levels);
}

}  // namespace

void register_analyst(py::module_& m) {
    def_widths(m, "local_triangles", &local_triangles_py<std::int32_t>, &local_triangles_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("threads") = 0,
               "(triangles, triangles through each node) of a CSR graph (count_triangles' orientation)");
    def_widths(m, "pagerank", &pagerank_py<std::int32_t>, &pagerank_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("damping"), py::arg("tol"), py::arg("max_iter"),
               py::arg("threads") = 0, "(PageRank summing to 1, steps) by power iteration, L1 stopping rule");
    def_widths(m, "top_eigenvector", &top_eigenvector_py<std::int32_t>, &top_eigenvector_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("tol"), py::arg("max_steps"),
               py::arg("threads") = 0,
               "(unit eigenvector, eigenvalue, steps, converged, residual) of the adjacency's largest eigenvalue");
    def_widths(m, "influence_reach", &influence_reach_py<std::int32_t>, &influence_reach_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("seeds").noconvert(),
               py::arg("p"), py::arg("runs"), py::arg("seed"), py::arg("threads") = 0,
               "Nodes active at the end of `runs` independent cascades from `seeds`, summed over the runs");
    def_widths(m, "leiden", &leiden_py<std::int32_t>, &leiden_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("resolution"), py::arg("iterations"), py::arg("seed"),
               "(community of each node, aggregation levels) by Leiden maximising modularity, seeded");
}

}  // namespace graphveil::bind
