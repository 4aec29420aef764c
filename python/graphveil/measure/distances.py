"""The distance statistics of Section VI-B: ``S_APD``, ``S_EDiam``, ``S_CL`` and ``S_Diam``.

All-pairs BFS, sampled BFS sources, HyperBall, and the diameter (iFUB, or a BFS lower bound):
rows of :data:`~graphveil.measure.utility.STATISTIC_TABLE`, whose module documents the
conventions for degenerate graphs. Every name here is also importable from
:mod:`graphveil.measure.utility` and :mod:`graphveil.measure`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads, require_undirected
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph
from graphveil.measure._checks import check_count, measured_graph

#: Graphs with at most this many nodes get exact all-pairs distances by default. Measured (CPU
#: seconds, one core): exact 0.03 s on facebook_combined (4k nodes, 88k edges), 0.3 s on ca-HepTh
#: (10k / 26k), 2.6 s on ca-AstroPh (19k / 198k) and 1.6-2.3 s on email-Enron (37k / 184k), against
#: 0.2-0.3 s for HyperBall on the last two; the cost of exact grows as n * m. Above it the
#: default estimator is 1,000 BFS sources (``"sampled"``), measured more accurate than HyperBall
#: on every real graph above 10k nodes (see :func:`distance_statistics`).
EXACT_THRESHOLD = 10_000
#: Default number of HyperLogLog registers per node is ``2**HYPERBALL_LOG2M``.
HYPERBALL_LOG2M = 7


# ----------------------------------------------------------------------------------- distances
#: BFS sources of the sampled distance statistics and of the diameter's lower bound (the paper
#: bounds S_Diam with 1,000). Their error falls as 1 / sqrt(sources), their cost grows with them.
DISTANCE_SOURCES = 1000


def _random_sources(graph: Graph, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct non-isolated nodes, sorted (all of them if there are fewer)."""
    # a directed graph's source needs an out-arc (it reaches nothing else)
    candidates = np.flatnonzero((graph.out_degrees if graph.directed else graph.degrees) > 0)
    if candidates.size <= count:
        return candidates.astype(np.int64)
    return np.sort(rng.choice(candidates, size=count, replace=False)).astype(np.int64)


def distance_histogram(
    graph: Graph, sources: Any = None, *, threads: int | None = None
) -> np.ndarray:
    """Number of ordered pairs (s, t) at each BFS distance 0, 1, 2, ..., from the given sources.

    ``hist[0]`` counts the sources themselves; unreachable targets are not counted. With
    ``sources=None`` every node is a source, so ``hist[d]`` for ``d >= 1`` is twice the number of
    unordered node pairs at distance ``d`` (the exact distance distribution). Computed by
    bit-parallel BFS, 256 sources per pass, batches in parallel, over a copy of the graph with
    its degree-1 nodes folded into their neighbours; exact integers, so the answer does not
    depend on ``threads`` or on the node order. Cost: about ``n_sources / 256`` times a few
    passes over the edges, and 96 bytes per non-leaf node per thread (threads are capped to
    stay within about 2 GiB).

    Parameters
    ----------
    graph : Graph
    sources : array_like of int, optional
        Node ids to start from (repeats allowed; each counts). Default: all nodes.
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    numpy.ndarray of int64

    Raises
    ------
    IndexError
        If a source is not a node id.

    Examples
    --------
    >>> distance_histogram(Graph.from_edges([0, 1], [1, 2])).tolist()
    [3, 4, 2]
    """
    graph = measured_graph(graph)
    if sources is None:
        src = np.arange(graph.n, dtype=np.int64)
    else:
        src = np.ascontiguousarray(np.asarray(sources), dtype=np.int64).ravel()
        if src.size and (src.min() < 0 or src.max() >= graph.n):
            raise IndexError(f"sources must be node ids in 0..{graph.n - 1}")
    # a directed graph's distances follow its arcs: the out-CSR's BFS (no leaf folding, no pull)
    kernel = _core.directed_distance_histogram if graph.directed else _core.distance_histogram
    return kernel(graph.indptr, graph.indices, src, check_threads(threads))


