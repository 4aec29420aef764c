"""Shared plumbing of the schemes: argument checks and the report every scheme returns."""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from graphveil._common import check_int, check_real  # noqa: F401  (the schemes import them from here)
from graphveil.graph import Graph
from graphveil.uncertain import Anonymized, UncertainGraph


def check_graph(graph: Any, name: str = "graph") -> Graph:
    if not isinstance(graph, Graph):
        raise TypeError(
            f"{name} must be a graphveil.Graph, not {type(graph).__name__}; build one with "
            "Graph.from_edges / from_scipy / from_networkx"
        )
    return graph


def sorted_pairs(n: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs as ``(min, max)`` sorted by one int64 key.

    A single sort, cheaper than the lexsort the UncertainGraph constructor would otherwise run on unsorted input (it is then nearly free).
    """
    keys = np.sort(np.minimum(u, v).astype(np.int64) * n + np.maximum(u, v))
    if n == 0:
        return keys, keys
    return np.divmod(keys, n)


class Timer:
    """Collects wall-clock seconds per named phase."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - start


def finish(
    n: int,
    u: np.ndarray,
    v: np.ndarray,
    p: np.ndarray,
    *,
    scheme: str,
    params: dict[str, Any],
    seed: int | None,
    timer: Timer,
    relaxed: bool = False,
    **extra: Any,
) -> Anonymized:
    """Wrap pair arrays and a report into the :class:`Anonymized` every scheme returns."""
    with timer.phase("build"):
        graph = UncertainGraph(n, u, v, p, relaxed=relaxed)
    return finish_graph(graph, scheme=scheme, params=params, seed=seed, timer=timer, **extra)


def finish_graph(
    graph: UncertainGraph,
    *,
    scheme: str,
    params: dict[str, Any],
    seed: int | None,
    timer: Timer,
    **extra: Any,
) -> Anonymized:
    """As :func:`finish` for an uncertain graph already built (its meta is updated in place)."""
    n = graph.n
    report: dict[str, Any] = {
        "scheme": scheme,
        "params": dict(params),
        "seed": seed,
        "timings": timer.timings,
        "n": int(n),
        "pairs": graph.num_pairs,
        **extra,
    }
    report["timings"]["total"] = sum(v for k, v in timer.timings.items() if k != "total")
    graph.meta.update(copy.deepcopy(report))
    return Anonymized(graph, report)
