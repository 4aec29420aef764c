"""graphveil.attack: link inference and Narayanan-Shmatikov propagation.

References: scikit-learn's roc_auc_score and a direct precision count for link inference; a
plain-Python propagation written from the NS 2009 pseudocode (with this package's documented
choices: rounds, degree window, rescoring rule) compared exactly with the C++ kernel, under both
eccentricity rules (NS's list of scores over every node, and the scored candidates' only); a
pairwise brute force for the structural twins; the un-anonymized control on ca-GrQc and the
ordering control > EdgeSwitch, RandWalk.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph

import graphveil as gv
from graphveil.anonymize import edge_switch, maxvar, randwalk
from graphveil.attack import (
    core_nodes,
    high_degree_seeds,
    link_inference,
    propagation,
    propagation_attack,
    reidentification_rate,
    structural_twins,
)


# ----------------------------------------------------------------------------- link inference
def _random_release(rng, n=60, pairs=400, ties=False):
    g0 = gv.generators.powerlaw_cluster(n, 3, 0.3, seed=int(rng.integers(1 << 30)))
    iu, iv = np.triu_indices(n, 1)
    pick = rng.choice(iu.size, size=min(pairs, iu.size), replace=False)
    p = rng.integers(0, 5, pick.size) / 4 if ties else rng.random(pick.size)
    return g0, gv.UncertainGraph(n, iu[pick], iv[pick], p)


def _truth_labels(g0, ug):
    edges = set(zip(*(a.tolist() for a in g0.edges())))
    return np.array([(a, b) in edges for a, b in zip(ug.u.tolist(), ug.v.tolist())])


@pytest.mark.parametrize("ties", [False, True], ids=["continuous", "ties"])
@pytest.mark.parametrize("seed", range(4))
def test_link_inference_against_sklearn(seed, ties):
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(seed)
    g0, ug = _random_release(rng, ties=ties)
    y = _truth_labels(g0, ug)
    r = link_inference(g0, ug)
    assert r.auc == pytest.approx(roc_auc_score(y, ug.p), abs=1e-12)
    assert r.true_pairs == y.sum() and r.pairs == ug.num_pairs and r.edges == g0.m
    likely = ug.p >= 0.5
    assert r.likely_edges == likely.sum()
    assert r.precision == pytest.approx((y & likely).sum() / likely.sum())
    assert r.recall == pytest.approx((y & likely).sum() / g0.m)
    # top m: expected hits over a random order of the tie group cut at the m-th place
    k = min(g0.m, ug.num_pairs)
    order = np.argsort(-ug.p, kind="stable")
    cut = ug.p[order[k - 1]]
    above = ug.p > cut
    at = ug.p == cut
    hits = (y & above).sum() + (y & at).sum() * (k - above.sum()) / at.sum()
    assert r.precision_at_m == pytest.approx(hits / k)
    assert r.recall_at_m == pytest.approx(hits / g0.m)
    if not ties:  # no tie: the plain top-k count
        assert r.precision_at_m == pytest.approx(y[order[:k]].sum() / k)


def test_link_inference_deterministic_release():
    g0 = karate_graph()
    ug, _ = edge_switch(g0, switches=30, seed=1)
    r = link_inference(g0, ug)
    assert r.deterministic and r.auc is None
    kept = len(set(zip(*map(list, g0.edges()))) & set(zip(ug.u.tolist(), ug.v.tolist())))
    # every pair ties: m pairs drawn at random from the published ones
    assert r.precision_at_m == pytest.approx(kept / ug.num_pairs)
    assert r.recall_at_m == pytest.approx(min(g0.m, ug.num_pairs) * kept / ug.num_pairs / g0.m)
    assert r.precision == pytest.approx(kept / ug.num_pairs)
    assert r.recall == pytest.approx(kept / g0.m)
    assert link_inference(g0, g0).precision == 1.0
    assert "deterministic" in repr(r)


def test_link_inference_maxvar_ranks_true_edges_high():
    g0 = gv.datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=40, parts=1, seed=1)
    r = link_inference(g0, ug)
    assert 0.5 < r.auc <= 1.0 and r.recall_at_m <= 1.0
    assert "auc=" in repr(r)


def test_link_inference_bad_input():
    g0 = karate_graph()
    with pytest.raises(ValueError, match="same nodes"):
        link_inference(g0, gv.UncertainGraph(5, [0], [1], [0.5]))
    with pytest.raises(TypeError, match="UncertainGraph or Graph"):
        link_inference(g0, np.zeros(3))
    with pytest.raises(TypeError, match="g0 must be"):
        link_inference(None, g0)


def test_link_inference_empty_release():
    g0 = ZOO["path5"]
    r = link_inference(g0, gv.UncertainGraph(5, [], [], []))
    assert r.pairs == 0 and r.auc is None and r.recall == 0.0 and math.isnan(r.precision)


# ----------------------------------------------------------------------------- propagation reference
def _ns_eccentricity(scores):
    """NS 2009, Section 5.2: eccentricity(X) = (max(X) - max2(X)) / sigma(X), X the list of
    scores of every node (zeros included), sigma its (population) standard deviation."""
    import statistics

    ranked = sorted(scores, reverse=True)
    if len(ranked) < 2:
        return math.inf  # no max2: nothing to compare the one score with
    top, second = ranked[0], ranked[1]
    if top == second:
        return 0.0
    sigma = statistics.pstdev(scores)
    return math.inf if sigma == 0 else (top - second) / sigma


def _ref_best(from_g, to_g, fmap, taken, x, theta, ratio, eccentricity="ns"):
    """NS matchScores + eccentricity for node x, candidates in (degree, id) order of each row."""
    to_deg = to_g.degrees
    dx = from_g.degrees[x]
    score: dict[int, float] = {}
    for y0 in from_g.neighbors(x).tolist():
        y = fmap[y0]
        if y < 0:
            continue
        row = sorted(to_g.neighbors(y).tolist(), key=lambda c: (to_deg[c], c))
        for c in row:
            if taken[c] >= 0 or not (dx / ratio <= to_deg[c] <= dx * ratio):
                continue
            score[c] = score.get(c, 0.0) + 1.0 / math.sqrt(to_deg[c])
    if not score:
        return (-1, -1, False)
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top = ranked[0]
    second_id, second = ranked[1] if len(ranked) > 1 else (-1, 0.0)
    if eccentricity == "ns":  # the list of scores has one entry per node of to_g
        ecc = _ns_eccentricity([score.get(c, 0.0) for c in range(to_g.n)])
    else:  # graphveil's earlier rule: over the candidates that scored
        k = len(score)
        mean = sum(score.values()) / k
        sd = math.sqrt(sum((s - mean) ** 2 for s in score.values()) / k)
        ecc = math.inf if k == 1 else (0.0 if top == second else (top - second) / sd)
    return (best, second_id, ecc >= theta)


def ref_propagation(
    aux, target, seeds, theta, ratio, max_rounds=100, eccentricity="ns", best=None, neighbours=None
):
    """Rounds as propagate's: a node is scored again when it gained a mapped neighbour or one of
    its best two candidates was mapped; the reverse match is always fresh. ``best`` scores a
    node (default: undirected matchScores, :func:`_ref_best`), ``neighbours(t)`` its neighbours
    in the target (a digraph's: tests/test_attack_directed.py)."""
    best = best or _ref_best
    neighbours = neighbours or (lambda t: target.neighbors(t).tolist())
    mapping = [-1] * target.n
    inverse = [-1] * aux.n
    for t, a in seeds:
        mapping[t], inverse[a] = a, t
    cached = [(-1, -1, False)] * target.n
    fresh = [True] * target.n
    for _ in range(max_rounds):
        frontier = [
            t
            for t in range(target.n)
            if mapping[t] < 0 and any(mapping[x] >= 0 for x in neighbours(t))
        ]
        for t in frontier:
            b, s2, _ = cached[t]
            if fresh[t] or (b >= 0 and inverse[b] >= 0) or (s2 >= 0 and inverse[s2] >= 0):
                cached[t] = best(target, aux, mapping, inverse, t, theta, ratio, eccentricity)
                fresh[t] = False
        reverse = {}
        for t in frontier:
            b, _, ok = cached[t]
            if ok and b not in reverse:
                rb, _, rok = best(aux, target, inverse, mapping, b, theta, ratio, eccentricity)
                reverse[b] = rb if rok else -1
        added = [t for t in frontier if cached[t][2] and reverse[cached[t][0]] == t]
        for t in added:
            mapping[t] = cached[t][0]
            inverse[cached[t][0]] = t
        for t in added:
            for x in neighbours(t):
                fresh[x] = True
        if not added:
            break
    return np.array(mapping)


def _permuted(g, rng):
    perm = rng.permutation(g.n)
    u, v = g.edges()
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g.n)
    return gv.Graph.from_edges(perm[u], perm[v], g.n), truth


