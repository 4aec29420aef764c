"""Every public DP function fails these tests when its privacy breaks (issue 31).

Three kinds of test, each calling the public function, so that a wrong budget, sensitivity or
input passed by the function to its helpers is caught, not only a wrong helper:

- **Replay** (seeded, realistic epsilon): the noise the function drew is reconstructed from its
  seed by drawing the closed-form noise (budget split, sensitivity) from the same stream and
  pushing it through the documented post-processing; the release and the private report must be
  the function's, byte for byte. A budget, a sensitivity or a true statistic (maximum degree,
  edge count, rank) used where the closed form says otherwise changes the bytes.
- **Noise against its closed form**, measured from outputs or the private report: TmF's noisy
  count; the exact output distribution of DP-1K, DP-2K and DGG on two nodes; DP-1K's output
  degrees independent of the true ranks; DP-2K's cap bounded by its public rule.
- **Neighbouring graphs**: G and G minus one edge e, ``RUNS`` releases of each, the event "e is
  published". The privacy loss of the event and of its complement, both ways, is bounded below
  by exact (Clopper-Pearson) confidence bounds at level ``ALPHA`` each: an epsilon-DP mechanism
  has every true loss <= epsilon, so the test (lower bound <= epsilon, no further tolerance)
  fails by chance with probability at most 8 ``ALPHA`` = 8e-7 (four losses, two bounds each).
  The seeds are fixed: a run is deterministic. ``test_measured_losses`` prints the losses.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import graphveil as gv
from graphveil.anonymize import dgg, dp_dk, edgeflip, registry, tmf
from graphveil.anonymize._dgg import bter_blocks, chung_lu_pairs
from graphveil.anonymize._dp import release_pairs
from graphveil.anonymize._dp_dk import (
    configuration_pairs,
    consistent_jdm,
    degree_cap,
    graphical_sequence,
    jdm_pairs,
    joint_degree_matrix,
    simple_pairs,
)

#: One-sided level of each Clopper-Pearson bound (see the module docstring).
ALPHA = 1e-7
#: Releases of each neighbour in a neighbouring-graph test.
RUNS = 4000
#: The epsilon of the neighbouring-graph tests and of the two-node closed forms.
EPSILON = 1.0
#: Each goodness-of-fit test fails by chance with at most this probability (fixed seeds).
FALSE_FAILURE = 1e-6


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return gv.datasets.load("karate_club")


def geometric_noise(rng: np.random.Generator, size: int, epsilon: float, sensitivity: float):
    """The closed form: two-sided geometric, Pr[z] ~ exp(-epsilon |z| / sensitivity).

    Drawn as the difference of two geometric variables of success probability 1 - alpha from
    ``rng``, as the package documents its draws (``graphveil.anonymize._dp``).
    """
    q = -math.expm1(-epsilon / sensitivity)
    return (rng.geometric(q, size) - rng.geometric(q, size)).astype(np.int64)


def laplace_tail(x: float, scale: float) -> float:
    """Pr[Lap(scale) > x]."""
    return 0.5 * math.exp(-x / scale) if x >= 0 else 1.0 - 0.5 * math.exp(x / scale)


def same_pairs(ug: gv.UncertainGraph, u: np.ndarray, v: np.ndarray) -> bool:
    return np.array_equal(ug.u, u) and np.array_equal(ug.v, v)


# ---------------------------------------------------------------------------- replay
@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
@pytest.mark.parametrize("seed", [3, 4])
def test_tmf_replays_its_closed_form_noise(grqc, epsilon, seed):
    """The count gets count_share * eps at sensitivity 1; the cells the rest; theta from m~."""
    share = 0.01
    ug, report = tmf(grqc, epsilon=epsilon, count_share=share, seed=seed, threads=1)
    rng = np.random.default_rng(seed)
    pairs = grqc.n * (grqc.n - 1) // 2
    m_noisy = grqc.m + int(geometric_noise(rng, 1, share * epsilon, 1)[0])
    m_noisy = min(max(m_noisy, 1), pairs / 2)
    eps_cells = (1 - share) * epsilon
    ratio = pairs / m_noisy - 1
    if eps_cells >= math.log(ratio):  # the paper's two cases (Nguyen et al. 2015)
        theta = math.log(ratio) / (2 * eps_cells) + 0.5
    else:
        theta = math.log(pairs / (2 * m_noisy) + math.expm1(eps_cells) / 2) / eps_cells
    p_keep = laplace_tail(theta - 1, 1 / eps_cells)  # a true cell: 1 + Lap > theta
    p_add = laplace_tail(theta, 1 / eps_cells)
    assert report["m_noisy"] == m_noisy
    assert report["theta"] == pytest.approx(theta, rel=1e-12)
    assert report["p_keep"] == pytest.approx(p_keep, rel=1e-12)
    assert report["p_add"] == pytest.approx(p_add, rel=1e-12)
    u, v, kept, added = release_pairs(grqc, p_keep, p_add, rng, 1)
    assert same_pairs(ug, u, v) and (report["kept_edges"], report["added_pairs"]) == (kept, added)


@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_edgeflip_replays_its_closed_form_noise(karate, epsilon):
    """Every pair flipped with probability 1 / (1 + e^eps), the whole budget on the cells."""
    ug, report = edgeflip(karate, epsilon=epsilon, seed=5, threads=1)
    flip = 1 / (1 + math.exp(epsilon))
    u, v, kept, added = release_pairs(karate, 1 - flip, flip, np.random.default_rng(5), 1)
    assert same_pairs(ug, u, v) and (report["kept_edges"], report["added_pairs"]) == (kept, added)
    assert report["s"] == pytest.approx(2 * flip, rel=1e-12)


def replay_degrees(graph: gv.Graph, eps_degrees: float, rng: np.random.Generator) -> tuple:
    """DP-dK's degree part: the sorted degrees + noise of sensitivity 2, dealt at random."""
    noisy = np.sort(graph.degrees.astype(np.int64)) + geometric_noise(rng, graph.n, eps_degrees, 2)
    sequence = graphical_sequence(noisy)  # post-processing (tested on its own)
    degrees = np.empty(graph.n, dtype=np.int64)
    degrees[rng.permutation(graph.n)] = sequence  # a uniformly random order, not the true ranks
    return sequence, degrees


