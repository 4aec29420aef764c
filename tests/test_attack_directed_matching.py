"""Directed percolation and directed reconciliation: the graph-matching attacks on digraphs.

References, plain Python written from the papers' pseudocode (percolation with ExpandWhenStuck,
Kazemi, Hassani and Grossglauser, PVLDB 2015, Algorithm 2; Korula-Lattanzi User-Matching, PVLDB
2014, Algorithm 1) with graphveil's directed choices as the kernels' docstrings state them: a
matched pair marks the pairs of its out-neighbours and the pairs of its in-neighbours apart, a
pair's witnesses are its out-witnesses plus its in-witnesses, degrees are in + out. Each is
compared mapping for mapping with the C++ kernels on small random digraphs under noise, on 1 and
2 threads and both index widths. The control (a digraph attacking itself, ids hidden) reaches its
directed-twin ceiling; direction beats the undirected attack on an edge switch; the records,
``attack_scores`` and the command line say that the attack read directions.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from graph_zoo import oriented_digraph
from test_deanonymization import ref_percolation as undirected_reference

import graphveil as gv
from graphveil import _core
from graphveil.anonymize import edge_switch
from graphveil.attack import (
    attack_scores,
    percolation,
    percolation_attack,
    reconciliation,
    reconciliation_attack,
    seedless_attack,
    structural_twins,
)
from graphveil.attack.deanonymization import deanonymization_table


def _noisy(
    g: gv.Graph, rng: np.random.Generator, drop: float, add: int
) -> tuple[gv.Graph, np.ndarray]:
    """``g`` with a share of its arcs dropped and ``add`` random arcs added, on permuted ids."""
    perm = rng.permutation(g.n)
    u, v = g.edges()
    keep = rng.random(u.size) >= drop
    u, v = np.r_[u[keep], rng.integers(0, g.n, add)], np.r_[v[keep], rng.integers(0, g.n, add)]
    ok = u != v
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g.n)
    return gv.Graph.from_edges(perm[u[ok]], perm[v[ok]], g.n, directed=True), truth


def _sides(g: gv.Graph) -> tuple[list[list[int]], list[list[int]]]:
    """Out-rows and in-rows."""
    return (
        [g.successors(i).tolist() for i in range(g.n)],
        [g.predecessors(i).tolist() for i in range(g.n)],
    )


# ----------------------------------------------------------------------------- references
def ref_percolation(aux, target, seeds, *args, **options):
    """Percolation with ExpandWhenStuck on digraphs: marks along out-arcs and in-arcs apart."""
    return undirected_reference(
        aux, target, seeds, *args, sides=lambda g: list(_sides(g)), **options
    )


def _rows(g: gv.Graph) -> list[list[int]]:
    """Rows over the two sides: row y is y's out-row, row n + y its in-row."""
    out, inn = _sides(g)
    return out + inn


def _best(from_g, to_g, fmap, taken, x, threshold, bound, max_row):
    """x's strictly best candidate: out-witnesses plus in-witnesses, rows searched as reconcile."""
    out, inn = _sides(from_g)
    rows = _rows(to_g)
    n = to_g.n
    deg = [len(rows[c]) + len(rows[n + c]) for c in range(n)]
    # an out-neighbour w of x (x -> w) reads the in-row of its image (the c with c -> image);
    # an in-neighbour, the out-row
    images = [n + fmap[w] for w in out[x] if fmap[w] >= 0] + [
        fmap[w] for w in inn[x] if fmap[w] >= 0
    ]

    def hub(y: int) -> bool:  # a row of a node of degree (in + out) above max_row
        return max_row is not None and deg[y % n] > max_row

    images.sort(key=lambda y: (not hub(y), -len(rows[y]), y))
    if len(images) < threshold:
        return -1
    big = threshold - 1
    while big < len(images) and hub(images[big]):
        big += 1
    found = {c for y in images[big:] for c in rows[y]}
    score = {
        c: sum(c in rows[y] for y in images) for c in found if taken[c] < 0 and deg[c] >= bound
    }
    if not score:
        return -1
    top = max(score.values())
    best = [c for c, s in score.items() if s == top]
    return best[0] if top >= threshold and len(best) == 1 else -1


def ref_reconciliation(aux, target, seeds, threshold=2, iterations=10, max_row=None):
    tdeg = (target.in_degrees + target.out_degrees).tolist()
    adeg = (aux.in_degrees + aux.out_degrees).tolist()
    mapping, inverse = [-1] * target.n, [-1] * aux.n
    for t, a in np.asarray(seeds).tolist():
        mapping[t], inverse[a] = a, t
    top = max([*tdeg, *adeg, 1])
    for _ in range(iterations):
        added = 0
        for j in range(top.bit_length() - 1, 0, -1):  # floor(log2 D) .. 1
            bound = 1 << j
            fwd = {
                t: _best(target, aux, mapping, inverse, t, threshold, bound, max_row)
                for t in range(target.n)
                if mapping[t] < 0 and tdeg[t] >= bound
            }
            back = {
                a: _best(aux, target, inverse, mapping, a, threshold, bound, max_row)
                for a in set(fwd.values()) - {-1}
            }
            for a, t in back.items():
                if t >= 0 and fwd[t] == a:
                    mapping[t], inverse[a] = a, t
                    added += 1
        if not added:
            break
    return np.array(mapping)


