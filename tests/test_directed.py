"""Directed graphs and directed uncertain graphs: representation, possible worlds, round trips.

The references are independent: brute force over every possible world of tiny directed
uncertain graphs, networkx DiGraph and igraph directed graphs, and plain Python sets of arcs.
"""

from __future__ import annotations

import gzip
import inspect
import itertools
import pickle

import igraph as ig
import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from graph_zoo import shared_graph_path

import graphveil as gv
from graphveil import evaluate
from graphveil._checks import require_undirected
from graphveil.anonymize import partition, registry
from graphveil.attack import attack_scores, link_inference, propagation_attack
from graphveil.measure import eps

# arcs with a repeat (0->1 twice), a reverse (1->0), a self-loop (2->2), node 4 isolated
U = [0, 1, 1, 2, 3, 0, 3]
V = [1, 0, 2, 2, 0, 1, 1]
ARCS = {(0, 1), (1, 0), (1, 2), (3, 0), (3, 1)}


def directed_graph() -> gv.Graph:
    return gv.Graph.from_edges(U, V, 5, directed=True)


# ---------------------------------------------------------------------- Graph
def test_directed_graph_holds_arcs_as_out_csr_and_in_csr():
    g = directed_graph()
    assert g.directed and g.is_directed() and g.n == 5 and g.m == len(ARCS)
    u, v = g.edges()
    assert list(zip(u.tolist(), v.tolist())) == sorted(ARCS)  # sorted by (u, v)
    assert set(g.edges) == ARCS and len(g.edges) == g.m
    assert (1, 0) in g.edges and (0, 3) not in g.edges
    c = g.build_counts
    assert (c.self_loops, c.duplicates) == (1, 1)
    for node in range(g.n):
        assert g.successors(node).tolist() == sorted(b for a, b in ARCS if a == node)
        assert g.predecessors(node).tolist() == sorted(a for a, b in ARCS if b == node)
    out = np.array([sum(a == x for a, _ in ARCS) for x in range(5)])
    inn = np.array([sum(b == x for _, b in ARCS) for x in range(5)])
    assert g.out_degrees.tolist() == out.tolist() and g.in_degrees.tolist() == inn.tolist()
    assert g.degrees.tolist() == (out + inn).tolist()
    assert g.in_degrees.tolist() == np.diff(g.in_indptr).tolist()  # also once the in-CSR exists
    ref = nx.DiGraph(sorted(ARCS))
    ref.add_nodes_from(range(5))
    assert g.degrees.tolist() == [ref.degree(x) for x in range(5)]
    a = g.to_scipy()
    assert a.sum(axis=1).tolist() == out.tolist() and a.sum(axis=0).tolist() == inn.tolist()
    assert gv.Graph.from_scipy(a, directed=True) == g
    assert repr(g) == "Graph(n=5, m=5, directed)"


def test_directed_and_undirected_graphs_differ_and_undirected_is_unchanged():
    g = directed_graph()
    und = gv.Graph.from_edges(U, V, 5)
    assert not und.directed and g != und
    assert g.to_undirected() == und and und.to_undirected() is und
    assert und.out_degrees.tolist() == und.in_degrees.tolist() == und.degrees.tolist()
    assert und.in_indptr is und.indptr and und.in_indices is und.indices
    assert repr(und) == "Graph(n=5, m=4)"


def test_directed_graph_pickles_without_its_caches():
    g = directed_graph()
    g.in_indptr, g.edges()  # fill the caches
    back = pickle.loads(pickle.dumps(g))
    assert back == g and back.directed and back.predecessors(1).tolist() == [0, 3]


def test_directed_csr_is_validated_without_symmetry():
    g = directed_graph()
    again = gv.Graph(g.indptr, g.indices, directed=True)
    assert again == g
    with pytest.raises(ValueError, match="pass directed=True"):
        gv.Graph(g.indptr, g.indices)
    with pytest.raises(ValueError, match="self-loops"):
        gv.Graph([0, 1], [0], directed=True)


def test_subgraph_of_a_directed_graph_keeps_directions():
    s = directed_graph().subgraph([3, 0, 1])
    assert s.directed and set(s.edges) == {(0, 1), (0, 2), (1, 2), (2, 1)}