def _noisy(g, rng, drop=0.1):
    u, v = g.edges()
    keep = rng.random(u.size) >= drop
    return gv.Graph.from_edges(u[keep], v[keep], g.n)


@pytest.mark.parametrize("eccentricity", ["ns", "scored"])
@pytest.mark.parametrize("theta", [0.0, 0.5, 1.5, 4.0])
@pytest.mark.parametrize("ratio", [None, 2.0])
@pytest.mark.parametrize("case", range(4))
def test_propagation_matches_python_reference(case, theta, ratio, eccentricity):
    rng = np.random.default_rng(case)
    if case == 0:
        aux = karate_graph()
    else:
        aux = gv.generators.powerlaw_cluster(40 + 20 * case, 2 + case % 2, 0.4, seed=case)
    target, truth = _permuted(_noisy(aux, rng) if case % 2 else aux, rng)
    seeds = high_degree_seeds(aux, truth, 4, seed=case)
    kw = {"theta": theta, "degree_ratio": ratio, "eccentricity": eccentricity}
    got = propagation(aux, target, seeds, **kw, threads=2)
    want = ref_propagation(
        aux,
        target,
        seeds.tolist(),
        theta,
        math.inf if ratio is None else ratio,
        eccentricity=eccentricity,
    )
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(got, propagation(aux, target, seeds, **kw, threads=1))


