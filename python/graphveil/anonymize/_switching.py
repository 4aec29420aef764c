"""EdgeSwitch (Section IV-C): degree-preserving random edge switches."""

from __future__ import annotations

import numpy as np

from graphveil import _core
from graphveil._checks import check_int
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._report import Timer, finish, graph_first, sorted_pairs
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["edge_switch"]

#: The most switch attempts per edge, s / m (the authors' grid goes to 0.5): a bound on the
#: work (1.4M attempts on ca-GrQc take 0.3 s); long before it the switches have mixed the edges
#: into a random graph with G0's degrees.
MAX_SWITCHES_PER_EDGE = 100


@graph_first("graph", "switches")
def edge_switch(
    graph: Graph,
    *,
    switches: int,
    nearby: bool = False,
    dyads: bool = False,
    seed: SeedLike = None,
) -> Anonymized:
    """EdgeSwitch: ``switches`` attempted degree-preserving switches; a deterministic output.

    ``nearby=False`` (the classic switch): pick two edges ``{u, w}``, ``{v, t}`` uniformly at
    random with a random orientation and replace them by ``{u, t}``, ``{v, w}``.
    ``nearby=True`` (our local variant, in the spirit of MaxVar's friend-of-friend pairs): pick
    an edge ``{w, v}`` uniformly, a uniform neighbour ``u`` of ``w`` and ``t`` of ``v``, and
    replace ``{u, w}``, ``{v, t}`` by ``{u, v}``, ``{w, t}``, two pairs at distance 2.
    An attempt that would create a self-loop or an existing edge is skipped, so the output
    is a simple graph with exactly the degree sequence of the input.

    Directed ``graph`` (the directed switch, ``nearby=False`` only): pick two arcs ``x -> y``,
    ``u -> v`` uniformly and replace them by ``x -> v``, ``u -> y``, skipping a switch that
    would create a loop or an existing arc. Every out-degree and every in-degree is kept
    exactly (so in expectation too). This chain does not reach every digraph with the same
    degrees: no sequence of 2-arc switches reverses a directed 3-cycle ``a -> b -> c -> a``
    (Rao, Jana and Bandyopadhyay 1996; networkx issue 441, igraph issue 1456), and it does not
    keep the mutual dyads (pairs joined both ways): reciprocity falls towards the
    configuration model's.

    ``dyads=True`` (directed only): the dyad-aware chain, which keeps every in-degree, every
    out-degree **and the number of mutual dyads exactly** (so the reciprocity, ``2 x mutual
    dyads / m``, is G0's in every world). Each attempt draws one of three moves with
    probability 1/3, each a k-arc switch (Tabourier, Roth and Cointet 2011: k arcs replaced by
    arcs with the same tails and permuted heads): the 2-arc switch above; the rotation of the
    heads of three uniform arcs, which reverses a directed 3-cycle; and the switch of two
    mutual dyads ``{x, y}``, ``{u, v}`` into ``{x, v}``, ``{u, y}`` (as Milo et al. 2002 switch
    mutual edges among themselves). A move that would create a loop or a present arc, or
    change the number of mutual dyads, is rejected. Every move is its own reverse with the same
    probability, so the chain's stationary law is uniform over the digraphs it reaches;
    ``tests/test_directed_schemes.py`` enumerates the state spaces of small digraphs and checks
    that it reaches every one (the 2-arc chain misses the reversed 3-cycle).

    Sequential (each switch depends on the previous ones) with one random stream; O(m) set-up
    and O(1) expected work per attempt.

    Parameters
    ----------
    graph : Graph
        The true graph G0 (fewer than 2**32 nodes).
    switches : int
        Number of attempted switches s, 0 to 100 m.
    nearby : bool
        Use the local (distance-2) variant (undirected graphs only).
    dyads : bool
        The dyad-aware chain (directed graphs only, ``nearby=False``): mutual dyads kept too.
    seed : int, numpy.random.Generator or None
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.

    Returns
    -------
    Anonymized
        All p = 1; the report gives ``attempted`` and ``performed`` switches.

    Raises
    ------
    ValueError
        If ``switches`` lies outside ``0..100 m``, or ``nearby=True`` on a directed graph, or
        ``dyads=True`` on an undirected graph.

    References
    ----------
    The paper, Section IV-C; Ying and Wu, "Randomizing social networks: a spectrum preserving
    approach", SDM 2008. Rao, Jana and Bandyopadhyay, "A Markov chain Monte Carlo method for
    generating random (0, 1)-matrices with given marginals", Sankhya A 58, 1996 (the 2-switch
    and the 3-cycle reversal connect the digraphs with given degrees). Milo, Shen-Orr,
    Itzkovitz, Kashtan, Chklovskii and Alon, "Network motifs: simple building blocks of complex
    networks", Science 298, 2002 (randomized networks keeping the mutual edges). Tabourier,
    Roth and Cointet, "Generating constrained random graphs using multiple edge switches",
    ACM Journal of Experimental Algorithmics 16, 2011.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import edge_switch
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = edge_switch(g, switches=10, seed=1)
    >>> ug.num_pairs == g.m, report["performed"] <= report["attempted"]
    (True, True)
    """
    check_graph(graph, what="edge_switch", directed=True)
    switches = check_int(switches, "switches", 0, " (the number of switch attempts s)")
    most = MAX_SWITCHES_PER_EDGE * max(graph.m, 1)
    if switches > most:
        raise ValueError(
            f"switches must lie in 0..{most:,} ({MAX_SWITCHES_PER_EDGE} per edge), got {switches:,}"
        )
    if nearby and graph.directed:
        raise ValueError(
            "nearby=True has no directed form (its switch follows undirected paths u-w-v-t); "
            "use nearby=False for a directed graph"
        )
    if dyads and not graph.directed:
        raise ValueError(
            "dyads=True is for directed graphs (it keeps the mutual dyads, pairs joined both "
            "ways); drop it for an undirected graph"
        )
    params = {"switches": switches, "nearby": bool(nearby)}
    if dyads:  # recorded when set, so the default's release is as before
        params["dyads"] = True
    seed64 = seed_to_u64(seed)
    timer = Timer()
    with timer.phase("switch"):
        u, v, performed = _core.edge_switch(
            graph.indptr,
            graph.indices,
            switches,
            bool(nearby),
            seed64,
            directed=graph.directed,
            dyads=bool(dyads),
        )
    with timer.phase("sort"):
        if graph.directed:  # arcs: sort by (u, v), keep the direction
            order = np.lexsort((v, u))
            u, v = u[order], v[order]
        else:
            u, v = sorted_pairs(graph.n, u, v)
    return finish(
        graph.n,
        u,
        v,
        np.ones(u.size),
        directed=graph.directed,
        scheme="edge_switch",
        params=params,
        seed=seed64,
        timer=timer,
        attempted=switches,
        performed=int(performed),
    )
