"""Utility as analysts use it: communities, central nodes, spread and PGB's divergences.

The paper's ten statistics (:data:`~graphveil.measure.utility.STATISTIC_TABLE`) summarise a
graph on its own. The analyst statistics (its rows marked ``analyst``) are what
the benchmarks of the field compute on a release: PGB (Liu et al. 2024, ``dooohow/PGB``,
``Tmf.py``), PrivGraph (Yuan et al., USENIX Security 2023, ``Privacy-Graph/PrivGraph``) and
SecGraph (Ji et al., USENIX Security 2015). Several compare the release with G0 itself (the
divergences, the community agreement, the top-node overlaps, the spread of the release's seeds
in G0), so they are measured against an :class:`AnalystReference`: what those statistics need
of G0, computed once, with the one seed every sample shares (BFS sources, Leiden's random
numbers, the cascade's coins).

Everything here is sparse: O(m) memory, no n x n matrix, no networkx. Costs per graph:
triangles per node by two sparse products over the degree-ordered orientation (about the
number of oriented wedges, ``sum_v d+(v)^2``), one Lanczos run (eigenvector centrality), about
120 sparse products (PageRank), one Leiden run, ``sources`` BFS (distance distribution, as the
paper's distances), and ``IC_RUNS`` cascades that touch only the edges of the nodes they reach.

Choices where the peers leave room (the table's rows name them, ``Statistic.reference``):

- ``S_MOD`` is the modularity of the graph's own communities, as PGB (``Tmf.py``:
  ``community.modularity(mat2_par, mat2_graph)``) and PrivGraph compute it: how strongly the
  release is organised in communities. Whether it keeps G0's communities is what ``S_NMI`` and
  ``S_ARI`` score; G0's partition evaluated on the sample would score that a second time.
- ``S_IC`` is PrivGraph's influence measure (``IM_spread.py``): 20 seeds chosen on the graph by
  degree discount, their independent-cascade spread (p = 0.01, 100 runs) measured in G0. An
  analyst picks whom to target on the release; what counts is how far they reach in the true
  network. G0's own row is the spread of G0's own seeds, so the relative error is the reach
  lost by targeting from the release.
- The divergences are PGB's ``cal_kl(G0, graph)``, the eigenvector MAE PGB's ``cal_MAE`` of the
  two graphs' top-1% centrality values (sorted, not node by node), the top-1% overlap
  PrivGraph's ``cal_overlap``.
- The randomness (Leiden's, the distance sources, the cascades' coins) is the reference's seed,
  shared by G0 and every sample, so that G0 scores exactly 0 (divergences) or 1 (agreements,
  overlaps) against itself and a sample's differences are its own.

Every analyst statistic is measured on a graph's simple graph (a multigraph world's loops
dropped and copies merged). Conventions for degenerate graphs (no crash, no warning): a value
over nothing (no nodes; no edges for modularity and assortativity; a zero degree variance over
the edge ends for assortativity; fewer than 100 nodes for the top-1% statistics) is nan;
counts over nothing are 0.

References
----------
PGB: S. Liu et al., "PGB: Benchmarking Differentially Private Synthetic Graph Generation
Algorithms", 2024 (``Tmf.py`` and ``utils.py``: ``cal_kl``, ``cal_MAE``, ``distance_distribution``).
PrivGraph: Q. Yuan et al., "PrivGraph: Differentially Private Graph Data Publication by
Exploiting Community Information", USENIX Security 2023 (``main.py``, ``IM_spread.py``).
Leiden: V. A. Traag, L. Waltman, N. J. van Eck, "From Louvain to Leiden: guaranteeing
well-connected communities", Scientific Reports 9 (2019).
Degree discount: W. Chen, Y. Wang, S. Yang, "Efficient influence maximization in social
networks", KDD 2009. Live edges: D. Kempe, J. Kleinberg, E. Tardos, "Maximizing the spread of
influence through a social network", KDD 2003.
"""

from __future__ import annotations

import importlib
import math
import random
import threading
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph
from graphveil.measure._checks import _check_measured, _simple
from graphveil.measure.distances import DISTANCE_SOURCES, EXACT_THRESHOLD, distance_histogram
from graphveil.multigraph import Multigraph