@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_dp_1k_replays_its_closed_form_noise(grqc, epsilon):
    """DP-1K: the whole budget on the sorted degrees at sensitivity 2, random dealing."""
    ug, report = dp_dk(grqc, epsilon=epsilon, k=1, seed=7)
    rng = np.random.Generator(np.random.PCG64(7))
    _, degrees = replay_degrees(grqc, epsilon, rng)
    u, v = configuration_pairs(degrees, rng)
    su, sv = simple_pairs(grqc.n, u, v)
    assert same_pairs(ug, su, sv) and report["erased"] == u.size - su.size
    assert report["budget"] == {"degree_sequence": epsilon}


@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_dp_2k_replays_its_closed_form_noise(grqc, epsilon):
    """DP-2K: eps/2 on the degrees (sensitivity 2); eps/2 on the JDM at sensitivity 4D - 3,
    the cap D read off the noisy sequence (never the true maximum degree)."""
    ug, report = dp_dk(grqc, epsilon=epsilon, k=2, seed=8)
    rng = np.random.Generator(np.random.PCG64(8))
    sequence, degrees = replay_degrees(grqc, epsilon / 2, rng)
    cap = degree_cap(sequence)
    assert cap < grqc.degrees.max()  # the test can tell the cap from the true maximum
    iu = np.triu_indices(cap)
    noisy = joint_degree_matrix(grqc, cap)[iu] + geometric_noise(
        rng, iu[0].size, epsilon / 2, 4 * cap - 3
    )
    classes = np.minimum(degrees, cap)
    stubs = np.bincount(classes, weights=degrees, minlength=cap + 1)[1:].astype(np.int64)
    u, v = jdm_pairs(degrees, classes, consistent_jdm(noisy, iu, stubs), rng)
    su, sv = simple_pairs(grqc.n, u, v)
    assert same_pairs(ug, su, sv) and report["erased"] == u.size - su.size
    assert (report["degree_cap"], report["sensitivity"]) == (cap, 4 * cap - 3)
    assert report["budget"] == {"degree_sequence": epsilon / 2, "joint_degree_matrix": epsilon / 2}


@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_dgg_replays_its_closed_form_noise(grqc, epsilon):
    """DGG: the whole budget on the degree vector at sensitivity 2, clipped, then BTER."""
    ug, report = dgg(grqc, epsilon=epsilon, seed=9)
    rng = np.random.Generator(np.random.PCG64(9))
    noise = geometric_noise(rng, grqc.n, epsilon, 2)
    degrees = np.clip(grqc.degrees.astype(np.int64) + noise, 0, grqc.n - 1)
    bu, bv, blocks = bter_blocks(degrees, rng)
    inner = np.bincount(np.concatenate([bu, bv]), minlength=grqc.n)
    cu, cv = chung_lu_pairs(np.maximum(degrees - inner, 0), rng)
    su, sv = simple_pairs(grqc.n, np.concatenate([bu, cu]), np.concatenate([bv, cv]))
    assert same_pairs(ug, su, sv) and report["blocks"] == blocks
    assert report["budget"] == {"degrees": epsilon}


