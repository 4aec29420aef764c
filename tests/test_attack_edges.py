"""graphveil.attack.edges: edge recovery from p and plausibility, and the measured edge loss.

References: plain-Python plausibility (resource allocation) and TPR / FPR of "pair published"
by enumerating every pair of tiny graphs; scikit-learn's roc_auc_score and LogisticRegression
for the AUC and the attacker's regression; scipy's exact binomial interval (binomtest) for the
Clopper-Pearson bounds. The privacy tests: TmF, EdgeFlip and DGG at a few epsilon come out at or
below epsilon, a TmF without noise far above it.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import dgg, edgeflip, maxvar, obfuscation, tmf
from graphveil.attack import edge_recovery, plausibility
from graphveil.attack import edges as E


def _random_release(rng, n=9, directed=False):
    pairs = list(
        itertools.permutations(range(n), 2) if directed else itertools.combinations(range(n), 2)
    )
    pick = rng.random(len(pairs)) < 0.4
    u = np.array([a for (a, _), k in zip(pairs, pick) if k], dtype=np.int64)
    v = np.array([b for (_, b), k in zip(pairs, pick) if k], dtype=np.int64)
    p = np.where(rng.random(u.size) < 0.3, 1.0, rng.random(u.size))
    edges = [pr for pr in pairs if rng.random() < 0.3]
    g0 = gv.Graph.from_edges([a for a, _ in edges], [b for _, b in edges], n, directed=directed)
    return g0, gv.UncertainGraph(n, u, v, p, directed=directed)


def _plain_plausibility(ug):
    n = ug.n
    weight = {}
    degree = [0.0] * n
    for a, b, q in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()):
        weight[a, b] = weight.get((a, b), 0.0) + q
        if not ug.directed:
            weight[b, a] = weight.get((b, a), 0.0) + q
        degree[a] += q
        degree[b] += q
    return [
        sum(
            weight.get((a, w), 0.0) * weight.get((w, b), 0.0) / degree[w]
            for w in range(n)
            if w not in (a, b) and degree[w] > 0
        )
        for a, b in zip(ug.u.tolist(), ug.v.tolist())
    ]


@pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])
@pytest.mark.parametrize("seed", range(3))
def test_plausibility_against_plain_python(seed, directed):
    _, ug = _random_release(np.random.default_rng(seed), directed=directed)
    assert plausibility(ug) == pytest.approx(_plain_plausibility(ug), abs=1e-12)


def test_plausibility_in_blocks_is_the_same(monkeypatch):
    g = gv.datasets.load("karate_club")
    whole = plausibility(g)
    monkeypatch.setattr(E, "_BLOCK", 7)  # many small blocks of look-ups
    assert np.array_equal(plausibility(g), whole)
    assert whole.size == g.m and whole.min() >= 0 and whole.max() > 0


@pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])
@pytest.mark.parametrize("seed", range(3))
def test_loss_against_enumeration(seed, directed):
    g0, ug = _random_release(np.random.default_rng(seed), directed=directed)
    n = g0.n
    edges = set(zip(*(a.tolist() for a in g0.edges())))
    p = {}
    for a, b, q in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()):
        p[a, b] = q
    true_mass = false_mass = 0.0
    true_count = false_count = 0
    pairs = itertools.permutations(range(n), 2) if directed else itertools.combinations(range(n), 2)
    for a, b in pairs:  # every pair, published or not
        q = p.get((a, b), 0.0)
        if (a, b) in edges:
            true_mass, true_count = true_mass + q, true_count + 1
        else:
            false_mass, false_count = false_mass + q, false_count + 1
    r = edge_recovery(g0, ug, seed=seed)
    assert r.edges == true_count == g0.m
    assert r.tpr == pytest.approx(true_mass / true_count)
    assert r.fpr == pytest.approx(false_mass / false_count)
    assert r.loss == pytest.approx(math.log(r.tpr / r.fpr))
    assert r.true_pairs == sum((a, b) in edges for a, b in p)


def test_auc_against_sklearn():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.3
    score = rng.integers(0, 6, 500) + 2.0 * y  # many ties
    assert E._auc(y, score) == pytest.approx(roc_auc_score(y, score), abs=1e-12)
    assert E._auc(np.ones(3, dtype=bool), score[:3]) is None


def test_logistic_regression_against_sklearn():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(4)
    x = rng.normal(size=(400, 2))
    y = (x @ [1.5, -0.7] + rng.logistic(size=400)) > 0.3
    w = E._logistic(x, y.astype(float))
    ref = LogisticRegression(C=1.0 / E._RIDGE, tol=1e-12, max_iter=10_000).fit(x, y)
    assert w[0] == pytest.approx(ref.intercept_[0], abs=1e-6)
    assert w[1:] == pytest.approx(ref.coef_[0], abs=1e-6)


@pytest.mark.parametrize(
    ("tp", "pos", "fp", "neg"), [(30, 40, 2, 900), (1, 5, 0, 10_000), (7, 7, 3, 3)]
)
def test_clopper_pearson_bound_against_scipy(tp, pos, fp, neg):
    from scipy.stats import binomtest

    low = binomtest(tp, pos).proportion_ci(0.9, method="exact").low
    high = binomtest(fp, neg).proportion_ci(0.9, method="exact").high
    assert float(E._lower_bound(tp, pos, fp, neg, 0.1)) == pytest.approx(math.log(low / high))


# ----------------------------------------------------------------------------- the attack
@pytest.fixture(scope="module")
def grqc():
    return gv.datasets.load("ca-GrQc")


def test_plausibility_beats_p_alone_on_maxvar_and_obfuscation(grqc):
    mv, _ = maxvar(grqc, n_potential=round(0.95 * grqc.m), parts=1, seed=7)
    ob, _ = obfuscation(grqc, k=50, eps=0.1, sigma=0.1, seed=7)
    for ug in (mv, ob):
        r = edge_recovery(grqc, ug, seed=1)
        assert not r.deterministic and r.auc_p is not None
        assert r.auc > r.auc_p + 0.001, (r.auc, r.auc_p)
    r = edge_recovery(grqc, mv, seed=1)
    assert r.auc > r.auc_p + 0.05  # MaxVar's potential edges: p alone ranks them poorly


def test_graph_release_has_plausibility_alone_and_is_seeded(grqc):
    ug, _ = edgeflip(grqc, epsilon=8.0, seed=2)
    r = edge_recovery(grqc, ug, seed=3)
    assert r.deterministic and r.auc_p is None and r.auc == r.auc_plausibility > 0.9
    assert edge_recovery(grqc, ug, seed=3) == r
    assert edge_recovery(grqc, ug, seed=4).as_dict() != r.as_dict()
    control = edge_recovery(grqc, grqc, seed=1)  # G0 published as is
    assert control.loss == math.inf and control.fpr == 0.0 and control.tpr == 1.0
    assert control.auc is None  # every published pair is an edge


# ----------------------------------------------------------------------------- measured loss
@pytest.mark.parametrize(
    ("scheme", "graph", "epsilon"),
    [
        (tmf, "karate_club", 1.0),
        (tmf, "karate_club", 5.0),
        (tmf, "ca-GrQc", 1.0),
        (tmf, "ca-GrQc", 5.0),
        (tmf, "ca-GrQc", 10.0),
        (edgeflip, "karate_club", 1.0),
        (edgeflip, "karate_club", 5.0),
        (edgeflip, "ca-GrQc", 5.0),
        (edgeflip, "ca-GrQc", 10.0),
        (dgg, "ca-GrQc", 0.5),
        (dgg, "ca-GrQc", 5.0),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_dp_release_comes_out_within_its_epsilon(scheme, graph, epsilon):
    g = gv.datasets.load(graph)
    for seed in range(2):
        ug, _ = scheme(g, epsilon=epsilon, seed=seed)
        r = edge_recovery(g, ug, seed=seed)
        assert r.eps_lower is not None and r.eps_lower <= epsilon, (seed, r)


def test_dp_loss_is_epsilon_where_pairs_are_published_alone(grqc):
    # EdgeFlip and TmF publish each pair from its own bit: ln(TPR / FPR) is epsilon
    # (TmF: the cells' share of it, less the threshold's rounding), and the bound is close.
    ug, _ = edgeflip(grqc, epsilon=5.0, seed=1)
    r = edge_recovery(grqc, ug, seed=1)
    assert r.loss == pytest.approx(5.0, abs=0.05) and 4.5 < r.eps_lower <= 5.0
    ug, _ = tmf(grqc, epsilon=10.0, seed=1)
    assert 8.0 < edge_recovery(grqc, ug, seed=1).eps_lower <= 10.0
    # DGG publishes pairs of high-degree nodes, more often edges: the pooled loss exceeds
    # epsilon, the bound within one degree context does not
    ug, _ = dgg(grqc, epsilon=0.5, seed=1)
    r = edge_recovery(grqc, ug, seed=1)
    assert r.loss > 2.0 and r.eps_lower <= 0.5
    # inference from a pair's context is not bounded by edge DP
    assert r.inference_lower > 0.5


def test_broken_mechanism_comes_out_above_its_epsilon(grqc, monkeypatch):
    from graphveil.anonymize import _tmf

    # TmF with no noise: every edge passes the threshold, no non-edge does
    release = _tmf.release_pairs
    monkeypatch.setattr(
        _tmf, "release_pairs", lambda g, keep, add, rng, threads: release(g, 1.0, 0.0, rng, threads)
    )
    for epsilon in (1.0, 5.0):
        ug, _ = tmf(grqc, epsilon=epsilon, seed=1)
        r = edge_recovery(grqc, ug, seed=1)
        assert r.loss == math.inf and r.eps_lower > epsilon + 1.0, r


def test_small_graph_bound_is_weak_but_valid(monkeypatch):
    # On 34 nodes a degree context holds a few pairs: even G0 published as is certifies
    # little (the bound is valid, not strong); the pooled loss still sees it
    g = gv.datasets.load("karate_club")
    r = edge_recovery(g, g, seed=1)
    assert r.loss == math.inf and r.eps_lower < 1.0


# ----------------------------------------------------------------------------- refusals, CLI
def test_refusals(grqc):
    with pytest.raises(ValueError, match=r"known must lie in \(0, 0.5\]"):
        edge_recovery(grqc, grqc, known=0.9)
    with pytest.raises(ValueError, match="confidence must be below 1"):
        edge_recovery(grqc, grqc, confidence=1.0)
    with pytest.raises(ValueError, match="same nodes"):
        edge_recovery(grqc, gv.UncertainGraph(3, [0], [1], [0.5]))
    with pytest.raises(TypeError, match="g0 must be a graphveil.Graph"):
        edge_recovery("g0", grqc)


def test_cli_attack_edges(tmp_path, capsys):
    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=40, parts=1, seed=1)
    path = tmp_path / "ug.npz"
    ug.save(path, keep_ids=True)
    out_json = tmp_path / "edges.json"
    argv = ["attack", "edges", "--dataset", "karate_club", str(path), "--seed", "3"]
    assert main([*argv, "--json", str(out_json)]) == 0
    assert "auc plausibility" in capsys.readouterr().out
    from graphveil._json import dumps

    want = json.loads(dumps(edge_recovery(g0, ug, seed=3).as_dict(), nan="null"))
    assert json.loads(out_json.read_text()) == want  # infinities written as null
    assert main([*argv, "--known", "0.9"]) == 2
    err = capsys.readouterr().err
    assert "known must lie in (0, 0.5]" in err and err.count("\n") == 1


def test_cli_propagation_seeds_default_and_bound(tmp_path, capsys):
    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    ug, _ = tmf(g0, epsilon=5.0, seed=1)
    path = tmp_path / "ug.npz"
    ug.save(path, keep_ids=True)
    argv = ["attack", "propagation", "--dataset", "karate_club", str(path), "--seed", "1"]
    assert main(argv) == 0  # the default adapts: 3 seed pairs on 34 nodes
    capsys.readouterr()
    assert main([*argv, "--seeds", "50"]) == 2
    err = capsys.readouterr().err
    assert "--seeds" in err and "at most 34" in err and err.count("\n") == 1
