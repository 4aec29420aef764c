"""RandWalk-mod as the paper's tables ran it (a multigraph) and the multigraph measures.

References are independent of graphveil's kernels: a plain-Python port of the authors'
``random_walk_transform_multigraph`` (graph-dp/src/random_walk.py) with their scoring
(graph-dp/compare/utility_measure_multigraph.py: igraph reads the world with every copy and
loop; incorrectness_measure_multigraph.py: networkx MultiGraph degrees and neighbours), igraph
on small multigraphs, and brute force.
"""

from __future__ import annotations

import random

import igraph as ig
import networkx as nx
import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import mixture, randwalk_mod
from graphveil.anonymize.registry import scheme
from graphveil.experiments import StudyConfig
from graphveil.measure import Original
from graphveil.measure.privacy import h1, h2_open
from graphveil.measure.report import measure_sample
from graphveil.measure.utility import degree_statistics, transitivity, utility_statistics
from graphveil.multigraph import Multigraph


# ------------------------------------------------------------------ references
def authors_walk(g: nx.Graph, t: int, alpha: float, rng: random.Random) -> nx.MultiGraph:
    """A port of the authors' random_walk_transform_multigraph (Algorithm 2, no retries)."""
    out = nx.MultiGraph()
    out.add_nodes_from(g)
    nbrs = {u: sorted(g[u]) for u in g}
    for u in sorted(g):
        d = len(nbrs[u])
        for count, v in enumerate(nbrs[u], start=1):
            z = v
            for _ in range(t - 1):
                z = nbrs[z][rng.randrange(len(nbrs[z]))]
            if count == 1:
                keep = 0.5 if d == 1 else alpha
            else:
                keep = (0.5 * d - alpha) / (d - 1)
            if rng.random() < keep:
                out.add_edge(u, z)
    return out


def authors_degree_scores(mg: nx.MultiGraph, n: int) -> dict[str, float]:
    """S_NE, S_AD, S_MD, S_DV, S_CC as the authors computed them: igraph on the edge list."""
    ag = ig.Graph(n=n, edges=list(mg.edges()))
    deg = ag.degree()
    s_ad = 2 * ag.ecount() / n
    return {
        "S_NE": float(ag.ecount()),
        "S_AD": s_ad,
        "S_MD": float(ag.maxdegree()),
        "S_DV": sum((d - s_ad) ** 2 for d in deg) / n,
        "S_CC": ag.transitivity_undirected(),
    }


def plain_score(g0: nx.Graph, world: nx.MultiGraph, kind: str) -> float:
    """H1 / H2_open by the authors' rule, with true sets (networkx MultiGraph semantics)."""

    def signatures(g: nx.Graph | nx.MultiGraph) -> dict[int, object]:
        deg = dict(g.degree())  # a loop counts 2, every copy 1
        if kind == "h1":
            return deg
        # MultiGraph.neighbors: distinct neighbours, the node itself if it has a loop
        return {u: frozenset(deg[w] for w in g.neighbors(u)) for u in g}

    s0, s1 = signatures(g0), signatures(world)
    classes: dict[object, set[int]] = {}
    for v, sig in s1.items():
        classes.setdefault(sig, set()).add(v)
    return sum(1 / len(classes[s0[u]]) for u in g0 if u in classes.get(s0[u], ()))


