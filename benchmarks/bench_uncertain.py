"""Sampling possible worlds of an uncertain graph with 2.2M pairs on 325,729 nodes.

Random distinct pairs on web-NotreDame's node count, p ~ Uniform(0, 1). graphveil's C++
sampler (per-block streams, direct CSR) is raced against a plain numpy + scipy version
(``rng.random(m) < p``, then a symmetric scipy CSR with sorted rows). Target: at most 0.1 s
per sample on the 2-core machine. Every benchmark also checks the edge count is plausible.

Run: python -m pytest benchmarks/bench_uncertain.py --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import graphveil as gv

NODES = 325_729
PAIRS = 2_200_000


@pytest.fixture(scope="module")
def ug() -> gv.UncertainGraph:
    rng = np.random.default_rng(2015)
    a = rng.integers(0, NODES, PAIRS + PAIRS // 10)
    b = rng.integers(0, NODES, a.size)
    keep = a != b
    keys = np.unique(np.minimum(a, b)[keep] * NODES + np.maximum(a, b)[keep])
    keys = rng.permutation(keys)[:PAIRS]
    return gv.UncertainGraph(NODES, keys // NODES, keys % NODES, rng.random(PAIRS))


def _check_count(ug: gv.UncertainGraph, m: int) -> None:
    # a Poisson-binomial count: 6 standard deviations around the mean
    assert abs(m - ug.expected_num_edges()) < 6 * np.sqrt(ug.total_variance())


def _numpy_sample(ug: gv.UncertainGraph, rng: np.random.Generator) -> sp.csr_array:
    keep = rng.random(ug.num_pairs) < ug.p
    u, v = ug.u[keep], ug.v[keep]
    rows = np.concatenate([u, v])
    cols = np.concatenate([v, u])
    a = sp.csr_array((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(ug.n, ug.n))
    a.sort_indices()
    return a


@pytest.mark.benchmark(group="sample-2.2M-pairs")
def test_graphveil_sample(benchmark, ug):
    seeds = iter(range(10**6))
    g = benchmark(lambda: ug.sample(seed=next(seeds)))
    _check_count(ug, g.m)


@pytest.mark.benchmark(group="sample-2.2M-pairs")
def test_graphveil_sample_one_thread(benchmark, ug):
    seeds = iter(range(10**6))
    g = benchmark(lambda: ug.sample(seed=next(seeds), threads=1))
    _check_count(ug, g.m)


@pytest.mark.benchmark(group="sample-2.2M-pairs")
def test_graphveil_sample_batch_of_4_per_call(benchmark, ug):
    seeds = iter(range(10**6))
    graphs = benchmark.pedantic(lambda: ug.sample(4, seed=next(seeds)), rounds=3, iterations=1)
    for g in graphs:
        _check_count(ug, g.m)


@pytest.mark.benchmark(group="sample-2.2M-pairs")
def test_numpy_scipy_sample(benchmark, ug):
    rng = np.random.default_rng(1)
    a = benchmark(lambda: _numpy_sample(ug, rng))
    _check_count(ug, a.nnz // 2)


@pytest.mark.benchmark(group="sample-edges-2.2M-pairs")
def test_graphveil_sample_edges(benchmark, ug):
    seeds = iter(range(10**6))
    u, _ = benchmark(lambda: ug.sample_edges(seed=next(seeds)))
    _check_count(ug, u.size)


@pytest.mark.benchmark(group="sample-edges-2.2M-pairs")
def test_numpy_sample_edges(benchmark, ug):
    rng = np.random.default_rng(1)

    def run():
        keep = rng.random(ug.num_pairs) < ug.p
        return ug.u[keep], ug.v[keep]

    u, _ = benchmark(run)
    _check_count(ug, u.size)
