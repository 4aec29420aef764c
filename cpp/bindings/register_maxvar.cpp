#include <stdexcept>
#include <string>

#include "convert.hpp"
#include "graphveil/maxvar_directed.hpp"
#include "graphveil/maxvar_dual.hpp"
#include "graphveil/proposal.hpp"

namespace graphveil::bind {

namespace {

template <class Index>
py::dict split_parts_py(const carray<std::int64_t>& indptr, const carray<Index>& indices,
                        const carray<std::int64_t>& labels, std::int64_t parts, int threads, bool directed) {
    const auto g = csr_view(indptr, indices);
    const std::int64_t n = g.n;
    require_1d(labels, "labels");
    if (labels.shape(0) != n) throw std::invalid_argument("labels must hold one entry per node");
    if (parts < 1) throw std::invalid_argument("parts must be positive");
    const std::int64_t* lab = labels.data();
    for (std::int64_t x = 0; x < n; ++x)
        if (lab[x] < 0 || lab[x] >= parts) throw std::invalid_argument("labels must lie in 0..parts-1");
    PartLayout<Index> layout;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local struct.
        KernelRelease release;
        layout = split_parts<Index>(n, g.indptr, g.indices, lab, parts, threads, directed);
    }
    py::dict out;
    out["node_ptr"] = to_numpy(std::move(layout.node_ptr));
    out["order"] = to_numpy(std::move(layout.order));
    out["local_indptr"] = to_numpy(std::move(layout.local_indptr));
    out["local_indices"] = to_numpy(std::move(layout.local_indices));
    out["edge_ptr"] = to_numpy(std::move(layout.edge_ptr));
    out["edge_u"] = to_numpy(std::move(layout.edge_u));
    out["edge_v"] = to_numpy(std::move(layout.edge_v));
    out["cut_u"] = to_numpy(std::move(layout.cut_u));
    out["cut_v"] = to_numpy(std::move(layout.cut_v));
    return out;
}

template <class Index>
py::tuple propose_py(const carray<std::int64_t>& node_ptr, const carray<std::int64_t>& local_indptr,
                     const carray<Index>& local_indices, const carray<std::int64_t>& requested, std::uint64_t seed,
                     std::int64_t attempts_per_request, int threads, bool directed) {
    require_1d(node_ptr, "node_ptr");
    const std::int64_t parts = node_ptr.shape(0) - 1;
    if (parts < 0 || requested.ndim() != 1 || requested.shape(0) != parts)
        throw std::invalid_argument("requested must hold one count per part");
    const auto local = csr_view(local_indptr, local_indices);
    if (local.n != node_ptr.data()[parts]) throw std::invalid_argument("local_indptr must have n + 1 entries");
    for (std::int64_t i = 0; i < parts; ++i)
        if (requested.data()[i] < 0) throw std::invalid_argument("requested counts must be non-negative");
    Proposals<Index> found;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local struct.
        KernelRelease release;
        found = propose_friend_of_friend<Index>(parts, node_ptr.data(), local.indptr, local.indices, requested.data(),
                                                seed, attempts_per_request, threads, directed);
    }
    std::vector<std::int64_t> counts;
    counts.reserve(static_cast<std::size_t>(4 * parts));
    for (const auto& c : found.counts) counts.insert(counts.end(), {c.requested, c.found, c.attempts, c.available});
    auto table = to_numpy(std::move(counts));
    return py::make_tuple(to_numpy(std::move(found.ptr)), to_numpy(std::move(found.a)), to_numpy(std::move(found.b)),
                          table.reshape({parts, std::int64_t{4}}));
}

py::dict stats_dict(const QpStats& s) {
    py::dict d;
    d["iterations"] = s.iterations;
    d["cg_iterations"] = s.cg_iterations;
    d["repair_iterations"] = s.repair_iterations;
    d["evaluations"] = s.evaluations;
    d["projection_iterations"] = s.projection_iterations;
    d["raw_eq_residual"] = s.raw_eq_residual;
    d["raw_box_residual"] = s.raw_box_residual;
    d["eq_residual"] = s.eq_residual;
    d["box_residual"] = s.box_residual;
    d["objective"] = s.objective;
    d["dual_objective"] = s.dual_objective;
    d["converged"] = s.converged;
    return d;
}

