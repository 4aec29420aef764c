"""Directed measures and releases against independent references (networkx, brute force)."""

from __future__ import annotations

import gzip
import itertools
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from graph_zoo import shared_graph_path

import graphveil as gv
from graphveil.measure.directed import components, directed_clustering, reciprocity
from graphveil.measure.privacy import directed_eps, eps, h1, h2_open
from graphveil.measure.utility import distance_histogram, statistic_names, utility_statistics


def random_digraph(n, arcs, seed):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, arcs), rng.integers(0, n, arcs)
    keep = u != v
    return gv.Graph.from_edges(u[keep], v[keep], n, directed=True)


def to_nx(graph):
    d = nx.DiGraph()
    d.add_nodes_from(range(graph.n))
    u, v = graph.edges()
    d.add_edges_from(zip(u.tolist(), v.tolist()))
    return d


def epinions_prefix(lines=20_000):
    """The first ``lines`` arcs of soc-Epinions1 (a real directed graph), ids renumbered."""
    pairs = []
    with gzip.open(shared_graph_path("soc-Epinions1"), "rt") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            a, b = line.split()[:2]
            pairs.append((int(a), int(b)))
            if len(pairs) == lines:
                break
    ids = {x: i for i, x in enumerate(sorted({x for p in pairs for x in p}))}
    u = np.array([ids[a] for a, _ in pairs])
    v = np.array([ids[b] for _, b in pairs])
    keep = u != v
    return gv.Graph.from_edges(u[keep], v[keep], len(ids), directed=True)


@pytest.fixture(scope="module")
def real():
    g = epinions_prefix()
    return g, to_nx(g)


def fagiolo_reference(d):
    """sum_v t_v / sum_v T_v from networkx's per-node directed triangle counts."""
    from networkx.algorithms.cluster import _directed_triangles_and_degree_iter

    num = den = 0
    for _, total, mutual, triangles in _directed_triangles_and_degree_iter(d):
        num += triangles  # (A + A^T)^3_vv = 2 t_v
        den += 2 * (total * (total - 1) - 2 * mutual)
    return num / den if den else 0.0


def test_statistics_against_networkx_on_epinions(real):
    g, d = real
    assert reciprocity(g) == pytest.approx(nx.overall_reciprocity(d))
    assert directed_clustering(g) == pytest.approx(fagiolo_reference(d))
    comp = components(g)
    sccs = list(nx.strongly_connected_components(d))
    wccs = list(nx.weakly_connected_components(d))
    assert comp["S_SCC"] == len(sccs) and comp["S_WCC"] == len(wccs)
    assert comp["S_SCC_max"] == max(map(len, sccs)) / g.n
    assert comp["S_WCC_max"] == max(map(len, wccs)) / g.n
    stats = utility_statistics(g, seed=0, exact_threshold=0, sources=50)
    assert stats["S_NE"] == d.number_of_edges() and stats["S_AD"] == g.m / g.n
    assert stats["S_MD_in"] == max(dict(d.in_degree()).values())
    assert stats["S_MD_out"] == max(dict(d.out_degree()).values())
    assert stats["S_DV_in"] == pytest.approx(np.var([x for _, x in d.in_degree()]))
    assert tuple(stats) == statistic_names(directed=True)


def test_distances_along_arcs_against_networkx_bfs(real):
    g, d = real
    sources = np.flatnonzero(g.out_degrees > 0)[::97][:70]  # two batches of the 64-bit kernel
    expected = Counter()
    for s in sources.tolist():
        expected.update(nx.single_source_shortest_path_length(d, s).values())
    hist = distance_histogram(g, sources)
    assert hist.tolist() == [expected[i] for i in range(len(hist))]
    assert sum(expected.values()) == hist.sum()


def test_exact_distances_on_a_small_digraph():
    g = random_digraph(120, 500, 3)
    d = to_nx(g)
    lengths = [x for _, row in nx.all_pairs_shortest_path_length(d) for x in row.values() if x > 0]
    stats = utility_statistics(g, seed=0)
    assert stats["S_APD"] == pytest.approx(np.mean(lengths))
    assert stats["S_Diam"] == max(lengths)
    assert stats["S_CL"] == pytest.approx(len(lengths) / np.sum(1.0 / np.array(lengths)))
    assert stats.diameter_method == "exact"


def test_a_symmetric_digraph_has_its_undirected_transitivity():
    und = gv.Graph.from_edges([0, 1, 2, 2, 3], [1, 2, 0, 3, 4])
    u, v = und.edges()
    sym = gv.Graph.from_edges(np.r_[u, v], np.r_[v, u], und.n, directed=True)
    assert directed_clustering(sym) == pytest.approx(gv.measure.utility.transitivity(und))
    assert reciprocity(sym) == 1.0


# ---------------------------------------------------------------------- signatures
def plain_signatures(g, kind):
    d = to_nx(g)
    pair = {x: (d.in_degree(x), d.out_degree(x)) for x in d}
    if kind == "h1":
        return [pair[x] for x in range(g.n)]
    return [
        (frozenset(pair[w] for w in d.successors(x)), frozenset(pair[w] for w in d.predecessors(x)))
        for x in range(g.n)
    ]


