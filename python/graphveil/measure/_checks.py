"""The checks of a graph handed to a measure (:mod:`graphveil.measure.utility`, ``distances``).

Thin names over :mod:`graphveil._checks`, the one home of argument checks.
"""

from __future__ import annotations

from typing import Any

from graphveil._checks import check_int
from graphveil.graph import Graph, check_graph
from graphveil.multigraph import Multigraph


def measured_graph(graph: Any) -> Graph:
    return check_graph(graph, what=None)


def check_measured(graph: Any) -> Graph | Multigraph:
    """A Graph or a Multigraph (the two forms the statistics measure), else a TypeError."""
    if isinstance(graph, Multigraph):
        return graph
    return measured_graph(graph)


def is_directed(graph: Any) -> bool:
    """A directed Graph (a Multigraph is undirected)."""
    return getattr(graph, "directed", False) is True


def simple_graph(graph: Graph | Multigraph) -> Graph:
    """The simple graph of ``graph``: itself, or a multigraph's loops dropped and copies merged."""
    return graph.simple if isinstance(graph, Multigraph) else graph


def check_count(value: Any, name: str, low: int) -> int:
    return check_int(value, name, low)
