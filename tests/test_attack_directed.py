"""graphveil.attack on directed releases: directed Narayanan-Shmatikov propagation.

References: a plain-Python propagation written from NS 2009's matchScores on directed graphs (a
loop over the in-edges adding 1/sqrt(in-degree) per candidate, a loop over the out-edges adding
1/sqrt(out-degree)) with this package's documented choices (rounds, the degree window on both
degrees, the rescoring rule), compared exactly with the C++ kernel under both eccentricity rules,
on 1 and 2 threads and both index widths; directed twins against a set-based brute force; the
control (a digraph attacking itself, ids hidden) reaching its directed-twin ceiling with no
mistake; and direction beating the undirected attack where the undirected graph hides it.
"""

from __future__ import annotations

import json
import math
import statistics

import numpy as np
import pytest
from graph_zoo import oriented_digraph
from test_attack import ref_propagation as undirected_propagation

import graphveil as gv
from graphveil import _core
from graphveil.anonymize import edge_switch
from graphveil.attack import (
    attack_scores,
    high_degree_seeds,
    propagation,
    propagation_attack,
    seedless_attack,
    structural_twins,
)
from graphveil.attack.propagation import propagation_table


# ----------------------------------------------------------------------------- the reference
def _ns_eccentricity(scores: list[float]) -> float:
    """NS 2009: (max(X) - max2(X)) / sigma(X), X the scores of every node, zeros included."""
    ranked = sorted(scores, reverse=True)
    if len(ranked) < 2:
        return math.inf
    if ranked[0] == ranked[1]:
        return 0.0
    sigma = statistics.pstdev(scores)
    return math.inf if sigma == 0 else (ranked[0] - ranked[1]) / sigma


def _ref_best(fg, tg, fmap, taken, x, theta, ratio, eccentricity):
    """NS matchScores on directed graphs for node x of fg, then the eccentricity test."""
    tin, tout = tg.in_degrees, tg.out_degrees
    din, dout = fg.in_degrees[x], fg.out_degrees[x]

    def admissible(c: int) -> bool:  # the degree window, on both degrees
        return taken[c] < 0 and (
            ratio == math.inf
            or (din / ratio <= tin[c] <= din * ratio and dout / ratio <= tout[c] <= dout * ratio)
        )

    score: dict[int, float] = {}
    for w in fg.predecessors(x).tolist():  # lnbr -> lnode: rnbr -> rnode, 1 / sqrt(in-degree)
        if fmap[w] >= 0:
            for c in tg.successors(fmap[w]).tolist():
                if admissible(c):
                    score[c] = score.get(c, 0.0) + 1.0 / math.sqrt(tin[c])
    for w in fg.successors(x).tolist():  # lnode -> lnbr: rnode -> rnbr, 1 / sqrt(out-degree)
        if fmap[w] >= 0:
            for c in tg.predecessors(fmap[w]).tolist():
                if admissible(c):
                    score[c] = score.get(c, 0.0) + 1.0 / math.sqrt(tout[c])
    if not score:
        return (-1, -1, False)
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top = ranked[0]
    second_id, second = ranked[1] if len(ranked) > 1 else (-1, 0.0)
    if eccentricity == "ns":
        ecc = _ns_eccentricity([score.get(c, 0.0) for c in range(tg.n)])
    else:
        k = len(score)
        mean = sum(score.values()) / k
        sd = math.sqrt(sum((s - mean) ** 2 for s in score.values()) / k)
        ecc = math.inf if k == 1 else (0.0 if top == second else (top - second) / sd)
    return (best, second_id, ecc >= theta)


def _ref_propagation(aux, target, seeds, theta, ratio, eccentricity, max_rounds=100):
    """test_attack's reference rounds, scored by directed matchScores over in- and out-neighbours."""
    return undirected_propagation(
        aux,
        target,
        seeds,
        theta,
        ratio,
        max_rounds,
        eccentricity,
        best=_ref_best,
        neighbours=lambda t: target.predecessors(t).tolist() + target.successors(t).tolist(),
    )


