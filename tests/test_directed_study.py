"""The evaluation, the attacks and the study on directed graphs, against independent references.

References: networkx (reciprocity, components, shortest paths on DiGraphs), brute force on
small digraphs (Fagiolo's counts from the adjacency matrix, the directed signatures, the
Mann-Whitney AUC over ordered pairs, the arc differences).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import graphveil as gv
from graphveil import datasets, evaluate
from graphveil.anonymize import registry
from graphveil.attack import attack_scores, link_inference, propagation_attack
from graphveil.cli import main
from graphveil.experiments.state import graph_digest
from graphveil.measure import Original
from graphveil.measure.privacy import eps
from graphveil.measure.scores import sample_score_names
from graphveil.measure.utility import statistic_names


def _digraph(n: int, m: int, seed: int) -> gv.Graph:
    rng = np.random.default_rng(seed)
    return gv.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), n, directed=True)


def _nx(g: gv.Graph) -> nx.DiGraph:
    d = nx.DiGraph()
    d.add_nodes_from(range(g.n))
    u, v = g.edges()
    d.add_edges_from(zip(u.tolist(), v.tolist()))
    return d


def _fagiolo(g: gv.Graph) -> float:
    a = nx.to_numpy_array(_nx(g), nodelist=range(g.n))
    s = a + a.T
    t = np.diag(s @ s @ s) / 2
    d = a.sum(0) + a.sum(1)
    mutual = np.diag(a @ a)
    triples = d * (d - 1) - 2 * mutual
    return float(t.sum() / triples.sum()) if triples.sum() else 0.0


def _h1(g0: gv.Graph, g: gv.Graph) -> float:
    sig0 = list(zip(g0.in_degrees.tolist(), g0.out_degrees.tolist()))
    sig = list(zip(g.in_degrees.tolist(), g.out_degrees.tolist()))
    return sum((sig[u] == sig0[u]) / sig.count(sig0[u]) for u in range(g0.n) if sig0[u] in sig)


def _distances(d: nx.DiGraph) -> list[int]:
    return [x for s, row in nx.all_pairs_shortest_path_length(d) for t, x in row.items() if s != t]


@pytest.fixture(scope="module")
def g0() -> gv.Graph:
    return _digraph(40, 160, 3)


@pytest.fixture(scope="module")
def release(g0: gv.Graph) -> gv.UncertainGraph:
    # G0's arcs (some uncertain), some reversed arcs and some new pairs
    rng = np.random.default_rng(5)
    u, v = g0.edges()
    p = np.where(rng.random(g0.m) < 0.3, 0.6, 1.0)
    extra_u, extra_v = rng.integers(0, g0.n, 40), rng.integers(0, g0.n, 40)
    keys = set(zip(u.tolist(), v.tolist()))
    new = [(a, b) for a, b in zip(extra_u.tolist(), extra_v.tolist()) if a != b]
    new = list(dict.fromkeys(x for x in new if x not in keys))
    au = np.r_[u, [a for a, _ in new]]
    av = np.r_[v, [b for _, b in new]]
    ap = np.r_[p, np.full(len(new), 0.3)]
    return gv.UncertainGraph(g0.n, au, av, ap, directed=True)


def test_evaluate_directed_against_networkx(g0: gv.Graph, release: gv.UncertainGraph) -> None:
    rep = evaluate(g0, release, samples=3, seed=7, k=(2, 5))
    assert rep.directed
    names = statistic_names(True)
    assert set(rep.original) == {*sample_score_names(), *names}
    worlds = release.sample(3, rep.sample_seed)
    arcs0 = set(zip(*(x.tolist() for x in g0.edges())))
    for row, world in zip(rep.per_sample, worlds):
        assert world.directed
        d = _nx(world)
        arcs = set(d.edges())
        assert row["edges_removed"] == len(arcs0 - arcs)
        assert row["edges_added"] == len(arcs - arcs0)
        assert row["S_NE"] == d.number_of_edges()
        assert row["S_REC"] == pytest.approx(nx.overall_reciprocity(d))
        assert row["S_CC"] == pytest.approx(_fagiolo(world))
        assert row["S_SCC"] == nx.number_strongly_connected_components(d)
        assert row["S_WCC"] == nx.number_weakly_connected_components(d)
        assert row["S_MD_in"] == max(dict(d.in_degree()).values())
        dist = _distances(d)
        assert row["S_APD"] == pytest.approx(np.mean(dist))
        assert row["S_Diam"] == max(dist)
        assert row["H1"] == pytest.approx(_h1(g0, world))
    # the true graph's own row: its numbers of signatures and its statistics
    assert rep.original["H1"] == len(set(zip(g0.in_degrees.tolist(), g0.out_degrees.tolist())))
    assert rep.original["S_REC"] == pytest.approx(nx.overall_reciprocity(_nx(g0)))
    # rel.err over the directed statistics but the component counts, eps on the joint degree
    terms = [
        abs(rep.mean[s] - rep.original[s]) / abs(rep.original[s])
        for s in names
        if s not in ("S_SCC", "S_WCC") and rep.original[s] != 0 and math.isfinite(rep.original[s])
    ]
    assert rep.rel_err == pytest.approx(math.fsum(terms) / len(terms))
    assert rep.tradeoff == pytest.approx(math.sqrt(rep.mean["H2_open"]) * rep.rel_err)
    assert rep.eps == eps(g0, release, [2, 5], degree="joint")
    assert rep.to_dict()["eps_degree"] == "joint"
    assert "S_PL_pooled" not in rep.extra
    again = type(rep).from_dict(json.loads(json.dumps(rep.to_dict())))
    assert again.directed and again.rel_err == pytest.approx(rep.rel_err)


def test_evaluate_refuses_mixing_directed_and_undirected(
    g0: gv.Graph, release: gv.UncertainGraph
) -> None:
    with pytest.raises(ValueError, match="directed"):
        evaluate(g0.to_undirected(), release, samples=1)
    with pytest.raises(ValueError, match="directed"):
        evaluate(g0, gv.UncertainGraph.from_graph(g0.to_undirected()), samples=1)
    with pytest.raises(ValueError, match="directed"):
        link_inference(g0.to_undirected(), release)


def test_original_reuses_for_directed(g0: gv.Graph, release: gv.UncertainGraph) -> None:
    ref = Original(g0, k=2, statistics_seed=3)
    a = evaluate(g0, release, samples=2, seed=1, k=2, original=ref)
    b = evaluate(g0, release, samples=2, seed=1, k=2, statistics_seed=3)
    assert a.to_dict() == b.to_dict()


def test_link_inference_on_ordered_pairs(g0: gv.Graph, release: gv.UncertainGraph) -> None:
    r = link_inference(g0, release)
    arcs0 = set(zip(*(x.tolist() for x in g0.edges())))
    pairs = list(zip(release.u.tolist(), release.v.tolist(), release.p.tolist()))
    pos = [p for a, b, p in pairs if (a, b) in arcs0]
    neg = [p for a, b, p in pairs if (a, b) not in arcs0]
    auc = sum((x > y) + 0.5 * (x == y) for x in pos for y in neg) / (len(pos) * len(neg))
    assert r.edges == g0.m and r.true_pairs == len(pos) and r.pairs == len(pairs)
    assert r.auc == pytest.approx(auc)
    # a reversed arc is another pair: true only if it is an arc of G0
    flipped = gv.UncertainGraph(g0.n, *g0.edges()[::-1], np.full(g0.m, 0.9), directed=True)
    reverse = sum((b, a) in arcs0 for a, b in arcs0)
    assert link_inference(g0, flipped).true_pairs == reverse


def test_propagation_reads_arc_directions() -> None:
    # directed propagation by default (tests/test_attack_directed.py); directed=False is the
    # attack on the underlying undirected graphs
    g = _digraph(150, 900, 11)
    directed = propagation_attack(g, g, seeds=10, seed=4)
    dropped = propagation_attack(g, g, seeds=10, seed=4, directed=False)
    undirected = propagation_attack(g.to_undirected(), g.to_undirected(), seeds=10, seed=4)
    assert directed.directed and not dropped.directed
    assert dropped.sampled == undirected.sampled
    assert dropped.most_likely == undirected.most_likely


def test_attack_scores_on_a_directed_release(g0: gv.Graph, release: gv.UncertainGraph) -> None:
    scores = attack_scores(g0, release, samples=2, seed=1)
    assert scores["link_auc"] == pytest.approx(link_inference(g0, release).auc)
    assert 0.0 <= scores["reid_rate"] <= 1.0
    assert all(a.directed for a in gv.attack.registry.REGISTRY.values())


def test_reproduce_directed_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = _digraph(200, 1200, 2)
    path = tmp_path / "arcs.txt"
    u, v = g.edges()
    path.write_text("".join(f"{a} {b}\n" for a, b in zip(u.tolist(), v.tolist())))
    out = tmp_path / "out"
    argv = ["reproduce", str(path), "--directed", "-o", str(out), "--samples", "2"]
    assert main([*argv, "--no-figures", "-q"]) == 0
    study = json.loads((out / "study.json").read_text())
    assert study["config"]["directed"] is True and study["config"]["eps_degree"] == "joint"
    ran = {r["scheme"] for r in study["rows"]}
    paper = set(registry.names(family="uncertainty"))  # the default study: the DP family not asked
    assert (
        ran
        == set(registry.study_directed()) & paper
        == set(registry.directed()) & paper - {"mixture"}
    )
    skipped = {r["scheme"]: r["reason"] for r in study["not_applicable"]}
    assert set(skipped) == paper - ran
    assert {"randwalk_mod", "mixture"} <= set(skipped)  # the study's Mixture mixes RandWalk-mod
    titles = ", ".join(registry.scheme(s).title for s in registry.study_directed())
    assert titles.startswith("(k,eps)-obf, RandWalk, MaxVar, EdgeSwitch")
    runs_only = f"runs only {titles} (see docs/directed.rst)"
    assert skipped["mixture"].startswith("the study's Mixture runs over RandWalk-mod, with no")
    assert all(reason.endswith(runs_only) for reason in skipped.values())
    for name in ran:
        rows = [r for r in study["rows"] if r["scheme"] == name]
        assert len(rows) == len(registry.scheme(name).default_grid)
        assert all(s in rows[0] for s in statistic_names(True))
        header = (out / f"table_{name}.csv").read_text().splitlines()[0]
        assert "S_REC" in header and "S_PL," not in header
    assert not (out / "table_randwalk_mod.csv").exists()
    md = (out / "study.md").read_text()
    assert "G0 is directed" in md and "RandWalk-mod has no directed form" in md
    # no row reproduces the authors' undirected runs behind the paper's tables
    assert "The authors' run these rows reproduce" not in md
    for name in ran:
        run = registry.scheme(name).authors_run
        title = registry.scheme(name).title
        said = "These rows reproduce no run of the paper: G0 is directed, and the authors' run "
        assert (f"{said}behind the paper's {title} rows is undirected ({run})." in md) == bool(run)
    assert "| holds |" not in md and "| does not hold |" not in md
    # the same file read undirected is another graph: its study is not this one's
    assert graph_digest(g) != graph_digest(gv.io.read_edgelist(path))
    capsys.readouterr()
    assert main(["reproduce", str(path), "-o", str(out), "--samples", "2", "--no-figures"]) == 2
    assert "another graph" in capsys.readouterr().err


def test_datasets_load_directed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="undirected"):
        datasets.load("ca-GrQc", directed=True)
    assert datasets.info("soc-Epinions1").arcs == 508_837


def test_rel_err_leaves_the_component_counts_out():
    # a count dominated by the smallest pieces (2 weak components against a few hundred)
    # would swamp every other term: reported, not averaged into rel.err
    from graphveil.measure.report import relative_error
    from graphveil.measure.utility import rel_err_names, statistic_names

    names = statistic_names(True)
    assert set(names) - set(rel_err_names(True)) == {"S_SCC", "S_WCC"}
    original = dict.fromkeys(names, 1.0)
    mean = {**original, "S_WCC": 300.0, "S_SCC": 50.0}
    value, terms = relative_error(mean, original, directed=True)
    assert value == 0.0 and "S_WCC" not in terms
    assert relative_error({**mean, "S_WCC_max": 0.5}, original, directed=True)[0] == 0.5 / 16


@pytest.mark.parametrize("directed", [False, True])
def test_the_diameter_note_gives_the_reason_of_its_kind_of_graph(directed: bool) -> None:
    # iFUB never runs on a directed graph: its reason is the all-pairs limit, not iFUB's budget.
    from graphveil.experiments import Study, StudyConfig
    from graphveil.measure.distances import DIAMETER_MAX_BFS, EXACT_THRESHOLD

    config = StudyConfig(samples=2, seed=1, directed=directed, distance_sources=50)
    study = Study("g", 20_000, 40_000, config, {}, [], "0", diameter_method="lower_bound")
    header = study.to_markdown().splitlines()[2]
    along = "along arcs " if directed else ""
    assert f"S_Diam is the longest distance {along}from 50 random BFS sources" in header
    if directed:
        assert (
            f"iFUB bounds undirected distances only and G0 has more than {EXACT_THRESHOLD:,}"
            in header
        )
        assert "does not prove" not in header
    else:
        assert f"iFUB does not prove G0's diameter within {DIAMETER_MAX_BFS} BFS" in header
