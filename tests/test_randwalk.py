"""RandWalk and RandWalk-mod against exact walk enumeration, scipy.sparse and Theorem 3.1."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from graph_zoo import ZOO, authors_random_walk_transform, karate_graph, load_shared
from scipy import stats

import graphveil as gv
from graphveil.anonymize._randwalk import (
    randwalk,
    randwalk_mod,
    randwalk_mod_tv_bound,
    randwalk_mod_uncertain,
    transition_matrix,
    walk_ends,
)


def _pair_totals(n: int, u, v, p) -> dict[tuple[int, int], float]:
    out: dict[tuple[int, int], float] = {}
    for a, b, x in zip(np.asarray(u).tolist(), np.asarray(v).tolist(), np.asarray(p).tolist()):
        key = (min(a, b), max(a, b))
        out[key] = out.get(key, 0.0) + x
    return out


def _enumerated_matrix(g: gv.Graph, t: int, alpha: float) -> dict[tuple[int, int], float]:
    """Expected number of each pair in a printed RandWalk-mod sample, by enumerating every walk."""
    deg = g.degrees
    out: dict[tuple[int, int], float] = {}
    for u in range(g.n):
        nbrs = g.neighbors(u).tolist()
        d = len(nbrs)
        for k, v in enumerate(nbrs):
            q = 0.5 if d == 1 else (alpha if k == 0 else (0.5 * d - alpha) / (d - 1))
            frontier = {v: 1.0}
            for _ in range(t - 1):
                nxt: dict[int, float] = {}
                for x, w in frontier.items():
                    for y in g.neighbors(x).tolist():
                        nxt[y] = nxt.get(y, 0.0) + w / deg[x]
                frontier = nxt
            for z, w in frontier.items():
                key = (min(u, z), max(u, z))
                out[key] = out.get(key, 0.0) + q * w
    return out


# ------------------------------------------------------------------ the uncertain form, Theorem 3.1
@pytest.mark.parametrize("name", ["path5", "star6", "paper_example", "two_components", "clique5"])
@pytest.mark.parametrize("alpha", [0.5, 0.2, 1.0])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
def test_uncertain_form_matches_walk_enumeration(name, alpha, t):
    g = ZOO[name]
    ug, _ = randwalk_mod_uncertain(g, t, alpha=alpha)
    assert ug.relaxed
    got = _pair_totals(g.n, ug.u, ug.v, ug.p)
    want = _enumerated_matrix(g, t, alpha)
    assert {k for k, x in want.items() if x > 1e-12} == {k for k, x in got.items() if x > 1e-12}
    for key, x in want.items():
        assert got.get(key, 0.0) == pytest.approx(x, abs=1e-12)


@pytest.mark.parametrize("t", [1, 2, 3, 4])
def test_theorem_3_1_expected_degrees_kept_iff_alpha_half(t):
    g = karate_graph()
    ug, _ = randwalk_mod_uncertain(g, t, alpha=0.5)
    np.testing.assert_allclose(ug.expected_degrees(), g.degrees, rtol=0, atol=1e-12)
    for alpha in (0.0, 0.3, 0.7, 1.0):
        ug, _ = randwalk_mod_uncertain(g, t, alpha=alpha)
        assert np.abs(ug.expected_degrees() - g.degrees).max() > 1e-3


def test_theorem_3_1_on_a_real_graph():
    g = load_shared("ca-GrQc")
    ug, report = randwalk_mod_uncertain(g, 2, alpha=0.5)
    np.testing.assert_allclose(ug.expected_degrees(), g.degrees, rtol=0, atol=1e-9)
    assert report["tv"] <= report["tv_bound"]
    ug, _ = randwalk_mod_uncertain(g, 2, alpha=0.1)
    assert np.abs(ug.expected_degrees() - g.degrees).max() > 0.1


@pytest.mark.parametrize("t", [2, 3])
def test_tv_bound(t):
    g = karate_graph()
    ug, report = randwalk_mod_uncertain(g, t)
    b = g.to_scipy() @ np.linalg.matrix_power(transition_matrix(g).toarray(), t - 1)
    k_t = int(np.count_nonzero(np.triu(b) > 1e-15))
    assert report["K_t"] == k_t
    assert randwalk_mod_tv_bound(g, t) == pytest.approx(g.m * (k_t - g.m) / k_t)
    assert ug.total_variance() == pytest.approx(report["tv"])
    assert report["tv"] <= report["tv_bound"]


# ------------------------------------------------------------------ the sampled schemes
def test_walk_end_distribution_matches_transition_power():
    g = karate_graph()
    steps, count = 3, 20_000
    ends = walk_ends(g, np.full(count, 5), steps, seed=11)
    row = np.linalg.matrix_power(transition_matrix(g).toarray(), steps)[5]
    observed = np.bincount(ends, minlength=g.n)
    keep = row * count >= 5
    assert observed[~keep].sum() <= 30
    res = stats.chisquare(observed[keep], row[keep] / row[keep].sum() * observed[keep].sum())
    assert res.pvalue > 1e-3


@pytest.mark.parametrize(
    ("routing", "alpha", "t"), [("random", 0.3, 3), ("random", 0.5, 4), ("fixed", 0.5, 3)]
)
def test_randwalk_mod_samples_average_to_the_uncertain_form(routing, alpha, t):
    """Counts of every pair over many samples vs the exact matrix (chi-square, fixed seeds)."""
    g = karate_graph()
    ug, _ = randwalk_mod_uncertain(g, t, alpha=alpha)
    want = _pair_totals(g.n, ug.u, ug.v, ug.p)
    samples = 1500
    counts: dict[tuple[int, int], float] = {}
    rng = np.random.default_rng(5)
    for _ in range(samples):
        s, _ = randwalk_mod(g, t=t, alpha=alpha, variant="printed", routing=routing, seed=rng)
        for key, x in _pair_totals(g.n, s.u, s.v, s.p).items():
            counts[key] = counts.get(key, 0.0) + x
    assert set(counts) <= set(want)
    # expected number of occurrences of each pair (the uncertain form's p for it)
    exp = {k: x * samples for k, x in want.items()}
    keys = [k for k in exp if exp[k] >= 5]
    obs = np.array([counts.get(k, 0.0) for k in keys])
    e = np.array([exp[k] for k in keys])
    res = stats.chisquare(obs, e * obs.sum() / e.sum())
    assert res.pvalue > 1e-3
    assert abs(obs.sum() - e.sum()) < 5 * np.sqrt(e.sum())


@pytest.mark.parametrize("alpha", [0.5, 0.2])
def test_printed_randwalk_mod_edge_count_is_m_in_expectation(alpha):
    g = load_shared("ca-GrQc")
    ug, report = randwalk_mod(g, t=3, alpha=alpha, variant="printed", seed=3)
    q = _q_values(g, alpha)
    assert q.sum() == pytest.approx(g.m)
    assert abs(ug.num_pairs - g.m) < 5 * np.sqrt(np.sum(q * (1 - q)))
    assert np.all(ug.p == 1.0) and ug.relaxed
    assert report["self_loops"] == int(np.count_nonzero(ug.u == ug.v))


def _q_values(g: gv.Graph, alpha: float) -> np.ndarray:
    out = []
    for d in g.degrees.tolist():
        if d == 1:
            out.append(0.5)
        elif d > 1:
            out += [alpha] + [(0.5 * d - alpha) / (d - 1)] * (d - 1)
    return np.array(out)


# ------------------------------------------------------------------ the authors' retrying walk
def _pair_counts(runs) -> dict[tuple[int, int], int]:
    counts: dict[tuple[int, int], int] = {}
    for edges in runs:
        for key in edges:
            counts[key] = counts.get(key, 0) + 1
    return counts


@pytest.mark.parametrize(
    ("alpha", "t", "max_tries", "variant"),
    [(0.5, 2, 10, "retry"), (1.0, 3, 10, "authors"), (0.5, 3, 2, "retry"), (1.0, 2, 10, "printed")],
)
def test_retry_walk_matches_theauthors_random_walk_transform(alpha, t, max_tries, variant):
    """Edge frequencies, S_NE, degrees and failures against the plain-Python loop (fixed seeds)."""
    g = karate_graph()
    runs = 600
    rng = np.random.default_rng(17)
    degree_one = 1.0 if variant == "printed" else 0.5
    ref = [
        authors_random_walk_transform(g, t, max_tries, alpha, rng, degree_one) for _ in range(runs)
    ]
    ours = []
    for i in range(runs):
        if alpha == 1.0:
            ug, rep = randwalk(g, t=t, variant=variant, max_tries=max_tries, seed=i)
        else:
            ug, rep = randwalk_mod(
                g, t=t, alpha=alpha, variant="retry", max_tries=max_tries, seed=i
            )
        assert (
            np.all(ug.u < ug.v) and not ug.relaxed
        )  # no loops; the strict model has no duplicates
        assert rep["edges"] == ug.num_pairs
        ours.append((set(zip(ug.u.tolist(), ug.v.tolist())), rep["failed"], rep["lost"]))
    # every pair's frequency: a 2 x K homogeneity test
    a, b = _pair_counts(e for e, _, _ in ours), _pair_counts(e for e, _, _ in ref)
    keys = [k for k in set(a) | set(b) if a.get(k, 0) + b.get(k, 0) >= 20]
    table = np.array([[a.get(k, 0) for k in keys], [b.get(k, 0) for k in keys]])
    assert stats.chi2_contingency(table).pvalue > 1e-3
    rare = sum(a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)) - table.sum()
    assert rare < 0.02 * table.sum()
    # S_NE distribution
    sne_ours = np.array([len(e) for e, _, _ in ours])
    sne_ref = np.array([len(e) for e, _, _ in ref])
    assert stats.ks_2samp(sne_ours, sne_ref).pvalue > 1e-3

    # degree preservation, node by node, as the reference does it
    def mean_degrees(rs):
        deg = np.zeros(g.n)
        for e, _, _ in rs:
            for x, y in e:
                deg[x] += 1
                deg[y] += 1
        return deg / runs

    d_ours, d_ref = mean_degrees(ours), mean_degrees(ref)
    assert np.abs(d_ours - d_ref).max() < 6 * np.sqrt(g.degrees.max() / runs)
    # failures and the edges they cost: E[edges] + E[lost] = sum of Q: m, plus half the
    # degree-1 nodes when those keep their walk with probability 1 (the printed Algorithm 1)
    f_ours = np.array([f for _, f, _ in ours], dtype=float)
    f_ref = np.array([f for _, f, _ in ref], dtype=float)
    assert (
        abs(f_ours.mean() - f_ref.mean()) < 6 * np.sqrt((f_ours.var() + f_ref.var()) / runs) + 1e-9
    )
    total = sne_ours + np.array([x for _, _, x in ours])
    sum_q = g.m + (degree_one - 0.5) * np.count_nonzero(g.degrees == 1)
    assert abs(total.mean() - sum_q) < 5 * total.std() / np.sqrt(runs)


@pytest.mark.parametrize("t", [2, 3, 10])
def test_retry_walk_keeps_the_degree_sum_up_to_reported_failures(t):
    """Expected degrees kept on average: sum of degrees = 2m - 2 lost, within sampling error."""
    g = load_shared("ca-GrQc")
    edges, lost = [], []
    for seed in range(12):
        ug, rep = randwalk_mod(g, t=t, variant="retry", seed=seed)
        assert np.all(ug.u < ug.v)
        assert rep["failed"] > 0 and rep["lost"] <= rep["failed"]
        deg = np.bincount(np.concatenate([ug.u, ug.v]), minlength=g.n)
        assert deg.sum() == 2 * rep["edges"]
        edges.append(rep["edges"])
        lost.append(rep["lost"])
    total = np.array(edges) + np.array(lost)
    # the variance of a sum of 2m Bernoulli(Q) is at most m / 2
    assert abs(total.mean() - g.m) < 5 * np.sqrt(g.m / 2 / len(total))


def test_retry_walk_never_loops_or_repeats_and_fills_one_shared_graph():
    # A star at t = 2: a leaf's walk goes to the centre and on to a uniform leaf z. If z
    # already linked to u (in z's earlier turn) the walk must be repeated; a per-node check
    # would keep a duplicate, which the strict model would refuse.
    g = ZOO["star6"]
    sizes = set()
    for seed in range(50):
        ug, rep = randwalk(g, t=2, max_tries=200, seed=seed)
        assert np.all(ug.u < ug.v) and ug.num_pairs == rep["edges"]
        assert np.all(ug.u > 0)  # only leaf-leaf pairs
        # the centre's 6 walks all return to the centre and fail; they cost d / 2 = 3 edges
        assert rep["failed"] == 6 and rep["lost"] == pytest.approx(3.0)
        sizes.add(ug.num_pairs)
    assert len(sizes) > 1


def test_retry_walk_reports_failures_of_a_two_node_component():
    # t = 2 on one edge: the walk from v always returns to u: every walk fails, nothing kept
    g = ZOO["single_edge"]
    ug, rep = randwalk_mod(g, t=2, variant="retry", seed=0)
    assert ug.num_pairs == 0 and rep["failed"] == 2 and rep["lost"] == pytest.approx(1.0)


def test_mixture_with_the_retry_component_keeps_constraint_3():
    """Sum of Mixture's expected degrees = 2m (1 - p) + 2p edges(G) = 2m - 2p lost in expectation."""
    g = load_shared("ca-GrQc")
    p = 0.4
    sums, lost = [], []
    for seed in range(12):
        rw, rep = randwalk_mod(g, t=2, variant="retry", seed=seed)
        mix, _ = gv.anonymize.mixture(g, anonymized=rw, p=p)
        sums.append(mix.expected_degrees().sum())
        assert sums[-1] == pytest.approx(2 * ((1 - p) * g.m + p * rep["edges"]))
        lost.append(rep["lost"])
    corrected = np.array(sums) + 2 * p * np.array(lost)
    assert abs(corrected.mean() - 2 * g.m) < 5 * 2 * p * np.sqrt(g.m / 2 / len(sums))


