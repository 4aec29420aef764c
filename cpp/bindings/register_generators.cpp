#include "convert.hpp"
#include "graphveil/generators.hpp"

namespace graphveil::bind {

namespace {

py::tuple powerlaw_cluster_py(std::int64_t n, const carray<std::int32_t>& edges, double p, std::uint64_t seed,
                              int threads) {
    if (edges.ndim() != 1 || edges.shape(0) != n)
        throw std::invalid_argument("edges must be a 1-d int32 array of length n");
    Csr<std::int32_t> csr;
    {
        // Safe: the kernel reads only the numpy buffer kept alive by `edges`, writes local vectors.
        KernelRelease release;
        csr = powerlaw_cluster(n, edges.data(), p, seed, threads);
    }
    return py::make_tuple(to_numpy(std::move(csr.indptr)), to_numpy(std::move(csr.indices)));
}

}  // namespace

void register_generators(py::module_& m) {
    m.def("powerlaw_cluster", &powerlaw_cluster_py, py::arg("n"), py::arg("edges").noconvert(), py::arg("p"),
          py::arg("seed"), py::arg("threads") = 0,
          "Holme-Kim growth with edges[s] edges for node s; returns CSR (indptr int64, indices int32)");
}

}  // namespace graphveil::bind