# ---------------------------------------------------------------------- round trips
def test_networkx_digraph_round_trip():
    ref = nx.gnp_random_graph(30, 0.15, seed=3, directed=True)
    g = gv.Graph.from_networkx(ref)
    assert g.directed and g.m == ref.number_of_edges()
    back = g.to_networkx()
    assert isinstance(back, nx.DiGraph) and set(back.edges()) == set(ref.edges())
    assert gv.Graph.from_networkx(back) == g
    assert nx.reciprocity(ref) == pytest.approx(reciprocity(g))


def test_igraph_directed_round_trip():
    ref = ig.Graph.Erdos_Renyi(n=25, p=0.2, directed=True)
    g = gv.Graph.from_igraph(ref)
    assert g.directed and set(g.edges) == set(ref.get_edgelist())
    back = g.to_igraph()
    assert back.is_directed() and set(back.get_edgelist()) == set(ref.get_edgelist())
    assert gv.Graph.from_igraph(back) == g
    assert g.in_degrees.tolist() == ref.indegree() and g.out_degrees.tolist() == ref.outdegree()


def test_pandas_and_arrow_directed_round_trip():
    df = pd.DataFrame({"source": ["b", "a", "a", "b", "c"], "target": ["a", "b", "b", "c", "c"]})
    g = gv.Graph.from_pandas(df, directed=True)
    assert g.labels.tolist() == ["a", "b", "c"] and set(g.edges) == {(1, 0), (0, 1), (1, 2)}
    c = g.build_counts
    assert (c.lines, c.self_loops, c.exact_repeats, c.reversed_pairs) == (5, 1, 1, 0)
    out = g.to_pandas(use_labels=True)
    assert out.values.tolist() == [["a", "b"], ["b", "a"], ["b", "c"]]
    assert gv.Graph.from_pandas(out, directed=True) == g
    pa = pytest.importorskip("pyarrow")
    assert gv.Graph.from_arrow(pa.Table.from_pandas(df), directed=True) == g


def test_networkit_directed_round_trip():
    pytest.importorskip("networkit")
    g = directed_graph()
    h = g.to_networkit()
    assert h.isDirected() and h.numberOfEdges() == g.m
    assert gv.Graph.from_networkit(h) == g


def test_read_edgelist_directed(tmp_path):
    path = tmp_path / "arcs.txt"
    path.write_text("# toy\n10 20\n20 10\n20 30\n7 7\n10 20\n")
    g = gv.read_edgelist(path, directed=True)
    assert g.directed and g.labels.tolist() == [7, 10, 20, 30]
    assert set(g.edges) == {(1, 2), (2, 1), (2, 3)}
    c = g.build_counts
    assert (c.lines, c.self_loops, c.duplicates, c.exact_repeats, c.reversed_pairs) == (
        5,
        1,
        1,
        1,
        0,
    )
    und = gv.read_edgelist(path)
    assert not und.directed and und == g.to_undirected()


def test_soc_epinions_read_directed_against_networkx():
    path = shared_graph_path("soc-Epinions1")
    g = gv.read_edgelist(path, directed=True, threads=2)
    # SOURCES.md: 75,879 nodes, 508,837 directed lines, no self-loops, 405,740 undirected edges
    assert (g.n, g.m, g.build_counts.self_loops, g.build_counts.lines) == (75879, 508837, 0, 508837)
    assert g.to_undirected().m == 405740
    ref = nx.DiGraph()
    with gzip.open(path, "rt") as fh:
        ref.add_edges_from(
            tuple(map(int, line.split()[:2])) for line in fh if not line.startswith("#")
        )
    assert ref.number_of_nodes() == g.n and ref.number_of_edges() == g.m
    assert reciprocity(g) == pytest.approx(nx.reciprocity(ref), abs=1e-15)
    labels = g.labels
    deg_out = dict(ref.out_degree())
    deg_in = dict(ref.in_degree())
    assert g.out_degrees.tolist() == [deg_out[x] for x in labels.tolist()]
    assert g.in_degrees.tolist() == [deg_in[x] for x in labels.tolist()]


def reciprocity(g: gv.Graph) -> float:
    """Share of arcs whose reverse is an arc too (networkx's ``reciprocity``), by sorted keys."""
    u, v = g.edges()
    keys = u.astype(np.int64) * g.n + v
    reverse = np.sort(v.astype(np.int64) * g.n + u)
    return float(np.isin(keys, reverse).sum() / g.m)


# ---------------------------------------------------------------------- UncertainGraph
def tiny_uncertain() -> gv.UncertainGraph:
    # an arc and its reverse with their own p, a p = 1 arc, a p = 0 arc; node 3 isolated
    return gv.UncertainGraph(
        4, [1, 0, 1, 2, 0], [0, 1, 2, 0, 2], [0.3, 0.6, 1.0, 0.25, 0.0], directed=True
    )


