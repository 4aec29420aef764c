"""RandWalk (Mittal et al.) and RandWalk-mod (Section 3.2 of the paper).

Every edge slot ``(u, v)`` of the graph starts one random walk of ``t - 1`` hops from ``v``;
its end ``z`` proposes the pair ``{u, z}``. Two forms:

* the retrying walk (:func:`randwalk`, the authors' RandWalk runs, and
  ``randwalk_mod(..., variant="retry")``): one shared output graph filled in node order, a walk
  retried while it ends at ``u`` or at a node already linked to ``u`` (at most M tries); no
  self-loops, no duplicates;
* the printed Algorithm 2 (:func:`randwalk_mod` by default, ``variant="printed"``, what the
  paper's RandWalk-mod rows ran): no retries, self-loops and multi-edges kept, a multigraph;
  its exact uncertain form is :func:`randwalk_mod_uncertain`.

The walks run in C++ with one random stream per fixed block of nodes, so the output depends
on the seed only, never on the thread count.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, get_args

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._common import (
    SeedLike,
    check_threads,
    pool_workers,
    seed_to_u64,
)
from graphveil.anonymize._report import (
    Timer,
    check_graph,
    check_int,
    check_real,
    finish,
    finish_graph,
    graph_first,
    sorted_pairs,
)
from graphveil.graph import Graph
from graphveil.uncertain import Anonymized, UncertainGraph

__all__ = [
    "randwalk",
    "randwalk_mod",
    "randwalk_mod_tv",
    "randwalk_mod_tv_bound",
    "randwalk_mod_tv_estimate",
    "randwalk_mod_uncertain",
    "transition_matrix",
    "walk_ends",
]

#: How a walk picks its next hop: uniformly, or SybilGuard-style fixed routing.
Routing = Literal["random", "fixed"]
_ROUTINGS = get_args(Routing)


def _check_routing(routing: str) -> str:
    if routing not in _ROUTINGS:
        raise ValueError(f"routing must be 'random' or 'fixed', got {routing!r}")
    return routing


def walk_ends(
    graph: Graph, starts: Any, steps: int, *, seed: SeedLike = None, threads: int | None = None
) -> np.ndarray:
    """End nodes of independent uniform random walks of ``steps`` hops.

    Parameters
    ----------
    graph : Graph
    starts : array_like of int
        One start node per walk (repeat a node to walk from it many times).
    steps : int
        Hops per walk (>= 0). A walk from an isolated node stays there.
    seed, threads
        Randomness and parallelism; the result does not depend on ``threads``.
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.

    Returns
    -------
    numpy.ndarray
        The end node of every walk, in the order of ``starts``.
    """
    check_graph(graph)
    steps = check_int(steps, "steps", 0)
    s = np.ascontiguousarray(starts, dtype=np.int64)
    if s.ndim != 1:
        raise ValueError("starts must be a 1-d array of node ids")
    if s.size and (s.min() < 0 or s.max() >= graph.n):
        raise ValueError(f"start nodes must lie in 0..{graph.n - 1}")
    return _core.walk_ends(
        graph.indptr, graph.indices, s, steps, seed_to_u64(seed), check_threads(threads)
    )


#: RandWalk-mod: Algorithm 2 as printed (a multigraph; the paper's tables), or the retrying walk.
Variant = Literal["printed", "retry"]
_VARIANTS = get_args(Variant)
#: RandWalk as the authors ran it, or Algorithm 1 as printed.
WalkVariant = Literal["authors", "printed"]
#: The probability with which a degree-1 node keeps its walk, per RandWalk variant.
_WALK_VARIANTS: dict[str, float] = dict(zip(get_args(WalkVariant), (0.5, 1.0)))


def _retry_walk(
    graph: Graph,
    t: int,
    alpha: float,
    degree_one: float,
    max_tries: int,
    routing: str,
    seed: SeedLike,
    threads: int | None,
    scheme: str,
    params: dict[str, Any],
) -> Anonymized:
    seed64 = seed_to_u64(seed)
    timer = Timer()
    with timer.phase("walks"):
        u, z, failed, lost = _core.randwalk(
            graph.indptr,
            graph.indices,
            t,
            alpha,
            degree_one,
            max_tries,
            routing,
            seed64,
            check_threads(threads),
        )
    with timer.phase("build"):
        a, b = sorted_pairs(graph.n, u, z)
    return finish(
        graph.n,
        a,
        b,
        np.ones(a.size),
        scheme=scheme,
        params=params,
        seed=seed64,
        timer=timer,
        edges=int(a.size),
        walks=int(graph.indices.size),
        failed=int(failed),
        lost=float(lost),
    )


@graph_first("graph", "t")
def randwalk(
    graph: Graph,
    *,
    t: int,
    variant: WalkVariant = "authors",
    max_tries: int = 10,
    routing: Routing = "random",
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """RandWalk(G0, t, M) of Mittal et al., as the paper's authors ran it: a deterministic output.

    One output graph G' is filled in node order. For every node ``u`` and its neighbours ``v``
    (ascending ids) a walk of ``t - 1`` hops from ``v`` ends at ``z``; it is walked again while
    ``z == u`` or ``{u, z}`` is already in G' (added by any node so far, in either direction),
    at most ``max_tries`` walks in all. A walk whose tries all fail is counted in the report's
    ``failed``. Otherwise ``{u, z}`` is added with probability 1 for the first neighbour and
    ``(0.5 d_u - 1) / (d_u - 1)`` for the others, so a node adds ``d_u / 2`` edges in
    expectation and G' has about ``m`` edges, no self-loops and no duplicates.

    This is RandWalk-mod's retrying walk with ``alpha = 1`` (:func:`randwalk_mod`), which is how
    the authors' ``random_walk_transform(G, t, M, alpha=1)`` computed RandWalk: it also adds the
    edge of a degree-1 node with probability 0.5. ``variant="printed"`` follows the printed
    Algorithm 1 there: a degree-1 node adds its edge with probability 1, so G' has more edges,
    though fewer than half the number of degree-1 nodes more, as failed walks add nothing and
    an early edge can block a later walk (on ca-GrQc, 1,197 degree-1 nodes: 377-466 more edges
    at t = 2, 3, 5, 10; see docs/faithfulness.rst). The study uses ``"authors"``.

    The first try of every walk is drawn in parallel; retries and acceptance coins in one
    sequential pass in node order (a retry depends on all edges added before it). The output
    depends on the seed only, never on ``threads``.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    t : int
        Walk length (>= 1); the walk makes ``t - 1`` hops. The paper uses 2, 3, 5, 10.
    variant : {"authors", "printed"}
        ``"authors"`` (the default): a degree-1 node keeps its walk with probability 0.5, as the
        authors' code did; ``"printed"``: with probability 1, as Algorithm 1 is printed.
    max_tries : int
        The retry bound M (>= 1), 10 by default: at most M walks per neighbour. (The authors'
        loop counter rejected a suitable ``z`` found on the M-th walk, so their M = 10 allowed 9
        useful walks; the difference is the rare walk that fails 9 times and not 10.)
    routing : {"random", "fixed"}
        ``"fixed"``: SybilGuard-style routing (one random permutation of the neighbours of
        each node, the paper's remark after Theorem 3.2); a retry would repeat the same route,
        so each walk is tried once.
    seed, threads
        Randomness and parallelism; the result does not depend on ``threads``.
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.

    Returns
    -------
    Anonymized
        A deterministic uncertain graph (all p = 1) and a report with ``edges``, ``walks``
        (one per edge slot, ``2m``), ``failed`` (walks whose M tries all ended at ``u`` or at a
        node already linked to ``u``) and ``lost`` (the sum of those walks' acceptance
        probabilities: ``E[edges] = m - E[lost]``). Failures are structural: at ``t = 2`` a
        walk from a degree-1 neighbour always returns to ``u``, and a small component offers
        few ends (on ca-GrQc about 9% of the edges at ``t = 2``, 1-3% at ``t = 3..10``).

    Raises
    ------
    ValueError
        If ``t < 1``, ``max_tries < 1``, or ``variant`` or ``routing`` is unknown.

    References
    ----------
    Mittal, Papamanthou, Song, "Preserving Link Privacy in Social Network Based Systems",
    NDSS 2013; the paper, Section 3.2 and Algorithm 1; ../shared/paper/NOTES.md (RandWalk).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2], 4)
    >>> ug, report = randwalk(g, t=2, seed=1)
    >>> bool((ug.u < ug.v).all()), report["walks"]
    (True, 8)
    """
    check_graph(graph)
    t = check_int(t, "t", 1, " (the walk length; t - 1 hops)")
    max_tries = check_int(max_tries, "max_tries", 1)
    _check_routing(routing)
    if variant not in _WALK_VARIANTS:
        raise ValueError(f"variant must be 'authors' or 'printed', got {variant!r}")
    return _retry_walk(
        graph,
        t,
        1.0,
        _WALK_VARIANTS[variant],
        max_tries,
        routing,
        seed,
        threads,
        "randwalk",
        {"t": t, "variant": variant, "max_tries": max_tries, "routing": routing},
    )


@graph_first("graph", "t")
def randwalk_mod(
    graph: Graph,
    *,
    t: int,
    alpha: float = 0.5,
    variant: Variant = "printed",
    max_tries: int | None = None,
    routing: Routing = "random",
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """RandWalk-mod(G0, t, alpha): Algorithm 2 as printed, as the paper's tables ran it (default).

    For every node ``u`` and its ``k``-th neighbour ``v`` (ascending ids, ``k`` from 0) a walk
    of ``t - 1`` hops from ``v`` ends at ``z`` and ``{u, z}`` is kept with probability
    ``Q_uv``: 0.5 if ``d_u = 1``, ``alpha`` if ``k = 0``, ``(0.5 d_u - alpha) / (d_u - 1)``
    otherwise; each node keeps ``d_u / 2`` pairs in expectation.

    ``variant="printed"`` (the default) is Algorithm 2 as printed and as the authors ran it for
    every RandWalk-mod row of the paper's Table 4 (their ``random_walk_transform_multigraph(G,
    t, alpha=0.5)``, outputs ``randwalk_keep_<t>_0.5``): no retries, self-loops and repeated
    pairs kept (constraint 2'). The result is a multigraph, held as a *relaxed* uncertain graph
    with every p = 1: a pair per kept walk, a loop ``(u, u)`` when a walk ends at its own start.
    Its expected adjacency matrix is exactly :func:`randwalk_mod_uncertain` (Theorem 3.1:
    expected degrees kept node by node iff ``alpha = 0.5``; a self-loop adds 2 to its node's
    degree), so it has about ``m`` edges counting every loop and copy. The measures read it as
    the authors did (:class:`~graphveil.multigraph.Multigraph`): degrees, H1, H2_open and eps
    on the multigraph, clustering and distances on its simple graph.

    ``variant="retry"`` is the retrying walk, the authors' ``random_walk_transform(G, t, M,
    alpha=0.5)`` (run by them too, but in none of the paper's tables): RandWalk's retry loop on
    one shared output graph (see :func:`randwalk`; a walk is repeated while it ends at ``u`` or
    at a node already linked to ``u``, at most ``max_tries`` = M walks, 10 by default; failures
    are reported). The result is a simple deterministic graph (all p = 1): no self-loops, no
    duplicates. Expected degrees are kept on average: the expected sum of degrees is ``2m``
    minus twice the report's ``lost`` (the acceptance probabilities of the walks whose M tries
    all failed); not node by node, as the retries bias the ends away from a node's own
    neighbourhood.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    t : int
        Walk length (>= 1); ``t - 1`` hops.
    alpha : float
        In ``[0, 1]``; 0.5 by default (the paper's experiments). ``alpha = 1`` with the retry
        variant is :func:`randwalk`.
    variant : {"printed", "retry"}
        Algorithm 2 as printed, a multigraph (default; the paper's tables), or the retrying
        walk, a simple graph.
    max_tries : int, optional
        The retry bound M (>= 1) of the retry variant, 10 by default; not accepted with
        ``variant="printed"``, which never retries.
    routing : {"random", "fixed"}
        ``"fixed"``: SybilGuard-style routing, one random permutation of the neighbours of
        each node (the paper's remark after Theorem 3.2); the retry variant then tries each
        walk once (a retry would repeat the route).
    seed, threads
        Randomness and parallelism; the result does not depend on ``threads``.
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.

    Returns
    -------
    Anonymized
        Printed variant: a relaxed graph (all p = 1, a multigraph); the report counts
        ``self_loops`` and ``repeated`` pairs (copies beyond the first). Retry variant: a simple
        graph (all p = 1); the report has ``edges``, ``walks``, ``failed`` and ``lost`` as
        :func:`randwalk`'s.

    Raises
    ------
    ValueError
        If ``t < 1``, ``alpha`` lies outside ``[0, 1]``, ``variant`` or ``routing`` is unknown,
        ``max_tries < 1``, or ``max_tries`` is given with ``variant="printed"``.

    References
    ----------
    The paper, Section 3.2, Algorithms 1 and 2 and Theorem 3.1 ("RandWalk-mod accepts
    selfloops and multiedges"); ../shared/paper/NOTES.md (RandWalk-mod as the authors ran it).
    See :func:`randwalk_mod_uncertain` for the exact uncertain adjacency matrix of the printed
    variant.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2], 4)
    >>> randwalk_mod(g, t=3, seed=1).graph.relaxed
    True
    >>> randwalk_mod(g, t=3, variant="retry", seed=1).graph.relaxed
    False
    """
    check_graph(graph)
    t = check_int(t, "t", 1, " (the walk length; t - 1 hops)")
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    _check_routing(routing)
    if variant not in _VARIANTS:
        raise ValueError(f"variant must be 'printed' or 'retry', got {variant!r}")
    if variant == "retry":
        tries = 10 if max_tries is None else check_int(max_tries, "max_tries", 1)
        return _retry_walk(
            graph,
            t,
            alpha,
            0.5,
            tries,
            routing,
            seed,
            threads,
            "randwalk_mod",
            {"t": t, "alpha": alpha, "variant": variant, "max_tries": tries, "routing": routing},
        )
    if max_tries is not None:
        raise ValueError(
            "max_tries applies to variant='retry' only: the printed Algorithm 2 never retries"
        )
    seed64 = seed_to_u64(seed)
    timer = Timer()
    with timer.phase("walks"):
        u, z = _core.randwalk_mod(
            graph.indptr, graph.indices, t, alpha, routing, seed64, check_threads(threads)
        )
    with timer.phase("build"):
        a, b = sorted_pairs(graph.n, u, z)
        ug = UncertainGraph(graph.n, a, b, np.ones(u.size), relaxed=True)
    with timer.phase("count"):
        loops = int(np.count_nonzero(ug.u == ug.v))
        # pairs are sorted, so a repeated pair follows its first copy
        repeated = int(np.count_nonzero((ug.u[1:] == ug.u[:-1]) & (ug.v[1:] == ug.v[:-1])))
    return finish_graph(
        ug,
        scheme="randwalk_mod",
        params={"t": t, "alpha": alpha, "variant": variant, "routing": routing},
        seed=seed64,
        timer=timer,
        self_loops=loops,
        repeated=repeated,
    )


def transition_matrix(graph: Graph) -> sp.csr_array:
    """The random-walk transition matrix P_RW = D^-1 A (rows of isolated nodes are zero)."""
    check_graph(graph)
    deg = graph.degrees.astype(np.float64)
    inv = np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    data = np.repeat(inv, graph.degrees)
    return sp.csr_array((data, graph.indices, graph.indptr), shape=(graph.n, graph.n))


def _edge_adding_matrix(graph: Graph, alpha: float) -> sp.csr_array:
    """Q of the paper: the keep-probability of the walk started along each edge slot."""
    deg = graph.degrees
    d = np.repeat(deg, deg).astype(np.float64)
    k = np.arange(graph.indices.size) - np.repeat(graph.indptr[:-1], deg)
    later = np.divide(0.5 * d - alpha, d - 1.0, out=np.zeros_like(d), where=d > 1)
    q = np.where(d == 1, 0.5, np.where(k == 0, alpha, later))
    return sp.csr_array((q, graph.indices, graph.indptr), shape=(graph.n, graph.n))


def _walk_matrix(start: sp.csr_array, graph: Graph, hops: int) -> sp.csr_array:
    p = transition_matrix(graph)
    w = sp.csr_array(start)
    for _ in range(hops):
        w = sp.csr_array(w @ p)
    return w


def randwalk_mod_uncertain(
    graph: Graph, t: int, *, alpha: float = 0.5, max_entries: int = 50_000_000
) -> Anonymized:
    """The exact uncertain adjacency matrix of RandWalk-mod, computed sparsely (small t).

    The expected number of times the sample of :func:`randwalk_mod` holds the pair ``{i, j}``
    is ``W_ij + W_ji`` with ``W = Q P_RW^(t-1)`` (``Q`` the edge-adding matrix of Section 3.2):
    the walk from ``i`` through its neighbour ``k`` ends at ``j`` with probability
    ``P^(t-1)_kj`` and is kept with probability ``Q_ik``. With ``alpha = 0.5``,
    ``Q = A / 2`` and the matrix is ``A P^(t-1)``, whose row sums are the degrees
    (Theorem 3.1); for ``alpha != 0.5`` the column sums of ``W`` differ from ``d / 2`` and
    expected degrees move. (The paper writes the matrix as ``(A P^(t-1)) o (Q + Q^T)``;
    read literally, the Hadamard product would vanish off the edges of G0, so we use the
    product above, which is what Algorithm 2 computes.)

    A diagonal entry ``M_ii`` is twice the expected number of self-loops at ``i`` (a loop
    adds 2 to a row sum), so the loop pairs at ``i`` carry ``M_ii / 2`` in all. Off-diagonal
    entries above 1 (multi-edges, constraint 2') and loop counts above 1 are stored as
    ``floor(x)`` pairs at p = 1 plus one pair at the fractional part, so that
    :meth:`UncertainGraph.expected_degrees` (a loop counting 2) returns the row sums of the
    matrix and every pair's p is the expected number of that pair in a printed sample.

    Parameters
    ----------
    graph : Graph
    t : int
        Walk length (>= 1). The cost grows with the number of pairs within ``t`` hops.
    alpha : float
        In ``[0, 1]``.
    max_entries : int
        Refuse to build a matrix with more nonzeros than this (raise ValueError).

    Returns
    -------
    Anonymized
        A relaxed uncertain graph and a report with ``K_t`` (the unordered nonzeros of
        ``A P^(t-1)``), the bound ``m (K_t - m) / K_t`` and the total variance.

    References
    ----------
    The paper, Section 3.2, Theorem 3.1 and Proposition 4.4.
    """
    check_graph(graph)
    t = check_int(t, "t", 1)
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    timer = Timer()
    with timer.phase("matrix"):
        w = _walk_matrix(_edge_adding_matrix(graph, alpha), graph, t - 1)
        if w.nnz > max_entries:
            raise ValueError(
                f"Q P^(t-1) has {w.nnz:,} nonzeros, above max_entries={max_entries:,}; lower t"
            )
        full = sp.csr_array(w + w.T)
        upper = sp.triu(full, format="coo")
        upper.eliminate_zeros()
    with timer.phase("split"):
        # expected number of each pair: M_ij off the diagonal, M_ii / 2 loops
        x = np.where(upper.row == upper.col, 0.5, 1.0) * upper.data
        # Snap round-off so that an exact integer entry gives no spurious tiny pair.
        rounded = np.round(x)
        x = np.where(np.abs(x - rounded) < 1e-12, rounded, x)
        whole = np.floor(x).astype(np.int64)
        frac = x - whole
        rows = np.concatenate([np.repeat(upper.row, whole), upper.row[frac > 0]])
        cols = np.concatenate([np.repeat(upper.col, whole), upper.col[frac > 0]])
        p = np.concatenate([np.ones(int(whole.sum())), frac[frac > 0]])
    k_t = _nonzero_pairs(graph, t)
    bound = randwalk_mod_tv_bound(graph, t, k_t=k_t)
    return finish(
        graph.n,
        rows,
        cols,
        p,
        relaxed=True,
        scheme="randwalk_mod_uncertain",
        params={"t": t, "alpha": alpha},
        seed=None,
        timer=timer,
        K_t=k_t,
        tv=float(np.sum(p * (1.0 - p))),
        tv_bound=bound,
    )


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
        Walk length (>= 1).
    alpha : float
        In ``[0, 1]``.
    block_entries : int
        At most how many matrix entries one block of rows holds (rows per block:
        ``block_entries // n``, at least 1 and at most :data:`_MAX_BLOCK`).
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
    check_graph(graph)
    t = check_int(t, "t", 1)
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    block_entries = check_int(block_entries, "block_entries", 1)
    n = graph.n
    step = _block_width(n, block_entries, 1)
    if alpha == 0.5:
        return _symmetric_tv(graph, t, step, threads)
    q = _edge_adding_matrix(graph, alpha)
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

    workers = pool_workers(threads)
    starts = range(0, columns.size, step)
    if workers > 1 and len(starts) > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(block, starts))
    else:
        parts = [block(b0) for b0 in starts]
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
        Walk length (>= 1).
    columns : int
        Columns of M computed (the cost is ``columns t 2m``); all of them gives the exact TV
        with standard error 0.
    seed : int, numpy.random.Generator or None
        Draws the sampled columns (0 by default, so the estimate is reproducible).
    block_entries, threads
        As in :func:`randwalk_mod_tv` (but at least :data:`_MIN_ESTIMATE_BLOCK` columns a block).

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
    check_graph(graph)
    t = check_int(t, "t", 1)
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


def _nonzero_pairs(graph: Graph, t: int) -> int:
    b = _walk_matrix(graph.to_scipy(), graph, t - 1)
    return int(sp.triu(b).nnz)


def randwalk_mod_tv_bound(graph: Graph, t: int, *, k_t: int | None = None) -> float:
    """The paper's upper bound ``m (K_t - m) / K_t`` on the total variance of RandWalk-mod.

    ``K_t`` is the number of unordered pairs ``{i, j}`` (``i <= j``) with a nonzero entry of
    ``B = A P_RW^(t-1)``, computed sparsely (small t). The bound follows from Cauchy-Schwarz
    as Proposition 4.1's; counting ordered pairs instead would give a looser bound.

    References
    ----------
    The paper, Proposition 4.4.
    """
    check_graph(graph)
    t = check_int(t, "t", 1)
    if k_t is None:
        k_t = _nonzero_pairs(graph, t)
    m = graph.m
    return float(m * (k_t - m) / k_t) if k_t else 0.0
