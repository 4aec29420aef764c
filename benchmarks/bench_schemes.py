"""The other schemes at web-NotreDame scale (325,729 nodes, 1,090,108 edges).

- RandWalk and RandWalk-mod at t = 5 (2.2M walks of 4 hops): the authors' retrying walk on one
  shared output graph (first tries in parallel, retries and coins in one sequential pass, so
  the output does not depend on the thread count): target <= 1 s. Measured 0.30 s (all threads)
  since a batch's hops overlap their loads and the retry pass fetches ahead (0.43 s before;
  0.50 s on 1 thread against 1.04 s for the per-node parallel kernel it replaced, commit ac51fa9).
  Raced on ca-GrQc against the plain-Python transcription of the authors' loop, and the
  printed RandWalk-mod (no retries, parallel) against the same in plain vectorised numpy.
- EdgeSwitch, 500k attempted switches (C++, sequential): target <= 1 s; raced against
  networkx.double_edge_swap on ca-GrQc (networkx is far too slow for web-NotreDame).
- (k, eps)-obfuscation at a fixed sigma = 0.01, c = 2, one attempt, k = 50, eps = 0.1,
  including its exact eps check: target <= 10 s.
The full sigma search (k = 50, eps = 0.1) takes minutes and is not run here.

Run: python -m pytest benchmarks/bench_schemes.py --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest
from graph_zoo import authors_random_walk_transform, load_shared

import graphveil as gv
from graphveil.anonymize import edge_switch, obfuscation, randwalk, randwalk_mod


@pytest.fixture(scope="module")
def notre_dame() -> gv.Graph:
    return load_shared("web-NotreDame")


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return load_shared("ca-GrQc")


def _pairs_close_to_m(count: int, g: gv.Graph) -> None:
    # sum of 2m Bernoulli(Q) with mean m and variance <= m / 2
    assert abs(count - g.m) < 6 * np.sqrt(g.m / 2)


def _numpy_randwalk_mod(
    g: gv.Graph, t: int, alpha: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    deg = g.degrees
    u = np.repeat(np.arange(g.n), deg)
    x = g.indices.astype(np.int64)
    for _ in range(t - 1):
        x = g.indices[g.indptr[x] + (rng.random(x.size) * deg[x]).astype(np.int64)].astype(np.int64)
    d = deg[u].astype(np.float64)
    k = np.arange(u.size) - g.indptr[u]
    later = np.divide(0.5 * d - alpha, d - 1, out=np.zeros_like(d), where=d > 1)
    q = np.where(d == 1, 0.5, np.where(k == 0, alpha, later))
    keep = rng.random(u.size) < q
    return u[keep], x[keep]


def _edges_plus_lost_close_to_m(report: dict, g: gv.Graph) -> None:
    # E[edges] = m - E[lost] for the retrying walk (the acceptance probabilities sum to m)
    _pairs_close_to_m(round(report["edges"] + report["lost"]), g)


@pytest.mark.benchmark(group="randwalk t=5 web-NotreDame")
def test_randwalk_mod_t5(benchmark, notre_dame):
    ug, report = benchmark.pedantic(
        lambda: randwalk_mod(notre_dame, t=5, variant="retry", seed=1), rounds=3, iterations=1
    )
    assert not ug.relaxed and np.all(ug.u < ug.v) and report["params"]["t"] == 5
    _edges_plus_lost_close_to_m(report, notre_dame)
    benchmark.extra_info.update(failed=report["failed"], edges=report["edges"])


@pytest.mark.benchmark(group="randwalk t=5 web-NotreDame")
def test_randwalk_t5(benchmark, notre_dame):
    ug, report = benchmark.pedantic(
        lambda: randwalk(notre_dame, t=5, seed=1), rounds=3, iterations=1
    )
    assert not ug.relaxed and np.all(ug.u < ug.v)
    _edges_plus_lost_close_to_m(report, notre_dame)


@pytest.mark.benchmark(group="randwalk t=5 web-NotreDame")
def test_randwalk_mod_printed_t5(benchmark, notre_dame):
    ug, report = benchmark.pedantic(
        lambda: randwalk_mod(notre_dame, t=5, variant="printed", seed=1), rounds=3, iterations=1
    )
    _pairs_close_to_m(ug.num_pairs, notre_dame)
    assert ug.relaxed and report["params"]["variant"] == "printed"


@pytest.mark.benchmark(group="randwalk t=5 web-NotreDame")
def test_randwalk_mod_printed_t5_fixed_routing(benchmark, notre_dame):
    ug, _ = benchmark.pedantic(
        lambda: randwalk_mod(notre_dame, t=5, variant="printed", routing="fixed", seed=1),
        rounds=3,
        iterations=1,
    )
    _pairs_close_to_m(ug.num_pairs, notre_dame)


@pytest.mark.benchmark(group="randwalk t=5 web-NotreDame")
def test_randwalk_mod_printed_t5_numpy_peer(benchmark, notre_dame):
    u, _ = benchmark.pedantic(
        lambda: _numpy_randwalk_mod(notre_dame, 5, 0.5, 1), rounds=3, iterations=1
    )
    _pairs_close_to_m(u.size, notre_dame)


@pytest.mark.benchmark(group="randwalk-mod t=5 ca-GrQc")
def test_randwalk_mod_t5_grqc(benchmark, grqc):
    _, report = benchmark.pedantic(
        lambda: randwalk_mod(grqc, t=5, variant="retry", seed=1), rounds=3, iterations=1
    )
    _edges_plus_lost_close_to_m(report, grqc)


@pytest.mark.benchmark(group="randwalk-mod t=5 ca-GrQc")
def test_randwalk_mod_t5_grqc_python_peer(benchmark, grqc):
    # The authors' loop, transcribed in plain Python (tests/graph_zoo.py)
    edges, _, lost = benchmark.pedantic(
        lambda: authors_random_walk_transform(grqc, 5, 10, 0.5, np.random.default_rng(1)),
        rounds=1,
        iterations=1,
    )
    _pairs_close_to_m(round(len(edges) + lost), grqc)


@pytest.mark.benchmark(group="switch 500k web-NotreDame")
@pytest.mark.parametrize("nearby", [False, True], ids=["uniform", "nearby"])
def test_switch_500k(benchmark, notre_dame, nearby):
    ug, report = benchmark.pedantic(
        lambda: edge_switch(notre_dame, switches=500_000, nearby=nearby, seed=1),
        rounds=3,
        iterations=1,
    )
    assert report["performed"] > 0
    deg = np.bincount(np.concatenate([ug.u, ug.v]), minlength=notre_dame.n)
    np.testing.assert_array_equal(deg, notre_dame.degrees)


@pytest.mark.benchmark(group="switch 20k ca-GrQc")
def test_switch_grqc(benchmark, grqc):
    ug, _ = benchmark(lambda: edge_switch(grqc, switches=20_000, seed=1))
    deg = np.bincount(np.concatenate([ug.u, ug.v]), minlength=grqc.n)
    np.testing.assert_array_equal(deg, grqc.degrees)


@pytest.mark.benchmark(group="switch 20k ca-GrQc")
def test_switch_grqc_networkx(benchmark, grqc):
    import networkx as nx

    def run():
        h = grqc.to_networkx()
        nx.double_edge_swap(h, nswap=20_000, max_tries=10**6, seed=1)
        return h

    h = benchmark.pedantic(run, rounds=1, iterations=1)
    np.testing.assert_array_equal([d for _, d in sorted(h.degree())], grqc.degrees)


@pytest.mark.benchmark(group="obfuscation fixed sigma web-NotreDame")
def test_obfuscation_fixed_sigma(benchmark, notre_dame):
    ug, report = benchmark.pedantic(
        lambda: obfuscation(notre_dame, k=50, eps=0.1, sigma=0.01, c=2.0, attempts=1, seed=1),
        rounds=1,
        iterations=1,
    )
    assert report["eps_hat"] <= 0.1
    assert report["candidate_pairs"] == ug.num_pairs == 2 * notre_dame.m


@pytest.mark.benchmark(group="obfuscation sigma search web-NotreDame")
def test_obfuscation_sigma_search(benchmark, request, notre_dame):
    # The full search of the paper's setting (k = 50, eps = 0.1, 5 attempts per sigma): about a
    # minute, so it runs with --benchmark-only; CI checks the same path on ca-GrQc below.
    if request.config.getoption("benchmark_disable"):
        pytest.skip("the full sigma search takes about a minute: --benchmark-only runs it")
    _, report = benchmark.pedantic(
        lambda: obfuscation(notre_dame, k=50, eps=0.1, seed=1), rounds=1, iterations=1
    )
    assert report["eps_hat"] <= 0.1
    sigmas = [h["sigma"] for h in report["history"]]
    assert report["sigma"] == min(s for s, h in zip(sigmas, report["history"]) if h["success"])
    benchmark.extra_info.update(sigma=report["sigma"], sigmas_tried=len(sigmas))


def test_obfuscation_sigma_search_grqc(grqc):
    _, report = obfuscation(grqc, k=50, eps=0.1, seed=1, attempts=2)
    assert report["eps_hat"] <= 0.1
    assert len(report["history"]) <= 8  # doubling/bisection stops within tol, not at sigma_min


# ------------------------------------------------------------------ RandWalk-mod's model TV
# Fig. 10's RandWalk-mod bar is the TV of the model A P^(t-1), streamed as blocks of 16
# columns. One dense walk step of a block on web-NotreDame (2.2M arcs): the C++ product
# (prefetching the rows of the arcs ahead) raced against scipy's sparse-times-dense product,
# same bits: 30 ms against 45 ms (medians; on synthetic-youtube, whose rows are scattered, 0.29 s
# against 0.7-0.9 s). And the whole estimate at t = 5, 200 columns: 1.6 s.


@pytest.fixture(scope="module")
def walk_block(notre_dame: gv.Graph) -> tuple[object, np.ndarray]:
    from graphveil.anonymize._randwalk import transition_matrix

    return transition_matrix(notre_dame), np.random.default_rng(0).random((notre_dame.n, 16))


def test_model_tv_step_graphveil(benchmark, notre_dame, walk_block):
    from graphveil import _core

    p, x = walk_block
    out = benchmark(_core.csr_dense_product, notre_dame.indptr, notre_dame.indices, p.data, x)
    np.testing.assert_array_equal(out[:1000], (p[:1000] @ x))


def test_model_tv_step_scipy(benchmark, walk_block):
    p, x = walk_block
    out = benchmark(lambda: p @ x)
    assert out.shape == x.shape


def test_model_tv_estimate_t5(benchmark, notre_dame):
    from graphveil.anonymize import randwalk_mod_tv_estimate

    tv, se = benchmark.pedantic(
        randwalk_mod_tv_estimate, args=(notre_dame, 5), kwargs={"columns": 200}, rounds=1
    )
    assert 0 < tv <= notre_dame.m and 0 <= se < 0.05 * tv