def _case(case: int) -> tuple[gv.Graph, gv.Graph, np.ndarray, np.ndarray]:
    """aux, a noisy hidden copy, its truth and uniform seeds: case picks size, density, noise."""
    rng = np.random.default_rng(100 + case)
    aux = oriented_digraph(60 + 20 * (case % 3), 2 + case % 2, case, mutual=0.2 * (case % 4))
    target, truth = _noisy(aux, rng, drop=0.05 * (case % 3), add=3 * (case % 2))
    k = 3 + case % 4
    chosen = np.sort(rng.choice(aux.n, size=k, replace=False))
    owner = np.empty_like(truth)
    owner[truth] = np.arange(truth.size)
    return aux, target, truth, np.column_stack([owner[chosen], chosen])


CASES = range(8)


@pytest.mark.parametrize("r", [1, 2, 3])
@pytest.mark.parametrize("expand", [True, False])
@pytest.mark.parametrize("bounds", [(None, None), (30, 200)], ids=["paper", "bounded"])
@pytest.mark.parametrize("case", CASES)
def test_directed_percolation_matches_python_reference(case, r, expand, bounds):
    aux, target, _, seeds = _case(case)
    spread, noisy = bounds
    got = percolation(
        aux, target, seeds, r=r, expand_when_stuck=expand, max_spread=spread, max_noisy=noisy
    )
    want = ref_percolation(aux, target, seeds, r, expand, spread, noisy)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("threshold", [1, 2, 3])
@pytest.mark.parametrize("max_row", [None, 4])
@pytest.mark.parametrize("case", CASES)
def test_directed_reconciliation_matches_python_reference(case, threshold, max_row):
    aux, target, _, seeds = _case(case)
    want = ref_reconciliation(aux, target, seeds, threshold, 10, max_row)
    for threads in (1, 2):
        got = reconciliation(
            aux, target, seeds, threshold=threshold, max_row=max_row, threads=threads
        )
        np.testing.assert_array_equal(got, want)


def test_both_index_widths():
    aux, target, truth, seeds = _case(3)
    arrays = [
        a.astype(np.int64)
        for h in (target, aux)
        for a in (h.indptr, h.indices, h.in_indptr, h.in_indices)
    ]
    start = np.full(target.n, -1, dtype=np.int64)
    start[seeds[:, 0]] = seeds[:, 1]
    got, _, mapped, marked = _core.percolate_directed(*arrays, start, 2, True, 10**6, 10**6)
    assert got.dtype == np.int64 and np.array_equal(got, percolation(aux, target, seeds))
    assert mapped == np.count_nonzero(got >= 0) - len(seeds) and marked > 0
    got, _, _ = _core.reconcile_directed(*arrays, start, 2, 10, 2000, 2)
    assert got.dtype == np.int64 and np.array_equal(got, reconciliation(aux, target, seeds))
    arrays[3] = arrays[3][:-1]  # an in-CSR with one arc fewer than the out-CSR
    arrays[2] = arrays[2].copy()
    arrays[2][-1] -= 1
    for call in (
        lambda: _core.percolate_directed(*arrays, start, 2, True, 10**6, 10**6),
        lambda: _core.reconcile_directed(*arrays, start, 2, 10, 2000, 1),
    ):
        with pytest.raises(ValueError, match="same nodes and arcs"):
            call()


def test_direction_tells_apart_what_the_undirected_graph_cannot():
    # the 3-cycle 0 -> 1 -> 2 -> 0 with the tail 2 -> 3: 0 and 1 are twins of the triangle
    d = gv.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], directed=True)
    assert reconciliation(d, d, [[2, 2]], threshold=1).tolist() == [0, 1, 2, -1]
    u = d.to_undirected()
    assert reconciliation(u, u, [[2, 2]], threshold=1).tolist() == [-1, -1, 2, -1]
    # one mark per side: 0 -> 1 and 0 -> 2 from the seed 0 give (1, 1), (1, 2), (2, 1), (2, 2)
    # one mark each; 1 -> 2 seen from no matched pair; percolation at r = 2 maps nothing, and
    # an in-neighbour pair is no out-neighbour pair: with 3 -> 0 added, (3, 3) gets one mark
    star = gv.Graph.from_edges([0, 0, 3], [1, 2, 0], directed=True)
    assert percolation(star, star, [[0, 0]], r=1, expand_when_stuck=False).tolist() == [0, 1, 2, 3]
    assert percolation(star, star, [[0, 0]], r=2, expand_when_stuck=False).tolist() == [
        0,
        -1,
        -1,
        -1,
    ]
    with pytest.raises(ValueError, match="aux is directed and target undirected"):
        percolation(d, u, [[2, 2]])
    with pytest.raises(ValueError, match="directed reconciliation"):
        reconciliation(u, d, [[2, 2]])


