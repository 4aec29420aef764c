"""The analyst statistics (measure/analyst.py) against networkx, igraph, scikit-learn and ports
of PGB's and PrivGraph's own definitions, on small real graphs and the zoo of degenerate ones."""

from __future__ import annotations

import csv
import itertools
import json
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph, load_shared

import graphveil as gv
from graphveil import evaluate
from graphveil.measure import analyst as A
from graphveil.measure import utility as U
from graphveil.measure.errors import error_term
from graphveil.measure.report import Report, analyst_error

nx = pytest.importorskip("networkx")
ig = pytest.importorskip("igraph")
metrics = pytest.importorskip("sklearn.metrics")

REAL = ["karate", "ca-GrQc", "facebook_combined"]


def _real(name: str) -> gv.Graph:
    return karate_graph() if name == "karate" else load_shared(name)


@pytest.fixture(scope="module", params=REAL)
def real(request) -> tuple[gv.Graph, object]:
    g = _real(request.param)
    return g, g.to_networkx()


def _vector(values: dict[int, float], n: int) -> np.ndarray:
    return np.array([values[i] for i in range(n)])


def _thinned(g: gv.Graph, keep: float, seed: int) -> gv.Graph:
    """G with a random share ``keep`` of its edges (a stand-in for an anonymized sample)."""
    u, v = g.edges()
    mask = np.random.default_rng(seed).random(u.size) < keep
    return gv.Graph.from_edges(u[mask], v[mask], g.n)


def _thinned_connected(g: gv.Graph, keep: float, seed: int) -> gv.Graph:
    """:func:`_thinned` plus a spanning forest of G, so a connected G stays connected."""
    forest = A.sp.csgraph.minimum_spanning_tree(A._adjacency(g)).tocoo()
    u, v = _thinned(g, keep, seed).edges()
    return gv.Graph.from_edges(
        np.concatenate([u, forest.row]), np.concatenate([v, forest.col]), g.n
    )


# ------------------------------------------------------------------ deterministic statistics
def test_triangles_and_clustering_equal_networkx(real):
    g, G = real
    if g.n > 4000:  # facebook_combined: networkx takes seconds, igraph's C is the reference
        u, v = g.edges()
        graph = ig.Graph(n=g.n, edges=np.column_stack([u, v]))
        expected = graph.transitivity_avglocal_undirected(mode="zero")
        assert A.average_clustering(g) == pytest.approx(expected, rel=1e-12)
        assert A.local_triangles(g).sum() // 3 == U.triangle_count(g)[0]
        return
    local = A.local_triangles(g)
    assert local.tolist() == _vector(nx.triangles(G), g.n).tolist()
    assert U.triangle_count(g)[0] == local.sum() // 3
    assert A.average_clustering(g) == pytest.approx(nx.average_clustering(G), rel=1e-12)


def test_assortativity_equals_networkx(real):
    g, G = real
    assert A.assortativity(g) == pytest.approx(nx.degree_assortativity_coefficient(G), rel=1e-10)


def test_modularity_equals_networkx_and_igraph(real):
    g, G = real
    labels = A.communities(g, seed=1)
    parts = [set(np.flatnonzero(labels == c).tolist()) for c in np.unique(labels)]
    expected = nx.community.modularity(G, parts, weight=None)
    assert A.modularity(g, labels) == pytest.approx(expected, abs=1e-12)
    u, v = g.edges()
    graph = ig.Graph(n=g.n, edges=np.column_stack([u, v]))
    assert A.modularity(g, labels) == pytest.approx(graph.modularity(labels.tolist()), abs=1e-12)