def neighbourhood_function(
    graph: Graph,
    *,
    log2m: int = HYPERBALL_LOG2M,
    seed: SeedLike = None,
    threads: int | None = None,
) -> np.ndarray:
    """HyperBall (HyperANF) estimate of ``N(t)``, the ordered pairs within distance ``t``.

    ``N(0) ~ n`` (every node reaches itself), ``N(t)`` for ``t = 0, 1, ...`` until no counter
    changes, so ``N[-1]`` estimates the pairs in a common component (nodes themselves included).
    One HyperLogLog counter of ``2**log2m`` one-byte registers per node, two copies:
    ``2**(log2m+1)`` bytes per node plus 10 (266 MB for a million nodes at the default
    ``log2m=7``); a seeded 64-bit hash; Ertl's improved estimator (unbiased from one element up).
    Each counter's relative standard error is ``1.04 / sqrt(2**log2m)`` (9.2% at ``log2m=7``).
    Counters of nodes whose balls overlap share registers, so their errors do not average out
    across nodes: ``N(t)`` as a whole has a relative error of the same order (see
    :func:`distance_statistics` for the measured error of the derived statistics). Deterministic for a given seed and any ``threads``.

    Parameters
    ----------
    graph : Graph
    log2m : int, default 7
        Registers per counter as a power of two, 4..16.
    seed : int, numpy.random.Generator or None
        Picks the hash function.
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    numpy.ndarray of float64

    References
    ----------
    P. Boldi, M. Rosa, S. Vigna, "HyperANF: approximating the neighbourhood function of very large
    graphs on a budget", WWW 2011; O. Ertl, "New cardinality estimation algorithms for HyperLogLog
    sketches", arXiv:1702.01284. The paper (Section VI-B) uses ANF for the same purpose.
    """
    require_undirected(graph, "neighbourhood_function")
    graph = measured_graph(graph)
    log2m = check_count(log2m, "log2m", 4)
    if log2m > 16:
        raise ValueError(f"log2m must lie in 4..16, got {log2m}")
    return _core.hyperball(
        graph.indptr, graph.indices, log2m, seed_to_u64(seed), 0, check_threads(threads)
    )


def _from_pairs(pairs: np.ndarray) -> dict[str, float]:
    """APD, EDiam, CL from pair counts at distance 1, 2, ... (any common scale)."""
    nan = float("nan")
    total = float(pairs.sum())
    if total <= 0:
        return {"S_APD": nan, "S_EDiam": nan, "S_CL": nan}
    d = np.arange(1, pairs.size + 1, dtype=np.float64)
    cum = np.cumsum(pairs)
    # Integer counts compare exactly: smallest h with 10 * cum(h) >= 9 * total.
    if pairs.dtype.kind in "iu":
        h = int(np.argmax(10 * cum >= 9 * cum[-1])) + 1
    else:
        h = int(np.searchsorted(cum, 0.9 * total * (1 - 1e-12), side="left")) + 1
    return {
        "S_APD": float((d * pairs).sum() / total),
        "S_EDiam": float(min(h, pairs.size)),
        "S_CL": float(total / (pairs / d).sum()),
    }


def diameter_lower_bound(
    graph: Graph,
    *,
    sources: int = DISTANCE_SOURCES,
    seed: SeedLike = None,
    threads: int | None = None,
) -> int:
    """``S_Diam``: the largest distance found by BFS from ``sources`` random nodes.

    A lower bound on the diameter (the largest distance between connected nodes), exact when
    ``sources >= `` the number of non-isolated nodes. Sources are drawn without replacement among
    the non-isolated nodes with a generator seeded by ``seed``. 0 for a graph without edges.

    Parameters
    ----------
    graph : Graph
    sources : int, default 1000
        Number of BFS sources (the paper: 1,000).
    seed : int, numpy.random.Generator or None
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    int

    References
    ----------
    Section VI-B ("Shortest path-based statistics") of the paper.

    Examples
    --------
    >>> diameter_lower_bound(Graph.from_edges([0, 1, 2], [1, 2, 3]), seed=1)
    3
    """
    require_undirected(graph, "diameter_lower_bound")
    graph = measured_graph(graph)
    sources = check_count(sources, "sources", 1)
    rng = np.random.default_rng(seed_to_u64(seed))
    src = _random_sources(graph, sources, rng)
    return max(distance_histogram(graph, src, threads=threads).size - 1, 0)