def test_directed_uncertain_graph_keeps_ordered_pairs():
    ug = tiny_uncertain()
    assert ug.directed and ug.num_pairs == 5
    assert list(zip(ug.u.tolist(), ug.v.tolist())) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0)]
    assert ug.p.tolist() == [0.6, 0.0, 0.3, 1.0, 0.25]
    assert "directed" in repr(ug)
    assert ug != gv.UncertainGraph(4, [0, 0, 1, 1, 2], [1, 2, 0, 2, 0], ug.p, relaxed=True)
    with pytest.raises(ValueError, match="self-loop"):
        gv.UncertainGraph(2, [1], [1], [0.5], directed=True)
    with pytest.raises(ValueError, match="more than once"):
        gv.UncertainGraph(2, [0, 0], [1, 1], [0.5, 0.5], directed=True)
    with pytest.raises(ValueError, match="merge duplicates"):  # undirected: the reverse is a repeat
        gv.UncertainGraph(2, [0, 1], [1, 0], [0.5, 0.5])


def worlds(ug: gv.UncertainGraph):
    """Every possible world of a tiny uncertain graph: (probability, kept arcs)."""
    for keep in itertools.product((False, True), repeat=ug.num_pairs):
        prob = 1.0
        arcs = []
        for k, a, b, p in zip(keep, ug.u.tolist(), ug.v.tolist(), ug.p.tolist()):
            prob *= p if k else 1.0 - p
            if k:
                arcs.append((a, b))
        yield prob, arcs


def test_directed_moments_equal_brute_force_over_possible_worlds():
    ug = tiny_uncertain()
    n = ug.n
    e_out, e_in, e_m = np.zeros(n), np.zeros(n), 0.0
    s_out, s_in = np.zeros(n), np.zeros(n)
    for prob, arcs in worlds(ug):
        out = np.bincount([a for a, _ in arcs], minlength=n).astype(float)
        inn = np.bincount([b for _, b in arcs], minlength=n).astype(float)
        e_out += prob * out
        e_in += prob * inn
        s_out += prob * out**2
        s_in += prob * inn**2
        e_m += prob * len(arcs)
    np.testing.assert_allclose(ug.expected_out_degrees(), e_out, atol=1e-12)
    np.testing.assert_allclose(ug.expected_in_degrees(), e_in, atol=1e-12)
    np.testing.assert_allclose(ug.expected_degrees(), e_out + e_in, atol=1e-12)
    np.testing.assert_allclose(ug.out_degree_variance(), s_out - e_out**2, atol=1e-12)
    np.testing.assert_allclose(ug.in_degree_variance(), s_in - e_in**2, atol=1e-12)
    assert ug.expected_num_edges() == pytest.approx(e_m)
    tv = float(np.sum(ug.p * (1 - ug.p)))  # TV_out = TV_in = sum p(1 - p)
    assert ug.total_variance() == pytest.approx(tv)
    assert ug.out_degree_variance().sum() == pytest.approx(tv)
    assert ug.in_degree_variance().sum() == pytest.approx(tv)


def test_directed_samples_follow_the_arc_probabilities():
    ug = tiny_uncertain()
    samples = ug.sample(4000, seed=11, threads=2)
    assert all(s.directed and s.n == ug.n for s in samples)
    pairs = list(zip(ug.u.tolist(), ug.v.tolist()))
    freq = np.array([np.mean([pair in s.edges for s in samples]) for pair in pairs])
    # 4000 Bernoulli draws: 5 standard errors at most 0.04
    np.testing.assert_allclose(freq, ug.p, atol=0.04)
    out = np.mean([s.out_degrees for s in samples], axis=0)
    inn = np.mean([s.in_degrees for s in samples], axis=0)
    np.testing.assert_allclose(out, ug.expected_out_degrees(), atol=0.06)
    np.testing.assert_allclose(inn, ug.expected_in_degrees(), atol=0.06)
    var_out = np.var([s.out_degrees for s in samples], axis=0)
    np.testing.assert_allclose(var_out, ug.out_degree_variance(), atol=0.05)
    # the same world as sample_edges and as one sample of the same seed, for any thread count
    first = ug.sample(seed=11, threads=1)
    u, v = ug.sample_edges(seed=11)
    assert first == samples[0] and set(first.edges) == set(zip(u.tolist(), v.tolist()))


