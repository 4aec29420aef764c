"""The partitioners of the registry raced inside MaxVar: time, edge cut and the TV MaxVar reaches.

- web-NotreDame (325,729 nodes, 1,090,108 edges), 20 parts, n_p = 0.19 m (the study's first
  grid point);
- a synthetic graph of com-youtube's size (graphveil.generators.like("youtube"), 1,134,890
  nodes, 2,987,624 edges), 60 parts, n_p = 600,000.

Each case runs ``maxvar(..., partitioner=name, partitioner_options=options)`` once, seed 1:
the benchmark's time is MaxVar's end to end, ``extra_info`` holds the partition phase's
seconds, the cut and the TV (with its bound). Partitioners: METIS with MaxVar's default
(niter 2) and with METIS's own 10 refinement iterations; KaMinPar (if installed) on its default
1 thread, its ``fast`` preset, and 2 threads (faster, but its labels then vary from run to run).

With --benchmark-disable (CI) every case runs once on ca-GrQc (8 parts) instead.

Run: python -m pytest benchmarks/bench_partitioners.py --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import maxvar
from graphveil.anonymize.partitioners import PARTITIONERS

#: (partitioner, options, label): the configurations raced.
CONFIGS = [
    ("metis", None, "metis"),
    ("metis", {"niter": 10}, "metis-niter10"),
    ("kaminpar", None, "kaminpar"),
    ("kaminpar", {"preset": "fast"}, "kaminpar-fast"),
    ("kaminpar", {"threads": 2}, "kaminpar-2threads"),
]


def _params() -> list:
    return [
        pytest.param(
            name,
            options,
            id=label,
            marks=pytest.mark.skipif(
                not PARTITIONERS[name].available(), reason=f"{name} is not installed"
            ),
        )
        for name, options, label in CONFIGS
    ]


@pytest.fixture(scope="module")
def small(request) -> bool:
    return bool(request.config.getoption("benchmark_disable"))


@pytest.fixture(scope="module")
def notre_dame(notre_dame_path, small) -> tuple[gv.Graph, int, int]:
    from graph_zoo import load_shared

    if small:
        g = load_shared("ca-GrQc")
        return g, 8, round(0.19 * g.m)
    g = gv.read_edgelist(notre_dame_path)
    return g, 20, round(0.19 * g.m)


@pytest.fixture(scope="module")
def youtube(small) -> tuple[gv.Graph, int, int]:
    if small:
        from graph_zoo import karate_graph

        return karate_graph(), 2, 20
    return gv.generators.like("youtube"), 60, 600_000


def _race(benchmark, case: tuple[gv.Graph, int, int], name: str, options: dict | None) -> None:
    g, parts, n_p = case
    ug, report = benchmark.pedantic(
        lambda: maxvar(
            g,
            n_potential=n_p,
            parts=parts,
            seed=1,
            allow_fewer=True,
            partitioner=name,
            partitioner_options=options,
        ),
        rounds=1,
        iterations=1,
    )
    labels = report["labels"]
    assert np.bincount(labels, minlength=parts).min() > 0
    u, v = g.edges()
    assert report["cut_edges"] == int(np.count_nonzero(labels[u] != labels[v]))
    assert np.abs(ug.expected_degrees() - g.degrees).max() <= 1e-6
    assert report["tv"] <= report["tv_bound"]
    benchmark.extra_info.update(
        partitioner=name,
        options=report["params"]["partitioner_options"],
        partition_s=report["timings"]["partition"],
        maxvar_s=report["timings"]["total"],
        cut_edges=report["cut_edges"],
        tv=report["tv"],
        tv_bound=report["tv_bound"],
    )


@pytest.mark.benchmark(group="partitioners-notredame")
@pytest.mark.parametrize(("name", "options"), _params())
def test_partitioner_notredame(benchmark, notre_dame, name, options):
    _race(benchmark, notre_dame, name, options)


@pytest.mark.benchmark(group="partitioners-youtube-size")
@pytest.mark.parametrize(("name", "options"), _params())
def test_partitioner_youtube_size(benchmark, youtube, name, options):
    _race(benchmark, youtube, name, options)
