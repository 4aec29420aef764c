"""PrivGraph (Yuan et al. 2023): its noise against the closed forms, privacy on neighbours, seeding.

The standard of tests/test_dp*.py (issue 31): each test fails when the privacy breaks.

- **Replay** through the public function: the release is rebuilt from its seed with the noise the
  docstring states (budget split, sensitivities, the exponential mechanism's scale) drawn by this
  file, and the package's post-processing; the pairs and the report must be the function's.
- **The noisy helpers against their closed forms**: the sparse cells (:func:`noisy_pair_cells`:
  the law of every cell, true or zero, above the threshold), the exponential mechanism's
  selection probabilities, the adjustment of two nodes, and the edge count through the public
  function; each also rejects the wrong scale (a halved sensitivity).
- **Neighbouring graphs**: two nodes with and without their edge, ``RUNS`` releases each; the
  loss of "the edge is published" is bounded below by Clopper-Pearson bounds.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from scipy import stats

import graphveil as gv
from graphveil.anonymize import privgraph, registry
from graphveil.anonymize._louvain import louvain
from graphveil.anonymize._privgraph import (
    adjust_communities,
    bound_output,
    chung_lu,
    exponential_choice,
    noisy_pair_cells,
    reconstruct,
    segment_shift,
    total_shift,
)

#: One-sided level of each Clopper-Pearson bound; a fixed seed makes each run deterministic.
ALPHA = 1e-7
#: Each goodness-of-fit test fails by chance with at most this probability (fixed seeds).
FALSE_FAILURE = 1e-6
#: Releases of each neighbour in the neighbouring-graph test.
RUNS = 2000


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return gv.datasets.load("karate_club")


def geometric_noise(rng: np.random.Generator, size: int, epsilon: float, sensitivity: float):
    """The closed form: two-sided geometric, Pr[z] ~ exp(-epsilon |z| / sensitivity)."""
    q = -math.expm1(-epsilon / sensitivity)
    return (rng.geometric(q, size) - rng.geometric(q, size)).astype(np.int64)


def geometric_pmf(z: np.ndarray, rate: float) -> np.ndarray:
    alpha = math.exp(-rate)
    return (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)


def pair_counts(labels: np.ndarray, k: int, u: np.ndarray, v: np.ndarray):
    a, b = labels[u], labels[v]
    inner = a == b
    keys, counts = np.unique(
        np.minimum(a[~inner], b[~inner]) * k + np.maximum(a[~inner], b[~inner]),
        return_counts=True,
    )
    return inner, keys, counts


# ---------------------------------------------------------------------------- replay
@pytest.mark.parametrize(
    ("epsilon", "size"), [(0.05, 20), (0.5, 20), (2.0, 20), (5.0, 20), (0.05, 5), (1.0, 5)]
)
def test_privgraph_replays_its_closed_form_noise(grqc, epsilon, size):
    """eps/100 on m (sensitivity 1); a third of the rest each on the super-graph cells
    (sensitivity 1), the exponential mechanism (scale eps_2 / 4) and the extraction (degrees
    at sensitivity 2, community pairs at 1); everything else post-processing. Groups of 5
    make the group pairs many more than the size bound: zero cells drawn above a threshold."""
    seed, n = 3, grqc.n
    ug, report = privgraph(grqc, epsilon=epsilon, group_size=size, seed=seed)
    rng = np.random.Generator(np.random.PCG64(seed))
    eps0 = epsilon / 100
    eps1 = eps2 = eps3 = (epsilon - eps0) / 3
    m_noisy = grqc.m + int(geometric_noise(rng, 1, eps0, 1)[0])
    cell_budget = n + min(max(m_noisy, 0), 64 * n)  # the public size bound
    # phase 1: random groups of 20, noisy super-graph, Louvain
    groups = -(-n // size)
    group = (np.arange(n) // size)[rng.permutation(n)]
    u, v = grqc.edges()
    inner, keys, counts = pair_counts(group, groups, u, v)
    diagonal = np.bincount(group[u[inner]], minlength=groups)
    diagonal = diagonal + geometric_noise(rng, groups, eps1, 1)
    loops = np.maximum(diagonal - total_shift(diagonal, int(diagonal.sum()), 0), 0)
    cells, noisy, t = noisy_pair_cells(groups, keys, counts, eps1, 1, rng, cell_budget)
    shift = total_shift(noisy, m_noisy - int(diagonal.sum()), t - 1)
    keep = noisy > shift
    weights = (noisy[keep] - shift).astype(np.float64)
    phase_1 = {"count": groups, "threshold": t, "shift": shift, "pairs": int(keep.sum())}
    super_labels = louvain(
        groups, cells[keep] // groups, cells[keep] % groups, weights, loops * 1.0,
        resolution=1.0, rng=rng,
    )  # fmt: skip
    # phase 2: the exponential mechanism at eps_2 / (2 selections x 2 Delta u)
    labels = adjust_communities(grqc, super_labels[group], eps2 / 4, rng)
    # phase 3: degrees inside the communities (sensitivity 2), counts between them (1)
    k = int(labels.max()) + 1
    inner, keys, counts = pair_counts(labels, k, u, v)
    degrees = np.bincount(u[inner], minlength=n) + np.bincount(v[inner], minlength=n)
    degrees = degrees + geometric_noise(rng, n, eps3, 2)
    sizes = np.bincount(labels, minlength=k)
    consistent = np.clip(degrees - segment_shift(degrees, labels, k)[labels], 0, sizes[labels] - 1)
    cells, noisy, t = noisy_pair_cells(k, keys, counts, eps3, 1, rng, cell_budget)
    shift = total_shift(noisy, m_noisy - int(degrees.sum()) // 2, t - 1)
    keep = noisy > shift
    phase_3 = {"threshold": t, "shift": shift, "pairs": int(keep.sum())}
    cells = cells[keep]
    counts = np.minimum(noisy[keep] - shift, sizes[cells // k] * sizes[cells % k])
    consistent, counts = bound_output(consistent, counts, 2 * cell_budget)  # post-processing
    # phase 4
    out_u, out_v, intra = reconstruct(n, labels, consistent, cells, counts, rng)
    assert np.array_equal(ug.u, out_u) and np.array_equal(ug.v, out_v)
    assert (report["m_noisy"], report["intra_edges"]) == (m_noisy, intra)
    assert report["communities"]["adjusted"] == k
    # the consistency shifts keep the noisy totals (from m~, never the true m)
    assert (report["groups"], report["community_pairs"]) == (phase_1, phase_3)
    assert (phase_1["threshold"] > 1) == (size == 5)
    assert report["budget"] == pytest.approx(
        {"count": eps0, "initialisation": eps1, "adjustment": eps2, "extraction": eps3}
    )


def test_budget_split_sums_to_epsilon(karate):
    for epsilon in (0.5, 1.5, 10.0):
        budget = privgraph(karate, epsilon=epsilon, seed=1).report["budget"]
        assert sum(budget.values()) == pytest.approx(epsilon, rel=1e-12)
        assert budget["count"] == pytest.approx(epsilon / 100)
        phases = [budget["initialisation"], budget["adjustment"], budget["extraction"]]
        assert phases == pytest.approx([0.99 * epsilon / 3] * 3)


# ---------------------------------------------------------------------------- closed forms
def chi2_pvalue(observed: np.ndarray, probabilities: np.ndarray) -> float:
    """Chi-square of counts against probabilities; categories of expected < 20 lumped."""
    expected = probabilities * observed.sum()
    order = np.argsort(expected)
    obs, exp = [], []
    acc_o = acc_e = 0.0
    for i in order:
        acc_o += observed[i]
        acc_e += expected[i]
        if acc_e >= 20:
            obs.append(acc_o)
            exp.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 and exp:
        obs[-1] += acc_o
        exp[-1] += acc_e
    if len(exp) < 2:
        return 1.0  # too rare to test by categories (see the pooled test of rare cells)
    exp_arr = np.array(exp) * sum(obs) / sum(exp)
    return float(stats.chisquare(np.array(obs), exp_arr).pvalue)


def cell_law(count: int, rate: float, t: int, top: int) -> np.ndarray:
    """Pr[cell absent], then Pr[x = t], ..., Pr[x = top - 1], Pr[x >= top]: x = count + noise."""
    z = np.arange(t - count, top - count)
    exact = geometric_pmf(z, rate)
    alpha = math.exp(-rate)
    upper = top - count  # Pr[noise >= upper]
    tail = alpha**upper / (1 + alpha) if upper >= 1 else 1 - alpha ** (1 - upper) / (1 + alpha)
    return np.concatenate([[1 - exact.sum() - tail], exact, [tail]])


@functools.cache
def sparse_cells(k: int, sensitivity: float, budget: float, runs: int = 3000):
    """Every cell's value over ``runs`` draws (0 = absent): cells 1 (count 3) and 2 (count 1)."""
    true = {1: 3, 2: 1}  # keys i * k + j
    keys = np.array(sorted(true), dtype=np.int64)
    counts = np.array([true[c] for c in keys.tolist()], dtype=np.int64)
    pairs = [i * k + j for i in range(k) for j in range(i + 1, k)]
    values = np.zeros((runs, len(pairs)), dtype=np.int64)
    thresholds = set()
    for run in range(runs):
        rng = np.random.default_rng(run)
        cells, x, t = noisy_pair_cells(k, keys, counts, 1.0, sensitivity, rng, budget)
        thresholds.add(t)
        assert np.all(x >= t) and np.all(np.diff(cells) > 0)
        at = np.searchsorted(pairs, cells)
        values[run, at] = x
    (t,) = thresholds
    return pairs, true, values, t


