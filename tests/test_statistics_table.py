"""The statistics table is the one list of statistics: a new row reaches every consumer."""

from __future__ import annotations

import csv
import dataclasses

import networkx as nx
import numpy as np
import pytest

import graphveil as gv
from graphveil import evaluate
from graphveil import experiments as ex
from graphveil.measure import utility as U
from graphveil.measure.analyst import analyst_reference
from graphveil.measure.report import relative_error


def _isolated(graph: gv.Graph, options: U.StatisticOptions) -> dict[str, float]:
    return {"S_ISO": float(np.count_nonzero(graph.degrees == 0))}


#: A fake eleventh statistic: the number of isolated nodes, easy to check by hand.
FAKE = U.Statistic("S_ISO", "isolated nodes", _isolated, ("{:.0f}", "{:.2f}"), "S_IS")


@pytest.fixture
def eleven(monkeypatch):
    """The table with the fake statistic added: the only edit a new statistic needs."""
    monkeypatch.setattr(U, "STATISTIC_TABLE", (*U.STATISTIC_TABLE, FAKE))


def _graph() -> gv.Graph:
    g = nx.karate_club_graph()
    g.add_nodes_from([34, 35])  # two isolated nodes
    return gv.Graph.from_networkx(g)


def test_table_matches_the_public_names():
    paper = [s for s in U.STATISTIC_TABLE if not s.analyst]
    undirected = tuple(s.name for s in paper if s.applies != "directed")
    assert undirected == U.STATISTICS == U.statistic_names()
    assert len(U.STATISTICS) == 10  # Section VI-B of the paper
    directed = tuple(s.name for s in paper if s.applies != "undirected")
    assert directed == U.statistic_names(directed=True)
    analyst = tuple(s.name for s in U.STATISTIC_TABLE if s.analyst)
    assert analyst == U.analyst_names() == U.statistic_names(analyst=True)
    assert {s.score for s in U.STATISTIC_TABLE} <= set(U.SCORES)
    assert all(s.reference and s.group == "" for s in U.STATISTIC_TABLE if s.analyst)
    assert U.statistic("S_EDiam").column == "S_ED" and U.statistic("S_NE").column == "S_NE"
    with pytest.raises(KeyError, match="S_NE"):
        U.statistic("S_XX")


def test_each_compute_function_runs_once(monkeypatch):
    calls: list[str] = []
    table = tuple(
        dataclasses.replace(
            s, compute=lambda g, o, f=s.compute: calls.append(f.__name__) or f(g, o)
        )
        for s in U.STATISTIC_TABLE
    )
    g = _graph()
    expected = U.utility_statistics(g, seed=1)
    analyst = [s.compute.__name__ for s in U.STATISTIC_TABLE if s.analyst]
    monkeypatch.setattr(U, "STATISTIC_TABLE", table)
    assert U.utility_statistics(g, seed=1) == expected
    assert calls == ["_degrees", "_clustering", "_powerlaw", "_distances"]
    # the analyst group too: each function once, after the paper's
    calls.clear()
    stats = U.utility_statistics(g, seed=1, analyst=analyst_reference(g, seed=1))
    assert list(stats) == [*U.STATISTICS, *U.analyst_names()]
    assert calls == ["_degrees", "_clustering", "_powerlaw", "_distances", *dict.fromkeys(analyst)]


def test_a_new_statistic_reaches_utility_report_and_relative_error(eleven, tmp_path):
    g0 = _graph()
    stats = U.utility_statistics(g0, seed=0)
    assert list(stats) == [*U.STATISTICS, "S_ISO"] and stats["S_ISO"] == 2.0

    # Node 11 has one edge, to node 0: removing it isolates node 11, S_ISO 2 -> 3.
    assert g0.neighbors(11).tolist() == [0]
    u, v = g0.edges()
    keep = v != 11
    g = gv.Graph.from_edges(u[keep], v[keep], g0.n)
    rep = evaluate(g0, g, samples=2, seed=1, k=2)
    assert rep.original["S_ISO"] == 2.0 and rep.mean["S_ISO"] == 3.0
    assert rep.rel_err_terms["S_ISO"] == pytest.approx(0.5)
    assert relative_error(rep.mean, rep.original)[1]["S_ISO"] == pytest.approx(0.5)

    lines = rep.table().splitlines()
    assert lines[0].split()[-2:] == ["S_IS", "rel.err"]
    assert lines[1].split()[-1] == "2" and lines[2].split()[-2] == "3.00"

    rep.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="") as fh:
        rows = {row["row"]: row for row in csv.DictReader(fh)}
    assert float(rows["mean"]["S_ISO"]) == 3.0 and float(rows["original"]["S_ISO"]) == 2.0


def test_a_new_statistic_reaches_the_study_tables(eleven, tmp_path):
    study = ex.reproduce(
        _graph(),
        ex.StudyConfig(samples=1, seed=3, k=(2,)),
        graph_name="karate",
        schemes=["edge_switch"],
        grid={"edge_switch": [0.1]},
        out_dir=tmp_path,
        figures=False,
    )
    table = study.scheme_table("edge_switch")
    assert [row["S_ISO"] for row in table] == [2.0, 2.0]  # EdgeSwitch keeps every degree
    with open(tmp_path / "table_edge_switch.csv", newline="") as fh:
        header = next(csv.reader(fh))
    assert header[header.index("S_Diam") + 1] == "S_ISO"
    md = (tmp_path / "table_edge_switch.md").read_text().splitlines()
    assert "| S_Diam | S_ISO | rel_err |" in md[0]
