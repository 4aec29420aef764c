"""A release that is G0 itself is refused by its output, whatever the scheme (issue 31).

The parameter rules (``Scheme.no_op``, issue 24) cannot see TmF at epsilon 50, EdgeFlip at
epsilon 30 or MaxVar with one part per node; :func:`registry.identity_reason` looks at the
release. ``graphveil anonymize`` refuses it before writing anything, ``reproduce`` records its
point not applicable; ``--allow-identity`` is the only way past both.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json

import numpy as np
import pytest

import graphveil as gv
from graphveil import Graph, UncertainGraph
from graphveil.anonymize import registry
from graphveil.anonymize.partitioners import PARTITIONERS
from graphveil.anonymize.registry import IDENTITY_OUTPUT, IDENTITY_TOLERANCE, identity_reason
from graphveil.cli import main
from graphveil.experiments import StudyConfig, reproduce
from graphveil.uncertain import Anonymized

TOL = IDENTITY_TOLERANCE


# ------------------------------------------------------------------------------ the rule
def _reference(graph: Graph, release: UncertainGraph) -> bool:
    """The rule by sets, pair by pair: the published pairs are G0's edges, each certain."""
    if release.n != graph.n or release.directed != graph.directed:
        return False
    published = [
        (int(a), int(b), float(q)) for a, b, q in zip(release.u, release.v, release.p) if q > TOL
    ]
    pairs = [(a, b) for a, b, _ in published]
    return (
        len(pairs) == len(set(pairs))
        and set(pairs) == {(int(a), int(b)) for a, b in graph.edges}
        and all(q >= 1 - TOL for *_, q in published)
    )


def _random_case(rng: np.random.Generator, directed: bool) -> tuple[Graph, UncertainGraph]:
    n = int(rng.integers(2, 7))
    pairs = [
        (a, b) for a, b in itertools.product(range(n), repeat=2) if (a != b if directed else a < b)
    ]
    chosen = [pair for pair in pairs if rng.random() < 0.5] or [pairs[0]]
    g = Graph.from_edges(*map(list, zip(*chosen)), n=n, directed=directed)
    u, v = map(list, zip(*chosen))
    p = [1.0] * len(chosen)
    change = rng.integers(0, 7)
    if change == 1 and len(u) > 1:  # a true edge missing
        u, v, p = u[1:], v[1:], p[1:]
    elif change == 2:  # a true edge below certain
        p[0] = rng.choice([0.5, 1 - 10 * TOL, 1 - TOL / 10])
    elif change == 3:  # a non-edge published, p from tiny to 1
        extra = [pair for pair in pairs if pair not in chosen]
        if extra:
            a, b = extra[int(rng.integers(len(extra)))]
            u, v, p = [*u, a], [*v, b], [*p, float(rng.choice([TOL / 10, 10 * TOL, 1.0]))]
    elif change == 4:  # a true edge repeated (a relaxed release)
        u, v, p = [*u, u[0]], [*v, v[0]], [*p, 1.0]
    elif change == 5:  # a self-loop (a relaxed release)
        u, v, p = [*u, 0], [*v, 0], [*p, 1.0]
    elif change == 6:  # a true edge at p = 0: absent
        u, v, p = [*u], [*v], [0.0, *p[1:]] if len(p) > 1 else p
    relaxed = change in (4, 5)
    return g, UncertainGraph(n, u, v, p, relaxed=relaxed, directed=directed)


@pytest.mark.parametrize("directed", [False, True])
def test_the_rule_equals_a_pair_by_pair_reference(directed):
    rng = np.random.default_rng(31)
    verdicts = []
    for _ in range(400):
        g, release = _random_case(rng, directed)
        expected = _reference(g, release)
        assert (identity_reason(g, release) == IDENTITY_OUTPUT) is expected, (g, release)
        verdicts.append(expected)
    assert 50 < sum(verdicts) < 350  # both verdicts exercised


def test_the_rule_on_named_cases():
    g = gv.datasets.load("karate_club")
    assert identity_reason(g, UncertainGraph.from_graph(g)) == IDENTITY_OUTPUT
    u, v = g.edges()
    p = np.ones(g.m)
    p[5] = 0.9
    assert identity_reason(g, UncertainGraph(g.n, u, v, p)) is None
    # an undirected release of a directed G0's arcs, another n: never G0
    arcs = Graph.from_edges(u, v, n=g.n, directed=True)
    assert identity_reason(arcs, UncertainGraph.from_graph(g)) is None
    assert identity_reason(g, UncertainGraph(g.n + 1, u, v, np.ones(g.m))) is None