class Statistics(dict):
    """The ten statistics (a plain ``{name: float}`` dict) and how ``S_Diam`` was found.

    ``diameter_method`` is ``"exact"`` (all-pairs BFS), ``"ifub"`` (exact, :func:`diameter`) or
    ``"lower_bound"`` (iFUB's BFS budget ran out; see :func:`diameter`).
    """

    def __init__(self, values: dict[str, float], diameter_method: str) -> None:
        super().__init__(values)
        self.diameter_method = diameter_method


#: BFS budget of :func:`diameter`'s iFUB before it falls back to the sampled lower bound.
DIAMETER_MAX_BFS = 100


def diameter(
    graph: Graph,
    *,
    max_bfs: int = DIAMETER_MAX_BFS,
    sources: int = DISTANCE_SOURCES,
    seed: SeedLike = None,
    threads: int | None = None,
    known: int | None = None,
) -> tuple[float, str]:
    """``S_Diam``, the largest finite distance, exact by iFUB at any size; and how it was found.

    iFUB (Crescenzi et al., TCS 2013) on every connected component, largest first: a 2-sweep
    gives a lower bound and a central node, then the eccentricities of the farthest nodes close
    the gap to the upper bound. It usually needs a few to a few dozen BFS (web-NotreDame:
    diameter 46 in 3 BFS, 0.13 s). As soon as it
    could need more than ``max_bfs`` BFS (the next fringe level is too wide) it falls back to
    the larger of its own lower bound and :func:`diameter_lower_bound` with ``sources`` random
    sources; 100 BFS cost about 4 times that bound's 1,000 bit-parallel BFS. The real graphs
    of ../shared/data need 3-11 BFS; a 1.1M-node Holme-Kim graph (``synthetic-youtube``: small
    diameter, wide fringe levels) does not fit the budget and falls back.

    Parameters
    ----------
    graph : Graph
    max_bfs : int, default 100
        BFS budget of iFUB (>= 3).
    sources, seed, threads
        For the fallback lower bound only.
    known : int, optional
        A lower bound already at hand: the longest distance of a :func:`distance_histogram`
        from sampled sources (:func:`distance_statistics` passes it). iFUB starts from it and
        stops sooner, and if the budget runs out it is the fallback bound, instead of a new
        BFS from ``sources`` random sources. The answer is the same whenever iFUB completes.

    Returns
    -------
    (float, str)
        The diameter (0 without edges) and ``"ifub"`` (exact) or ``"lower_bound"``.

    References
    ----------
    Crescenzi, Grossi, Habib, Lanzi, Marino, "On computing the diameter of real-world undirected
    graphs", Theoretical Computer Science 514 (2013).

    Examples
    --------
    >>> diameter(Graph.from_edges([0, 1, 2], [1, 2, 3]))
    (3.0, 'ifub')
    """
    require_undirected(graph, "diameter")
    graph = measured_graph(graph)
    max_bfs = check_count(max_bfs, "max_bfs", 3)
    if known is not None:
        known = check_count(known, "known", 0)
    value, exact, _ = _core.diameter_ifub(graph.indptr, graph.indices, max_bfs, known or 0)
    if exact:
        return float(value), "ifub"
    if known is None:
        known = diameter_lower_bound(graph, sources=sources, seed=seed, threads=threads)
    return float(max(value, known)), "lower_bound"


#: The ways :func:`distance_statistics` finds ``S_Diam`` above the all-pairs size.
DIAMETER_METHODS = ("ifub", "lower_bound")