@pytest.mark.parametrize("scheme", ["randwalk", "randwalk_mod_random", "randwalk_mod_fixed"])
def test_threads_do_not_change_the_output(scheme):
    g = load_shared("ca-GrQc")

    def run(threads):
        if scheme == "randwalk":
            return randwalk(g, t=4, seed=9, threads=threads).graph
        routing = scheme.rsplit("_", 1)[1]
        variant = "printed" if routing == "fixed" else "retry"
        return randwalk_mod(g, t=4, routing=routing, variant=variant, seed=9, threads=threads).graph

    a, b = run(1), run(2)
    np.testing.assert_array_equal(a.u, b.u)
    np.testing.assert_array_equal(a.v, b.v)
    c = run(2)
    np.testing.assert_array_equal(a.u, c.u)


def test_seed_reproducible_and_varies():
    g = karate_graph()
    a = randwalk_mod(g, t=3, seed=1).graph
    b = randwalk_mod(g, t=3, seed=1).graph
    c = randwalk_mod(g, t=3, seed=2).graph
    assert np.array_equal(a.u, b.u) and np.array_equal(a.v, b.v)
    assert not (
        a.num_pairs == c.num_pairs and np.array_equal(a.u, c.u) and np.array_equal(a.v, c.v)
    )


def test_fixed_routing_walk_one_hop_is_a_permutation():
    # t = 2, fixed routing: the walks entering a node v from its d_v neighbours leave by
    # distinct edges, so on a star every leaf's walk ends at a distinct leaf (alpha irrelevant: d = 1)
    g = ZOO["star6"]
    seen = set()
    for seed in range(40):
        ug, _ = randwalk_mod(g, t=2, routing="fixed", variant="printed", seed=seed)
        assert ug.num_pairs <= 7 + 6
        seen.add(ug.num_pairs)
    assert len(seen) > 1


