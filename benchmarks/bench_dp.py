"""TmF and EdgeFlip: graphveil's O(m + output) release against PGB's dense n x n approach.

PGB (github.com/dooohow/PGB, ``utils.top_m_filter``) materialises the n x n adjacency matrix
and visits every pair; the peer here is that approach re-written in a few lines of numpy
(vectorised, so faster than PGB's Python loops), with graphveil's threshold so both draw from
the same distribution. Answers: published and kept edge counts agree within sampling error
(6 standard deviations), and match the closed forms.

Run:  python -m pytest benchmarks/bench_dp.py --benchmark-only
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import edgeflip, tmf
from graphveil.anonymize._dp import laplace_tail
from graphveil.anonymize._tmf import tmf_threshold

EPSILON = 5.0


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


@pytest.fixture(scope="module")
def notre_dame(notre_dame_path) -> gv.Graph:
    return gv.read_edgelist(notre_dame_path)


def _dense_release(graph: gv.Graph, threshold_noise, seed: int) -> tuple[int, int]:
    """PGB's way: the n x n matrix, a decision on every upper pair; (published, kept edges)."""
    n = graph.n
    dense = np.zeros((n, n), dtype=np.int8)
    u, v = graph.edges()
    dense[u, v] = 1
    iu, iv = np.triu_indices(n, 1)
    cells = dense[iu, iv]
    del iu, iv, dense
    published = threshold_noise(cells, np.random.default_rng(seed))
    return int(published.sum()), int((published & (cells == 1)).sum())


def _agree(a: tuple[int, int], b: tuple[int, int], var: tuple[float, float]) -> bool:
    """Two independent draws of the same counts within 6 standard deviations of their difference."""
    return all(abs(x - y) <= 6 * math.sqrt(2 * s + 1) for x, y, s in zip(a, b, var, strict=True))


def _tmf_closed_form(graph: gv.Graph) -> tuple[float, float, float, float]:
    """theta at m~ = m, and the expected (published, kept) counts and their variances."""
    pairs = graph.n * (graph.n - 1) // 2
    eps = EPSILON * 0.99
    theta = tmf_threshold(pairs, graph.m, eps)
    keep, add = laplace_tail(theta - 1, 1 / eps), laplace_tail(theta, 1 / eps)
    mean = graph.m * keep + (pairs - graph.m) * add
    var = graph.m * keep * (1 - keep) + (pairs - graph.m) * add * (1 - add)
    return theta, mean, var, graph.m * keep * (1 - keep)


@pytest.mark.benchmark(group=f"TmF ca-GrQc epsilon={EPSILON:g}")
def test_graphveil_tmf(benchmark, grqc):
    ug, report = benchmark(tmf, grqc, epsilon=EPSILON, seed=1)
    theta, _, var, var_kept = _tmf_closed_form(grqc)
    eps = EPSILON * 0.99

    def filter_cells(cells, rng):  # the same threshold as graphveil's release
        return (cells + rng.laplace(0.0, 1 / eps, cells.size)) > report["theta"]

    dense = _dense_release(grqc, filter_cells, 2)
    assert _agree((ug.num_pairs, report["kept_edges"]), dense, (var, var_kept))


@pytest.mark.benchmark(group=f"TmF ca-GrQc epsilon={EPSILON:g}")
def test_pgb_dense_tmf(benchmark, grqc):
    theta, mean, var, _ = _tmf_closed_form(grqc)
    eps = EPSILON * 0.99

    def filter_cells(cells, rng):
        return (cells + rng.laplace(0.0, 1 / eps, cells.size)) > theta

    published, _ = benchmark.pedantic(
        _dense_release, args=(grqc, filter_cells, 3), rounds=2, iterations=1
    )
    assert abs(published - mean) <= 6 * math.sqrt(var)


def _edgeflip_closed_form(graph: gv.Graph, eps: float) -> tuple[float, float, float]:
    pairs = graph.n * (graph.n - 1) // 2
    r = 1 / (1 + math.exp(eps))
    mean = graph.m * (1 - r) + (pairs - graph.m) * r
    return mean, graph.m * r * (1 - r) + (pairs - graph.m) * r * (1 - r), graph.m * r * (1 - r)


