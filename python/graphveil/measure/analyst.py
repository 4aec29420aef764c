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
triangles per node in the pass that counts the paper's S_CC (C++), one Lanczos run of a few dozen
sparse products (eigenvector centrality, C++), about 100 sparse products (PageRank, C++), one
Leiden run (C++), ``sources`` BFS (distance distribution, as the paper's distances), and
``IC_RUNS`` cascades that touch only the edges of the nodes they reach (C++). The C++ kernels
run on ``threads`` threads and give the same answer on any number of them.

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

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph
from graphveil.measure._checks import check_measured, simple_graph
from graphveil.measure.distances import DISTANCE_SOURCES, EXACT_THRESHOLD, distance_histogram
from graphveil.multigraph import Multigraph

__all__ = [
    "EIGENVECTOR_MAX_STEPS",
    "EIGENVECTOR_TOL",
    "IC_P",
    "IC_RUNS",
    "IC_SEEDS",
    "LEIDEN_ITERATIONS",
    "PAGERANK_DAMPING",
    "PAGERANK_TOL",
    "TOP_SHARE",
    "AnalystReference",
    "adjusted_rand_index",
    "agreement",
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
#: Eigenvector centrality's Lanczos stops when the top Ritz pair's residual is below this times
#: the eigenvalue (34 steps on web-NotreDame; 1e-10 takes 29, 1e-8 23).
EIGENVECTOR_TOL = 1e-12
#: Eigenvector centrality is refused (nan) if Lanczos has not converged after this many steps.
EIGENVECTOR_MAX_STEPS = 10_000

_EPS = float(np.finfo(np.float64).eps)  # PGB's cal_kl smoothing


def _graph(graph: Any) -> Graph:
    """The simple undirected graph a statistic measures, else a TypeError / ValueError."""
    g = simple_graph(check_measured(graph))
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
def local_triangles(graph: Graph | Multigraph, *, threads: int | None = None) -> np.ndarray:
    """The number of triangles through each node (networkx's ``triangles``), int64.

    Counted in C++ in the pass :func:`~graphveil.measure.utility.triangle_count` makes (edges
    point from the lower to the higher (degree, id) rank, each triangle is found once, at its
    lowest node, and adds 1 to each of its three nodes); exact integers, whatever ``threads``.
    Memory: 8 bytes a node per thread.

    Examples
    --------
    >>> local_triangles(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])).tolist()
    [1, 1, 1, 0]
    """
    g = _graph(graph)
    return _core.local_triangles(g.indptr, g.indices, check_threads(threads))[1]


def average_clustering(graph: Graph | Multigraph, *, threads: int | None = None) -> float:
    """Mean local clustering coefficient, nodes of degree below 2 counting 0.

    networkx's ``average_clustering`` (and igraph's ``transitivity_avglocal_undirected(mode=
    "zero")``); PGB's ``ACC``. nan for the graph with no nodes.

    Examples
    --------
    >>> round(average_clustering(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])), 4)
    0.5833
    """
    g = _graph(graph)
    return mean_clustering(g, local_triangles(g, threads=threads))


def mean_clustering(g: Graph, local: np.ndarray) -> float:
    """:func:`average_clustering` of ``g`` from its :func:`local_triangles` ``local``."""
    if g.n == 0:
        return math.nan
    deg = g.degrees.astype(np.float64)
    pairs = deg * (deg - 1.0)
    return float(np.divide(2.0 * local, pairs, out=np.zeros(g.n), where=pairs > 0).mean())


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
#: Runs of the Leiden algorithm (one: the algorithm as its paper defines it; igraph runs two).
LEIDEN_ITERATIONS = 1


def communities(graph: Graph | Multigraph, *, seed: SeedLike = None) -> np.ndarray:
    """Communities by the Leiden algorithm maximising modularity, seeded (a C++ kernel).

    Leiden (Traag, Waltman, van Eck 2019) with resolution 1, run once as its paper defines it
    (:data:`LEIDEN_ITERATIONS`): fast local moving of nodes, refinement of each community into
    well-connected sub-communities, aggregation, until local moving leaves every aggregate node
    alone. Leiden rather than Louvain (python-louvain's ``best_partition``, which PGB and
    PrivGraph call, also run once): Louvain can leave a community internally disconnected,
    Leiden's are connected. igraph's ``community_leiden`` runs the algorithm twice by default,
    the second run from the first's partition: modularity 0.003-0.011 higher for 1.4-1.8 times
    the time.

    graphveil's own kernel rather than igraph's (which it replaced, and which the tests and
    benchmarks race it against): igraph's run holds the GIL throughout and draws every random
    number through Python. Two choices where Leiden leaves room, each for speed:

    - the nodes are visited in a seeded random order of blocks of 256 consecutive nodes, each
      block in node order (Leiden shuffles single nodes): the rows read then follow one another
      in memory, 1.5 times faster on the youtube-size graph at equal modularity;
    - the refinement merges a node into the well-connected sub-community of largest gain, where
      Leiden draws it with probability proportional to ``exp(gain / beta)`` (beta = 0.01): the
      beta -> 0 limit.

    Against igraph's one run (``python benchmarks/community_race.py``, seeds 1 and 2, mean
    modularity, best CPU seconds): ca-GrQc 0.8608 against 0.8619, facebook_combined 0.8349
    against 0.8352, web-NotreDame 0.9397 against 0.9383 in 0.12 s against 0.72 s, the
    youtube-size graph 0.6126 against 0.6126 in 2.6 s against 8.5 s. The answer depends on the
    seed alone, on any thread count (the run is sequential).

    Parameters
    ----------
    graph : Graph or Multigraph
        Undirected; a multigraph's simple graph.
    seed : int, numpy.random.Generator or None

    Returns
    -------
    numpy.ndarray of int64
        One community id per node, numbered by first appearance (an isolated node is a
        community of its own).
    """
    g = _graph(graph)
    labels, _ = _core.leiden(g.indptr, g.indices, 1.0, LEIDEN_ITERATIONS, seed_to_u64(seed))
    return labels


@dataclass(frozen=True)
class _Table:
    """The contingency table of two partitions of ``n`` items, its non-zero cells only."""

    n: int
    keys: np.ndarray  # ia * kb + ib of each non-zero cell, ascending
    cells: np.ndarray  # the count of each
    kb: int
    ca: np.ndarray  # cluster sizes of a (its clusters in ascending label order)
    cb: np.ndarray


def _dense(labels: np.ndarray) -> np.ndarray:
    """``np.unique(labels, return_inverse=True)[1]``: each label's rank among the distinct ones.

    Non-negative integer labels below ``4 n`` (Leiden's) by a lookup table, not a sort.
    """
    n = labels.size
    if labels.dtype.kind in "iu" and n and labels.min() >= 0 and labels.max() < 4 * n:
        present = np.bincount(labels) > 0
        return (np.cumsum(present) - 1)[labels]
    return np.unique(labels, return_inverse=True)[1].ravel()


def _table(a: np.ndarray, b: np.ndarray) -> _Table:
    ia, ib = _dense(a).astype(np.int64), _dense(b).astype(np.int64)
    ka, kb = int(ia.max()) + 1, int(ib.max()) + 1
    if ka * kb <= 4 * a.size:
        counts = np.bincount(ia * kb + ib, minlength=ka * kb)
        keys = np.flatnonzero(counts)
        cells = counts[keys]
    else:
        keys, cells = np.unique(ia * kb + ib, return_counts=True)
    return _Table(a.size, keys, cells, kb, np.bincount(ia, minlength=ka), np.bincount(ib))


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
    return math.nan if la.size == 0 else _nmi(_table(la, lb))


def _nmi(t: _Table) -> float:
    if t.ca.size == t.cb.size == t.cells.size:  # one partition relabelled: 1, not 1 - 1e-16
        return 1.0
    # sum p_ij ln(p_ij / (p_i p_j)) over the non-zero cells
    outer = t.ca[t.keys // t.kb].astype(np.float64) * t.cb[t.keys % t.kb]
    n = t.n
    mi = max(float(np.sum(t.cells / n * (np.log(t.cells * float(n)) - np.log(outer)))), 0.0)
    ha, hb = _entropy(t.ca, n), _entropy(t.cb, n)
    return float(mi / max((ha + hb) / 2.0, _EPS))


def _entropy(counts: np.ndarray, n: int) -> float:
    p = counts[counts > 0] / n
    return float(-np.sum(p * np.log(p)))


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
    return math.nan if la.size == 0 else _ari(_table(la, lb))


def _pairs_within(counts: np.ndarray, n: int) -> int:
    """``sum c (c - 1) / 2`` exactly (int64 holds it below 2^31 items, else Python ints)."""
    c = counts.astype(np.int64 if n < 2**31 else object)
    return int(np.sum(c * (c - 1))) // 2


def _ari(t: _Table) -> float:
    n = t.n
    same_both = _pairs_within(t.cells, n)
    same_a, same_b = _pairs_within(t.ca, n), _pairs_within(t.cb, n)
    pairs = n * (n - 1) // 2
    tp, fn, fp = same_both, same_a - same_both, same_b - same_both
    tn = pairs - tp - fn - fp
    if fn == 0 and fp == 0:
        return 1.0
    return float(2 * (tp * tn - fn * fp)) / float((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def agreement(a: Any, b: Any) -> tuple[float, float]:
    """``(nmi, ari)`` of two partitions, from one contingency table for both.

    The values of :func:`normalized_mutual_info` and :func:`adjusted_rand_index`.

    Examples
    --------
    >>> agreement([0, 0, 1, 1], [0, 0, 0, 1])
    (0.34371101848545077, 0.0)
    """
    la, lb = _check_pair(a, b)
    if la.size == 0:
        return math.nan, math.nan
    table = _table(la, lb)
    return _nmi(table), _ari(table)


# --------------------------------------------------------------------------- central nodes
def eigenvector_centrality(graph: Graph | Multigraph, *, threads: int | None = None) -> np.ndarray:
    """The principal eigenvector of the adjacency, non-negative, of unit L2 norm.

    What networkx's ``eigenvector_centrality`` (power iteration on ``A + I``, PGB's and
    PrivGraph's call) converges to, found in C++ by Lanczos from the all-ones vector (so the run
    is deterministic), stopped when the top Ritz pair's residual ``||A x - lambda x||`` is below
    :data:`EIGENVECTOR_TOL` ``* lambda``, without reorthogonalisation (two passes over the same
    recurrence, O(n) memory, twice as many products as steps: 34 steps on web-NotreDame, within
    1.2e-13 of ARPACK's answer at tolerance 1e-14, where ARPACK at 1e-8, this function's former
    call, is 3.1e-12 off; 0.2 s of CPU against its 1.1 s). Floating sums are taken over fixed blocks
    of nodes, so the answer is the same on any number of threads. Power iteration would need
    about 140 products on web-NotreDame and 1,100 on the youtube-size graph, whose most negative
    eigenvalue (-65.9) is almost as large as its largest (67.4). A dense solver below 64 nodes. A
    graph without edges gives ``1 / sqrt(n)`` everywhere (networkx too). When the largest
    eigenvalue is not simple (two largest components alike), the eigenvector is not unique and
    neither is the answer. All nan if the measured residual exceeds ``1e-8 lambda`` (ARPACK's
    former tolerance) or the run does not converge in :data:`EIGENVECTOR_MAX_STEPS` steps.

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
    if g.n < 64:
        _, vectors = np.linalg.eigh(_adjacency(g).toarray())
        x = vectors[:, -1]
        x = np.abs(x if x.sum() >= 0 else -x)
        return x / np.linalg.norm(x)
    x, _, _, converged, residual = _core.top_eigenvector(
        g.indptr, g.indices, EIGENVECTOR_TOL, EIGENVECTOR_MAX_STEPS, check_threads(threads)
    )
    if not converged or not residual <= 1e-8:  # pragma: no cover - right or refused
        return np.full(g.n, math.nan)
    return np.abs(x if x.sum() >= 0 else -x)  # of unit norm already (a sign change keeps it)


def pagerank(
    graph: Graph | Multigraph, *, damping: float = PAGERANK_DAMPING, threads: int | None = None
) -> np.ndarray:
    """PageRank by power iteration on the sparse adjacency, summing to 1.

    networkx's ``pagerank`` (uniform teleport; an isolated node's mass spread uniformly),
    stopped when one step changes the vector by less than :data:`PAGERANK_TOL` in L1. In C++,
    one parallel pass over the rows a step; floating sums over fixed blocks of nodes, so the
    answer is the same on any number of threads.

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
    rank, _ = _core.pagerank(
        g.indptr,
        g.indices,
        float(damping),
        PAGERANK_TOL,
        PAGERANK_MAX_ITER,
        check_threads(threads),
    )
    return rank


def top_nodes(values: Any, k: int) -> np.ndarray:
    """The ``k`` nodes of largest value, in decreasing order, ties to the lower id.

    Only the nodes at or above the ``k``-th largest value are sorted (found by a partition,
    linear time); any nan sorts every node, nan last.

    Examples
    --------
    >>> top_nodes([0.5, 2.0, 0.5, 1.0], 3).tolist()
    [1, 3, 0]
    """
    x = np.asarray(values, dtype=np.float64)
    k = min(max(int(k), 0), x.size)
    if k == 0 or k == x.size or np.isnan(x).any():
        return np.lexsort((np.arange(x.size), -x))[:k]
    kth = np.partition(x, x.size - k)[x.size - k]
    candidates = np.flatnonzero(x >= kth)
    return candidates[np.lexsort((candidates, -x[candidates]))[:k]]


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


def influence_spread(
    graph: Graph | Multigraph,
    seeds: Any,
    *,
    p: float = IC_P,
    runs: int = IC_RUNS,
    seed: SeedLike = None,
    threads: int | None = None,
) -> float:
    """Mean number of nodes an independent cascade from ``seeds`` reaches in ``graph``.

    Each active node gets one chance to activate each neighbour, with probability ``p``
    (PrivGraph's ``runIC``). An edge is tried at most once per cascade, from the end reached
    first, so one coin per (run, directed edge) gives the cascade exactly. Here the coins of a
    node's edges in run ``r`` are drawn by geometric jumps through its adjacency row, each jump
    a splitmix64 hash of (``seed``, r, slot): a cascade costs the nodes it reaches and their live
    edges (a hub costs ``d p`` steps, not ``d`` coins), and the same seed gives the same coins for
    any seed set, so the spreads of two seed sets on one graph differ only by their seeds (common
    random numbers). In C++, the runs in parallel, each by one thread: the same answer on any
    number of threads.

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
    threads : int, optional
        Worker threads (None or 0: all cores); the answer does not depend on it.

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
    start = np.ascontiguousarray(np.asarray(seeds, dtype=np.int64).ravel())
    if start.size and (start.min() < 0 or start.max() >= g.n):
        raise IndexError(f"seeds must be node ids in 0..{g.n - 1}")
    total = _core.influence_reach(
        g.indptr, g.indices, start, float(p), runs, seed_to_u64(seed), check_threads(threads)
    )
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
    evc = eigenvector_centrality(g, threads=threads)
    evc_nodes = top_nodes(evc, k)
    return AnalystReference(
        graph=g,
        seed=seed64,
        degree_counts=np.bincount(g.degrees, minlength=1),
        distance_counts=distance_counts(
            g, seed=seed64, exact_threshold=exact_threshold, sources=sources, threads=threads
        ),
        communities=communities(g, seed=seed64),
        evc_top=evc[evc_nodes],  # the k largest values, decreasing
        evc_nodes=evc_nodes,
        pagerank_nodes=top_nodes(pagerank(g, threads=threads), k),
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