def test_zoo_runs(zoo_graph):
    for t in (1, 2, 3):
        for ug in (
            randwalk(zoo_graph, t=t, seed=0).graph,
            randwalk_mod(zoo_graph, t=t, seed=0).graph,
            randwalk_mod(zoo_graph, t=t, variant="retry", seed=0).graph,
            randwalk_mod(zoo_graph, t=t, routing="fixed", seed=0).graph,
            randwalk_mod(zoo_graph, t=t, variant="printed", seed=0).graph,
            randwalk_mod_uncertain(zoo_graph, t).graph,
        ):
            assert ug.n == zoo_graph.n
    ug, _ = randwalk_mod_uncertain(zoo_graph, 2)
    np.testing.assert_allclose(ug.expected_degrees(), zoo_graph.degrees, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda g: randwalk(g, t=0), "t must be >= 1"),
        (lambda g: randwalk_mod(g, t=0), "t must be >= 1"),
        (lambda g: randwalk_mod_uncertain(g, 0), "t must be >= 1"),
        (lambda g: randwalk(g, t=2, max_tries=0), "max_tries"),
        (lambda g: randwalk_mod(g, t=2, alpha=-0.1), "alpha"),
        (lambda g: randwalk_mod(g, t=2, alpha=1.5), "alpha"),
        (lambda g: randwalk_mod_uncertain(g, 2, alpha=2), "alpha"),
        (lambda g: randwalk_mod(g, t=2, alpha=float("nan")), "alpha"),
        (lambda g: randwalk_mod(g, t=2, routing="sybil"), "routing"),
        (lambda g: randwalk_mod(g, t=2, variant="authors"), "variant"),
        (lambda g: randwalk_mod(g, t=2, variant="retry", max_tries=0), "max_tries"),
        (lambda g: randwalk_mod(g, t=2, max_tries=5), "max_tries applies"),
        (lambda g: randwalk_mod(g, t=2, variant="printed", max_tries=5), "max_tries applies"),
        (lambda g: walk_ends(g, [99], 2), "start nodes"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call(karate_graph())


def test_type_errors():
    with pytest.raises(TypeError):
        randwalk_mod(nx.karate_club_graph(), t=2)
    with pytest.raises(TypeError):
        randwalk_mod(karate_graph(), t=2.5)


def test_report_is_json_and_in_meta():
    import json

    ug, report = randwalk_mod(karate_graph(), t=3, seed=4)
    json.dumps(report)
    assert ug.meta["scheme"] == "randwalk_mod" and ug.meta["seed"] == 4
    assert report["params"] == {"t": 3, "alpha": 0.5, "variant": "printed", "routing": "random"}
    _, report = randwalk_mod(karate_graph(), t=3, variant="retry", seed=4)
    assert report["params"] == {
        "t": 3,
        "alpha": 0.5,
        "variant": "retry",
        "max_tries": 10,
        "routing": "random",
    }
    assert set(report["timings"]) >= {"walks", "total"}


@pytest.mark.parametrize("alpha", [0.5, 0.3])
@pytest.mark.parametrize("t", [1, 2, 3, 5])
def test_streamed_model_tv_equals_the_materialised_form(t, alpha):
    from graphveil.anonymize import randwalk_mod_tv, randwalk_mod_uncertain

    for name, g in list(ZOO.items())[:8]:
        if g.m == 0:
            continue
        exact = randwalk_mod_uncertain(g, t, alpha=alpha).graph.total_variance()
        for block in (1, 7 * g.n, 10**9):  # one row, a few rows, the whole matrix per block
            streamed = randwalk_mod_tv(g, t, alpha=alpha, block_entries=block)
            assert streamed == pytest.approx(exact, rel=1e-9, abs=1e-9), (name, block)
            one = randwalk_mod_tv(g, t, alpha=alpha, block_entries=block, threads=1)
            assert one == streamed, (name, block)  # blocks are summed in order


def test_printed_randwalk_keeps_every_degree_one_walk():
    """A comb (path with a leaf on every node): the printed Algorithm 1 adds each leaf's walk
    with probability 1, the authors' code with 0.5; E[edges] + E[lost] is m + leaves / 2 against
    m, and the plain-Python loop with the same rule agrees."""
    spine = 30
    u = list(range(spine - 1)) + list(range(spine))
    v = list(range(1, spine)) + list(range(spine, 2 * spine))
    g = gv.Graph.from_edges(u, v, 2 * spine)
    leaves = int(np.count_nonzero(g.degrees == 1))
    runs = 300
    for variant, extra in (("authors", 0.0), ("printed", 0.5 * leaves)):
        totals = []
        for i in range(runs):
            ug, rep = randwalk(g, t=3, variant=variant, seed=i)
            totals.append(ug.num_pairs + rep["lost"])
        totals = np.array(totals)
        assert abs(totals.mean() - (g.m + extra)) < 5 * totals.std() / np.sqrt(runs) + 1e-9
        rng = np.random.default_rng(3)
        ref = [
            authors_random_walk_transform(g, 3, 10, 1.0, rng, 1.0 if variant == "printed" else 0.5)
            for _ in range(runs)
        ]
        ref_totals = np.array([len(e) + lost for e, _, lost in ref])
        assert stats.ks_2samp(totals, ref_totals).pvalue > 1e-3
    with pytest.raises(ValueError, match="variant must be 'authors' or 'printed'"):
        randwalk(g, t=3, variant="retry")


def test_tv_estimate_is_unbiased_and_its_error_honest():
    """The stratified estimate of RandWalk-mod's TV against the exact streamed TV on ca-GrQc:
    the mean of 40 estimates within 4 standard errors of the mean, z-scores of unit size."""
    from graphveil.anonymize import randwalk_mod_tv, randwalk_mod_tv_estimate

    g = load_shared("ca-GrQc")
    exact = randwalk_mod_tv(g, 3)
    runs = [randwalk_mod_tv_estimate(g, 3, columns=300, seed=s) for s in range(40)]
    est = np.array([e for e, _ in runs])
    se = np.array([s for _, s in runs])
    assert abs(est.mean() - exact) < 4 * se.mean() / np.sqrt(len(runs))
    z = (est - exact) / se
    assert 0.5 < np.sqrt(np.mean(z**2)) < 1.6
    assert randwalk_mod_tv_estimate(g, 3, columns=g.n) == (exact, 0.0)
    with pytest.raises(ValueError, match="columns"):
        randwalk_mod_tv_estimate(g, 3, columns=1)


@pytest.mark.parametrize("width", [1, 8, 16, 21])
def test_csr_dense_product_is_scipys_product_to_the_bit(width):
    """The model TV's dense walk step against scipy's sparse-times-dense product: the same sums in
    the same order (CSR order from zero), so equal to the bit, for P (weighted), A (all ones,
    data None) and both index widths; a column index outside x is an error, not a stray read."""
    from graphveil import _core
    from graphveil.anonymize._randwalk import transition_matrix

    g = load_shared("ca-GrQc")
    x = np.random.default_rng(width).random((g.n, width))
    p = transition_matrix(g)
    for indices in (g.indices.astype(np.int32), g.indices.astype(np.int64)):
        ours = _core.csr_dense_product(g.indptr, indices, p.data, x)
        np.testing.assert_array_equal(ours, p @ x)
        ones = _core.csr_dense_product(g.indptr, indices, None, x)
        np.testing.assert_array_equal(ones, g.to_scipy() @ x)
    with pytest.raises(ValueError, match="outside the rows of x"):
        _core.csr_dense_product(g.indptr, g.indices, None, x[: g.n - 1])
    with pytest.raises(ValueError, match="2-d"):
        _core.csr_dense_product(g.indptr, g.indices, None, x[:, 0].copy())
    with pytest.raises(ValueError, match="as long as indices"):
        _core.csr_dense_product(g.indptr, g.indices, p.data[:-1].copy(), x)


def test_model_tv_columns_do_not_depend_on_the_block_or_its_form(monkeypatch):
    """A column's TV share is the same to the bit whether its block is dense from the start,
    sparse to the end or switches on the way, and whatever the block width; and its sum over
    all columns is the exact streamed TV of the materialised form."""
    from graphveil.anonymize import _model_tv, randwalk_mod_uncertain

    g = load_shared("ca-GrQc")
    cols = np.arange(g.n, dtype=np.int64)
    shares = {}
    for cost in (0, 32, 10**12):  # never dense, the default switch, dense from the first step
        monkeypatch.setattr(_model_tv, "_SPARSE_COST", cost)
        for step in (16, 700):
            shares[cost, step] = _model_tv._columns_tv(g, 4, cols, step, threads=2)
    first = shares[0, 16]
    for key, value in shares.items():
        np.testing.assert_array_equal(value, first, err_msg=str(key))
    exact = randwalk_mod_uncertain(g, 4).graph.total_variance()
    assert 0.5 * first.sum() == pytest.approx(exact, rel=1e-9)