# ----------------------------------------------------------------------------- the control
@pytest.fixture(scope="module")
def digraph() -> gv.Graph:
    return oriented_digraph(400, 2, 1)


@pytest.mark.parametrize("attack", [percolation_attack, reconciliation_attack])
def test_control_reaches_the_directed_twin_ceiling(digraph, attack):
    # G0 against itself with hidden ids, hub seeds: every node but the directed twins is mapped
    r = attack(digraph, digraph, seeds=10, seed_nodes="hubs", seed=1)
    und = attack(digraph, digraph, seeds=10, seed_nodes="hubs", seed=1, directed=False)
    assert r.directed and not und.directed
    every, und_every = r.rates[0].every, und.rates[0].every
    assert every.twins == pytest.approx(structural_twins(digraph).mean(), abs=10 / digraph.n)
    assert every.correct == pytest.approx(1.0 - every.twins, abs=0.02)
    if attack is reconciliation_attack:  # strict best both ways: no guess, so no mistake
        assert every.wrong == 0.0
    else:  # percolation guesses among twins: every mistake is a twin's
        assert every.wrong <= every.twins
    # the undirected attack stops at the undirected twins (or guesses them), which direction
    # tells apart
    assert und_every.twins > every.twins and und_every.correct < every.correct


@pytest.mark.parametrize("attack", [percolation_attack, reconciliation_attack])
def test_direction_beats_the_undirected_attack_on_an_edge_switch(digraph, attack):
    switched, _ = edge_switch(digraph, switches=digraph.m // 20, seed=1)
    kw = {"seeds": 20, "seed_nodes": "hubs", "seed": 1}
    directed = attack(digraph, switched, **kw).rates[0].every
    undirected = attack(digraph, switched, **kw, directed=False).rates[0].every
    assert directed.correct > undirected.correct + 0.05
    assert directed.accuracy > undirected.accuracy


@pytest.mark.parametrize("attack", [percolation_attack, reconciliation_attack])
def test_undirected_form_is_the_attack_on_the_undirected_graphs(digraph, attack):
    switched, _ = edge_switch(digraph, switches=digraph.m // 10, seed=2)
    kw = {"seed_fractions": [0.02], "seed": 3, "worlds": ("sampled", "most_likely")}
    dropped = attack(digraph, switched, **kw, directed=False)
    u = digraph.to_undirected()
    g = gv.Graph.from_edges(switched.u, switched.v, switched.n)  # every p = 1: the graph itself
    assert dropped.rates == attack(u, g, **kw).rates and not dropped.directed


def test_records_tables_and_refusals(digraph):
    r = reconciliation_attack(digraph, digraph, seed_fractions=[0.02], seed=1, threads=1)
    assert r.as_dict()["directed"] is True
    assert "directed (in- and out-neighbours)" in deanonymization_table(r)
    assert r == reconciliation_attack(digraph, digraph, seed_fractions=[0.02], seed=1, threads=2)
    u = digraph.to_undirected()
    with pytest.raises(ValueError, match="directed=True asks for directed percolation"):
        percolation_attack(u, u, seeds=10, directed=True)
    assert seedless_attack(
        digraph, digraph, seed=1, worlds="sampled"
    ).directed  # propagates on arcs
    assert not seedless_attack(u, u, seed=1, worlds="sampled").directed
    for name in ("percolation", "reconciliation"):
        record = gv.attack.registry.attack(name)
        assert record.directed is not None and f"directed {name}" in record.directed
        assert "undirected graphs" not in record.directed


def test_attack_scores_read_directions(digraph):
    switched, _ = edge_switch(digraph, switches=digraph.m // 20, seed=4)
    scores = attack_scores(digraph, switched, samples=1, seed=5, seeds=10)
    for name, run in (
        ("percolation", percolation_attack),
        ("reconciliation", reconciliation_attack),
    ):
        want = run(digraph, switched, seeds=10, seed_nodes="hubs", seed=5).rate("sampled")
        assert scores[f"{name}_rate"] == want.correct
        assert scores[f"{name}_twin_share"] == want.twins


def test_cli_attack_on_a_directed_release(tmp_path, capsys, digraph):
    from graphveil.cli import main

    graph = tmp_path / "arcs.txt"
    u, v = digraph.edges()
    graph.write_text("".join(f"{a} {b}\n" for a, b in zip(u.tolist(), v.tolist())))
    switched, _ = edge_switch(digraph, switches=digraph.m // 10, seed=7)
    release = tmp_path / "release.npz"
    switched.save(release, keep_ids=True)
    for name, run in (
        ("percolation", percolation_attack),
        ("reconciliation", reconciliation_attack),
    ):
        out = tmp_path / f"{name}.json"
        argv = ["attack", name, "--directed", str(graph), str(release), "--seeds", "10"]
        assert main([*argv, "--seed", "8", "--json", str(out)]) == 0
        assert "directed (in- and out-neighbours)" in capsys.readouterr().out
        data = json.loads(out.read_text())
        want = run(digraph, switched, seeds=10, seed=8)
        assert data["directed"] is True and data == json.loads(json.dumps(want.as_dict()))