def test_ns_eccentricity_reference_by_hand():
    # X = (2, 1, 0, 0): mean 3/4, sigma = sqrt(5/4 - 9/16) = sqrt(11)/4
    assert _ns_eccentricity([2.0, 1.0, 0.0, 0.0]) == pytest.approx(4 / math.sqrt(11))
    # one nonzero score among n: max2 = 0 and sigma = s sqrt(n - 1) / n, eccentricity n / sqrt(n - 1)
    assert _ns_eccentricity([0.5] + [0.0] * 9) == pytest.approx(10 / 3)
    assert _ns_eccentricity([1.0, 1.0, 0.0]) == 0.0 and _ns_eccentricity([3.0]) == math.inf


def test_eccentricity_rules_differ_and_the_default_is_ns():
    # One mapped neighbour and one candidate at every step along a path from seed 0: the scored
    # rule has no spread (+inf, any theta passes) while NS's list of n scores, one nonzero,
    # gives n / sqrt(n - 1) = 2.5 on 5 nodes, in both directions.
    path = ZOO["path5"]
    n = path.n
    ns = n / math.sqrt(n - 1)
    assert propagation(path, path, [[0, 0]], theta=ns - 1e-9).tolist() == list(range(n))
    assert propagation(path, path, [[0, 0]], theta=ns + 1e-9).tolist() == [0] + [-1] * (n - 1)
    assert propagation(path, path, [[0, 0]], theta=100, eccentricity="scored").tolist() == list(
        range(n)
    )
    g = gv.generators.powerlaw_cluster(300, 2, 0.4, seed=7)
    rng = np.random.default_rng(7)
    target, truth = _permuted(_noisy(g, rng), rng)
    seeds = high_degree_seeds(g, truth, 10, seed=7)
    default = propagation(g, target, seeds, theta=1.0)
    assert np.array_equal(default, propagation(g, target, seeds, theta=1.0, eccentricity="ns"))
    assert not np.array_equal(
        default, propagation(g, target, seeds, theta=1.0, eccentricity="scored")
    )


def test_propagation_small_cases_by_hand():
    path = ZOO["path5"]  # 0-1-2-3-4: from seed 0 -> 0 the path unrolls one node per round
    np.testing.assert_array_equal(propagation(path, path, [[0, 0]]), np.arange(5))
    star = ZOO["star6"]  # the leaves are automorphic: they tie and stay unmapped
    np.testing.assert_array_equal(propagation(star, star, [[0, 0]]), [0] + [-1] * 6)
    assert propagation(star, star, [[0, 0]], theta=0.0).tolist() == list(
        range(7)
    )  # ties -> smallest id
    assert propagation(path, path, np.zeros((0, 2), dtype=int)).tolist() == [-1] * 5