__all__ = [
    "IC_P",
    "IC_RUNS",
    "IC_SEEDS",
    "PAGERANK_DAMPING",
    "PAGERANK_TOL",
    "TOP_SHARE",
    "AnalystReference",
    "adjusted_rand_index",
    "analyst_reference",
    "assortativity",
    "average_clustering",
    "check_reference",
    "communities",
    "degree_discount_seeds",
    "distance_counts",
    "eigenvector_centrality",
    "influence_spread",
    "kl_divergence",
    "local_triangles",
    "modularity",
    "node_overlap",
    "normalized_mutual_info",
    "pagerank",
    "top_count",
    "top_nodes",
    "top_overlap",
]

#: Share of the nodes in the top-node statistics: PrivGraph's ``int(0.01 * n)`` (its top-1%
#: eigenvector overlap and PGB's eigenvector MAE); nan below 100 nodes, where it is 0 nodes.
TOP_SHARE = 0.01
#: Independent-cascade probability per edge: PrivGraph's ``cal_spread(p=0.01)``.
IC_P = 0.01
#: Seeds of the cascade (degree discount): PrivGraph's ``seed_size=20``.
IC_SEEDS = 20
#: Monte Carlo cascades averaged: PrivGraph's ``iterations=100``.
IC_RUNS = 100
#: PageRank's damping factor (networkx's and igraph's default).
PAGERANK_DAMPING = 0.85
#: PageRank stops when the L1 change of one step is below this (about 120 steps at 0.85):
#: networkx's ``n * 1e-6`` would stop a million-node graph after a handful of steps, before
#: its top nodes settle.
PAGERANK_TOL = 1e-8
PAGERANK_MAX_ITER = 1000

_EPS = float(np.finfo(np.float64).eps)  # PGB's cal_kl smoothing


def _graph(graph: Any) -> Graph:
    """The simple undirected graph a statistic measures, else a TypeError / ValueError."""
    g = _simple(_check_measured(graph))
    if g.directed:
        raise ValueError(
            "the analyst statistics are measured on undirected graphs: convert with to_undirected()"
        )
    return g


def _adjacency(g: Graph, dtype: Any = np.float64) -> sp.csr_matrix:
    """G's adjacency as a scipy CSR matrix over its own arrays (no n x n array)."""
    data = np.ones(g.indices.size, dtype=dtype)
    return sp.csr_matrix((data, g.indices, g.indptr), shape=(g.n, g.n))


# ----------------------------------------------------------------------------- clustering
def local_triangles(graph: Graph | Multigraph) -> np.ndarray:
    """The number of triangles through each node (networkx's ``triangles``), int64.

    Edges point from the lower to the higher (degree, id) rank, so every out-degree is
    O(sqrt m). A triangle ``a < b < c`` is found once by ``L (L L)`` at ``(a, c)`` (its middle
    node is summed) and once by ``L (L^T L)`` at ``(b, c)`` (its lowest node is summed): the
    row and column sums of the first give ``a`` and ``c``, the row sums of the second ``b``.
    Memory is about the number of oriented wedges, ``sum_v d+(v)^2``. A C++ kernel would count
    them per node in the pass :func:`~graphveil.measure.utility.triangle_count` makes.

    Examples
    --------
    >>> local_triangles(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])).tolist()
    [1, 1, 1, 0]
    """
    g = _graph(graph)
    deg = g.degrees.astype(np.int64)
    u = np.repeat(np.arange(g.n, dtype=np.int64), deg)
    v = g.indices.astype(np.int64)
    up = (deg[u] < deg[v]) | ((deg[u] == deg[v]) & (u < v))
    low = sp.csr_matrix((np.ones(int(up.sum()), dtype=np.int64), (u[up], v[up])), shape=(g.n, g.n))
    closed = low.multiply(low @ low)  # (a, c): middles b
    via_low = low.multiply(low.T @ low)  # (b, c): lowest a
    out = np.asarray(closed.sum(axis=1)).ravel() + np.asarray(closed.sum(axis=0)).ravel()
    return (out + np.asarray(via_low.sum(axis=1)).ravel()).astype(np.int64)


