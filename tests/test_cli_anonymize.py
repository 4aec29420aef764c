"""`graphveil anonymize <scheme>`: the command line over the schemes."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest

import graphveil as gv
from graphveil.cli import main


@pytest.fixture
def karate_file(tmp_path):
    path = tmp_path / "karate.txt"
    g = nx.karate_club_graph()
    path.write_text("".join(f"{a} {b}\n" for a, b in g.edges()))
    return path


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_switch_writes_and_reports(capsys, karate_file, tmp_path):
    out_path, record = tmp_path / "sw.npz", tmp_path / "private.json"
    code, out, err = _run(
        capsys,
        "anonymize",
        "edge_switch",
        karate_file,
        "-s",
        200,
        "--seed",
        3,
        "-o",
        out_path,
        "--keep-ids",
        "--json",
        "--record",
        record,
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["scheme"] == "edge_switch" and report["attempted"] == 200
    # the seed undoes the noise: only the private record holds it, never stdout
    assert "seed" not in report and gv.load_record(record).report["seed"] == 3
    ug = gv.UncertainGraph.load(out_path)
    deg = np.bincount(np.concatenate([ug.u, ug.v]), minlength=ug.n)
    g0 = gv.io.read_edgelist(karate_file)
    np.testing.assert_array_equal(deg, g0.degrees)
    assert "wrote" in err


@pytest.mark.parametrize(
    "argv",
    [
        ("randwalk", "-t", 3),
        ("randwalk_mod", "-t", 3, "--alpha", 0.3),
        ("randwalk_mod", "-t", 2, "--uncertain"),
        ("randwalk_mod", "-t", 3, "--routing", "fixed"),
        ("randwalk_mod", "-t", 3, "--variant", "retry"),
        ("randwalk_mod", "-t", 3, "--variant", "retry", "-M", 4),
        ("obfuscation", "-k", 3, "--eps", 0.3, "--sigma", 0.5, "--attempts", 2),
        ("partition", "--parts", 2, "--scheme", "randwalk_mod", "--params", '{"t": 3}'),
    ],
)
def test_schemes_print_their_report(capsys, karate_file, argv):
    code, out, err = _run(capsys, "anonymize", argv[0], karate_file, "--seed", 1, *argv[1:])
    assert code == 0, err
    assert "scheme" in out and "timings" in out


def test_obfuscation_search_keeps_its_history_private(capsys, karate_file):
    code, out, err = _run(
        capsys,
        "anonymize",
        "obfuscation",
        karate_file,
        "-k",
        3,
        "--eps",
        0.3,
        "--attempts",
        1,
        "--tol",
        0.3,
        "--seed",
        2,
    )
    assert code == 0, err
    # the search history is measured on G0: private, so the log counts the steps only
    assert "sigma tried" not in out and "sigma=1" not in err and "eps-hat" not in err
    assert "sigma search, step 1 done" in err and "history" in err  # named as not shown


def test_mixture_needs_kept_ids(capsys, karate_file, tmp_path):
    kept, permuted = tmp_path / "kept.npz", tmp_path / "perm.npz"
    assert (
        _run(
            capsys,
            "anonymize",
            "edge_switch",
            karate_file,
            "-s",
            50,
            "-o",
            kept,
            "--keep-ids",
            "--quiet",
        )[0]
        == 0
    )
    assert (
        _run(capsys, "anonymize", "edge_switch", karate_file, "-s", 50, "-o", permuted, "--quiet")[
            0
        ]
        == 0
    )
    code, out, err = _run(
        capsys, "anonymize", "mixture", karate_file, "--anonymized", kept, "-p", 0.4, "--json"
    )
    assert code == 0, err
    assert json.loads(out)["params"]["p"] == 0.4
    code, _, err = _run(
        capsys, "anonymize", "mixture", karate_file, "--anonymized", permuted, "-p", 0.4
    )
    assert code == 2 and "--keep-ids" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("randwalk", "-t", 0), "t must be >= 1"),
        (("randwalk_mod", "-t", 2, "--alpha", 2), "alpha must lie in"),
        (("edge_switch", "-s", -1), "switches must be >= 0"),
        (("obfuscation", "-k", 0, "--eps", 0.1), "k must be >= 1"),
        (
            ("obfuscation", "-k", 30, "--eps", 0.0, "--sigma", 0.001, "--attempts", 1),
            "no attempt at sigma",
        ),
        (("mixture", "--anonymized", "nowhere.npz", "-p", 0.5), "no such file"),
        (("partition", "--parts", 2, "--scheme", "edge_switch", "--params", "[1]"), "JSON object"),
    ],
)
def test_user_errors_exit_2(capsys, karate_file, argv, needle):
    code, _, err = _run(capsys, "anonymize", argv[0], karate_file, *argv[1:])
    assert code == 2
    assert needle in err and "Traceback" not in err
