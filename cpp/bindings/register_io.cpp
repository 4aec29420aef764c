#include "convert.hpp"
#include "graphveil/edgelist.hpp"

namespace graphveil::bind {

namespace {

// Any object with the buffer protocol (bytes, bytearray, memoryview, mmap).
py::tuple parse_edgelist_py(const py::buffer& text, int threads) {
    const py::buffer_info info = text.request();
    if (info.ndim != 1 || info.itemsize != 1) throw std::invalid_argument("parse_edgelist expects a 1-d byte buffer");
    EdgeListPairs pairs;
    {
        // Safe: reads only the buffer, which `text` (and `info`) keep alive and which nothing
        // else mutates during the call (the caller passes its own bytes object).
        KernelRelease release;
        pairs = parse_edgelist(static_cast<const char*>(info.ptr), static_cast<std::size_t>(info.size), threads);
    }
    return py::make_tuple(to_numpy(std::move(pairs.u)), to_numpy(std::move(pairs.v)), pairs.lines);
}

py::tuple parse_weighted_edgelist_py(const py::buffer& text, int threads) {
    const py::buffer_info info = text.request();
    if (info.ndim != 1 || info.itemsize != 1)
        throw std::invalid_argument("parse_weighted_edgelist expects a 1-d byte buffer");
    WeightedPairs pairs;
    {
        // Safe: as parse_edgelist_py, reads only the caller's buffer.
        py::gil_scoped_release release;
        pairs = parse_weighted_edgelist(static_cast<const char*>(info.ptr), static_cast<std::size_t>(info.size),
                                        threads);
    }
    return py::make_tuple(to_numpy(std::move(pairs.pairs.u)), to_numpy(std::move(pairs.pairs.v)),
                          to_numpy(std::move(pairs.p)), pairs.pairs.lines);
}

py::array_t<std::int64_t> relabel_ascending_py(carray<std::int64_t>& u, carray<std::int64_t>& v,
                                               const carray<std::int64_t>& extra, int threads) {
    if (u.ndim() != 1 || v.ndim() != 1 || extra.ndim() != 1 || u.shape(0) != v.shape(0))
        throw std::invalid_argument("u and v must be 1-d arrays of the same length, extra 1-d");
    std::int64_t* pu = u.mutable_data();
    std::int64_t* pv = v.mutable_data();
    std::vector<std::int64_t> labels;
    {
        // Safe: writes only u and v and reads extra, numpy buffers held alive by the arguments.
        KernelRelease release;
        labels = relabel_ascending(pu, pv, u.shape(0), extra.data(), extra.shape(0), threads);
    }
    return to_numpy(std::move(labels));
}

std::int64_t count_directed_pairs_py(std::int64_t n, const carray<std::int64_t>& u, const carray<std::int64_t>& v,
                                     int threads) {
    if (u.ndim() != 1 || v.ndim() != 1 || u.shape(0) != v.shape(0))
        throw std::invalid_argument("u and v must be 1-d arrays of the same length");
    // Safe: reads numpy buffers kept alive by the arguments, allocates only local vectors.
    KernelRelease release;
    return count_directed_pairs(n, u.data(), v.data(), u.shape(0), threads);
}

py::array_t<std::uint8_t> format_edgelist_py(const carray<std::int64_t>& u, const carray<std::int64_t>& v,
                                             char delimiter, int threads) {
    if (u.ndim() != 1 || v.ndim() != 1 || u.shape(0) != v.shape(0))
        throw std::invalid_argument("u and v must be 1-d arrays of the same length");
    std::vector<std::uint8_t> text;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        text = format_edgelist(u.data(), v.data(), u.shape(0), delimiter, threads);
    }
    return to_numpy(std::move(text));
}

}  // namespace

void register_io(py::module_& m) {
    m.def("parse_edgelist", &parse_edgelist_py, py::arg("text"), py::arg("threads") = 0,
          "Parse SNAP-style edge lines; returns (u, v, lines) with the original int64 ids");
    m.def("parse_weighted_edgelist", &parse_weighted_edgelist_py, py::arg("text"), py::arg("threads") = 0,
          "Parse 'u v p' lines; returns (u, v, p, lines): int64 ids, float64 p");
    m.def("relabel_ascending", &relabel_ascending_py, py::arg("u").noconvert(), py::arg("v").noconvert(),
          py::arg("extra").noconvert(), py::arg("threads") = 0,
          "Replace ids in u, v (in place) by their rank among the distinct ids of u, v, extra; returns those ids");
    m.def("count_directed_pairs", &count_directed_pairs_py, py::arg("n"), py::arg("u").noconvert(),
          py::arg("v").noconvert(), py::arg("threads") = 0, "Distinct ordered pairs (u, v) with u != v");
    m.def("format_edgelist", &format_edgelist_py, py::arg("u").noconvert(), py::arg("v").noconvert(),
          py::arg("delimiter"), py::arg("threads") = 0, "Text 'u<delimiter>v\\n' per pair as a uint8 array");
}

}  // namespace graphveil::bind
