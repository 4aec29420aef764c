"""Privacy measures: H1 / H2_open re-identification scores, degree laws, per-degree entropy, eps.

References used here (none of them is the code under test):
- the paper's worked examples (Table 2 of Section III, Example 5.1 / Table 5 of Section VI);
- brute force over all possible worlds of tiny uncertain graphs;
- a plain-Python signature/score implementation on real graphs from ../shared/data.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

import networkx as nx
import numpy as np
import pytest
from graph_zoo import ZOO, load_shared
from hypothesis import given, settings
from hypothesis import strategies as st

import graphveil as gv
from graphveil import _core
from graphveil.measure import privacy as P

# ------------------------------------------------------------------------------------ helpers


def ref_signatures(g: gv.Graph, kind: str) -> list:
    deg = g.degrees.tolist()
    if kind == "h1":
        return deg
    return [frozenset(deg[w] for w in g.neighbors(u).tolist()) for u in range(g.n)]


def ref_score(g0: gv.Graph, g: gv.Graph, kind: str) -> float:
    """Section VI-A literally: C = nodes of g with u's original signature; 1/|C| if u in C."""
    s0, s1 = ref_signatures(g0, kind), ref_signatures(g, kind)
    classes = defaultdict(set)
    for v, s in enumerate(s1):
        classes[s].add(v)
    return math.fsum(1.0 / len(classes[s0[u]]) for u in range(g0.n) if u in classes[s0[u]])


def perturb(g: gv.Graph, frac: float, seed: int) -> gv.Graph:
    """Drop a fraction of the edges and add as many random pairs (a stand-in for a sample)."""
    rng = np.random.default_rng(seed)
    u, v = g.edges()
    keep = rng.random(u.size) >= frac
    extra = int((~keep).sum())
    a = rng.integers(0, g.n, extra)
    b = rng.integers(0, g.n, extra)
    return gv.Graph.from_edges(np.concatenate([u[keep], a]), np.concatenate([v[keep], b]), g.n)


def brute_force_laws(ug: gv.UncertainGraph) -> np.ndarray:
    """X[v, d] = Pr[deg v = d] by enumerating all 2^pairs worlds (a self-loop adds 2)."""
    n, u, v, p = ug.n, ug.u.tolist(), ug.v.tolist(), ug.p.tolist()
    X = np.zeros((n, 2 * len(p) + 1))
    for world in itertools.product((0, 1), repeat=len(p)):
        prob = 1.0
        deg = [0] * n
        for keep, a, b, q in zip(world, u, v, p):
            prob *= q if keep else 1.0 - q
            if keep:
                deg[a] += 1
                deg[b] += 1
        for node in range(n):
            X[node, deg[node]] += prob
    return X


def entropy_by_definition(X: np.ndarray) -> np.ndarray:
    """H_d = entropy of the column X[:, d] normalised (Y_d), 0 for an all-zero column."""
    H = np.zeros(X.shape[1])
    for d in range(X.shape[1]):
        s = X[:, d].sum()
        if s > 0:
            y = X[:, d] / s
            y = y[y > 0]
            H[d] = -(y * np.log2(y)).sum()
    return H


def random_uncertain(n: int, pairs: int, seed: int, relaxed: bool = False) -> gv.UncertainGraph:
    rng = np.random.default_rng(seed)
    if relaxed:
        u = rng.integers(0, n, pairs)
        v = rng.integers(0, n, pairs)
    else:
        all_pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        pick = rng.choice(len(all_pairs), size=min(pairs, len(all_pairs)), replace=False)
        u = np.array([all_pairs[i][0] for i in pick])
        v = np.array([all_pairs[i][1] for i in pick])
    p = rng.random(u.size)
    # Sure and impossible pairs take the shortcut paths of the kernel.
    p[rng.random(u.size) < 0.2] = 1.0
    p[rng.random(u.size) < 0.1] = 0.0
    return gv.UncertainGraph(n, u, v, p, relaxed=relaxed)


# The uncertain graph of Figure 1(b), recovered from Table 2: v1..v4 -> 0..3.
PAPER_UG = gv.UncertainGraph(4, [0, 0, 0, 1, 2], [1, 2, 3, 2, 3], [0.3, 0.8, 0.9, 0.7, 0.4])
# Figure 1(a): the true graph, degrees 2 1 2 1 (the pairs with p > 0.5).
PAPER_G0 = gv.Graph.from_edges([0, 0, 1], [2, 3, 2], 4)


