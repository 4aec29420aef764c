"""Benchmarks race graphveil against its peers on the real graphs in ../shared/data.

Run:   python -m pytest benchmarks --benchmark-only          (timings)
CI:    python -m pytest benchmarks --benchmark-disable       (each once, answers still checked)

The paths to the shared graphs come from tests/graph_zoo.py (one definition for both folders).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from graph_zoo import shared_graph_path  # noqa: E402


@pytest.fixture(scope="session")
def notre_dame_path() -> Path:
    return shared_graph_path("web-NotreDame")
