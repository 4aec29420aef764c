"""Fixtures shared by the tests (the data itself lives in graph_zoo.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from graph_zoo import DATA_ENV, MISSING_GRAPH, ZOO

import graphveil as gv


@pytest.fixture(params=sorted(ZOO), ids=sorted(ZOO))
def zoo_graph(request) -> gv.Graph:
    return ZOO[request.param]


@contextlib.contextmanager
def _two_workers(processes: bool) -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="session")
def two_workers() -> Callable[[bool], contextlib.AbstractContextManager[Any]]:
    """``with two_workers(processes) as client``: a client of a 2-worker LocalCluster, one
    thread a worker (skips without Dask)."""
    return _two_workers


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many tests skipped for want of a real graph, and how to run them."""
    names = []
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        if reason.startswith(f"Skipped: {MISSING_GRAPH}") or reason.startswith(MISSING_GRAPH):
            names.append(reason.split(" no ", 1)[1].split(".txt.gz", 1)[0])
    if names:
        counts = ", ".join(f"{name} ({names.count(name)})" for name in sorted(set(names)))
        terminalreporter.write_line(
            f"graphveil: {len(names)} tests skipped without their real graph: {counts}; set "
            f"{DATA_ENV} to a folder of <name>.txt.gz files (`graphveil datasets fetch NAME` "
            "writes there) to run them (pytest -rs lists them)"
        )