def _graph(release: gv.UncertainGraph) -> gv.Graph:
    """A deterministic release (every p = 1) as the Graph of its arcs."""
    assert np.all(release.p == 1.0)
    return gv.Graph.from_edges(release.u, release.v, release.n, directed=release.directed)


def _hidden(g: gv.Graph, rng: np.random.Generator, drop: float) -> tuple[gv.Graph, np.ndarray]:
    """``g`` with a share of its arcs dropped, on permuted ids; truth[t] = g's node of t."""
    perm = rng.permutation(g.n)
    u, v = g.edges()
    keep = rng.random(u.size) >= drop
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g.n)
    return gv.Graph.from_edges(perm[u[keep]], perm[v[keep]], g.n, directed=True), truth


@pytest.mark.parametrize("eccentricity", ["ns", "scored"])
@pytest.mark.parametrize("theta", [0.0, 0.5, 4.0])
@pytest.mark.parametrize("ratio", [None, 2.0])
@pytest.mark.parametrize("case", range(4))
def test_directed_propagation_matches_python_reference(case, theta, ratio, eccentricity):
    rng = np.random.default_rng(case)
    aux = oriented_digraph(50 + 25 * case, 2 + case % 2, case, mutual=0.15 * case)
    target, truth = _hidden(aux, rng, drop=0.1 if case % 2 else 0.0)
    seeds = high_degree_seeds(aux.to_undirected(), truth, 4, seed=case)
    kw = {"theta": theta, "degree_ratio": ratio, "eccentricity": eccentricity}
    got = propagation(aux, target, seeds, **kw, threads=2)
    want = _ref_propagation(
        aux, target, seeds.tolist(), theta, math.inf if ratio is None else ratio, eccentricity
    )
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(got, propagation(aux, target, seeds, **kw, threads=1))
    if theta == 0.5 and ratio == 2.0 and eccentricity == "ns":  # the defaults map most nodes
        assert (got >= 0).mean() > 0.4 and (got[got >= 0] == truth[got >= 0]).mean() > 0.9


def test_both_index_widths_and_the_in_csr_checked():
    g = oriented_digraph(120, 2, 7)
    target, truth = _hidden(g, np.random.default_rng(7), drop=0.05)
    seeds = high_degree_seeds(g.to_undirected(), truth, 5, seed=7)
    want = propagation(g, target, seeds)
    arrays = [
        a.astype(np.int64)
        for h in (target, g)
        for a in (h.indptr, h.indices, h.in_indptr, h.in_indices)
    ]
    start = np.full(g.n, -1, dtype=np.int64)
    start[seeds[:, 0]] = seeds[:, 1]
    got, rounds, mapped = _core.propagate_directed(*arrays, start, 0.5, 2.0, True, 100, 2)
    assert got.dtype == np.int64 and np.array_equal(got, want)
    assert mapped == np.count_nonzero(want >= 0) - len(seeds) and rounds >= 1
    arrays[3] = arrays[3][:-1]  # an in-CSR with one arc fewer than the out-CSR
    arrays[2] = arrays[2].copy()
    arrays[2][-1] -= 1
    with pytest.raises(ValueError, match="same nodes and arcs"):
        _core.propagate_directed(*arrays, start, 0.5, 2.0, True, 100, 1)


def test_direction_tells_apart_what_the_undirected_graph_cannot():
    # the 3-cycle 0 -> 1 -> 2 -> 0 with the tail 2 -> 3: 0 and 1 are twins of the triangle
    d = gv.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], directed=True)
    assert propagation(d, d, [[2, 2]]).tolist() == [0, 1, 2, 3]
    u = d.to_undirected()
    assert propagation(u, u, [[2, 2]]).tolist() == [-1, -1, 2, 3]
    # an in-neighbour is not an out-neighbour: 1 -> 0 <- 2 and 0 -> 3, seed 0; node 3 is mapped
    # from 0's out-row only, 1 and 2 (both in-neighbours of 0, in-degree 0) tie and stay unmapped
    star = gv.Graph.from_edges([1, 2, 0], [0, 0, 3], directed=True)
    assert propagation(star, star, [[0, 0]]).tolist() == [0, -1, -1, 3]


