#include <stdexcept>

#include "convert.hpp"
#include "graphveil/sampling.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::list sample_csr_py(std::int64_t n, const carray<Index>& u, const carray<Index>& v, const carray<double>& p,
                       std::uint64_t seed, std::int64_t first_sample, std::int64_t count, int threads) {
    const auto pr = pair_view(n, u, v, &p);
    if (first_sample < 0 || count < 0) throw std::invalid_argument("first_sample and count must be non-negative");
    std::vector<Csr<Index>> samples;
    {
        // Safe: the kernel reads only the numpy buffers held alive by u, v and p and
        // writes vectors it owns.
        KernelRelease release;
        samples = sample_csr<Index>(n, pr.u, pr.v, pr.p, pr.count, seed, first_sample, count, threads);
    }
    py::list out;
    for (auto& csr : samples)
        out.append(py::make_tuple(to_numpy(std::move(csr.indptr)), to_numpy(std::move(csr.indices))));
    return out;
}

template <class Index>
py::tuple sample_edges_py(std::int64_t n, const carray<Index>& u, const carray<Index>& v, const carray<double>& p,
                          std::uint64_t seed, std::int64_t sample, int threads) {
    const auto pr = pair_view(n, u, v, &p);
    if (sample < 0) throw std::invalid_argument("sample must be non-negative");
    std::vector<Index> out_u, out_v;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        sample_edges<Index>(pr.u, pr.v, pr.p, pr.count, seed, sample, threads, out_u, out_v);
    }
    return py::make_tuple(to_numpy(std::move(out_u)), to_numpy(std::move(out_v)));
}

}  // namespace

void register_sampling(py::module_& m) {
    def_widths(m, "sample_csr", &sample_csr_py<std::int32_t>, &sample_csr_py<std::int64_t>, py::arg("n"),
               py::arg("u").noconvert(), py::arg("v").noconvert(), py::arg("p").noconvert(), py::arg("seed"),
               py::arg("first_sample"), py::arg("count"), py::arg("threads") = 0,
               "Simplified samples first_sample .. first_sample+count-1 of canonical sorted pairs, as a list of "
               "(indptr, indices) CSR tuples");
    def_widths(m, "sample_edges", &sample_edges_py<std::int32_t>, &sample_edges_py<std::int64_t>, py::arg("n"),
               py::arg("u").noconvert(), py::arg("v").noconvert(), py::arg("p").noconvert(), py::arg("seed"),
               py::arg("sample"), py::arg("threads") = 0, "Kept pairs (u, v) of one sample, in pair order");
}

}  // namespace graphveil::bind
