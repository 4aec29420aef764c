"""Smoke test of an installed graphveil: anonymize karate with MaxVar, then evaluate it.

Runs the installed command-line entry point (``python -m graphveil``) the way a user would, in
a temporary folder, and checks the report against facts known about Zachary's karate club
(34 nodes, 78 edges, diameter 5). Used by .ci/run on the built wheel and by cibuildwheel's
test-command on every platform. Exits non-zero on any failure.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import graphveil


def run(*args: str) -> None:
    command = [sys.executable, "-m", "graphveil", *args]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def main() -> int:
    print(f"graphveil {graphveil.__version__} from {Path(graphveil.__file__).parent}")
    print(f"default_threads() = {graphveil.default_threads()}")
    with tempfile.TemporaryDirectory() as folder:
        ug = str(Path(folder) / "karate-maxvar.npz")
        report = Path(folder) / "report.json"
        run("anonymize", "maxvar", "--dataset", "karate_club", "--n-potential", "40",
            "--parts", "2", "--allow-fewer", "--seed", "1", "--keep-ids", "--quiet", "-o", ug)
        run("evaluate", "--dataset", "karate_club", ug, "--samples", "3", "--seed", "1",
            "--json", str(report))
        result = json.loads(report.read_text())
    original = result["original"]
    assert (result["n"], result["m"], result["samples"]) == (34, 78, 3), result
    assert original["S_NE"] == 78 and original["S_Diam"] == 5, original
    assert len(result["per_sample"]) == 3
    for row in result["per_sample"]:
        assert 0 <= row["H1"] <= 34 and row["S_NE"] > 0, row
    print(f"smoke test passed: mean S_NE {result['mean']['S_NE']:.1f} of 78, H1 {result['mean']['H1']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
