"""The de-anonymization suite: percolation, reconciliation, the seedless attack, the worlds.

References, written here from the papers' pseudocode (with this package's documented choices:
the tie order, the bounds on hub pairs and noisy seeds, the rows searched only):

- percolation with ExpandWhenStuck (Kazemi, Hassani, Grossglauser, PVLDB 2015, Algorithm 2), a
  dict of marks and a heap;
- Korula-Lattanzi User-Matching (PVLDB 2014, Algorithm 1), every pair scored by brute force;
- Narayanan-Shmatikov seed identification (S&P 2009, Section 5.1), every ordered tuple of
  candidate nodes tried;
- the top-m and most-likely worlds, by sorting the pairs in Python.

Each is compared exactly with the C++ kernels on karate, small random graphs and a ca-GrQc
subgraph, under noise. The control (G0 attacking itself) must re-identify every node that has no
structural twin; the answers must not depend on the threads; bad parameters are refused.
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np
import pytest
from graph_zoo import karate_graph

import graphveil as gv
from graphveil.anonymize import maxvar
from graphveil.attack import (
    core_nodes,
    high_degree_seeds,
    percolation,
    percolation_attack,
    reconciliation,
    reconciliation_attack,
    seed_identification,
    seedless_attack,
    structural_twins,
)
from graphveil.attack.worlds import most_likely_world, top_m_world


# ----------------------------------------------------------------------------- references
def _rows(g):
    return [g.neighbors(i).tolist() for i in range(g.n)]


def ref_percolation(
    aux, target, seeds, r=2, expand=True, max_spread=None, max_noisy=None, sides=None
):
    """Percolation with ExpandWhenStuck. ``sides(g)``: g's rows, one list per side (default: its
    neighbours; a digraph's out-rows and in-rows, tests/test_attack_directed_matching.py): a
    matched pair marks the pairs of its neighbours side by side, a node's degree is the sum."""
    ts, as_ = (sides or (lambda g: [_rows(g)]))(target), (sides or (lambda g: [_rows(g)]))(aux)
    tdeg = [sum(len(side[i]) for side in ts) for i in range(target.n)]
    adeg = [sum(len(side[i]) for side in as_) for i in range(aux.n)]
    mapping, inverse = [-1] * target.n, [-1] * aux.n
    marks, spread_done, heap, matched = {}, set(), [], []
    noisy_left = [float("inf") if max_noisy is None else max_noisy]

    def touched(t, a):  # the pairs (t, a) marks
        return sum(len(ts[s][t]) * len(as_[s][a]) for s in range(len(ts)))

    def gap(x, y):
        return sum(abs(len(ts[s][x]) - len(as_[s][y])) for s in range(len(ts)))

    def spreads(t, a):
        return max_spread is None or touched(t, a) <= max_spread

    def pairs(t, a):  # unmatched pairs of one side whose nodes have degree >= r
        for s in range(len(ts)):
            for x in ts[s][t]:
                if mapping[x] < 0 and tdeg[x] >= r:
                    for y in as_[s][a]:
                        if inverse[y] < 0 and adeg[y] >= r:
                            yield x, y

    def spread(t, a):
        if spreads(t, a):
            for x, y in pairs(t, a):
                marks[x, y] = marks.get((x, y), 0) + 1
                if marks[x, y] >= r:  # most marks, then degree gap, then ids
                    heapq.heappush(heap, (-marks[x, y], gap(x, y), x, y))

    phase = []
    for t, a in sorted(map(tuple, np.asarray(seeds).tolist())):
        mapping[t], inverse[a] = a, t
        matched.append((t, a))
        spread_done.add((t, a))
        phase.append((t, a))
    expanded = 0
    while phase:
        for t, a in phase:
            spread(t, a)
        while heap:
            _, _, t, a = heapq.heappop(heap)
            if mapping[t] >= 0 or inverse[a] >= 0:
                continue
            mapping[t], inverse[a] = a, t
            matched.append((t, a))
            if (t, a) not in spread_done:
                spread_done.add((t, a))
                spread(t, a)
        phase = []
        if not expand:
            break
        while expanded < len(matched) and noisy_left[0] > 0:
            t, a = matched[expanded]
            expanded += 1
            if not spreads(t, a):
                continue
            for x, y in list(pairs(t, a)):
                if noisy_left[0] <= 0:
                    break
                if (x, y) not in spread_done:
                    spread_done.add((x, y))
                    phase.append((x, y))
                    if spreads(x, y):
                        noisy_left[0] -= touched(x, y)
    return np.array(mapping)


