"""The numbers ``graphveil stats`` prints: size, degrees, cleaning counts, privacy and utility."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graphveil.graph import Graph
from graphveil.measure.original import eps_degree
from graphveil.measure.privacy import eps, num_signatures
from graphveil.measure.scores import EPS, H1, H2_OPEN
from graphveil.measure.utility import utility_statistics

__all__ = ["graph_stats"]


def graph_stats(
    graph: Graph,
    *,
    measures: bool = False,
    k: Sequence[int] = (30, 50, 100),
    seed: int | None = 0,
    threads: int | None = None,
) -> dict[str, Any]:
    """The numbers ``graphveil stats`` prints, as a dict.

    ``lines_read``, ``exact_repeats`` and ``reversed_pairs`` (the two kinds of merged
    duplicates) appear only for a graph read from a file, where they were counted.
    With ``measures=True`` also the graph's own privacy scores (``H1``, ``H2_open``: the numbers
    of distinct signatures, its score against itself), ``eps_k<k>`` of the graph itself and
    the utility statistics ``S_NE ... S_Diam`` (:data:`graphveil.measure.STATISTICS`).
    A directed graph: ``edges`` counts arcs, the degrees are total (in + out) degrees, plus
    ``max_in_degree`` and ``max_out_degree``; its measures are the directed signatures, eps on
    the joint (in, out) degree and the directed statistics (``statistic_names(True)``).
    """
    deg = graph.degrees
    counts = graph.build_counts
    empty = deg.size == 0
    stats: dict[str, Any] = {
        "nodes": graph.n,
        "edges": graph.m,
        "min_degree": 0 if empty else int(deg.min()),
        "mean_degree": 0.0 if empty else float(deg.mean()),
        "max_degree": 0 if empty else int(deg.max()),
        "degree_variance": 0.0 if empty else float(np.var(deg)),
        "isolated_nodes": int(np.count_nonzero(deg == 0)),
    }
    if graph.directed:
        stats["directed"] = True
        stats["max_in_degree"] = 0 if empty else int(graph.in_degrees.max())
        stats["max_out_degree"] = 0 if empty else int(graph.out_degrees.max())
    if counts.lines is not None:
        stats["lines_read"] = int(counts.lines)
    stats["self_loops_dropped"] = int(counts.self_loops)
    stats["duplicates_merged"] = int(counts.duplicates)
    for key in ("exact_repeats", "reversed_pairs"):
        value = getattr(counts, key)
        if value is not None:
            stats[key] = int(value)
    if measures:
        stats[H1.name] = num_signatures(graph, "h1", threads=threads)
        stats[H2_OPEN.name] = num_signatures(graph, "h2_open", threads=threads)
        degree = eps_degree(graph)
        for kk, value in sorted(eps(graph, graph, list(k), degree=degree, threads=threads).items()):
            stats[EPS.key(kk)] = value
        stats.update(utility_statistics(graph, seed=seed, threads=threads))
    return stats