def average_clustering(graph: Graph | Multigraph) -> float:
    """Mean local clustering coefficient, nodes of degree below 2 counting 0.

    networkx's ``average_clustering`` (and igraph's ``transitivity_avglocal_undirected(mode=
    "zero")``); PGB's ``ACC``. nan for the graph with no nodes.

    Examples
    --------
    >>> round(average_clustering(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])), 4)
    0.5833
    """
    g = _graph(graph)
    if g.n == 0:
        return math.nan
    deg = g.degrees.astype(np.float64)
    pairs = deg * (deg - 1.0)
    local = np.divide(2.0 * local_triangles(g), pairs, out=np.zeros(g.n), where=pairs > 0)
    return float(local.mean())


# --------------------------------------------------------------------------------- mixing
def assortativity(graph: Graph | Multigraph) -> float:
    """Degree assortativity: the Pearson correlation of the degrees at the two ends of an edge.

    Each edge counts in both directions (networkx's ``degree_assortativity_coefficient``,
    Newman 2002). nan without edges or when every edge end has the same degree (a regular
    graph: zero variance).

    Examples
    --------
    >>> assortativity(Graph.from_edges([0, 0, 0], [1, 2, 3]))
    -1.0
    """
    g = _graph(graph)
    if g.m == 0:
        return math.nan
    deg = g.degrees.astype(np.float64)
    ends = 2.0 * g.m
    mean = float(np.sum(deg * deg)) / ends
    centred = deg - mean
    var = float(np.sum(deg * centred * centred)) / ends
    if var <= 1e-12 * max(mean * mean, 1.0):
        return math.nan
    u = np.repeat(centred, g.degrees)
    cov = float(np.dot(u, centred[g.indices])) / ends
    return cov / var


def modularity(graph: Graph | Multigraph, labels: Any) -> float:
    """Newman's modularity ``sum_c (e_c / m - (D_c / 2m)^2)`` of a partition of ``graph``.

    ``e_c`` is the number of edges inside community ``c`` and ``D_c`` its total degree
    (resolution 1, as networkx, igraph and python-louvain). nan without edges.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2, 3, 4, 5, 0], [1, 2, 0, 4, 5, 3, 3])
    >>> round(modularity(g, [0, 0, 0, 1, 1, 1]), 4)
    0.3571
    """
    g = _graph(graph)
    lab = _labels(labels, g.n)
    if g.m == 0:
        return math.nan
    _, lab = np.unique(lab, return_inverse=True)
    u = np.repeat(lab, g.degrees)
    inside = np.bincount(u[u == lab[g.indices]], minlength=lab.max() + 1) / 2.0
    total = np.bincount(lab, weights=g.degrees.astype(np.float64))
    m = float(g.m)
    return float(np.sum(inside / m) - np.sum((total / (2.0 * m)) ** 2))


def _labels(labels: Any, n: int) -> np.ndarray:
    lab = np.asarray(labels)
    if lab.shape != (n,) or lab.dtype.kind not in "iu":
        raise ValueError(f"labels must be {n} integers (one community per node), got {lab.shape}")
    return lab.astype(np.int64)


# ---------------------------------------------------------------------------- communities
_IGRAPH_LOCK = threading.Lock()