def _best(from_rows, to_rows, to_deg, fmap, taken, x, threshold, bound, max_row):
    """x's strictly best candidate: witnesses counted over every image row; a candidate counts
    only if it lies in a row besides the threshold - 1 longest and those longer than max_row."""
    images = sorted((fmap[w] for w in from_rows[x] if fmap[w] >= 0), key=lambda y: (-to_deg[y], y))
    if len(images) < threshold:
        return -1
    big = threshold - 1
    while big < len(images) and max_row is not None and to_deg[images[big]] > max_row:
        big += 1
    found = {c for y in images[big:] for c in to_rows[y]}
    score = {}
    for c in found:
        if taken[c] < 0 and to_deg[c] >= bound:
            score[c] = sum(c in to_rows[y] for y in images)
    if not score:
        return -1
    top = max(score.values())
    best = [c for c, s in score.items() if s == top]
    return best[0] if top >= threshold and len(best) == 1 else -1


def ref_reconciliation(aux, target, seeds, threshold=2, iterations=10, max_row=None):
    tdeg, adeg = target.degrees.tolist(), aux.degrees.tolist()
    tn, an = _rows(target), _rows(aux)
    mapping, inverse = [-1] * target.n, [-1] * aux.n
    for t, a in np.asarray(seeds).tolist():
        mapping[t], inverse[a] = a, t
    top = max([*tdeg, *adeg, 1])
    buckets = [j for j in range(top.bit_length() - 1, 0, -1)]  # floor(log2 D) .. 1
    for _ in range(iterations):
        added_in_pass = 0
        for j in buckets:
            bound = 1 << j
            fwd = {
                t: _best(tn, an, adeg, mapping, inverse, t, threshold, bound, max_row)
                for t in range(target.n)
                if mapping[t] < 0 and tdeg[t] >= bound
            }
            back = {
                a: _best(an, tn, tdeg, inverse, mapping, a, threshold, bound, max_row)
                for a in set(fwd.values()) - {-1}
            }
            for a, t in back.items():
                if t >= 0 and fwd[t] == a:
                    mapping[t], inverse[a] = a, t
                    added_in_pass += 1
        if not added_in_pass:
            break
    return np.array(mapping)


def ref_seed_identification(aux, target, size, tolerance, attempts=10):
    deg = aux.degrees.tolist()
    hubs = sorted(range(aux.n), key=lambda c: (-deg[c], c))[:attempts]
    for start in hubs:
        if deg[start] == 0:
            break
        # the hub's clique, greedily (as documented)
        clique = [start]
        common = set(aux.neighbors(start).tolist())
        while len(clique) < size and common:
            nxt = min(common, key=lambda c: (-deg[c], c))
            clique.append(nxt)
            common &= set(aux.neighbors(nxt).tolist())
        found = _ref_clique_matches(aux, target, clique, tolerance)
        if len(found) == 1:
            return np.column_stack([found[0], clique]).astype(np.int64)
    return np.zeros((0, 2), dtype=np.int64)


def _ref_clique_matches(aux, target, clique, tolerance):
    k = len(clique)
    arow = [set(aux.neighbors(a).tolist()) for a in range(aux.n)]
    trow = [set(target.neighbors(t).tolist()) for t in range(target.n)]
    want_deg = [len(arow[a]) for a in clique]
    want = [[len(arow[a] & arow[b]) for b in clique] for a in clique]

    def close(x, w):
        return abs(x - w) <= tolerance * w

    cands = [[t for t in range(target.n) if close(len(trow[t]), want_deg[i])] for i in range(k)]
    found = []
    for tup in itertools.product(*cands):
        if len(set(tup)) < k:
            continue
        if all(
            tup[j] in trow[tup[i]] and close(len(trow[tup[i]] & trow[tup[j]]), want[i][j])
            for i in range(k)
            for j in range(i)
        ):
            found.append(tup)
    return found