def test_eigenvector_centrality_equals_networkx(real):
    g, G = real
    x = A.eigenvector_centrality(g)
    if g.n < 100:  # networkx's own power iteration (PGB's and PrivGraph's call)
        expected = nx.eigenvector_centrality(G, max_iter=10000, tol=1e-12, weight=None)
        np.testing.assert_allclose(x, _vector(expected, g.n), atol=1e-10)
        return
    # networkx refuses a disconnected graph (ca-GrQc): the vector lives on the component of
    # the largest eigenvalue, here the largest, and is 0 elsewhere
    largest = sorted(max(nx.connected_components(G), key=len))
    expected = nx.eigenvector_centrality_numpy(G.subgraph(largest), weight=None)
    np.testing.assert_allclose(x[largest], [expected[i] for i in largest], atol=1e-8)
    assert np.abs(np.delete(x, largest)).max(initial=0.0) < 1e-8


def test_pagerank_equals_networkx(real):
    g, G = real
    expected = _vector(nx.pagerank(G, weight=None, tol=1e-13, max_iter=1000), g.n)
    np.testing.assert_allclose(A.pagerank(g), expected, atol=1e-9)
    k = max(A.top_count(g.n), 5)
    assert A.top_overlap(A.pagerank(g), expected, k) == 1.0


def test_kernels_are_the_same_on_one_or_many_threads():
    # 30,000 nodes: 8 blocks of the kernels' fixed-block sums, so threads share them out
    g = gv.generators.powerlaw_cluster(30_000, 3, 0.3, seed=1)
    h = _thinned(g, 0.9, seed=2)
    for graph in (g, h):
        one = (
            A.local_triangles(graph, threads=1),
            A.pagerank(graph, threads=1),
            A.eigenvector_centrality(graph, threads=1),
        )
        for threads in (2, 5):
            many = (
                A.local_triangles(graph, threads=threads),
                A.pagerank(graph, threads=threads),
                A.eigenvector_centrality(graph, threads=threads),
            )
            assert all(a.tobytes() == b.tobytes() for a, b in zip(one, many, strict=True))
        seeds = A.degree_discount_seeds(graph)
        spread = A.influence_spread(g, seeds, seed=3, threads=1)
        assert A.influence_spread(g, seeds, seed=3, threads=4) == spread


def test_top_nodes_sort_by_value_then_id():
    rng = np.random.default_rng(1)
    for trial in range(200):
        n = int(rng.integers(0, 60))
        x = rng.random(n) if trial % 2 else rng.integers(0, 5, size=n).astype(float)
        if trial % 7 == 0 and n:
            x[rng.integers(0, n)] = np.nan  # sorted last
        for k in (0, 1, 3, n - 1, n, n + 4):
            expected = sorted(range(n), key=lambda i: (np.isnan(x[i]), -x[i], i))[: max(k, 0)]
            assert A.top_nodes(x, k).tolist() == expected


def test_eigenvector_centrality_is_refused_when_lanczos_does_not_converge(monkeypatch):
    g = load_shared("ca-GrQc")
    monkeypatch.setattr(A, "EIGENVECTOR_MAX_STEPS", 3)
    assert np.isnan(A.eigenvector_centrality(g)).all()


def _pgb_kl(a, b) -> float:
    """PGB's cal_kl (utils.py), written out in plain Python."""
    p = [x / sum(a) for x in a]
    q = [x / sum(b) for x in b]
    size = max(len(p), len(q))
    p += [0.0] * (size - len(p))
    q += [0.0] * (size - len(q))
    e = float(np.finfo(np.float64).eps)
    return sum(pi * math.log((pi + e) / (qi + e)) for pi, qi in zip(p, q, strict=True))


def test_degree_kl_is_pgbs(real):
    g, _ = real
    h = _thinned(g, 0.8, seed=4)
    a, b = np.bincount(g.degrees).tolist(), np.bincount(h.degrees).tolist()
    assert A.kl_divergence(a, b) == pytest.approx(_pgb_kl(a, b), rel=1e-12)
    ref = A.analyst_reference(g, seed=2)
    stats = U.utility_statistics(h, seed=0, analyst=ref)
    assert stats["S_DegKL"] == pytest.approx(_pgb_kl(a, b), rel=1e-12)
    assert A.kl_divergence(a, a) == 0.0


