#include <stdexcept>

#include "convert.hpp"
#include "graphveil/sampling.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
std::int64_t check_pairs(const carray<Index>& u, const carray<Index>& v, const carray<double>& p) {
    if (u.ndim() != 1 || v.ndim() != 1 || p.ndim() != 1 || u.shape(0) != v.shape(0) || u.shape(0) != p.shape(0))
        throw std::invalid_argument("u, v and p must be 1-d arrays of the same length");
    return u.shape(0);
}

template <class Index>
py::list sample_csr_py(std::int64_t n, const carray<Index>& u, const carray<Index>& v, const carray<double>& p,
                       std::uint64_t seed, std::int64_t first_sample, std::int64_t count, int threads) {
    const std::int64_t pairs = check_pairs(u, v, p);
    if (n < 0 || first_sample < 0 || count < 0)
        throw std::invalid_argument("n, first_sample and count must be non-negative");
    std::vector<Csr<Index>> samples;
    {
        // Safe: the kernel reads only the numpy buffers held alive by u, v and p and
        // writes vectors it owns.
        py::gil_scoped_release release;
        samples = sample_csr<Index>(n, u.data(), v.data(), p.data(), pairs, seed, first_sample, count, threads);
    }
    py::list out;
    for (auto& csr : samples)
        out.append(py::make_tuple(to_numpy(std::move(csr.indptr)), to_numpy(std::move(csr.indices))));
    return out;
}

template <class Index>
py::tuple sample_edges_py(const carray<Index>& u, const carray<Index>& v, const carray<double>& p,
                          std::uint64_t seed, std::int64_t sample, int threads) {
    const std::int64_t pairs = check_pairs(u, v, p);
    if (sample < 0) throw std::invalid_argument("sample must be non-negative");
    std::vector<Index> out_u, out_v;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        py::gil_scoped_release release;
        sample_edges<Index>(u.data(), v.data(), p.data(), pairs, seed, sample, threads, out_u, out_v);
    }
    return py::make_tuple(to_numpy(std::move(out_u)), to_numpy(std::move(out_v)));
}

template <class Index>
void define(py::module_& m, const char* csr_name, const char* edges_name) {
    m.def(csr_name, &sample_csr_py<Index>, py::arg("n"), py::arg("u").noconvert(), py::arg("v").noconvert(),
          py::arg("p").noconvert(), py::arg("seed"), py::arg("first_sample"), py::arg("count"),
          py::arg("threads") = 0,
          "Simplified samples first_sample .. first_sample+count-1 of canonical sorted pairs, as a list of "
          "(indptr, indices) CSR tuples");
    m.def(edges_name, &sample_edges_py<Index>, py::arg("u").noconvert(), py::arg("v").noconvert(),
          py::arg("p").noconvert(), py::arg("seed"), py::arg("sample"),
          py::arg("threads") = 0, "Kept pairs (u, v) of one sample, in pair order");
}

}  // namespace

void register_sampling(py::module_& m) {
    define<std::int32_t>(m, "sample_csr32", "sample_edges32");
    define<std::int64_t>(m, "sample_csr64", "sample_edges64");
}

}  // namespace graphveil::bind