def test_propagation_bad_input():
    g = karate_graph()
    with pytest.raises(ValueError, match="out of range"):
        propagation(g, g, [[0, 34]])
    with pytest.raises(ValueError, match="out of range"):
        propagation(g, g, [[-1, 0]])
    with pytest.raises(ValueError, match="repeat"):
        propagation(g, g, [[0, 1], [2, 1]])
    with pytest.raises(ValueError, match="shape"):
        propagation(g, g, [0, 1])
    with pytest.raises(TypeError, match="integer"):
        propagation(g, g, [[0.5, 1.0]])
    for empty in (ZOO["empty"], ZOO["isolated3"]):
        with pytest.raises(ValueError, match="empty"):
            propagation(empty, g, [])
        with pytest.raises(ValueError, match="empty"):
            propagation(g, empty, [])
    with pytest.raises(ValueError, match="theta"):
        propagation(g, g, [[0, 0]], theta=-1)
    with pytest.raises(ValueError, match="degree_ratio"):
        propagation(g, g, [[0, 0]], degree_ratio=0.5)
    with pytest.raises(ValueError, match="max_rounds"):
        propagation(g, g, [[0, 0]], max_rounds=0)
    with pytest.raises(ValueError, match="eccentricity must be one of 'ns', 'scored'"):
        propagation(g, g, [[0, 0]], eccentricity="NS")
    with pytest.raises(TypeError, match="eccentricity must be a string"):
        propagation(g, g, [[0, 0]], eccentricity=None)
    with pytest.raises(TypeError, match="Graph"):
        propagation(g.to_networkx(), g, [[0, 0]])


def test_reidentification_rate():
    r = reidentification_rate([0, 2, -1, 3, 1], [0, 1, 2, 3, 4], nodes=[0, 1, 2])
    assert (r.nodes, r.correct, r.wrong, r.unmapped) == (3, 1 / 3, 1 / 3, 1 / 3)
    assert r.accuracy == 0.5 and r.coverage == r.mapped == 2 / 3 and math.isnan(r.twins)
    twins = np.array([True, False, True, False, False])
    r = reidentification_rate([0, 2, -1, 3, 1], [0, 1, 2, 3, 4], [0, 1, 2], twins=twins)
    assert r.twins == 2 / 3
    none = reidentification_rate([-1, -1], [0, 1])
    assert none.coverage == 0.0 and math.isnan(none.accuracy)
    fields = {"nodes", "correct", "wrong", "unmapped", "twins", "accuracy", "coverage"}
    assert set(none.as_dict()) == fields
    with pytest.raises(ValueError, match="twins must be a boolean array"):
        reidentification_rate([0, 1], [0, 1], twins=[1, 0])
    with pytest.raises(ValueError, match="one per target node"):
        reidentification_rate([0, 1], [0, 1, 2])
    with pytest.raises(ValueError, match="out of range"):
        reidentification_rate([0, 1], [0, 1], nodes=[2])
    assert math.isnan(reidentification_rate([], []).correct)


@pytest.mark.parametrize("seed", range(5))
def test_accuracy_and_coverage_are_consistent(seed):
    rng = np.random.default_rng(seed)
    n = 50
    truth = rng.permutation(n)
    mapping = np.where(rng.random(n) < 0.5, truth, rng.permutation(n))
    mapping[rng.random(n) < 0.3] = -1
    nodes = rng.choice(n, 30, replace=False)
    r = reidentification_rate(mapping, truth, nodes)
    correct = int(np.sum(mapping[nodes] == truth[nodes]))
    mapped = int(np.sum(mapping[nodes] >= 0))
    assert correct <= mapped <= r.nodes == 30
    assert r.coverage == pytest.approx(mapped / 30)
    assert r.accuracy == pytest.approx(correct / mapped)
    assert r.correct == pytest.approx(r.accuracy * r.coverage)


def _brute_twins(g):
    """u has a twin v != u with N(u) = N(v) or N(u) + {u} = N(v) + {v}: every pair compared."""
    nb = [set(g.neighbors(i).tolist()) for i in range(g.n)]
    return np.array(
        [
            any(nb[u] == nb[v] or nb[u] | {u} == nb[v] | {v} for v in range(g.n) if v != u)
            for u in range(g.n)
        ],
        dtype=bool,
    )