// The QP's pairs and degree targets: pairs join distinct nodes in 0..n-1, one degree per node.
template <class Index>
PairView<Index> qp_pairs(std::int64_t n, const carray<Index>& pu, const carray<Index>& pv,
                         const carray<double>& degree) {
    const auto pairs = pair_view(n, pu, pv, nullptr, PairCheck::ids);
    require_1d(degree, "degree");
    if (degree.shape(0) != n) throw std::invalid_argument("degree must hold one entry per node");
    return pairs;
}

template <class Index>
py::tuple dual_py(std::int64_t n, const carray<Index>& pu, const carray<Index>& pv, const carray<double>& degree,
                  double tol, std::int64_t max_newton, std::int64_t max_cg) {
    const auto pairs = qp_pairs(n, pu, pv, degree);
    QpOptions options;
    options.tol = tol;
    options.max_newton = max_newton;
    options.max_cg = max_cg;
    std::vector<double> p(static_cast<std::size_t>(pu.shape(0)));
    QpStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        stats = maxvar_dual_solve<Index>(n, pairs.count, pairs.u, pairs.v, degree.data(), p.data(), options);
    }
    return py::make_tuple(to_numpy(std::move(p)), stats_dict(stats));
}

template <class Index>
py::tuple repair_py(std::int64_t n, const carray<Index>& pu, const carray<Index>& pv, const carray<double>& degree,
                    const carray<double>& p_in, double tol, std::int64_t max_rounds, std::int64_t max_cg) {
    const auto pairs = qp_pairs(n, pu, pv, degree);
    require_1d(p_in, "p");
    if (p_in.shape(0) != pu.shape(0)) throw std::invalid_argument("p must hold one entry per pair");
    std::vector<double> p(p_in.data(), p_in.data() + p_in.shape(0));
    QpStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        repair_equalities<Index>(n, pairs.count, pairs.u, pairs.v, degree.data(), p.data(), tol, max_rounds, max_cg,
                                 stats);
    }
    return py::make_tuple(to_numpy(std::move(p)), stats_dict(stats));
}

// A directed part's arcs and degree targets: arcs join distinct nodes in 0..n-1, one out- and one
// in-degree per node.
template <class Index>
PairView<Index> directed_arcs(std::int64_t n, const carray<Index>& tails, const carray<Index>& heads,
                              const carray<double>& out_degree, const carray<double>& in_degree) {
    const auto arcs = pair_view(n, tails, heads, nullptr, PairCheck::ids);
    require_1d(out_degree, "out_degree");
    require_1d(in_degree, "in_degree");
    if (out_degree.shape(0) != n || in_degree.shape(0) != n)
        throw std::invalid_argument("out_degree and in_degree must hold one entry per node");
    return arcs;
}

template <class Index>
py::tuple fixed_arcs_py(std::int64_t n, const carray<Index>& tails, const carray<Index>& heads,
                        const carray<double>& out_degree, const carray<double>& in_degree) {
    const auto arcs = directed_arcs(n, tails, heads, out_degree, in_degree);
    std::vector<signed char> status;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        status = fixed_arcs<Index>(n, arcs.count, arcs.u, arcs.v, out_degree.data(), in_degree.data());
    }
    py::array_t<bool> mask(static_cast<py::ssize_t>(status.size()));
    py::array_t<double> value(static_cast<py::ssize_t>(status.size()));
    for (std::size_t k = 0; k < status.size(); ++k) {
        mask.mutable_data()[k] = status[k] >= 0;
        value.mutable_data()[k] = status[k] > 0 ? 1.0 : 0.0;
    }
    return py::make_tuple(mask, value);
}