# ----------------------------------------------------------------------------- directed twins
def _brute_twins(g: gv.Graph) -> list[bool]:
    """u, v twins: swapping them is an automorphism (same out- and in-neighbours, open or closed)."""
    out = [set(g.successors(i).tolist()) for i in range(g.n)]
    inn = [set(g.predecessors(i).tolist()) for i in range(g.n)]

    def twins(u: int, v: int) -> bool:
        open_ = out[u] == out[v] and inn[u] == inn[v]
        closed = out[u] | {u} == out[v] | {v} and inn[u] | {u} == inn[v] | {v}
        return open_ or closed

    return [any(twins(u, v) for v in range(g.n) if v != u) for u in range(g.n)]


@pytest.mark.parametrize("seed", range(4))
def test_directed_twins_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, 40, 60), rng.integers(0, 40, 60)
    both = rng.random(60) < 0.4  # mutual arcs: closed twins need them
    # nodes 40 and 41 are isolated (false twins); 42 <-> 43 -> 0 and 43 -> 42 -> 0: closed twins
    u, v = np.r_[u, v[both], 42, 43, 42, 43], np.r_[v, u[both], 43, 42, 0, 0]
    g = gv.Graph.from_edges(u, v, 44, directed=True)
    twins = structural_twins(g)
    assert twins.tolist() == _brute_twins(g)
    assert twins[40:].all()
    assert not (twins & ~structural_twins(g.to_undirected())).any()  # a subset of undirected twins


def test_directed_twins_by_hand():
    # a mutual pair 0 <-> 1 with the same out-neighbour 2: closed twins; 3 -> 2 and 4 -> 2: open
    d = gv.Graph.from_edges([0, 1, 0, 1, 3, 4], [1, 0, 2, 2, 2, 2], directed=True)
    assert structural_twins(d).tolist() == [True, True, False, True, True]
    # one arc 0 -> 1 only: swapping 0 and 1 reverses it, no automorphism, no twins
    one = gv.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)
    assert structural_twins(one).tolist() == [False, False, False]
    assert structural_twins(one.to_undirected()).tolist() == [True, True, True]  # a triangle


# ----------------------------------------------------------------------------- the control
@pytest.fixture(scope="module")
def digraph() -> gv.Graph:
    return oriented_digraph(400, 2, 1)


def test_control_reaches_the_directed_twin_ceiling(digraph):
    # G0 against itself with hidden ids: every node but the directed twins is mapped, right
    r = propagation_attack(digraph, digraph, seeds=10, seed=1)
    assert r.directed and r.sampled == r.most_likely == r.top_m
    for rate in (r.sampled, r.sampled_all):
        assert rate.wrong == 0.0 and rate.correct == pytest.approx(1.0 - rate.twins)
    assert r.sampled_all.twins == pytest.approx(
        structural_twins(digraph)[np.flatnonzero(np.ones(digraph.n))].mean(), abs=10 / digraph.n
    )
    und = propagation_attack(digraph, digraph, seeds=10, seed=1, directed=False)
    assert not und.directed and und.sampled_all.wrong == 0.0
    # the undirected attack stops at the undirected twins, which direction tells apart
    assert und.sampled_all.twins > r.sampled_all.twins
    assert und.sampled_all.correct <= 1.0 - und.sampled_all.twins < r.sampled_all.correct