@pytest.mark.parametrize(
    "name", [*sorted(ZOO), "karate", "tree", "cluster", "dense", "bipartite", "sparse"]
)
def test_structural_twins_against_brute_force(name):
    import networkx as nx

    graphs = {
        "karate": karate_graph,
        "tree": lambda: gv.Graph.from_networkx(nx.random_labeled_tree(40, seed=1)),
        "cluster": lambda: gv.generators.powerlaw_cluster(60, 2, 0.5, seed=2),
        "dense": lambda: gv.Graph.from_networkx(nx.gnp_random_graph(20, 0.8, seed=3)),
        "bipartite": lambda: gv.Graph.from_networkx(nx.complete_bipartite_graph(3, 4)),
        "sparse": lambda: gv.Graph.from_networkx(nx.gnp_random_graph(60, 0.03, seed=4)),
    }
    g = ZOO[name] if name in ZOO else graphs[name]()
    got = structural_twins(g)
    assert got.dtype == np.bool_ and got.shape == (g.n,)
    np.testing.assert_array_equal(got, _brute_twins(g))


def test_structural_twins_by_hand():
    assert structural_twins(ZOO["star6"]).tolist() == [False] + [True] * 6  # leaves: N(u) = {0}
    assert structural_twins(ZOO["clique5"]).all()  # N[u] is every node
    assert not structural_twins(ZOO["path5"]).any()
    assert structural_twins(ZOO["with_isolated"]).tolist() == [True] * 6  # C4: 0~2, 1~3; 4~5
    with pytest.raises(TypeError, match="Graph"):
        structural_twins(karate_graph().to_networkx())


def test_high_degree_seeds_and_core():
    g = karate_graph()
    truth = np.arange(g.n)[::-1].copy()  # target t is aux node n-1-t
    s = high_degree_seeds(g, truth, 3, pool=4, seed=2)
    top4 = set(np.argsort(-g.degrees, kind="stable")[:4].tolist())
    assert set(s[:, 1].tolist()) <= top4 and np.array_equal(truth[s[:, 0]], s[:, 1])
    assert np.array_equal(s, high_degree_seeds(g, truth, 3, pool=4, seed=2))
    with pytest.raises(ValueError, match="pool"):
        high_degree_seeds(g, truth, 3, pool=2)
    with pytest.raises(ValueError, match="only"):
        high_degree_seeds(g, truth, 40)
    two = ZOO["two_components"]  # triangle 0-1-2 and path 3-4-5
    assert core_nodes(two, 2).tolist() == [0, 1, 2]


# ----------------------------------------------------------------------------- the control
@pytest.fixture(scope="module")
def grqc():
    return gv.datasets.load("ca-GrQc")


def _twins(g):
    """Nodes with a structurally equivalent partner (same neighbours, open or closed)."""
    from collections import Counter

    nb = [frozenset(g.neighbors(i).tolist()) for i in range(g.n)]
    open_ = Counter(nb)
    closed = Counter(s | {i} for i, s in enumerate(nb))
    return {i for i, s in enumerate(nb) if open_[s] > 1 or closed[s | {i}] > 1}


def test_control_reidentifies_the_identifiable_core(grqc):
    # G0 against itself with hidden ids and 50 hub seeds. A node with a structural twin cannot be
    # told from it by any structural attack (about a quarter of ca-GrQc's core: co-author
    # cliques); the control must map most of the others and make no mistake.
    r = propagation_attack(grqc, grqc, seeds=50, seed=3)
    core = core_nodes(grqc)
    twins = _twins(grqc)
    identifiable = 1 - len(twins & set(core.tolist())) / core.size
    assert r.sampled.wrong == 0.0 and r.sampled == r.most_likely
    assert r.sampled.correct > 0.85 * identifiable
    assert r.sampled.correct + r.sampled.unmapped == 1.0
    assert r.sampled.accuracy == 1.0 and r.sampled.coverage == r.sampled.correct
    # the twins against the set-based helper, and their share of the core (50 seeds left out)
    assert set(np.flatnonzero(structural_twins(grqc)).tolist()) == twins
    assert abs(r.sampled.twins - (1 - identifiable)) < 50 / core.size
    assert r.eccentricity == "ns" and 1.0 - r.sampled.twins >= r.sampled.correct
    # the earlier rule pinned: 1,065 of the 1,540 scored core nodes, as mapped before NS's rule
    old = propagation_attack(grqc, grqc, seeds=50, seed=3, eccentricity="scored")
    assert (old.sampled.nodes, round(old.sampled.correct * old.sampled.nodes)) == (1540, 1065)
    assert old.sampled.wrong == 0.0 and old.sampled.correct < r.sampled.correct


