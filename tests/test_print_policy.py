"""The print policy: the terminal and --json show only the public part of a scheme's report.

Public are the parameters the user chose and the quantities read off the release or off
DP-noised values (:func:`graphveil.anonymize.registry.public_report`); every other key of the
report (true edges kept, counts and searches on G0, the seed) goes to the private run record
only. One run per registered scheme (and per alternative form of its command).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import graphveil as gv
from graphveil.anonymize import edgeflip, registry
from graphveil.cli import main

#: Runs beyond each command's example (its record's ``Cli.example``, and with its alternative's
#: flag): other forms whose reports hold other keys. ``{release}`` is a release of karate
#: written with --keep-ids.
MORE_RUNS = {
    "obfuscation": [("-k", "5", "--eps", "0.1", "--sigma", "0.5")],
    "randwalk_mod": [("-t", "3", "--variant", "retry")],
    "maxvar": [("--n-potential", "20", "--parts", "2")],
    "edgeflip": [("--epsilon", "3", "--form", "uncertain")],
    "dp_dk": [("--epsilon", "2", "-k", "2")],
    "privgraph": [("--epsilon", "2", "--group-size", "5")],
}


def _runs() -> dict[str, list[tuple[str, ...]]]:
    """Every command's runs: its example (and with its alternative), then :data:`MORE_RUNS`."""
    clis = {name: registry.scheme(name).cli for name in registry.names()}
    clis["partition"] = registry.PARTITION_CLI
    runs = {}
    for name, cli in clis.items():
        alternative = [(*cli.example, cli.alternative.flag)] if cli.alternative else []
        runs[name] = [cli.example, *alternative, *MORE_RUNS.get(name, [])]
    return runs


def test_the_extra_runs_name_commands():
    assert set(MORE_RUNS) <= set(_runs())


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("mixed") / "g.npz"
    argv = ["anonymize", "edge_switch", "--dataset", "karate_club", "-s", "40", "--seed", "2"]
    assert main([*argv, "-o", str(path), "--keep-ids", "-q"]) == 0
    return str(path)


def _cases():
    return [(name, argv) for name, runs in _runs().items() for argv in runs]


@pytest.mark.parametrize(("name", "argv"), _cases())
def test_default_output_holds_nothing_private(name, argv, mixed, tmp_path, capsys):
    argv = [a.replace("{release}", mixed) for a in argv]
    base = ["anonymize", name, "--dataset", "karate_club", "--seed", "1", *argv]
    out, record = tmp_path / "r.npz", tmp_path / "r.record.npz"
    assert main([*base, "-o", str(out), "--record", str(record), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    report = gv.load_record(record).report
    public = registry.public_report(name, report)
    private = set(report) - set(public)
    assert "seed" in private  # the record keeps what the output leaves out
    assert shown.keys() == public.keys()  # the JSON: the public keys, and no other
    assert main([*base, "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    labels = {line[: line.index("  ")] for line in lines if "  " in line}
    assert labels <= {key.replace("_", " ") for key in public} | {"timings (s)"}
    assert not {key.replace("_", " ") for key in private} & labels
    assert all(not line.startswith(tuple(k.replace("_", " ") for k in private)) for line in lines)


def test_the_kept_edges_of_a_dp_release_stay_private(capsys):
    """The issue's leak: ``kept edges 34`` (true edges in the release) on tmf's terminal."""
    assert (
        main(["anonymize", "tmf", "--dataset", "karate_club", "--epsilon", "2", "--seed", "1"]) == 0
    )
    out, err = capsys.readouterr()
    assert "kept" not in out and "added" not in out
    assert "private, not shown: kept edges, added pairs" in err and "--record" in err


def test_edgeflip_refuses_from_public_quantities_only():
    """The refusal and its wording read n and epsilon, never the true edge count m.

    Two graphs on the same nodes, 0 and 50,000 edges: the same decision, the same words; the
    true m cannot be read back from the message (the budget spent on the decision is 0).
    """
    n = 5_000
    rng = np.random.default_rng(0)
    dense = gv.Graph.from_edges(rng.integers(0, n, 60_000), rng.integers(0, n, 60_000), n)
    empty = gv.Graph.from_edges([], [], n)
    messages = []
    for graph in (empty, dense):
        with pytest.raises(ValueError, match="use tmf") as err:
            edgeflip(graph, epsilon=1.0, max_pairs=1_000_000)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert f"{dense.m:,}" not in messages[1]
    assert "3,361,095 non-edges" in messages[0]  # N / (1 + e), N = n (n - 1) / 2
    # the bound it names is where the public estimate falls to max_pairs
    assert "raise epsilon to at least 2.45" in messages[0]
    ug, _ = edgeflip(empty, epsilon=2.45, max_pairs=1_000_000, seed=1)
    assert ug.num_pairs == pytest.approx(n * (n - 1) / 2 / (1 + np.exp(2.45)), rel=0.01)
    with pytest.raises(ValueError, match="at least 2.45"):
        edgeflip(dense, epsilon=2.44, max_pairs=1_000_000)


def test_the_study_names_edgeflips_bound_without_m():
    """study.md printed max_pairs = 20 m; the reason now names the bound, not its value."""
    from graphveil.experiments import StudyConfig, reproduce

    g = gv.datasets.load("ca-GrQc")
    study = reproduce(
        g,
        StudyConfig(samples=1, k=(5,)),
        schemes=["edgeflip"],
        grid={"edgeflip": [0.5]},
        figures=False,
    )
    (row,) = study.not_applicable
    assert "20 pairs per true edge" in row["reason"]
    assert f"{20 * g.m:,}" not in row["reason"] and str(20 * g.m) not in row["reason"]
