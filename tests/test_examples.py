"""The scripts of examples/ run as a user runs them, each in its own interpreter, and do what they say."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graphveil.io import RELEASE_KEYS

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py")) if EXAMPLES.is_dir() else []

pytestmark = pytest.mark.skipif(not SCRIPTS, reason="needs the source tree (examples/)")


def _run(script: Path, *args: str, cwd: Path) -> str:
    # A deprecated spelling in an example fails here: the examples show the current API.
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", str(script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{script.name} failed:\n{done.stderr}"
    return done.stdout


def test_every_example_is_listed_and_tested():
    listed = (EXAMPLES / "README.md").read_text()
    tested = {"publish_edge_list.py", "evaluate_release.py", "compare_schemes.py"}
    assert {s.name for s in SCRIPTS} == tested
    assert all(f"`{name}`" in listed for name in tested)


def test_publish_edge_list_publishes_only_the_release_and_seeds_nothing(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        folder.mkdir()
        out = _run(EXAMPLES / "publish_edge_list.py", str(folder), cwd=folder)
        assert "ids permuted: True" in out and "never publish it" in out
        with np.load(folder / "release.npz") as release:
            assert set(release.files) <= set(RELEASE_KEYS)  # public fields only
            assert bool(release["ids_permuted"])
        assert stat.S_IMODE((folder / "private.json").stat().st_mode) == 0o600
        assert json.loads((folder / "private.json").read_text())["permutation"]
    # Fresh OS entropy each run: a seeded example would publish the same probabilities twice
    # (under another id permutation, which save draws on its own).
    with np.load(first / "release.npz") as one, np.load(second / "release.npz") as two:
        assert not np.array_equal(np.sort(one["p"]), np.sort(two["p"]))


def test_evaluate_release_measures_and_attacks_with_the_record(tmp_path):
    out = _run(EXAMPLES / "evaluate_release.py", str(tmp_path), cwd=tmp_path)
    assert "H2_open" in out and "rel.err" in out
    assert "link inference: AUC" in out and "propagation re-identifies" in out
    assert (tmp_path / "release.npz").is_file() and (tmp_path / "private.json").is_file()


def test_compare_schemes_prints_both_rows(tmp_path):
    out = _run(EXAMPLES / "compare_schemes.py", cwd=tmp_path)
    rows = [line.split() for line in out.splitlines()[1:]]
    assert [row[0] for row in rows] == ["MaxVar", "RandWalk-mod"]
    assert all(len(row) == 6 for row in rows)
    assert list(tmp_path.iterdir()) == []  # an experiment writes nothing