def plain_score(g0, g, kind):
    s0, s = plain_signatures(g0, kind), plain_signatures(g, kind)
    sizes = Counter(s)
    return sum(1.0 / sizes[s0[x]] for x in range(g0.n) if s[x] == s0[x])


@pytest.mark.parametrize("seed", range(6))
def test_directed_h1_h2_open_against_plain_python(seed):
    g0 = random_digraph(12, 30, seed)
    g = random_digraph(12, 30, seed + 100)
    for kind, score in (("h1", h1), ("h2_open", h2_open)):
        assert score(g0, g) == pytest.approx(plain_score(g0, g, kind))
        assert score(g0, g0) == len(set(plain_signatures(g0, kind)))


def test_directed_and_undirected_do_not_mix():
    with pytest.raises(TypeError, match="directed"):
        h1(random_digraph(5, 8, 1), gv.Graph.from_edges([0], [1], 5))


# ---------------------------------------------------------------------- eps by side
def brute_entropy(n, pairs, side):
    """H_d of the in- or out-degree by enumerating every world."""
    laws = {x: Counter() for x in range(n)}
    for world in itertools.product([0, 1], repeat=len(pairs)):
        prob = 1.0
        deg = [0] * n
        for (a, b, p), present in zip(pairs, world):
            prob *= p if present else 1 - p
            if present:
                deg[b if side == "in" else a] += 1
        for x in range(n):
            laws[x][deg[x]] += prob
    out = {}
    for dd in range(len(pairs) + 1):
        col = [laws[x][dd] for x in range(n) if laws[x][dd] > 0]
        s = sum(col)
        if s > 0:
            out[dd] = float(-sum(c / s * np.log2(c / s) for c in col))
    return out


@pytest.mark.parametrize("side", ["in", "out"])
def test_eps_on_one_side_against_enumeration(side):
    pairs = [(0, 1, 0.3), (1, 0, 0.8), (0, 2, 0.5), (2, 1, 0.9), (3, 1, 0.4), (2, 3, 0.6)]
    ug = gv.UncertainGraph(4, *map(list, zip(*pairs)), directed=True)
    g0 = gv.Graph.from_edges([0, 1, 0, 2, 3, 2], [1, 0, 2, 1, 1, 3], 4, directed=True)
    ent = brute_entropy(4, pairs, side)
    deg0 = g0.in_degrees if side == "in" else g0.out_degrees
    for k in (2, 3, 4):
        want = np.mean([ent.get(int(x), 0.0) < np.log2(k) - 1e-9 for x in deg0])
        assert eps(g0, ug, k, degree=side) == pytest.approx(want)


def test_eps_degree_refusals():
    g = gv.Graph.from_edges([0], [1], 3)
    with pytest.raises(ValueError, match="needs directed"):
        eps(g, g, 2, degree="in")
    d = random_digraph(5, 8, 1)
    with pytest.raises(ValueError, match="'joint'"):
        eps(d, d, 2, degree="both")
    # the joint (in, out) degree is the directed (k, eps)-obfuscation's: one eps serves both
    assert eps(d, d, [2, 3], degree="joint") == {
        k: directed_eps(d, d, k, degree="joint") for k in (2, 3)
    }


# ---------------------------------------------------------------------- releases
@pytest.mark.parametrize("name", ["r.npz", "r.tsv", "r.tsv.gz", "r.parquet"])
def test_directed_release_round_trip(tmp_path, name):
    ug = gv.UncertainGraph(4, [0, 1, 1, 3], [1, 0, 2, 0], [0.5, 0.25, 1.0, 0.75], directed=True)
    ug.save(tmp_path / name, seed=3)
    back = gv.UncertainGraph.load(tmp_path / name)
    assert back.directed and back.num_pairs == 4 and back.meta["file"]["ids_permuted"]
    ug.save(tmp_path / ("k" + name), keep_ids=True)
    assert gv.UncertainGraph.load(tmp_path / ("k" + name)) == ug


def test_directed_graphml_and_edgelist(tmp_path):
    ug = gv.UncertainGraph(3, [0, 1], [1, 0], [0.5, 1.0], directed=True)
    ug.to_graphml(tmp_path / "r.graphml", keep_ids=True)
    read = nx.read_graphml(tmp_path / "r.graphml", node_type=int)
    assert read.is_directed() and sorted(read.edges()) == [(0, 1), (1, 0)]
    g = gv.Graph.from_edges([0, 1, 2], [1, 0, 0], 4, directed=True)
    gv.write_edgelist(g, tmp_path / "g.txt", keep_ids=True)
    assert "directed=yes" in (tmp_path / "g.txt").read_text().splitlines()[0]
    back = gv.read_edgelist(tmp_path / "g.txt")
    assert back.directed and back.n == 4 and back.m == 3
    with pytest.raises(ValueError, match="directed=True"):
        gv.read_edgelist(tmp_path / "g.txt", directed=False)
