// Bindings of the attacks (attack.hpp). Each kernel is registered once per index width under one
// name; .noconvert() lets pybind11 pick the overload matching the arrays' dtype without copying.
#include <stdexcept>
#include <vector>

#include "convert.hpp"
#include "graphveil/attack.hpp"
#include "graphveil/matching.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple link_counts_py(const carray<Index>& pu, const carray<Index>& pv, const carray<double>& p,
                         const carray<Index>& eu, const carray<Index>& ev) {
    if (pu.ndim() != 1 || pv.ndim() != 1 || p.ndim() != 1 || pu.shape(0) != pv.shape(0) || pu.shape(0) != p.shape(0))
        throw std::invalid_argument("u, v and p must be 1-d arrays of one length");
    if (eu.ndim() != 1 || ev.ndim() != 1 || eu.shape(0) != ev.shape(0))
        throw std::invalid_argument("edge arrays must be 1-d arrays of one length");
    LinkCounts c;
    {
        // Safe: reads only numpy buffers kept alive by the arguments; writes local memory.
        KernelRelease release;
        c = link_counts<Index>(pu.data(), pv.data(), p.data(), pu.shape(0), eu.data(), ev.data(), eu.shape(0));
    }
    return py::make_tuple(c.pairs, c.positives, c.auc2, c.top_k, c.top_hits, c.likely, c.likely_hits);
}

template <class Index>
py::tuple propagate_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                       const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a, const carray<Index>& seeds,
                       double theta, double degree_ratio, bool all_nodes, std::int64_t max_rounds, int threads) {
    const auto target = csr_view(indptr_t, indices_t);
    const auto aux = csr_view(indptr_a, indices_a);
    if (seeds.ndim() != 1 || seeds.shape(0) != target.n)
        throw std::invalid_argument("the seed mapping must hold one entry per target node");
    std::vector<Index> mapping(seeds.data(), seeds.data() + target.n);
    PropagationStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        const auto eccentricity = all_nodes ? Eccentricity::kAllNodes : Eccentricity::kScored;
        stats = propagate<Index>(target, aux, mapping.data(), theta, degree_ratio, eccentricity, max_rounds, threads);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped);
}

template <class Index>
std::vector<Index> seed_mapping(const CsrView<Index>& target, const carray<Index>& seeds) {
    if (seeds.ndim() != 1 || seeds.shape(0) != target.n)
        throw std::invalid_argument("the seed mapping must hold one entry per target node");
    return std::vector<Index>(seeds.data(), seeds.data() + target.n);
}

template <class Index>
py::tuple percolate_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                       const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a, const carray<Index>& seeds,
                       std::int64_t r, bool expand_when_stuck, std::int64_t max_spread, std::int64_t max_noisy) {
    const auto target = csr_view(indptr_t, indices_t);
    const auto aux = csr_view(indptr_a, indices_a);
    std::vector<Index> mapping = seed_mapping(target, seeds);
    MatchingStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        stats = percolate<Index>(target, aux, mapping.data(), r, expand_when_stuck, max_spread, max_noisy);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped, stats.marked);
}

template <class Index>
py::tuple reconcile_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                       const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a, const carray<Index>& seeds,
                       std::int64_t threshold, std::int64_t iterations, std::int64_t max_row, int threads) {
    const auto target = csr_view(indptr_t, indices_t);
    const auto aux = csr_view(indptr_a, indices_a);
    std::vector<Index> mapping = seed_mapping(target, seeds);
    MatchingStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        stats = reconcile<Index>(target, aux, mapping.data(), threshold, iterations, max_row, threads);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped);
}

}  // namespace

void register_attack(py::module_& m) {
    def_widths(m, "link_counts", &link_counts_py<std::int32_t>, &link_counts_py<std::int64_t>, py::arg("u").noconvert(),
               py::arg("v").noconvert(), py::arg("p").noconvert(), py::arg("edge_u").noconvert(),
               py::arg("edge_v").noconvert(),
               "Link inference counts: (pairs, positives, auc2, top_k, top_hits, likely, likely_hits)");
    def_widths(m, "propagate", &propagate_py<std::int32_t>, &propagate_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("aux_indptr").noconvert(), py::arg("aux_indices").noconvert(),
               py::arg("seeds").noconvert(), py::arg("theta"), py::arg("degree_ratio"), py::arg("all_nodes"),
               py::arg("max_rounds"), py::arg("threads") = 0,
               "Seed-and-extend propagation (all_nodes: eccentricity std over every node, as NS 2009, else over "
               "the scored candidates); returns (mapping target -> aux or -1, rounds, mapped)");
    def_widths(m, "percolate", &percolate_py<std::int32_t>, &percolate_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("aux_indptr").noconvert(), py::arg("aux_indices").noconvert(),
               py::arg("seeds").noconvert(), py::arg("r"), py::arg("expand_when_stuck"), py::arg("max_spread"),
               py::arg("max_noisy"),
               "Percolation graph matching (ExpandWhenStuck when asked); returns (mapping target -> aux or -1, "
               "rounds, mapped, marked pairs)");
    def_widths(m, "reconcile", &reconcile_py<std::int32_t>, &reconcile_py<std::int64_t>, py::arg("indptr").noconvert(),
               py::arg("indices").noconvert(), py::arg("aux_indptr").noconvert(), py::arg("aux_indices").noconvert(),
               py::arg("seeds").noconvert(), py::arg("threshold"), py::arg("iterations"), py::arg("max_row"),
               py::arg("threads") = 0,
               "Korula-Lattanzi reconciliation by degree buckets; returns (mapping target -> aux or -1, rounds, "
               "mapped)");
}

}  // namespace graphveil::bind
