"""MaxVar (Section V): METIS parts, friend-of-friend proposals, the per-part QP and its two backends."""

from __future__ import annotations

import numpy as np
import pytest
from graph_zoo import ZOO, shared_graph_path

import graphveil as gv
from graphveil.anonymize.parts import metis_parts


def _read_shared(name: str) -> gv.Graph:
    """A real graph from ../shared/data."""
    from graphveil.io import read_edgelist

    return read_edgelist(shared_graph_path(name))


# ---------------------------------------------------------------------------------- partition
class TestMetisParts:
    def test_labels_cover_range_and_balance(self):
        g = _read_shared("ca-GrQc")
        labels = metis_parts(g, 8, seed=3)
        assert labels.dtype == np.int64 and labels.shape == (g.n,)
        counts = np.bincount(labels, minlength=8)
        assert counts.size == 8 and counts.min() > 0
        # METIS's default imbalance tolerance is 3% on vertex counts
        assert counts.max() <= 1.03 * g.n / 8 + 1

    def test_matches_pymetis_called_directly(self):
        pymetis = pytest.importorskip("pymetis")  # the reference, where it has wheels

        g = _read_shared("karate_club")
        adjacency = [g.neighbors(i).tolist() for i in range(g.n)]
        opts = pymetis.Options(seed=5)
        _, expected = pymetis.part_graph(3, adjacency=adjacency, options=opts, recursive=False)
        np.testing.assert_array_equal(metis_parts(g, 3, seed=5), expected)

    def test_cut_is_small_on_two_cliques(self):
        cliques = [
            (i, j) for base in (0, 6) for i in range(base, base + 6) for j in range(i + 1, base + 6)
        ]
        u, v = np.array(cliques + [(0, 6)]).T
        g = gv.Graph.from_edges(u, v)
        labels = metis_parts(g, 2, seed=0)
        gu, gv_ = g.edges()
        assert int(np.sum(labels[gu] != labels[gv_])) == 1

    def test_same_seed_same_labels(self):
        g = _read_shared("ca-GrQc")
        np.testing.assert_array_equal(metis_parts(g, 5, seed=11), metis_parts(g, 5, seed=11))
        np.testing.assert_array_equal(metis_parts(g, 5), metis_parts(g, 5))

    def test_one_part_is_all_zeros(self, zoo_graph):
        if zoo_graph.n == 0:
            with pytest.raises(ValueError, match="exceeds the number of nodes"):
                metis_parts(zoo_graph, 1)
            return
        labels = metis_parts(zoo_graph, 1)
        np.testing.assert_array_equal(labels, np.zeros(zoo_graph.n, dtype=np.int64))

    @pytest.mark.parametrize(
        "name", ["path5", "star6", "two_components", "with_isolated", "isolated3"]
    )
    def test_every_zoo_graph_up_to_n_parts(self, name):
        g = ZOO[name]
        for parts in range(1, g.n + 1):
            labels = metis_parts(g, parts, seed=1)
            assert labels.shape == (g.n,)
            assert labels.min() >= 0 and labels.max() < parts

    def test_bad_input(self):
        g = ZOO["path5"]
        with pytest.raises(ValueError, match="exceeds the number of nodes"):
            metis_parts(g, 6)
        with pytest.raises(ValueError, match="parts must be >= 1"):
            metis_parts(g, 0)
        with pytest.raises(TypeError):
            metis_parts(g, 2.0)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            metis_parts(np.zeros((3, 3)), 2)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"seed must lie in \[0, 2\*\*64\)"):
            metis_parts(g, 2, seed=-1)
        with pytest.raises(ValueError, match="not a METIS option"):
            metis_parts(g, 2, options={"bogus": 1})
        with pytest.raises(TypeError, match="options must be a dict"):
            metis_parts(g, 2, options=[("niter", 2)])  # type: ignore[arg-type]

    def test_options_reach_metis(self):
        pymetis = pytest.importorskip("pymetis")  # the reference, where it has wheels

        g = _read_shared("ca-GrQc")
        adjacency = pymetis.CSRAdjacency(adj_starts=g.indptr, adjacent=g.indices.astype(np.int64))
        _, expected = pymetis.part_graph(
            6, adjacency=adjacency, options=pymetis.Options(seed=2, niter=1), recursive=False
        )
        np.testing.assert_array_equal(metis_parts(g, 6, seed=2, options={"niter": 1}), expected)

    def test_generator_seed(self):
        g = _read_shared("karate_club")
        a = metis_parts(g, 4, seed=np.random.default_rng(7))
        b = metis_parts(g, 4, seed=np.random.default_rng(7))
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------- helpers
def _fof_pairs(g: gv.Graph, labels: np.ndarray | None = None) -> set[tuple[int, int]]:
    """Every non-adjacent pair with a common neighbour (all three in one part when labels given)."""
    nx_graph = g.to_networkx()
    out = set()
    for u in nx_graph:
        nbrs = [v for v in nx_graph[u] if labels is None or labels[v] == labels[u]]
        for i, v in enumerate(nbrs):
            for w in nbrs[i + 1 :]:
                if not nx_graph.has_edge(v, w):
                    out.add((min(v, w), max(v, w)))
    return out


