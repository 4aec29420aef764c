"""Fixtures shared by the tests (the data itself lives in graph_zoo.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from graph_zoo import ZOO

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
