"""scoring="authors" against a plain-Python port of the authors' scoring scripts.

The references port, line by line and independently of graphveil's kernels, the authors'
``graph-dp/compare/attack_structure_igraph.py`` (``equivalence_class_H1``,
``equivalence_class_H2_open``, ``bucket_H2``, ``list_comparator``),
``incorrectness_measure_igraph.py`` / ``incorrectness_measure_multigraph.py``
(``incorrectness_H1``, ``incorrectness_H2_open`` with its binary search),
``src/entropy_obfuscation_igraph.py`` (``compute_X_sparse``, ``compute_Y_sparse``,
``compute_entropy_sparse``, ``compute_eps_multi``), ``src/entropy_obfuscation.py``
(``compute_eps_deterministic_multi``) and ``utility_measure_igraph.py``
(``power_law_estimate``: ``powerlaw.Fit`` on the pooled degrees). They score the very worlds
graphveil scored (redrawn from the report's sample seed) on ca-GrQc.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings

import networkx as nx
import numpy as np
import pytest

import graphveil as gv
from graphveil import evaluate
from graphveil.anonymize import maxvar, obfuscation, randwalk, randwalk_mod
from graphveil.measure import Original, Report
from graphveil.measure.scoring import (
    SCORINGS,
    authors_eps,
    authors_h2_open,
    authors_h2_signatures,
    scoring,
)

K = (30, 50, 100)


# ------------------------------------------------------------------ the port
def list_comparator(x: list[int], y: list[int]) -> int:
    for a, b in zip(x, y):
        if a < b:
            return -1
        if a > b:
            return 1
    return (len(x) > len(y)) - (len(x) < len(y))


def equivalence_class_h2_open(adj: list[list[int]], deg: list[int]) -> list[tuple[int, list[int]]]:
    """Their loop, ``del`` and all; ``adj[u]`` lists u's distinct neighbours."""
    h2 = {}
    for u in range(len(adj)):
        lst = sorted(deg[v] for v in adj[u])
        i = 1
        while i < len(lst) - 1:
            if lst[i - 1] == lst[i]:
                del lst[i - 1]
            else:
                i += 1
        h2[u] = lst
    items = list(h2.items())
    return sorted(items, key=functools.cmp_to_key(lambda a, b: list_comparator(a[1], b[1])))


def bucket_h2(h2_list: list[tuple[int, list[int]]]) -> tuple[list[list[int]], list[list[int]]]:
    sig_list: list[list[int]] = []
    bucket_list: list[list[int]] = []
    for u, lst in h2_list:
        if sig_list and list_comparator(sig_list[-1], lst) == 0:
            bucket_list[-1].append(u)
        else:
            sig_list.append(lst)
            bucket_list.append([u])
    return sig_list, bucket_list


def incorrectness_h2_open(before: tuple, after: tuple) -> float:
    sig_b, bucket_b = bucket_h2(equivalence_class_h2_open(*before))
    sig_a, bucket_a = bucket_h2(equivalence_class_h2_open(*after))
    re_prob: dict[int, float] = {}
    for id_b, s_b in enumerate(sig_b):
        lo, hi = 0, len(sig_a) - 1
        while True:  # their binary search
            mid = (lo + hi) // 2
            s_a = sig_a[mid]
            if list_comparator(s_a, s_b) == 0:
                set_a = set(bucket_a[mid])
                for u in bucket_b[id_b]:
                    re_prob[u] = 1.0 / len(set_a) if u in set_a else 0.0
                break
            if list_comparator(s_b, s_a) < 0:
                hi = mid - 1
                if hi < lo:
                    break
            if list_comparator(s_b, s_a) > 0:
                lo = mid + 1
                if lo > hi:
                    break
    # Python 2 summed a dict in an unspecified order: the exactly rounded sum is order-free
    return math.fsum(re_prob.values())


def incorrectness_h1(deg_b: list[int], deg_a: list[int]) -> float:
    buckets_a: dict[int, set[int]] = {}
    for u, d in enumerate(deg_a):
        buckets_a.setdefault(d, set()).add(u)
    re_prob = {}
    for u, d in enumerate(deg_b):
        if d in buckets_a:
            re_prob[u] = 1.0 / len(buckets_a[d]) if u in buckets_a[d] else 0.0
    return math.fsum(re_prob.values())