def _slsqp(
    n: int,
    pu: np.ndarray,
    pv: np.ndarray,
    degree: np.ndarray,
    center: np.ndarray | None = None,
    x0: np.ndarray | None = None,
):
    """Independent reference: min sum (p - c)^2 s.t. A p = d, 0 <= p <= 1 by scipy's SLSQP."""
    from scipy.optimize import minimize

    e = pu.size
    a = np.zeros((n, e))
    a[pu, np.arange(e)] = 1.0
    a[pv, np.arange(e)] = 1.0
    # SLSQP needs independent equality rows: keep a basis of the row space (QR with pivoting).
    import scipy.linalg

    _, r, piv = scipy.linalg.qr(a.T, pivoting=True)
    rank = int(np.sum(np.abs(np.diag(r)) > 1e-10)) if r.size else 0
    rows = np.sort(piv[:rank])
    a, degree = a[rows], degree[rows]
    c = np.zeros(e) if center is None else center
    res = minimize(
        lambda x: float(np.sum((x - c) ** 2)),
        np.full(e, 0.5) if x0 is None else x0,
        jac=lambda x: 2.0 * (x - c),
        bounds=[(0.0, 1.0)] * e,
        constraints=[{"type": "eq", "fun": lambda x: a @ x - degree, "jac": lambda x: a}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    assert res.success, res.message
    return res.x


def _kkt_enumeration(n: int, pu: np.ndarray, pv: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """Exact optimum by enumerating faces: every pair at 0, at 1 or free (3^pairs faces).

    On the face of the optimum the free pairs hold the least-norm solution of their equalities
    (the objective is that norm), so the optimum is the best feasible face candidate.
    """
    import itertools

    e = pu.size
    a = np.zeros((n, e))
    a[pu, np.arange(e)] = 1.0
    a[pv, np.arange(e)] = 1.0
    best, best_value = None, np.inf
    for face in itertools.product((0, 1, 2), repeat=e):
        face = np.array(face)
        x = np.where(face == 1, 1.0, 0.0)
        free = face == 2
        rhs = degree - a[:, ~free] @ x[~free]
        if free.any():
            x[free] = np.linalg.lstsq(a[:, free], rhs, rcond=None)[0]
        if np.abs(a @ x - degree).max() > 1e-9 or x.min() < -1e-12 or x.max() > 1 + 1e-12:
            continue
        value = float(np.sum(x**2))
        if value < best_value - 1e-12:
            best, best_value = x, value
    assert best is not None
    return best


def _check_solution(n, pu, pv, degree, p, eq_tol=1e-9):
    assert p.shape == pu.shape
    assert np.all(p >= 0.0) and np.all(p <= 1.0)
    expected = np.bincount(pu, weights=p, minlength=n) + np.bincount(pv, weights=p, minlength=n)
    assert np.abs(expected - degree).max(initial=0.0) <= eq_tol


def _tiny_problem(g: gv.Graph, n_potential: int, seed: int = 0):
    """All pairs of a one-part MaxVar problem on g: its edges and n_potential fof pairs."""
    fof = sorted(_fof_pairs(g))
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(fof), size=min(n_potential, len(fof)), replace=False) if fof else []
    eu, ev = g.edges()
    pu = np.concatenate([eu, np.array([fof[i][0] for i in pick], dtype=eu.dtype)]).astype(np.int32)
    pv = np.concatenate([ev, np.array([fof[i][1] for i in pick], dtype=eu.dtype)]).astype(np.int32)
    return g.n, pu, pv, g.degrees.astype(np.float64)


TINY = {
    "paper_example": (ZOO["paper_example"], 2),
    "path5": (ZOO["path5"], 3),
    "star6": (ZOO["star6"], 8),
    "two_components": (ZOO["two_components"], 1),
    "with_isolated": (ZOO["with_isolated"], 2),
    "bowtie": (gv.Graph.from_edges([0, 0, 1, 2, 2, 3], [1, 2, 2, 3, 4, 4]), 4),
    "c6": (gv.Graph.from_edges(np.arange(6), (np.arange(6) + 1) % 6), 6),
}


# ---------------------------------------------------------------------------------- the QP
class TestQpBackends:
    @pytest.mark.parametrize("name", sorted(TINY))
    @pytest.mark.parametrize("solver", ["dual", "osqp"])
    def test_equals_independent_solve(self, name, solver):
        from graphveil.anonymize._qp import SOLVERS

        g, k = TINY[name]
        n, pu, pv, degree = _tiny_problem(g, k)
        p, stats = SOLVERS[solver](n, pu, pv, degree)
        _check_solution(n, pu, pv, degree, p)
        reference = _slsqp(n, pu, pv, degree)
        np.testing.assert_allclose(p, reference, atol=2e-6)
        assert stats["converged"] and stats["box_residual"] == 0.0
        assert stats["objective"] == pytest.approx(float(np.sum(p**2)), abs=1e-9)
        # Proposition 4.1, part by part: sum p^2 >= m^2 / (m + n_p)
        assert stats["objective"] >= g.m**2 / pu.size - 1e-9

    @pytest.mark.parametrize("name", ["paper_example", "path5", "two_components", "with_isolated"])
    @pytest.mark.parametrize("solver", ["dual", "osqp"])
    def test_equals_face_enumeration(self, name, solver):
        from graphveil.anonymize._qp import SOLVERS

        g, k = TINY[name]
        n, pu, pv, degree = _tiny_problem(g, k)
        assert pu.size <= 8
        p, _ = SOLVERS[solver](n, pu, pv, degree)
        np.testing.assert_allclose(
            p, _kkt_enumeration(n, pu, pv, degree), atol=1e-9 if solver == "dual" else 1e-6
        )

    @pytest.mark.parametrize("name", sorted(TINY))
    def test_dual_certificate(self, name):
        """Primal sum p^2 equals the dual value g(lambda): the solution is optimal, not just feasible."""
        from graphveil.anonymize._qp import solve_dual

        g, k = TINY[name]
        n, pu, pv, degree = _tiny_problem(g, k, seed=3)
        _, stats = solve_dual(n, pu, pv, degree)
        assert stats["objective"] == pytest.approx(stats["dual_objective"], abs=1e-9)

    def test_backends_agree_on_real_parts(self):
        from graphveil.anonymize import maxvar

        g = _read_shared("ca-GrQc")
        a, ra = maxvar(g, n_potential=1500, parts=4, seed=5, solver="dual")
        b, rb = maxvar(g, n_potential=1500, parts=4, seed=5, solver="osqp")
        np.testing.assert_array_equal(a.u, b.u)
        np.testing.assert_array_equal(a.v, b.v)
        assert np.abs(a.p - b.p).max() <= 1e-4
        for sa, sb in zip(ra["solver_stats"], rb["solver_stats"]):
            assert sb["objective"] == pytest.approx(
                sa["objective"], abs=1e-6 * max(1.0, sa["objective"])
            )

    def test_osqp_matrices_are_sparse_and_right(self):
        import scipy.sparse as sp

        from graphveil.anonymize._qp import qp_matrices

        n, pu, pv, degree = _tiny_problem(TINY["bowtie"][0], 4)
        P, q, A, lower, upper = qp_matrices(n, pu, pv, degree)
        assert sp.issparse(P) and P.format == "csc" and sp.issparse(A) and A.format == "csc"
        np.testing.assert_array_equal(P.toarray(), 2 * np.eye(pu.size))
        dense = A.toarray()
        np.testing.assert_array_equal(dense[n:], np.eye(pu.size))
        np.testing.assert_array_equal(dense[:n].sum(axis=0), np.full(pu.size, 2))
        np.testing.assert_array_equal(dense[pu, np.arange(pu.size)], 1)
        np.testing.assert_array_equal(lower, np.concatenate([degree, np.zeros(pu.size)]))
        np.testing.assert_array_equal(upper, np.concatenate([degree, np.ones(pu.size)]))
        assert not q.any()


class TestRepair:
    def _kernel(self):
        from graphveil import _core

        return _core.repair_qp

    def test_small_noise_is_projected_back(self):
        n, pu, pv, degree = _tiny_problem(TINY["bowtie"][0], 4)  # optimum has pairs at 1
        from graphveil.anonymize._qp import solve_dual

        exact, _ = solve_dual(n, pu, pv, degree)
        rng = np.random.default_rng(1)
        noisy = exact + rng.normal(0.0, 1e-3, exact.size)
        p, stats = self._kernel()(n, pu, pv, degree, noisy)
        _check_solution(n, pu, pv, degree, p, eq_tol=1e-12)
        assert stats["box_residual"] == 0.0 and stats["raw_box_residual"] > 0.0
        # the repair moves the clipped point by no more than its distance to the exact answer
        clipped = np.clip(noisy, 0.0, 1.0)
        assert np.linalg.norm(p - clipped) <= np.linalg.norm(exact - clipped) + 1e-12

    def test_node_with_every_pair_clipped_needs_the_projection(self):
        # triangle 0-1-2 plus pendant 3 at 2; node 3's only pair is clipped to 0 but d_3 = 1
        pu = np.array([0, 0, 1, 2, 0, 1], dtype=np.int32)
        pv = np.array([1, 2, 2, 3, 3, 3], dtype=np.int32)
        degree = np.array([2.0, 2.0, 3.0, 1.0])
        start = np.array([1.0, 1.0, 1.0, -0.2, -0.1, -0.1])
        p, stats = self._kernel()(4, pu, pv, degree, start)
        _check_solution(4, pu, pv, degree, p, eq_tol=1e-12)
        # it is the exact projection of the clipped start onto the feasible set
        reference = _slsqp(4, pu, pv, degree, center=np.clip(start, 0.0, 1.0))
        np.testing.assert_allclose(p, reference, atol=1e-6)

    def test_far_point_is_projected_exactly(self):
        n, pu, pv, degree = _tiny_problem(TINY["c6"][0], 6)
        rng = np.random.default_rng(5)
        start = rng.uniform(-0.3, 1.3, pu.size)
        p, stats = self._kernel()(n, pu, pv, degree, start)
        _check_solution(n, pu, pv, degree, p, eq_tol=1e-12)
        assert stats["projection_iterations"] > 0
        reference = _slsqp(n, pu, pv, degree, center=np.clip(start, 0.0, 1.0))
        np.testing.assert_allclose(p, reference, atol=1e-6)

    def test_feasible_input_is_left_alone(self):
        n, pu, pv, degree = _tiny_problem(TINY["bowtie"][0], 0)
        p, stats = self._kernel()(n, pu, pv, degree, np.ones(pu.size))
        np.testing.assert_array_equal(p, np.ones(pu.size))
        assert stats["repair_iterations"] == 0 and stats["eq_residual"] == 0.0

    def test_nan_is_refused(self):
        n, pu, pv, degree = _tiny_problem(TINY["bowtie"][0], 0)
        bad = np.ones(pu.size)
        bad[0] = np.nan
        with pytest.raises(ValueError, match="NaN"):
            self._kernel()(n, pu, pv, degree, bad)

    def test_wrong_dtype_is_a_type_error_not_a_copy(self):
        n, pu, pv, degree = _tiny_problem(TINY["bowtie"][0], 0)
        with pytest.raises(TypeError):
            self._kernel()(n, pu.astype(np.int64), pv, degree, np.ones(pu.size))


# ---------------------------------------------------------------------------------- maxvar
def _check_maxvar(g: gv.Graph, ug: gv.UncertainGraph, report: dict, eq_tol: float = 1e-6) -> None:
    assert ug.n == g.n and not ug.relaxed
    assert np.all(ug.p >= 0.0) and np.all(ug.p <= 1.0)
    assert np.abs(ug.expected_degrees() - g.degrees).max() <= eq_tol
    # every edge of g is a pair; the other pairs are the potential edges
    eu, ev = g.edges()
    keys = ug.u.astype(np.int64) * g.n + ug.v
    is_edge = np.isin(keys, eu.astype(np.int64) * g.n + ev)
    assert int(is_edge.sum()) == g.m
    assert ug.num_pairs == g.m + sum(report["potential_proposed"])
    # cut edges keep p = 1, potential edges lie inside one part
    labels = report["labels"]
    cut = labels[ug.u] != labels[ug.v]
    assert np.all(is_edge[cut]) and np.all(ug.p[cut] == 1.0)
    assert int(cut.sum()) == report["cut_edges"]
    # Proposition 4.1
    assert report["tv"] == pytest.approx(ug.total_variance())
    assert report["tv"] <= report["tv_bound"] + 1e-9
    assert report["max_eq_residual"] <= eq_tol and report["max_box_residual"] == 0.0
    assert "labels" not in ug.meta and ug.meta["tv"] == report["tv"]


class TestMaxVar:
    @pytest.mark.parametrize(
        ("name", "n_potential", "parts"), [("ca-GrQc", 1500, 8), ("facebook_combined", 20000, 5)]
    )
    def test_invariants_on_real_graphs(self, name, n_potential, parts):
        from graphveil.anonymize import maxvar

        g = _read_shared(name)
        ug, report = maxvar(g, n_potential=n_potential, parts=parts, seed=2)
        _check_maxvar(g, ug, report)
        assert report["potential_proposed"] == report["potential_requested"]
        assert sum(report["potential_requested"]) == n_potential
        assert len(report["solver_stats"]) == parts
        assert set(report["timings"]) >= {"partition", "propose", "solve", "assemble", "total"}
        # potential edges are friend-of-friend pairs inside a part
        eu, ev = g.edges()
        keys = ug.u.astype(np.int64) * g.n + ug.v
        potential = ~np.isin(keys, eu.astype(np.int64) * g.n + ev)
        labels = report["labels"]
        for a, b in zip(ug.u[potential].tolist(), ug.v[potential].tolist()):
            common = np.intersect1d(g.neighbors(a), g.neighbors(b))
            assert labels[a] == labels[b] and np.any(labels[common] == labels[a])

    def test_one_part_is_the_whole_graph(self):
        from graphveil.anonymize import maxvar

        g = _read_shared("ca-GrQc")
        ug1, r1 = maxvar(g, n_potential=1500, parts=1, seed=2)
        _check_maxvar(g, ug1, r1)
        assert r1["cut_edges"] == 0 and np.all(r1["labels"] == 0)
        ug8, r8 = maxvar(g, n_potential=1500, parts=8, seed=2)
        # no cut edge is pinned at p = 1: the whole-graph QP keeps more variance
        assert r1["tv"] > r8["tv"]

    def test_same_seed_same_output_for_any_thread_count(self):
        from concurrent.futures import Executor, Future

        from graphveil.anonymize import maxvar

        class InlineExecutor(Executor):
            """Runs every task at submit time: any Executor must work."""

            def submit(self, fn, /, *args, **kwargs):
                future: Future = Future()
                future.set_result(fn(*args, **kwargs))
                return future

        g = _read_shared("ca-HepTh")
        runs = [
            maxvar(g, n_potential=4000, parts=6, seed=9, threads=1),
            maxvar(g, n_potential=4000, parts=6, seed=9, threads=4),
            maxvar(g, n_potential=4000, parts=6, seed=9, threads=1, executor=InlineExecutor()),
        ]
        for ug, _ in runs[1:]:
            np.testing.assert_array_equal(ug.u, runs[0][0].u)
            np.testing.assert_array_equal(ug.v, runs[0][0].v)
            np.testing.assert_array_equal(ug.p, runs[0][0].p)
        other, _ = maxvar(g, n_potential=4000, parts=6, seed=10)
        assert not (
            other.u.size == runs[0][0].u.size
            and np.array_equal(other.u, runs[0][0].u)
            and np.array_equal(other.v, runs[0][0].v)
        )

    @pytest.mark.parametrize("name", sorted(TINY))
    def test_tiny_graphs_match_the_independent_solve(self, name):
        from graphveil.anonymize import maxvar

        g, k = TINY[name]
        available = len(_fof_pairs(g))
        ug, report = maxvar(g, n_potential=min(k, available), parts=1, seed=4)
        _check_maxvar(g, ug, report, eq_tol=1e-9)
        reference = _slsqp(
            g.n, ug.u.astype(np.int32), ug.v.astype(np.int32), g.degrees.astype(np.float64)
        )
        np.testing.assert_allclose(ug.p, reference, atol=2e-6)

    def test_request_above_what_exists_is_refused_and_the_count_is_private(self):
        from graphveil.anonymize import maxvar

        g = ZOO["star6"]  # 15 friend-of-friend pairs among the leaves
        with pytest.raises(ValueError, match=r"too few friend-of-friend non-edge pairs") as info:
            maxvar(g, n_potential=20, parts=1, seed=0)
        assert "15" not in str(info.value) and "\n" not in str(info.value)  # G0's count is private
        ug, report = maxvar(g, n_potential=20, parts=1, seed=0, allow_fewer=True)
        assert report["potential_proposed"] == [15] and report["potential_available"] == [15]
        _check_maxvar(g, ug, report, eq_tol=1e-9)

    def test_absurd_request_ends_quickly_and_the_report_counts(self):
        from graphveil.anonymize import maxvar

        g = _read_shared("karate_club")
        exists = len(_fof_pairs(g))
        with pytest.raises(ValueError, match="too few friend-of-friend") as info:
            maxvar(g, n_potential=10**12, parts=1, seed=0)
        assert f"{exists:,}" not in str(info.value)
        ug, report = maxvar(g, n_potential=10**12, parts=1, seed=0, allow_fewer=True)
        assert (
            report["potential_available"] == [exists] and report["potential_proposed"][0] <= exists
        )
        _check_maxvar(g, ug, report)

    def test_perfect_matching_has_no_friend_of_friend_pairs(self):
        from graphveil.anonymize import maxvar

        g = gv.Graph.from_edges(np.arange(0, 10, 2), np.arange(1, 10, 2))
        with pytest.raises(ValueError, match="too few friend-of-friend non-edge pairs"):
            maxvar(g, n_potential=1, parts=1, seed=0)
        ug, report = maxvar(g, n_potential=1, parts=2, seed=0, allow_fewer=True)
        np.testing.assert_array_equal(ug.p, np.ones(g.m))
        assert report["tv"] == 0.0 and report["tv_bound"] == 0.0
        ug0, _ = maxvar(g, n_potential=0, parts=1, seed=0)  # nothing asked, nothing missing
        np.testing.assert_array_equal(ug0.p, np.ones(g.m))

    def test_bad_input(self):
        from graphveil.anonymize import maxvar

        g = ZOO["path5"]
        with pytest.raises(ValueError, match="parts must lie in 1..5"):
            maxvar(g, n_potential=1, parts=6)
        with pytest.raises(ValueError, match="parts must lie"):
            maxvar(g, n_potential=1, parts=0)
        for wrong in (-1, 2**63):  # beyond the kernels' int64 (an OverflowError before)
            with pytest.raises(ValueError, match=r"n_potential must lie in 0\.\.2\*\*63 - 1"):
                maxvar(g, n_potential=wrong, parts=1)
        with pytest.raises(ValueError, match="graph with edges"):
            maxvar(ZOO["empty"], n_potential=1, parts=1)
        with pytest.raises(ValueError, match="graph with edges"):
            maxvar(ZOO["isolated3"], n_potential=1, parts=1)
        with pytest.raises(ValueError, match="solver must be one of"):
            maxvar(g, n_potential=1, parts=1, solver="mosek")
        with pytest.raises(TypeError, match="graphveil.Graph"):
            maxvar(g.to_networkx(), n_potential=1, parts=1)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="n_potential must be an integer"):
            maxvar(g, n_potential=1.5, parts=1)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="Executor"):
            maxvar(g, n_potential=1, parts=1, executor=object())  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="threads"):
            maxvar(g, n_potential=1, parts=1, threads=-1)


