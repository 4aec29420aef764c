"""Holme-Kim generator: exact sizes, simple graphs, reproducibility, and statistics against networkx."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphveil as gv
from graphveil import generators


def _is_simple(g: gv.Graph) -> None:
    # Check the CSR independently: sorted unique rows, symmetric, no self-loops.
    a = g.to_scipy(dtype=np.int8)
    assert a.has_canonical_format
    assert not a.diagonal().any()
    assert (a != a.T).nnz == 0


@pytest.mark.parametrize("n, m", [(2, 1), (10, 1), (10, 3), (50, 5), (1000, 3)])
@pytest.mark.parametrize("p", [0.0, 0.5, 1.0])
def test_powerlaw_cluster_size_and_simplicity(n, m, p):
    g = generators.powerlaw_cluster(n, m, p, seed=7)
    assert (g.n, g.m) == (n, m * (n - m))
    _is_simple(g)
    deg = g.degrees
    # Every arriving node keeps its m edges; the seed nodes all join node m.
    assert deg[m:].min() >= m
    assert deg[:m].min() >= 1


def test_first_arrival_joins_the_seed_like_networkx():
    g = generators.powerlaw_cluster(4, 3, 0.5, seed=0)
    assert sorted(g.neighbors(3).tolist()) == [0, 1, 2]


def test_same_seed_same_graph_any_thread_count():
    a = generators.powerlaw_cluster(5000, 3, 0.4, seed=123, threads=1)
    b = generators.powerlaw_cluster(5000, 3, 0.4, seed=123, threads=4)
    c = generators.powerlaw_cluster(5000, 3, 0.4, seed=124, threads=1)
    assert a == b
    assert a != c
    rng_a = generators.powerlaw_cluster_sized(3000, 8000, 0.3, seed=np.random.default_rng(5))
    rng_b = generators.powerlaw_cluster_sized(3000, 8000, 0.3, seed=np.random.default_rng(5))
    assert rng_a == rng_b


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 400),
    mean=st.floats(1.0, 6.0),
    p=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32),
)
def test_sized_hits_exact_counts(n, mean, p, seed):
    edges = max(n - 1, int(mean * n))
    try:
        g = generators.powerlaw_cluster_sized(n, edges, p, seed=seed)
    except ValueError as exc:  # only when the growth cannot place that many edges
        assert "too many" in str(exc)
        assert edges > n * (n - 1) // 4
        return
    assert (g.n, g.m) == (n, edges)
    _is_simple(g)


def test_edge_schedule_is_exact_and_feasible():
    for n, edges in [
        (1_134_890, 2_987_624),
        (317_080, 1_049_866),
        (334_863, 925_872),
        (10, 9),
        (100, 2000),
    ]:
        k = generators._edge_schedule(n, edges)
        assert int(k.sum()) == edges
        assert np.all(k <= np.arange(n))
        first = int(np.flatnonzero(k)[0])
        assert np.all(k[first:] >= 1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: generators.powerlaw_cluster(10, 0, 0.5), "m must be at least 1"),
        (lambda: generators.powerlaw_cluster(3, 3, 0.5), "n must exceed m"),
        (lambda: generators.powerlaw_cluster(10, 2, 1.5), r"p must lie in \[0, 1\]"),
        (lambda: generators.powerlaw_cluster(10, 2, -0.1), r"p must lie in \[0, 1\]"),
        (lambda: generators.powerlaw_cluster_sized(10, 5, 0.5), "below n - 1"),
        (lambda: generators.powerlaw_cluster_sized(10, 45, 0.5), "too many"),
        (
            lambda: generators.powerlaw_cluster(10, 2, 0.5, seed=-1),
            r"seed must lie in \[0, 2\*\*64\)",
        ),
    ],
)
def test_bad_arguments_raise_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_types_raise_type_error():
    with pytest.raises(TypeError, match="n must be an integer"):
        generators.powerlaw_cluster(10.0, 2, 0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="m must be an integer"):
        generators.powerlaw_cluster(10, 2.5, 0.5)  # type: ignore[arg-type]


def test_like_has_the_named_sizes():
    g = generators.like("amazon", seed=3)
    assert (g.n, g.m) == generators.SIZES["amazon"]
    assert generators.like("com-amazon", seed=3) == g
    with pytest.raises(KeyError, match="no size named"):
        generators.like("facebook")


# ---------------------------------------------------------------------------- against networkx
N, M, SEEDS = 2000, 3, range(6)


def _summary(graphs: list[nx.Graph]) -> dict[str, np.ndarray]:
    out: dict[str, list[float]] = {
        "mean_degree": [],
        "clustering": [],
        "q90": [],
        "q99": [],
        "max": [],
    }
    for h in graphs:
        deg = np.array([d for _, d in h.degree()])
        out["mean_degree"].append(deg.mean())
        out["clustering"].append(nx.average_clustering(h))
        out["q90"].append(np.quantile(deg, 0.9))
        out["q99"].append(np.quantile(deg, 0.99))
        out["max"].append(deg.max())
    return {k: np.array(v) for k, v in out.items()}


@pytest.mark.parametrize("p", [0.0, 0.3, 0.8])
def test_statistics_match_networkx_powerlaw_cluster_graph(p):
    ours = _summary([generators.powerlaw_cluster(N, M, p, seed=s).to_networkx() for s in SEEDS])
    ref = _summary([nx.powerlaw_cluster_graph(N, M, p, seed=s) for s in SEEDS])
    # Mean degree: ours is exactly 2m(n-m)/n; networkx loses a few edges to repeated targets.
    assert np.allclose(ours["mean_degree"], 2 * M * (N - M) / N)
    assert abs(ref["mean_degree"].mean() - ours["mean_degree"].mean()) < 0.05 * 2 * M
    # Clustering: same model, so means agree within a few standard errors of the difference.
    diff = ours["clustering"].mean() - ref["clustering"].mean()
    se = np.sqrt(
        ours["clustering"].var(ddof=1) / len(SEEDS) + ref["clustering"].var(ddof=1) / len(SEEDS)
    )
    assert abs(diff) < max(5 * se, 0.02), (ours["clustering"], ref["clustering"])
    # Heavy tail: the upper quantiles and the hub sizes agree to within sampling noise.
    for key, rel in (("q90", 0.15), ("q99", 0.2), ("max", 0.5)):
        assert abs(ours[key].mean() - ref[key].mean()) <= rel * ref[key].mean(), (
            key,
            ours[key],
            ref[key],
        )


def test_clustering_grows_with_p_and_is_real():
    clustering = [
        nx.average_clustering(generators.powerlaw_cluster(N, M, p, seed=1).to_networkx())
        for p in (0, 0.5, 1)
    ]
    assert clustering[0] < clustering[1] < clustering[2]
    assert clustering[1] > 0.2  # far above an Erdos-Renyi graph of the same density (~0.003)


def test_degree_tail_is_a_power_law():
    powerlaw = pytest.importorskip("powerlaw")
    g = generators.powerlaw_cluster(30_000, 3, 0.5, seed=11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # powerlaw's fits emit numerical RuntimeWarnings
        fit = powerlaw.Fit(g.degrees, discrete=True, xmin=10, verbose=False)
        alpha = fit.power_law.alpha
        ratio, _ = fit.distribution_compare("power_law", "exponential", normalized_ratio=True)
    assert 2.4 < alpha < 3.6, alpha  # Holme-Kim / Barabasi-Albert: gamma = 3
    assert ratio > 0  # a power law fits the tail better than an exponential
