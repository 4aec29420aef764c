"""EdgeSwitch and Mixture: invariants (degrees, simplicity, counts) and the paper's formulas."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph, load_shared

import graphveil as gv
from graphveil.anonymize import edge_switch, mixture, randwalk_mod


def _as_graph(ug: gv.UncertainGraph) -> gv.Graph:
    return gv.Graph.from_edges(ug.u, ug.v, ug.n)


# ------------------------------------------------------------------ EdgeSwitch
@pytest.mark.parametrize("nearby", [False, True])
def test_switch_keeps_degrees_and_simplicity(nearby):
    g = load_shared("ca-GrQc")
    ug, report = edge_switch(g, switches=20_000, nearby=nearby, seed=3)
    h = _as_graph(ug)
    assert h.build_counts.self_loops == 0 and h.build_counts.duplicates == 0
    assert np.all(ug.u < ug.v) and np.all(ug.p == 1.0) and not ug.relaxed
    np.testing.assert_array_equal(h.degrees, g.degrees)
    assert report["attempted"] == 20_000
    assert 0 < report["performed"] <= 20_000
    # the number of changed edges is at most twice the performed switches
    old = set(zip(*(x.tolist() for x in g.edges())))
    new = set(zip(ug.u.tolist(), ug.v.tolist()))
    assert 0 < len(new - old) <= 2 * report["performed"]


def test_switch_count_matches_a_replay_in_python():
    """Replaying the accepted switches on networkx gives the same graph."""
    g = karate_graph()
    for seed in range(20):
        ug, report = edge_switch(g, switches=1, seed=seed)
        old = set(zip(*(x.tolist() for x in g.edges())))
        new = set(zip(ug.u.tolist(), ug.v.tolist()))
        if report["performed"] == 0:
            assert new == old
            continue
        removed, added = old - new, new - old
        assert len(removed) == len(added) == 2
        ends = sorted(x for e in removed for x in e)
        assert sorted(x for e in added for x in e) == ends


def test_nearby_switch_adds_distance_two_pairs():
    g = karate_graph()
    dist = dict(nx.all_pairs_shortest_path_length(g.to_networkx()))
    performed = 0
    for seed in range(60):
        ug, report = edge_switch(g, switches=1, nearby=True, seed=seed)
        old = set(zip(*(x.tolist() for x in g.edges())))
        added = set(zip(ug.u.tolist(), ug.v.tolist())) - old
        performed += report["performed"]
        assert len(added) == 2 * report["performed"]
        for a, b in added:
            assert dist[a][b] == 2
    assert performed > 5


def test_switch_zero_and_seed():
    g = karate_graph()
    ug, report = edge_switch(g, switches=0, seed=1)
    assert report["performed"] == 0
    assert set(zip(ug.u.tolist(), ug.v.tolist())) == set(zip(*(x.tolist() for x in g.edges())))
    a = edge_switch(g, switches=500, seed=7).graph
    b = edge_switch(g, switches=500, seed=7).graph
    assert np.array_equal(a.u, b.u) and np.array_equal(a.v, b.v)
    json.dumps(edge_switch(g, switches=5, seed=7).report)


def test_switch_zoo(zoo_graph):
    for nearby in (False, True):
        ug, _ = edge_switch(zoo_graph, switches=50, nearby=nearby, seed=0)
        np.testing.assert_array_equal(
            _as_graph(ug).degrees if ug.n else np.zeros(0), zoo_graph.degrees
        )


def test_switch_clique_cannot_switch():
    ug, report = edge_switch(ZOO["clique5"], switches=100, seed=0)
    assert report["performed"] == 0


def test_switch_bad_input():
    with pytest.raises(ValueError, match="switches must be >= 0"):
        edge_switch(karate_graph(), switches=-1)
    with pytest.raises(TypeError):
        edge_switch(karate_graph(), switches=1.5)


# ------------------------------------------------------------------ Mixture
def test_mixture_probabilities():
    g0 = karate_graph()
    g, _ = edge_switch(g0, switches=200, seed=2)
    ug, report = mixture(g0, anonymized=g, p=0.3)
    old = set(zip(*(x.tolist() for x in g0.edges())))
    new = set(zip(g.u.tolist(), g.v.tolist()))
    got = {(a, b): p for a, b, p in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist())}
    assert set(got) == old | new
    for key, p in got.items():
        want = 1.0 if key in old and key in new else (0.7 if key in old else 0.3)
        assert p == pytest.approx(want)
    assert report["in_both"] == len(old & new)
    assert report["only_g0"] == len(old - new) and report["only_g"] == len(new - old)
    # (1 - p) A(G0) + p A(G) keeps the degrees of a degree-preserving G
    np.testing.assert_allclose(ug.expected_degrees(), g0.degrees, atol=1e-12)


def test_mixture_of_randwalk_mod_matches_the_matrix():
    g0 = karate_graph()
    g, _ = randwalk_mod(g0, t=3, variant="printed", seed=1)
    ug, _ = mixture(g0, anonymized=g, p=0.4)
    assert ug.relaxed
    a0 = g0.to_scipy().toarray()
    ag = np.zeros_like(a0)
    np.add.at(ag, (g.u, g.v), 1.0)
    np.add.at(ag, (g.v[g.u != g.v], g.u[g.u != g.v]), 1.0)
    want = 0.6 * a0 + 0.4 * ag
    got = np.zeros_like(a0)
    np.add.at(got, (ug.u, ug.v), ug.p)
    np.add.at(got, (ug.v[ug.u != ug.v], ug.u[ug.u != ug.v]), ug.p[ug.u != ug.v])
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_mixture_extremes_and_bad_input():
    g0 = karate_graph()
    g, _ = edge_switch(g0, switches=100, seed=2)
    ug, _ = mixture(g0, anonymized=g, p=0.0)
    kept = ug.p > 0
    assert set(zip(ug.u[kept].tolist(), ug.v[kept].tolist())) == set(
        zip(*(x.tolist() for x in g0.edges()))
    )
    ug, _ = mixture(g0, anonymized=g.to_graph() if hasattr(g, "to_graph") else _as_graph(g), p=1.0)
    kept = ug.p > 0
    assert set(zip(ug.u[kept].tolist(), ug.v[kept].tolist())) == set(
        zip(g.u.tolist(), g.v.tolist())
    )
    for bad in (-0.1, 1.1, float("nan")):
        with pytest.raises(ValueError, match="p must lie in"):
            mixture(g0, anonymized=g, p=bad)
    with pytest.raises(ValueError, match="share their nodes"):
        mixture(g0, anonymized=ZOO["triangle"], p=0.5)