class TestProposals:
    def _layout(self, g, labels, parts):
        from graphveil import _core

        return _core.split_parts(g.indptr, g.indices, labels, parts, 2)

    def test_split_parts_is_the_induced_subgraphs(self):
        g = _read_shared("karate_club")
        labels = metis_parts(g, 3, seed=1)
        layout = self._layout(g, labels, 3)
        for i in range(3):
            nodes = np.flatnonzero(labels == i)
            np.testing.assert_array_equal(
                layout["order"][layout["node_ptr"][i] : layout["node_ptr"][i + 1]], nodes
            )
            sub = g.subgraph(nodes)
            su, sv = sub.edges()
            e0, e1 = layout["edge_ptr"][i], layout["edge_ptr"][i + 1]
            np.testing.assert_array_equal(layout["edge_u"][e0:e1], su)
            np.testing.assert_array_equal(layout["edge_v"][e0:e1], sv)
        eu, ev = g.edges()
        cut = labels[eu] != labels[ev]
        np.testing.assert_array_equal(layout["cut_u"], eu[cut])
        np.testing.assert_array_equal(layout["cut_v"], ev[cut])

    def test_rule_and_counts(self):
        from graphveil import _core

        g = _read_shared("karate_club")
        labels = metis_parts(g, 2, seed=1)
        layout = self._layout(g, labels, 2)
        exists = [len(_fof_pairs(g.subgraph(np.flatnonzero(labels == i)))) for i in range(2)]
        requested = np.array([10, exists[1] + 5], dtype=np.int64)
        ptr, a, b, counts = _core.propose_fof(
            layout["node_ptr"],
            layout["local_indptr"],
            layout["local_indices"],
            requested,
            7,
            4096,
            1,
        )
        assert counts[0].tolist()[:2] == [10, 10] and counts[0, 3] == -1
        assert (
            counts[1, 1] == exists[1] and counts[1, 3] == exists[1]
        )  # every pair found, exact count
        d = np.diff(layout["local_indptr"])[layout["node_ptr"][1] : layout["node_ptr"][2]]
        cap = int(np.sum(d * (d - 1) // 2))  # sum_u C(d_u, 2) bounds the pairs that exist
        assert counts[1, 2] == 4096 * min(requested[1], cap) + 1024  # the budget ended the search
        for i in range(2):
            sub = g.subgraph(np.flatnonzero(labels == i))
            pairs = list(zip(a[ptr[i] : ptr[i + 1]].tolist(), b[ptr[i] : ptr[i + 1]].tolist()))
            assert len(set(pairs)) == len(pairs)
            assert set(pairs) <= _fof_pairs(sub)
            assert all(x < y for x, y in pairs)
        again = _core.propose_fof(
            layout["node_ptr"],
            layout["local_indptr"],
            layout["local_indices"],
            requested,
            7,
            4096,
            2,
        )
        np.testing.assert_array_equal(again[1], a)
        np.testing.assert_array_equal(again[2], b)

    def test_pairs_are_drawn_by_the_rule(self):
        """A path a-b-c-d-e: from u uniform over {b, c, d}, pair {a,c}, {b,d}, {c,e} equally likely."""
        from graphveil import _core

        g = ZOO["path5"]
        layout = self._layout(g, np.zeros(5, dtype=np.int64), 1)
        first = []
        for seed in range(600):
            _, a, b, _ = _core.propose_fof(
                layout["node_ptr"],
                layout["local_indptr"],
                layout["local_indices"],
                np.array([1]),
                seed,
                64,
                1,
            )
            first.append((int(a[0]), int(b[0])))
        counts = np.array([first.count(p) for p in [(0, 2), (1, 3), (2, 4)]])
        assert counts.sum() == 600 and counts.min() > 150  # each ~200


class TestCli:
    def _run(self, capsys, *argv):
        from graphveil.cli import main

        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    def test_writes_and_prints_the_report(self, capsys, tmp_path):
        import json

        path = shared_graph_path("ca-GrQc")
        out_path = tmp_path / "out.npz"
        code, out, err = self._run(
            capsys,
            "anonymize",
            "maxvar",
            path,
            "-o",
            out_path,
            "--n-potential",
            1000,
            "--parts",
            4,
            "--seed",
            1,
        )
        assert code == 0, err
        # the print policy: tv (the release's) shown; tv_bound (m's) and the per-part solver
        # statistics (G0's parts) go to the record only
        assert "tv  " in out and "timings" in out
        assert "tv bound" not in out and "newton/iter" not in out and "solver stats" in err
        # progress bars only on a terminal (captured stderr is not one); the phase line stays
        assert "MaxVar on" in err and "solve (dual)" not in err
        g = _read_shared("ca-GrQc")
        ug = gv.UncertainGraph.load(out_path)
        # ids are permuted on save: compare the degree multisets
        np.testing.assert_allclose(np.sort(ug.expected_degrees()), np.sort(g.degrees), atol=1e-6)
        code, out, err = self._run(
            capsys,
            "anonymize",
            "maxvar",
            path,
            "--n-potential",
            1000,
            "--parts",
            4,
            "--seed",
            1,
            "--json",
            "--quiet",
            "--solver",
            "osqp",
            "-o",
            tmp_path / "osqp.npz",
            "--record",
            tmp_path / "osqp.json",
        )
        assert code == 0, err
        report = json.loads(out)
        assert report["params"]["solver"] == "osqp" and "solver_stats" not in report
        assert "labels" not in report and err == ""
        assert len(gv.load_record(tmp_path / "osqp.json").report["solver_stats"]) == 4

    def test_bad_input_exits_2_with_the_message(self, capsys):
        code, out, err = self._run(
            capsys,
            "anonymize",
            "maxvar",
            shared_graph_path("karate_club"),
            "--n-potential",
            10,
            "--parts",
            99,
        )
        assert code == 2 and "parts must lie in 1..34" in err


class TestProperties:
    @staticmethod
    def _graphs():
        from hypothesis import strategies as st

        @st.composite
        def graph(draw):
            n = draw(st.integers(3, 10))
            pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
            chosen = draw(
                st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True)
            )
            u, v = np.array(chosen).T
            return gv.Graph.from_edges(u, v, n)

        return graph()

    def test_invariants_and_optimality_on_random_graphs(self):
        from hypothesis import given, settings
        from hypothesis import strategies as st

        from graphveil.anonymize import maxvar

        @settings(max_examples=40, deadline=None)
        @given(
            g=self._graphs(),
            k=st.integers(0, 8),
            parts=st.integers(1, 3),
            seed=st.integers(0, 2**32),
        )
        def check(g, k, parts, seed):
            parts = min(parts, g.n)
            ug, report = maxvar(g, n_potential=k, parts=parts, seed=seed, allow_fewer=True)
            _check_maxvar(g, ug, report, eq_tol=1e-9)
            if parts == 1 and ug.num_pairs <= 7:
                reference = _kkt_enumeration(
                    g.n, ug.u.astype(np.int32), ug.v.astype(np.int32), g.degrees.astype(np.float64)
                )
                np.testing.assert_allclose(ug.p, reference, atol=1e-9)

        check()


# ---------------------------------------------------------------------------------- given parts
class TestGivenParts:
    """``labels=``: precomputed parts, as the study passes G0's one partition to every point."""

    @pytest.fixture(scope="class")
    @classmethod
    def grqc(cls) -> gv.Graph:
        return _read_shared("ca-GrQc")

    def test_given_parts_equal_the_internal_partition(self, grqc):
        from graphveil.anonymize._maxvar import METIS_OPTIONS

        seed = 2**40 + 7  # above METIS's int: the internal partition takes seed % 2**31
        ug, report = gv.anonymize.maxvar(grqc, n_potential=3000, parts=4, seed=seed)
        labels = metis_parts(grqc, 4, seed=seed % 2**31, options=METIS_OPTIONS)
        assert np.unique(labels).size == 4
        ug2, report2 = gv.anonymize.maxvar(
            grqc, n_potential=3000, parts=4, seed=seed, labels=labels
        )
        for a, b in ((ug.u, ug2.u), (ug.v, ug2.v), (ug.p, ug2.p), (report["labels"], labels)):
            assert np.array_equal(a, b)
        params, params2 = report["params"], report2["params"]
        assert params2["partitioner"] is None and params2["partitioner_options"] is None
        assert params["partitioner"] == "metis" and params["partitioner_options"] == METIS_OPTIONS

    def test_given_parts_are_used_whatever_the_seed(self, grqc):
        labels = np.arange(grqc.n) % 3  # not METIS's: a cut of most edges
        _, report = gv.anonymize.maxvar(grqc, n_potential=1000, parts=3, seed=1, labels=labels)
        assert np.array_equal(report["labels"], labels)
        u, v = grqc.edges()
        assert report["cut_edges"] == int(np.count_nonzero(labels[u] != labels[v]))

    @pytest.mark.parametrize(
        ("labels", "error", "message"),
        [
            (lambda n: np.zeros(n - 1, dtype=np.int64), ValueError, "each of the 5,242 nodes"),
            (lambda n: np.full(n, 4), ValueError, r"must lie in 0\.\.3 \(parts=4\)"),
            (lambda n: np.full(n, -1), ValueError, r"must lie in 0\.\.3"),
            (lambda n: np.zeros(n), TypeError, "integer array"),
            (lambda n: np.zeros(n, dtype=bool), TypeError, "integer array"),
        ],
    )
    def test_bad_parts_are_rejected(self, grqc, labels, error, message):
        with pytest.raises(error, match=message):
            gv.anonymize.maxvar(grqc, n_potential=100, parts=4, seed=1, labels=labels(grqc.n))
