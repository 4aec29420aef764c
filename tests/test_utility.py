"""The ten utility statistics (Section VI-B) against networkx, igraph, scipy and powerlaw."""

from __future__ import annotations

import math
import warnings
from functools import cache

import numpy as np
import pytest
from graph_zoo import ZOO, shared_graph_path

import graphveil as gv
from graphveil import _core
from graphveil._seeds import seed_to_u64
from graphveil.measure import distances as D
from graphveil.measure import utility as U

nx = pytest.importorskip("networkx")


@cache
def real_graph(name: str) -> gv.Graph:
    """A graph from ../shared/data, nodes relabelled to 0..n-1 in sorted id order."""
    path = shared_graph_path(name)
    try:
        from graphveil.io import read_edgelist  # lands with the io helper

        graph = read_edgelist(path)
        if isinstance(graph, gv.Graph):
            return graph
    except ImportError:
        pass
    pairs = np.loadtxt(path, dtype=np.int64, comments=["#", "%"], usecols=(0, 1), ndmin=2)
    ids, inverse = np.unique(pairs.ravel(), return_inverse=True)
    inverse = inverse.reshape(-1, 2)
    return gv.Graph.from_edges(inverse[:, 0], inverse[:, 1], ids.size)


def exact_distance_pairs(graph: gv.Graph) -> np.ndarray:
    """Unordered connected pairs at distance 1, 2, ... by networkx all-pairs BFS."""
    counts: dict[int, int] = {}
    for _, lengths in nx.all_pairs_shortest_path_length(graph.to_networkx()):
        for d in lengths.values():
            counts[d] = counts.get(d, 0) + 1
    top = max(counts)
    hist = np.array([counts.get(d, 0) for d in range(top + 1)], dtype=np.int64)
    return hist[1:] // 2


def stats_from_pairs(pairs: np.ndarray) -> dict[str, float]:
    """The four distance statistics straight from their definitions."""
    if pairs.sum() == 0:
        return {"S_APD": math.nan, "S_EDiam": math.nan, "S_CL": math.nan, "S_Diam": 0.0}
    d = np.repeat(np.arange(1, pairs.size + 1), pairs)
    return {
        "S_APD": float(d.mean()),
        "S_EDiam": float(np.sort(d)[math.ceil(0.9 * d.size) - 1]),
        "S_CL": float(d.size / np.sum(1.0 / d)),
        "S_Diam": float(d.max()),
    }


def same(a: float, b: float, rel: float = 1e-12) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=rel, abs=1e-12)


# ------------------------------------------------------------------------------------- the zoo
def test_zoo_all_ten_against_definitions(zoo_graph):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stats = U.utility_statistics(zoo_graph, seed=1)
    assert tuple(stats) == U.STATISTICS
    assert all(isinstance(value, float) for value in stats.values())
    g = zoo_graph
    deg = g.degrees.astype(float)
    G = g.to_networkx()
    assert stats["S_NE"] == g.m
    if g.n == 0:
        assert math.isnan(stats["S_AD"]) and math.isnan(stats["S_DV"]) and stats["S_MD"] == 0
    else:
        assert stats["S_AD"] == pytest.approx(deg.mean())
        assert stats["S_MD"] == deg.max()
        assert stats["S_DV"] == pytest.approx(deg.var())
    assert stats["S_CC"] == pytest.approx(nx.transitivity(G))
    assert math.isnan(stats["S_PL"])  # no zoo graph has four distinct positive degrees
    expected = (
        stats_from_pairs(exact_distance_pairs(g)) if g.n else stats_from_pairs(np.zeros(0, int))
    )
    for key, value in expected.items():
        assert same(stats[key], value), (key, stats[key], value)