def test_distance_counts_are_pgbs_distribution():
    # PGB's distance_distribution: every ordered reachable pair, the n pairs (v, v) included
    G = nx.karate_club_graph()
    G.add_nodes_from([34, 35])  # isolated nodes: a pair at distance 0 each
    g = gv.Graph.from_networkx(G)
    lengths = [d for s in G for d in nx.single_source_shortest_path_length(G, s).values()]
    assert A.distance_counts(g).tolist() == np.bincount(lengths).tolist()


def test_distance_counts_equal_igraph_and_sample_their_sources():
    g = load_shared("ca-GrQc")
    u, v = g.edges()
    hist = ig.Graph(n=g.n, edges=np.column_stack([u, v])).path_length_hist(directed=False)
    expected = [g.n] + [2 * count for _, _, count in hist.bins()]
    assert A.distance_counts(g).tolist() == expected
    # above exact_threshold: BFS from `sources` uniform nodes, the same for two graphs of one n
    sampled = A.distance_counts(g, seed=5, exact_threshold=100, sources=300)
    assert sampled[0] == 300 and sampled.sum() < g.n * 300
    rng = np.random.default_rng(5)
    src = np.sort(rng.choice(g.n, size=300, replace=False))
    assert sampled.tolist() == gv.measure.distance_histogram(g, src).tolist()


# ------------------------------------------------------------------------- communities
def test_community_agreement_equals_scikit_learn(real):
    g, _ = real
    first, second = A.communities(g, seed=1), A.communities(_thinned(g, 0.7, seed=3), seed=1)
    rng = np.random.default_rng(0)
    for a, b in [(first, second), (first, rng.integers(0, 7, g.n)), (second, np.zeros(g.n, int))]:
        assert A.normalized_mutual_info(a, b) == pytest.approx(
            metrics.normalized_mutual_info_score(a, b), abs=1e-12
        )
        assert A.adjusted_rand_index(a, b) == pytest.approx(
            metrics.adjusted_rand_score(a, b), abs=1e-12
        )
        # both from one table, by a lookup (labels below 4 n) or a sort (any others)
        nmi, ari = A.normalized_mutual_info(a, b), A.adjusted_rand_index(a, b)
        assert A.agreement(a, b) == (nmi, ari) == A.agreement(a * 10**9 - 5, b + 10**10)
    # the same partition, relabelled, agrees fully
    relabelled = np.unique(first, return_inverse=True)[1][::1] * 3 + 11
    assert A.normalized_mutual_info(first, relabelled) == 1.0
    assert A.adjusted_rand_index(first, relabelled) == 1.0
    assert A.agreement(first, relabelled * 10**12) == (1.0, 1.0)


@pytest.mark.parametrize(
    ("a", "b"),
    [([0, 0, 0], [1, 1, 1]), ([0, 1, 2], [2, 1, 0]), ([0, 0, 1], [0, 0, 0]), ([0], [0])],
)
def test_agreement_conventions_are_scikit_learns(a, b):
    assert A.normalized_mutual_info(a, b) == metrics.normalized_mutual_info_score(a, b)
    assert A.adjusted_rand_index(a, b) == metrics.adjusted_rand_score(a, b)


def test_leiden_is_seeded_and_the_same_on_one_or_many_threads():
    g = load_shared("ca-GrQc")
    one = A.communities(g, seed=7)
    assert A.communities(g, seed=7).tolist() == one.tolist()
    assert A.communities(g, seed=8).tolist() != one.tolist()
    with ThreadPoolExecutor(4) as pool:  # four runs at once, the GIL released
        runs = list(pool.map(lambda s: A.communities(g, seed=s).tolist(), [7, 8, 7, 8]))
    assert runs[0] == runs[2] == one.tolist() and runs[1] == runs[3]
    ref = A.analyst_reference(g, seed=7)
    h = _thinned(g, 0.9, seed=1)
    alone = U.utility_statistics(h, seed=1, threads=1, analyst=ref)
    assert U.utility_statistics(h, seed=1, threads=2, analyst=ref) == alone