# ----------------------------------------------------------------------------- cases
def _grqc_subgraph(size=400):
    g = gv.datasets.load("ca-GrQc")
    core = core_nodes(g, 1)
    top = core[np.argsort(-g.degrees[core], kind="stable")[:size]]
    sub = g.subgraph(np.sort(top))
    return sub.subgraph(core_nodes(sub, 1))


def _case(case):
    """(aux, target, truth, seeds): a permuted, noisy copy of a small graph."""
    rng = np.random.default_rng(case)
    if case == 0:
        g = karate_graph()
    elif case == 1:
        g = _grqc_subgraph()
    else:
        g = gv.generators.powerlaw_cluster(120, 3, 0.4, seed=case)
    perm = rng.permutation(g.n)
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g.n)
    u, v = g.edges()
    keep = rng.random(u.size) >= (0.0 if case % 2 == 0 else 0.1)  # half the cases noisy
    target = gv.Graph.from_edges(perm[u[keep]], perm[v[keep]], g.n)
    k = max(2, g.n // 25)
    seeds = high_degree_seeds(g, truth, k, seed=case) if case % 3 else _uniform(g, truth, k, rng)
    return g, target, truth, seeds


def _uniform(g, truth, k, rng):
    owner = np.empty_like(truth)
    owner[truth] = np.arange(truth.size)
    chosen = np.sort(rng.choice(np.flatnonzero(g.degrees > 0), k, replace=False))
    return np.column_stack([owner[chosen], chosen])


CASES = range(5)


@pytest.mark.parametrize("r", [1, 2, 3])
@pytest.mark.parametrize("expand", [True, False])
@pytest.mark.parametrize("bounds", [(None, None), (40, 300)], ids=["paper", "bounded"])
@pytest.mark.parametrize("case", CASES)
def test_percolation_matches_python_reference(case, r, expand, bounds):
    aux, target, truth, seeds = _case(case)
    max_spread, max_noisy = bounds
    got = percolation(
        aux,
        target,
        seeds,
        r=r,
        expand_when_stuck=expand,
        max_spread=max_spread,
        max_noisy=max_noisy,
    )
    want = ref_percolation(aux, target, seeds, r, expand, max_spread, max_noisy)
    np.testing.assert_array_equal(got, want)
    assert (got[seeds[:, 0]] == seeds[:, 1]).all()
    mapped = got[got >= 0]
    assert np.unique(mapped).size == mapped.size  # a matching


@pytest.mark.parametrize("threshold", [1, 2, 3])
@pytest.mark.parametrize("max_row", [None, 6])
@pytest.mark.parametrize("case", CASES)
def test_reconciliation_matches_python_reference(case, threshold, max_row):
    aux, target, truth, seeds = _case(case)
    want = ref_reconciliation(aux, target, seeds, threshold, 10, max_row)
    for threads in (1, 3):
        got = reconciliation(
            aux, target, seeds, threshold=threshold, max_row=max_row, threads=threads
        )
        np.testing.assert_array_equal(got, want)
    if threshold >= 2 and case % 2 == 0:  # no noise: what it maps is right
        mapped = np.flatnonzero(want >= 0)
        assert (want[mapped] == truth[mapped]).all()


def test_reconciliation_passes_stop_when_nothing_changes():
    aux, target, _, seeds = _case(2)
    one = reconciliation(aux, target, seeds, iterations=1)
    many = reconciliation(aux, target, seeds, iterations=50)
    np.testing.assert_array_equal(many, ref_reconciliation(aux, target, seeds, 2, 50))
    assert (one >= 0).sum() <= (many >= 0).sum()


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("tolerance", [0.0, 0.1, 0.3])
@pytest.mark.parametrize("attempts", [1, 10])
@pytest.mark.parametrize("case", [0, 2, 4])
def test_seed_identification_matches_brute_force(case, size, tolerance, attempts):
    aux, target, truth, _ = _case(case)
    got = seed_identification(aux, target, size=size, tolerance=tolerance, attempts=attempts)
    want = ref_seed_identification(aux, target, size, tolerance, attempts)
    np.testing.assert_array_equal(got, want)
    if got.size and tolerance == 0.0 and case % 2 == 0:  # exact copy: a unique match is right
        assert (truth[got[:, 0]] == got[:, 1]).all()


def test_seed_identification_finds_grqc_hubs_and_refuses_ambiguity():
    g = gv.datasets.load("ca-GrQc")
    aux, (target, truth) = g, _permuted(g, 7)
    found = seed_identification(aux, target)
    assert found.shape == (4, 2) and (truth[found[:, 0]] == found[:, 1]).all()
    # a star: every leaf looks alike, so the 2-clique (hub, leaf) is ambiguous: no seeds
    star = gv.Graph.from_edges([0] * 6, range(1, 7))
    assert seed_identification(star, star, size=2).shape == (0, 2)
    assert seed_identification(star, star, size=1).tolist() == [[0, 0]]
    # two equal hubs (twins): the first clique is ambiguous, the next hub's is not
    u = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 4]
    v = [1, 2, 3, 5, 2, 3, 5, 3, 4, 6, 6, 6]
    g = gv.Graph.from_edges(u, v)
    assert seed_identification(g, g, size=2, attempts=1).shape == (0, 2)
    assert seed_identification(g, g, size=2).shape == (2, 2)


