"""Tiny and odd graphs through every command: each runs, or says in one line why it cannot.

The matrix: graphs (two nodes, a star, a path, isolated nodes, two components, K20) x commands
(every ``anonymize`` scheme, ``evaluate``, ``sample``, ``attack link``, ``attack propagation``,
``reproduce``). A command exits 0, or 2 with one ``graphveil: error:`` line (the graph cannot
take it); never a traceback or another status. ``reproduce`` always finishes: a point whose
scheme or attack cannot run is listed under "Not applicable" with its reason.
"""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import registry
from graphveil.cli import main
from graphveil.experiments import paper_grid


def _graph(edges: list[tuple[int, int]], n: int) -> gv.Graph:
    u = np.array([a for a, _ in edges], dtype=np.int64)
    v = np.array([b for _, b in edges], dtype=np.int64)
    return gv.Graph.from_edges(u, v, n)


TINY = {
    "two_nodes": _graph([(0, 1)], 2),
    "star": _graph([(0, i) for i in range(1, 7)], 7),
    "path7": _graph([(i, i + 1) for i in range(6)], 7),
    "isolated": _graph([(0, 1), (1, 2), (2, 0), (2, 3)], 8),
    "disconnected": _graph([(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 6)], 7),
    "k20": _graph([(i, j) for i in range(20) for j in range(i + 1, 20)], 20),
}

#: The arguments of each ``anonymize`` command besides the graph: its record's example (a mild
#: setting), ``{release}`` the graph's edge_switch release.
COMMANDS = {name: registry.scheme(name).cli.example for name in registry.names()}
COMMANDS["partition"] = registry.PARTITION_CLI.example


def _run(argv: list[str]) -> tuple[int, str]:
    """``graphveil argv`` in-process: exit status and stderr. A bug raises (its traceback)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def _outcome(code: int, err: str) -> str:
    if code == 0:
        return "ok"
    lines = [line for line in err.splitlines() if line.startswith("graphveil: error:")]
    assert code == 2 and len(lines) == 1, (code, err)
    assert "Traceback" not in err
    return "exit 2: " + lines[0].removeprefix("graphveil: error: ")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Each tiny graph as an edge list (its header keeps isolated nodes) and its releases."""
    root = tmp_path_factory.mktemp("tiny")
    paths = {}
    for name, graph in TINY.items():
        path = root / f"{name}.txt"
        gv.io.write_edgelist(graph, path, keep_ids=True)
        switched = root / f"{name}-switched.npz"
        code, err = _run(
            [
                *("anonymize", "edge_switch", str(path), "-s", "10", "--seed", "1"),
                *("--keep-ids", "-o", str(switched)),  # true ids: evaluate and attack match them
                "--allow-identity",  # no switch fits two nodes or a star: the release is G0
            ]
        )
        assert code == 0, err
        paths[name] = (path, switched)
    return paths


@pytest.mark.parametrize("scheme", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(TINY))
def test_anonymize(files, tmp_path, name, scheme):
    path, switched = files[name]
    example = [a.replace("{release}", str(switched)) for a in COMMANDS[scheme]]
    argv = ["anonymize", scheme, str(path), *example]
    argv += ["--seed", "1", "-o", str(tmp_path / "out.npz")]
    code, err = _run(argv)
    _outcome(code, err)
    assert (tmp_path / "out.npz").exists() == (code == 0)


@pytest.mark.parametrize("name", sorted(TINY))
def test_evaluate_sample_and_attacks(files, tmp_path, name):
    path, switched = files[name]
    commands = {
        "evaluate": ["evaluate", str(path), str(switched), "--samples", "2", "--k", "1"],
        "sample": ["sample", str(switched), "-n", "2", "--seed", "1", "-o", str(tmp_path / "w")],
        "attack link": ["attack", "link", str(path), str(switched)],
        "attack propagation": [
            *("attack", "propagation", str(path), str(switched)),
            *("--seeds", "2", "--seed", "1"),
        ],
    }
    for argv in commands.values():
        _outcome(*_run(argv))


@pytest.mark.parametrize("name", sorted(TINY))
def test_reproduce_finishes(files, tmp_path, name):
    path, _ = files[name]
    out = tmp_path / "study"
    argv = ["reproduce", str(path), "--samples", "2", "--k", "1", "--no-figures"]
    code, err = _run([*argv, "--distance-sources", "2", "-o", str(out)])
    assert code == 0, err
    study = json.loads((out / "study.json").read_text())
    # a point either has its row (its attack columns maybe empty, listed with "attack: ...")
    # or is listed as not applicable, with its reason
    skipped = [r for r in study["not_applicable"] if not r["reason"].startswith("attack: ")]
    assert len(study["rows"]) + len(skipped) == len(paper_grid())
    for row in study["rows"]:
        assert ("attack_not_applicable" in row) == (row["reid_rate"] is None)
    markdown = (out / "study.md").read_text()
    for row in study["not_applicable"]:
        assert row["reason"] in markdown