# ------------------------------------------------------------------ PGB's and PrivGraph's top 1%
def test_eigenvector_statistics_are_pgbs_and_privgraphs():
    g = load_shared("facebook_combined")
    h = _thinned_connected(g, 0.3, seed=2)
    ref = A.analyst_reference(g, seed=1)
    stats = U.utility_statistics(h, seed=1, analyst=ref)
    # main.py of PrivGraph: nodes sorted by networkx's centrality, k = int(0.01 n)
    k = int(0.01 * g.n)
    e0 = nx.eigenvector_centrality_numpy(g.to_networkx(), weight=None)
    h_nx = h.to_networkx()
    assert nx.is_connected(h_nx)
    e1 = nx.eigenvector_centrality_numpy(h_nx, weight=None)
    r0 = sorted(e0.items(), key=lambda x: x[1], reverse=True)
    r1 = sorted(e1.items(), key=lambda x: x[1], reverse=True)
    mae = np.mean([abs(a[1] - b[1]) for a, b in zip(r0[:k], r1[:k], strict=True)])
    overlap = len({a for a, _ in r0[:k]} & {b for b, _ in r1[:k]}) / k
    assert stats["S_EVC_MAE"] == pytest.approx(mae, abs=1e-8)
    assert stats["S_EVC_top"] == overlap
    assert 0.0 < overlap < 1.0  # the test can see a difference


# ------------------------------------------------------------------------------- spread
def _degree_discount_port(G, k: int, p: float = 0.01) -> list[int]:
    """PrivGraph's degreeDiscountIC in plain Python, ties to the lower id."""
    d = {u: G.degree(u) for u in G}
    t = dict.fromkeys(G, 0)
    score = dict(d)
    chosen: list[int] = []
    for _ in range(min(k, len(G))):
        u = max((s, -node) for node, s in score.items() if node not in chosen)[1] * -1
        chosen.append(u)
        for v in G[u]:
            if v not in chosen:
                t[v] += 1
                score[v] = d[v] - 2 * t[v] - (d[v] - t[v]) * t[v] * p
    return chosen


@pytest.mark.parametrize("name", ["karate", "facebook_combined"])
def test_degree_discount_seeds_are_privgraphs(name):
    g = _real(name)
    expected = _degree_discount_port(g.to_networkx(), 20)
    assert A.degree_discount_seeds(g).tolist() == expected


def _exact_spread(g: gv.Graph, seeds, p: float) -> float:
    """Expected spread over every live-edge world (Kempe et al.), by enumeration."""
    u, v = g.edges()
    total = 0.0
    for live in itertools.product([False, True], repeat=u.size):
        mask = np.array(live)
        world = gv.Graph.from_edges(u[mask], v[mask], g.n)
        comp = gv.measure.analyst.sp.csgraph.connected_components(
            A._adjacency(world), directed=False
        )[1]
        weight = p ** mask.sum() * (1 - p) ** (u.size - mask.sum())
        total += weight * np.isin(comp, comp[list(seeds)]).sum()
    return total


def _splitmix(x: int) -> int:
    mask = (1 << 64) - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
    return x ^ (x >> 31)