def h2_count(adj: list[list[int]], deg: list[int]) -> int:
    return len(bucket_h2(equivalence_class_h2_open(adj, deg))[0])


def compute_eps_multi(deg0: list[int], n: int, pairs: list[tuple[int, int, float]], ks) -> list:
    """compute_X_sparse / compute_Y_sparse / compute_entropy_sparse / compute_eps_multi."""
    nbrs: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for u, v, p in pairs:
        nbrs[u].append((v, p))
        nbrs[v].append((u, p))
    for lst in nbrs:
        lst.sort()  # igraph lists neighbours by id
    deg_list = [len(lst) for lst in nbrs]
    max_deg = max(deg_list)
    x = []
    for v in range(n):
        row = [0.0] * (deg_list[v] + 1)
        adj = nbrs[v]
        if not adj:
            row[0] = 1.0
        elif len(adj) > 5000:
            row = [1.0 / (deg_list[v] + 1)] * (deg_list[v] + 1)
        else:
            d = [[0.0] * (deg_list[v] + 1) for _ in range(2)]
            p = adj[0][1]
            d[0][0] = 1.0 - p
            d[0][1] = p
            for ll in range(2, len(adj) + 1):
                p = adj[ll - 1][1]
                d[1][0] = d[0][0] * (1.0 - p)
                for j in range(1, ll + 1):
                    d[1][j] = d[0][j - 1] * p + d[0][j] * (1.0 - p)
                for j in range(ll + 1):
                    d[0][j] = d[1][j]
            row = list(d[0])
        x.append(row)
    s = [0.0] * (max_deg + 1)
    for i in range(n):
        for j in range(deg_list[i] + 1):
            s[j] += x[i][j]
    ent = [0.0] * (max_deg + 1)
    for i in range(n):
        for j in range(deg_list[i] + 1):
            y = x[i][j] / s[j] if s[j] > 0 else -1.0 / n
            if y > 0.000001:
                ent[j] += -y * math.log(y, 2)
    out = []
    for k in ks:
        log2k = math.log(k, 2)
        violated = sum(1 for d in deg0 if d <= max_deg and ent[d] > 0.0 and ent[d] < log2k)
        out.append(float(violated) / n)
    return out


def compute_eps_deterministic_multi(deg0: list[int], deg_world: list[int], ks) -> list:
    max_deg = max(deg_world)
    count = [0] * (max_deg + 1)
    for d in deg_world:
        count[d] += 1
    ent = [math.log(c, 2) if c > 0 else 0.0 for c in count]
    out = []
    for k in ks:
        log2k = math.log(k, 2)
        violated = sum(1 for d in deg0 if d <= max_deg and ent[d] > 0.0 and ent[d] < log2k)
        out.append(float(violated) / len(deg_world))
    return out


def power_law_estimate(deg_list: list[int]) -> float:
    import powerlaw

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(powerlaw.Fit(np.array(deg_list)).power_law.alpha)


def simple_view(n: int, u, v) -> tuple[list[list[int]], list[int]]:
    adj: list[set[int]] = [set() for _ in range(n)]
    for a, b in zip(u.tolist(), v.tolist()):
        adj[a].add(b)
        adj[b].add(a)
    return [sorted(s) for s in adj], [len(s) for s in adj]


def multigraph_view(n: int, u, v) -> tuple[list[list[int]], list[int]]:
    """networkx MultiGraph: degrees count copies and a loop twice, neighbours are distinct."""
    mg = nx.MultiGraph()
    mg.add_nodes_from(range(n))
    mg.add_edges_from(zip(u.tolist(), v.tolist()))
    deg = dict(mg.degree())
    return [sorted(mg.neighbors(w)) for w in range(n)], [deg[w] for w in range(n)]


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


@pytest.fixture(scope="module")
def g0_view(grqc: gv.Graph) -> tuple[list[list[int]], list[int]]:
    return simple_view(grqc.n, *grqc.edges())