def _permuted(g, seed):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(g.n)
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g.n)
    u, v = g.edges()
    return gv.Graph.from_edges(perm[u], perm[v], g.n), truth


# ----------------------------------------------------------------------------- the worlds
def test_worlds_against_sorting():
    rng = np.random.default_rng(3)
    n = 30
    iu, iv = np.triu_indices(n, 1)
    pick = rng.choice(iu.size, 120, replace=False)
    p = rng.integers(0, 5, pick.size) / 4  # ties and zeros
    ug = gv.UncertainGraph(n, iu[pick], iv[pick], p)
    ids = rng.permutation(n)
    for m in (0, 10, 50, 200):
        pairs = sorted(
            (
                (-q, min(ids[a], ids[b]), max(ids[a], ids[b]), a, b)
                for a, b, q in zip(iu[pick], iv[pick], p)
                if q > 0
            )
        )[:m]
        want = sorted((int(a), int(b)) for *_, a, b in pairs)
        got = top_m_world(ug, m, ids=ids)
        assert sorted(zip(*(x.tolist() for x in got.edges()))) == want
    likely = most_likely_world(ug)
    assert likely.m == int((p >= 0.5).sum())


# ----------------------------------------------------------------------------- the control
@pytest.fixture(scope="module")
def grqc():
    return gv.datasets.load("ca-GrQc")


@pytest.mark.parametrize("attack", ["percolation", "reconciliation", "seedless"])
def test_control_reaches_the_twin_ceiling(grqc, attack):
    # G0 against itself with hidden ids: every core node without a structural twin is mapped
    # right (a twin is matched only by a guess), in the three worlds, which are all G0
    if attack == "percolation":
        r = percolation_attack(grqc, grqc, seed_fractions=[0.01], seed=2)
    elif attack == "reconciliation":
        r = reconciliation_attack(grqc, grqc, seeds=50, seed_nodes="hubs", seed=2)
    else:
        r = seedless_attack(grqc, grqc, seed=2)
    rates = [x.core for x in r.rates]
    assert all(x == rates[0] for x in rates)  # one world, G0
    core = rates[0]
    assert core.twins == pytest.approx(0.235, abs=0.01)  # seeds left out
    if attack == "reconciliation":  # strict best both ways: no guess, so no mistake
        assert core.wrong == 0.0 and core.correct + core.twins > 0.85
    elif attack == "seedless":  # four clique seeds, then propagation, which never guesses
        assert core.wrong == 0.0 and core.correct + core.twins > 0.9
    else:  # percolation guesses among twins: every mistake is a twin's
        assert core.correct + core.twins > 0.99 and core.wrong < core.twins