def diameter_choice(
    g0: Graph,
    *,
    exact_threshold: int = EXACT_THRESHOLD,
    max_bfs: int = DIAMETER_MAX_BFS,
) -> str:
    """How ``S_Diam`` is found for G0 and every sample measured against it.

    ``"ifub"`` when iFUB proves G0's diameter within ``max_bfs`` BFS (or G0 is small enough for
    all-pairs distances), else ``"lower_bound"``: then G0 and every sample take the longest
    distance from the same 1,000 random sources (the paper's S_Diam), so that both sides of
    rel.err use one estimator. With iFUB on both, a graph whose search gives up (G0 of
    synthetic-youtube: bound 12 after 15 BFS) would be compared with samples where it succeeds
    (exact 14 after 6-93 BFS, 0.9-11 s a sample: ``benchmarks/sample_cost.py``).

    Examples
    --------
    >>> diameter_choice(Graph.from_edges([0, 1, 2], [1, 2, 3]), exact_threshold=0)
    'ifub'
    """
    g0 = measured_graph(g0)
    if g0.n <= check_count(exact_threshold, "exact_threshold", 0):
        return "ifub"
    if g0.directed:  # no iFUB along arcs: the sampled sources' longest distance, on both sides
        return "lower_bound"
    max_bfs = check_count(max_bfs, "max_bfs", 3)
    _value, exact, _bfs = _core.diameter_ifub(g0.indptr, g0.indices, max_bfs, 0)
    return "ifub" if exact else "lower_bound"