def test_control_beats_edge_switch_and_randwalk(grqc):
    control = propagation_attack(grqc, grqc, seeds=50, seed=4).sampled.correct
    switched, _ = edge_switch(grqc, switches=grqc.m // 2, seed=4)
    walked, _ = randwalk(grqc, t=2, seed=4)
    s = propagation_attack(grqc, switched, seeds=50, seed=4).sampled.correct
    w = propagation_attack(grqc, walked, seeds=50, seed=4).sampled.correct
    assert control > s + 0.2 and control > w + 0.2


def test_propagation_attack_bad_input(grqc):
    with pytest.raises(ValueError, match="same nodes"):
        propagation_attack(grqc, karate_graph())
    with pytest.raises(ValueError, match="seeds"):
        propagation_attack(grqc, grqc, seeds=-1)


def test_gv_attack_is_the_module():
    assert gv.attack.link_inference is link_inference


# ----------------------------------------------------------------------------- CLI
def test_cli_attack_link_and_propagation(tmp_path, capsys):
    import json

    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=40, parts=1, seed=1)
    path = tmp_path / "ug.npz"
    ug.save(path, keep_ids=True)
    out_json = tmp_path / "link.json"
    assert (
        main(["attack", "link", "--dataset", "karate_club", str(path), "--json", str(out_json)])
        == 0
    )
    out = capsys.readouterr().out
    assert "auc" in out and "precision at m" in out
    assert json.loads(out_json.read_text())["auc"] == pytest.approx(link_inference(g0, ug).auc)
    out_json = tmp_path / "prop.json"
    argv = ["attack", "propagation", "--dataset", "karate_club", str(path), "--seeds", "5"]
    assert main([*argv, "--seed", "1", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "sampled (core)" in out and "most likely (all)" in out
    assert "accuracy" in out and "coverage" in out and "twins" in out and "eccentricity ns" in out
    data = json.loads(out_json.read_text())
    want = propagation_attack(g0, ug, seeds=5, seed=1)
    assert data["sampled"]["correct"] == pytest.approx(want.sampled.correct)
    assert data["sampled"]["twins"] == pytest.approx(want.sampled.twins)
    assert data["sampled"]["coverage"] == pytest.approx(want.sampled.coverage)
    assert main([*argv, "--seed", "1", "--eccentricity", "scored", "--json", str(out_json)]) == 0
    assert "eccentricity scored" in capsys.readouterr().out
    want = propagation_attack(g0, ug, seeds=5, seed=1, eccentricity="scored")
    assert json.loads(out_json.read_text())["sampled"] == pytest.approx(
        want.sampled.as_dict(), nan_ok=True
    )


def test_cli_attack_errors(tmp_path, capsys):
    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    path = tmp_path / "ug.npz"
    gv.UncertainGraph(5, [0], [1], [0.5]).save(path, keep_ids=True)
    assert main(["attack", "link", "--dataset", "karate_club", str(path)]) == 2
    assert "same nodes" in capsys.readouterr().err
    ug, _ = maxvar(g0, n_potential=40, parts=1, seed=1)
    ug.save(path, record=tmp_path / "private.json")  # ids permuted by default
    assert main(["attack", "propagation", "--dataset", "karate_club", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--record" in err and err.count("\n") == 1
    argv = ["attack", "link", "--dataset", "karate_club", str(path)]
    assert main([*argv, "--record", str(tmp_path / "private.json")]) == 0  # mapped back
    assert "auc" in capsys.readouterr().out
    assert main(["attack", "link", str(path)]) == 2


# ----------------------------------------------------------------------------- attack_scores
def test_attack_scores_control_and_an_uncertain_release(grqc):
    from graphveil.attack import attack_scores

    control = attack_scores(grqc, grqc, samples=2, seed=5)
    assert control["link_auc"] is None and control["precision_at_m"] == 1.0  # no ranking by p
    assert control["link_precision"] == control["link_recall"] == 1.0
    # one world, G0: only the id permutation and the seed pairs differ between the two attacks
    assert control["reid_wrong"] == 0.0 and control["reid_rate_std"] < 0.05
    assert control["reid_rate"] == control["reid_rate_most_likely"] > 0.6
    assert control["attack_samples"] == 2 and control["attack_seeds"] == 50
    assert control["reid_accuracy"] == 1.0 and control["reid_coverage"] == control["reid_rate"]
    assert 0.2 < control["reid_twin_share"] < 0.25  # ca-GrQc's core: co-author cliques
    assert control["reid_rate"] <= 1 - control["reid_twin_share"]

    ug, _ = maxvar(grqc, n_potential=grqc.m // 2, parts=1, seed=5)
    scores = attack_scores(grqc, ug, samples=3, seed=5)
    direct = link_inference(grqc, ug)
    assert scores["link_auc"] == direct.auc and scores["precision_at_m"] == direct.precision_at_m
    # three different sampled worlds: a spread, and every rate below the control's
    assert scores["reid_rate_std"] > 0
    assert 0 < scores["reid_rate"] < control["reid_rate"]
    assert scores["reid_rate"] <= scores["reid_coverage"] <= 1 and 0 < scores["reid_accuracy"] < 1
    assert scores["reid_rate"] == pytest.approx(scores["reid_accuracy"] * scores["reid_coverage"])
    assert scores["reid_twin_share"] == pytest.approx(control["reid_twin_share"], abs=0.02)
    old = attack_scores(grqc, ug, samples=3, seed=5, eccentricity="scored")
    assert old["link_auc"] == scores["link_auc"] and old["reid_rate"] != scores["reid_rate"]
    walked, _ = randwalk(grqc, t=2, seed=5)
    assert attack_scores(grqc, walked, samples=1, seed=5)["reid_rate"] < scores["reid_rate"]


def test_attack_scores_on_a_small_graph_and_bad_input():
    from graphveil.attack import attack_scores

    g = karate_graph()
    assert attack_scores(g, g, samples=1, seed=1)["attack_seeds"] == 3  # at most n // 10
    with pytest.raises(ValueError, match="samples must be >= 1"):
        attack_scores(g, g, samples=0)
    with pytest.raises(ValueError, match="same nodes"):
        attack_scores(g, gv.Graph.from_edges([0], [1], 3))


def test_evaluate_with_attacks_adds_the_attack_scores(grqc):
    from graphveil import evaluate
    from graphveil.attack import attack_scores

    ug, _ = maxvar(grqc, n_potential=grqc.m // 5, parts=1, seed=6)
    plain = evaluate(grqc, ug, samples=2, seed=6, k=30)
    attacked = evaluate(grqc, ug, samples=2, seed=6, k=30, attacks=True)
    assert not any(k.startswith("attack_") for k in plain.extra)
    assert attacked.mean == plain.mean  # the attacks take nothing from the evaluation's randomness
    direct = attack_scores(grqc, ug, samples=2, seed=attacked.seed)
    assert attacked.extra["attack_reid_rate"] == direct["reid_rate"]
    assert attacked.extra["attack_link_auc"] == direct["link_auc"]
    walked, _ = randwalk(grqc, t=2, seed=6)
    assert math.isnan(
        evaluate(grqc, walked, samples=1, seed=6, k=30, attacks=True).extra["attack_link_auc"]
    )


def test_given_twins_give_the_same_attack_and_bad_ones_are_refused():
    # attack_scores computes G0's twins once for its worlds: the same result as each run's own
    from graphveil.attack.propagation import propagation_attack, structural_twins

    g = gv.datasets.load("karate_club")
    ug, _ = gv.anonymize.edge_switch(g, switches=20, seed=3)
    own = propagation_attack(g, ug, seeds=5, seed=2)
    given = propagation_attack(g, ug, seeds=5, seed=2, g0_twins=structural_twins(g))
    assert own == given
    with pytest.raises(ValueError, match="g0_twins"):
        propagation_attack(g, ug, seeds=5, seed=2, g0_twins=np.zeros(3, dtype=bool))
