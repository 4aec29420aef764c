"""The schemes on directed graphs: MaxVar, (k, eps)-obfuscation, EdgeSwitch, RandWalk, Mixture, Partition.

Each against an independent reference: KKT conditions checked with an LP over the multipliers,
brute-force friend-of-friend pairs, possible-world enumeration for the directed eps, networkx's
directed edge swap, plain-Python walks on tiny graphs; plus one quick run of each on
soc-Epinions1.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import networkx as nx
import numpy as np
import pytest
from graph_zoo import shared_graph_path
from scipy.optimize import linprog

import graphveil as gv
from graphveil.anonymize import (
    edge_switch,
    maxvar,
    mixture,
    obfuscation,
    partition,
    randwalk,
    randwalk_mod,
    registry,
)
from graphveil.anonymize._maxvar_dyads import DyadSplit, solve_dyad_qp
from graphveil.anonymize._qp import SOLVERS, fixed_arcs
from graphveil.anonymize.partitioners import get as get_partitioner
from graphveil.anonymize.parts import metis_parts, split_parts
from graphveil.measure.privacy import directed_eps


def random_digraph(n: int, arcs: int, seed: int) -> gv.Graph:
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, arcs)
    v = rng.integers(0, n, arcs)
    keep = u != v
    return gv.Graph.from_edges(u[keep], v[keep], n, directed=True)


def arc_set(g: gv.Graph | gv.UncertainGraph) -> set[tuple[int, int]]:
    if isinstance(g, gv.Graph):
        u, v = g.edges()
    else:
        u, v = g.u, g.v
    return set(zip(u.tolist(), v.tolist()))


def directed_fof_pairs(g: gv.Graph) -> set[tuple[int, int]]:
    """Brute force: (u, v) with u -> w -> v, v != u and no arc u -> v."""
    arcs = arc_set(g)
    succ = defaultdict(set)
    for a, b in arcs:
        succ[a].add(b)
    return {
        (u, v)
        for u in list(succ)
        for w in succ[u]
        for v in succ.get(w, ())
        if v != u and (u, v) not in arcs
    }


# ---------------------------------------------------------------------- registry
def test_registry_names_the_schemes_with_a_directed_form():
    directed = {"obfuscation", "randwalk", "maxvar", "edge_switch", "mixture", "tmf", "edgeflip"}
    assert directed | {"dp_dk"} <= set(registry.directed())
    assert not {"randwalk_mod", "dgg", "privgraph"} & set(registry.directed())
    for name in registry.names():
        assert registry.scheme(name).directed == (name in registry.directed())


# ---------------------------------------------------------------------- MaxVar
def kkt_multipliers_exist(ug: gv.UncertainGraph, tol: float = 1e-7) -> bool:
    """Are there alpha (out) and beta (in) with p_uv = clip((alpha_u + beta_v) / 2, 0, 1)?

    That is stationarity with complementary slackness on the box: alpha_u + beta_v = 2 p_uv
    where 0 < p < 1, <= 0 where p = 0, >= 2 where p = 1. Feasibility LP over (alpha, beta).
    """
    n = ug.n
    u, v, p = ug.u, ug.v, ug.p
    free = (p > tol) & (p < 1 - tol)
    rows = np.zeros((u.size, 2 * n))
    rows[np.arange(u.size), u] = 1.0
    rows[np.arange(u.size), n + v] = 1.0
    zero, one = p <= tol, p >= 1 - tol
    a_ub = np.vstack([rows[zero], -rows[one]])
    b_ub = np.concatenate([np.full(zero.sum(), 1e-6), np.full(one.sum(), -2.0 + 1e-6)])
    a_eq, b_eq = rows[free], 2.0 * p[free]
    res = linprog(
        np.zeros(2 * n),
        A_ub=a_ub if a_ub.size else None,
        b_ub=b_ub if a_ub.size else None,
        A_eq=a_eq if a_eq.size else None,
        b_eq=b_eq if a_eq.size else None,
        bounds=[(None, None)] * (2 * n),
        method="highs",
    )
    return bool(res.status == 0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_directed_maxvar_keeps_in_and_out_degrees_and_meets_kkt(seed):
    g = random_digraph(30, 110, seed)
    for solver in ("dual", "osqp"):
        ug, report = maxvar(g, n_potential=60, parts=1, seed=seed, solver=solver)
        assert ug.directed and ug.num_pairs == g.m + 60
        assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-6
        assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-6
        assert ((ug.p >= 0) & (ug.p <= 1)).all()
        assert report["tv"] <= report["tv_bound"] + 1e-9
        assert kkt_multipliers_exist(ug), solver
        # the potential arcs are directed friend-of-friend pairs of g
        potential = arc_set(ug) - arc_set(g)
        assert len(potential) == 60 and potential <= directed_fof_pairs(g)


def test_directed_maxvar_dual_and_osqp_agree():
    g = random_digraph(40, 160, 7)
    a, _ = maxvar(g, n_potential=80, parts=2, seed=5, solver="dual")
    b, _ = maxvar(g, n_potential=80, parts=2, seed=5, solver="osqp")
    assert np.array_equal(a.u, b.u) and np.array_equal(a.v, b.v)
    assert np.abs(a.p - b.p).max() < 1e-4  # one strictly convex QP: a single optimum


def test_directed_maxvar_out_constraints_alone_would_be_trivial():
    """The thesis' remark: the QP keeps in-degrees too, so it is not p_uv = d+_u / pairs of u."""
    g = random_digraph(30, 110, 4)
    ug, _ = maxvar(g, n_potential=60, parts=1, seed=4)
    pairs_of = np.bincount(ug.u, minlength=g.n)
    trivial = g.out_degrees[ug.u] / pairs_of[ug.u]
    assert np.abs(ug.p - trivial).max() > 1e-3


