"""Benchmarks race graphveil against its peers on the real graphs in ../shared/data.

Run:   python -m pytest benchmarks --benchmark-only          (timings)
CI:    python -m pytest benchmarks --benchmark-disable       (each once, answers still checked)
"""

from __future__ import annotations

from pathlib import Path

import pytest


def _shared_data() -> Path:
    # The project sits beside ../shared (in /work/main and in a helper's /work/wt/<name> alike).
    here = Path(__file__).resolve()
    for parent in here.parents[1:]:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return here.parents[1].parent / "shared" / "data"


SHARED_DATA = _shared_data()


def shared_graph_path(name: str) -> Path:
    path = SHARED_DATA / f"{name}.txt.gz"
    if not path.exists():
        pytest.skip(f"{path} not present (the shared data folder sits beside the project)")
    return path


@pytest.fixture(scope="session")
def notre_dame_path() -> Path:
    return shared_graph_path("web-NotreDame")