@pytest.mark.parametrize(("sensitivity", "budget"), [(1, 100.0), (2, 100.0), (1, 0.05)])
def test_sparse_cells_have_the_noisy_cells_law(sensitivity, budget):
    """Each of the 10 cells of 5 classes, true or zero, is present exactly when count + noise
    >= t, with that value: the two-sided geometric at epsilon / sensitivity, zero cells placed
    uniformly. The same counts are far from the law at twice the rate (a halved sensitivity)."""
    pairs, true, values, t = sparse_cells(5, sensitivity, budget)
    alpha = math.exp(-1.0 / sensitivity)
    # the smallest t >= 1 at which at most `budget` of the 10 zero cells are expected to reach t
    assert t == min(x for x in range(1, 100) if 10 * alpha**x / (1 + alpha) <= budget)
    assert (t > 1) == (budget < 1)
    top = t + 6
    for column, key in enumerate(pairs):
        observed_values = values[:, column]
        observed = np.array(
            [np.sum(observed_values == 0)]
            + [np.sum(observed_values == x) for x in range(t, top)]
            + [np.sum(observed_values >= top)]
        )
        count = true.get(key, 0)
        law = cell_law(count, 1.0 / sensitivity, t, top)
        assert chi2_pvalue(observed, law) > FALSE_FAILURE, (key, observed, law)
        if t == 1:  # above a high threshold the cells are too rare to tell the scale
            assert chi2_pvalue(observed, cell_law(count, 2.0 / sensitivity, t, top)) < 1e-3
    # pooled: how often the 8 zero cells reach t, Binomial(8 runs, alpha^t / (1 + alpha))
    zero = [c for c, key in enumerate(pairs) if key not in true]
    present = int(np.count_nonzero(values[:, zero]))
    tail = alpha**t / (1 + alpha)
    assert stats.binomtest(present, values.shape[0] * len(zero), tail).pvalue > FALSE_FAILURE