@pytest.fixture(scope="module")
def notredame() -> gv.Graph:
    return gv.read_edgelist(shared_graph_path("web-NotreDame"), directed=True, threads=2)


@pytest.mark.slow
def test_directed_dual_on_a_web_graph_against_osqp_and_kkt(notredame):
    """The directed dual solver where its bipartite Newton step matters: the first 1,500 pages of
    web-NotreDame (hubs, tight degrees: the max-flow fixes most arcs and leaves several
    independent components). Against OSQP at 1e-10 and an LP over the KKT multipliers; the
    primal and dual values meet, and no component needs the projection fallback."""
    pytest.importorskip("osqp")
    g = notredame.subgraph(np.arange(1500))
    ug, report = maxvar(g, n_potential=g.m // 4, parts=1, seed=1)
    stats = report["solver_stats"][0]
    assert stats["converged"] and stats["projection_iterations"] == 0
    assert stats["components"] >= 2 and 0 < stats["flow_fixed"] < ug.num_pairs
    assert stats["objective"] == pytest.approx(stats["dual_objective"], rel=1e-12)
    assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-9
    assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-9
    reference, _ = maxvar(
        g, n_potential=g.m // 4, parts=1, seed=1, solver="osqp", solver_options={"eps": 1e-10}
    )
    assert np.array_equal(reference.u, ug.u) and np.abs(reference.p - ug.p).max() < 1e-6
    assert kkt_multipliers_exist(ug)


@pytest.mark.slow
def test_directed_dual_moves_components_along_their_null_directions(notredame):
    """A web-NotreDame part (METIS, 20 parts) with 60,000 potential arcs: some component of the
    free arcs must move as a whole (its out-copies up, its in-copies down) past its leaving arcs'
    clipped range. Without that move Newton stalls and every such part ends on the projection;
    with it Newton converges, and the primal value meets the dual value (optimality)."""
    labels = get_partitioner("metis").labels(notredame, 20, seed=1, options={"niter": 2})
    g = notredame.subgraph(np.flatnonzero(labels == 5))
    ug, report = maxvar(g, n_potential=60_000, parts=1, seed=1)
    stats = report["solver_stats"][0]
    assert stats["converged"] and stats["projection_iterations"] == 0
    assert stats["objective"] == pytest.approx(stats["dual_objective"], rel=1e-12)
    assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-9
    assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-9


@pytest.mark.slow
def test_directed_maxvar_dyads_on_a_web_graph_ends_no_part_on_the_projection(notredame):
    """The study's web-NotreDame MaxVar with dyads (n_p = 280k, 20 parts): one part's dyads
    (15,241 on 16,768 nodes, nearly a forest) fix many dyads at 0 or 1, where the undirected
    dual had no finite optimum and ended on the projection after 200 Newton steps. As the
    directed QP of their double cover, every part converges and every degree is kept."""
    ug, report = maxvar(notredame, n_potential=280_000, parts=20, seed=1, dyads=True)
    for stats in report["solver_stats"]:
        assert stats["converged"] and stats["projection_iterations"] == 0
    assert np.abs(ug.expected_out_degrees() - notredame.out_degrees).max() < 1e-9
    assert np.abs(ug.expected_in_degrees() - notredame.in_degrees).max() < 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_the_dyad_qp_as_a_double_cover_is_the_undirected_qp(seed):
    """Where the undirected dual converges, the double cover's q is its answer (the optimum is
    unique), and every node's dyads sum to its mutual degree exactly."""
    rng = np.random.default_rng(seed)
    n = 40
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.15]
    dyad_u, dyad_v = (np.array(x, dtype=np.int64) for x in zip(*pairs))
    chosen = rng.random(dyad_u.size) < 0.4  # G0's mutual dyads: the degrees are feasible
    order = np.argsort(~chosen, kind="stable")  # G0's dyads first, as DyadSplit holds them
    dyad_u, dyad_v = dyad_u[order], dyad_v[order]
    g0 = int(chosen.sum())
    empty = np.zeros(0, dtype=np.int64)
    split = DyadSplit(dyad_u, dyad_v, g0, empty, empty, dyad_u.size - g0)
    mutual = np.bincount(dyad_u[:g0], minlength=n) + np.bincount(dyad_v[:g0], minlength=n)
    q, stats = solve_dyad_qp("dual", {}, n, split, mutual)
    reference, ref_stats = SOLVERS["dual"](n, dyad_u, dyad_v, mutual.astype(np.float64))
    assert stats["converged"] and ref_stats["converged"]
    assert np.abs(q - reference).max() < 1e-8
    sums = np.bincount(dyad_u, q, minlength=n) + np.bincount(dyad_v, q, minlength=n)
    assert np.abs(sums - mutual).max() < 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_fixed_arcs_are_those_every_feasible_point_fixes(seed):
    """Against linprog: an arc is fixed iff its least and its greatest value over the
    polytope {0 <= p <= 1, out- and in-degree sums} agree (and equal the returned value)."""
    rng = np.random.default_rng(seed)
    n = 7
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b and rng.random() < 0.55]
    tails, heads = (np.array(x, dtype=np.int64) for x in zip(*pairs))
    chosen = rng.random(tails.size) < 0.5  # a subgraph: its degrees are feasible
    out_degree = np.bincount(tails[chosen], minlength=n).astype(float)
    in_degree = np.bincount(heads[chosen], minlength=n).astype(float)
    fixed, value = fixed_arcs(n, tails, heads, out_degree, in_degree)
    a_eq = np.zeros((2 * n, tails.size))
    a_eq[tails, np.arange(tails.size)] = 1.0
    a_eq[n + heads, np.arange(tails.size)] = 1.0
    b_eq = np.concatenate([out_degree, in_degree])
    for e in range(tails.size):
        c = np.zeros(tails.size)
        c[e] = 1.0
        low = linprog(c, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs").fun
        high = -linprog(-c, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs").fun
        assert fixed[e] == (high - low < 1e-9), e
        if fixed[e]:
            assert abs(value[e] - low) < 1e-9
    assert fixed.any() and not fixed.all()
    none = np.zeros(0, dtype=np.int64)
    assert fixed_arcs(n, none, none, np.zeros(n), np.zeros(n))[0].size == 0
    with pytest.raises(ValueError, match="no p in"):
        fixed_arcs(n, tails, heads, out_degree + n, in_degree + n)  # more than n - 1 arcs
    with pytest.raises(ValueError, match="non-negative integers"):
        fixed_arcs(n, tails, heads, out_degree + 0.5, in_degree + 0.5)


def reciprocal_digraph(n: int, arcs: int, share: float, seed: int) -> gv.Graph:
    """A random digraph whose arcs are reciprocated with chance ``share``."""
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, arcs), rng.integers(0, n, arcs)
    back = rng.random(arcs) < share
    keep = u != v
    return gv.Graph.from_edges(
        np.r_[u[keep], v[keep & back]], np.r_[v[keep], u[keep & back]], n, directed=True
    )


def expected_reciprocated(ug: gv.UncertainGraph) -> float:
    p = dict(zip(zip(ug.u.tolist(), ug.v.tolist()), ug.p.tolist()))
    return sum(x * p.get((b, a), 0.0) for (a, b), x in p.items())


def dyad_qp_by_osqp(g: gv.Graph, ug: gv.UncertainGraph) -> np.ndarray:
    """The dyad-level QP over ug's arcs solved by OSQP: one variable per pair joined both ways
    with both arcs G0's or both potential (a dyad), else per arc; min sum p^2; at every node
    the dyads sum to its G0 mutual degree, the single arcs to the rest of its degrees."""
    osqp = pytest.importorskip("osqp")
    import scipy.sparse as sp

    g0, n = arc_set(g), g.n
    arcs = list(zip(ug.u.tolist(), ug.v.tolist()))
    present = set(arcs)

    def unit(a: int, b: int) -> tuple[int, int, int]:
        tied = (b, a) in present and (((a, b) in g0) == ((b, a) in g0))
        return (1, min(a, b), max(a, b)) if tied else (0, a, b)

    column: dict[tuple[int, int, int], int] = {}
    for a, b in arcs:
        column.setdefault(unit(a, b), len(column))
    k = len(column)
    rows, cols = [], []
    for (tied, a, b), c in column.items():
        rows += [2 * n + a, 2 * n + b] if tied else [a, n + b]
        cols += [c, c]
    a_deg = sp.csc_matrix((np.ones(len(rows)), (rows, cols)), shape=(3 * n, k))
    size = np.array([2.0 if key[0] else 1.0 for key in column])
    mutual = np.zeros(n)
    for a, b in g0:
        if (b, a) in g0:
            mutual[a] += 0.5
            mutual[b] += 0.5
    d = np.r_[g.out_degrees - mutual, g.in_degrees - mutual, mutual]
    problem = osqp.OSQP()
    problem.setup(
        sp.diags(2.0 * size, format="csc"),
        np.zeros(k),
        sp.vstack([a_deg, sp.identity(k)], format="csc"),
        np.r_[d, np.zeros(k)],
        np.r_[d, np.ones(k)],
        eps_abs=1e-10,
        eps_rel=1e-10,
        max_iter=200_000,
        verbose=False,
    )
    new_names = int(str(osqp.__version__).split(".")[0]) >= 1
    result = problem.solve(raise_error=False) if new_names else problem.solve()
    x = np.asarray(result.x)
    return np.array([x[column[unit(a, b)]] for a, b in arcs])


def test_directed_maxvar_dyads_against_osqp_and_keeps_both_degrees():
    g = reciprocal_digraph(40, 150, 0.5, 3)
    ug, report = maxvar(g, n_potential=80, parts=1, seed=2, dyads=True)
    assert report["params"]["dyads"] is True and report["potential_mutual"][0] > 5
    assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-6
    assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-6
    assert ((ug.p >= 0) & (ug.p <= 1)).all()
    potential = arc_set(ug) - arc_set(g)
    assert len(potential) in (79, 80)  # a potential dyad counts two of n_p
    p = dict(zip(zip(ug.u.tolist(), ug.v.tolist()), ug.p.tolist()))
    mutual = {(a, b) for a, b in arc_set(g) if (b, a) in arc_set(g)}
    assert all(p[a, b] == p[b, a] for a, b in mutual)  # a mutual dyad: one variable
    new_dyads = {(a, b) for a, b in potential if (b, a) in potential and a < b}
    assert len(new_dyads) == report["potential_mutual"][0]  # every such pair is one dyad
    fof = directed_fof_pairs(g)
    assert all((a, b) in fof or (b, a) in fof for a, b in new_dyads)
    assert np.abs(ug.p - dyad_qp_by_osqp(g, ug)).max() < 1e-4
    assert abs(report["tv"] - float(np.sum(ug.p * (1 - ug.p)))) < 1e-9
    mutual_degree = np.zeros(g.n)  # kept exactly too: sum of q over the dyads at a node
    for a, _ in mutual:
        mutual_degree[a] += 1.0
    for (a, b), x in p.items():
        if (b, a) in p and (((a, b) in arc_set(g)) == ((b, a) in arc_set(g))):
            mutual_degree[a] -= x
    assert np.abs(mutual_degree).max() < 1e-6


def test_directed_maxvar_dyads_keep_more_reciprocated_arcs_and_threads():
    g = reciprocal_digraph(150, 900, 0.6, 5)
    plain, _ = maxvar(g, n_potential=500, parts=3, seed=4)
    ug, report = maxvar(g, n_potential=500, parts=3, seed=4, dyads=True, threads=1)
    again, _ = maxvar(g, n_potential=500, parts=3, seed=4, dyads=True, threads=2)
    assert np.array_equal(ug.u, again.u) and np.array_equal(ug.p, again.p)
    g0 = _reciprocal(arc_set(g)) * 2
    assert expected_reciprocated(plain) < expected_reciprocated(ug) <= g0
    assert abs(report["mutual_share"] - (g0 / g.m) / (2 - g0 / g.m)) < 1e-12
    assert "dyads" not in maxvar(g, n_potential=10, parts=1, seed=1).report["params"]
    with pytest.raises(ValueError, match="dyads=True is for directed graphs"):
        maxvar(g.to_undirected(), n_potential=10, parts=1, dyads=True)
    osqp, _ = maxvar(g, n_potential=500, parts=3, seed=4, dyads=True, solver="osqp")
    assert np.array_equal(osqp.u, ug.u) and np.abs(osqp.p - ug.p).max() < 1e-4


def test_directed_maxvar_parts_cut_arcs_and_threads():
    g = random_digraph(80, 320, 11)
    one, report = maxvar(g, n_potential=100, parts=3, seed=9, threads=1)
    two, _ = maxvar(g, n_potential=100, parts=3, seed=9, threads=2)
    assert np.array_equal(one.u, two.u) and np.array_equal(one.v, two.v)
    assert np.array_equal(one.p, two.p)
    assert np.abs(one.expected_out_degrees() - g.out_degrees).max() < 1e-6
    assert np.abs(one.expected_in_degrees() - g.in_degrees).max() < 1e-6
    labels = report["labels"]
    assert np.array_equal(labels, metis_parts(g, 3, seed=9 % 2**31, options={"niter": 2}))
    cut = {(a, b) for a, b in arc_set(g) if labels[a] != labels[b]}
    assert report["cut_edges"] == len(cut)
    p_of = dict(zip(zip(one.u.tolist(), one.v.tolist()), one.p.tolist()))
    assert all(p_of[arc] == 1.0 for arc in cut)


def test_directed_split_parts_and_proposal_shortfall_against_brute_force():
    g = random_digraph(12, 20, 3)
    labels = np.zeros(g.n, dtype=np.int64)
    layout = split_parts(g, labels, 1)
    assert layout.directed and layout.subgraph(0) == g
    available = len(directed_fof_pairs(g))
    with pytest.raises(ValueError, match="too few friend-of-friend non-edge pairs"):
        maxvar(g, n_potential=available + 5, parts=1, seed=1)
    ug, report = maxvar(g, n_potential=available + 5, parts=1, seed=1, allow_fewer=True)
    assert report["potential_available"] == [available]
    assert arc_set(ug) - arc_set(g) <= directed_fof_pairs(g)


def test_metis_splits_the_underlying_undirected_graph():
    g = random_digraph(60, 200, 5)
    assert np.array_equal(metis_parts(g, 3, seed=2), metis_parts(g.to_undirected(), 3, seed=2))


# ---------------------------------------------------------------------- EdgeSwitch
def test_directed_edge_switch_keeps_every_in_and_out_degree():
    g = random_digraph(50, 300, 2)
    ug, report = edge_switch(g, switches=5_000, seed=3)
    out = ug.sample(seed=0)
    assert ug.directed and (ug.p == 1).all() and report["performed"] > 1_000
    assert np.array_equal(out.out_degrees, g.out_degrees)
    assert np.array_equal(out.in_degrees, g.in_degrees)
    assert out.m == g.m and not (ug.u == ug.v).any()  # no loops, no duplicates (m kept)
    assert arc_set(out) != arc_set(g)
    with pytest.raises(ValueError, match="nearby=True has no directed form"):
        edge_switch(g, switches=1, nearby=True)


def _reciprocal(arcs: set[tuple[int, int]]) -> int:
    return sum((b, a) in arcs for a, b in arcs) // 2


def test_directed_edge_switch_mixes_like_networkx():
    """After many swaps both chains forget G0: the mean number of reciprocal pairs agrees loosely."""
    g = random_digraph(40, 240, 8)
    ours, theirs = [], []
    for s in range(8):
        ug, _ = edge_switch(g, switches=20 * g.m, seed=s)
        ours.append(_reciprocal(arc_set(ug)))
        ref = nx.DiGraph(list(arc_set(g)))
        nx.directed_edge_swap(ref, nswap=5 * g.m, max_tries=10**6, seed=s)
        assert dict(ref.out_degree()) == {x: d for x, d in enumerate(g.out_degrees) if x in ref}
        theirs.append(_reciprocal(set(ref.edges())))
    assert abs(np.mean(ours) - np.mean(theirs)) < 3.0 + 0.25 * np.mean(theirs)


def mutual_dyads(arcs: set[tuple[int, int]]) -> int:
    return sum(a < b and (b, a) in arcs for a, b in arcs)


def same_degrees_and_dyads(g: gv.Graph) -> set[frozenset[tuple[int, int]]]:
    """Brute force: every digraph on g's nodes with g's in- and out-degrees and mutual dyads."""
    n, out, inn = g.n, g.out_degrees.tolist(), g.in_degrees.tolist()
    rows = [list(itertools.combinations([v for v in range(n) if v != u], out[u])) for u in range(n)]
    found = set()
    for choice in itertools.product(*rows):
        arcs = {(u, v) for u, heads in enumerate(choice) for v in heads}
        counts = np.bincount([v for _, v in arcs], minlength=n).tolist() if arcs else [0] * n
        if counts == inn and mutual_dyads(arcs) == mutual_dyads(arc_set(g)):
            found.add(frozenset(arcs))
    return found


def reached(g: gv.Graph, dyads: bool, runs: int) -> dict[frozenset[tuple[int, int]], int]:
    seen: dict[frozenset[tuple[int, int]], int] = defaultdict(int)
    for s in range(runs):  # as many attempts as allowed (100 m): plenty to mix a tiny digraph
        ug, _ = edge_switch(g, switches=min(400, 100 * g.m), dyads=dyads, seed=s)
        seen[frozenset(arc_set(ug))] += 1
    return seen


TINY_DIGRAPHS = {
    "3-cycle": ([0, 1, 2], [1, 2, 0], 3),
    "3-cycle and a mutual dyad": ([0, 1, 2, 0, 3], [1, 2, 0, 3, 0], 4),
    "two 3-cycles": ([0, 1, 2, 2, 3, 4], [1, 2, 0, 3, 4, 2], 5),
    "mixed": ([0, 1, 0, 2, 2, 3, 4, 1, 3], [1, 0, 2, 3, 4, 4, 1, 3, 0], 5),
    "mutual path": ([0, 1, 1, 2, 2, 3, 3, 0, 4, 1], [1, 0, 2, 1, 3, 2, 4, 2, 0, 4], 5),
}


@pytest.mark.parametrize("name", list(TINY_DIGRAPHS))
def test_dyad_edge_switch_reaches_every_digraph_with_its_degrees_and_dyads(name):
    """Irreducible: the chain reaches every state of the enumerated state space, about
    uniformly (its moves are symmetric), and nothing outside it."""
    tails, heads, n = TINY_DIGRAPHS[name]
    g = gv.Graph.from_edges(tails, heads, n, directed=True)
    space = same_degrees_and_dyads(g)
    runs = 60 * len(space)
    seen = reached(g, True, runs)
    assert set(seen) == space  # every state reached, none outside
    expected = runs / len(space)
    assert max(abs(c - expected) for c in seen.values()) < 5 * math.sqrt(expected)


def test_plain_directed_switch_cannot_reverse_a_3_cycle():
    """The 2-arc switch keeps a directed 3-cycle as it is (Rao et al. 1996): the limitation
    the dyad-aware chain removes; with a mutual dyad beside it, it also changes the dyads."""
    tails, heads, n = TINY_DIGRAPHS["3-cycle"]
    g = gv.Graph.from_edges(tails, heads, n, directed=True)
    assert len(same_degrees_and_dyads(g)) == 2
    assert set(reached(g, False, 50)) == {frozenset(arc_set(g))}
    tails, heads, n = TINY_DIGRAPHS["mixed"]
    g = gv.Graph.from_edges(tails, heads, n, directed=True)
    seen = reached(g, False, 300)
    assert {mutual_dyads(set(arcs)) for arcs in seen} != {mutual_dyads(arc_set(g))}


def test_dyad_edge_switch_keeps_degrees_and_mutual_dyads_and_mixes():
    g = random_digraph(60, 500, 4)
    arcs = arc_set(g)
    both = {(a, b) for a, b in itertools.combinations(range(60), 2) if a % 3 == 0 and b % 3 == 0}
    g = gv.Graph.from_edges(
        [a for a, b in arcs | both] + [b for a, b in both],
        [b for a, b in arcs | both] + [a for a, b in both],
        60,
        directed=True,
    )
    ug, report = edge_switch(g, switches=20 * g.m, dyads=True, seed=5)
    out = ug.sample(seed=0)
    assert report["params"]["dyads"] is True and report["performed"] > g.m
    assert np.array_equal(out.out_degrees, g.out_degrees)
    assert np.array_equal(out.in_degrees, g.in_degrees)
    assert out.m == g.m and not (ug.u == ug.v).any()
    assert mutual_dyads(arc_set(out)) == mutual_dyads(arc_set(g)) > 100
    kept = len(arc_set(out) & arc_set(g)) / g.m
    plain, _ = edge_switch(g, switches=20 * g.m, seed=5)
    assert mutual_dyads(arc_set(plain)) < 0.7 * mutual_dyads(arc_set(g))
    assert kept < 0.5  # it mixes: G0's arcs do not stay
    again, _ = edge_switch(g, switches=20 * g.m, dyads=True, seed=5)
    assert np.array_equal(again.u, ug.u) and np.array_equal(again.v, ug.v)
    with pytest.raises(ValueError, match="dyads=True is for directed graphs"):
        edge_switch(g.to_undirected(), switches=1, dyads=True)
    _, report = edge_switch(g, switches=10, seed=1)
    assert "dyads" not in report["params"]


# ---------------------------------------------------------------------- RandWalk
def test_directed_randwalk_at_t2_against_the_definition():
    """t = 2: z is a successor of v; arcs into a sink fail (their walks all die)."""
    g = gv.Graph.from_edges([0, 0, 1, 1, 2, 3, 3, 4], [1, 2, 2, 5, 3, 0, 4, 5], 6, directed=True)
    sink_arcs = int(np.count_nonzero(g.out_degrees[g.indices] == 0))
    ug, report = randwalk(g, t=2, max_tries=4, seed=1)
    assert ug.directed and (ug.p == 1).all()
    assert report["dead_walks"] == 4 * sink_arcs  # every try of an arc into node 5 dies
    assert report["failed"] >= sink_arcs and report["walks"] == g.m
    assert ug.num_pairs == g.m - report["failed"]
    succ = {x: set(g.successors(x).tolist()) for x in range(g.n)}
    for a, z in arc_set(ug):
        assert a != z and any(z in succ[v] for v in succ[a])
    assert len(arc_set(ug)) == ug.num_pairs  # no duplicates


def test_directed_randwalk_keeps_out_degrees_up_to_failures_and_threads():
    g = random_digraph(300, 2400, 6)
    ug, report = randwalk(g, t=4, seed=2, threads=1)
    again, _ = randwalk(g, t=4, seed=2, threads=2)
    assert np.array_equal(ug.u, again.u) and np.array_equal(ug.v, again.v)
    out = ug.expected_out_degrees()
    assert (out <= g.out_degrees).all()
    assert g.m - out.sum() == report["failed"] == report["lost"]
    with pytest.raises(ValueError, match="routing='fixed' has no directed form"):
        randwalk(g, t=2, routing="fixed")


def test_reverse_randwalk_keeps_in_degrees_up_to_failures_and_threads():
    """direction="in": in-degrees kept as out-degrees are by the forward walk; the forward walk
    of the reversed graph, arcs reversed back, seed for seed."""
    g = random_digraph(300, 2400, 6)
    ug, report = randwalk(g, t=4, direction="in", seed=2, threads=1)
    again, _ = randwalk(g, t=4, direction="in", seed=2, threads=2)
    assert np.array_equal(ug.u, again.u) and np.array_equal(ug.v, again.v)
    assert report["params"]["direction"] == "in"
    inn = ug.expected_in_degrees()
    assert (inn <= g.in_degrees).all() and (ug.u != ug.v).all()
    assert g.m - inn.sum() == report["failed"] == report["lost"]
    assert len(arc_set(ug)) == ug.num_pairs  # no duplicates
    tails, heads = g.edges()
    reversed_g = gv.Graph.from_edges(heads, tails, g.n, directed=True)
    forward, rep = randwalk(reversed_g, t=4, seed=2)
    assert arc_set(ug) == {(b, a) for a, b in arc_set(forward)}
    assert rep["failed"] == report["failed"] and rep["dead_walks"] == report["dead_walks"]
    default, rep = randwalk(g, t=4, seed=2)
    assert "direction" not in rep["params"]  # the default's release is as before
    assert not np.array_equal(default.expected_in_degrees(), g.in_degrees)


def test_reverse_randwalk_at_t2_against_the_definition():
    """t = 2, direction="in": z is a predecessor of a predecessor of v; arcs out of a source fail."""
    g = gv.Graph.from_edges(
        [0, 0, 1, 1, 2, 3, 3, 4, 6], [1, 2, 2, 5, 3, 0, 4, 5, 3], 7, directed=True
    )
    source_arcs = int(np.count_nonzero(g.in_degrees[g.edges()[0]] == 0))
    assert source_arcs == 1  # the arc 6 -> 3
    ug, report = randwalk(g, t=2, max_tries=4, direction="in", seed=1)
    assert report["dead_walks"] >= 4 * source_arcs and report["failed"] >= source_arcs
    pred = {x: set(g.predecessors(x).tolist()) for x in range(g.n)}
    for z, v in arc_set(ug):
        assert z != v and any(z in pred[w] for w in pred[v])
    assert ug.num_pairs == g.m - report["failed"]
    with pytest.raises(ValueError, match="direction='in' is for directed graphs"):
        randwalk(g.to_undirected(), t=2, direction="in")
    with pytest.raises(ValueError, match="direction must be 'out' or 'in'"):
        randwalk(g, t=2, direction="both")


def test_randwalk_mod_has_no_directed_form():
    g = random_digraph(10, 30, 1)
    with pytest.raises(ValueError, match="^randwalk_mod has no directed form: .*thesis"):
        randwalk_mod(g, t=2)


# ---------------------------------------------------------------------- (k, eps)-obfuscation
def _brute_eps(g0: gv.Graph, ug: gv.UncertainGraph, k: int, degree: str) -> float:
    n = ug.n
    law: dict[object, np.ndarray] = defaultdict(lambda: np.zeros(n))
    for mask in itertools.product([0, 1], repeat=ug.num_pairs):
        on = np.array(mask, dtype=bool)
        prob = float(np.prod(np.where(on, ug.p, 1.0 - ug.p)))
        outd = np.bincount(ug.u[on], minlength=n)
        ind = np.bincount(ug.v[on], minlength=n)
        for x in range(n):
            law[{"out": outd[x], "in": ind[x], "joint": (ind[x], outd[x])}[degree]][x] += prob
    fails = 0
    for x in range(n):
        own = {
            "out": g0.out_degrees[x],
            "in": g0.in_degrees[x],
            "joint": (g0.in_degrees[x], g0.out_degrees[x]),
        }[degree]
        y = law[own]
        q = y[y > 0] / y.sum() if y.sum() > 0 else np.ones(1)
        fails += -(q * np.log2(q)).sum() < math.log2(k) - 1e-9
    return fails / n


@pytest.mark.parametrize("degree", ["out", "in", "joint"])
def test_directed_eps_against_possible_worlds(degree):
    rng = np.random.default_rng(0)
    n = 5
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    pick = rng.choice(len(pairs), 9, replace=False)
    u = np.array([pairs[i][0] for i in pick])
    v = np.array([pairs[i][1] for i in pick])
    ug = gv.UncertainGraph(n, u, v, rng.random(9), directed=True)
    g0 = gv.Graph.from_edges(u[:6], v[:6], n, directed=True)
    for k in (2, 3, 4, 5):
        assert directed_eps(g0, ug, k, degree=degree) == pytest.approx(
            _brute_eps(g0, ug, k, degree)
        )
    with pytest.raises(ValueError, match="use eps\\(\\) for undirected"):
        directed_eps(g0.to_undirected(), ug, 2)


@pytest.mark.parametrize("degree", ["joint", "out", "in"])
def test_directed_obfuscation_meets_k_eps_on_its_degree(degree):
    g = random_digraph(80, 400, 1)
    ug, report = obfuscation(g, k=3, eps=0.2, seed=1, degree=degree, attempts=2)
    assert ug.directed and report["params"]["degree"] == degree
    assert report["eps_hat"] <= 0.2
    assert report["eps_hat"] == directed_eps(g, ug, 3, degree=degree)
    assert ug.num_pairs == report["candidate_pairs"] == round(2.0 * g.m)
    assert not (ug.u == ug.v).any()
    again, _ = obfuscation(g, k=3, eps=0.2, seed=1, degree=degree, attempts=2, threads=1)
    assert np.array_equal(again.p, ug.p)


def test_obfuscation_degree_is_for_directed_graphs_only():
    g = random_digraph(20, 60, 1)
    with pytest.raises(ValueError, match="degree must be 'joint', 'out' or 'in'"):
        obfuscation(g, k=2, eps=0.5, degree="total")
    with pytest.raises(ValueError, match="is for directed graphs"):
        obfuscation(g.to_undirected(), k=2, eps=0.5, degree="out")


# ---------------------------------------------------------------------- Mixture, Partition
def test_directed_mixture_on_ordered_pairs():
    g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    g = gv.Graph.from_edges([1, 1, 2], [0, 2, 0], directed=True)
    ug, report = mixture(g0, anonymized=g, p=0.25)
    assert ug.directed
    got = dict(zip(zip(ug.u.tolist(), ug.v.tolist()), ug.p.tolist()))
    assert got == {(0, 1): 0.75, (1, 0): 0.25, (1, 2): 1.0, (2, 0): 1.0}
    assert (report["in_both"], report["only_g0"], report["only_g"]) == (2, 1, 1)
    with pytest.raises(ValueError, match="G0 is directed and G undirected"):
        mixture(g0, anonymized=g.to_undirected(), p=0.5)


def test_directed_mixture_of_maxvar_keeps_both_expected_degrees():
    g = random_digraph(40, 160, 3)
    anon, _ = maxvar(g, n_potential=50, parts=1, seed=1)
    ug, _ = mixture(g, anonymized=anon, p=0.4)
    assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-6
    assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-6


def test_directed_partition_runs_the_scheme_on_directed_parts():
    g = random_digraph(120, 600, 4)
    ug, report = partition(g, scheme="edge_switch", parts=3, switches=500, seed=2)
    assert ug.directed
    out = ug.sample(seed=0)
    assert np.array_equal(out.out_degrees, g.out_degrees)
    assert np.array_equal(out.in_degrees, g.in_degrees)
    labels = get_partitioner("metis").labels(g, 3, seed=2)  # Partition's parts
    cut = {(a, b) for a, b in arc_set(g) if labels[a] != labels[b]}
    assert report["cut_edges"] == len(cut) and cut <= arc_set(ug)
    walked, rep = partition(g, scheme="randwalk", parts=3, t=3, seed=2)
    assert walked.directed
    failed = sum(r["failed"] for r in rep["part_reports"])
    assert walked.num_pairs == g.m - failed


# ---------------------------------------------------------------------- soc-Epinions1
@pytest.fixture(scope="module")
def epinions() -> gv.Graph:
    return gv.read_edgelist(shared_graph_path("soc-Epinions1"), directed=True, threads=2)


@pytest.mark.slow
def test_epinions_maxvar_and_mixture(epinions):
    g = epinions
    ug, report = maxvar(g, n_potential=100_000, parts=4, seed=1, threads=2)
    assert report["max_eq_residual"] < 1e-6 and sum(report["potential_proposed"]) == 100_000
    assert np.abs(ug.expected_out_degrees() - g.out_degrees).max() < 1e-6
    assert np.abs(ug.expected_in_degrees() - g.in_degrees).max() < 1e-6
    mixed, _ = mixture(g, anonymized=ug, p=0.5)
    assert np.abs(mixed.expected_in_degrees() - g.in_degrees).max() < 1e-6


@pytest.mark.slow
def test_epinions_edge_switch_randwalk_obfuscation(epinions):
    g = epinions
    ug, report = edge_switch(g, switches=g.m // 2, seed=1)
    out = ug.sample(seed=0)
    assert np.array_equal(out.out_degrees, g.out_degrees)
    assert np.array_equal(out.in_degrees, g.in_degrees)
    walked, rep = randwalk(g, t=3, seed=1, threads=2)
    assert rep["dead_walks"] > 0 and walked.num_pairs == g.m - rep["failed"]
    obf, rep = obfuscation(g, k=5, eps=0.1, sigma=0.1, attempts=1, seed=1, threads=2)
    assert obf.directed and rep["eps_hat"] <= 0.1
