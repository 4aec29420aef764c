"""End to end: the paper's study on a small real graph, tables and figures, resume."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

import graphveil as gv
from graphveil import experiments as ex
from graphveil.anonymize import registry
from graphveil.measure import STATISTICS

SMALL_GRID = {
    "obfuscation": [0.01],
    "randwalk": [2],
    "randwalk_mod": [2],
    "maxvar": [0.19],
    "edge_switch": [0.1],
    "mixture": [0.5],
}


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    import networkx as nx

    return gv.Graph.from_networkx(nx.karate_club_graph())


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory, karate):
    out = tmp_path_factory.mktemp("study")
    study = ex.reproduce(karate, graph_name="karate", grid=SMALL_GRID, samples=2, seed=7, out_dir=out, k=(2, 5))
    return out, study


def test_every_file_is_written_and_parses(study_dir):
    out, study = study_dir
    names = {p.name for p in out.iterdir()}
    for table in [*registry.names(), "comparison"]:
        assert f"table_{table}.csv" in names and f"table_{table}.md" in names
        with open(out / f"table_{table}.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        expected = len(study.scheme_rows(table)) + 1 if table != "comparison" else len(study.rows) + 1
        assert len(rows) == expected
        md = (out / f"table_{table}.md").read_text().splitlines()
        assert len(md) == expected + 2 and all(line.startswith("|") for line in md)
    data = json.loads((out / "study.json").read_text())
    assert data["graph"] == "karate" and data["n"] == 34 and data["m"] == 78
    assert len(data["rows"]) == sum(len(v) for v in SMALL_GRID.values())
    for fig in ("maxvar.png", "tradeoff.png", "total_variance.png"):
        assert (out / fig).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rows_are_consistent_with_the_paper_definitions(study_dir):
    _, study = study_dir
    assert study.original["S_NE"] == 78
    for row in study.rows:
        terms = [abs(row[s] - study.original[s]) / study.original[s] for s in STATISTICS if study.original[s]]
        assert row["rel_err"] == pytest.approx(np.mean(terms))
        assert row["tradeoff"] == pytest.approx(np.sqrt(row["H2_open"]) * row["rel_err"])
        assert 0 <= row["eps_k2"] <= 1
    switch = study.scheme_rows("edge_switch")[0]
    assert switch["S_NE"] == 78 and switch["S_MD"] == study.original["S_MD"]  # degrees kept exactly
    assert switch["tv"] == 0.0  # deterministic output


def test_resume_reuses_points_and_gives_identical_results(tmp_path, karate):
    grid = {"randwalk_mod": [2, 3], "edge_switch": [0.2]}
    full = ex.reproduce(karate, schemes=grid, grid=grid, samples=2, seed=3, out_dir=tmp_path / "a", figures=False)
    # Interrupt after the first point: record only it, then resume.
    part = tmp_path / "b"
    ex.reproduce(karate, schemes=["randwalk_mod"], grid={"randwalk_mod": [2]}, samples=2, seed=3, out_dir=part,
                 figures=False)
    messages: list[str] = []
    resumed = ex.reproduce(
        karate, schemes=grid, grid=grid, samples=2, seed=3, out_dir=part, figures=False, progress=messages.append
    )
    assert any("reused" in m for m in messages)
    assert sum("reused" in m for m in messages) == 1
    def numbers(row):  # everything but wall-clock timings
        kept = {k: v for k, v in row.items() if not k.startswith("time") and k != "scheme_report"}
        kept["scheme_params"] = row["scheme_report"].get("params")
        return kept

    assert [numbers(r) for r in full.rows] == [numbers(r) for r in resumed.rows]


def test_same_seed_same_numbers_without_out_dir(karate):
    grid = {"randwalk": [3]}
    a = ex.reproduce(karate, schemes=grid, grid=grid, samples=2, seed=11, figures=False)
    b = ex.reproduce(karate, schemes=grid, grid=grid, samples=2, seed=11, figures=False, threads=1)
    assert a.rows[0]["H2_open"] == b.rows[0]["H2_open"] and a.rows[0]["rel_err"] == b.rows[0]["rel_err"]


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"schemes": ["nope"]}, "unknown scheme"),
        ({"grid": {"mixture": [1.5]}}, "p must lie in"),
        ({"grid": {"randwalk": [0]}}, "t must be an integer"),
        ({"grid": {"maxvar": []}}, "empty"),
        ({"samples": 0}, "samples must be"),
        ({"k": [0]}, "k must be"),
    ],
)
def test_invalid_options(karate, kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        ex.reproduce(karate, **kwargs)


def test_cli_reproduce_writes_tables_and_resumes(tmp_path, capsys):
    from graphveil.cli import main

    args = ["reproduce", "--dataset", "karate_club", "-o", str(tmp_path), "--samples", "2", "--schemes",
            "randwalk", "edge_switch", "--grid", "randwalk=2", "--grid", "edge_switch=0.1", "--no-figures", "-q"]
    assert main(args) == 0
    first = (tmp_path / "table_comparison.csv").read_text()
    assert "RandWalk t=2" in first and "EdgeSwitch s/m=0.1" in first
    assert main(args) == 0  # everything recorded: resumed, same tables
    assert (tmp_path / "table_comparison.csv").read_text() == first
    assert "| karate_club |" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "msg"),
    [
        (["--grid", "maxvar"], "SCHEME=V1,V2"),
        (["--grid", "maxvar=a,b"], "numbers"),
        (["--schemes", "nope"], "unknown scheme"),
        (["--samples", "0"], "samples must be"),
        (["--dataset", "no-such-graph"], "no-such-graph"),
    ],
)
def test_cli_reproduce_user_errors_are_one_line(tmp_path, capsys, argv, msg):
    from graphveil.cli import main

    assert main(["reproduce", "-o", str(tmp_path), "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("graphveil: error:") and msg in err



def test_randwalk_mod_model_tv_is_its_uncertain_form(study_dir, karate):
    from graphveil.anonymize import randwalk_mod_tv_bound, randwalk_mod_uncertain

    _, study = study_dir
    row = study.scheme_rows("randwalk_mod")[0]
    assert row["tv"] == 0.0  # the published graph is one realisation of the walks
    model, _ = randwalk_mod_uncertain(karate, 2, alpha=0.5)
    assert row["tv_model"] == pytest.approx(model.total_variance())
    assert 0 < row["tv_model"] <= randwalk_mod_tv_bound(karate, 2) + 1e-9  # Proposition 4.4