@pytest.mark.parametrize("scale", [0.4, 1.1])
def test_exponential_choice_has_the_mechanisms_probabilities(scale):
    """One node, 5 classes of utility (0, 2, 0, 1, 0): Pr[c] = exp(s u_c) / sum, 20,000 draws."""
    draws = 20_000
    utility = np.array([0.0, 2.0, 0.0, 1.0, 0.0])
    node = np.repeat(np.arange(draws), 2)
    target = np.tile([1, 3], draws)
    values = np.tile([2.0, 1.0], draws)
    chosen = exponential_choice(
        node, target, values, draws, 5, scale, np.random.default_rng(int(scale * 10))
    )
    observed = np.bincount(chosen, minlength=5)

    def law(s: float) -> np.ndarray:
        weights = np.exp(s * utility)
        return weights / weights.sum()

    assert chi2_pvalue(observed, law(scale)) > FALSE_FAILURE
    assert chi2_pvalue(observed, law(2 * scale)) < FALSE_FAILURE


@pytest.mark.parametrize("edge", [True, False])
def test_adjustment_of_two_nodes_has_its_closed_form(edge):
    """Two nodes in two communities pick one after the other: the first moves to the other's
    community with p = e^s / (1 + e^s) with their edge (1/2 without), emptying its own; else
    the second moves with p. Pr[together] = 1 - (1 - p)^2, over 3,000 runs at s = 0.5."""
    scale, runs = 0.5, 3000
    graph = gv.Graph.from_edges([0] if edge else [], [1] if edge else [], 2)
    together = sum(
        int(adjust_communities(graph, np.array([0, 1]), scale, np.random.default_rng(r)).max()) == 0
        for r in range(runs)
    )

    def law(s: float) -> float:
        p = math.exp(s) / (1 + math.exp(s)) if edge else 0.5
        return 1 - (1 - p) ** 2

    assert stats.binomtest(together, runs, law(scale)).pvalue > FALSE_FAILURE
    if edge:
        assert stats.binomtest(together, runs, law(2 * scale)).pvalue < FALSE_FAILURE


