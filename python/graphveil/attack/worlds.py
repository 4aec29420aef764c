"""The graphs a de-anonymization attack reads from a release: its attacked worlds.

An uncertain release is not one graph; a structural attacker must pick one. Every
re-identification attack of :mod:`graphveil.attack.registry` runs against the same three:

- ``sampled``: one possible world drawn from the release (:meth:`~graphveil.UncertainGraph.sample`);
- ``most_likely``: the pairs of ``p >= 0.5``;
- ``top_m``: the ``m`` published pairs of highest ``p`` (``m`` = the edges of ``G0``, which the
  attacker is assumed to know; fewer when fewer pairs have ``p > 0``). Equal ``p`` are ordered by
  the pair's ids as the attacker sees them (the hidden ids), so the cut is deterministic and reads
  nothing the attacker could not.

A deterministic release (a :class:`~graphveil.Graph`, or every ``p`` in {0, 1}) is one graph, so
its three worlds are that graph (its top-m world keeps ``m`` of its edges when it has more).
"""

from __future__ import annotations

import numpy as np

from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = ["WORLDS", "most_likely_world", "top_m_world"]

#: The attacked worlds of a release, in the order of every report.
WORLDS = ("sampled", "most_likely", "top_m")


def most_likely_world(ug: UncertainGraph) -> Graph:
    """The pairs of ``p >= 0.5`` of ``ug`` (simplified first), directed if ``ug`` is.

    Examples
    --------
    >>> import graphveil as gv
    >>> ug = gv.UncertainGraph(3, [0, 1], [1, 2], [0.5, 0.4])
    >>> most_likely_world(ug).m
    1
    """
    simple = ug.simplified()
    keep = simple.p >= 0.5
    return Graph.from_edges(simple.u[keep], simple.v[keep], ug.n, directed=ug.directed)


def top_m_world(ug: UncertainGraph, m: int, ids: np.ndarray | None = None) -> Graph:
    """The ``m`` pairs of highest ``p > 0`` of ``ug`` (simplified first), directed if ``ug`` is.

    Parameters
    ----------
    ug : UncertainGraph
    m : int
        Pairs to keep (all those of ``p > 0`` when fewer).
    ids : numpy.ndarray, optional
        The ids the attacker sees, ``ids[u]`` for node ``u`` (a permutation): equal ``p`` are
        ordered by the pair's ``(ids[u], ids[v])`` (undirected: smaller id first). Default: the
        node ids themselves.

    Examples
    --------
    >>> import graphveil as gv
    >>> ug = gv.UncertainGraph(4, [0, 1, 2], [1, 2, 3], [0.5, 0.9, 0.5])
    >>> top_m_world(ug, 2).edges()[0].tolist()  # p 0.9, then (0, 1) before (2, 3)
    [0, 1]
    >>> top_m_world(ug, 2, ids=np.array([3, 2, 1, 0])).edges()[0].tolist()  # (2, 3) is seen as (0, 1): first
    [1, 2]
    """
    simple = ug.simplified()
    n = ug.n
    u, v, p = simple.u.astype(np.int64), simple.v.astype(np.int64), simple.p
    a, b = (u, v) if ids is None else (ids[u], ids[v])
    if not ug.directed:
        a, b = np.minimum(a, b), np.maximum(a, b)
    order = np.lexsort((b, a, -p))
    keep = order[: min(int(m), int(np.count_nonzero(p > 0)))]
    return Graph.from_edges(u[keep], v[keep], n, directed=ug.directed)
