"""The checks of a graph handed to a measure (:mod:`graphveil.measure.utility`, ``distances``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphveil.graph import Graph
from graphveil.multigraph import Multigraph


def _check_graph(graph: Any) -> Graph:
    if not isinstance(graph, Graph):
        raise TypeError(
            f"expected a graphveil.Graph, got {type(graph).__name__}; build one with "
            "Graph.from_edges, Graph.from_scipy or Graph.from_networkx"
        )
    return graph


def _check_measured(graph: Any) -> Graph | Multigraph:
    """A Graph or a Multigraph (the two forms the statistics measure), else a TypeError."""
    if isinstance(graph, Multigraph):
        return graph
    return _check_graph(graph)


def _is_directed(graph: Any) -> bool:
    """A directed Graph (a Multigraph is undirected)."""
    return getattr(graph, "directed", False) is True


def _simple(graph: Graph | Multigraph) -> Graph:
    """The simple graph of ``graph``: itself, or a multigraph's loops dropped and copies merged."""
    return graph.simple if isinstance(graph, Multigraph) else graph


def _check_count(value: Any, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)
