"""`graphveil stats` privacy/utility rows and `graphveil evaluate`, against the Python API."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from graphveil import datasets, evaluate
from graphveil.anonymize import randwalk_mod
from graphveil.cli import main
from graphveil.measure import eps, num_signatures


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_grows_privacy_and_utility(capsys):
    code, out, err = _run(capsys, "stats", "--dataset", "karate_club", "--json", "--k", "2", "5")
    assert code == 0 and err == ""
    stats = json.loads(out)
    g = datasets.load("karate_club")
    nxg = nx.karate_club_graph()
    assert stats["H1"] == len({d for _, d in nxg.degree()}) == num_signatures(g, "h1")
    assert stats["H2_open"] == num_signatures(g, "h2_open")
    assert stats["eps_k2"] == eps(g, g, 2) and stats["eps_k5"] == eps(g, g, 5)
    assert stats["S_NE"] == 78
    assert stats["S_CC"] == pytest.approx(nx.transitivity(nxg))
    assert stats["S_Diam"] == nx.diameter(nxg)


def test_stats_table_and_basic(capsys):
    code, out, _ = _run(capsys, "stats", "--dataset", "karate_club")
    assert code == 0
    table = dict(line.rsplit(None, 1) for line in out.splitlines())
    assert table["S_NE"] == "78" and "eps k100" in table and "H2_open" in table
    code, out, _ = _run(capsys, "stats", "--dataset", "karate_club", "--basic", "--json")
    assert code == 0 and "H1" not in json.loads(out)


@pytest.fixture
def published(tmp_path):
    g0 = datasets.load("karate_club")
    out = randwalk_mod(g0, t=2, seed=3)
    path = tmp_path / "rw.npz"
    out.graph.save(path, keep_ids=True)
    permuted = tmp_path / "rw_permuted.npz"
    out.graph.save(permuted, record=tmp_path / "private.json")
    return g0, out.graph, path, permuted, tmp_path / "private.json"


def test_evaluate_prints_and_saves_the_report(capsys, tmp_path, published):
    g0, ug, path, _, _ = published
    js = tmp_path / "report.json"
    cs = tmp_path / "report.csv"
    code, out, err = _run(
        capsys,
        "evaluate",
        "--dataset",
        "karate_club",
        str(path),
        "--samples",
        "3",
        "--k",
        "2",
        "5",
        "--seed",
        "7",
        "--json",
        str(js),
        "--csv",
        str(cs),
    )
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[1].startswith("original") and lines[2].startswith("randwalk_mod")
    direct = evaluate(g0, ug, samples=3, seed=7, k=(2, 5), label=lines[2].split()[0])
    saved = json.loads(js.read_text())
    assert saved["per_sample"] == json.loads(json.dumps(direct.to_dict()["per_sample"]))
    assert saved["eps"] == {"2": direct.eps[2], "5": direct.eps[5]}
    assert cs.read_text().splitlines()[0].startswith("row,H1,H2_open")


def test_evaluate_with_an_edge_list_and_a_record(capsys, tmp_path, published):
    g0, _ug, path, permuted, record = published
    edges = tmp_path / "karate.txt"
    u, v = g0.edges()
    edges.write_text("".join(f"{a} {b}\n" for a, b in zip(u.tolist(), v.tolist())))
    args = ["--samples", "2", "--k", "3", "--seed", "1", "--json"]
    code, _, _ = _run(capsys, "evaluate", str(edges), str(path), *args, str(tmp_path / "a.json"))
    assert code == 0
    code, _, err = _run(
        capsys, "evaluate", str(edges), str(permuted), *args, str(tmp_path / "b.json")
    )
    # the error names an option that exists, and the record it wants really maps the ids back
    assert code == 2 and "--record FILE" in err
    code, _, err = _run(
        capsys,
        "evaluate",
        str(edges),
        str(permuted),
        "--record",
        str(record),
        *args,
        str(tmp_path / "b.json"),
    )
    assert code == 0, err
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["per_sample"] == b["per_sample"] and a["eps"] == b["eps"]


def test_evaluate_user_errors(capsys, published):
    _, _, path, _, _ = published
    code, _, err = _run(capsys, "evaluate", str(path))
    assert code == 2 and "GRAPH UNCERTAIN" in err
    code, _, err = _run(capsys, "evaluate", "--dataset", "karate_club", str(path), "--samples", "0")
    assert code == 2 and "samples" in err