def _cascades_port(g: gv.Graph, seeds, p: float, runs: int, seed: int) -> float:
    """The documented coins in plain Python: run r's salt splitmix(seed + r * golden), the live
    slots of a node's CSR row by jumps 1 + floor(ln u / ln(1 - p)), u hashed from (salt, slot)."""
    mask, total = (1 << 64) - 1, 0
    for r in range(runs):
        salt = _splitmix((r * 0x9E3779B97F4A7C15 + seed) & mask)
        reached, frontier = set(seeds), list(dict.fromkeys(seeds))
        while frontier:
            node = frontier.pop()
            pos = int(g.indptr[node]) - 1
            while True:
                h = _splitmix(((pos & mask) + 1 + salt) & mask)
                pos += int(
                    1.0 + math.floor(math.log(((h >> 11) + 1.0) * 2.0**-53) / math.log1p(-p))
                )
                if pos >= g.indptr[node + 1]:
                    break
                if int(g.indices[pos]) not in reached:
                    reached.add(int(g.indices[pos]))
                    frontier.append(int(g.indices[pos]))
        total += len(reached)
    return total / runs


def test_influence_spread_draws_the_documented_coins():
    g = load_shared("ca-GrQc")
    seeds = A.degree_discount_seeds(g)
    for p, seed in [(0.01, 5), (0.2, 6)]:
        expected = _cascades_port(g, seeds.tolist(), p, 20, seed)
        assert A.influence_spread(g, seeds, p=p, runs=20, seed=seed) == expected


def test_influence_spread_matches_the_exact_expectation():
    g = ZOO["paper_example"]  # 4 edges: 16 live-edge worlds
    for seeds, p in [([1], 0.3), ([3], 0.6), ([2, 3], 0.5)]:
        exact = _exact_spread(g, seeds, p)
        runs = 40_000
        got = A.influence_spread(g, seeds, p=p, runs=runs, seed=11)
        # the spread lies in [1, 4]: its standard error is at most 1.5 / sqrt(runs)
        assert got == pytest.approx(exact, abs=4 * 1.5 / math.sqrt(runs)), (seeds, p)


def test_influence_spread_edges_and_common_coins():
    g = load_shared("facebook_combined")
    comp = A.sp.csgraph.connected_components(A._adjacency(g), directed=False)[1]
    assert A.influence_spread(g, [0, 5], p=1.0, runs=3, seed=1) == np.isin(comp, comp[[0, 5]]).sum()
    assert A.influence_spread(g, [0, 5, 5], p=0.0, runs=3, seed=1) == 2.0
    seeds = A.degree_discount_seeds(g)
    one = A.influence_spread(g, seeds, seed=3)
    assert A.influence_spread(g, seeds, seed=3) == one != A.influence_spread(g, seeds, seed=4)
    # the same coins for every seed set: adding seeds never shrinks a cascade
    assert A.influence_spread(g, seeds[:5], seed=3) <= A.influence_spread(g, seeds[:10], seed=3)
    with pytest.raises(ValueError, match="p must be"):
        A.influence_spread(g, seeds, p=1.5)
    with pytest.raises(IndexError, match="node ids"):
        A.influence_spread(g, [g.n])


# ----------------------------------------------------------------------- the zoo, the table
def _documented_nan(g: gv.Graph) -> set[str]:
    names = {"S_EVC_MAE", "S_EVC_top", "S_PR_top"} if A.top_count(g.n) == 0 else set()
    if g.n == 0:
        names |= {"S_ACC", "S_DegKL", "S_DistKL", "S_NMI", "S_ARI"}
    if g.m == 0:
        names |= {"S_MOD"}
    deg = g.degrees
    if g.m == 0 or np.all(deg[deg > 0] == deg[deg > 0][0]):  # no edge, or every end alike
        names |= {"S_ASS"}
    return names


def test_the_zoo_gives_documented_values(zoo_graph):
    g = zoo_graph
    stats = U.utility_statistics(g, seed=1, analyst=A.analyst_reference(g, seed=1))
    assert list(stats) == [*U.STATISTICS, *U.analyst_names()]
    for name in U.analyst_names():
        value = stats[name]
        assert math.isnan(value) == (name in _documented_nan(g)), (name, value)
    if g.n:  # against itself: divergences 0, agreements and overlaps 1
        assert stats["S_DegKL"] == stats["S_DistKL"] == 0.0
        assert stats["S_NMI"] == stats["S_ARI"] == 1.0
        if g.m and "S_ASS" not in _documented_nan(g):
            G = g.to_networkx()
            assert stats["S_ASS"] == pytest.approx(nx.degree_assortativity_coefficient(G))


