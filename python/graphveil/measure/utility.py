"""The utility statistics of Section 5.2 of the paper, and their one table.

:data:`STATISTIC_TABLE` is the only list of statistics: name, description, how it is computed,
display formats and header. :func:`utility_statistics`, the reports
(:mod:`graphveil.measure.report`), the study (:mod:`graphveil.experiments`) and its plots all
read it, so a new statistic is one more row there (plus its function and tests).

Degree-based: ``S_NE`` (edges), ``S_AD`` (average degree), ``S_MD`` (maximum degree), ``S_DV``
(degree variance), ``S_PL`` (power-law exponent). Shortest-path based, over connected pairs only:
``S_APD`` (average distance), ``S_EDiam`` (effective diameter), ``S_CL`` (connectivity length),
``S_Diam`` (diameter). Clustering: ``S_CC`` (transitivity).

Conventions for degenerate graphs (no crash, no warning): a mean, percentile or fit over an empty
set is ``nan`` (``S_AD`` and ``S_DV`` of the graph with no nodes; ``S_APD``, ``S_EDiam``, ``S_CL``
of a graph without edges; ``S_PL`` when fewer than four distinct positive degrees leave too
little to fit); a count or maximum over an empty set is 0 (``S_NE``, ``S_MD``, ``S_Diam``);
``S_CC`` is 0 when the graph has no connected triple (the networkx convention; igraph returns nan).

A :class:`~graphveil.multigraph.Multigraph` (a world of a relaxed release: the printed
RandWalk-mod, Mixture over it) is measured as the authors measured it
(``graph-dp/compare/utility_measure_multigraph.py``): the degree-based statistics ``S_NE, S_AD,
S_MD, S_DV, S_PL`` on the multigraph (every copy of a pair and every loop is an edge, a loop adds
2 to its node's degree), ``S_CC`` and the distance statistics on its simple graph (igraph's
``transitivity_undirected`` simplifies its adjacency lists first; the authors simplified the
graph before the distances).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_graph, check_int
from graphveil._common import SeedLike, check_threads, require_undirected, seed_to_u64
from graphveil.graph import Graph
from graphveil.measure import directed
from graphveil.multigraph import Multigraph

#: Graphs with at most this many nodes get exact all-pairs distances by default. Measured (CPU
#: seconds, one core): exact 0.03 s on facebook_combined (4k nodes, 88k edges), 0.3 s on ca-HepTh
#: (10k / 26k), 2.6 s on ca-AstroPh (19k / 198k) and 1.6-2.3 s on email-Enron (37k / 184k), against
#: 0.2-0.3 s for HyperBall on the last two; the cost of exact grows as n * m. Above it the
#: default estimator is 1,000 BFS sources (``"sampled"``), measured more accurate than HyperBall
#: on every real graph above 10k nodes (see :func:`distance_statistics`).
EXACT_THRESHOLD = 10_000
#: Default number of HyperLogLog registers per node is ``2**HYPERBALL_LOG2M``.
HYPERBALL_LOG2M = 7


def _check_graph(graph: Any) -> Graph:
    return check_graph(graph, what=None)


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
    return check_int(value, name, low)


# ---------------------------------------------------------------------------- degree statistics
def degree_statistics(graph: Graph | Multigraph) -> dict[str, float]:
    """Edges, average, maximum and variance of the degrees: ``S_NE, S_AD, S_MD, S_DV``.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph, or a multigraph: then every copy of a pair and every loop
        is an edge and a loop adds 2 to its node's degree (igraph's ``ecount`` and ``degree``,
        as the authors measured the printed RandWalk-mod), except in ``S_MD``, which leaves
        loops out as their igraph ``maxdegree()`` call did.

    Returns
    -------
    dict[str, float]
        ``S_NE = m``, ``S_AD = 2m / n``, ``S_MD = max degree``,
        ``S_DV = (1/n) sum (d_v - S_AD)^2`` (population variance). With no nodes ``S_AD`` and
        ``S_DV`` are nan, ``S_NE`` and ``S_MD`` are 0.

    Raises
    ------
    TypeError
        If ``graph`` is not a :class:`graphveil.Graph` or a Multigraph.

    References
    ----------
    Section 5.2 ("Degree-based statistics") of the paper.

    Examples
    --------
    >>> g = Graph.from_edges([0, 0, 0], [1, 2, 3])
    >>> degree_statistics(g)
    {'S_NE': 3.0, 'S_AD': 1.5, 'S_MD': 3.0, 'S_DV': 0.75}
    >>> degree_statistics(Multigraph(4, [0, 0, 0, 1], [1, 1, 2, 1]))["S_NE"]
    4.0
    """
    require_undirected(graph, "degree_statistics")
    graph = _check_measured(graph)
    deg = graph.degrees
    if graph.n == 0:
        return {"S_NE": 0.0, "S_AD": float("nan"), "S_MD": 0.0, "S_DV": float("nan")}
    mean = 2.0 * graph.m / graph.n
    # igraph's maxdegree() leaves loops out unless asked, and the authors did not ask
    top = graph.loopless_degrees if isinstance(graph, Multigraph) else deg
    return {
        "S_NE": float(graph.m),
        "S_AD": mean,
        "S_MD": float(top.max()),
        "S_DV": float(np.mean((deg - mean) ** 2)),
    }


# ----------------------------------------------------------------------------------- triangles
def triangle_count(graph: Graph | Multigraph, *, threads: int | None = None) -> tuple[int, int]:
    """Number of triangles and of connected triples (paths of length two).

    Triangles are counted in C++ by the degree-ordered orientation (every edge points to the
    endpoint of higher (degree, id) rank, so each triangle is found once from its lowest node and
    every out-degree is O(sqrt m)); O(m sqrt m) time, parallel over nodes, exact integers, so the
    answer does not depend on ``threads``.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph; a multigraph is counted on its simple graph (loops dropped,
        copies merged), as igraph's ``transitivity_undirected`` counts it.
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    (int, int)
        ``(triangles, triples)`` with ``triples = sum_v d_v (d_v - 1) / 2``.

    Examples
    --------
    >>> triangle_count(Graph.from_edges([0, 1, 2], [1, 2, 0]))
    (1, 3)
    """
    require_undirected(graph, "triangle_count")
    graph = _simple(_check_measured(graph))
    triangles, triples = _core.count_triangles(graph.indptr, graph.indices, check_threads(threads))
    return int(triangles), int(triples)


def transitivity(graph: Graph | Multigraph, *, threads: int | None = None) -> float:
    """Global clustering coefficient ``S_CC = 3 * triangles / connected triples``.

    Returns 0.0 for a graph without connected triples (as ``networkx.transitivity``).

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph; a multigraph's is its simple graph's (igraph 0.7's
        ``transitivity_undirected`` simplified its adjacency lists first; so does igraph 1.0).
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    float

    References
    ----------
    Section 5.2 ("Clustering statistics") of the paper.

    Examples
    --------
    >>> transitivity(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3]))
    0.6
    """
    require_undirected(graph, "transitivity")
    triangles, triples = triangle_count(graph, threads=threads)
    return 3.0 * triangles / triples if triples else 0.0


# ----------------------------------------------------------------------------------- power law
@dataclass(frozen=True)
class PowerLawFit:
    """A continuous power-law fit of a degree sample (Clauset, Shalizi, Newman 2009)."""

    alpha: float
    """The exponent ``1 + n_tail / sum ln(d / xmin)`` over the tail ``d >= xmin``."""
    xmin: float
    """The lower cut-off minimising the Kolmogorov-Smirnov distance."""
    n_tail: int
    """Number of values ``>= xmin``."""
    ks: float
    """Kolmogorov-Smirnov distance of the fit on the tail."""


def powerlaw_fit(degrees: Any, *, alpha_max: float | None = 3.0) -> PowerLawFit:
    """Fit a continuous power law to a degree sample, choosing ``xmin`` by minimum KS distance.

    Zeros (isolated nodes) are dropped. Every distinct value below the second largest is a
    candidate ``xmin`` (each tail keeps at least three distinct values); for each, ``alpha`` is the
    continuous maximum-likelihood estimate ``1 + n_tail / sum ln(d / xmin)`` and the KS distance is
    ``max |F_fit(x) - F_tail(x-)|`` over the tail's distinct values, ``F_tail(x-)`` being the
    fraction of the tail strictly below ``x``. The candidate with the smallest distance wins.

    This is exactly what ``powerlaw.Fit(degrees).power_law.alpha`` computes (powerlaw 2.x,
    ``discrete=False``, ``xmin_distance='D'``): that package also only accepts candidates whose
    ``alpha`` lies inside its default parameter range ``(0, 3)``, which ``alpha_max=3.0``
    reproduces; when no candidate qualifies, the unrestricted minimum is used (powerlaw then
    warns and reports its optimiser's value near 3). ``alpha_max=None`` gives the plain Clauset
    et al. fit.

    Parameters
    ----------
    degrees : array_like of int or float
        Non-negative values, e.g. ``graph.degrees`` or the degrees of several samples pooled.
    alpha_max : float or None, default 3.0
        Candidates with ``alpha >= alpha_max`` are skipped (None: no limit).

    Returns
    -------
    PowerLawFit
        All fields nan (and ``n_tail`` 0) when fewer than four distinct positive values exist.

    Raises
    ------
    ValueError
        If ``degrees`` is not one-dimensional or holds negative or non-finite values.

    References
    ----------
    Section 5.2 of the paper (``S_PL``); A. Clauset, C. R. Shalizi, M. E. J. Newman,
    "Power-law distributions in empirical data", SIAM Review 51 (2009), Sections 3.1 and 3.3.

    Examples
    --------
    >>> fit = powerlaw_fit([1, 1, 1, 2, 2, 3, 4, 8, 16])
    >>> round(fit.alpha, 3), fit.xmin
    (2.315, 2.0)
    """
    x = np.asarray(degrees)
    if x.ndim != 1:
        raise ValueError(f"degrees must be a 1-d array, got shape {x.shape}")
    if x.dtype.kind in "iu":
        if x.size and x.min() < 0:
            raise ValueError("degrees must be finite and non-negative")
        # Integer degrees (also many samples pooled): a histogram in O(N) instead of a sort.
        histogram = np.bincount(x) if x.size else np.zeros(1, dtype=np.int64)
        values = np.flatnonzero(histogram[1:]).astype(np.float64) + 1.0
        counts = histogram[1:][histogram[1:] > 0]
    else:
        x = x.astype(np.float64)
        if x.size and (not np.all(np.isfinite(x)) or x.min() < 0):
            raise ValueError("degrees must be finite and non-negative")
        values, counts = np.unique(x[x > 0], return_counts=True)
    nan = float("nan")
    if values.size < 4:  # fewer than two candidates: the powerlaw package returns nan too
        return PowerLawFit(nan, nan, 0, nan)
    logs = np.log(values)
    # Suffix sums over distinct values: n_tail(i) and sum of ln d over the tail starting at i.
    tail_n = np.cumsum(counts[::-1])[::-1]
    tail_log = np.cumsum((counts * logs)[::-1])[::-1]
    below = np.concatenate(([0], np.cumsum(counts)[:-1]))  # values strictly below values[i]
    n_cand = values.size - 2
    alphas = np.empty(n_cand)
    distances = np.empty(n_cand)
    for i in range(n_cand):
        n_tail = tail_n[i]
        alpha = 1.0 + n_tail / (tail_log[i] - n_tail * logs[i])
        empirical = (below[i:] - below[i]) / n_tail
        fitted = 1.0 - np.exp((1.0 - alpha) * (logs[i:] - logs[i]))
        alphas[i] = alpha
        distances[i] = np.max(np.abs(fitted - empirical))
    eligible = np.ones(n_cand, dtype=bool) if alpha_max is None else alphas < alpha_max
    pool = np.flatnonzero(eligible) if eligible.any() else np.arange(n_cand)
    best = int(pool[np.argmin(distances[pool])])
    return PowerLawFit(
        float(alphas[best]), float(values[best]), int(tail_n[best]), float(distances[best])
    )


def powerlaw_exponent(degrees: Any, *, alpha_max: float | None = 3.0) -> float:
    """``S_PL``: the exponent of :func:`powerlaw_fit` (nan when there is nothing to fit).

    Pass ``graph.degrees``, or the degrees of several samples concatenated to fit them pooled
    (as the paper's authors did).

    Examples
    --------
    >>> round(powerlaw_exponent([1, 1, 1, 2, 2, 3, 4, 8, 16]), 3)
    2.315
    """
    return powerlaw_fit(degrees, alpha_max=alpha_max).alpha


def pooled_powerlaw_exponent(graphs: Any, *, alpha_max: float | None = 3.0) -> float:
    """``S_PL`` fitted once on the degrees of all ``graphs`` pooled (the authors' procedure)."""
    degrees = [_check_graph(g).degrees for g in graphs]
    return powerlaw_exponent(
        np.concatenate(degrees) if degrees else np.zeros(0), alpha_max=alpha_max
    )


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
    graph = _check_graph(graph)
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
    sketches", arXiv:1702.01284. The paper (Section 5.2) uses ANF for the same purpose.
    """
    require_undirected(graph, "neighbourhood_function")
    graph = _check_graph(graph)
    log2m = _check_count(log2m, "log2m", 4)
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
    Section 5.2 ("Shortest path-based statistics") of the paper.

    Examples
    --------
    >>> diameter_lower_bound(Graph.from_edges([0, 1, 2], [1, 2, 3]), seed=1)
    3
    """
    require_undirected(graph, "diameter_lower_bound")
    graph = _check_graph(graph)
    sources = _check_count(sources, "sources", 1)
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
    graph = _check_graph(graph)
    max_bfs = _check_count(max_bfs, "max_bfs", 3)
    if known is not None:
        known = _check_count(known, "known", 0)
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
    g0 = _check_graph(g0)
    if g0.n <= _check_count(exact_threshold, "exact_threshold", 0):
        return "ifub"
    if g0.directed:  # no iFUB along arcs: the sampled sources' longest distance, on both sides
        return "lower_bound"
    max_bfs = _check_count(max_bfs, "max_bfs", 3)
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
    :class:`Statistics` records how in ``diameter_method``: ``"exact"`` (all-pairs BFS),
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
    Section 5.2 ("Shortest path-based statistics") of the paper.

    Examples
    --------
    >>> distance_statistics(Graph.from_edges([0, 1], [1, 2]))
    {'S_APD': 1.3333333333333333, 'S_EDiam': 2.0, 'S_CL': 1.2, 'S_Diam': 2.0}
    """
    graph = _check_graph(graph)
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
    exact_threshold = _check_count(exact_threshold, "exact_threshold", 0)
    sources = _check_count(sources, "sources", 1)
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


# ------------------------------------------------------------------------ the statistics table
@dataclass(frozen=True)
class StatisticOptions:
    """The options of :func:`utility_statistics`, handed to every statistic's ``compute``."""

    exact_threshold: int
    sources: int
    seed: SeedLike
    threads: int | None
    distance_method: str
    diameter_method: str = "ifub"


@dataclass(frozen=True)
class Statistic:
    """One row of :data:`STATISTIC_TABLE`.

    Attributes
    ----------
    name : str
        The key in every result (``utility_statistics``, reports, study tables and CSV files).
    description : str
        What it measures.
    compute : callable
        ``compute(graph, options) -> dict`` holding at least ``name``. Statistics computed
        together share one function (e.g. the four distance statistics share one BFS), and
        :func:`utility_statistics` calls each function once.
    formats : (str, str)
        :meth:`Report.table <graphveil.measure.Report.table>` formats of the true graph's row
        (exact values) and of the mean row.
    header : str
        Column header of :meth:`Report.table <graphveil.measure.Report.table>` (default: name).
    applies : {"undirected", "directed", "both"}
        The graphs it is measured on.
    relative : bool
        Whether it enters rel.err (default True). A count that a graph's small pieces dominate
        (the numbers of strong and weak components: G0 with 2 weak components and a world
        with a few hundred isolated nodes give a term of several hundred) is reported, not
        averaged into rel.err; its share of the largest component is.
    """

    name: str
    description: str
    compute: Callable[[Graph | Multigraph, StatisticOptions], dict[str, float]]
    formats: tuple[str, str] = ("{:.2f}", "{:.2f}")
    header: str = ""
    #: The graphs it is measured on: ``"undirected"``, ``"directed"`` or ``"both"`` (then its
    #: ``compute`` has a directed form, :mod:`graphveil.measure.directed`).
    applies: str = "undirected"
    #: Whether it enters rel.err (see the class docstring).
    relative: bool = True

    def measures(self, directed: bool) -> bool:
        """Whether this statistic is measured on a directed (or an undirected) graph."""
        return self.applies == "both" or self.applies == ("directed" if directed else "undirected")

    @property
    def column(self) -> str:
        """The header of this statistic's column in a report table."""
        return self.header or self.name


# Each statistic takes a Graph or a Multigraph: degrees (with S_PL) on the multigraph itself,
# clustering and distances on its simple graph (see the module docstring).
def _degrees(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    if _is_directed(graph):
        return directed.degree_statistics_directed(_check_graph(graph))
    return degree_statistics(graph)


def _clustering(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    if _is_directed(graph):
        return {"S_CC": directed.directed_clustering(_check_graph(graph), threads=options.threads)}
    return {"S_CC": transitivity(graph, threads=options.threads)}


def _powerlaw_sides(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    digraph = _check_graph(graph)
    return {
        "S_PL_in": powerlaw_exponent(digraph.in_degrees),
        "S_PL_out": powerlaw_exponent(digraph.out_degrees),
    }


def _reciprocity(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return {"S_REC": directed.reciprocity(_check_graph(graph))}


def _components(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return directed.components(_check_graph(graph))


def _powerlaw(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return {"S_PL": powerlaw_exponent(graph.degrees)}


def _distances(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return distance_statistics(
        _simple(graph),
        method=options.distance_method,
        exact_threshold=options.exact_threshold,
        sources=options.sources,
        diameter_method=options.diameter_method,
        seed=options.seed,
        threads=options.threads,
    )


_COUNT = ("{:.0f}", "{:.1f}")
_PL = ("{:.3f}", "{:.3f}")
_SHARE = ("{:.4f}", "{:.4f}")
_BOTH, _DIRECTED = "both", "directed"

#: The utility statistics of Section 5.2, in the paper's column order: the one table every
#: part of graphveil reads (see the module docstring).
STATISTIC_TABLE: tuple[Statistic, ...] = (
    Statistic("S_NE", "number of edges (arcs)", _degrees, ("{:.0f}", "{:.0f}"), applies=_BOTH),
    Statistic("S_AD", "average degree (arcs / n if directed)", _degrees, applies=_BOTH),
    Statistic("S_MD", "maximum degree", _degrees, _COUNT),
    Statistic("S_DV", "degree variance", _degrees),
    Statistic(
        "S_CC",
        "clustering coefficient (transitivity; Fagiolo's global ratio if directed)",
        _clustering,
        ("{:.4f}", "{:.4f}"),
        applies=_BOTH,
    ),
    Statistic("S_PL", "power-law exponent of the degrees", _powerlaw, ("{:.3f}", "{:.3f}")),
    Statistic(
        "S_APD", "average distance between connected pairs (along arcs)", _distances, applies=_BOTH
    ),
    Statistic(
        "S_EDiam",
        "effective diameter (90th percentile distance)",
        _distances,
        _COUNT,
        "S_ED",
        applies=_BOTH,
    ),
    Statistic("S_CL", "connectivity length (harmonic mean distance)", _distances, applies=_BOTH),
    Statistic(
        "S_Diam",
        "diameter (exact by iFUB, else a BFS lower bound)",
        _distances,
        _COUNT,
        applies=_BOTH,
    ),
    # directed graphs only (graphveil.measure.directed)
    Statistic("S_MD_in", "maximum in-degree", _degrees, _COUNT, applies=_DIRECTED),
    Statistic("S_MD_out", "maximum out-degree", _degrees, _COUNT, applies=_DIRECTED),
    Statistic("S_DV_in", "in-degree variance", _degrees, applies=_DIRECTED),
    Statistic("S_DV_out", "out-degree variance", _degrees, applies=_DIRECTED),
    Statistic(
        "S_PL_in", "power-law exponent of the in-degrees", _powerlaw_sides, _PL, applies=_DIRECTED
    ),
    Statistic(
        "S_PL_out", "power-law exponent of the out-degrees", _powerlaw_sides, _PL, applies=_DIRECTED
    ),
    Statistic(
        "S_REC",
        "reciprocity (share of arcs whose reverse is an arc)",
        _reciprocity,
        _SHARE,
        applies=_DIRECTED,
    ),
    Statistic(
        "S_SCC",
        "strongly connected components",
        _components,
        _COUNT,
        applies=_DIRECTED,
        relative=False,
    ),
    Statistic(
        "S_SCC_max",
        "largest strongly connected component's share of the nodes",
        _components,
        _SHARE,
        applies=_DIRECTED,
    ),
    Statistic(
        "S_WCC",
        "weakly connected components",
        _components,
        _COUNT,
        applies=_DIRECTED,
        relative=False,
    ),
    Statistic(
        "S_WCC_max",
        "largest weakly connected component's share of the nodes",
        _components,
        _SHARE,
        applies=_DIRECTED,
    ),
)

#: The names of :data:`STATISTIC_TABLE` measured on an undirected graph, in order: the keys of
#: :func:`utility_statistics`.
STATISTICS: tuple[str, ...] = tuple(stat.name for stat in STATISTIC_TABLE if stat.measures(False))


def statistic_names(directed: bool = False) -> tuple[str, ...]:
    """The names of :data:`STATISTIC_TABLE` measured on an undirected (or directed) graph.

    In table order, as the table is now (what reports and the study read).
    """
    return tuple(stat.name for stat in STATISTIC_TABLE if stat.measures(directed))


def rel_err_names(directed: bool = False) -> tuple[str, ...]:
    """The statistics rel.err averages over: :func:`statistic_names` but those not ``relative``."""
    return tuple(stat.name for stat in STATISTIC_TABLE if stat.measures(directed) and stat.relative)


def statistic(name: str) -> Statistic:
    """The row of :data:`STATISTIC_TABLE` called ``name``."""
    for stat in STATISTIC_TABLE:
        if stat.name == name:
            return stat
    raise KeyError(f"no statistic {name!r}; the statistics are {', '.join(statistic_names())}")


def utility_statistics(
    graph: Graph | Multigraph,
    *,
    exact_threshold: int = EXACT_THRESHOLD,
    sources: int = DISTANCE_SOURCES,
    seed: SeedLike = None,
    threads: int | None = None,
    distance_method: str = "auto",
    diameter_method: str = "ifub",
) -> Statistics:
    """The utility statistics of the paper (:data:`STATISTIC_TABLE`) for one (sample) graph.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph (a sample of an uncertain graph, or the original), or a
        multigraph (a world of a relaxed release), measured as the module docstring says.
    exact_threshold : int, default 10000
        Distances are exact (all-pairs BFS) up to this many nodes, from 1,000 BFS sources above.
    sources : int, default 1000
        BFS sources for the diameter lower bound ``S_Diam`` (the paper: 1,000).
    seed : int, numpy.random.Generator or None
        Seeds the BFS sources and the HyperBall hash (the only random parts).
    threads : int, optional
        Worker threads (None or 0: all cores); results do not depend on it.
    distance_method : {"auto", "exact", "hyperball", "sampled"}
        How the distances are computed; see :func:`distance_statistics`.
    diameter_method : {"ifub", "lower_bound"}
        How ``S_Diam`` is found above ``exact_threshold``; see :func:`distance_statistics`
        and :func:`diameter_choice`.

    Returns
    -------
    dict[str, float]
        Keys :data:`STATISTICS`, in table order: ``S_NE, S_AD, S_MD, S_DV`` (:func:`degree_statistics`),
        ``S_CC`` (:func:`transitivity`), ``S_PL`` (:func:`powerlaw_exponent` of this graph's
        degrees), ``S_APD, S_EDiam, S_CL, S_Diam`` (:func:`distance_statistics`). Degenerate
        graphs follow the conventions in this module's docstring. A :class:`Statistics` dict,
        whose ``diameter_method`` attribute says how ``S_Diam`` was found.

    References
    ----------
    Section 5.2 of the paper.

    Examples
    --------
    >>> stats = utility_statistics(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3]), seed=0)
    >>> stats["S_NE"], stats["S_CC"], stats["S_Diam"]
    (4.0, 0.6, 2.0)
    """
    graph = _check_measured(graph)
    options = StatisticOptions(
        exact_threshold, sources, seed, threads, distance_method, diameter_method
    )
    rows = [stat for stat in STATISTIC_TABLE if stat.measures(_is_directed(graph))]
    out: dict[str, float] = {}
    diameter_method = ""
    for stat in rows:
        if stat.name not in out:  # statistics computed together come from one call
            part = stat.compute(graph, options)
            out.update(part)
            diameter_method = getattr(part, "diameter_method", diameter_method)
    return Statistics({stat.name: out[stat.name] for stat in rows}, diameter_method)
