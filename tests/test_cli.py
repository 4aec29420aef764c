"""The graphveil command line: stats against networkx, datasets list/fetch, one-line user errors."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from graph_zoo import shared_graph_path

import graphveil
from graphveil import datasets
from graphveil.cli import main


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"graphveil {graphveil.__version__}"


def test_stats_of_karate_club_match_networkx(capsys):
    code, out, err = _run(capsys, "stats", "--dataset", "karate_club", "--json")
    assert code == 0 and err == ""
    stats = json.loads(out)
    deg = np.array([d for _, d in nx.karate_club_graph().degree()])
    assert stats["nodes"] == 34 and stats["edges"] == 78
    assert stats["min_degree"] == deg.min() and stats["max_degree"] == deg.max()
    assert stats["mean_degree"] == pytest.approx(deg.mean())
    assert stats["degree_variance"] == pytest.approx(deg.var())
    assert stats["isolated_nodes"] == 0
    assert stats["self_loops_dropped"] == 0 and stats["duplicates_merged"] == 0


def test_stats_of_a_file_reports_what_was_cleaned(capsys):
    code, out, _ = _run(capsys, "stats", str(shared_graph_path("ca-GrQc")))
    assert code == 0
    table = dict(line.rsplit(None, 1) for line in out.splitlines())
    assert table["nodes"] == "5,242"
    assert table["edges"] == "14,484"
    assert table["self loops dropped"] == "12"
    # SNAP lists each pair in both directions: one of the two is merged.
    assert table["duplicates merged"] == "14,484"
    assert table["lines read"] == "28,980"
    assert (table["exact repeats"], table["reversed pairs"]) == ("0", "14,484")
    # One node of ca-GrQc appears only in a self-loop: it is kept, isolated (SOURCES.md rule).
    assert table["isolated nodes"] == "1"
    assert table["min degree"] == "0"


def test_stats_with_data_dir(capsys):
    code, out, _ = _run(
        capsys,
        "stats",
        "--dataset",
        "ca-HepTh",
        "--data-dir",
        str(shared_graph_path("ca-HepTh").parent),
    )
    assert code == 0 and "9,877" in out


def test_datasets_list(capsys):
    code, out, _ = _run(capsys, "datasets", "list")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(rows) == {d.name for d in datasets.list()}
    assert "embedded" in rows["ca-GrQc"]
    assert "not downloaded" in rows["com-youtube"]
    assert "generated" in rows["synthetic-youtube"] and "SYNTHETIC" in rows["synthetic-youtube"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["stats", "--dataset", "nope"], "unknown dataset 'nope'"),
        (["stats", "/no/such/file.txt"], "no/such/file.txt"),
        (["stats", "--dataset", "com-dblp"], "graphveil datasets fetch com-dblp"),
        (["datasets", "fetch", "synthetic-youtube"], "synthetic"),
        (["datasets", "fetch", "nope"], "unknown dataset 'nope'"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("graphveil: error: ") and err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


def test_malformed_file_is_a_user_error(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3 x\n")
    code, _, err = _run(capsys, "stats", str(bad))
    assert code == 2 and err.startswith("graphveil: error: ") and err.count("\n") == 1
    assert "bad.txt" in err


def test_fetch_without_network_is_a_user_error(capsys, monkeypatch):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    entry = dataclasses.replace(
        datasets.info("com-amazon"), url=f"http://127.0.0.1:{port}/x.txt.gz"
    )
    monkeypatch.setitem(datasets._REGISTRY, "com-amazon", entry)
    code, _, err = _run(capsys, "datasets", "fetch", "com-amazon", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert "cannot download com-amazon" in err


def test_usage_errors_exit_2(capsys):
    for argv in (["stats"], ["stats", "a.txt", "--dataset", "karate_club"], ["datasets"], ["nope"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2, argv
    capsys.readouterr()
    assert main([]) == 2  # no command: the help, on stderr
    assert "stats" in capsys.readouterr().err


def test_a_bug_keeps_its_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(datasets, "load", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["stats", "--dataset", "karate_club"])


def test_python_dash_m_in_a_subprocess(tmp_path):
    env_cache = {"GRAPHVEIL_DATA_DIR": str(tmp_path)}
    ok = subprocess.run(
        [sys.executable, "-m", "graphveil", "stats", "--dataset", "karate_club"],
        check=False,
        capture_output=True,
        text=True,
        env={**_base_env(), **env_cache},
        timeout=300,
    )
    assert ok.returncode == 0, ok.stderr
    assert "78" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "graphveil", "stats", str(tmp_path / "missing.txt")],
        check=False,
        capture_output=True,
        text=True,
        env={**_base_env(), **env_cache},
        timeout=300,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("graphveil: error: ") and "Traceback" not in bad.stderr


def _base_env() -> dict[str, str]:
    return dict(os.environ)


def test_console_script():
    exe = shutil.which("graphveil", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("the graphveil console script is not installed beside this python")
    run = subprocess.run(
        [exe, "--version"], check=False, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"graphveil {graphveil.__version__}"