def test_edge_count_noise_has_its_closed_form_scale():
    """m~ - m over 400 releases of a triangle: two-sided geometric at eps / 100, sensitivity 1."""
    epsilon = 2.0
    triangle = gv.Graph.from_edges([0, 1, 0], [1, 2, 2], 3)
    noise = np.array(
        [privgraph(triangle, epsilon=epsilon, seed=s).report["m_noisy"] - 3 for s in range(400)]
    )
    reach = 1500
    z = np.arange(-reach, reach + 1)
    observed = np.array([np.sum(noise == x) for x in z.tolist()])
    observed[0] += np.sum(noise < -reach)
    observed[-1] += np.sum(noise > reach)

    def law(rate: float) -> np.ndarray:
        p = geometric_pmf(z, rate)
        p[0] += (1 - p.sum()) / 2
        p[-1] += (1 - p.sum()) if p.sum() < 1 else 0
        return p / p.sum()

    assert chi2_pvalue(observed, law(epsilon / 100)) > FALSE_FAILURE
    assert chi2_pvalue(observed, law(2 * epsilon / 100)) < FALSE_FAILURE


def test_chung_lu_joins_each_pair_with_the_authors_probability():
    """Inside each community, pair i < j with probability min(1, d_i d_j / S) (the authors'
    ``generate_intra_edge``), heavy pairs (listed) and light ones (sampled) alike; none across."""
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1])
    degrees = np.array([4, 3, 2, 1, 0, 3, 3, 1, 1])
    runs = 4000
    hits = np.zeros((9, 9), dtype=np.int64)
    for run in range(runs):
        u, v = chung_lu(labels, 2, degrees, np.random.default_rng(run))
        np.add.at(hits, (u, v), 1)
    total = np.bincount(labels, weights=degrees)
    for i in range(9):
        for j in range(i + 1, 9):
            same = labels[i] == labels[j]
            p = min(1.0, degrees[i] * degrees[j] / total[labels[i]]) if same else 0.0
            if p in (0.0, 1.0):
                assert hits[i, j] == p * runs, (i, j)
            else:
                assert stats.binomtest(int(hits[i, j]), runs, p).pvalue > FALSE_FAILURE, (i, j)


# ---------------------------------------------------------------------------- neighbours
def loss_bounds(hits_g: int, hits_h: int, runs: int) -> tuple[float, float]:
    """(point estimate, Clopper-Pearson lower bound) of the event's privacy loss, both ways and
    for the complement too."""
    point, lower = 0.0, 0.0
    for a, b in ((hits_g, hits_h), (hits_h, hits_g)):
        for x, y in ((a, b), (runs - a, runs - b)):
            lo = stats.binomtest(x, runs).proportion_ci(1 - 2 * ALPHA, "exact").low
            hi = stats.binomtest(y, runs).proportion_ci(1 - 2 * ALPHA, "exact").high
            if x > 0:
                point = max(point, math.log(x / y) if y > 0 else math.inf)
            if lo > 0:
                lower = max(lower, math.log(lo / hi))
    return point, lower


def test_neighbouring_graphs_lose_at_most_the_budget():
    """Two nodes with and without their edge, at epsilon = 6, 2,000 releases each.

    On two nodes (one group, one community) only the extraction's degrees see the edge: the
    group cell's noise is post-processed into a one-node Louvain and the count m~ into no
    community pair. So the loss of any event is at most eps_3 = 0.99 epsilon / 3 = 1.98, the
    bound tested (an event's loss over the whole epsilon would not see a halved degree
    sensitivity, which doubles it). The false-failure probability is at most 8 ALPHA.
    """
    epsilon = 6.0
    g = gv.Graph.from_edges([0], [1], 2)
    h = gv.Graph.from_edges([], [], 2)
    hits_g = sum(privgraph(g, epsilon=epsilon, seed=s).graph.num_pairs for s in range(RUNS))
    hits_h = sum(
        privgraph(h, epsilon=epsilon, seed=s).graph.num_pairs for s in range(RUNS, 2 * RUNS)
    )
    point, lower = loss_bounds(hits_g, hits_h, RUNS)
    budget = 0.99 * epsilon / 3
    assert lower <= budget, f"privacy loss >= {lower:.3f} (measured {point:.3f}) > {budget}"
    # The closed form: the edge needs both consistent degrees 1, i.e. both noisy degrees >= 1
    # (a negative one is shifted or clipped to 0), then Chung-Lu joins it with min(1, 1/2).
    # Pr = 1/2 (1 / (1 + alpha))^2 with it, 1/2 (alpha / (1 + alpha))^2 without, alpha =
    # exp(-eps_3 / 2): the loss of this event is exactly eps_3, the sharpest the test can be.
    alpha = math.exp(-budget / 2)
    for hits, top in ((hits_g, 1.0), (hits_h, alpha)):
        p = 0.5 * (top / (1 + alpha)) ** 2
        assert stats.binomtest(hits, RUNS, p).pvalue > FALSE_FAILURE, (hits / RUNS, p)


