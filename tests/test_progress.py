"""Progress bars of long work: on a terminal one bar with an ETA, nothing when stderr is not one."""

from __future__ import annotations

import sys

import pytest

import graphveil as gv
from graphveil.cli import main


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


@pytest.fixture
def release(tmp_path):
    g = gv.datasets.load("karate_club")
    ug, _ = gv.anonymize.maxvar(g, n_potential=30, parts=1, seed=2)
    path = tmp_path / "pub.npz"
    ug.save(path, keep_ids=True)
    return path


def _stderr(capsys, monkeypatch, terminal: bool, *argv: object) -> str:
    # capsys's stderr stands in for the terminal: isatty says what a terminal would
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().err


@pytest.mark.parametrize("terminal", [True, False])
def test_evaluate_draws_one_bar_over_the_samples_on_a_terminal(
    capsys, monkeypatch, release, terminal
):
    argv = ("evaluate", "--dataset", "karate_club", release, "--samples", "4", "--k", "2")
    err = _stderr(capsys, monkeypatch, terminal, *argv)
    assert ("samples: 100%" in err and "4/4" in err) is terminal
    assert ("it/s" in err or "sample/s" in err or "s/sample" in err) is terminal
    if not terminal:
        assert "samples:" not in err


@pytest.mark.parametrize("terminal", [True, False])
def test_reproduce_draws_one_bar_over_points_and_samples_on_a_terminal(
    capsys, monkeypatch, tmp_path, terminal
):
    argv = (
        "reproduce", "--dataset", "karate_club", "--schemes", "maxvar", "randwalk",
        "--grid", "maxvar=0.5", "--grid", "randwalk=2", "--samples", "2", "--k", "2",
        "--no-figures", "--no-attacks", "-o", tmp_path / "study",
    )  # fmt: skip
    err = _stderr(capsys, monkeypatch, terminal, *argv)
    assert ("study: 100%" in err and "4/4" in err) is terminal  # 2 points x 2 samples
    assert "randwalk=2: done" in err  # the progress lines are kept, above the bar
    if not terminal:
        assert "study:" not in err and "%|" not in err


def test_reproduce_quiet_draws_no_bar_on_a_terminal(capsys, monkeypatch, tmp_path):
    argv = (
        "reproduce", "--dataset", "karate_club", "--schemes", "randwalk", "--grid", "randwalk=2",
        "--samples", "2", "--k", "2", "--no-figures", "--no-attacks", "-q", "-o", tmp_path / "q",
    )  # fmt: skip
    assert "%|" not in _stderr(capsys, monkeypatch, True, *argv)