# --------------------------------------------------------------------- the command line
def _refused(argv, tmp_path, capsys):
    out, record, report = tmp_path / "pub.npz", tmp_path / "rec.json", tmp_path / "r.json"
    line = [*argv, "--seed", "1", "-o", str(out), "--record", str(record), "--json", str(report)]
    assert main([*line, "-q"]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    assert err.err.count("\n") == 1, err.err
    assert IDENTITY_OUTPUT in err.err and "--allow-identity" in err.err
    assert not any(path.exists() for path in (out, record, report))
    assert main([*line, "-q", "--allow-identity"]) == 0
    assert out.exists() and record.exists()
    capsys.readouterr()
    return gv.load_uncertain(out, record=str(record))


_ISSUE_CASES = [
    ["tmf", "--dataset", "ca-GrQc", "--epsilon", "50"],
    ["edgeflip", "--dataset", "ca-GrQc", "--epsilon", "30"],
    ["maxvar", "--dataset", "ca-GrQc", "--n-potential", "5", "--parts", "5242", "--allow-fewer"],
]


@pytest.mark.parametrize("argv", _ISSUE_CASES, ids=lambda a: a[0])
def test_the_issue_releases_that_are_g0_are_refused(argv, tmp_path, capsys):
    _refused(["anonymize", *argv], tmp_path, capsys)


@pytest.mark.skipif(not PARTITIONERS["kaminpar"].available(), reason="kaminpar is not installed")
def test_maxvar_on_kaminpar_parts_of_single_nodes_is_refused(tmp_path, capsys):
    path = tmp_path / "path7.txt"
    path.write_text("".join(f"{i} {i + 1}\n" for i in range(6)))
    argv = ["anonymize", "maxvar", str(path), "--n-potential", "5", "--parts", "7"]
    _refused([*argv, "--allow-fewer", "--partitioner", "kaminpar"], tmp_path, capsys)


def test_a_release_near_g0_is_published(tmp_path, capsys):
    # EdgeFlip at epsilon 4 on karate flips about 2% of the 561 pairs: not G0, published
    out = tmp_path / "pub.npz"
    argv = ["anonymize", "edgeflip", "--dataset", "karate_club", "--epsilon", "4", "-q"]
    assert main([*argv, "--seed", "1", "-o", str(out), "--keep-ids"]) == 0
    release, g = gv.load_uncertain(out), gv.datasets.load("karate_club")
    flipped = {*zip(release.u.tolist(), release.v.tolist())} ^ {*g.edges}
    assert 0 < len(flipped) < 30


def _identity_scheme(record: registry.Scheme, graph_name: str) -> registry.Scheme:
    """The record with its function (same signature) returning G0 itself."""

    @functools.wraps(record.function)
    def g0(*args, **kwargs):
        graph = kwargs[graph_name] if graph_name in kwargs else args[0]
        return Anonymized(UncertainGraph.from_graph(graph), {"scheme": record.name, "params": {}})

    alternative = record.cli.alternative
    if alternative is not None:
        alternative = dataclasses.replace(alternative, function=g0)
    cli = dataclasses.replace(record.cli, alternative=alternative)
    return dataclasses.replace(record, function=g0, cli=cli)


def _argv(record: registry.Scheme, tmp_path) -> list[str]:
    """The command's example (its values do not matter: the function is replaced)."""
    anonymized = tmp_path / "g0.txt"
    anonymized.write_text("0 1\n")
    return [a.replace("{release}", str(anonymized)) for a in record.cli.example]


@pytest.mark.parametrize("name", registry.names())
def test_every_scheme_command_checks_its_output(name, tmp_path, capsys, monkeypatch):
    record = registry.scheme(name)
    monkeypatch.setitem(registry.REGISTRY, name, _identity_scheme(record, "graph"))
    argv = ["anonymize", name, *_argv(record, tmp_path), "--dataset", "karate_club"]
    _refused(argv, tmp_path, capsys)
    if record.cli.alternative is not None:
        (tmp_path / "alternative").mkdir()
        _refused([*argv, record.cli.alternative.flag], tmp_path / "alternative", capsys)


def test_partition_checks_its_output(tmp_path, capsys):
    # EdgeSwitch with no successful switch on every part: the parts' releases put back are G0
    argv = ["anonymize", "partition", "--dataset", "karate_club", "--scheme", "edge_switch"]
    _refused([*argv, "--parts", "34", "--params", '{"switches": 1}'], tmp_path, capsys)


# -------------------------------------------------------------------------- the study
def test_the_study_records_a_g0_point_not_applicable_unless_allowed(tmp_path):
    g = gv.datasets.load("karate_club")
    kwargs = dict(schemes=["edgeflip"], grid={"edgeflip": [1.0, 40.0]}, figures=False)
    config = StudyConfig(samples=1, k=(5,), attacks=False)
    study = reproduce(g, config, out_dir=tmp_path / "a", **kwargs)
    assert [r["value"] for r in study.rows] == [1.0]
    (skipped,) = study.not_applicable
    assert skipped["value"] == 40.0 and IDENTITY_OUTPUT in skipped["reason"]
    assert "allow_identity=True" in skipped["reason"]
    allowed = reproduce(
        g, dataclasses.replace(config, allow_identity=True), out_dir=tmp_path / "b", **kwargs
    )
    assert [r["value"] for r in allowed.rows] == [1.0, 40.0] and not allowed.not_applicable
    assert allowed.rows[1]["rel_err"] == 0
    written = json.loads((tmp_path / "b" / "study.json").read_text())
    assert written["config"]["allow_identity"] is True
    assert "allow_identity" not in json.loads((tmp_path / "a" / "study.json").read_text())["config"]


def test_reproduce_cli_passes_allow_identity(tmp_path, capsys):
    argv = ["reproduce", "--dataset", "karate_club", "--schemes", "tmf", "--grid", "tmf=50"]
    argv += ["--samples", "1", "--k", "5", "--no-figures", "--no-attacks", "-q"]
    assert main([*argv, "-o", str(tmp_path / "a")]) == 0
    assert "TmF epsilon=50: " + IDENTITY_OUTPUT in capsys.readouterr().out
    assert main([*argv, "-o", str(tmp_path / "b"), "--allow-identity"]) == 0
    assert IDENTITY_OUTPUT not in capsys.readouterr().out