# ---------------------------------------------------------------------------- seeding, input
def test_same_seed_same_bytes_on_any_threads(grqc):
    one = privgraph(grqc, epsilon=1.5, seed=7, threads=1)
    many = privgraph(grqc, epsilon=1.5, seed=7, threads=4)
    assert np.array_equal(one.graph.u, many.graph.u) and np.array_equal(one.graph.v, many.graph.v)
    other = privgraph(grqc, epsilon=1.5, seed=8, threads=1)
    assert not np.array_equal(one.graph.u, other.graph.u)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"epsilon": 0}, ValueError),
        ({"epsilon": -1.0}, ValueError),
        ({"epsilon": math.nan}, ValueError),
        ({"epsilon": math.inf}, ValueError),
        ({"epsilon": "1"}, TypeError),
        ({"epsilon": True}, TypeError),
        ({"epsilon": 1.0, "group_size": 0}, ValueError),
        ({"epsilon": 1.0, "group_size": 2.5}, TypeError),
        ({"epsilon": 1.0, "resolution": 0.0}, ValueError),
        ({"epsilon": 1.0, "resolution": 101.0}, ValueError),
    ],
)
def test_bad_parameters_are_refused(karate, kwargs, error):
    with pytest.raises(error):
        privgraph(karate, **kwargs)


def test_directed_graph_is_refused_in_one_line():
    arcs = gv.Graph.from_edges([0, 1], [1, 2], 3, directed=True)
    with pytest.raises(gv.NotApplicable, match="privgraph has no directed form") as caught:
        privgraph(arcs, epsilon=1.0, seed=1)
    assert "\n" not in str(caught.value)
    assert not registry.scheme("privgraph").directed


def test_registered_as_a_dp_scheme():
    record = registry.scheme("privgraph")
    assert record.family == "dp" and record.grid_parameter == "epsilon"
    assert record.function is privgraph and record.deterministic


# ---------------------------------------------------------------------------- utility, Louvain
@pytest.mark.parametrize("name", ["karate_club", "ca-GrQc"])
def test_louvain_reaches_networkx_modularity(name):
    """The batched Louvain's modularity is within 0.01 of networkx's sequential Louvain's."""
    nx = pytest.importorskip("networkx")
    from networkx.algorithms.community import louvain_communities, modularity

    g = gv.datasets.load(name)
    u, v = g.edges()
    labels = louvain(
        g.n, u, v, np.ones(u.size), np.zeros(g.n), resolution=1.0, rng=np.random.default_rng(1)
    )
    graph = g.to_networkx()
    ours = modularity(
        graph, [set(np.flatnonzero(labels == c).tolist()) for c in range(labels.max() + 1)]
    )
    theirs = modularity(graph, louvain_communities(graph, seed=1))
    assert isinstance(graph, nx.Graph) and ours >= theirs - 0.01, (ours, theirs)


def test_planted_communities_are_kept_at_large_epsilon():
    """Four planted blocks of 60 nodes (p_in 0.3, p_out 0.01), groups of one node: at epsilon
    = 50 the release's Louvain communities agree with the blocks (NMI > 0.8) and its edge
    count is near m: the communities found survive the adjustment, the extraction and the
    reconstruction. (Groups of 20 random nodes mix blocks this small beyond repair.)"""
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(0)
    blocks = np.repeat(np.arange(4), 60)
    i, j = np.triu_indices(240, 1)
    p = np.where(blocks[i] == blocks[j], 0.3, 0.01)
    keep = rng.random(i.size) < p
    g = gv.Graph.from_edges(i[keep], j[keep], 240)
    ug = privgraph(g, epsilon=50.0, group_size=1, seed=2).graph
    labels = louvain(
        240, ug.u, ug.v, np.ones(ug.u.size), np.zeros(240), resolution=1.0,
        rng=np.random.default_rng(3),
    )  # fmt: skip
    assert metrics.normalized_mutual_info_score(blocks, labels) > 0.8
    assert 0.8 * g.m <= ug.num_pairs <= 1.2 * g.m