def test_analyst_rows_refuse_without_g0_and_on_other_nodes():
    g = karate_graph()
    with pytest.raises(ValueError, match="analyst_reference"):
        U.statistic("S_NMI").compute(g, U.StatisticOptions(10_000, 1000, 1, 1, "auto"))
    ref = A.analyst_reference(ZOO["path5"], seed=1)
    with pytest.raises(ValueError, match="same nodes"):
        U.utility_statistics(g, seed=1, analyst=ref)
    with pytest.raises(ValueError, match="undirected"):
        gv.measure.Original(gv.Graph.from_edges([0, 1], [1, 2], directed=True), analyst=True)


def test_report_keeps_the_papers_columns_and_adds_the_analyst_group(tmp_path):
    g0 = karate_graph()
    u, v = g0.edges()
    published = gv.UncertainGraph(g0.n, u, v, [0.8] * g0.m)
    paper = evaluate(g0, published, samples=3, seed=5, k=2)
    both = evaluate(g0, published, samples=3, seed=5, k=2, analyst=True)
    assert both.rel_err == paper.rel_err and both.table().startswith(paper.table().split("(")[0])
    for key in U.STATISTICS:
        assert [r[key] for r in both.per_sample] == [r[key] for r in paper.per_sample]
    assert math.isnan(paper.analyst_err) and "analyst" not in paper.to_dict()
    terms = {key: error_term(key, both.mean[key], both.original[key]) for key in U.analyst_names()}
    finite = [t for t in terms.values() if math.isfinite(t)]
    assert both.analyst_err == pytest.approx(sum(finite) / len(finite))
    assert both.analyst_err == analyst_error(both.mean, both.original)[0] > 0.0
    assert "analyst.err" in both.table()

    # saved, read back, merged
    def text(report: Report) -> str:
        return json.dumps(report.to_dict(), sort_keys=True)  # NaN written alike on both sides

    assert text(Report.from_dict(json.loads(text(both)))) == text(both)
    first = evaluate(g0, published, samples=1, seed=5, k=2, analyst=True)
    rest = evaluate(g0, published, samples=2, seed=5, k=2, analyst=True, first_sample=1)
    assert text(Report.merge([rest, first])) == text(both)
    both.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="") as fh:
        rows = {row["row"]: row for row in csv.DictReader(fh)}
    assert float(rows["mean"]["analyst_err"]) == pytest.approx(both.analyst_err)
    assert float(rows["original"]["S_NMI"]) == 1.0
    # one thread or many, the same report
    alone = evaluate(g0, published, samples=3, seed=5, k=2, analyst=True, threads=1)
    assert text(alone) == text(
        evaluate(g0, published, samples=3, seed=5, k=2, analyst=True, threads=2)
    )
    ref = gv.measure.Original(g0, k=2)
    with pytest.raises(ValueError, match="analyst"):
        evaluate(g0, published, samples=1, seed=5, k=2, analyst=True, original=ref)


def test_a_multigraph_world_is_measured_on_its_simple_graph():
    g0 = karate_graph()
    u, v = g0.edges()
    world = gv.multigraph.Multigraph(g0.n, np.concatenate([u, [0, 3]]), np.concatenate([v, [0, 1]]))
    ref = A.analyst_reference(g0, seed=1)
    values = U.utility_statistics(world, seed=1, analyst=ref)
    simple = U.utility_statistics(world.simple, seed=1, analyst=ref)
    assert {k: values[k] for k in U.analyst_names()} == pytest.approx(
        {k: simple[k] for k in U.analyst_names()}, nan_ok=True
    )