def distance_statistics(
    graph: Graph,
    *,
    method: str = "auto",
    exact_threshold: int = EXACT_THRESHOLD,
    sources: int = DISTANCE_SOURCES,
    log2m: int = HYPERBALL_LOG2M,
    diameter_max_bfs: int = DIAMETER_MAX_BFS,
    diameter_method: str = "ifub",
    seed: SeedLike = None,
    threads: int | None = None,
) -> Statistics:
    """The shortest-path statistics ``S_APD, S_EDiam, S_CL, S_Diam`` over connected pairs.

    ``S_APD`` is the mean distance and ``S_CL`` the harmonic mean of the distances over all pairs
    of distinct nodes joined by a path; ``S_EDiam`` the smallest integer ``h`` such that at least
    90% of those pairs are within distance ``h``; ``S_Diam`` the largest distance (the paper:
    a lower bound from 1,000 BFS sources; here exact at every size, see :func:`diameter`).

    ``method="exact"`` runs BFS from every node (bit-parallel, see :func:`distance_histogram`);
    all four values are then exact. ``method="hyperball"`` estimates the first three from
    :func:`neighbourhood_function`. For both of these and ``"sampled"``, ``S_Diam`` comes from
    :func:`diameter` (iFUB, exact unless its BFS budget runs out). The returned
    :class:`~graphveil.measure.distances.Statistics` records how in ``diameter_method``: ``"exact"`` (all-pairs BFS),
    ``"ifub"`` or ``"lower_bound"`` (the budget ran out: the larger of iFUB's bound and the
    ``sources``-source bound, the paper's own definition; ``"sampled"`` takes it from the same
    BFS as its distances, and starts iFUB from it). ``method="sampled"`` uses the BFS histogram from the ``sources``
    random nodes for the first three (an unbiased estimate of the distance distribution).
    ``"auto"`` is exact when ``n <= exact_threshold``, else ``"sampled"``.

    A directed graph's distances follow its arcs (pairs without a directed path are left out):
    ``"exact"`` and ``"sampled"`` as above (sources drawn among the nodes with an out-arc),
    ``S_Diam`` exact with ``"exact"``, else the sources' longest distance (``"lower_bound"``;
    iFUB needs symmetric distances); ``"hyperball"`` has no directed form (ValueError).

    Accuracy against the exact all-pairs values on the six real graphs of 10k-82k nodes in
    ../shared/data (BlogCatalog3, ca-AstroPh, email-Enron, musae-github, soc-Epinions1,
    soc-Slashdot0902), 3 seeds each (``python benchmarks/distance_accuracy.py``): 1,000 sources
    give ``S_APD`` and ``S_CL`` within 0.2-0.6% (mean 0.2-0.45%), HyperBall (``log2m=7``) within
    1.4-3.2% (mean 0.8-1.4%; errors shared by all counters of a component do not average out),
    so sampling is 3-5x more accurate on every graph, and no slower (0.4-1.3 s against 0.45-1.7 s
    a graph). On the relative difference between G0 and a MaxVar sample measured with one seed
    (what rel.err uses) sampling errs less on four of the six graphs (email-Enron 0.3% against
    2.3% for ``S_APD``). Both put ``S_EDiam`` within 1 of the exact integer; sampling misses by
    one slightly more often (3 of 18 graph-seeds against 1). Compare graphs with the same
    ``seed``, so that both use the same source draw (or hash function).

    Parameters
    ----------
    graph : Graph
    method : {"auto", "exact", "hyperball", "sampled"}
    exact_threshold : int, default 10000
        Largest n computed exactly under ``"auto"``.
    sources : int, default 1000
        BFS sources for ``"sampled"`` and for ``S_Diam``'s fallback lower bound.
    log2m : int, default 7
        HyperLogLog registers per node as a power of two.
    diameter_max_bfs : int, default 100
        iFUB's BFS budget (see :func:`diameter`).
    diameter_method : {"ifub", "lower_bound"}
        How ``S_Diam`` is found unless all-pairs: ``"ifub"`` as above; ``"lower_bound"`` the
        longest distance from the ``sources`` random sources, the paper's own definition (with
        ``"sampled"``, from the same BFS), no iFUB. :func:`diameter_choice` picks one for G0
        and all its samples.
    seed : int, numpy.random.Generator or None
        Seeds the choice of BFS sources and the HyperBall hash.
    threads : int, optional
        Worker threads (None or 0: all cores); results do not depend on it.

    Returns
    -------
    Statistics
        A dict of the four statistics, with the attribute ``diameter_method``. Without any
        edge: ``S_APD``, ``S_EDiam``, ``S_CL`` nan, ``S_Diam`` 0.

    Raises
    ------
    ValueError
        For an unknown method or a bad count.

    References
    ----------
    Section VI-B ("Shortest path-based statistics") of the paper.

    Examples
    --------
    >>> distance_statistics(Graph.from_edges([0, 1], [1, 2]))
    {'S_APD': 1.3333333333333333, 'S_EDiam': 2.0, 'S_CL': 1.2, 'S_Diam': 2.0}
    """
    graph = measured_graph(graph)
    if method not in ("auto", "exact", "hyperball", "sampled"):
        raise ValueError(
            f"method must be 'auto', 'exact', 'hyperball' or 'sampled', got {method!r}"
        )
    if graph.directed and method == "hyperball":
        raise ValueError(
            "method 'hyperball' has no directed form: use 'exact' or 'sampled' (or 'auto')"
        )
    if diameter_method not in DIAMETER_METHODS:
        choices = " or ".join(repr(m) for m in DIAMETER_METHODS)
        raise ValueError(f"diameter_method must be {choices}, got {diameter_method!r}")
    exact_threshold = check_count(exact_threshold, "exact_threshold", 0)
    sources = check_count(sources, "sources", 1)
    threads = check_threads(threads)
    seed64 = seed_to_u64(seed)
    rng = np.random.default_rng(seed64)
    if method == "auto":
        method = "exact" if graph.n <= exact_threshold else "sampled"
    if method == "exact":
        hist = distance_histogram(graph, threads=threads)
        out = _from_pairs(hist[1:])
        out["S_Diam"] = float(max(hist.size - 1, 0))
        return Statistics(out, "exact")
    known = None  # the sampled BFS's longest distance: iFUB's start, and its fallback
    if method == "sampled":
        src = _random_sources(graph, sources, rng)
        hist = distance_histogram(graph, src, threads=threads)
        out = _from_pairs(hist[1:])
        known = max(hist.size - 1, 0)
        if graph.directed:  # iFUB needs symmetric distances: the sources' longest distance
            out["S_Diam"] = float(known)
            return Statistics(out, "lower_bound")
    else:
        nf = neighbourhood_function(graph, log2m=log2m, seed=rng, threads=threads)
        out = _from_pairs(np.maximum(np.diff(nf), 0.0))
    if diameter_method == "lower_bound":
        if known is None:  # the sources "sampled" would draw
            known = diameter_lower_bound(graph, sources=sources, seed=seed64, threads=threads)
        out["S_Diam"] = float(known)
        return Statistics(out, "lower_bound")
    out["S_Diam"], how = diameter(
        graph, max_bfs=diameter_max_bfs, sources=sources, seed=rng, threads=threads, known=known
    )
    return Statistics(out, how)
