"""Synthetic graph generation: youtube scale, and Holme-Kim raced against networkx.

Run:  python -m pytest benchmarks/bench_generators.py --benchmark-only
"""

from __future__ import annotations

import networkx as nx
import pytest

from graphveil import generators

SMALL_N, SMALL_M, P = 20_000, 3, 0.5


@pytest.mark.benchmark(group="generate youtube-size (1,134,890 nodes, 2,987,624 edges)")
def test_graphveil_youtube_size(benchmark):
    # Target: a few seconds on the 2-core machine (sequential growth + parallel row sort).
    g = benchmark.pedantic(
        generators.like, args=("youtube",), kwargs={"seed": 0}, rounds=2, iterations=1
    )
    assert (g.n, g.m) == generators.SIZES["youtube"]
    deg = g.degrees
    assert deg.max() > 50 * deg.mean()  # a heavy tail: hubs of thousands


@pytest.mark.benchmark(group=f"powerlaw_cluster n={SMALL_N:,} m={SMALL_M} p={P}")
def test_graphveil_powerlaw_cluster(benchmark):
    g = benchmark.pedantic(
        generators.powerlaw_cluster, args=(SMALL_N, SMALL_M, P), kwargs={"seed": 1}, rounds=5
    )
    assert g.m == SMALL_M * (SMALL_N - SMALL_M)
    assert nx.transitivity(g.to_networkx()) > 0.03  # Erdos-Renyi at this density: 0.0003


@pytest.mark.benchmark(group=f"powerlaw_cluster n={SMALL_N:,} m={SMALL_M} p={P}")
def test_networkx_powerlaw_cluster_graph(benchmark):
    h = benchmark.pedantic(
        nx.powerlaw_cluster_graph, args=(SMALL_N, SMALL_M, P), kwargs={"seed": 1}, rounds=2
    )
    assert h.number_of_nodes() == SMALL_N
    assert h.number_of_edges() >= 0.95 * SMALL_M * (SMALL_N - SMALL_M)
    assert nx.transitivity(h) > 0.03