# ------------------------------------------------------------------- Section III, Table 2
def test_paper_table2_degree_laws():
    X = P.degree_distributions(PAPER_UG).toarray()
    table_x = np.array(
        [
            [0.014, 0.188, 0.582, 0.216],
            [0.210, 0.580, 0.210, 0.0],
            [0.036, 0.252, 0.488, 0.224],
            [0.060, 0.580, 0.360, 0.0],
        ]
    )
    np.testing.assert_allclose(X, table_x, atol=5e-4)
    table_y = np.array(
        [
            [0.044, 0.117, 0.355, 0.491],
            [0.656, 0.362, 0.128, 0.0],
            [0.112, 0.158, 0.298, 0.509],
            [0.187, 0.362, 0.220, 0.0],
        ]
    )
    np.testing.assert_allclose(X / X.sum(axis=0), table_y, atol=1.5e-3)


def test_paper_table2_entropies():
    H = P.degree_entropy(PAPER_UG)
    # The paper prints 1.40 1.84 1.91 0.99: its values truncated to two decimals.
    np.testing.assert_array_equal(np.floor(H * 100) / 100, [1.40, 1.84, 1.91, 0.99])
    np.testing.assert_allclose(
        H, entropy_by_definition(P.degree_distributions(PAPER_UG).toarray()), rtol=1e-12
    )


def test_paper_table2_eps():
    # "Given k = 3 ... v1, v3 with true degree 2 and v2, v4 with true degree 1 satisfy (2). Therefore eps = 0."
    assert P.eps(PAPER_G0, PAPER_UG, 3) == 0.0
    # log2 4 = 2 exceeds both H_1 and H_2.
    assert P.eps(PAPER_G0, PAPER_UG, [2, 3, 4]) == {2: 0.0, 3: 0.0, 4: 1.0}


# ----------------------------------------------------------------- Section VI, Table 5
def _graph_with_degrees(degrees: dict[int, int]) -> gv.Graph:
    """A simple graph on nodes 1..8 (-> 0..7) with the given degrees (Havel-Hakimi)."""
    seq = [degrees[i] for i in range(1, 9)]
    h = nx.havel_hakimi_graph(seq)  # node i has degree seq[i]
    u, v = zip(*h.edges())
    return gv.Graph.from_edges(np.array(u), np.array(v), 8)


def test_paper_example_5_1():
    # Table 5 with H1 signatures: s1 = degree 1, s2 = degree 2, s3 = degree 3, s4 = degree 5.
    g0 = _graph_with_degrees({1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3})
    g_star = _graph_with_degrees({1: 1, 2: 1, 6: 1, 4: 2, 7: 2, 3: 3, 8: 3, 5: 5})
    assert P.h1(g0, g_star) == pytest.approx(1 / 3 + 1 / 3 + 1 / 2 + 1 / 2)  # 1.66
    assert P.h1(g0, g0) == 3.0  # the number of equivalence classes
    assert P.num_signatures(g0, "h1") == 3


