"""Directed edge DP (issue 35, Deliver 3): TmF and EdgeFlip on ordered pairs, DP-1K on (in, out).

The unit of privacy is the arc: two digraphs are neighbours when they differ in one arc u -> v
(an arc and its reverse are two units). The tests are those of tests/test_dp_privacy.py on
digraphs: a seeded replay of each public function at realistic epsilon against its closed form
(budget, N = n(n-1), sensitivity), the noise measured against the closed form, and a
neighbouring-graph test whose Clopper-Pearson lower bound on the privacy loss of the event "the
arc is published" must stay below epsilon. Also: the sensitivity of the joint (in, out) degree
sequence measured by brute force over every arc of a digraph, the uniform placement of non-arcs
over the n(n-1) ordered pairs, and the identity rule and the command line on directed releases.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from test_dp_privacy import ALPHA, FALSE_FAILURE, geometric_noise, laplace_tail, loss_bounds

import graphveil as gv
from graphveil.anonymize import dp_dk, edgeflip, registry, tmf
from graphveil.anonymize._dp import release_pairs, uniform_non_arcs
from graphveil.anonymize._dp_dk import JOINT_DEGREE_SENSITIVITY
from graphveil.anonymize.registry import IDENTITY_OUTPUT, identity_reason
from graphveil.cli import main

#: Releases of each neighbour in a neighbouring-graph test, and their epsilon.
RUNS = 4000
EPSILON = 1.0
DIRECT = ("tmf", "edgeflip")


@functools.cache
def digraph() -> gv.Graph:
    """Karate's edges as arcs, a third of them both ways (arc 0 -> 1 and 1 -> 0 among them)."""
    k = gv.datasets.load("karate_club")
    u, v = k.edges()
    both = np.arange(u.size) % 3 == 0
    return gv.Graph.from_edges(np.r_[u, v[both]], np.r_[v, u[both]], k.n, directed=True)


@functools.cache
def grqc_digraph() -> gv.Graph:
    """ca-GrQc with every edge oriented at random, a fifth of them both ways (5,242 nodes)."""
    g = gv.datasets.load("ca-GrQc")
    u, v = g.edges()
    rng = np.random.default_rng(35)
    flip = rng.random(u.size) < 0.5
    tail, head = np.where(flip, v, u), np.where(flip, u, v)
    both = rng.random(u.size) < 0.2
    return gv.Graph.from_edges(np.r_[tail, head[both]], np.r_[head, tail[both]], g.n, directed=True)


def arcs(ug: gv.UncertainGraph) -> set[tuple[int, int]]:
    return set(zip(ug.u.tolist(), ug.v.tolist()))


# ---------------------------------------------------------------------------- the registry
def test_the_three_dp_schemes_have_a_directed_form():
    for name in ("tmf", "edgeflip", "dp_dk"):
        assert registry.scheme(name).directed
    assert not registry.scheme("dgg").directed
    with pytest.raises(ValueError, match=r"^dp_dk with k=2 \(DP-2K\) has no directed form yet"):
        dp_dk(digraph(), epsilon=1.0, k=2, seed=1)


# ---------------------------------------------------------------------------- the sensitivity
def test_one_arc_changes_the_joint_degree_sequence_by_two():
    """The stated L1 sensitivity of (out, in), by brute force over every arc added or removed."""
    g = digraph()
    u, v = g.edges()
    present = set(zip(u.tolist(), v.tolist()))
    joint = np.r_[g.out_degrees, g.in_degrees]
    changes = set()
    for a, b in itertools.permutations(range(g.n), 2):
        rest = present ^ {(a, b)}
        h = gv.Graph.from_edges(*(list(x) for x in zip(*rest)), n=g.n, directed=True)
        changes.add(int(np.abs(np.r_[h.out_degrees, h.in_degrees] - joint).sum()))
    assert changes == {JOINT_DEGREE_SENSITIVITY} == {2}


def test_non_arcs_are_uniform_over_the_ordered_pairs():
    """Placed non-arcs: never an arc, both orders of a pair, each ordered non-arc equally often.

    Both branches: rejection (a few non-arcs) and the listing (more than half of them).
    """
    n = 6
    g = gv.Graph.from_edges([0, 1, 2, 3], [1, 0, 3, 5], n, directed=True)
    u, v = g.edges()
    keys = u.astype(np.int64) * n + v
    free = sorted(
        a * n + b for a, b in itertools.permutations(range(n), 2) if a * n + b not in set(keys)
    )
    assert len(free) == n * (n - 1) - g.m == 26
    rng = np.random.default_rng(1)
    for count in (3, 20):
        tally = np.zeros(n * n, dtype=np.int64)
        for _ in range(3000):
            drawn = uniform_non_arcs(keys, n, count, rng)
            assert drawn.size == count == np.unique(drawn).size
            tally += np.bincount(drawn, minlength=n * n)
        assert tally[keys].sum() == 0 and tally.sum() == tally[free].sum()
        assert stats.chisquare(tally[free]).pvalue > FALSE_FAILURE, tally[free]


