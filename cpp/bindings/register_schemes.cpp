// Bindings of the walk-based schemes (walks.hpp), EdgeSwitch (switching.hpp), the
// (k, eps)-obfuscation candidate draw (obfuscation.hpp) and the edge-DP release (dp.hpp).
#include <optional>
#include <stdexcept>
#include <string>

#include <pybind11/stl.h>

#include "convert.hpp"
#include "graphveil/dp.hpp"
#include "graphveil/obfuscation.hpp"
#include "graphveil/switching.hpp"
#include "graphveil/walks.hpp"

namespace graphveil::bind {

namespace {

Routing parse_routing(const std::string& routing) {
    if (routing == "random") return Routing::random;
    if (routing == "fixed") return Routing::fixed;
    throw std::invalid_argument("routing must be 'random' or 'fixed', got '" + routing + "'");
}

template <class Index>
py::tuple pairs_to_py(PairList<Index>&& pairs) {
    return py::make_tuple(to_numpy(std::move(pairs.u)), to_numpy(std::move(pairs.v)));
}

template <class Index>
py::array_t<Index> walk_ends_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                const carray<std::int64_t>& starts, int steps, std::uint64_t seed, int threads) {
    const auto g = csr_view(indptr, indices);
    std::vector<Index> ends;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        ends = walk_ends<Index>(g.indptr, g.indices, g.n, starts.data(), starts.shape(0), steps, seed, threads);
    }
    return to_numpy(std::move(ends));
}

template <class Index>
py::tuple randwalk_mod_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int t, double alpha,
                          const std::string& routing, std::uint64_t seed, int threads) {
    const auto g = csr_view(indptr, indices);
    const Routing r = parse_routing(routing);
    PairList<Index> pairs;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        pairs = randwalk_mod<Index>(g.indptr, g.indices, g.n, t, alpha, r, seed, threads);
    }
    return pairs_to_py(std::move(pairs));
}

template <class Index>
py::tuple randwalk_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int t, double alpha,
                      double degree_one, int max_tries, const std::string& routing, std::uint64_t seed, int threads) {
    const auto g = csr_view(indptr, indices);
    const Routing r = parse_routing(routing);
    RetryWalk<Index> walk;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        walk = randwalk_retry<Index>(g.indptr, g.indices, g.n, t, alpha, degree_one, max_tries, r, seed, threads);
    }
    return py::make_tuple(to_numpy(std::move(walk.pairs.u)), to_numpy(std::move(walk.pairs.v)), walk.failed, walk.lost);
}

template <class Index>
py::tuple randwalk_directed_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, int t, int max_tries,
                               std::uint64_t seed, int threads) {
    const auto g = csr_view(indptr, indices);
    DirectedWalk<Index> walk;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        walk = randwalk_directed<Index>(g.indptr, g.indices, g.n, t, max_tries, seed, threads);
    }
    return py::make_tuple(to_numpy(std::move(walk.pairs.u)), to_numpy(std::move(walk.pairs.v)), walk.failed,
                          walk.dead);
}

template <class Index>
py::tuple edge_switch_py(const carray<std::int64_t>& indptr, const carray<Index>& indices, std::int64_t switches,
                         bool nearby, std::uint64_t seed, bool directed, bool dyads) {
    const auto g = csr_view(indptr, indices);
    SwitchResult<Index> result;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        result = edge_switch<Index>(g.indptr, g.indices, g.n, switches, nearby, seed, directed, dyads);
    }
    return py::make_tuple(to_numpy(std::move(result.u)), to_numpy(std::move(result.v)), result.performed);
}

py::tuple draw_candidates_py(const carray<std::int64_t>& edge_keys, std::int64_t n, const carray<std::int64_t>& pool,
                             const carray<double>& weights, std::int64_t target, std::int64_t max_draws,
                             std::uint64_t seed, bool directed) {
    if (pool.shape(0) != weights.shape(0)) throw std::invalid_argument("pool and weights must have the same length");
    CandidateDraw draw;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes local vectors.
        KernelRelease release;
        draw = draw_candidates(edge_keys.data(), edge_keys.shape(0), n, pool.data(), weights.data(), pool.shape(0),
                               target, max_draws, seed, directed);
    }
    return py::make_tuple(to_numpy(std::move(draw.removed)), to_numpy(std::move(draw.added)), draw.draws);
}

