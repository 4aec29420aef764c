// Bindings of the directed propagation (attack_directed.hpp), registered once per index width
// under one name; .noconvert() picks the overload matching the arrays' dtype without copying.
#include <stdexcept>
#include <vector>

#include "convert.hpp"
#include "graphveil/attack_directed.hpp"
#include "graphveil/matching.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::tuple propagate_directed_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                                const carray<std::int64_t>& in_indptr_t, const carray<Index>& in_indices_t,
                                const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a,
                                const carray<std::int64_t>& in_indptr_a, const carray<Index>& in_indices_a,
                                const carray<Index>& seeds, double theta, double degree_ratio, bool all_nodes,
                                std::int64_t max_rounds, int threads) {
    const DigraphView<Index> target{csr_view(indptr_t, indices_t), csr_view(in_indptr_t, in_indices_t)};
    const DigraphView<Index> aux{csr_view(indptr_a, indices_a), csr_view(in_indptr_a, in_indices_a)};
    if (seeds.ndim() != 1 || seeds.shape(0) != target.out.n)
        throw std::invalid_argument("the seed mapping must hold one entry per target node");
    std::vector<Index> mapping(seeds.data(), seeds.data() + target.out.n);
    PropagationStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        const auto eccentricity = all_nodes ? Eccentricity::kAllNodes : Eccentricity::kScored;
        stats = propagate_directed<Index>(target, aux, mapping.data(), theta, degree_ratio, eccentricity, max_rounds,
                                          threads);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped);
}

template <class Index>
py::tuple percolate_directed_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                                const carray<std::int64_t>& in_indptr_t, const carray<Index>& in_indices_t,
                                const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a,
                                const carray<std::int64_t>& in_indptr_a, const carray<Index>& in_indices_a,
                                const carray<Index>& seeds, std::int64_t r, bool expand_when_stuck,
                                std::int64_t max_spread, std::int64_t max_noisy) {
    const DigraphView<Index> target{csr_view(indptr_t, indices_t), csr_view(in_indptr_t, in_indices_t)};
    const DigraphView<Index> aux{csr_view(indptr_a, indices_a), csr_view(in_indptr_a, in_indices_a)};
    if (seeds.ndim() != 1 || seeds.shape(0) != target.out.n)
        throw std::invalid_argument("the seed mapping must hold one entry per target node");
    std::vector<Index> mapping(seeds.data(), seeds.data() + target.out.n);
    MatchingStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        stats = percolate_directed<Index>(target, aux, mapping.data(), r, expand_when_stuck, max_spread, max_noisy);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped, stats.marked);
}

template <class Index>
py::tuple reconcile_directed_py(const carray<std::int64_t>& indptr_t, const carray<Index>& indices_t,
                                const carray<std::int64_t>& in_indptr_t, const carray<Index>& in_indices_t,
                                const carray<std::int64_t>& indptr_a, const carray<Index>& indices_a,
                                const carray<std::int64_t>& in_indptr_a, const carray<Index>& in_indices_a,
                                const carray<Index>& seeds, std::int64_t threshold, std::int64_t iterations,
                                std::int64_t max_row, int threads) {
    const DigraphView<Index> target{csr_view(indptr_t, indices_t), csr_view(in_indptr_t, in_indices_t)};
    const DigraphView<Index> aux{csr_view(indptr_a, indices_a), csr_view(in_indptr_a, in_indices_a)};
    if (seeds.ndim() != 1 || seeds.shape(0) != target.out.n)
        throw std::invalid_argument("the seed mapping must hold one entry per target node");
    std::vector<Index> mapping(seeds.data(), seeds.data() + target.out.n);
    MatchingStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes the local mapping.
        KernelRelease release;
        stats = reconcile_directed<Index>(target, aux, mapping.data(), threshold, iterations, max_row, threads);
    }
    return py::make_tuple(to_numpy(std::move(mapping)), stats.rounds, stats.mapped);
}

}  // namespace

void register_attack_directed(py::module_& m) {
    def_widths(m, "propagate_directed", &propagate_directed_py<std::int32_t>, &propagate_directed_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("in_indptr").noconvert(),
               py::arg("in_indices").noconvert(), py::arg("aux_indptr").noconvert(),
               py::arg("aux_indices").noconvert(), py::arg("aux_in_indptr").noconvert(),
               py::arg("aux_in_indices").noconvert(), py::arg("seeds").noconvert(), py::arg("theta"),
               py::arg("degree_ratio"), py::arg("all_nodes"), py::arg("max_rounds"), py::arg("threads") = 0,
               "Seed-and-extend propagation on directed graphs (out- and in-CSR of the target, then of the aux "
               "graph), in- and out-neighbours scored apart; returns (mapping target -> aux or -1, rounds, mapped)");
    def_widths(m, "percolate_directed", &percolate_directed_py<std::int32_t>, &percolate_directed_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("in_indptr").noconvert(),
               py::arg("in_indices").noconvert(), py::arg("aux_indptr").noconvert(),
               py::arg("aux_indices").noconvert(), py::arg("aux_in_indptr").noconvert(),
               py::arg("aux_in_indices").noconvert(), py::arg("seeds").noconvert(), py::arg("r"),
               py::arg("expand_when_stuck"), py::arg("max_spread"), py::arg("max_noisy"),
               "Percolation graph matching on directed graphs (marks along out-arcs and in-arcs apart); returns "
               "(mapping target -> aux or -1, rounds, mapped, marked pairs)");
    def_widths(m, "reconcile_directed", &reconcile_directed_py<std::int32_t>, &reconcile_directed_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("in_indptr").noconvert(),
               py::arg("in_indices").noconvert(), py::arg("aux_indptr").noconvert(),
               py::arg("aux_indices").noconvert(), py::arg("aux_in_indptr").noconvert(),
               py::arg("aux_in_indices").noconvert(), py::arg("seeds").noconvert(), py::arg("threshold"),
               py::arg("iterations"), py::arg("max_row"), py::arg("threads") = 0,
               "Korula-Lattanzi reconciliation on directed graphs (out- and in-witnesses summed); returns "
               "(mapping target -> aux or -1, rounds, mapped)");
}

}  // namespace graphveil::bind
