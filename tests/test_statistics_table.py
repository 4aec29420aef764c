"""The statistics table is the one list of statistics: a new row reaches every consumer."""

from __future__ import annotations

import csv
import dataclasses
import re

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


#: The paper's ten statistics (Section VI-B), in its columns' order: a fact of the paper.
PAPER_STATISTICS = (
    "S_NE",
    "S_AD",
    "S_MD",
    "S_DV",
    "S_CC",
    "S_PL",
    "S_APD",
    "S_EDiam",
    "S_CL",
    "S_Diam",
)


def test_table_matches_the_public_names():
    paper = [s for s in U.STATISTIC_TABLE if not s.analyst]
    undirected = tuple(s.name for s in paper if s.applies != "directed")
    assert undirected == U.STATISTICS == U.statistic_names()
    # the paper's ten, each in one of its groups, measured on every undirected graph, in order
    assert tuple(s.name for s in U.STATISTIC_TABLE if s.group) == PAPER_STATISTICS
    assert [name for name in U.STATISTICS if name in PAPER_STATISTICS] == list(PAPER_STATISTICS)
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
    paper = [s.compute.__name__ for s in U.STATISTIC_TABLE if s.measures(False) and not s.analyst]
    analyst = [s.compute.__name__ for s in U.STATISTIC_TABLE if s.analyst]
    assert len(set(paper)) < len(paper)  # rows share functions (the four distances one BFS)
    monkeypatch.setattr(U, "STATISTIC_TABLE", table)
    assert U.utility_statistics(g, seed=1) == expected
    assert calls == list(dict.fromkeys(paper))  # each function once, in the table's order
    # the analyst group too: each function once, after the paper's
    calls.clear()
    stats = U.utility_statistics(g, seed=1, analyst=analyst_reference(g, seed=1))
    assert list(stats) == [*U.STATISTICS, *U.analyst_names()]
    assert calls == [*dict.fromkeys(paper), *dict.fromkeys(analyst)]


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
    last = U.statistic_names()[-2]  # the new row is the last of the undirected paper's columns
    assert header[header.index(last) + 1] == "S_ISO"
    md = (tmp_path / "table_edge_switch.md").read_text().splitlines()
    assert f"| {last} | S_ISO | rel_err |" in md[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"applies": "both ways"}, "applies 'both ways' is not one of undirected, directed, both"),
        ({"group": "size"}, "group 'size' is not one of"),
        ({"score": "divergence"}, "a paper's statistic enters rel.err: its score is 'relative'"),
        ({"analyst": True}, "an analyst statistic has no paper's group and names its reference"),
        ({"formats": ("{:.0f}",)}, "formats are two"),
        ({"formats": ("{:.0f}", "{x}")}, "do not format a number"),
        ({"name": "S ISO"}, "its name must be an identifier"),
        ({"undefined": "sometimes"}, "undefined 'sometimes' is not one of"),
    ],
)
def test_a_row_is_checked_when_it_is_defined(change, message):
    fields = {**FAKE.__dict__, "group": "degree", **change}
    with pytest.raises(ValueError, match=f"^statistic {fields['name']!r}: .*{re.escape(message)}"):
        U.Statistic(**fields)


def test_the_table_refuses_a_name_or_a_column_two_rows_share():
    with pytest.raises(ValueError, match="^statistic 'S_NE': its name 'S_NE' is already statistic"):
        U._checked_table(*U.STATISTIC_TABLE, U.STATISTIC_TABLE[0])
    twin = dataclasses.replace(FAKE, header="S_ED")  # S_EDiam's header
    with pytest.raises(ValueError, match="^statistic 'S_ISO': its column 'S_ED' is already"):
        U._checked_table(*U.STATISTIC_TABLE, twin)
    assert U._checked_table(*U.STATISTIC_TABLE, FAKE)[-1] is FAKE