# ---------------------------------------------------------------------------- replay
@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_directed_tmf_replays_its_closed_form_noise(epsilon):
    """N = n(n-1) ordered pairs; the count at count_share * eps, sensitivity 1; cells the rest."""
    g, share, seed = grqc_digraph(), 0.01, 3
    ug, report = tmf(g, epsilon=epsilon, count_share=share, seed=seed, threads=1)
    assert ug.directed
    rng = np.random.default_rng(seed)
    pairs = g.n * (g.n - 1)
    m_noisy = g.m + int(geometric_noise(rng, 1, share * epsilon, 1)[0])
    m_noisy = min(max(m_noisy, 1), pairs / 2)
    eps_cells = (1 - share) * epsilon
    ratio = pairs / m_noisy - 1
    if eps_cells >= math.log(ratio):
        theta = math.log(ratio) / (2 * eps_cells) + 0.5
    else:
        theta = math.log(pairs / (2 * m_noisy) + math.expm1(eps_cells) / 2) / eps_cells
    p_keep = laplace_tail(theta - 1, 1 / eps_cells)
    p_add = laplace_tail(theta, 1 / eps_cells)
    assert report["m_noisy"] == m_noisy
    assert report["theta"] == pytest.approx(theta, rel=1e-12)
    assert (report["p_keep"], report["p_add"]) == pytest.approx((p_keep, p_add), rel=1e-12)
    u, v, kept, added = release_pairs(g, p_keep, p_add, rng, 1)
    assert np.array_equal(ug.u, u) and np.array_equal(ug.v, v)
    assert (report["kept_edges"], report["added_pairs"]) == (kept, added)
    true = set(zip(*(x.tolist() for x in g.edges())))
    assert sum(arc in true for arc in arcs(ug)) == kept  # kept counts true arcs, not pairs


@pytest.mark.parametrize("epsilon", [2.0, 5.0])
def test_directed_edgeflip_replays_its_closed_form_noise(epsilon):
    """Every ordered pair flipped with probability 1 / (1 + e^eps), the whole budget."""
    g = digraph()
    ug, report = edgeflip(g, epsilon=epsilon, seed=5, threads=1)
    flip = 1 / (1 + math.exp(epsilon))
    u, v, kept, added = release_pairs(g, 1 - flip, flip, np.random.default_rng(5), 1)
    assert np.array_equal(ug.u, u) and np.array_equal(ug.v, v)
    assert (report["kept_edges"], report["added_pairs"]) == (kept, added)
    assert report["s"] == pytest.approx(2 * flip, rel=1e-12)
    pairs = g.n * (g.n - 1)
    m_hat = (ug.num_pairs - pairs * flip) / (1 - 2 * flip)
    assert report["m_hat"] == pytest.approx(min(max(m_hat, 1), pairs - 1), rel=1e-12)


def test_directed_flips_have_their_closed_form_rates():
    """Over 300 releases, true arcs survive at 1 - s/2 and the n(n-1) - m non-arcs enter at s/2.

    A release on unordered pairs (n(n-1)/2 cells) or a doubled flip rate fails both.
    """
    g, epsilon = digraph(), 2.0
    flip = 1 / (1 + math.exp(epsilon))
    free = g.n * (g.n - 1) - g.m
    kept = added = 0
    for seed in range(300):
        report = edgeflip(g, epsilon=epsilon, seed=seed).report
        kept += report["kept_edges"]
        added += report["added_pairs"]
    assert stats.binomtest(kept, 300 * g.m, 1 - flip).pvalue > FALSE_FAILURE
    assert stats.binomtest(added, 300 * free, flip).pvalue > FALSE_FAILURE