@pytest.mark.benchmark(group=f"EdgeFlip ca-GrQc epsilon={EPSILON:g}")
def test_graphveil_edgeflip(benchmark, grqc):
    ug, report = benchmark(edgeflip, grqc, epsilon=EPSILON, seed=1)
    _, var, var_kept = _edgeflip_closed_form(grqc, EPSILON)
    r = 1 / (1 + math.exp(EPSILON))

    def flip_cells(cells, rng):
        return cells.astype(bool) ^ (rng.random(cells.size) < r)

    dense = _dense_release(grqc, flip_cells, 2)
    assert _agree((ug.num_pairs, report["kept_edges"]), dense, (var, var_kept))


@pytest.mark.benchmark(group=f"EdgeFlip ca-GrQc epsilon={EPSILON:g}")
def test_pgb_dense_edgeflip(benchmark, grqc):
    mean, var, _ = _edgeflip_closed_form(grqc, EPSILON)
    r = 1 / (1 + math.exp(EPSILON))

    def flip_cells(cells, rng):
        return cells.astype(bool) ^ (rng.random(cells.size) < r)

    published, _ = benchmark.pedantic(
        _dense_release, args=(grqc, flip_cells, 3), rounds=2, iterations=1
    )
    assert abs(published - mean) <= 6 * math.sqrt(var)


# The scale target: web-NotreDame (325,729 nodes, 1,090,108 edges, N = 5.3e10 pairs: no dense
# peer fits) in a few seconds, memory linear in m.
@pytest.mark.benchmark(group="DP releases on web-NotreDame")
@pytest.mark.parametrize("epsilon", [1.0, 10.0])
def test_graphveil_tmf_notre_dame(benchmark, notre_dame, epsilon):
    ug, report = benchmark.pedantic(
        tmf, args=(notre_dame,), kwargs={"epsilon": epsilon, "seed": 1}, rounds=2, iterations=1
    )
    pairs = notre_dame.n * (notre_dame.n - 1) // 2
    mean = notre_dame.m * report["p_keep"] + (pairs - notre_dame.m) * report["p_add"]
    assert abs(ug.num_pairs - mean) <= 6 * math.sqrt(mean) + 1
    assert abs(report["m_noisy"] - notre_dame.m) < 0.01 * notre_dame.m


@pytest.mark.benchmark(group="DP releases on web-NotreDame")
def test_graphveil_edgeflip_notre_dame(benchmark, notre_dame):
    ug, report = benchmark.pedantic(
        edgeflip, args=(notre_dame,), kwargs={"epsilon": 10.0, "seed": 1}, rounds=2, iterations=1
    )
    mean, var, _ = _edgeflip_closed_form(notre_dame, 10.0)
    assert abs(ug.num_pairs - mean) <= 6 * math.sqrt(var)


# The second scale target: the youtube-size graph in well under a minute on 2 cores. EdgeFlip's
# time follows its output (at epsilon = 10 about 32M pairs on N = 6.4e11).
@pytest.mark.benchmark(group="DP releases on synthetic-youtube")
def test_graphveil_tmf_youtube_size(benchmark, youtube_size):
    g = youtube_size
    ug, report = benchmark.pedantic(
        tmf, args=(g,), kwargs={"epsilon": 1.0, "seed": 1}, rounds=1, iterations=1
    )
    pairs = g.n * (g.n - 1) // 2
    mean = g.m * report["p_keep"] + (pairs - g.m) * report["p_add"]
    assert abs(ug.num_pairs - mean) <= 6 * math.sqrt(mean) + 1


@pytest.mark.benchmark(group="DP releases on synthetic-youtube")
def test_graphveil_edgeflip_youtube_size(benchmark, youtube_size):
    ug, _ = benchmark.pedantic(
        edgeflip, args=(youtube_size,), kwargs={"epsilon": 10.0, "seed": 1}, rounds=1, iterations=1
    )
    mean, var, _ = _edgeflip_closed_form(youtube_size, 10.0)
    assert abs(ug.num_pairs - mean) <= 6 * math.sqrt(var)