@pytest.mark.parametrize("method", ["exact", "hyperball", "sampled"])
def test_zoo_every_distance_method_runs_quietly(zoo_graph, method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = U.distance_statistics(zoo_graph, method=method, seed=3)
    if zoo_graph.m == 0:
        assert math.isnan(out["S_APD"]) and math.isnan(out["S_CL"]) and math.isnan(out["S_EDiam"])
        assert out["S_Diam"] == 0.0
    else:
        assert out["S_APD"] >= 1.0 and out["S_CL"] >= 1.0 and out["S_Diam"] >= out["S_EDiam"] >= 1.0


def test_zoo_kernels_on_degenerate_graphs():
    empty = ZOO["empty"]
    assert U.triangle_count(empty) == (0, 0)
    assert U.distance_histogram(empty).size == 0
    assert U.neighbourhood_function(empty, seed=0).size == 0
    assert U.diameter_lower_bound(empty, seed=0) == 0
    assert U.distance_histogram(ZOO["isolated3"]).tolist() == [3]
    assert U.transitivity(ZOO["star6"]) == 0.0
    assert U.transitivity(ZOO["clique5"]) == 1.0


def test_small_examples_by_hand():
    path = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])
    assert U.distance_histogram(path).tolist() == [4, 6, 4, 2]
    assert U.distance_histogram(path, [0, 0]).tolist() == [2, 2, 2, 2]
    out = U.distance_statistics(path, method="exact")
    # unordered pairs: 3 at distance 1, 2 at 2, 1 at 3
    assert out == {"S_APD": 10 / 6, "S_EDiam": 3.0, "S_CL": 6 / (3 + 1 + 1 / 3), "S_Diam": 3.0}
    assert U.degree_statistics(path) == {"S_NE": 3.0, "S_AD": 1.5, "S_MD": 2.0, "S_DV": 0.25}


def test_the_effective_diameter_is_the_smallest_h_covering_90_percent():
    # 9 pairs at distance 1 and 1 at distance 2: exactly 90% within 1.
    pairs = np.array([9, 1], dtype=np.int64)
    assert D._from_pairs(pairs)["S_EDiam"] == 1.0
    assert D._from_pairs(np.array([8, 2], dtype=np.int64))["S_EDiam"] == 2.0
    assert D._from_pairs(np.array([9.0, 1.0]))["S_EDiam"] == 1.0


# -------------------------------------------------------------------------- validation
def test_input_validation():
    g = ZOO["path5"]
    with pytest.raises(TypeError, match="graphveil.Graph"):
        U.utility_statistics(g.to_networkx())
    with pytest.raises(ValueError, match="method"):
        U.distance_statistics(g, method="anf")
    with pytest.raises(ValueError, match="sources"):
        U.diameter_lower_bound(g, sources=0)
    with pytest.raises(ValueError, match="log2m"):
        U.neighbourhood_function(g, log2m=17)
    with pytest.raises(IndexError, match="node ids"):
        U.distance_histogram(g, [0, 5])
    with pytest.raises(ValueError, match="non-negative"):
        U.powerlaw_exponent([1, 2, -1])
    with pytest.raises(ValueError, match="1-d"):
        U.powerlaw_exponent(np.ones((2, 2)))
    with pytest.raises(TypeError):  # neither width: no silent conversion
        _core.count_triangles(g.indptr, g.indices.astype(np.uint32))


def test_int64_kernels_agree_with_int32():
    g = ZOO["two_components"]
    ip, ix = g.indptr, g.indices.astype(np.int64)
    assert g.indices.dtype == np.int32
    assert _core.count_triangles(ip, ix) == _core.count_triangles(ip, g.indices)
    src = np.arange(g.n, dtype=np.int64)
    assert np.array_equal(
        _core.distance_histogram(ip, ix, src), _core.distance_histogram(ip, g.indices, src)
    )
    assert np.array_equal(_core.hyperball(ip, ix, 6, 5), _core.hyperball(ip, g.indices, 6, 5))