def test_directed_edit_distance_on_ordered_pairs():
    ug = tiny_uncertain()
    g0 = gv.Graph.from_edges([0, 1, 3], [1, 2, 0], 4, directed=True)
    e_d = 0.0
    for prob, arcs in worlds(ug):
        world = set(arcs)
        truth = set(g0.edges)
        e_d += prob * len(world ^ truth)
    assert ug.expected_edit_distance(g0) == pytest.approx(e_d)
    assert ug.edit_distance_variance(g0) == pytest.approx(ug.total_variance())
    with pytest.raises(ValueError, match="directed"):
        ug.expected_edit_distance(g0.to_undirected())
    assert gv.UncertainGraph.from_graph(g0).expected_edit_distance(g0) == 0.0


def test_directed_uncertain_round_trips():
    ug = tiny_uncertain()
    h = ug.to_networkx()
    assert isinstance(h, nx.DiGraph) and h.edges[1, 0]["p"] == 0.3
    assert gv.UncertainGraph.from_networkx(h) == ug
    assert ug.to_igraph().is_directed()
    assert gv.UncertainGraph.from_igraph(ug.to_igraph()) == ug
    m = ug.to_scipy()
    assert m.sum(axis=1) == pytest.approx(ug.expected_out_degrees())
    assert gv.UncertainGraph.from_scipy(m, directed=True) == ug  # the stored p = 0 stays a pair
    assert ug.to_pandas().values.tolist()[2] == [1, 0, 0.3]
    back = pickle.loads(pickle.dumps(ug))
    assert back == ug and back.directed
    relaxed = gv.UncertainGraph(
        3, [0, 0, 1], [1, 1, 1], [0.5, 0.5, 0.2], relaxed=True, directed=True
    )
    simple = relaxed.simplified()
    assert simple.directed and simple.p.tolist() == [0.75]
    assert relaxed.expected_out_degrees().tolist() == [1.0, 0.2, 0.0]
    assert relaxed.expected_in_degrees().tolist() == [0.0, 1.2, 0.0]


def test_a_directed_multigraph_is_refused(tmp_path):
    with pytest.raises(ValueError, match="has no directed form yet"):
        tiny_uncertain().sample_multigraph(seed=1)


# ---------------------------------------------------------------------- refusals
def test_require_undirected_message():
    require_undirected(gv.Graph.from_edges([0], [1]), "x")  # undirected passes
    with pytest.raises(ValueError, match=r"^maxvar has no directed form yet: .*to_undirected\(\)"):
        require_undirected(directed_graph(), "maxvar")


@pytest.mark.parametrize(
    "name", [name for name in registry.names() if not registry.scheme(name).directed]
)
def test_every_scheme_without_a_directed_form_refuses_a_directed_graph(name):
    record = registry.scheme(name)
    required = [
        p.name
        for p in inspect.signature(record.function).parameters.values()
        if p.default is inspect.Parameter.empty and p.name != "graph"
    ]
    # the refusal comes first: the other arguments are never looked at
    with pytest.raises(ValueError, match=f"^{name} has no directed form"):
        record.function(directed_graph(), **dict.fromkeys(required))


def test_partition_refuses_a_directed_graph_for_a_scheme_without_a_directed_form():
    with pytest.raises(ValueError, match="^partition with randwalk_mod has no directed form"):
        partition(directed_graph(), scheme="randwalk_mod", parts=2, t=2)


def test_measures_and_attacks_refuse_mixing_directed_and_undirected():
    ug = tiny_uncertain()
    und = gv.Graph.from_edges([0, 1], [1, 2], 4)
    # the measures and attacks have directed forms (tests/test_directed_measures.py,
    # tests/test_directed_study.py); mixing kinds is refused
    with pytest.raises(ValueError, match="measure graphs of one kind"):
        eps(und, ug, k=2)
    calls = {
        "evaluate": lambda: evaluate(und, ug, samples=1, seed=1),
        "link_inference": lambda: link_inference(und, ug),
        "propagation_attack": lambda: propagation_attack(und, ug),
        "attack_scores": lambda: attack_scores(und, ug),
    }
    for what, call in calls.items():
        with pytest.raises(
            ValueError, match="g0 is undirected and the (published graph|release) directed"
        ):
            call()


def test_from_scipy_directed_and_as_undirected_exclude_each_other():
    with pytest.raises(ValueError, match="not both"):
        gv.Graph.from_scipy(sp.csr_array(np.eye(2)), directed=True, as_undirected=True)