# ---------------------------------------------------------------------------- noise, measured
def discrete_chi2_pvalue(samples: np.ndarray, pmf, low: int, high: int) -> float:
    """Chi-square of integer ``samples`` against ``pmf`` on [low, high] (tails lumped in).

    Consecutive values are merged into bins of expected count >= 20.
    """
    z = np.arange(low, high + 1)
    p = pmf(z)
    p[0] += max(0.0, 1 - p.sum())  # the tails, outside [low, high], into the end bins
    edges, acc = [low], 0.0
    for value, mass in zip(z.tolist(), p.tolist(), strict=True):
        acc += mass
        if acc * samples.size >= 20:
            edges.append(value + 1)
            acc = 0.0
    edges[-1] = high + 1
    expected = np.add.reduceat(p, np.array(edges[:-1]) - low) * samples.size
    observed = np.histogram(np.clip(samples, low, high), bins=edges)[0]
    expected *= observed.sum() / expected.sum()
    return float(stats.chisquare(observed, expected).pvalue)


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_tmf_count_noise_has_its_closed_form_scale(grqc, epsilon):
    """m~ - m over 400 releases: two-sided geometric at budget count_share * eps, sensitivity 1."""
    share = 0.01
    noise = np.array(
        [tmf(grqc, epsilon=epsilon, seed=s, threads=1)[1]["m_noisy"] - grqc.m for s in range(400)]
    ).astype(np.int64)
    reach = int(30 / (share * epsilon))

    def pvalue(budget: float) -> float:
        alpha = math.exp(-budget)
        return discrete_chi2_pvalue(
            noise, lambda z: (1 - alpha) / (1 + alpha) * alpha ** np.abs(z), -reach, reach
        )

    assert pvalue(share * epsilon) > FALSE_FAILURE
    assert pvalue(2 * share * epsilon) < FALSE_FAILURE  # the test tells a budget twice as large


def two_node_edge_probability(scheme: str, epsilon: float, edge: bool) -> float:
    """Pr[the release on two nodes holds the edge], exactly, from the closed-form noise.

    The true degrees are (1, 1) with the edge, (0, 0) without; z ~ two-sided geometric.
    DGG (sensitivity 2, clipped to [0, 1], Chung-Lu of one edge whose endpoints are uniform):
    1/2 Pr[d + z >= 1]^2. DP-1K: the sorted noisy pair (x1, x2) is fitted by isotonic regression
    (x1 > x2 is replaced by their mean), rounded half to even and clipped to [0, 1]; an odd sum
    loses one: the edge iff both round to 1, i.e. x1 >= 1 if x1 <= x2, else x1 + x2 >= 2.
    DP-2K: DP-1K's at eps/2 (on two nodes the cap is 1 and the one JDM cell is fitted to the
    sequence's stubs).
    """
    d = 1 if edge else 0
    if scheme == "dgg":
        alpha = math.exp(-epsilon / 2)
        at_least_one = 1 / (1 + alpha) if d == 1 else alpha / (1 + alpha)
        return 0.5 * at_least_one**2
    eps = epsilon if scheme == "dp_1k" else epsilon / 2
    alpha = math.exp(-eps / 2)
    z = np.arange(-200, 201)
    pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)
    x1, x2 = np.meshgrid(d + z, d + z, indexing="ij")
    both = np.where(x1 <= x2, x1 >= 1, x1 + x2 >= 2)
    return float((np.outer(pmf, pmf) * both).sum())


def two_node_release(scheme: str, edge: bool, seed: int) -> bool:
    g = gv.Graph.from_edges([0] if edge else [], [1] if edge else [], 2)
    if scheme == "dgg":
        ug = dgg(g, epsilon=EPSILON, seed=seed).graph
    else:
        ug = dp_dk(g, epsilon=EPSILON, k=1 if scheme == "dp_1k" else 2, seed=seed).graph
    return ug.num_pairs == 1


@functools.cache
def two_node_counts(scheme: str) -> tuple[int, int]:
    """How many of RUNS releases hold the edge: on G = one edge, on G' = no edge."""
    with_edge = sum(two_node_release(scheme, True, s) for s in range(RUNS))
    without = sum(two_node_release(scheme, False, s) for s in range(RUNS, 2 * RUNS))
    return with_edge, without


@pytest.mark.parametrize("scheme", ["dp_1k", "dp_2k", "dgg"])
def test_two_node_releases_follow_the_closed_form(scheme):
    """The degree noise's scale and sensitivity, measured through the whole public function."""
    for edge, hits in zip((True, False), two_node_counts(scheme), strict=True):
        p = two_node_edge_probability(scheme, EPSILON, edge)
        assert stats.binomtest(hits, RUNS, p).pvalue > FALSE_FAILURE, (edge, hits / RUNS, p)