# ------------------------------------------------------------------ the lists themselves
@pytest.mark.parametrize(
    "degrees, expected",
    [
        ([1, 2, 3, 3], [1, 2, 3, 3]),
        ([1, 1, 2], [1, 2]),
        ([3, 3, 3], [3, 3]),
        ([1, 1, 2, 2, 3], [1, 2, 3]),
        ([2, 2], [2, 2]),
        ([5], [5]),
    ],
)
def test_signature_is_their_list(degrees: list[int], expected: list[int]) -> None:
    # a star whose centre 0 has leaves of the given degrees (each leaf w gets d - 1 pendants)
    u, v = [], []
    nxt = 1 + len(degrees)
    for i, d in enumerate(degrees, start=1):
        u.append(0)
        v.append(i)
        for _ in range(d - 1):
            u.append(i)
            v.append(nxt)
            nxt += 1
    g = gv.Graph.from_edges(u, v, nxt)
    adj, deg = simple_view(g.n, *g.edges())
    assert equivalence_class_h2_open(adj, deg)[-1][1] is not None  # the port runs
    port = dict(equivalence_class_h2_open(adj, deg))[0]
    assert port == expected
    key = authors_h2_signatures(g)[0]
    assert key[0] == int(len(expected) > len(set(expected)))
    assert np.frombuffer(key[1:], dtype=np.int64).tolist() == sorted(set(expected))


def test_h2_open_of_random_graphs_matches_the_port() -> None:
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(3, 30))
        g0, g1 = (nx.gnp_random_graph(n, 0.25, seed=int(rng.integers(1 << 30))) for _ in "01")
        g0, g1 = (gv.Graph.from_edges(*zip(*g.edges()), n) if g.edges() else
                  gv.Graph.from_edges([], [], n) for g in (g0, g1))  # fmt: skip
        before, after = simple_view(n, *g0.edges()), simple_view(n, *g1.edges())
        assert authors_h2_open(g0, g1) == incorrectness_h2_open(before, after)
        assert authors_h2_open(g0, g0) == h2_count(*before)


# ------------------------------------------------------------------ ca-GrQc, stored graphs
def _check_worlds(g: gv.Graph, report: Report, worlds: list, g0_view, multigraph: bool) -> None:
    view = multigraph_view if multigraph else simple_view
    deg_b = g0_view[1]
    pooled: list[int] = []
    for i, (u, v) in enumerate(worlds):
        after = view(g.n, u, v)
        row = report.per_sample[i]
        assert row["H2_open"] == incorrectness_h2_open(g0_view, after)
        # graphveil's H1 kernel sums in its own order: equal to the last bit or two
        assert row["H1"] == pytest.approx(incorrectness_h1(deg_b, after[1]), rel=1e-13, abs=0)
        pooled += after[1]
    assert report.original["H2_open"] == h2_count(*g0_view)
    # graphveil's fit and the powerlaw package's sum their logarithms in their own orders
    assert report.mean["S_PL"] == pytest.approx(power_law_estimate(pooled), rel=1e-13, abs=0)
    g0_pairs = [(a, b, 1.0) for a, b in zip(*(x.tolist() for x in g.edges()))]
    assert list(report.eps_original.values()) == compute_eps_multi(deg_b, g.n, g0_pairs, K)


def test_maxvar_release_scored_as_the_authors(grqc: gv.Graph, g0_view) -> None:
    ug, _ = maxvar(grqc, n_potential=round(0.19 * grqc.m), parts=1, seed=2)
    report = evaluate(grqc, ug, samples=3, seed=5, scoring="authors")
    worlds = [ug.sample_edges(report.sample_seed, index=i) for i in range(3)]
    _check_worlds(grqc, report, worlds, g0_view, multigraph=False)
    pairs = list(zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()))
    assert list(report.eps.values()) == compute_eps_multi(g0_view[1], grqc.n, pairs, K)
    # the default scores the same worlds otherwise: true sets, every failing node
    default = evaluate(grqc, ug, samples=3, seed=5)
    assert default.original["H2_open"] != report.original["H2_open"]
    assert all(default.eps[k] >= report.eps[k] for k in K)


def test_obfuscation_release_eps_as_the_authors(grqc: gv.Graph, g0_view) -> None:
    ug, _ = obfuscation(grqc, k=50, eps=0.1, sigma=0.01, seed=3, attempts=1, variant="authors")
    pairs = list(zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()))
    assert list(authors_eps(grqc, ug, K).values()) == compute_eps_multi(
        g0_view[1], grqc.n, pairs, K
    )


