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
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scripts' helpers (community_race)

from graph_zoo import shared_graph_path  # noqa: E402


@pytest.fixture(scope="session")
def notre_dame_path() -> Path:
    return shared_graph_path("web-NotreDame")


@pytest.fixture(scope="session")
def youtube_size(request):
    """The synthetic youtube-size graph (1,134,890 nodes, 2,987,624 edges), generated in ~3 s.

    Only with ``--benchmark-only``: CI's ``--benchmark-disable`` run checks the answers on the
    smaller graphs and leaves out the 2 GB this one takes.
    """
    if request.config.getoption("benchmark_disable"):
        pytest.skip("the youtube-size graph (1.1M nodes) runs with --benchmark-only")
    import graphveil as gv

    return gv.datasets.load("synthetic-youtube")