def _igraph() -> ModuleType:
    """igraph, or an ImportError naming the extra that installs it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module("igraph")
    except ImportError as err:
        raise ImportError(
            'the community statistics need igraph (Leiden): pip install "graphveil[analyst]"'
        ) from err


def communities(graph: Graph | Multigraph, *, seed: SeedLike = None) -> np.ndarray:
    """Communities by Leiden maximising modularity (igraph's ``community_leiden``), seeded.

    igraph's Leiden (Traag et al. 2019), objective ``"modularity"``, resolution 1, two
    iterations (igraph's default: iterating until no node moves, ``n_iterations=-1``, takes
    7 times longer on web-NotreDame for a modularity 0.001 higher). Leiden rather than
    Louvain (python-louvain's ``best_partition``, which PGB and PrivGraph call): Louvain can
    leave a community internally disconnected, Leiden guarantees connected communities, and on
    web-NotreDame it finds modularity 0.943 in 3 s where igraph's Louvain
    (``community_multilevel``) finds 0.936 in 42 s, on the same loaded 2-core machine. igraph
    is maintained, ships wheels for Linux (x86_64, aarch64, musllinux), macOS and Windows. It is the ``analyst`` extra rather than a core dependency, since only the
    community statistics need it.

    python-igraph draws its random numbers from a Python ``random`` module: this call hands it
    a ``random.Random(seed)`` of its own under a lock and restores the default after, so the
    partition depends on the seed alone, whichever thread measures which sample.

    Parameters
    ----------
    graph : Graph or Multigraph
        Undirected; a multigraph's simple graph.
    seed : int, numpy.random.Generator or None

    Returns
    -------
    numpy.ndarray of int64
        One community id per node (isolated nodes are communities of their own).

    Raises
    ------
    ImportError
        If igraph is not installed.
    """
    g = _graph(graph)
    ig = _igraph()
    seed64 = seed_to_u64(seed)
    if g.n == 0:
        return np.zeros(0, dtype=np.int64)
    u, v = g.edges()
    ig_graph = ig.Graph(n=g.n)
    ig_graph.add_edges(np.column_stack([u, v]))
    with _IGRAPH_LOCK:
        ig.set_random_number_generator(random.Random(seed64))
        try:
            part = ig_graph.community_leiden(objective_function="modularity", n_iterations=2)
        finally:
            ig.set_random_number_generator(random)
    return np.asarray(part.membership, dtype=np.int64)


def _contingency(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cluster sizes of ``a`` and ``b`` and the non-zero cells of their contingency table."""
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    ka = int(ia.max()) + 1
    _, cells = np.unique(ia.astype(np.int64) * (int(ib.max()) + 1) + ib, return_counts=True)
    return np.bincount(ia, minlength=ka), np.bincount(ib), cells


def _check_pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    la, lb = np.asarray(a), np.asarray(b)
    if la.ndim != 1 or la.shape != lb.shape:
        raise ValueError(
            f"two label arrays of one length are needed, got {la.shape} and {lb.shape}"
        )
    return la, lb


def normalized_mutual_info(a: Any, b: Any) -> float:
    """Normalised mutual information of two partitions (arithmetic mean of the entropies).

    scikit-learn's ``normalized_mutual_info_score`` (its default ``average_method=
    "arithmetic"``, as PGB and PrivGraph call it): 1 when both have a single cluster, 0 when
    only one has; nan for no items.

    Examples
    --------
    >>> normalized_mutual_info([0, 0, 1, 1], [5, 5, 7, 7])
    1.0
    """
    la, lb = _check_pair(a, b)
    n = la.size
    if n == 0:
        return math.nan
    ca, cb, cells = _contingency(la, lb)
    if ca.size == cb.size == cells.size:  # one partition relabelled: 1 exactly, not 1 - 1e-16
        return 1.0
    mi = _mutual_info(la, lb, n)  # sum p_ij ln(p_ij / (p_i p_j)) over the non-zero cells
    ha, hb = _entropy(ca, n), _entropy(cb, n)
    return float(mi / max((ha + hb) / 2.0, _EPS))


def _entropy(counts: np.ndarray, n: int) -> float:
    p = counts[counts > 0] / n
    return float(-np.sum(p * np.log(p)))


def _mutual_info(la: np.ndarray, lb: np.ndarray, n: int) -> float:
    _, ia = np.unique(la, return_inverse=True)
    _, ib = np.unique(lb, return_inverse=True)
    kb = int(ib.max()) + 1
    keys, cells = np.unique(ia.astype(np.int64) * kb + ib, return_counts=True)
    ca, cb = np.bincount(ia), np.bincount(ib)
    outer = ca[keys // kb].astype(np.float64) * cb[keys % kb]
    return max(float(np.sum(cells / n * (np.log(cells * float(n)) - np.log(outer)))), 0.0)


def adjusted_rand_index(a: Any, b: Any) -> float:
    """Adjusted Rand index of two partitions (Hubert and Arabie 1985).

    scikit-learn's ``adjusted_rand_score``, from the pair confusion counts in exact integers:
    1 for identical partitions (also when both put everything together or everything apart);
    nan for no items.

    Examples
    --------
    >>> adjusted_rand_index([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    la, lb = _check_pair(a, b)
    n = la.size
    if n == 0:
        return math.nan
    ca, cb, cells = _contingency(la, lb)
    same_both = int(np.sum(cells.astype(object) * (cells - 1).astype(object))) // 2
    same_a = int(np.sum(ca.astype(object) * (ca - 1).astype(object))) // 2
    same_b = int(np.sum(cb.astype(object) * (cb - 1).astype(object))) // 2
    pairs = n * (n - 1) // 2
    tp, fn, fp = same_both, same_a - same_both, same_b - same_both
    tn = pairs - tp - fn - fp
    if fn == 0 and fp == 0:
        return 1.0
    return float(2 * (tp * tn - fn * fp)) / float((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


# --------------------------------------------------------------------------- central nodes
def eigenvector_centrality(graph: Graph | Multigraph) -> np.ndarray:
    """The principal eigenvector of the adjacency, non-negative, of unit L2 norm.

    What networkx's ``eigenvector_centrality`` (power iteration on ``A + I``, PGB's and
    PrivGraph's call) converges to, found by Lanczos (``scipy.sparse.linalg.eigsh``,
    ``which="LA"``, tolerance 1e-8, from the all-ones vector so the run is deterministic; on
    web-NotreDame it differs from a 1e-12 run by 3e-12 at most, in half the time); a dense solver
    below 64 nodes, where ARPACK is not defined for every size. A graph without edges gives
    ``1 / sqrt(n)`` everywhere (networkx too). When the largest eigenvalue is not simple (two
    largest components alike), the eigenvector is not unique and neither is the answer.

    Examples
    --------
    >>> x = eigenvector_centrality(Graph.from_edges([0, 0, 0], [1, 2, 3]))
    >>> np.round(x, 4).tolist()
    [0.7071, 0.4082, 0.4082, 0.4082]
    """
    g = _graph(graph)
    if g.n == 0:
        return np.zeros(0)
    if g.m == 0:
        return np.full(g.n, 1.0 / math.sqrt(g.n))
    adj = _adjacency(g)
    if g.n < 64:
        _, vectors = np.linalg.eigh(adj.toarray())
        x = vectors[:, -1]
    else:
        from scipy.sparse.linalg import ArpackNoConvergence, eigsh  # not paid for on import

        try:
            _, vectors = eigsh(adj, k=1, which="LA", v0=np.ones(g.n), tol=1e-8, maxiter=g.n * 20)
        except ArpackNoConvergence:  # pragma: no cover - a measurement is right or refused
            return np.full(g.n, math.nan)
        x = vectors[:, 0]
    x = np.abs(x if x.sum() >= 0 else -x)
    return x / np.linalg.norm(x)


def pagerank(graph: Graph | Multigraph, *, damping: float = PAGERANK_DAMPING) -> np.ndarray:
    """PageRank by power iteration on the sparse adjacency, summing to 1.

    networkx's ``pagerank`` (uniform teleport; an isolated node's mass spread uniformly),
    stopped when one step changes the vector by less than :data:`PAGERANK_TOL` in L1.

    Examples
    --------
    >>> np.round(pagerank(Graph.from_edges([0, 0, 0], [1, 2, 3])), 4).tolist()
    [0.4797, 0.1734, 0.1734, 0.1734]
    """
    g = _graph(graph)
    if not 0.0 <= damping < 1.0:
        raise ValueError(f"damping must be in [0, 1), got {damping}")
    if g.n == 0:
        return np.zeros(0)
    deg = g.degrees.astype(np.float64)
    dangling = deg == 0
    inv = np.divide(1.0, deg, out=np.zeros(g.n), where=~dangling)
    adj = _adjacency(g)
    x = np.full(g.n, 1.0 / g.n)
    for _ in range(PAGERANK_MAX_ITER):
        last = x
        x = damping * (adj @ (last * inv) + last[dangling].sum() / g.n) + (1.0 - damping) / g.n
        if np.abs(x - last).sum() < PAGERANK_TOL:
            break
    return x / x.sum()


def top_nodes(values: Any, k: int) -> np.ndarray:
    """The ``k`` nodes of largest value, ties to the lower id."""
    x = np.asarray(values, dtype=np.float64)
    return np.lexsort((np.arange(x.size), -x))[: max(int(k), 0)]


def top_overlap(a: Any, b: Any, k: int) -> float:
    """Share of the top-``k`` nodes by ``a`` also in the top ``k`` by ``b`` (nan if k = 0).

    PrivGraph's ``cal_overlap`` of the two rankings' first ``k`` nodes.
    """
    if k <= 0:
        return math.nan
    return float(np.intersect1d(top_nodes(a, k), top_nodes(b, k)).size) / k


def node_overlap(reference: Any, nodes: Any) -> float:
    """Share of the ``reference`` nodes among ``nodes`` (nan if ``reference`` is empty)."""
    ref = np.unique(np.asarray(reference, dtype=np.int64))
    if ref.size == 0:
        return math.nan
    return float(np.intersect1d(ref, np.asarray(nodes, dtype=np.int64)).size) / ref.size


def top_count(n: int) -> int:
    """The number of nodes in a top-1% statistic: ``int(TOP_SHARE * n)`` (PrivGraph's)."""
    return int(TOP_SHARE * n)


# ---------------------------------------------------------------------------- divergences
def kl_divergence(p_counts: Any, q_counts: Any) -> float:
    """PGB's ``cal_kl``: ``sum p log((p + e) / (q + e))`` of two histograms made distributions.

    ``p`` and ``q`` are the histograms divided by their sums, the shorter padded with zeros,
    ``e`` the float64 machine epsilon (so a value G0 has and the graph lacks costs
    ``p ln(p / e)``, not infinity). nan if either histogram is empty.

    Examples
    --------
    >>> kl_divergence([1, 2, 1], [1, 2, 1])
    0.0
    """
    p = np.asarray(p_counts, dtype=np.float64)
    q = np.asarray(q_counts, dtype=np.float64)
    if p.sum() <= 0 or q.sum() <= 0:
        return math.nan
    size = max(p.size, q.size)
    p = np.pad(p / p.sum(), (0, size - p.size))
    q = np.pad(q / q.sum(), (0, size - q.size))
    return float(np.sum(p * np.log((p + _EPS) / (q + _EPS))))


def distance_counts(
    graph: Graph | Multigraph,
    *,
    seed: SeedLike = None,
    exact_threshold: int = EXACT_THRESHOLD,
    sources: int = DISTANCE_SOURCES,
    threads: int | None = None,
) -> np.ndarray:
    """PGB's ``distance_distribution``: ordered pairs at each distance 0, 1, 2, ... (reachable).

    Exact (BFS from every node, ``hist[0] = n``) up to ``exact_threshold`` nodes; above, from
    ``sources`` nodes drawn uniformly by ``seed`` among all n (isolated ones too: each is a pair
    at distance 0, as in PGB's count), an unbiased estimate of the same distribution. Two graphs
    on the same nodes measured with one seed share their sources.
    """
    g = _graph(graph)
    if g.n <= exact_threshold:
        return distance_histogram(g, threads=threads)
    rng = np.random.default_rng(seed_to_u64(seed))
    src = np.sort(rng.choice(g.n, size=min(int(sources), g.n), replace=False)).astype(np.int64)
    return distance_histogram(g, src, threads=threads)


# ------------------------------------------------------------------------------- spread
def degree_discount_seeds(
    graph: Graph | Multigraph, k: int = IC_SEEDS, p: float = IC_P
) -> np.ndarray:
    """The ``k`` seeds of the degree-discount heuristic for the independent cascade.

    Chen, Wang, Yang (KDD 2009), as PrivGraph's ``degreeDiscountIC`` picks the seeds it spreads
    from: take the node of largest discounted degree ``d - 2t - (d - t) t p`` (``t`` its
    neighbours already chosen), ties to the lower id. ``min(k, n)`` seeds.
    """
    g = _graph(graph)
    deg = g.degrees.astype(np.float64)
    chosen_t = np.zeros(g.n)
    score = deg.copy()
    free = np.ones(g.n, dtype=bool)
    seeds: list[int] = []
    for _ in range(min(int(k), g.n)):
        node = int(np.argmax(np.where(free, score, -np.inf)))
        seeds.append(node)
        free[node] = False
        nbrs = g.indices[g.indptr[node] : g.indptr[node + 1]]
        nbrs = nbrs[free[nbrs]]
        chosen_t[nbrs] += 1.0
        t = chosen_t[nbrs]
        score[nbrs] = deg[nbrs] - 2.0 * t - (deg[nbrs] - t) * t * p
    return np.asarray(seeds, dtype=np.int64)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, element-wise on uint64 (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        x = x ^ (x >> np.uint64(30))
        x = x * np.uint64(0xBF58476D1CE4E5B9)
        x = x ^ (x >> np.uint64(27))
        x = x * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _gaps(salt: np.ndarray, pos: np.ndarray, log_q: float) -> np.ndarray:
    """Geometric(p) gaps to the next live slot, one uniform hashed from (run salt, slot)."""
    with np.errstate(over="ignore"):
        h = _mix(pos.astype(np.uint64) + np.uint64(1) + salt)
    uniform = ((h >> np.uint64(11)).astype(np.float64) + 1.0) * 2.0**-53  # in (0, 1]
    if log_q == -math.inf:  # p = 1: every slot is live
        return np.ones(pos.size, dtype=np.int64)
    gap = 1.0 + np.floor(np.log(uniform) / log_q)
    return np.minimum(gap, 2.0**62).astype(np.int64)


def _run_salts(seed64: int, runs: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _mix(
            np.arange(runs, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(seed64)
        )


def influence_spread(
    graph: Graph | Multigraph,
    seeds: Any,
    *,
    p: float = IC_P,
    runs: int = IC_RUNS,
    seed: SeedLike = None,
) -> float:
    """Mean number of nodes an independent cascade from ``seeds`` reaches in ``graph``.

    Each active node gets one chance to activate each neighbour, with probability ``p``
    (PrivGraph's ``runIC``). An edge is tried at most once per cascade, from the end reached
    first, so one coin per (run, directed edge) gives the cascade exactly. Here the coins of a
    node's edges in run ``r`` are drawn by geometric jumps through its adjacency row, each jump
    a hash of (``seed``, r, slot): the runs advance together, breadth first, in time linear in
    the nodes reached and the live edges they have (a hub costs ``d p`` steps, not ``d``
    coins), and the same seed gives the same coins for any seed set, so the spreads of two seed
    sets on one graph differ only by their seeds (common random numbers). A C++ kernel would
    run the cascades in parallel, one per task, with the same coins.

    Parameters
    ----------
    graph : Graph or Multigraph
        Undirected; a multigraph's simple graph.
    seeds : array_like of int
        The nodes active at the start (repeats count once).
    p : float, default 0.01
        Probability that an edge passes the cascade on.
    runs : int, default 100
        Monte Carlo cascades averaged.
    seed : int, numpy.random.Generator or None
        Seeds the coins.

    Returns
    -------
    float
        The mean number of active nodes at the end (the seeds included).

    Examples
    --------
    >>> star = Graph.from_edges([0, 0, 0], [1, 2, 3])
    >>> influence_spread(star, [0], p=1.0, runs=5, seed=1)
    4.0
    """
    g = _graph(graph)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    runs = int(runs)
    if runs < 1:
        raise ValueError(f"runs must be >= 1, got {runs}")
    start = np.unique(np.asarray(seeds, dtype=np.int64))
    if start.size and (start[0] < 0 or start[-1] >= g.n):
        raise IndexError(f"seeds must be node ids in 0..{g.n - 1}")
    salts = _run_salts(seed_to_u64(seed), runs)
    log_q = math.log1p(-p) if p < 1.0 else -math.inf
    n = max(g.n, 1)
    total = 0
    block = max(1, min(runs, (1 << 26) // n))  # a visited bitmap of <= 64 MiB per block of runs
    for first in range(0, runs, block):
        count = min(block, runs - first)
        visited = np.zeros(count * n, dtype=bool)
        run = np.repeat(np.arange(count, dtype=np.int64), start.size)
        node = np.tile(start, count)
        visited[run * n + node] = True
        while node.size and p > 0.0:
            # the live slots of each (run, node): geometric jumps through its CSR row
            r, pos, stop = run, g.indptr[node].astype(np.int64) - 1, g.indptr[node + 1]
            found_runs, found_slots = [], []
            while r.size:
                pos = pos + _gaps(salts[first + r], pos, log_q)
                inside = pos < stop
                r, pos, stop = r[inside], pos[inside], stop[inside]
                found_runs.append(r)
                found_slots.append(pos)
            keys = np.concatenate(found_runs) * n + g.indices[np.concatenate(found_slots)]
            keys = np.unique(keys[~visited[keys]])
            visited[keys] = True
            run, node = keys // n, keys % n
        total += int(np.count_nonzero(visited))
    return total / runs


# ------------------------------------------------------------------------------- G0 once
@dataclass(frozen=True)
class AnalystReference:
    """What the analyst statistics need of G0, computed once by :func:`analyst_reference`.

    Attributes
    ----------
    graph : Graph
        G0 (the influence spread of a graph's seeds is measured in it).
    seed : int
        The 64-bit seed of every analyst statistic's randomness, for G0 and every graph
        measured against it: the distance sources, Leiden's random numbers, the cascades' coins.
    degree_counts, distance_counts : numpy.ndarray
        G0's degree histogram and its (PGB) distance histogram.
    communities : numpy.ndarray
        G0's Leiden communities (:func:`communities` with ``seed``).
    evc_top : numpy.ndarray
        G0's :func:`top_count` largest eigenvector centralities, in decreasing order.
    evc_nodes, pagerank_nodes : numpy.ndarray
        G0's top-1% nodes by eigenvector centrality and by PageRank.
    exact_threshold, sources : int
        How the distance histograms are taken (:func:`distance_counts`).
    """

    graph: Graph
    seed: int
    degree_counts: np.ndarray
    distance_counts: np.ndarray
    communities: np.ndarray
    evc_top: np.ndarray
    evc_nodes: np.ndarray
    pagerank_nodes: np.ndarray
    exact_threshold: int = EXACT_THRESHOLD
    sources: int = DISTANCE_SOURCES

    @property
    def n(self) -> int:
        """G0's number of nodes."""
        return self.graph.n


def analyst_reference(
    g0: Graph,
    *,
    seed: SeedLike = None,
    exact_threshold: int = EXACT_THRESHOLD,
    sources: int = DISTANCE_SOURCES,
    threads: int | None = None,
) -> AnalystReference:
    """G0 measured once for the analyst statistics (see :class:`AnalystReference`).

    Raises
    ------
    ImportError
        If igraph (the ``analyst`` extra) is not installed.
    """
    g = _graph(g0)
    seed64 = seed_to_u64(seed)
    k = top_count(g.n)
    evc = eigenvector_centrality(g)
    return AnalystReference(
        graph=g,
        seed=seed64,
        degree_counts=np.bincount(g.degrees, minlength=1),
        distance_counts=distance_counts(
            g, seed=seed64, exact_threshold=exact_threshold, sources=sources, threads=threads
        ),
        communities=communities(g, seed=seed64),
        evc_top=np.sort(evc)[::-1][:k],
        evc_nodes=top_nodes(evc, k),
        pagerank_nodes=top_nodes(pagerank(g), k),
        exact_threshold=int(exact_threshold),
        sources=int(sources),
    )


def check_reference(graph: Graph | Multigraph, reference: AnalystReference) -> Graph:
    """The simple graph of ``graph``, checked to share ``reference``'s nodes."""
    g = _graph(graph)
    if g.n != reference.n:
        raise ValueError(
            f"the graph has {g.n} nodes and G0 {reference.n}: the analyst statistics compare "
            "graphs on the same nodes 0..n-1"
        )
    return g