def random_multigraph(rng: np.random.Generator, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs with loops and repeats: a few distinct pairs drawn again and again."""
    base_u = rng.integers(0, n, size=max(1, m // 2))
    base_v = rng.integers(0, n, size=base_u.size)
    pick = rng.integers(0, base_u.size, size=m)
    return base_u[pick], base_v[pick]


def to_nx(n: int, u: np.ndarray, v: np.ndarray) -> nx.MultiGraph:
    mg = nx.MultiGraph()
    mg.add_nodes_from(range(n))
    mg.add_edges_from(zip(u.tolist(), v.tolist()))
    return mg


# ------------------------------------------------------------------ the multigraph form
def test_multigraph_matches_igraph_on_small_multigraphs() -> None:
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(1, 9))
        u, v = random_multigraph(rng, n, int(rng.integers(0, 20)))
        mg = Multigraph(n, u, v)
        ag = ig.Graph(n=n, edges=list(zip(u.tolist(), v.tolist())))
        assert mg.m == ag.ecount()
        assert mg.degrees.tolist() == ag.degree()  # a loop counts 2
        assert mg.loops == int(np.count_nonzero(u == v))
        simple = ag.copy()
        simple.simplify()
        assert mg.simple.m == simple.ecount()
        stats = degree_statistics(mg)
        assert stats["S_NE"] == ag.ecount()
        assert stats["S_MD"] == (ag.maxdegree() if n else 0)
        assert stats["S_DV"] == pytest.approx(np.var(ag.degree()), abs=1e-12)
        expected_cc = ag.transitivity_undirected()  # igraph simplifies first
        assert transitivity(mg) == pytest.approx(0.0 if np.isnan(expected_cc) else expected_cc)


def test_transitivity_of_a_multigraph_is_its_simple_graphs() -> None:
    # a triangle with a doubled edge, a loop and a pendant: igraph 0.7 simplified its adjacency
    # lists before counting (igraph_adjlist_simplify), as igraph 1.0 does
    mg = Multigraph(4, [0, 0, 0, 1, 0, 2, 2], [1, 1, 1, 2, 2, 3, 2])
    assert transitivity(mg) == pytest.approx(0.6)
    assert transitivity(mg) == transitivity(mg.simple)


def test_distances_of_a_multigraph_are_its_simple_graphs() -> None:
    mg = Multigraph(5, [0, 0, 1, 2, 3, 3], [1, 1, 2, 2, 4, 3])
    multi = utility_statistics(mg, seed=1)
    simple = utility_statistics(mg.simple, seed=1)
    for key in ("S_APD", "S_EDiam", "S_CL", "S_Diam", "S_CC"):
        assert multi[key] == simple[key]
    assert multi["S_NE"] == 6 and simple["S_NE"] == 3


def test_h1_h2_open_on_multigraphs_follow_the_authors_rule() -> None:
    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.integers(2, 10))
        g0 = gv.Graph.from_edges(*random_multigraph(rng, n, int(rng.integers(1, 15))), n)
        u, v = random_multigraph(rng, n, int(rng.integers(0, 20)))
        world = Multigraph(n, u, v)
        nx0 = nx.Graph()
        nx0.add_nodes_from(range(n))
        nx0.add_edges_from(zip(*(a.tolist() for a in g0.edges())))
        nxw = to_nx(n, u, v)
        assert h1(g0, world) == pytest.approx(plain_score(nx0, nxw, "h1"))
        assert h2_open(g0, world) == pytest.approx(plain_score(nx0, nxw, "h2_open"))


def test_edge_differences_of_a_multigraph_count_copies_and_loops() -> None:
    g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])
    world = Multigraph(4, [0, 0, 0, 1, 3], [1, 1, 3, 1, 3])
    # the authors' compare_edges_diff_one: (1,2), (2,3) are gone; added: the second copy of
    # (0,1), (0,3) and the two loops
    assert Original(g0).edge_differences(world) == (2, 4)


def test_sample_multigraph_keeps_loops_and_copies() -> None:
    ug = gv.UncertainGraph(3, [0, 0, 0, 1], [0, 1, 1, 2], [1.0, 1.0, 1.0, 0.0], relaxed=True)
    world = ug.sample_multigraph(seed=3)
    assert (world.m, world.loops, world.degrees.tolist()) == (3, 1, [4, 2, 0])
    # a relaxed graph with p < 1: each pair one trial, the same draw whatever the threads
    ug = gv.UncertainGraph(50, *random_multigraph(np.random.default_rng(1), 50, 400),
                           np.full(400, 0.5), relaxed=True)  # fmt: skip
    assert ug.sample_multigraph(5, index=2, threads=1) == ug.sample_multigraph(
        5, index=2, threads=2
    )
    assert 120 < ug.sample_multigraph(5).m < 280


# ------------------------------------------------------------------ RandWalk-mod, as the tables ran it
def _study_run(g: gv.Graph, t: int, seed: int) -> dict[str, float]:
    out = scheme("randwalk_mod").study(g, t, StudyConfig(threads=1), seed)
    assert out.graph.relaxed
    row, _ = measure_sample(Original(g, threads=1), out.graph, 0, 0, 1, 1)
    return row


@pytest.mark.parametrize("t", [2, 5])
def test_default_matches_the_authors_multigraph_on_ca_grqc(t: int) -> None:
    g = gv.datasets.load("ca-GrQc")
    nxg = g.to_networkx()
    runs = 4
    ours = [_study_run(g, t, seed) for seed in range(runs)]
    rng = random.Random(t)
    theirs = [authors_degree_scores(authors_walk(nxg, t, 0.5, rng), g.n) for _ in range(runs)]

    def mean(rows: list[dict[str, float]], key: str) -> float:
        return float(np.mean([r[key] for r in rows]))

    # Expected degrees are kept (Theorem 3.1): S_NE within 1% of m, counting loops and copies
    # (one run's S_NE has a standard deviation of about sqrt(m / 2) = 85, 0.6% of m)
    for rows in (ours, theirs):
        assert abs(mean(rows, "S_NE") - g.m) < 0.01 * g.m
    # Same law: each mean within a few standard errors of the other's
    for key, tol in (("S_AD", 0.01), ("S_DV", 0.06), ("S_MD", 0.15), ("S_CC", 0.05)):
        a, b = mean(ours, key), mean(theirs, key)
        assert abs(a - b) <= tol * max(abs(b), 1e-9), (key, a, b)


def test_default_variant_is_the_printed_multigraph() -> None:
    g = gv.datasets.load("karate_club")
    out = randwalk_mod(g, t=3, seed=1)
    assert out.graph.relaxed and out.report["params"]["variant"] == "printed"
    assert np.all(out.graph.p == 1.0)
    same = randwalk_mod(g, t=3, variant="printed", seed=1)
    assert out.graph == same.graph
    retry = randwalk_mod(g, t=3, variant="retry", seed=1)
    assert not retry.graph.relaxed


def test_study_mixture_mixes_g0_with_the_multigraph() -> None:
    g = gv.datasets.load("karate_club")
    config = StudyConfig(threads=1)
    out = scheme("mixture").study(g, 0.4, config, 5)
    rw = scheme("randwalk_mod").study(g, config.mixture_t, config, 5)
    assert out.graph.relaxed
    assert out.graph == mixture(g, anonymized=rw.graph, p=0.4).graph


# ------------------------------------------------------------------ graphveil sample (issue 31, 9)
def _multigraph_edges(g: nx.MultiGraph) -> list[tuple[int, int]]:
    return sorted((min(a, b), max(a, b)) for a, b in g.edges())


def test_sample_writes_a_relaxed_releases_worlds_as_the_multigraphs_evaluate_measures(
    tmp_path, capsys
) -> None:
    """Each world file is the multigraph evaluate measures (loops and copies kept), read back by
    networkx's MultiGraph; graphveil's reader gives its simple graph and counts what it merged."""
    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    walked, _ = randwalk_mod(g0, t=2, seed=1)
    mixed, _ = mixture(g0, anonymized=walked, p=0.5)  # relaxed, p < 1: the worlds differ
    for name, ug in (("walked", walked), ("mixed", mixed)):
        assert ug.relaxed
        ug.save(tmp_path / f"{name}.npz", keep_ids=True)
        out = tmp_path / name
        argv = ["sample", str(tmp_path / f"{name}.npz"), "-o", str(out), "-n", "2", "--seed", "7"]
        assert main([*argv, "--keep-ids"]) == 0
        said = capsys.readouterr().out
        assert "multigraph world(s)" in said and "self-loop kept" in said
        for i in range(2):
            path = out / f"world-{i}.txt"
            expected = ug.sample_multigraph(7, index=i)
            assert expected.loops > 0 and expected.m > expected.simple.m  # loops and copies
            read = nx.read_edgelist(path, create_using=nx.MultiGraph, nodetype=int)
            assert _multigraph_edges(read) == list(zip(*(a.tolist() for a in expected.edges())))
            assert path.read_text().splitlines()[0] == (
                f"# graphveil edgelist n=34 m={expected.m} labels=no multigraph=yes"
            )
            simple = gv.read_edgelist(path)
            assert simple == expected.simple and simple.n == 34
            counts = simple.build_counts
            assert counts.self_loops == expected.loops
            assert counts.duplicates == expected.m - expected.loops - expected.simple.m
    # a strict release's worlds stay simple graphs, and say so
    strict = gv.UncertainGraph.from_graph(g0)
    strict.save(tmp_path / "strict.npz", keep_ids=True)
    assert (
        main(["sample", str(tmp_path / "strict.npz"), "-o", str(tmp_path / "s"), "--keep-ids"]) == 0
    )
    assert "wrote 1 simple world(s)" in capsys.readouterr().out
    first = (tmp_path / "s" / "world-0.txt").read_text().splitlines()[0]
    assert "multigraph" not in first


def test_an_edited_multigraph_edge_list_is_refused(tmp_path) -> None:
    world = Multigraph(4, [0, 0, 1, 2], [1, 1, 1, 3])
    path = tmp_path / "w.txt"
    gv.write_edgelist(world, path, keep_ids=True)
    assert gv.read_edgelist(path).n == 4
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")  # one line lost
    with pytest.raises(ValueError, match="header says m=4 but the file holds 3 edges"):
        gv.read_edgelist(path)