def replay_directed_1k(g: gv.Graph, epsilon: float, seed: int) -> tuple[set, int, int]:
    """DP-1K of a digraph from its closed form: noise of sensitivity 2 on (out, in), eps whole."""
    rng = np.random.Generator(np.random.PCG64(seed))
    n = g.n
    noisy = np.r_[g.out_degrees, g.in_degrees] + geometric_noise(rng, 2 * n, epsilon, 2)
    out, inn = (np.clip(x, 0, n - 1) for x in (noisy[:n], noisy[n:]))
    excess = int(out.sum() - inn.sum())
    side = out if excess > 0 else inn
    stubs = np.repeat(np.arange(n), side)
    side -= np.bincount(stubs[rng.choice(stubs.size, abs(excess), replace=False)], minlength=n)
    order = rng.permutation(n)
    dealt_out, dealt_in = np.empty_like(out), np.empty_like(inn)
    dealt_out[order], dealt_in[order] = out, inn
    tails = np.repeat(np.arange(n), dealt_out)
    tails = tails[rng.permutation(tails.size)]
    heads = np.repeat(np.arange(n), dealt_in)
    made = {(a, b) for a, b in zip(tails.tolist(), heads.tolist()) if a != b}
    return made, tails.size - len(made), abs(excess)


@pytest.mark.parametrize("epsilon", [0.5, 2.0, 5.0])
def test_directed_dp_1k_replays_its_closed_form_noise(epsilon):
    g = grqc_digraph()
    ug, report = dp_dk(g, epsilon=epsilon, k=1, seed=7)
    made, erased, trimmed = replay_directed_1k(g, epsilon, 7)
    assert ug.directed and arcs(ug) == made
    assert (report["erased"], report["trimmed"]) == (erased, trimmed)
    assert report["budget"] == {"joint_degree_sequence": epsilon}


def test_directed_dp_1k_deals_degrees_independently_of_the_true_ids():
    """Output in- and out-degrees do not follow the node's true ones (|rho| < 0.1, 7 sd)."""
    g = grqc_digraph()
    ug, _ = dp_dk(g, epsilon=2.0, seed=11)
    out = np.bincount(ug.u, minlength=g.n)
    inn = np.bincount(ug.v, minlength=g.n)
    assert abs(stats.spearmanr(g.out_degrees, out).statistic) < 0.1
    assert abs(stats.spearmanr(g.in_degrees, inn).statistic) < 0.1
    # but the pairs are kept together: a node's output in- and out-degree correlate as G0's do
    assert (
        stats.spearmanr(out, inn).statistic
        > 0.5 * stats.spearmanr(g.out_degrees, g.in_degrees).statistic
    )


# ---------------------------------------------------------------------------- two nodes, exactly
def two_node_arc_probability(epsilon: float, arc: bool) -> float:
    """Pr[DP-1K's release of the two-node digraph {0 -> 1} (or of no arc) holds 0 -> 1], exactly.

    The joint sequence (out0, out1, in0, in1) is (1, 0, 0, 1) or (0, 0, 0, 0); each entry gets
    two-sided geometric noise of alpha = exp(-eps / 2) and is clipped to [0, 1]. The side with
    more stubs loses its excess uniformly; the pairs are dealt in a random order (a swap with
    probability 1/2); out-stubs meet in-stubs uniformly, loops erased. By enumeration.
    """
    alpha = math.exp(-epsilon / JOINT_DEGREE_SENSITIVITY)
    true = (1, 0, 0, 1) if arc else (0, 0, 0, 0)
    one = {1: 1 / (1 + alpha), 0: alpha / (1 + alpha)}  # Pr[d + z >= 1]
    total = 0.0
    for clipped in itertools.product((0, 1), repeat=4):
        weight = math.prod(one[d] if c else 1 - one[d] for d, c in zip(true, clipped))
        out, inn = clipped[:2], clipped[2:]
        size = min(sum(out), sum(inn))
        # the kept stubs of each side: every subset of its size equally likely
        outs = [s for s in itertools.combinations([i for i in (0, 1) if out[i]], size)]
        ins = [s for s in itertools.combinations([i for i in (0, 1) if inn[i]], size)]
        for tails, heads in itertools.product(outs, ins):
            for swap in (False, True):
                t = [1 - x if swap else x for x in tails]
                h = [1 - x if swap else x for x in heads]
                matchings = list(itertools.permutations(t))
                hit = sum(any(a == 0 and b == 1 for a, b in zip(m, h)) for m in matchings)
                total += weight / (len(outs) * len(ins) * 2) * hit / len(matchings)
    return total


def two_node_digraph(arc: bool) -> gv.Graph:
    return gv.Graph.from_edges([0] if arc else [], [1] if arc else [], 2, directed=True)


@functools.cache
def two_node_counts() -> tuple[int, int]:
    hits = []
    for arc, seeds in ((True, range(RUNS)), (False, range(RUNS, 2 * RUNS))):
        g = two_node_digraph(arc)
        hits.append(sum((0, 1) in arcs(dp_dk(g, epsilon=EPSILON, seed=s).graph) for s in seeds))
    return hits[0], hits[1]