def test_dp_1k_deals_degrees_independently_of_the_true_ranks(grqc):
    """A node's output degree must not follow its true degree (the dealing is post-processing).

    Under the null Spearman's rho over 5,242 nodes has standard deviation 0.014; the bound 0.1
    is 7 of them. Dealing by true rank gives rho near 0.9.
    """
    ug, _ = dp_dk(grqc, epsilon=2.0, seed=11)
    out = np.bincount(np.concatenate([ug.u, ug.v]), minlength=grqc.n)
    assert abs(stats.spearmanr(grqc.degrees, out).statistic) < 0.1


def test_dp_2k_cap_follows_its_public_rule():
    """On a star the true maximum degree is n - 1; the cap stays within ceil(2 sqrt(n))."""
    n = 400
    star = gv.Graph.from_edges(np.zeros(n - 1, dtype=np.int64), np.arange(1, n), n)
    for seed in range(5):
        report = dp_dk(star, epsilon=2.0, k=2, seed=seed).report
        assert 1 <= report["degree_cap"] <= math.ceil(2 * math.sqrt(n))
        assert report["sensitivity"] == 4 * report["degree_cap"] - 3


def test_budgets_add_up_to_epsilon(karate):
    for k in (1, 2):
        report = dp_dk(karate, epsilon=1.5, k=k, seed=1).report
        assert sum(report["budget"].values()) == pytest.approx(1.5)
    assert sum(dgg(karate, epsilon=1.5, seed=1).report["budget"].values()) == 1.5


# ---------------------------------------------------------------------------- neighbours
def loss_bounds(hits_g: int, hits_h: int, runs: int) -> tuple[float, float]:
    """(point estimate, Clopper-Pearson lower bound) of the event's privacy loss.

    The largest of ln(p_G / p_H), ln(p_H / p_G) and the same for the complement event; the lower
    bound divides the lower ALPHA bound of one probability by the upper of the other.
    """
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


def published(ug: gv.UncertainGraph, u: int, v: int) -> bool:
    return bool(np.any((ug.u == u) & (ug.v == v)))


@functools.cache
def direct_counts(scheme: str) -> tuple[int, int]:
    """TmF / EdgeFlip on karate and karate minus the edge (0, 1): releases holding (0, 1)."""
    g = gv.datasets.load("karate_club")
    u, v = g.edges()
    keep = ~((u == 0) & (v == 1))
    h = gv.Graph.from_edges(u[keep], v[keep], g.n)
    function = tmf if scheme == "tmf" else edgeflip
    hits = []
    for graph, seeds in ((g, range(RUNS)), (h, range(RUNS, 2 * RUNS))):
        hits.append(
            sum(
                published(function(graph, epsilon=EPSILON, seed=s, threads=1)[0], 0, 1)
                for s in seeds
            )
        )
    return hits[0], hits[1]


def counts(scheme: str) -> tuple[int, int]:
    return direct_counts(scheme) if scheme in ("tmf", "edgeflip") else two_node_counts(scheme)


#: The neighbouring-graph test of each public DP function (DP-dK as its two forms).
NEIGHBOURS = ("tmf", "edgeflip", "dp_1k", "dp_2k", "dgg")


#: The neighbouring-graph test of a DP scheme not in :data:`NEIGHBOURS`, in its own tests file.
OWN_NEIGHBOURS_TEST = "test_neighbouring_graphs_lose_at_most_the_budget"


def test_every_dp_scheme_has_a_neighbouring_test():
    here = {n.split("_")[0] for n in NEIGHBOURS}
    for name in registry.names(family="dp"):
        if name.split("_")[0] in here:
            continue
        own = Path(__file__).parent / f"test_{name}.py"
        text = own.read_text(encoding="utf-8") if own.exists() else ""
        assert f"def {OWN_NEIGHBOURS_TEST}(" in text, (
            f"{name}: give tests/test_{name}.py a {OWN_NEIGHBOURS_TEST} (one edge added or "
            "removed changes each release's probability by at most e^epsilon)"
        )


@pytest.mark.parametrize("scheme", NEIGHBOURS)
def test_neighbouring_graphs_lose_at_most_epsilon(scheme):
    point, lower = loss_bounds(*counts(scheme), RUNS)
    assert lower <= EPSILON, f"{scheme}: privacy loss >= {lower:.3f} (measured {point:.3f})"


def test_measured_losses(capsys):
    """The measured losses, for the record (``pytest -s``): the point estimate and the bound."""
    with capsys.disabled():
        for scheme in NEIGHBOURS:
            hits_g, hits_h = counts(scheme)
            point, lower = loss_bounds(hits_g, hits_h, RUNS)
            print(
                f"\n{scheme}: eps={EPSILON} Pr[e | G]={hits_g / RUNS:.4f} "
                f"Pr[e | G-e]={hits_h / RUNS:.4f} loss {point:.3f} (lower bound {lower:.3f})"
            )