# ------------------------------------------------------------------ brute force worlds
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("relaxed", [False, True], ids=["strict", "relaxed"])
def test_brute_force_worlds(seed, relaxed):
    ug = random_uncertain(n=6, pairs=11, seed=seed, relaxed=relaxed)
    X_ref = brute_force_laws(ug)
    X = P.degree_distributions(ug).toarray()
    width = X.shape[1]
    np.testing.assert_allclose(X, X_ref[:, :width], atol=1e-12)
    assert np.all(X_ref[:, width:] == 0.0)
    np.testing.assert_allclose(X.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(
        (X * np.arange(width)).sum(axis=1), ug.expected_degrees(), atol=1e-12
    )

    H_ref = entropy_by_definition(X_ref)
    last = np.flatnonzero(X_ref.sum(axis=0) > 0).max()
    H = P.degree_entropy(ug)
    assert H.size == last + 1
    np.testing.assert_allclose(H, H_ref[: last + 1], atol=1e-12)

    # eps against every possible true degree sequence drawn from the worlds' support.
    rng = np.random.default_rng(seed)
    g0 = gv.Graph.from_edges(rng.integers(0, 6, 7), rng.integers(0, 6, 7), 6)
    ks = [1, 2, 3, 4, 6]
    got = P.eps(g0, ug, ks)
    for k in ks:
        d0 = g0.degrees
        fail = sum(1 for d in d0 if (H_ref[d] if d < H_ref.size else 0.0) < math.log2(k) - 1e-9)
        assert got[k] == fail / 6


def test_single_node_with_every_p_strictly_inside():
    # A star whose centre has 40 uncertain pairs: the law must match the exact
    # Poisson-binomial from the generating function (numpy polynomial product).
    p = np.linspace(0.01, 0.99, 40)
    ug = gv.UncertainGraph(41, np.zeros(40, dtype=np.int64), np.arange(1, 41), p)
    coef = np.array([1.0])
    for q in p:
        coef = np.convolve(coef, [1 - q, q])
    X = P.degree_distributions(ug).toarray()
    np.testing.assert_allclose(X[0, :41], coef, atol=1e-15)


def test_high_degree_node_is_exact():
    # 6,000 pairs at one node (the authors' code used a uniform law above degree 5,000).
    rng = np.random.default_rng(5)
    d = 6000
    p = rng.uniform(0.2, 0.8, d)
    ug = gv.UncertainGraph(d + 1, np.zeros(d, dtype=np.int64), np.arange(1, d + 1), p)
    x = P.degree_distributions(ug).toarray()[0]
    assert x.sum() == pytest.approx(1.0, rel=1e-12)
    mean = (x * np.arange(x.size)).sum()
    var = (x * (np.arange(x.size) - mean) ** 2).sum()
    assert mean == pytest.approx(p.sum(), rel=1e-12)
    assert var == pytest.approx((p * (1 - p)).sum(), rel=1e-9)


# ------------------------------------------------------------------- deterministic graphs
def test_deterministic_graph_entropy_and_eps(zoo_graph):
    g = zoo_graph
    counts = np.bincount(g.degrees, minlength=1)
    expected = np.log2(np.maximum(counts, 1))
    np.testing.assert_allclose(P.degree_entropy(g), expected)
    ug = gv.UncertainGraph.from_graph(g)
    if g.n:
        H_ug = P.degree_entropy(ug)
        np.testing.assert_allclose(H_ug, expected[: H_ug.size], atol=1e-12)
    for k in (1, 2, 3, 5):
        assert P.eps(g, g, k) == P.eps(g, ug, k)


def test_every_failing_node_counts():
    star = ZOO["star6"]  # centre degree 6 (unique: entropy 0), six leaves of degree 1
    # The authors' code skipped the zero-entropy column and would report 0 here.
    assert P.eps(star, star, 2) == pytest.approx(1 / 7)
    assert P.eps(star, star, 7) == 1.0  # log2 6 < log2 7
    assert P.eps(star, star, 6) == pytest.approx(1 / 7)  # six leaves: exactly log2 6 passes
    # Original degrees above the output's maximum degree fail too (the authors skipped them).
    path = gv.Graph.from_edges([0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], 7)
    assert P.eps(star, path, 2) == pytest.approx(1 / 7)
    assert P.eps(star, gv.UncertainGraph.from_graph(path), 2) == pytest.approx(1 / 7)


def test_eps_thread_independent_and_multi_k():
    ug = random_uncertain(n=400, pairs=3000, seed=3)
    g0 = gv.Graph.from_edges(ug.u[ug.p > 0.5], ug.v[ug.p > 0.5], ug.n)
    H1 = P.degree_entropy(ug, threads=1)
    H2 = P.degree_entropy(ug, threads=2)
    assert np.array_equal(H1, H2)
    many = P.eps(g0, ug, (2, 8, 30))
    assert many == {k: P.eps(g0, ug, k) for k in (2, 8, 30)}
    assert many[2] <= many[8] <= many[30]


def test_eps_validation():
    with pytest.raises(ValueError, match="nodes"):
        P.eps(ZOO["path5"], ZOO["star6"], 2)
    with pytest.raises(ValueError, match=">= 1"):
        P.eps(ZOO["path5"], ZOO["path5"], 0)
    with pytest.raises(ValueError, match="non-empty"):
        P.eps(ZOO["path5"], ZOO["path5"], [])
    with pytest.raises(TypeError):
        P.eps(ZOO["path5"], "graph", 2)


# ----------------------------------------------------------------------- H1 and H2_open
def test_zoo_scores_equal_number_of_signatures(zoo_graph):
    g = zoo_graph
    for kind in ("h1", "h2_open"):
        classes = len(set(ref_signatures(g, kind)))
        assert P.reidentification_score(g, g, kind) == classes
        assert P.num_signatures(g, kind) == classes
        assert np.unique(P.signature_classes(g, kind)).size == classes


def test_h2_open_uses_sets_not_multisets():
    # Node 0 sees neighbour degrees {1, 1, 2} and node 4 sees {1, 2}: same set, same class.
    g = gv.Graph.from_edges([0, 0, 0, 3, 4, 4, 6], [1, 2, 3, 8, 5, 6, 9], 10)
    sig = ref_signatures(g, "h2_open")
    assert sig[0] == sig[4] == frozenset({1, 2})
    cls = P.signature_classes(g, "h2_open")
    assert cls[0] == cls[4]


@pytest.mark.parametrize("name", ["karate_club", "ca-GrQc"])
def test_scores_against_reference_on_real_graphs(name):
    g0 = load_shared(name)
    for kind in ("h1", "h2_open"):
        assert P.reidentification_score(g0, g0, kind) == len(set(ref_signatures(g0, kind)))
        for seed, frac in ((1, 0.02), (2, 0.2)):
            g = perturb(g0, frac, seed)
            assert P.reidentification_score(g0, g, kind) == pytest.approx(
                ref_score(g0, g, kind), rel=1e-12
            )
    assert P.h1(g0, g) == pytest.approx(ref_score(g0, g, "h1"), rel=1e-12)
    assert P.h2_open(g0, g) == pytest.approx(ref_score(g0, g, "h2_open"), rel=1e-12)


def test_forced_hash_collisions_never_merge_classes():
    g0 = load_shared("ca-GrQc")
    g = perturb(g0, 0.1, 7)
    fn = _core.reidentification_score
    strong = fn(g0.indptr, g0.indices, g.indptr, g.indices, "h2_open", 0, False)
    weak = fn(g0.indptr, g0.indices, g.indptr, g.indices, "h2_open", 0, True)
    # The weak hash keeps 2 bits: hundreds of classes share 4 hash values, yet grouping by
    # exact comparison gives the same classes and the same score.
    assert strong[2] > 100
    assert weak == strong
    assert weak[0] == pytest.approx(ref_score(g0, g, "h2_open"), rel=1e-12)
    c_strong = _core.signature_classes(g0.indptr, g0.indices, "h2_open", 0, False)
    c_weak = _core.signature_classes(g0.indptr, g0.indices, "h2_open", 0, True)
    assert np.array_equal(c_strong, c_weak)  # both number classes by first occurrence
    ref = ref_signatures(g0, "h2_open")
    first = {}
    expected = np.array([first.setdefault(s, len(first)) for s in ref])
    assert np.array_equal(c_weak, expected)


def test_scores_thread_independent():
    g0 = load_shared("ca-GrQc")
    g = perturb(g0, 0.1, 3)
    for kind in ("h1", "h2_open"):
        assert P.reidentification_score(g0, g, kind, threads=1) == P.reidentification_score(
            g0, g, kind, threads=2
        )


def test_score_counts_a_class_per_published_signature():
    # Every node keeps its H1 signature but g gains one more node of each class.
    g0 = ZOO["path5"]  # degrees 1 2 2 2 1
    assert P.h1(g0, g0) == 2.0
    cycle = gv.Graph.from_edges([0, 1, 2, 3, 4], [1, 2, 3, 4, 0], 5)  # all degree 2
    # nodes 1, 2, 3 keep degree 2 in a class of 5; the ends change class.
    assert P.h1(g0, cycle) == pytest.approx(3 / 5)
    assert Counter(P.signature_classes(cycle, "h1").tolist()) == Counter({0: 5})


def test_score_validation():
    with pytest.raises(ValueError, match="same node set"):
        P.h1(ZOO["path5"], ZOO["star6"])
    with pytest.raises(ValueError, match="kind"):
        P.reidentification_score(ZOO["path5"], ZOO["path5"], "h3")
    with pytest.raises(TypeError):
        P.h2_open(ZOO["path5"], nx.path_graph(5))


# ---------------------------------------------------------------- property (hypothesis)


@st.composite
def graph_pairs(draw):
    n = draw(st.integers(1, 14))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    e0 = draw(st.lists(pair, max_size=30))
    e1 = draw(st.lists(pair, max_size=30))
    perm = draw(st.permutations(range(n)))

    def build(edges, relabel=None):
        u = np.array([a for a, _ in edges], dtype=np.int64)
        v = np.array([b for _, b in edges], dtype=np.int64)
        if relabel is not None:
            u, v = relabel[u], relabel[v]
        return gv.Graph.from_edges(u, v, n)

    perm = np.array(perm, dtype=np.int64)
    return build(e0), build(e1), build(e0, perm), build(e1, perm)


@settings(max_examples=150, deadline=None)
@given(graph_pairs())
def test_scores_are_relabelling_invariant_and_match_reference(graphs):
    # Proposition 5.1: structural scores do not depend on node names (same relabelling of both).
    g0, g, g0p, gp = graphs
    for kind in ("h1", "h2_open"):
        score = P.reidentification_score(g0, g, kind)
        assert score == pytest.approx(ref_score(g0, g, kind), rel=1e-12)
        assert score == pytest.approx(P.reidentification_score(g0p, gp, kind), rel=1e-12)
        assert 0.0 <= score <= P.num_signatures(g, kind)


# ---------------------------------------------------------------- G0's signature index


@pytest.mark.parametrize("name", ["karate_club", "ca-GrQc"])
def test_a_signature_index_gives_the_same_scores(name):
    # The score against G0's precomputed classes is the score against G0 itself, bit for bit,
    # and both are Section VI-A's literal definition.
    g0 = load_shared(name)
    for kind in ("h1", "h2_open"):
        index = P.signature_index(g0, kind)
        assert index.count == len(set(ref_signatures(g0, kind)))
        assert np.array_equal(index.classes, P.signature_classes(g0, kind))
        assert P.reidentification_score(index, g0, kind) == index.count
        weak = P._signature_index(g0, kind, None, True)  # 2-bit hash: collisions everywhere
        for seed, frac in ((1, 0.02), (2, 0.2), (3, 0.6)):
            g = perturb(g0, frac, seed)
            plain = P.reidentification_score(g0, g, kind)
            assert P.reidentification_score(index, g, kind) == plain
            assert P.reidentification_score(weak, g, kind) == plain
            assert plain == pytest.approx(ref_score(g0, g, kind), rel=1e-12)
    g = perturb(g0, 0.1, 4)
    assert P.h1(P.signature_index(g0, "h1"), g) == P.h1(g0, g)
    assert P.h2_open(P.signature_index(g0, "h2_open"), g) == P.h2_open(g0, g)


def test_a_signature_index_counts_the_published_graph_s_own_classes():
    # Signatures of g that G0 lacks form classes of their own: classes_g counts them.
    g0 = load_shared("karate_club")
    g = perturb(g0, 0.5, 9)
    for kind in ("h1", "h2_open"):
        index = P.signature_index(g0, kind)
        idx = (index.classes, index.keys, index.rep_ptr, index.rep_values)
        out = _core.reidentification_score_indexed(*idx, g.indptr, g.indices, kind, 0, False)
        plain = _core.reidentification_score(
            g0.indptr, g0.indices, g.indptr, g.indices, kind, 0, False
        )
        assert out == plain
        assert out[3] == len(set(ref_signatures(g, kind)))


def test_signature_index_validation():
    g0, g = ZOO["path5"], ZOO["star6"]
    index = P.signature_index(g0, "h2_open")
    with pytest.raises(ValueError, match="same node set"):
        P.h2_open(index, g)
    with pytest.raises(ValueError, match="signature_index\\(g0, 'h1'\\)"):
        P.h1(index, g0)
    with pytest.raises(TypeError):
        P.signature_index(nx.path_graph(5))
    idx = [index.classes, index.keys, index.rep_ptr, index.rep_values]
    broken = [
        (0, index.classes + index.count),  # a class id out of range
        (2, index.rep_ptr[::-1].copy()),  # offsets not from 0 to len(rep_values)
    ]
    for pos, bad in broken:
        args = list(idx)
        args[pos] = bad
        with pytest.raises(ValueError, match="invalid signature index"):
            _core.reidentification_score_indexed(*args, g0.indptr, g0.indices, "h2_open")
    with pytest.raises(ValueError, match="one offset more"):
        _core.reidentification_score_indexed(
            idx[0], idx[1][:-1], idx[2], idx[3], g0.indptr, g0.indices, "h2_open"
        )
    h1_index = P.signature_index(g0, "h1")
    with pytest.raises(ValueError, match="wrong number of values"):  # an H2_open index as H1
        _core.reidentification_score_indexed(*idx, g0.indptr, g0.indices, "h1")
    assert P.h1(h1_index, g0) == 2.0


@settings(max_examples=100, deadline=None)
@given(graph_pairs())
def test_signature_index_scores_match_reference(graphs):
    g0, g, _, _ = graphs
    for kind in ("h1", "h2_open"):
        score = P.reidentification_score(P.signature_index(g0, kind), g, kind)
        assert score == P.reidentification_score(g0, g, kind)
        assert score == pytest.approx(ref_score(g0, g, kind), rel=1e-12)
