"""Benchmarks race graphveil against its peers on the real graphs in ../shared/data.

Run:   python -m pytest benchmarks --benchmark-only          (timings)
CI:    python -m pytest benchmarks --benchmark-disable       (each once, answers still checked)
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def shared_graph_path(name: str) -> Path:
    path = SHARED_DATA / f"{name}.txt.gz"
    if not path.exists():
        pytest.skip(f"{path} not present (the shared data folder sits beside the project)")
    return path


@pytest.fixture(scope="session")
def notre_dame_path() -> Path:
    return shared_graph_path("web-NotreDame")