py::tuple release_pairs_py(const carray<std::int64_t>& edge_keys, std::int64_t n, double p_keep, std::int64_t added,
                           std::uint64_t seed, int threads) {
    require_1d(edge_keys, "edge_keys");
    PairRelease release;
    {
        // Safe: reads a numpy buffer kept alive by the argument, writes local vectors.
        KernelRelease unlock;
        release = release_pairs(edge_keys.data(), edge_keys.shape(0), n, p_keep, added, seed, threads);
    }
    return py::make_tuple(to_numpy(std::move(release.kept)), to_numpy(std::move(release.added)));
}

template <class Index>
py::array_t<double> csr_dense_product_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                                         const std::optional<carray<double>>& data, const carray<double>& x) {
    const auto g = csr_view(indptr, indices);
    if (x.ndim() != 2) throw std::invalid_argument("x must be a 2-d array (rows, block width)");
    if (data && (data->ndim() != 1 || data->shape(0) != indices.shape(0)))
        throw std::invalid_argument("data must be a 1-d array as long as indices");
    const std::int64_t cols = x.shape(0), width = x.shape(1);
    for (std::int64_t k = 0; k < indices.shape(0); ++k)
        if (g.indices[k] < 0 || g.indices[k] >= cols)
            throw std::invalid_argument("a column index lies outside the rows of x");
    py::array_t<double> out({static_cast<py::ssize_t>(g.n), static_cast<py::ssize_t>(width)});
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the new array.
        KernelRelease release;
        csr_dense_product<Index>(g.indptr, g.indices, data ? data->data() : nullptr, g.n, x.data(), width,
                                 out.mutable_data());
    }
    return out;
}

}  // namespace

void register_schemes(py::module_& m) {
    def_widths(m, "walk_ends", &walk_ends_py<std::int32_t>, &walk_ends_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("starts").noconvert(), py::arg("steps"), py::arg("seed"),
               py::arg("threads") = 0, "End node of a uniform random walk of `steps` hops from each start node");
    def_widths(m, "randwalk_mod", &randwalk_mod_py<std::int32_t>, &randwalk_mod_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("t"), py::arg("alpha"),
               py::arg("routing"), py::arg("seed"), py::arg("threads") = 0,
               "Printed RandWalk-mod pairs (u, z), self-loops and repeats kept, in slot order");
    def_widths(m, "randwalk", &randwalk_py<std::int32_t>, &randwalk_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("t"), py::arg("alpha"), py::arg("degree_one"),
               py::arg("max_tries"), py::arg("routing"), py::arg("seed"), py::arg("threads") = 0,
               "Retrying walk on one shared output graph: (u, z, failed walks, their expected edges)");
    def_widths(m, "randwalk_directed", &randwalk_directed_py<std::int32_t>, &randwalk_directed_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("t"), py::arg("max_tries"),
               py::arg("seed"), py::arg("threads") = 0,
               "Retrying walk along out-links: (u, z arcs, failed arcs, walks that died at a node without out-arcs)");
    def_widths(m, "edge_switch", &edge_switch_py<std::int32_t>, &edge_switch_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("switches"), py::arg("nearby"),
               py::arg("seed"), py::arg("directed") = false, py::arg("dyads") = false,
               "Switched edge arrays (u < v, unsorted; arcs u -> v when directed) and the number of performed switches; "
               "dyads: the dyad-aware directed chain (mutual dyads kept)");
    def_widths(m, "csr_dense_product", &csr_dense_product_py<std::int32_t>, &csr_dense_product_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("data").noconvert(),
               py::arg("x").noconvert(), "M x for a CSR matrix M (data None: all ones) and a dense row-major block x");
    m.def("draw_candidates", &draw_candidates_py, py::arg("edge_keys").noconvert(), py::arg("n"),
          py::arg("pool").noconvert(), py::arg("weights").noconvert(), py::arg("target"), py::arg("max_draws"),
          py::arg("seed"), py::arg("directed") = false,
          "(k, eps)-obfuscation candidate draw: (removed edge keys, added pair keys, draws); ordered pairs when "
          "directed");
    m.def("release_pairs", &release_pairs_py, py::arg("edge_keys").noconvert(), py::arg("n"), py::arg("p_keep"),
          py::arg("added"), py::arg("seed"), py::arg("threads") = 0,
          "Edge-DP release: (kept edge keys in input order, `added` distinct uniform non-edge keys)");
}

}  // namespace graphveil::bind
