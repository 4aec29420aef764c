"""Fixtures shared by the tests (the data itself lives in graph_zoo.py)."""

from __future__ import annotations

import pytest
from graph_zoo import ZOO

import graphveil as gv


@pytest.fixture(params=sorted(ZOO), ids=sorted(ZOO))
def zoo_graph(request) -> gv.Graph:
    return ZOO[request.param]