def test_randwalk_mod_multigraph_scored_as_the_authors(grqc: gv.Graph, g0_view) -> None:
    out = randwalk_mod(grqc, t=3, seed=4)
    ug = out.graph
    assert ug.relaxed and np.count_nonzero(ug.u == ug.v) > 0  # loops and copies to score
    report = evaluate(grqc, ug, samples=2, seed=1, scoring="authors")
    _check_worlds(grqc, report, [(ug.u, ug.v)], g0_view, multigraph=True)
    world_deg = multigraph_view(grqc.n, ug.u, ug.v)[1]
    assert list(report.eps.values()) == compute_eps_deterministic_multi(g0_view[1], world_deg, K)


def test_randwalk_output_eps_as_the_authors(grqc: gv.Graph, g0_view) -> None:
    # a deterministic simple output read with p = 1: their summed entropies, ties at c = k included
    for seed in range(3):
        ug = randwalk(grqc, t=2, seed=seed).graph
        pairs = [(a, b, 1.0) for a, b in zip(ug.u.tolist(), ug.v.tolist())]
        expected = compute_eps_multi(g0_view[1], grqc.n, pairs, K)
        assert list(authors_eps(grqc, ug, K).values()) == expected


# ------------------------------------------------------------------ the registry and its wiring
def test_registry_names_the_two_scorings() -> None:
    assert list(SCORINGS) == ["corrected", "authors"]
    assert scoring().name == "corrected"
    assert scoring("authors").obfuscation_variant == "authors"
    with pytest.raises(ValueError, match="scoring must be one of"):
        scoring("theirs")


def test_original_and_report_carry_the_scoring(grqc: gv.Graph) -> None:
    g = gv.datasets.load("karate_club")
    ref = Original(g, k=10, scoring="authors")
    ug = randwalk(g, t=2, seed=1).graph
    with pytest.raises(ValueError, match="scored 'authors'"):
        evaluate(g, ug, samples=1, seed=1, k=10, original=ref)
    report = evaluate(g, ug, samples=1, seed=1, k=10, original=ref, scoring="authors")
    assert report.scoring == "authors" and report.to_dict()["scoring"] == "authors"
    assert Report.from_dict(report.to_dict()).to_dict() == report.to_dict()
    assert "scoring" not in evaluate(g, ug, samples=1, seed=1, k=10).to_dict()
    directed = gv.Graph.from_edges([0, 1], [1, 2], 3, directed=True)
    with pytest.raises(ValueError, match="undirected"):
        Original(directed, k=2, scoring="authors")


def test_eps_ties_are_decided_as_their_code_decided_them() -> None:
    # a star: three leaves of degree 1 (entropy log2 3 at k = 3), the centre unique (skipped)
    star = gv.Graph.from_edges([0, 0, 0], [1, 2, 3], 4)
    # compute_eps_multi sums three terms -(1/3) log2(1/3): just below math.log(3, 2), so the
    # leaves fail; compute_eps_deterministic_multi takes math.log(3, 2) itself: they pass
    assert authors_eps(star, star, 3) == {3: 0.75}
    pairs = [(0, w, 1.0) for w in (1, 2, 3)]
    assert compute_eps_multi([3, 1, 1, 1], 4, pairs, [3]) == [0.75]
    relaxed = gv.UncertainGraph(4, [0, 0, 0], [1, 2, 3], [1.0] * 3, relaxed=True)
    assert authors_eps(star, relaxed, 3) == {3: 0.0}
    assert compute_eps_deterministic_multi([3, 1, 1, 1], [3, 1, 1, 1], [3]) == [0.0]
    # graphveil's corrected eps: the leaves pass (tolerance), the unique centre fails
    assert gv.measure.eps(star, star, 3) == 0.25