def test_two_node_directed_dp_1k_follows_the_closed_form():
    """The joint sequence's noise scale and sensitivity, through the whole public function."""
    for arc, hits in zip((True, False), two_node_counts(), strict=True):
        p = two_node_arc_probability(EPSILON, arc)
        assert stats.binomtest(hits, RUNS, p).pvalue > FALSE_FAILURE, (arc, hits / RUNS, p)


def test_the_two_node_closed_form_tells_the_sensitivity():
    """The reference itself: at sensitivity 1 (alpha = e^-eps) the probabilities differ."""
    with_arc = two_node_arc_probability(EPSILON, True)
    assert 0.0 < two_node_arc_probability(EPSILON, False) < with_arc < 0.5
    assert two_node_arc_probability(2 * EPSILON, True) - with_arc > 0.02


# ---------------------------------------------------------------------------- neighbours
@functools.cache
def direct_counts(scheme: str) -> tuple[int, int]:
    """Releases of the digraph and of it minus arc 0 -> 1 (1 -> 0 stays) holding 0 -> 1."""
    g = digraph()
    u, v = g.edges()
    assert {(0, 1), (1, 0)} <= set(
        zip(u.tolist(), v.tolist())
    )  # a mutual dyad: the arc is the unit
    keep = ~((u == 0) & (v == 1))
    h = gv.Graph.from_edges(u[keep], v[keep], g.n, directed=True)
    function = tmf if scheme == "tmf" else edgeflip
    hits = []
    for graph, seeds in ((g, range(RUNS)), (h, range(RUNS, 2 * RUNS))):
        hits.append(sum((0, 1) in arcs(function(graph, epsilon=EPSILON, seed=s)[0]) for s in seeds))
    return hits[0], hits[1]


def counts(scheme: str) -> tuple[int, int]:
    return direct_counts(scheme) if scheme in DIRECT else two_node_counts()


@pytest.mark.parametrize("scheme", [*DIRECT, "dp_1k"])
def test_neighbouring_digraphs_lose_at_most_epsilon(scheme):
    point, lower = loss_bounds(*counts(scheme), RUNS)
    assert lower <= EPSILON, f"{scheme}: privacy loss >= {lower:.3f} (measured {point:.3f})"
    assert ALPHA < 1e-6


def test_measured_directed_losses(capsys):
    """The measured losses, for the record (``pytest -s``)."""
    with capsys.disabled():
        for scheme in (*DIRECT, "dp_1k"):
            hits_g, hits_h = counts(scheme)
            point, lower = loss_bounds(hits_g, hits_h, RUNS)
            print(
                f"\ndirected {scheme}: eps={EPSILON} Pr[a | G]={hits_g / RUNS:.4f} "
                f"Pr[a | G-a]={hits_h / RUNS:.4f} loss {point:.3f} (lower bound {lower:.3f})"
            )


# ---------------------------------------------------------------------------- identity, CLI
def test_a_directed_dp_release_that_is_g0_is_refused(tmp_path: Path, capsys):
    g = digraph()
    assert identity_reason(g, tmf(g, epsilon=50.0, seed=1).graph) == IDENTITY_OUTPUT
    assert identity_reason(g, tmf(g, epsilon=2.0, seed=1).graph) is None
    path = tmp_path / "arcs.txt"
    gv.write_edgelist(g, path, keep_ids=True, header=False)
    out = tmp_path / "pub.npz"
    line = ["anonymize", "tmf", "--directed", str(path), "-o", str(out), "--seed", "1", "-q"]
    assert main([*line, "--epsilon", "50"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and IDENTITY_OUTPUT in err and "--allow-identity" in err
    assert not out.exists()


@pytest.mark.parametrize("scheme", ["tmf", "edgeflip", "dp_dk"])
def test_anonymize_directed_on_the_command_line(scheme, tmp_path: Path, capsys):
    g = digraph()
    path = tmp_path / "arcs.txt"
    gv.write_edgelist(g, path, keep_ids=True, header=False)
    out, record = tmp_path / "pub.npz", tmp_path / "pub.record.json"
    argv = ["anonymize", scheme, "--directed", str(path), "--epsilon", "2", "-o", str(out)]
    capsys.readouterr()
    assert main([*argv, "--seed", "4", "--keep-ids", "--record", str(record), "--json"]) == 0
    ug = gv.load_uncertain(out)
    assert ug.directed and ug.n == g.n
    assert ug == registry.scheme(scheme).function(g, epsilon=2.0, seed=4).graph
    # the print policy: the JSON holds the public part of the report, nothing else
    shown = json.loads(capsys.readouterr().out)
    report = gv.load_record(record).report
    assert shown.keys() == registry.public_report(scheme, report).keys()
    assert not {"seed", "kept_edges", "added_pairs"} & shown.keys()
