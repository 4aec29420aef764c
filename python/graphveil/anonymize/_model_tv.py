"""The total variance of RandWalk-mod's uncertain model (the bar of the paper's Fig. 10).

RandWalk-mod publishes one realisation of its walks (TV 0); its model is the uncertain
adjacency matrix :func:`~graphveil.anonymize.randwalk_mod_uncertain`, whose TV is streamed
block by block here without building it (:func:`randwalk_mod_tv`), or estimated with its
standard error where that costs too much (:func:`randwalk_mod_tv_estimate`).
:func:`randwalk_mod_model_tv` chooses between them for the study.

References
----------
The paper, Section IV-B and Fig. 10.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_int, check_real
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil._threads import map_ordered
from graphveil.anonymize._randwalk import (
    check_walk_length,
    edge_adding_matrix,
    randwalk_mod_uncertain,  # noqa: F401 (the doctests use it)
    transition_matrix,
)
from graphveil.graph import Graph, check_graph

__all__ = [
    "ESTIMATED_TV_WORK",
    "EXACT_TV_WORK",
    "randwalk_mod_model_tv",
    "randwalk_mod_tv",
    "randwalk_mod_tv_estimate",
]

#: Multiply-adds (``n t 2m``) up to which RandWalk-mod's model TV is computed exactly: email-Enron
#: at t = 10 is 1.35e11 (100 s on 2 cores). Above it, a stratified estimate costing
#: about :data:`ESTIMATED_TV_WORK` (:func:`randwalk_mod_tv_estimate`).
EXACT_TV_WORK = 2e11
ESTIMATED_TV_WORK = 2.5e9


def randwalk_mod_model_tv(
    graph: Graph, t: int, *, threads: int | None = None
) -> tuple[float, float]:
    """TV of RandWalk-mod's model at ``alpha = 0.5`` and its standard error, as the study takes it.

    Exact (:func:`randwalk_mod_tv`, error 0) while that costs at most :data:`EXACT_TV_WORK`
    multiply-adds, else estimated (:func:`randwalk_mod_tv_estimate`, seed 0) at a cost of
    about :data:`ESTIMATED_TV_WORK`.

    Examples
    --------
    >>> from graphveil import generators
    >>> g = generators.powerlaw_cluster(80, 2, 0.3, seed=2)
    >>> randwalk_mod_model_tv(g, 3) == (randwalk_mod_tv(g, 3), 0.0)
    True
    """
    work = float(graph.n) * t * 2 * graph.m
    if work <= EXACT_TV_WORK:
        return randwalk_mod_tv(graph, t, alpha=0.5, threads=threads), 0.0
    columns = max(200, int(ESTIMATED_TV_WORK / (t * 2 * graph.m)))
    return randwalk_mod_tv_estimate(graph, t, columns=columns, seed=0, threads=threads)


def randwalk_mod_tv(
    graph: Graph,
    t: int,
    *,
    alpha: float = 0.5,
    block_entries: int = 2_000_000,
    threads: int | None = None,
) -> float:
    """Total variance of :func:`randwalk_mod_uncertain`, streamed: the matrix is never built.

    Rows of ``M = W + W^T``, ``W = Q P^(t-1)``, are computed a block at a time by sparse
    products (``E_R (P^T)^(t-1) Q^T`` for the rows of ``W^T``), switching a block to dense once
    it fills; each block's pairs ``j >= i`` add ``frac(x) (1 - frac(x))`` as in the
    materialised form, and the block is dropped. With ``alpha = 0.5`` (the paper's case),
    ``M = A P^(t-1)`` is symmetric: one product per block does, blocks of columns run on
    ``threads`` threads, and the pairs are half the off-diagonal entries. Memory is a few
    blocks of at most ``block_entries`` floats per thread whatever ``t``, so the bar of Fig. 10
    never needs the matrix (27M pairs at t = 10 on ca-GrQc, 673M on email-Enron).

    Parameters
    ----------
    graph : Graph
    t : int
        Walk length, 1 to 1000.
    alpha : float
        In ``[0, 1]``.
    block_entries : int
        At most how many matrix entries one block of rows holds (rows per block:
        ``block_entries // n``, at least 1 and at most ``_MAX_BLOCK``).
    threads : int, optional
        Threads for the blocks at ``alpha = 0.5`` (None or 0: :func:`~graphveil.default_threads`);
        the result does not depend on it.

    Returns
    -------
    float
        ``randwalk_mod_uncertain(graph, t, alpha=alpha).graph.total_variance()`` up to
        floating-point round-off.

    Examples
    --------
    >>> from graphveil import generators
    >>> g = generators.powerlaw_cluster(80, 2, 0.3, seed=2)
    >>> exact = randwalk_mod_uncertain(g, 3).graph.total_variance()
    >>> abs(randwalk_mod_tv(g, 3, block_entries=500) - exact) < 1e-9 * exact
    True
    """
    check_graph(graph, what="randwalk_mod_tv")
    t = check_walk_length(t)
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    block_entries = check_int(block_entries, "block_entries", 1)
    n = graph.n
    step = _block_width(n, block_entries, 1)
    if alpha == 0.5:
        return _symmetric_tv(graph, t, step, threads)
    q = edge_adding_matrix(graph, alpha)
    p = transition_matrix(graph)
    pt = sp.csr_array(p.T)
    qt = sp.csr_array(q.T)
    eye = sp.identity(n, format="csr")
    total = 0.0
    for r0 in range(0, n, step):
        rows = np.arange(r0, min(n, r0 + step))
        w = _advance(sp.csr_array(q[rows]), p, t - 1)
        wt = _advance(sp.csr_array(eye[rows]), pt, t - 1) @ qt
        total += _block_tv(w + wt, rows)
    return total


def _symmetric_tv(graph: Graph, t: int, step: int, threads: int | None) -> float:
    """``randwalk_mod_tv`` at ``alpha = 0.5``, where ``M = A P^(t-1)`` is symmetric.

    Columns of M are computed a block at a time as ``A P^(t-1) E`` (sparse products with a
    dense block of columns: scipy's row-major kernel, which releases the GIL, so blocks run on
    ``threads`` threads). By symmetry the pairs ``i < j`` are half of the off-diagonal entries,
    so each column adds ``f`` over all its entries with its diagonal corrected
    (:func:`_column_tv`); blocks are summed in order, so the result does not depend on
    ``threads``.
    """
    columns = np.arange(graph.n, dtype=np.int64)
    return 0.5 * math.fsum(_columns_tv(graph, t, columns, step, threads))


def _columns_tv(
    graph: Graph, t: int, columns: np.ndarray, step: int, threads: int | None
) -> np.ndarray:
    """Twice each column's share of the TV of ``M = A P^(t-1)``, for the given columns.

    Column ``c`` adds ``sum_j f(M_jc) - f(M_cc) + 2 f(M_cc / 2)`` with ``f(x) = frac(x) (1 -
    frac(x))``: its off-diagonal pairs (each pair is counted from both of its columns, hence
    the factor two) and its loop, whose expected count is ``M_cc / 2``.

    A block of columns starts as unit vectors and is held as its transpose while sparse: a
    step ``x^T P^T`` costs one multiply-add per arc leaving a nonzero, where scipy's ``P x``
    scans every arc of P. Once a sparse step would cost more than :data:`_SPARSE_COST` dense
    ones, the block is dense and steps are :func:`graphveil._core.csr_dense_product`. Each
    entry sums its terms in ascending node order either way, so the result does not depend on
    the block width or on when the block turns dense.
    """
    n = graph.n
    deg = graph.degrees
    inv = np.divide(1.0, deg.astype(np.float64), out=np.zeros(n), where=deg > 0)
    weights = np.repeat(inv, deg)  # P = D^-1 A: row u's entries are 1 / d_u
    a_t = graph.to_scipy()  # A^T = A
    p_t = sp.csr_array((inv[graph.indices], graph.indices, graph.indptr), shape=(n, n))
    arcs = graph.indices.size

    def block(b0: int) -> np.ndarray:
        cols = columns[b0 : b0 + step]
        width = cols.size
        x: Any = sp.csr_array((np.ones(width), (np.arange(width), cols)), shape=(width, n))
        for hop in range(t):  # t - 1 steps of P, then A
            last = hop == t - 1
            if sp.issparse(x) and _SPARSE_COST * int(deg[x.indices].sum()) > arcs * width:
                x = _dense_transpose(x)
            if sp.issparse(x):
                x = x @ (a_t if last else p_t)
                x.sort_indices()  # the next step adds its terms in ascending node order
            else:
                x = _core.csr_dense_product(
                    graph.indptr, graph.indices, None if last else weights, x
                )
        if sp.issparse(x):
            x = _dense_transpose(x)
        diag = x[cols, np.arange(width)]
        return _column_sums(x) - _frac_variance(diag) + 2.0 * _frac_variance(0.5 * diag)

    parts = map_ordered(None, threads, block, range(0, columns.size, step))
    return np.concatenate(parts) if parts else np.zeros(0)


def _dense_transpose(x: Any) -> np.ndarray:
    """A canonical CSR array's transpose, dense and C-ordered.

    Written in place: one dense block where ``x.toarray().T`` copied made two (145 MB each on
    synthetic-youtube). The study's model TV at t = 2 there, 2 threads: +808 MB and 3.6 s with
    the copy, +565 MB and 2.3-2.6 s without (``python benchmarks/model_tv_memory.py
    synthetic-youtube 2``).
    """
    out = np.zeros((x.shape[1], x.shape[0]))
    out[x.indices, np.repeat(np.arange(x.shape[0]), np.diff(x.indptr))] = x.data
    return out


#: A sparse multiply-add (scipy's sparse product) costs about this many dense ones
#: (:func:`graphveil._core.csr_dense_product`): on synthetic-youtube, 70-120 ns against 3 ns.
_SPARSE_COST = 32


#: Rows (columns) per block of the model TV at most: wider blocks are no faster and cost memory
#: (ca-GrQc, t = 10, 2 threads: 64 a block 0.7-0.9 s and +25-28 MB, 381 0.8-1 s and +154-156 MB;
#: ``python benchmarks/model_tv_memory.py``).
_MAX_BLOCK = 64

#: Columns per block of :func:`randwalk_mod_tv_estimate` at least: one column a block costs
#: 5x more on a million-node graph (synthetic-youtube, t = 2: 196 s against 36 s for 836 columns),
#: and a product's gathers read a row of the block (16 columns: two cache lines) per arc.
_MIN_ESTIMATE_BLOCK = 16


def _block_width(n: int, block_entries: int, least: int) -> int:
    """Rows (columns) per block of the model TV: ``block_entries // n`` in [least, _MAX_BLOCK]."""
    return max(least, min(_MAX_BLOCK, block_entries // max(n, 1)))


def randwalk_mod_tv_estimate(
    graph: Graph,
    t: int,
    *,
    columns: int = 2000,
    seed: SeedLike = 0,
    block_entries: int = 2_000_000,
    threads: int | None = None,
) -> tuple[float, float]:
    """An unbiased estimate of :func:`randwalk_mod_tv` (``alpha = 0.5``) and its standard error.

    For graphs where the exact streamed TV costs too much (``n t 2m`` multiply-adds: hours on a
    million-edge graph at ``t = 10``). Column ``c`` of ``M = A P^(t-1)`` sums to ``d_c``, and
    ``f(x) = frac(x) (1 - frac(x))`` is ``x - x^2`` below 1, so its share of the TV is
    ``d_c - g_c`` with a small deficit ``g_c`` (about ``sum_j M_jc^2``): the estimate is exact
    for the ``columns / 2`` highest-degree columns (where ``g_c`` is largest) and samples the
    other half from the rest, stratified by ``floor(log2 degree)``, estimating only the sum of
    their deficits. The error is then a fraction of the deficit, not of the TV.

    Parameters
    ----------
    graph : Graph
    t : int
        Walk length, 1 to 1000.
    columns : int
        Columns of M computed (the cost is ``columns t 2m``); all of them gives the exact TV
        with standard error 0.
    seed : int, numpy.random.Generator or None
        Draws the sampled columns (0 by default, so the estimate is reproducible).
    block_entries, threads
        As in :func:`randwalk_mod_tv` (but at least ``_MIN_ESTIMATE_BLOCK`` columns a block).

    Returns
    -------
    tuple of float
        The estimate and its standard error (finite-population corrected).

    Examples
    --------
    >>> from graphveil import generators
    >>> g = generators.powerlaw_cluster(300, 3, 0.3, seed=2)
    >>> est, se = randwalk_mod_tv_estimate(g, 5, columns=60)
    >>> exact = randwalk_mod_tv(g, 5)
    >>> abs(est - exact) < 4 * se + 1e-9 * exact
    True
    >>> randwalk_mod_tv_estimate(g, 5, columns=300)[1]
    0.0
    """
    check_graph(graph, what="randwalk_mod_tv_estimate")
    t = check_walk_length(t)
    columns = check_int(columns, "columns", 2)
    block_entries = check_int(block_entries, "block_entries", 1)
    n = graph.n
    step = _block_width(n, block_entries, _MIN_ESTIMATE_BLOCK)
    deg = graph.degrees.astype(np.float64)
    if columns >= n:
        return randwalk_mod_tv(graph, t, block_entries=block_entries, threads=threads), 0.0
    order = np.argsort(-deg, kind="stable")
    top = np.sort(order[: columns // 2])
    rest = order[columns // 2 :]
    rng = np.random.default_rng(seed_to_u64(seed))
    strata = _degree_strata(rest, deg, columns - top.size, rng)
    sample = np.concatenate([chosen for _, chosen in strata])
    shares = _columns_tv(graph, t, np.concatenate([top, sample]), step, threads)
    exact_top = math.fsum(shares[: top.size])
    deficit = deg[sample] - shares[top.size :]
    total, variance, at = 0.0, 0.0, 0
    for members, chosen in strata:
        g = deficit[at : at + chosen.size]
        at += chosen.size
        total += members.size * float(g.mean())
        if chosen.size < members.size:
            fpc = 1.0 - chosen.size / members.size
            variance += members.size**2 * fpc * float(np.var(g, ddof=1)) / chosen.size
    estimate = 0.5 * (exact_top + math.fsum(deg[rest]) - total)
    return float(estimate), 0.5 * math.sqrt(variance)


def _degree_strata(
    nodes: np.ndarray, deg: np.ndarray, budget: int, rng: np.random.Generator
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Strata of ``nodes`` by ``floor(log2 degree)`` and a uniform sample of each.

    The budget is shared in proportion to each stratum's degree sum (a column's deficit scales
    with its degree), at least 2 a stratum and at most all of it.
    """
    level = np.floor(np.log2(np.maximum(deg[nodes], 1.0))).astype(np.int64)
    groups = [np.sort(nodes[level == v]) for v in np.unique(level)]
    weight = np.array([deg[g].sum() + g.size for g in groups], dtype=np.float64)
    want = np.maximum(2, np.round(budget * weight / weight.sum())).astype(np.int64)
    out = []
    for g, k in zip(groups, want):
        k = min(int(k), g.size)
        out.append((g, g if k == g.size else np.sort(rng.choice(g, size=k, replace=False))))
    return out


#: Rows of a dense block whose :func:`_frac_variance` is taken at once (its temporaries are
#: several copies of them: of the whole block, on a million-node graph, gigabytes).
_SUM_ROWS = 1 << 16


def _column_sums(x: np.ndarray) -> np.ndarray:
    """``_frac_variance(x).sum(axis=0)`` a slice of rows at a time, added in the same order.

    numpy sums a C-ordered block over its rows one row after another; each slice's first row
    takes the running sum, so the order of the additions, and the result, are the same.
    """
    total = np.zeros(x.shape[1])
    for r0 in range(0, x.shape[0], _SUM_ROWS):
        part = _frac_variance(x[r0 : r0 + _SUM_ROWS])
        part[0] += total
        total = part.sum(axis=0)
    return total


def _frac_variance(x: np.ndarray) -> np.ndarray:
    """``frac(x) (1 - frac(x))`` entry-wise, an entry within 1e-12 of an integer giving 0."""
    x = np.asarray(x, dtype=np.float64)
    rounded = np.round(x)
    frac = np.where(np.abs(x - rounded) < 1e-12, 0.0, x - np.floor(x))
    frac *= 1.0 - frac
    return frac


def _advance(x: Any, op: sp.csr_array, steps: int) -> Any:
    """``x @ op^steps``: sparse while ``x`` is sparse enough, dense once it fills."""
    for _ in range(steps):
        if sp.issparse(x) and x.nnz > 0.1 * x.shape[0] * x.shape[1]:
            x = x.toarray()
        x = x @ op
    return x


def _block_tv(m: Any, rows: np.ndarray) -> float:
    """Sum of ``frac(x) (1 - frac(x))`` over the pairs ``j >= i`` of a block of rows of M."""
    if sp.issparse(m):
        coo = sp.coo_array(m)
        r, c, x = rows[coo.row], coo.col, coo.data
    else:
        m = np.asarray(m)
        local, c = np.nonzero(m)
        r, x = rows[local], m[local, c]
    keep = c >= r
    r, c, x = r[keep], c[keep], x[keep]
    # expected number of each pair: M_ij off the diagonal, M_ii / 2 loops
    x = np.where(r == c, 0.5, 1.0) * x
    rounded = np.round(x)
    x = np.where(np.abs(x - rounded) < 1e-12, rounded, x)
    frac = x - np.floor(x)
    return float(np.sum(frac * (1.0 - frac)))