def test_eps_of_small_uncertain_graphs_matches_the_port() -> None:
    # probabilities 0, 1, tiny (their Y <= 1e-6 floor) and in between, pairs at every node
    rng = np.random.default_rng(9)
    choices = np.array([0.0, 1.0, 1e-8, 3e-7, 0.5, 0.9, 0.2])
    for _ in range(40):
        n = int(rng.integers(4, 25))
        g0 = nx.gnp_random_graph(n, 0.3, seed=int(rng.integers(1 << 30)))
        u, v = np.triu_indices(n, 1)
        pick = rng.random(u.size) < 0.4
        u, v = u[pick], v[pick]
        p = choices[rng.integers(0, choices.size, u.size)]
        if u.size == 0:
            continue
        ug = gv.UncertainGraph(n, u, v, p)
        graph0 = (
            gv.Graph.from_edges(*zip(*g0.edges()), n)
            if g0.edges()
            else gv.Graph.from_edges([], [], n)
        )
        deg0 = graph0.degrees.tolist()
        ks = [2, 3, 5]
        expected = compute_eps_multi(deg0, n, list(zip(u.tolist(), v.tolist(), p.tolist())), ks)
        assert list(authors_eps(graph0, ug, ks).values()) == expected


# ------------------------------------------------------------------ the scheme variant, the study, the CLI
def test_obfuscation_variant_authors_excludes_ceil_eps_n() -> None:
    g = gv.datasets.load("karate_club")
    runs = {
        variant: obfuscation(g, k=2, eps=0.3, sigma=0.5, seed=1, variant=variant).report
        for variant in ("boldi", "authors")
    }
    # Boldi: ceil(0.3 * 34 / 2) = 6 nodes in H, 5 tries; the authors: ceil(0.3 * 34) = 11, 3 tries
    assert (runs["boldi"]["excluded"], runs["authors"]["excluded"]) == (6, 11)
    assert [len(r["history"][0]["eps_hat"]) for r in runs.values()] == [5, 3]
    assert runs["authors"]["params"]["variant"] == "authors"
    assert "variant" not in runs["boldi"]["params"]  # the default's params are unchanged
    with pytest.raises(ValueError, match="variant must be one of"):
        obfuscation(g, k=2, eps=0.3, sigma=0.5, seed=1, variant="paper")


def test_study_scored_as_the_authors_is_its_own(tmp_path) -> None:
    from graphveil.experiments import StudyConfig, reproduce

    g = gv.datasets.load("karate_club")
    kwargs = dict(
        schemes=["obfuscation", "randwalk_mod"],
        grid={"obfuscation": [0.5], "randwalk_mod": [2]},
        figures=False,
        out_dir=tmp_path,
    )
    default_config = StudyConfig(samples=2, k=(5,), attacks=False)
    authors = dataclasses.replace(default_config, scoring="authors")
    said: list[str] = []
    study = reproduce(g, authors, progress=said.append, **kwargs)
    text = (tmp_path / "study.md").read_text()
    assert "Scored with the authors' scoring" in text
    obf = study.scheme_rows("obfuscation")[0]
    assert obf["scheme_report"]["excluded"] == math.ceil(0.1 * g.n)  # the study's eps = 0.1
    rw = study.scheme_rows("randwalk_mod")[0]
    assert rw["S_PL"] == rw["extra_S_PL_pooled"]  # the runs' degrees pooled
    assert study.original["H2_open"] == len(set(authors_h2_signatures(g)))
    # the authors' scoring reuses its recorded points; the default does not reuse them
    said.clear()
    reproduce(g, authors, progress=said.append, **kwargs)
    assert sum("reused" in line for line in said) == 2
    said.clear()
    default = reproduce(g, default_config, progress=said.append, **kwargs)
    assert not any("reused" in line for line in said)
    # Boldi's H: ceil(0.1 n / 2) = 2 nodes
    assert default.scheme_rows("obfuscation")[0]["scheme_report"]["excluded"] == 2
    assert "Scored with graphveil's corrected measures" in (tmp_path / "study.md").read_text()


def test_cli_scoring(capsys, tmp_path) -> None:
    from graphveil.cli import main

    g = gv.datasets.load("karate_club")
    path = tmp_path / "rw.npz"
    randwalk_mod(g, t=2, seed=3).graph.save(path, keep_ids=True)
    base = ["evaluate", "--dataset", "karate_club", str(path), "--samples", "2", "--k", "5"]
    assert main([*base, "--scoring", "authors", "--json", "-"]) == 0
    report = __import__("json").loads(capsys.readouterr().out)
    assert report["scoring"] == "authors"
    assert report["original"]["H2_open"] == len(set(authors_h2_signatures(g)))
    with pytest.raises(SystemExit) as exc:
        main([*base, "--scoring", "theirs"])
    assert exc.value.code == 2
    assert "invalid choice: 'theirs'" in capsys.readouterr().err