def test_control_mistakes_are_mostly_twins(grqc):
    target, truth = _permuted(grqc, 5)
    seeds = high_degree_seeds(grqc, truth, 50, seed=5)
    mapping = percolation(grqc, target, seeds)
    twins = structural_twins(grqc)[truth]  # by target node
    wrong = (mapping >= 0) & (mapping != truth)
    # greedy: a near-twin (neighbourhoods one node apart) can take the other's place first
    assert wrong.any() and twins[wrong].mean() > 0.9
    core = np.isin(truth, core_nodes(grqc))
    assert (mapping[core & ~twins] == truth[core & ~twins]).mean() > 0.95


def test_attacks_rank_an_anonymized_release_below_the_control(grqc):
    ug, _ = maxvar(grqc, n_potential=grqc.m // 2, parts=1, seed=4)
    for run in (percolation_attack, reconciliation_attack):
        control = run(grqc, grqc, seed_fractions=[0.02], seed=4)
        attacked = run(grqc, ug, seed_fractions=[0.02], seed=4)
        for world in ("sampled", "most_likely", "top_m"):
            assert attacked.rate(world).correct < control.rate(world).correct


def test_the_sweep_and_the_report(grqc):
    r = percolation_attack(grqc, grqc, seed=1)
    counts = sorted({x.seeds for x in r.rates})
    assert counts == [round(f * grqc.n) for f in (0.005, 0.01, 0.02, 0.05)]
    assert [x.world for x in r.rates[:3]] == ["sampled", "most_likely", "top_m"]
    for x in r.rates:  # seeds left out of the scored nodes
        assert x.every.nodes == grqc.n - x.seeds
    d = r.as_dict()
    assert d["attack"] == "percolation" and len(d["rates"]) == 12 and d["parameters"]["r"] == 2
    text = gv.attack.deanonymization.deanonymization_table(r)
    assert "top_m" in text and "accuracy" in text and "twins" in text


# ----------------------------------------------------------------------------- threads, seeds
@pytest.mark.parametrize("attack", [percolation_attack, reconciliation_attack, seedless_attack])
def test_same_seed_same_result_on_any_thread_count(attack):
    g = gv.datasets.load("karate_club")
    ug, _ = maxvar(g, n_potential=40, parts=1, seed=1)
    kwargs = {} if attack is seedless_attack else {"seed_fractions": [0.1, 0.2]}
    one = attack(g, ug, seed=9, threads=1, **kwargs)
    many = attack(g, ug, seed=9, threads=4, **kwargs)
    assert one == many
    twins = structural_twins(g)
    assert attack(g, ug, seed=9, threads=2, g0_twins=twins, **kwargs) == one


def test_directed_release_attacked_on_its_arcs_or_on_the_undirected_graphs():
    # directed percolation and reconciliation: tests/test_attack_directed_matching.py
    g = gv.Graph.from_edges([0, 1, 2, 2, 3, 4, 5, 1], [1, 2, 0, 3, 4, 5, 3, 0], directed=True)
    u = g.to_undirected()
    for attack in (percolation_attack, reconciliation_attack):
        assert attack(g, g, seeds=2, seed=1, min_degree=1).directed
        dropped = attack(g, g, seeds=2, seed=1, min_degree=1, directed=False)
        assert dropped == attack(u, u, seeds=2, seed=1, min_degree=1)


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g: percolation(g, g, [[0, 0]], r=0), "r must be >= 1"),
        (lambda g: percolation(g, g, [[0, 0]], max_spread=0), "max_spread must be >= 1"),
        (lambda g: percolation(g, g, [[0, 0]], max_noisy=-1), "max_noisy must be >= 1"),
        (lambda g: percolation(g, g, [[0, 0], [1, 0]]), "seeds repeat a aux node"),
        (lambda g: reconciliation(g, g, [[0, 0]], threshold=0), "threshold must be >= 1"),
        (lambda g: reconciliation(g, g, [[0, 0]], iterations=0), "iterations must be >= 1"),
        (lambda g: reconciliation(g, g, [[0, 0]], max_row=0), "max_row must be >= 1"),
        (lambda g: seed_identification(g, g, size=0), "size must be >= 1"),
        (lambda g: seed_identification(g, g, tolerance=1.0), "tolerance must lie in"),
        (lambda g: seed_identification(g, g, attempts=0), "attempts must be >= 1"),
        (lambda g: percolation_attack(g, g, seed_fractions=[0.0]), "seed fraction must lie"),
        (lambda g: percolation_attack(g, g, seed_fractions=[1.5]), "seed fraction must lie"),
        (lambda g: percolation_attack(g, g, seed_fractions=[]), "at least one fraction"),
        (lambda g: percolation_attack(g, g, seeds=-1), "seeds must be >= 0"),
        (lambda g: percolation_attack(g, g, seed_nodes="all"), "seed_nodes must be one of"),
        (lambda g: reconciliation_attack(g, g, worlds=["best"]), "worlds must be some of"),
        (lambda g: seedless_attack(g, g, theta=-1.0), "theta must lie in"),
        (lambda g: seedless_attack(g, g, attempts=0), "attempts must be >= 1"),
        (lambda g: percolation_attack(g, gv.Graph.from_edges([0], [1], 3)), "same nodes"),
        (lambda g: percolation_attack(g, g, seeds=g.n + 1), "seeds asked for"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(call, message):
    g = karate_graph()
    with pytest.raises(ValueError, match=message) as err:
        call(g)
    assert "\n" not in str(err.value)


def test_cli_runs_each_attack_and_refuses_bad_options(tmp_path, capsys):
    import json

    from graphveil.cli import main

    g0 = gv.datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=40, parts=1, seed=1)
    path = tmp_path / "ug.npz"
    ug.save(path, keep_ids=True)
    base = ["attack", "--dataset", "karate_club", str(path), "--seed", "3"]
    for name, extra, direct in (
        ("percolation", ["--seed-fractions", "0.1,0.2"], percolation_attack),
        ("reconciliation", ["--seeds", "5", "--seed-nodes", "hubs"], reconciliation_attack),
        ("seedless", ["--size", "3"], seedless_attack),
    ):
        out = tmp_path / f"{name}.json"
        argv = [base[0], name, *base[1:], *extra, "--json", str(out)]
        assert main(argv) == 0
        assert "top_m" in capsys.readouterr().out
        data = json.loads(out.read_text())
        kwargs = {
            "percolation": {"seed_fractions": (0.1, 0.2)},
            "reconciliation": {"seeds": 5, "seed_nodes": "hubs"},
            "seedless": {"size": 3},
        }[name]
        want = direct(g0, ug, seed=3, **kwargs)
        assert [(x["world"], x["seeds"], x["core"]["correct"]) for x in data["rates"]] == [
            (x.world, x.seeds, x.core.correct) for x in want.rates
        ]
    for name, bad in (("percolation", ["--r", "0"]), ("reconciliation", ["--threshold", "0"])):
        assert main([base[0], name, *base[1:], *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "must be >= 1" in err
    with pytest.raises(SystemExit) as exit_:
        main([base[0], "percolation", *base[1:], "--seed-fractions", "x"])
    assert exit_.value.code == 2
    assert "fractions separated by commas" in capsys.readouterr().err


def test_percolation_refuses_seeds_that_cannot_spread():
    # Every seed pair above max_spread marks nothing: a 0 would be no measurement (email-Enron's
    # hub seeds under the old bound of 10^4), so it is refused, and one seed below it suffices.
    g = gv.Graph.from_edges([0, 0, 0, 1, 1, 2, 3], [1, 2, 3, 2, 3, 3, 4])
    with pytest.raises(ValueError, match="none would spread a mark"):
        percolation(g, g, [[0, 0], [1, 1]], max_spread=8, refuse_stalled=True)
    assert percolation(g, g, [[0, 0], [4, 4]], max_spread=8, refuse_stalled=True)[4] == 4
    with pytest.raises(ValueError, match="none would spread a mark"):  # the attack asks for it
        percolation_attack(g, g, seeds=2, seed_nodes="hubs", max_spread=8, seed=1)
