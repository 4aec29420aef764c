"""DP-1K / DP-2K (dp_dk) and DGG: noise scale, consistency, generators, sensitivity, input."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from scipy import stats

import graphveil as gv
from graphveil.anonymize import dgg, dp_dk
from graphveil.anonymize._dgg import bter_blocks, chung_lu_pairs, noisy_degree_vector
from graphveil.anonymize._dp import EPSILON_MAX, two_sided_geometric
from graphveil.anonymize._dp_dk import (
    configuration_pairs,
    consistent_jdm,
    erdos_gallai_slack,
    graphical_sequence,
    is_graphical,
    jdm_pairs,
    jdm_sensitivity,
    joint_degree_matrix,
    noisy_sorted_degrees,
    simple_pairs,
)

#: Each goodness-of-fit test below fails by chance with this probability; the seeds are fixed,
#: so a run is deterministic. (Over 200 seeds the p-values of the degree-noise tests were
#: uniform: 0.5% below 1e-3, 4% below 0.05, 51% below 0.5.)
FALSE_FAILURE = 1e-3

HUGE = EPSILON_MAX  # noise 0 with probability 1 - 2 exp(-500,000 / 581) on ca-GrQc (DP-2K's JDM)


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


def geometric_chi2_pvalue(noise: np.ndarray, epsilon: float, sensitivity: float) -> float:
    """Chi-square of ``noise`` against Pr[z] = (1 - a) / (1 + a) a^|z|, a = exp(-eps / s)."""
    alpha = math.exp(-epsilon / sensitivity)
    # bins: each z with expected count >= 20, the two tails lumped
    zmax = 0
    while noise.size * (1 - alpha) / (1 + alpha) * alpha ** (zmax + 1) >= 20:
        zmax += 1
    z = np.arange(-zmax, zmax + 1)
    pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)
    tail = (1 - pmf.sum()) / 2
    expected = noise.size * np.concatenate([[tail], pmf, [tail]])
    clipped = np.clip(noise, -zmax - 1, zmax + 1) + zmax + 1
    observed = np.bincount(clipped, minlength=2 * zmax + 3)
    return float(stats.chisquare(observed, expected).pvalue)


@pytest.mark.parametrize(("epsilon", "sensitivity"), [(0.5, 2), (1.0, 2), (5.0, 2), (1.0, 57)])
def test_two_sided_geometric_matches_its_pmf(epsilon, sensitivity):
    noise = two_sided_geometric(
        np.random.default_rng(7), 200_000, epsilon=epsilon, sensitivity=sensitivity
    )
    assert noise.dtype == np.int64
    assert geometric_chi2_pvalue(noise, epsilon, sensitivity) > FALSE_FAILURE
    # and its scale is Laplace's: E|X| -> 2a / (1 - a^2) ~ s / eps for small eps / s
    alpha = math.exp(-epsilon / sensitivity)
    assert np.abs(noise).mean() == pytest.approx(2 * alpha / (1 - alpha**2), rel=0.02)


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_degree_sequence_noise_has_sensitivity_two(grqc, epsilon):
    noisy = noisy_sorted_degrees(grqc.degrees, epsilon, np.random.default_rng(0))
    noise = noisy - np.sort(grqc.degrees.astype(np.int64))
    assert geometric_chi2_pvalue(noise, epsilon, 2) > FALSE_FAILURE


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_dgg_noise_has_sensitivity_two(grqc, epsilon):
    noisy = noisy_degree_vector(grqc.degrees, epsilon, np.random.default_rng(0))
    noise = noisy - grqc.degrees
    assert geometric_chi2_pvalue(noise, epsilon, 2) > FALSE_FAILURE
    assert geometric_chi2_pvalue(noise, epsilon, 1) < FALSE_FAILURE  # not PGB's sensitivity 1


def brute_sensitivities(graph: nx.Graph, cap: int) -> tuple[int, int]:
    """Max L1 change of the sorted degrees and of the capped JDM over all one-edge neighbours."""
    nodes = list(graph)

    def sorted_degrees(h):
        return np.sort([d for _, d in h.degree()])

    def jdm(h):
        g = gv.Graph.from_networkx(h)
        return joint_degree_matrix(g, cap)

    base_s, base_j = sorted_degrees(graph), jdm(graph)
    worst_s = worst_j = 0
    for u, v in itertools.combinations(nodes, 2):
        h = graph.copy()
        if h.has_edge(u, v):
            h.remove_edge(u, v)
        else:
            h.add_edge(u, v)
        worst_s = max(worst_s, int(np.abs(sorted_degrees(h) - base_s).sum()))
        worst_j = max(worst_j, int(np.abs(jdm(h) - base_j).sum()))
    return worst_s, worst_j


@pytest.mark.parametrize("seed", range(4))
def test_stated_sensitivities_bound_brute_force(seed):
    graph = nx.gnp_random_graph(9, 0.45, seed=seed)
    for cap in (1, 2, 3, 5, 8):
        worst_s, worst_j = brute_sensitivities(graph, cap)
        assert worst_s == 2
        assert worst_j <= jdm_sensitivity(cap)


def test_jdm_sensitivity_is_attained():
    # two disjoint stars K_{1,3}, cap D = 4: joining the centres (degree D - 1 = 3) adds one
    # edge and moves the 3 + 3 edges of the centres to other cells: 1 + 2*3 + 2*3 = 4D - 3.
    g = nx.Graph([(0, 1), (0, 2), (0, 3), (4, 5), (4, 6), (4, 7)])
    _, worst = brute_sensitivities(g, 4)
    assert worst == jdm_sensitivity(4) == 13


def test_is_graphical_agrees_with_networkx():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        n = int(rng.integers(1, 10))
        seq = rng.integers(0, n + 1, n)
        assert is_graphical(seq) == nx.is_graphical(seq.tolist()), seq


def test_graphical_sequence_is_consistent():
    rng = np.random.default_rng(1)
    for _ in range(1000):
        n = int(rng.integers(1, 14))
        noisy = np.sort(rng.integers(-4, n + 5, n))
        d = graphical_sequence(noisy)
        assert d.size == n
        assert (d >= 0).all() and (d <= max(n - 1, 0)).all()
        assert (np.diff(d) <= 0).all() and d.sum() % 2 == 0
        assert nx.is_graphical(d.tolist())
        assert erdos_gallai_slack(d).min() >= 0


def test_graphical_sequence_keeps_a_graphical_input(grqc):
    true = np.sort(grqc.degrees.astype(np.int64))
    assert np.array_equal(graphical_sequence(true), true[::-1])


def test_graphical_sequence_on_heavy_noise_of_a_big_sequence():
    rng = np.random.default_rng(2)
    n = 50_000
    true = np.sort(np.minimum(rng.zipf(2.1, n), n - 1))
    d = graphical_sequence(true + two_sided_geometric(rng, n, epsilon=0.1, sensitivity=2))
    assert is_graphical(d)


def test_configuration_model_reproduces_degrees(grqc):
    degrees = grqc.degrees.astype(np.int64)
    u, v = configuration_pairs(degrees, np.random.default_rng(0))
    assert np.array_equal(np.bincount(np.concatenate([u, v]), minlength=grqc.n), degrees)
    su, sv = simple_pairs(grqc.n, u, v)
    erased = u.size - su.size
    assert 0 < erased < 0.01 * u.size  # a few loops and multi-edges only
    out = gv.Graph.from_edges(su, sv, n=grqc.n)
    assert out.m == su.size and (out.degrees <= degrees).all()


@pytest.mark.parametrize("cap", [None, 1, 5, 20])
def test_2k_generator_reproduces_the_jdm(grqc, cap):
    degrees = grqc.degrees.astype(np.int64)
    cap = int(degrees.max()) if cap is None else cap
    classes = np.minimum(degrees, cap)
    iu = np.triu_indices(cap)
    jdm = joint_degree_matrix(grqc, cap)[iu]
    stubs = np.bincount(classes, weights=degrees, minlength=cap + 1)[1:].astype(np.int64)
    assert np.array_equal(consistent_jdm(jdm, iu, stubs), jdm)  # exact input: a fixed point
    u, v = jdm_pairs(degrees, classes, jdm, np.random.default_rng(5))
    assert np.array_equal(np.bincount(np.concatenate([u, v]), minlength=grqc.n), degrees)
    a, b = classes[u], classes[v]
    got = np.bincount((np.minimum(a, b) - 1) * cap + np.maximum(a, b) - 1, minlength=cap * cap)
    assert np.array_equal(got.reshape(cap, cap)[iu], jdm)


def test_consistent_jdm_fits_the_stubs():
    rng = np.random.default_rng(4)
    cap = 12
    iu = np.triu_indices(cap)
    for _ in range(20):
        stubs = rng.integers(0, 400, cap)
        noisy = rng.integers(-50, 80, iu[0].size)
        out = consistent_jdm(noisy, iu, stubs)
        used = np.bincount(iu[0], weights=np.where(iu[0] == iu[1], 2, 1) * out, minlength=cap)
        used += np.bincount(iu[1][iu[0] != iu[1]], weights=out[iu[0] != iu[1]], minlength=cap)
        assert (out >= 0).all() and (used <= stubs).all()
        assert used.sum() >= 0.95 * stubs.sum() - cap * cap  # rounding loses little


@pytest.mark.parametrize("k", [1, 2])
def test_dp_dk_with_huge_epsilon_keeps_the_degrees(grqc, k):
    ug, report = dp_dk(grqc, epsilon=HUGE, k=k, seed=1)
    assert bool((ug.p == 1).all())
    degrees = np.bincount(np.concatenate([ug.u, ug.v]), minlength=grqc.n)
    assert ug.num_pairs + report["erased"] == grqc.m
    # the degree multiset is the true one up to the erased stub pairs
    true = np.sort(grqc.degrees)[::-1]
    assert np.abs(np.sort(degrees)[::-1] - true).sum() <= 2 * report["erased"]


def test_dp_2k_huge_epsilon_keeps_degree_correlation(grqc):
    ug, report = dp_dk(grqc, epsilon=HUGE, k=2, seed=2)
    cap = report["degree_cap"]
    assert report["sensitivity"] == 4 * cap - 3
    g2 = gv.Graph.from_edges(ug.u, ug.v, n=grqc.n)
    r0 = nx.degree_assortativity_coefficient(grqc.to_networkx())
    r2 = nx.degree_assortativity_coefficient(g2.to_networkx())
    ug1, _ = dp_dk(grqc, epsilon=HUGE, k=1, seed=2)
    g1 = gv.Graph.from_edges(ug1.u, ug1.v, n=grqc.n)
    r1 = nx.degree_assortativity_coefficient(g1.to_networkx())
    assert abs(r2 - r0) < abs(r1 - r0)  # the 2K graph keeps more of the correlation


@pytest.mark.parametrize("scheme", ["dp_dk1", "dp_dk2", "dgg"])
def test_same_seed_same_bytes_on_one_or_two_threads(grqc, scheme):
    def run(threads, seed):
        if scheme == "dgg":
            return dgg(grqc, epsilon=1.0, seed=seed, threads=threads).graph
        return dp_dk(grqc, epsilon=1.0, k=int(scheme[-1]), seed=seed, threads=threads).graph

    a, b, c = run(1, 42), run(2, 42), run(2, 43)
    for name in ("u", "v", "p"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes()
    assert a.u.tobytes() + a.v.tobytes() != c.u.tobytes() + c.v.tobytes()


def test_bter_blocks_stay_inside_blocks():
    rng = np.random.default_rng(0)
    degrees = np.array([0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 5, 6, 9], dtype=np.int64)
    u, v, blocks = bter_blocks(degrees, rng)
    # degree >= 2 nodes ranked: blocks {2,2,2}, {3,3,3,3}, {5,6,9} (the rest)
    assert blocks == 3
    block_of = {3: 0, 4: 0, 5: 0, 6: 1, 7: 1, 8: 1, 9: 1, 10: 2, 11: 2, 12: 2}
    for a, b in zip(u.tolist(), v.tolist(), strict=True):
        assert a != b and block_of[a] == block_of[b]
    assert len(set(zip(np.minimum(u, v).tolist(), np.maximum(u, v).tolist()))) == u.size


def test_bter_block_density_is_the_stated_one():
    degrees = np.full(3000, 2, dtype=np.int64)
    degrees[-1] = 2  # top noisy degree 2: density log(3 + 1) / log(3) capped at 1
    u, _, blocks = bter_blocks(degrees, np.random.default_rng(0))
    assert blocks == 1000 and u.size == 3000  # every pair of every triangle block
    degrees[-1] = 80
    u, _, blocks = bter_blocks(degrees, np.random.default_rng(0))
    rho = math.log(4) / math.log(81)
    pairs = 3 * 999 + (3 * 2 // 2)  # 999 triangles and the last block of 3 nodes
    assert abs(u.size - rho * pairs) < 4 * math.sqrt(pairs * rho * (1 - rho))


def test_chung_lu_endpoints_follow_the_weights():
    weights = np.array([0, 1, 2, 3, 10, 0, 4], dtype=np.int64)
    u, v = chung_lu_pairs(weights * 5000, np.random.default_rng(9))
    assert u.size == weights.sum() * 5000 // 2
    counts = np.bincount(np.concatenate([u, v]), minlength=weights.size)
    assert counts[weights == 0].sum() == 0
    expected = counts.sum() * weights[weights > 0] / weights.sum()
    assert stats.chisquare(counts[weights > 0], expected).pvalue > FALSE_FAILURE


def test_dgg_with_huge_epsilon_keeps_the_volume(grqc):
    ug, report = dgg(grqc, epsilon=HUGE, seed=3)
    assert bool((ug.p == 1).all())
    assert report["params"] == {"epsilon": HUGE}
    assert report["block_edges"] + report["chung_lu_edges"] == ug.num_pairs
    assert 0.9 * grqc.m <= ug.num_pairs <= 1.05 * grqc.m
    assert report["budget"] == {"degrees": HUGE}


@pytest.mark.parametrize("epsilon", [0, -1.0, float("nan"), float("inf")])
@pytest.mark.parametrize("scheme", [dp_dk, dgg])
def test_bad_epsilon(grqc, scheme, epsilon):
    with pytest.raises(ValueError, match="epsilon must be a number in"):
        scheme(grqc, epsilon=epsilon)


@pytest.mark.parametrize("scheme", [dp_dk, dgg])
def test_bad_inputs(scheme):
    with pytest.raises(TypeError, match="epsilon must be a number"):
        scheme(gv.Graph.from_edges([0], [1], n=2), epsilon="1")
    with pytest.raises(TypeError, match="graph must be a graphveil.Graph"):
        scheme(nx.path_graph(3), epsilon=1.0)
    with pytest.raises(ValueError, match="at least 2 nodes"):
        scheme(gv.Graph.from_edges([], [], n=1), epsilon=1.0)


@pytest.mark.parametrize("k", [0, 3])
def test_bad_k(grqc, k):
    with pytest.raises(ValueError, match="k must be 1"):
        dp_dk(grqc, epsilon=1.0, k=k)


@pytest.mark.parametrize("k", [1.0, True, "2"])
def test_bad_k_type(grqc, k):
    with pytest.raises(TypeError, match="k must be an integer"):
        dp_dk(grqc, epsilon=1.0, k=k)


def test_empty_graph_on_two_nodes():
    g = gv.Graph.from_edges([], [], n=2)
    for k in (1, 2):
        assert dp_dk(g, epsilon=HUGE, k=k, seed=0).graph.num_pairs == 0
    assert dgg(g, epsilon=HUGE, seed=0).graph.num_pairs == 0
