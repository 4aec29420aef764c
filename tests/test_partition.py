"""Partition: schemes on METIS parts, cut edges at p = 1, ids mapped back."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from graph_zoo import load_shared

import graphveil as gv
from graphveil.anonymize import ObfuscationError, partition, randwalk_mod_uncertain
from graphveil.anonymize.partitioners import get as get_partitioner


def _edge_set(ug) -> set[tuple[int, int]]:
    return set(zip(ug.u.tolist(), ug.v.tolist()))


def test_switch_on_parts_keeps_degrees_and_cut():
    g = load_shared("ca-GrQc")
    ug, report = partition(g, scheme="edge_switch", parts=8, seed=4, switches=2000)
    labels = get_partitioner("metis").labels(g, 8, seed=4)
    eu, ev = g.edges()
    cut = set(zip(eu[labels[eu] != labels[ev]].tolist(), ev[labels[eu] != labels[ev]].tolist()))
    assert report["cut_edges"] == len(cut)
    assert cut <= _edge_set(ug)
    # every published pair lies inside a part or is a cut edge of G0
    for a, b in _edge_set(ug) - cut:
        assert labels[a] == labels[b]
    h = gv.Graph.from_edges(ug.u, ug.v, g.n)
    np.testing.assert_array_equal(h.degrees, g.degrees)
    assert sum(report["part_sizes"]) == g.n and len(report["part_reports"]) <= 8
    assert sum(r["performed"] for r in report["part_reports"]) > 0
    json.dumps(report)


def test_randwalk_mod_on_parts_matches_per_part_uncertain_form_in_expectation():
    g = gv.Graph.from_networkx(nx.karate_club_graph())
    ug, report = partition(g, scheme="randwalk_mod", parts=2, t=3, variant="printed", seed=1)
    assert ug.relaxed
    assert report["params"]["kwargs"] == {"t": 3, "variant": "printed"}
    labels = get_partitioner("metis").labels(g, 2, seed=1)
    # expected number of pairs = m inside the parts + the cut
    inside = sum(r["pairs"] for r in report["part_reports"])
    assert ug.num_pairs == inside + report["cut_edges"]
    # the per-part uncertain forms keep degrees: together with the cut, all of G0's degrees
    total = np.zeros(g.n)
    for i in range(2):
        nodes = np.flatnonzero(labels == i)
        sub_ug, _ = randwalk_mod_uncertain(g.subgraph(nodes), 3)
        np.add.at(total, nodes, sub_ug.expected_degrees())
    eu, ev = g.edges()
    cut = labels[eu] != labels[ev]
    np.add.at(total, eu[cut], 1.0)
    np.add.at(total, ev[cut], 1.0)
    np.testing.assert_allclose(total, g.degrees, atol=1e-12)


def test_obfuscation_on_parts_and_error_names_the_part():
    g = load_shared("ca-GrQc")
    ug, report = partition(
        g, scheme="obfuscation", parts=4, k=5, eps=0.2, sigma=0.1, attempts=1, seed=2
    )
    assert all(r["eps_hat"] <= 0.2 for r in report["part_reports"])
    assert not ug.relaxed
    with pytest.raises(ObfuscationError, match="part 0"):
        partition(
            g, scheme="obfuscation", parts=4, k=10_000, eps=0.0, sigma=0.001, attempts=1, seed=2
        )


def test_seed_and_callable():
    g = load_shared("ca-GrQc")
    a, _ = partition(g, scheme="randwalk", parts=4, t=3, seed=9)
    b, _ = partition(g, scheme="randwalk", parts=4, t=3, seed=9)
    np.testing.assert_array_equal(a.u, b.u)
    np.testing.assert_array_equal(a.v, b.v)

    def identity(sub, *, seed):
        from graphveil.anonymize import edge_switch

        return edge_switch(sub, switches=0, seed=seed)

    ug, report = partition(g, scheme=identity, parts=3, seed=1)
    assert _edge_set(ug) == set(zip(*(x.tolist() for x in g.edges())))
    assert report["params"]["scheme"] == "identity"


def test_bad_input():
    g = gv.Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(ValueError, match="unknown scheme"):
        partition(g, scheme="maxvarx", parts=2)
    with pytest.raises(ValueError, match="parts must be >= 1"):
        partition(g, scheme="edge_switch", parts=0, switches=1)
    with pytest.raises(ValueError, match="exceeds the number of nodes"):
        partition(g, scheme="edge_switch", parts=100, switches=1)
    with pytest.raises(TypeError):
        partition(g, scheme=3, parts=2)


def test_parts_layout_matches_induced_subgraphs():
    from graphveil.anonymize.parts import split_parts

    g = load_shared("ca-GrQc")
    labels = get_partitioner("metis").labels(g, 6, seed=3)
    layout = split_parts(g, labels, 6, threads=2)
    assert layout.parts == 6 and sum(layout.sizes()) == g.n
    for i in range(6):
        nodes = layout.nodes(i)
        np.testing.assert_array_equal(nodes, np.flatnonzero(labels == i))
        assert layout.subgraph(i) == g.subgraph(nodes)  # scipy slicing as the reference
    eu, ev = g.edges()
    cut = labels[eu] != labels[ev]
    np.testing.assert_array_equal(layout.cut_u, eu[cut])
    np.testing.assert_array_equal(layout.cut_v, ev[cut])


def test_result_does_not_depend_on_threads_or_executor():
    from concurrent.futures import ThreadPoolExecutor

    g = load_shared("ca-GrQc")
    a, ra = partition(g, scheme="randwalk_mod", parts=5, t=3, seed=8, threads=1)
    b, _ = partition(g, scheme="randwalk_mod", parts=5, t=3, seed=8, threads=3)
    with ThreadPoolExecutor(max_workers=2) as pool:
        c, rc = partition(g, scheme="randwalk_mod", parts=5, t=3, seed=8, executor=pool)
    for other in (b, c):
        np.testing.assert_array_equal(a.u, other.u)
        np.testing.assert_array_equal(a.v, other.v)
        np.testing.assert_array_equal(a.p, other.p)
    assert [r["seed"] for r in ra["part_reports"]] == [r["seed"] for r in rc["part_reports"]]
    assert len({r["seed"] for r in ra["part_reports"]}) == 5  # one stream per part
    with pytest.raises(TypeError, match="executor"):
        partition(g, scheme="randwalk", parts=2, t=3, executor=object())


def test_randwalk_mod_uncertain_refuses_a_large_matrix_without_counting_g0():
    g = gv.datasets.load("karate_club")
    with pytest.raises(ValueError, match="more than max_entries=10 nonzeros; lower t") as info:
        randwalk_mod_uncertain(g, 3, max_entries=10)
    nnz = randwalk_mod_uncertain(g, 3)[1]["K_t"]  # G0's count stays out of the message
    assert str(nnz) not in str(info.value).replace("max_entries=10", "")
