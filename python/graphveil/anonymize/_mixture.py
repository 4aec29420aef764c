"""Mixture (Section IV-E): the uncertain graph (1 - p) A(G0) + p A(G)."""

from __future__ import annotations

import numpy as np

from graphveil._checks import check_real
from graphveil._common import in_sorted
from graphveil.anonymize._report import Timer, finish, graph_first
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized, UncertainGraph

__all__ = ["mixture"]


@graph_first("graph", "anonymized", "p")
def mixture(graph: Graph, *, anonymized: Graph | UncertainGraph, p: float) -> Anonymized:
    """Mixture(G0, G, p): pairs in both graphs get 1, pairs only in G0 ``1 - p``, only in G ``p``.

    That is the uncertain adjacency matrix ``(1 - p) A(G0) + p A(G)``. ``G`` is an anonymized
    graph: a :class:`Graph`, or an :class:`UncertainGraph` such as the output of
    :func:`randwalk_mod` (self-loops and repeated pairs are then kept: the result is relaxed).
    More generally a pair of ``G`` with probability ``q`` gets ``(1 - p) + p q`` if it is an
    edge of G0 (its first copy) and ``p q`` otherwise, which is the same matrix.

    Directed: G0 and G both directed, the same rule on ordered pairs (arcs). Every expected
    in- and out-degree is ``(1 - p)`` times G0's plus ``p`` times G's, so both are kept when G
    keeps them in expectation (directed MaxVar, EdgeSwitch); with directed RandWalk only the
    out-degrees (up to its failed walks).

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    anonymized : Graph or UncertainGraph
        The anonymized graph G on the same nodes.
    p : float
        In ``[0, 1]``: 0 gives G0, 1 gives G.

    Returns
    -------
    Anonymized
        The report counts pairs ``in_both``, ``only_g0`` and ``only_g``.

    Raises
    ------
    ValueError
        If ``p`` lies outside ``[0, 1]``, the graphs differ in node count, or one is directed
        and the other not.

    References
    ----------
    The paper, Section IV-E.

    Examples
    --------
    Pairs in both graphs keep probability 1, pairs in one of them get ``p``:

    >>> import graphveil as gv
    >>> from graphveil.anonymize import mixture
    >>> g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])
    >>> g = gv.Graph.from_edges([0, 1, 0], [1, 2, 3])
    >>> ug, report = mixture(g0, anonymized=g, p=0.5)
    >>> list(zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()))
    [(0, 1, 1.0), (0, 3, 0.5), (1, 2, 1.0), (2, 3, 0.5)]
    """
    check_graph(graph, what="mixture", directed=True)
    g0 = graph
    p = check_real(p, "p", 0.0, 1.0)
    if isinstance(anonymized, Graph):
        ga = UncertainGraph.from_graph(anonymized)
    elif isinstance(anonymized, UncertainGraph):
        ga = anonymized
    else:
        raise TypeError(
            f"anonymized must be a Graph or an UncertainGraph, not {type(anonymized).__name__}"
        )
    if ga.n != g0.n:
        raise ValueError(f"the graphs must share their nodes: G0 has {g0.n} nodes, G has {ga.n}")
    if ga.directed != g0.directed:
        kind = {True: "directed", False: "undirected"}
        raise ValueError(
            f"G0 is {kind[g0.directed]} and G {kind[ga.directed]}: mix graphs of one kind "
            "(Graph.to_undirected() drops the arc directions)"
        )
    timer = Timer()
    with timer.phase("mix"):
        n = g0.n
        eu, ev = g0.edges()
        e_keys = eu.astype(np.int64) * n + ev
        a_keys = ga.u.astype(np.int64) * n + ga.v
        # The first copy of each pair of G (pairs are sorted, so copies are adjacent).
        first = np.ones(a_keys.size, dtype=bool)
        first[1:] = a_keys[1:] != a_keys[:-1]
        in_g0 = first & in_sorted(a_keys, e_keys)
        prob = p * ga.p + np.where(in_g0, 1.0 - p, 0.0)
        only_g0 = ~in_sorted(e_keys, a_keys[first])
        u = np.concatenate([ga.u.astype(np.int64), eu[only_g0].astype(np.int64)])
        v = np.concatenate([ga.v.astype(np.int64), ev[only_g0].astype(np.int64)])
        prob = np.concatenate([prob, np.full(int(only_g0.sum()), 1.0 - p)])
        prob = np.minimum(prob, 1.0)  # (1 - p) + p * 1 may round to 1 + 1e-16
    return finish(
        n,
        u,
        v,
        prob,
        relaxed=ga.relaxed,
        directed=g0.directed,
        scheme="mixture",
        params={"p": p, "anonymized_scheme": ga.meta.get("scheme")},
        seed=None,
        timer=timer,
        in_both=int(in_g0.sum()),
        only_g0=int(only_g0.sum()),
        only_g=int(a_keys.size - in_g0.sum()),
    )