def test_direction_beats_the_undirected_attack_on_an_edge_switch(digraph):
    switched, _ = edge_switch(digraph, switches=digraph.m // 10, seed=1)
    directed = propagation_attack(digraph, switched, seeds=10, seed=1)
    undirected = propagation_attack(digraph, switched, seeds=10, seed=1, directed=False)
    assert directed.sampled_all.correct > undirected.sampled_all.correct + 0.2


def test_undirected_form_is_the_attack_on_the_undirected_graphs(digraph):
    switched = _graph(edge_switch(digraph, switches=digraph.m // 10, seed=2)[0])
    dropped = propagation_attack(digraph, switched, seeds=10, seed=3, directed=False)
    u = propagation_attack(digraph.to_undirected(), switched.to_undirected(), seeds=10, seed=3)
    assert not dropped.directed and not u.directed
    # the same permutation, seeds and worlds; the top-m world differs: m is G0's arcs when the
    # attacker drops directions, its undirected edges when G0 itself is undirected
    for world in ("sampled", "sampled_all", "most_likely", "most_likely_all"):
        assert getattr(dropped, world) == getattr(u, world)


def test_record_table_and_refusals(digraph):
    r = propagation_attack(digraph, digraph, seeds=10, seed=1, threads=1)
    assert r.as_dict()["directed"] is True
    assert "directed (in- and out-neighbours)" in propagation_table(r)
    assert r == propagation_attack(digraph, digraph, seeds=10, seed=1, threads=2)
    with pytest.raises(ValueError, match="aux is directed and target undirected"):
        propagation(digraph, digraph.to_undirected(), [[0, 0]])
    u = digraph.to_undirected()
    with pytest.raises(ValueError, match="directed=True asks for directed propagation"):
        propagation_attack(u, u, seeds=10, directed=True)


def test_attack_scores_read_directions(digraph):
    from graphveil._seeds import seed_to_u64

    switched, _ = edge_switch(digraph, switches=digraph.m // 10, seed=4)
    scores = attack_scores(digraph, switched, samples=1, seed=5, seeds=10)
    s = int(np.random.default_rng(seed_to_u64(5)).integers(0, 2**63, size=1)[0])
    want = propagation_attack(digraph, switched, seeds=10, seed=s)
    assert scores["reid_rate"] == want.sampled.correct
    assert scores["reid_twin_share"] == want.sampled.twins
    dropped = propagation_attack(digraph, switched, seeds=10, seed=s, directed=False)
    assert scores["reid_rate"] > dropped.sampled.correct
    record = gv.attack.registry.attack("propagation")
    assert record.directed is not None and "directed propagation" in record.directed


def test_seedless_attack_propagates_along_arcs(digraph):
    # a light switch, that the seed clique survives (seed identification reads degrees)
    switched = _graph(edge_switch(digraph, switches=digraph.m // 50, seed=6)[0])
    directed = seedless_attack(digraph, switched, seed=6)
    u = digraph.to_undirected()
    undirected = seedless_attack(u, switched.to_undirected(), seed=6)
    assert directed.rate("sampled").correct > undirected.rate("sampled").correct + 0.5
    control = seedless_attack(digraph, digraph, seed=6).rate("sampled")
    assert control.wrong == 0.0 and control.correct == pytest.approx(1.0 - control.twins)


def test_cli_attack_propagation_on_a_directed_release(tmp_path, capsys, digraph):
    from graphveil.cli import main

    graph = tmp_path / "arcs.txt"
    u, v = digraph.edges()
    graph.write_text("".join(f"{a} {b}\n" for a, b in zip(u.tolist(), v.tolist())))
    switched, _ = edge_switch(digraph, switches=digraph.m // 10, seed=7)
    release = tmp_path / "release.npz"
    switched.save(release, keep_ids=True)
    out = tmp_path / "r.json"
    argv = ["attack", "propagation", "--directed", str(graph), str(release), "--seeds", "10"]
    assert main([*argv, "--seed", "8", "--json", str(out)]) == 0
    assert "directed (in- and out-neighbours)" in capsys.readouterr().out
    data = json.loads(out.read_text())
    want = propagation_attack(digraph, switched, seeds=10, seed=8)
    assert data["directed"] is True and data["sampled"]["correct"] == want.sampled.correct