# ------------------------------------------------------------------ real graphs: degrees, S_CC
@pytest.mark.parametrize("name", ["karate_club", "ca-GrQc"])
def test_degree_statistics_and_transitivity_against_networkx(name):
    g = real_graph(name)
    G = g.to_networkx()
    deg = np.array([d for _, d in G.degree()], dtype=float)
    stats = U.degree_statistics(g)
    assert stats["S_NE"] == G.number_of_edges()
    assert stats["S_AD"] == pytest.approx(deg.mean(), rel=1e-12)
    assert stats["S_MD"] == deg.max()
    assert stats["S_DV"] == pytest.approx(deg.var(), rel=1e-12)
    triangles, triples = U.triangle_count(g)
    assert triangles == sum(nx.triangles(G).values()) // 3
    assert triples == int(sum(d * (d - 1) // 2 for d in deg.astype(int)))
    assert U.transitivity(g) == pytest.approx(nx.transitivity(G), rel=1e-12)


@pytest.mark.parametrize("name", ["ca-GrQc", "facebook_combined", "email-Enron"])
def test_transitivity_against_igraph(name):
    ig = pytest.importorskip("igraph")
    g = real_graph(name)
    u, v = g.edges()
    reference = ig.Graph(n=g.n, edges=np.column_stack([u, v])).transitivity_undirected()
    assert U.transitivity(g, threads=2) == pytest.approx(reference, rel=1e-12)


# ---------------------------------------------------------------------- real graphs: distances
def test_distance_histogram_karate_against_scipy():
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    g = real_graph("karate_club")
    dist = csgraph.shortest_path(g.to_scipy(), unweighted=True)
    reference = np.bincount(dist[np.isfinite(dist)].astype(np.int64).ravel())
    assert np.array_equal(U.distance_histogram(g), reference)
    assert U.distance_statistics(g, method="exact") == pytest.approx(
        stats_from_pairs(reference[1:] // 2), rel=1e-12
    )


def _scipy_rows_histogram(g: gv.Graph, sources: np.ndarray) -> np.ndarray:
    """Distances from each source (repeats count) by scipy's BFS, as a histogram."""
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    dist = csgraph.shortest_path(g.to_scipy(), unweighted=True, indices=sources)
    return np.bincount(dist[np.isfinite(dist)].astype(np.int64).ravel())


def _leafy_graph(rng: np.random.Generator, n: int) -> gv.Graph:
    """Trees, stars, paths, isolated edges and nodes, and a dense core: every leaf case at once."""
    edges = [(i, int(rng.integers(0, i))) for i in range(1, n // 3)]  # a random tree
    base = n // 3
    edges += [(base, base + k) for k in range(1, 8)]  # a star
    edges += [(base + 8 + k, base + 9 + k) for k in range(6)]  # a path
    edges += [(base + 16, base + 17), (base + 19, base + 20)]  # isolated edges (K2)
    core = np.arange(base + 22, n)
    for _ in range(3 * core.size):
        a, b = rng.choice(core, 2, replace=False)
        edges.append((int(a), int(b)))
    for _ in range(core.size // 2):  # leaves hanging on the dense part and on the tree
        edges.append((int(rng.choice(core)), int(rng.integers(0, base))))
    u, v = np.array(edges).T
    return gv.Graph.from_edges(u, v, n + 3)  # and three isolated nodes


@pytest.mark.parametrize("seed", range(6))
def test_distance_histogram_from_any_sources_against_scipy(seed):
    # The BFS folds degree-1 nodes into their neighbour and renumbers the rest: sources that
    # are leaves, anchors, isolated nodes, repeated, in K2 components or in many components
    # at once, in batches of 256, must all count as plain BFS from each source does.
    rng = np.random.default_rng(seed)
    g = _leafy_graph(rng, 300 + 150 * seed)
    leaves = np.flatnonzero(g.degrees == 1)
    picks = [
        rng.integers(0, g.n, size=600),  # repeats, isolated nodes, more than two batches
        rng.choice(leaves, size=40),
        np.arange(g.n),
    ]
    for sources in picks:
        sources = np.sort(sources)
        reference = _scipy_rows_histogram(g, sources)
        for threads in (1, 2):
            assert np.array_equal(U.distance_histogram(g, sources, threads=threads), reference)


def test_distance_histogram_does_not_depend_on_node_order():
    g = real_graph("ca-GrQc")
    rng = np.random.default_rng(5)
    sources = np.sort(rng.choice(g.n, 700, replace=False))
    perm = rng.permutation(g.n)  # node i becomes perm[i]
    u, v = g.edges()
    shuffled = gv.Graph.from_edges(perm[u], perm[v], g.n)
    assert np.array_equal(
        U.distance_histogram(g, sources), U.distance_histogram(shuffled, np.sort(perm[sources]))
    )
    assert np.array_equal(U.distance_histogram(g, sources), _scipy_rows_histogram(g, sources))


@pytest.mark.parametrize("name", ["ca-GrQc"])
def test_exact_distances_against_igraph(name):
    ig = pytest.importorskip("igraph")
    g = real_graph(name)
    u, v = g.edges()
    hist = ig.Graph(n=g.n, edges=np.column_stack([u, v])).path_length_hist(directed=False)
    reference = np.array([count for _, _, count in hist.bins()], dtype=np.int64)
    ours = U.distance_histogram(g, threads=2)
    assert ours[0] == g.n
    assert np.array_equal(ours[1:], 2 * reference)
    assert U.distance_statistics(g, method="exact") == pytest.approx(
        stats_from_pairs(reference), rel=1e-12
    )
    # ca-GrQc is disconnected: pairs in different components are left out
    assert hist.unconnected == g.n * (g.n - 1) // 2 - reference.sum()


def test_diameter_lower_bound_is_seeded_and_bounded():
    g = real_graph("ca-GrQc")
    exact = U.distance_statistics(g, method="exact")["S_Diam"]
    few = [U.diameter_lower_bound(g, sources=20, seed=s) for s in range(3)]
    assert all(1 <= d <= exact for d in few)
    assert U.diameter_lower_bound(g, sources=20, seed=7) == U.diameter_lower_bound(
        g, sources=20, seed=7
    )
    assert U.diameter_lower_bound(g, sources=g.n, seed=0) == exact


# ----------------------------------------------------------------------------- HyperBall
@pytest.mark.parametrize("name", ["ca-GrQc", "facebook_combined", "email-Enron"])
def test_hyperball_within_its_stated_error(name):
    g = real_graph(name)
    exact = U.distance_statistics(g, method="exact", threads=2)
    for seed in (11, 12):
        approx = U.distance_statistics(g, method="hyperball", seed=seed, threads=2)
        assert approx["S_APD"] == pytest.approx(exact["S_APD"], rel=0.04)
        assert approx["S_CL"] == pytest.approx(exact["S_CL"], rel=0.04)
        assert abs(approx["S_EDiam"] - exact["S_EDiam"]) <= 1
        assert approx["S_Diam"] <= exact["S_Diam"]
        sampled = U.distance_statistics(g, method="sampled", seed=seed, threads=2)
        assert sampled["S_APD"] == pytest.approx(exact["S_APD"], rel=0.01)
        assert sampled["S_CL"] == pytest.approx(exact["S_CL"], rel=0.01)


def test_hyperball_neighbourhood_function_scale():
    g = real_graph("ca-GrQc")
    nf = U.neighbourhood_function(g, seed=4)
    hist = U.distance_histogram(g)
    exact = np.cumsum(hist)
    assert np.all(np.diff(nf) >= 0)
    assert nf[0] == pytest.approx(g.n, rel=0.01)  # one element per counter: nearly exact
    # N(t) of all counters summed: each counter has 1.04 / sqrt(128) = 9.2% standard error
    assert nf[-1] == pytest.approx(exact[-1], rel=0.15)
    for t in range(1, min(nf.size, exact.size)):
        assert nf[t] == pytest.approx(exact[t], rel=0.15)


# ------------------------------------------------------------------------- power law (S_PL)
def _powerlaw_reference(degrees):
    powerlaw = pytest.importorskip("powerlaw")
    with warnings.catch_warnings():
        # powerlaw 2.x: it advises discrete=True for integer data (we fit the continuous model
        # on purpose, as the paper), and its own xmin search touches a deprecated property.
        warnings.filterwarnings(
            "ignore", message="discrete=False but data exclusively", category=UserWarning
        )
        warnings.filterwarnings(
            "ignore", message="Standard error for the MLE", category=DeprecationWarning
        )
        fit = powerlaw.Fit(degrees, verbose=0)  # verbose=0: no progress bar, no print
        return fit.power_law.alpha, fit.xmin


@pytest.mark.parametrize(
    "name", ["karate_club", "ca-GrQc", "facebook_combined", "ca-HepTh", "email-Enron"]
)
def test_powerlaw_exponent_matches_the_powerlaw_package(name):
    deg = real_graph(name).degrees
    alpha, xmin = _powerlaw_reference(deg)
    fit = U.powerlaw_fit(deg)
    assert fit.xmin == xmin
    assert fit.alpha == pytest.approx(alpha, rel=1e-9)
    assert U.powerlaw_exponent(deg) == fit.alpha


def test_powerlaw_drops_zeros_and_pools():
    g = real_graph("ca-GrQc")
    deg = g.degrees
    with_zeros = np.concatenate([deg, np.zeros(100, dtype=deg.dtype)])
    assert U.powerlaw_exponent(with_zeros) == U.powerlaw_exponent(deg)
    alpha, _ = _powerlaw_reference(with_zeros)
    assert U.powerlaw_exponent(with_zeros) == pytest.approx(alpha, rel=1e-9)
    h = real_graph("ca-HepTh")
    pooled = U.pooled_powerlaw_exponent([g, h])
    assert pooled == U.powerlaw_exponent(np.concatenate([deg, h.degrees]))
    assert pooled == pytest.approx(
        _powerlaw_reference(np.concatenate([deg, h.degrees]))[0], rel=1e-9
    )


def test_powerlaw_without_the_alpha_limit_is_plain_clauset():
    # ca-HepTh's smallest KS distance lies at an alpha above 3, which the powerlaw package's
    # default parameter range excludes; alpha_max=None keeps it.
    deg = real_graph("ca-HepTh").degrees
    limited, free = U.powerlaw_fit(deg), U.powerlaw_fit(deg, alpha_max=None)
    assert free.ks <= limited.ks
    assert free.alpha >= 3.0 > limited.alpha


def test_powerlaw_on_a_known_sample():
    rng = np.random.default_rng(5)
    x = (1.0 - rng.random(4000)) ** (-1 / 1.5) * 3.0  # continuous power law, alpha 2.5, xmin 3
    fit = U.powerlaw_fit(x)
    assert fit.alpha == pytest.approx(2.5, abs=0.1)
    assert 3.0 <= fit.xmin < 6.0  # any cut-off above 3 fits a pure power law
    assert math.isnan(U.powerlaw_exponent([1, 2, 3]))  # fewer than four distinct values
    assert math.isnan(U.powerlaw_exponent([]))


# ------------------------------------------------------------------------- determinism
def test_results_do_not_depend_on_the_thread_count():
    g = real_graph("ca-GrQc")
    one = U.utility_statistics(g, seed=9, threads=1, distance_method="hyperball")
    for threads in (2, 3):
        assert U.utility_statistics(g, seed=9, threads=threads, distance_method="hyperball") == one
        assert U.triangle_count(g, threads=threads) == U.triangle_count(g, threads=1)
        assert np.array_equal(
            U.distance_histogram(g, threads=threads), U.distance_histogram(g, threads=1)
        )
        assert np.array_equal(
            U.neighbourhood_function(g, seed=2, threads=threads),
            U.neighbourhood_function(g, seed=2, threads=1),
        )
    assert U.utility_statistics(g, seed=9, distance_method="hyperball") == one
    assert U.utility_statistics(g, seed=10, distance_method="hyperball") != one


def test_auto_switches_at_the_threshold():
    g = real_graph("karate_club")
    exact = U.distance_statistics(g, method="exact")
    assert U.utility_statistics(g, exact_threshold=34, seed=0)["S_APD"] == exact["S_APD"]
    sampled = U.distance_statistics(g, method="sampled", sources=5, seed=0)
    above = U.utility_statistics(g, exact_threshold=33, sources=5, seed=0)
    assert above["S_APD"] == sampled["S_APD"] != exact["S_APD"]


# ------------------------------------------------------------------------- property tests
hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@st.composite
def small_graphs(draw):
    n = draw(st.integers(min_value=1, max_value=40))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=120))
    u = np.array([a for a, _ in pairs], dtype=np.int64)
    v = np.array([b for _, b in pairs], dtype=np.int64)
    return gv.Graph.from_edges(u, v, n)


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(g=small_graphs(), data=st.data())
def test_kernels_match_networkx_on_random_graphs(g, data):
    G = g.to_networkx()
    assert U.triangle_count(g, threads=3) == (
        sum(nx.triangles(G).values()) // 3,
        int(sum(d * (d - 1) // 2 for d in g.degrees.tolist())),
    )
    sources = data.draw(st.lists(st.integers(0, g.n - 1), max_size=300))
    expected: dict[int, int] = {}
    for s in sources:
        for d in nx.single_source_shortest_path_length(G, s).values():
            expected[d] = expected.get(d, 0) + 1
    hist = U.distance_histogram(g, sources, threads=2)
    assert hist.tolist() == [expected.get(d, 0) for d in range(len(expected))]
    nf = U.neighbourhood_function(g, seed=data.draw(st.integers(0, 2**64 - 1)), log2m=6)
    assert np.all(np.diff(nf) >= 0)
    assert nf[0] == pytest.approx(g.n, rel=0.05)


# ------------------------------------------------------------------ exact diameter (iFUB)
def _all_pairs_diameter(graph: gv.Graph) -> int:
    return max(U.distance_histogram(graph).size - 1, 0)


def test_ifub_equals_all_pairs_bfs_on_the_zoo(zoo_graph):
    value, method = U.diameter(zoo_graph)
    assert method == "ifub" and value == _all_pairs_diameter(zoo_graph)


def _small_shared_graphs() -> list[str]:
    from graph_zoo import real_graph_files

    names = []
    for name in real_graph_files():
        if real_graph(name).n < 10_000:
            names.append(name)
    return names or ["ca-GrQc"]  # the embedded one when no data folder is here


@pytest.mark.parametrize("name", _small_shared_graphs())
def test_ifub_equals_all_pairs_bfs_on_every_shared_graph_under_10k(name):
    g = real_graph(name)
    value, method = U.diameter(g)
    assert method == "ifub"
    assert value == _all_pairs_diameter(g)
    stats = U.utility_statistics(g, seed=1, exact_threshold=0)  # sampled + iFUB
    assert stats["S_Diam"] == value and stats.diameter_method == "ifub"


@pytest.mark.parametrize("seed", range(30))
def test_ifub_on_random_sparse_graphs_with_many_components(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    m = int(rng.integers(0, 2 * n))
    g = gv.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), n)
    h = g.to_networkx()
    want = max(
        (nx.diameter(h.subgraph(c)) for c in nx.connected_components(h) if len(c) > 1), default=0
    )
    assert U.diameter(g, max_bfs=10**6) == (float(want), "ifub")


@pytest.mark.parametrize("seed", range(12))
def test_ifub_from_any_true_lower_bound_stays_exact(seed):
    # Starting iFUB from the longest distance some BFS found (what distance_statistics hands
    # it) must not change its answer, only save BFS.
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(20, 400))
    m = int(rng.integers(n // 2, 3 * n))
    g = gv.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), n)
    exact = _all_pairs_diameter(g)
    plain = _core.diameter_ifub(g.indptr, g.indices, 10**6)
    for known in {0, exact // 2, exact - 1, exact, U.diameter_lower_bound(g, sources=3, seed=seed)}:
        known = max(int(known), 0)
        value, done, bfs = _core.diameter_ifub(g.indptr, g.indices, 10**6, known)
        assert (value, done) == (exact, True)
        assert bfs <= plain[2]
        assert U.diameter(g, max_bfs=10**6, known=known) == (float(exact), "ifub")


def test_the_sampled_statistics_take_the_diameter_fallback_from_their_own_sources(monkeypatch):
    g = real_graph("ca-GrQc")
    rng = np.random.default_rng(seed_to_u64(4))
    own = U.distance_histogram(g, D._random_sources(g, 30, rng)).size - 1

    def no_second_bfs(*args, **kwargs):
        raise AssertionError("the fallback drew a second set of BFS sources")

    monkeypatch.setattr(D, "diameter_lower_bound", no_second_bfs)
    stats = U.distance_statistics(
        g, method="sampled", sources=30, seed=4, diameter_max_bfs=3, exact_threshold=0
    )
    assert stats.diameter_method == "lower_bound"
    assert stats["S_Diam"] >= own
    assert stats["S_Diam"] <= U.diameter(g)[0]
    value, method = U.diameter(g, max_bfs=3, known=own)
    assert (value, method) == (stats["S_Diam"], "lower_bound")


def test_diameter_falls_back_to_the_lower_bound_when_the_budget_runs_out():
    g = real_graph("ca-GrQc")
    exact, _ = U.diameter(g)
    value, method = U.diameter(g, max_bfs=3, sources=50, seed=2)
    assert method == "lower_bound" and value <= exact
    assert value >= U.diameter_lower_bound(g, sources=50, seed=2)
    with pytest.raises(ValueError, match="max_bfs"):
        U.diameter(g, max_bfs=2)
    stats = U.utility_statistics(g, seed=1)
    assert stats.diameter_method == "exact" and tuple(stats) == U.STATISTICS


def test_the_lower_bound_diameter_is_the_sources_longest_distance():
    """``diameter_method="lower_bound"``: S_Diam is the longest distance from the sampled
    sources, iFUB never runs. With every node a source it is the diameter (networkx); with 30
    it is the 30-source bound of the same seed, for the sampled and the HyperBall distances."""
    import networkx as nx

    g = gv.generators.powerlaw_cluster(300, 2, 0.3, seed=3)
    truth = nx.diameter(g.to_networkx())
    every = U.distance_statistics(
        g, method="sampled", sources=10**4, exact_threshold=0, diameter_method="lower_bound"
    )
    assert every.diameter_method == "lower_bound" and every["S_Diam"] == truth
    for method in ("sampled", "hyperball"):
        stats = U.distance_statistics(
            g, method=method, sources=30, seed=5, exact_threshold=0, diameter_method="lower_bound"
        )
        assert stats["S_Diam"] == U.diameter_lower_bound(g, sources=30, seed=5), method
    ifub = U.distance_statistics(g, method="sampled", sources=30, seed=5, exact_threshold=0)
    assert ifub.diameter_method == "ifub" and ifub["S_Diam"] == truth
    exact = U.utility_statistics(g, diameter_method="lower_bound", seed=1)
    assert exact.diameter_method == "exact" and exact["S_Diam"] == truth  # all-pairs anyway
    with pytest.raises(ValueError, match="diameter_method must be"):
        U.utility_statistics(g, diameter_method="exact", exact_threshold=0)


def test_diameter_choice_is_ifub_only_when_it_proves_g0s_diameter():
    """A 40-cycle: every node is a fringe node, so iFUB needs about 10 eccentricities; with a
    budget of 3 it cannot prove the diameter and G0 and its samples take the sources' bound."""
    cycle = gv.Graph.from_edges(np.arange(40), (np.arange(40) + 1) % 40, 40)
    assert U.diameter_choice(cycle, exact_threshold=0) == "ifub"
    assert U.diameter_choice(cycle, exact_threshold=0, max_bfs=3) == "lower_bound"
    assert U.diameter_choice(cycle, max_bfs=3) == "ifub"  # all-pairs below the threshold


def test_original_measures_g0_and_its_samples_with_one_diameter_method(monkeypatch):
    """When iFUB cannot prove G0's diameter, G0's row and every sample's take S_Diam from the
    same seeded sources (no iFUB on either side); a given statistics function is kept as is."""
    from graphveil.measure import Original
    from graphveil.measure import original as original_module
    from graphveil.measure.report import measure_sample

    g0 = gv.generators.powerlaw_cluster(10_500, 2, 0.3, seed=4)  # above the all-pairs size
    ug = gv.anonymize.maxvar(g0, n_potential=2000, parts=1, seed=1)[0]
    calls = []
    monkeypatch.setattr(
        original_module, "diameter_choice", lambda g: calls.append(g) or "lower_bound"
    )

    def no_ifub(*args, **kwargs):
        raise AssertionError("iFUB ran")

    monkeypatch.setattr(D, "diameter", no_ifub)
    ref = Original(g0, statistics_seed=7)
    assert ref.row["S_Diam"] == U.diameter_lower_bound(g0, seed=7)
    row, _ = measure_sample(ref, ug, 0, 11, ref.statistics_seed, 1)
    world = ug.sample_edges(11, index=0)
    sample = gv.Graph.from_edges(*world, g0.n)
    assert row["S_Diam"] == U.diameter_lower_bound(sample, seed=7)
    assert len(calls) == 1  # chosen once per Original
    given = Original(g0, statistics=U.utility_statistics)
    assert given.statistics_function is U.utility_statistics and len(calls) == 1


def _brute_force_fits(degrees, alpha_max=3.0):
    """Every candidate (xmin, alpha, KS) of a continuous power-law fit, by a plain loop."""
    x = np.sort(np.asarray(degrees, dtype=float))
    x = x[x > 0]
    values = np.unique(x)
    out = []
    for xmin in values[:-2]:
        tail = x[x >= xmin]
        alpha = 1.0 + tail.size / np.sum(np.log(tail / xmin))
        ks = 0.0
        for value in np.unique(tail):
            below = np.count_nonzero(tail < value) / tail.size
            ks = max(ks, abs(1.0 - (value / xmin) ** (1.0 - alpha) - below))
        out.append((xmin, alpha, ks))
    eligible = [c for c in out if c[1] < alpha_max] or out
    return min(eligible, key=lambda c: c[2]), eligible


@pytest.mark.parametrize(
    ("name", "side", "unstable"),
    [
        ("soc-Epinions1", "out_degrees", True),  # 2.705 at 55, 1.892 at 2: KS 0.7% apart
        ("soc-Epinions1", "in_degrees", False),
        ("email-Enron", "degrees", False),  # a rival 4.7% off, and its worlds do not flip
        ("ca-GrQc", "degrees", False),
    ],
)
def test_powerlaw_rival_against_brute_force(name, side, unstable):
    path = shared_graph_path(name)
    graph = gv.read_edgelist(path, directed=side != "degrees", threads=2)
    degrees = getattr(graph, side)
    best, candidates = _brute_force_fits(degrees)
    far = [c for c in candidates if abs(c[1] - best[1]) >= U.RIVAL_ALPHA_GAP]
    near = [c for c in far if c[2] <= best[2] * (1 + U.RIVAL_KS_MARGIN)]
    rival = U.powerlaw_rival(degrees)
    assert (rival is not None) == bool(near) == unstable
    if near:
        expected = min(near, key=lambda c: c[2])
        assert (rival.xmin, rival.alpha, rival.ks) == pytest.approx(expected, rel=1e-9)
        fit = U.powerlaw_fit(degrees)
        assert (fit.xmin, fit.alpha) == pytest.approx(best[:2], rel=1e-9)
        assert (fit.xmin, round(fit.alpha, 3), rival.xmin, round(rival.alpha, 3)) == (
            55.0, 2.705, 2.0, 1.892,
        )  # fmt: skip
    assert U.powerlaw_rival(degrees, margin=1.0) is not None  # a loose margin always finds one
    expected_names = {"S_PL_out"} if unstable else set()
    if side == "in_degrees":
        return
    assert set(U.unstable_powerlaw_fits(graph)) == expected_names