template <class Index>
py::tuple directed_py(std::int64_t n, const carray<Index>& tails, const carray<Index>& heads,
                      const carray<double>& out_degree, const carray<double>& in_degree, double tol,
                      std::int64_t max_newton, std::int64_t max_cg) {
    const auto arcs = directed_arcs(n, tails, heads, out_degree, in_degree);
    QpOptions options;
    options.tol = tol;
    options.max_newton = max_newton;
    options.max_cg = max_cg;
    std::vector<double> p(static_cast<std::size_t>(arcs.count));
    DirectedQpStats stats;
    {
        // Safe: reads numpy buffers kept alive by the arguments, writes a local vector.
        KernelRelease release;
        stats = maxvar_directed_solve<Index>(n, arcs.count, arcs.u, arcs.v, out_degree.data(), in_degree.data(),
                                             p.data(), options);
    }
    py::dict d = stats_dict(stats.qp);
    d["flow_fixed"] = stats.flow_fixed;
    d["components"] = stats.components;
    return py::make_tuple(to_numpy(std::move(p)), d);
}

}  // namespace

void register_maxvar(py::module_& m) {
    def_widths(m, "split_parts", &split_parts_py<std::int32_t>, &split_parts_py<std::int64_t>,
               py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("labels").noconvert(),
               py::arg("parts"), py::arg("threads") = 0, py::arg("directed") = false,
               "Group nodes by part; the induced subgraph of every part in local ids and the cut edges (arcs when "
               "directed)");
    def_widths(m, "propose_fof", &propose_py<std::int32_t>, &propose_py<std::int64_t>, py::arg("node_ptr").noconvert(),
               py::arg("local_indptr").noconvert(), py::arg("local_indices").noconvert(),
               py::arg("requested").noconvert(), py::arg("seed"), py::arg("attempts_per_request"),
               py::arg("threads") = 0, py::arg("directed") = false,
               "Friend-of-friend potential edges per part (directed: u -> w -> v gives the arc u -> v): (ptr, a, b, "
               "counts[parts, (requested, found, attempts, "
               "available)])");
    def_widths(m, "maxvar_dual", &dual_py<std::int32_t>, &dual_py<std::int64_t>, py::arg("n"),
               py::arg("pu").noconvert(), py::arg("pv").noconvert(), py::arg("degree").noconvert(),
               py::arg("tol") = 1e-10, py::arg("max_newton") = 200, py::arg("max_cg") = 2000,
               "Exact MaxVar QP of one part by semismooth Newton on the dual; returns (p, stats)");
    def_widths(m, "fixed_arcs", &fixed_arcs_py<std::int32_t>, &fixed_arcs_py<std::int64_t>, py::arg("n"),
               py::arg("tails").noconvert(), py::arg("heads").noconvert(), py::arg("out_degree").noconvert(),
               py::arg("in_degree").noconvert(),
               "The arcs of a directed part's QP that every feasible point holds at 0 or 1: (fixed, value)");
    def_widths(m, "maxvar_directed", &directed_py<std::int32_t>, &directed_py<std::int64_t>, py::arg("n"),
               py::arg("tails").noconvert(), py::arg("heads").noconvert(), py::arg("out_degree").noconvert(),
               py::arg("in_degree").noconvert(), py::arg("tol") = 1e-10, py::arg("max_newton") = 200,
               py::arg("max_cg") = 2000,
               "Exact MaxVar QP of one directed part (fixed arcs, then Newton per component); returns (p, stats)");
    def_widths(m, "repair_qp", &repair_py<std::int32_t>, &repair_py<std::int64_t>, py::arg("n"),
               py::arg("pu").noconvert(), py::arg("pv").noconvert(), py::arg("degree").noconvert(),
               py::arg("p").noconvert(), py::arg("tol") = 1e-12, py::arg("max_rounds") = 20, py::arg("max_cg") = 2000,
               "Clip p into [0, 1], then repair the degree equalities without leaving the box; returns (p, stats)");
}

}  // namespace graphveil::bind
