"""RandWalk (Mittal et al.) and RandWalk-mod (Section IV-B of the paper).

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

from typing import Any, Literal, get_args

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import NotApplicable, check_int, check_real, check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._report import Timer, finish, finish_graph, graph_first, sorted_pairs
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized, UncertainGraph

__all__ = [
    "randwalk",
    "randwalk_mod",
    "randwalk_mod_tv_bound",
    "randwalk_mod_uncertain",
    "transition_matrix",
    "walk_ends",
]

#: Which arcs a directed RandWalk walks along: out-arcs (out-degrees kept) or in-arcs (in-degrees).
Direction = Literal["out", "in"]
_DIRECTIONS = get_args(Direction)
#: The longest walk, t, of every walk scheme (RandWalk, RandWalk-mod, their study grids, the
#: model TV): a bound on the work, which is m t hops (0.36 s at t = 1000 on ca-GrQc), far past
#: the paper's t <= 10, where a walk's end is already close to the stationary distribution.
MAX_WALK_LENGTH = 1000
#: The longest walk of the exact uncertain matrix (:func:`randwalk_mod_uncertain`): one sparse
#: product per hop over a matrix that fills towards n^2 (44 s at t = 10 on ca-GrQc, 200 s at 30).
MAX_EXACT_WALK_LENGTH = 30
#: The most tries of one retrying walk (the authors' M = 10): the work is up to m t M hops.
MAX_TRIES = 1000


def check_walk_length(t: Any, limit: int = MAX_WALK_LENGTH) -> int:
    """``t`` as an int in ``1..limit``: the one check of a walk length (TypeError, ValueError).

    Examples
    --------
    >>> check_walk_length(100000)
    Traceback (most recent call last):
    ...
    ValueError: t must lie in 1..1000 (the walk length; t - 1 hops), got 100000
    """
    t = check_int(t, "t", 1, " (the walk length; t - 1 hops)")
    if t > limit:
        raise ValueError(f"t must lie in 1..{limit} (the walk length; t - 1 hops), got {t}")
    return t


def _check_tries(max_tries: Any) -> int:
    tries = check_int(max_tries, "max_tries", 1)
    if tries > MAX_TRIES:
        raise ValueError(f"max_tries must lie in 1..{MAX_TRIES}, got {tries}")
    return tries


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
    check_graph(graph, what="walk_ends")
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
    direction: Direction = "out",
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
        Walk length, 1 to 1000; the walk makes ``t - 1`` hops. The paper uses 2, 3, 5, 10.
    variant : {"authors", "printed"}
        ``"authors"`` (the default): a degree-1 node keeps its walk with probability 0.5, as the
        authors' code did; ``"printed"``: with probability 1, as Algorithm 1 is printed.
    max_tries : int
        The retry bound M (1 to 1000), 10 by default: at most M walks per neighbour. (The authors'
        loop counter rejected a suitable ``z`` found on the M-th walk, so their M = 10 allowed 9
        useful walks; the difference is the rare walk that fails 9 times and not 10.)
    routing : {"random", "fixed"}
        ``"fixed"``: SybilGuard-style routing (one random permutation of the neighbours of
        each node, the paper's remark after Theorem 3.2); a retry would repeat the same route,
        so each walk is tried once.
    direction : {"out", "in"}
        Directed graphs only: walk along out-arcs (``"out"``, the default: out-degrees kept) or
        along in-arcs (``"in"``: in-degrees kept), see below. An undirected graph refuses
        ``"in"``.
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
        If ``t < 1``, ``max_tries < 1``, or ``variant`` or ``routing`` is unknown, or
        ``routing="fixed"`` on a directed graph.

    References
    ----------
    Mittal, Papamanthou, Song, "Preserving Link Privacy in Social Network Based Systems",
    NDSS 2013; the paper, Section IV-B and Algorithm 1; ../shared/paper/NOTES.md (RandWalk).

    Directed ``graph``: the walks follow out-links. For every arc ``u -> v`` a walk of
    ``t - 1`` hops along out-arcs from ``v`` ends at ``z``; it is walked again while it dies at a
    node without out-arcs before its last hop (a *dead walk*), ends at ``u``, or ends at a ``z``
    that ``u`` already points to in G' (only ``u`` adds arcs out of ``u``), at most
    ``max_tries`` walks in all; an arc whose tries all fail is counted in ``failed``. Every
    successful walk publishes ``u -> z``: a walk is started from the tail of its arc only, not
    from both ends of an edge, so RandWalk's acceptance coins (a node keeps ``d_u / 2`` of its
    walks) have no part here and ``variant`` changes nothing. So every **out-degree is kept
    exactly** up to failed arcs (``E[out-degree of u] = d+_u - failed arcs of u``); the
    in-degrees are **not** kept, not even in expectation (they follow where the walks end;
    Nguyen's thesis, Section 3.4.4: no random-walk scheme keeps both). The report adds
    ``dead_walks`` (walks, first tries and retries, that died). ``routing="fixed"`` has no
    directed form (it routes by the arc a walk came in on, the reverse of an out-arc). Nodes are
    independent, so the walks run in parallel blocks of nodes, one stream each: the output
    depends on the seed only. The authors' directed code (``random_walk_directed``) retried a
    dead walk the same way.

    ``direction="in"`` is the reverse walk: the same walks on the reversed graph. For every arc
    ``z0 -> v`` a walk of ``t - 1`` hops along in-arcs (from a node to one of its
    predecessors) from ``z0`` ends at ``z``, retried while it dies at a node without in-arcs,
    ends at ``v`` or at a ``z`` already pointing to ``v`` in G', and a successful walk publishes
    ``z -> v``. So every **in-degree is kept exactly** up to failed arcs (``E[in-degree of v] =
    d-_v - failed arcs of v``) and the out-degrees are not kept. It equals ``randwalk`` of the
    reversed graph with every published arc reversed back, seed for seed.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2], 4)
    >>> ug, report = randwalk(g, t=2, seed=1)
    >>> bool((ug.u < ug.v).all()), report["walks"]
    (True, 8)
    """
    check_graph(graph, what="randwalk", directed=True)
    t = check_walk_length(t)
    max_tries = _check_tries(max_tries)
    _check_routing(routing)
    if variant not in _WALK_VARIANTS:
        raise ValueError(f"variant must be 'authors' or 'printed', got {variant!r}")
    if direction not in _DIRECTIONS:
        raise ValueError(f"direction must be 'out' or 'in', got {direction!r}")
    params: dict[str, Any] = {
        "t": t,
        "variant": variant,
        "max_tries": max_tries,
        "routing": routing,
    }
    if graph.directed:
        if (
            direction != "out"
        ):  # recorded when not the default, so default releases stay as they were
            params["direction"] = direction
        return _directed_walk(graph, t, max_tries, routing, direction, seed, threads, params)
    if direction != "out":
        raise ValueError(
            "direction='in' is for directed graphs (it walks along in-arcs); an undirected "
            "graph has one direction: drop the option"
        )
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
        params,
    )


def _directed_walk(
    graph: Graph,
    t: int,
    max_tries: int,
    routing: str,
    direction: str,
    seed: SeedLike,
    threads: int | None,
    params: dict[str, Any],
) -> Anonymized:
    """RandWalk on a directed graph, along out-links or in-links (see :func:`randwalk`).

    The reverse walk runs the out-link kernel on the in-CSR (the out-CSR of the reversed
    graph) and reverses the arcs it returns.
    """
    if routing != "random":
        raise ValueError(
            "routing='fixed' has no directed form (it routes by the arc a walk came in on); "
            "use routing='random' on a directed graph"
        )
    seed64 = seed_to_u64(seed)
    timer = Timer()
    forward = direction == "out"
    indptr = graph.indptr if forward else graph.in_indptr
    indices = graph.indices if forward else graph.in_indices
    with timer.phase("walks"):
        u, z, failed, dead = _core.randwalk_directed(
            indptr, indices, t, max_tries, seed64, check_threads(threads)
        )
    with timer.phase("build"):
        if not forward:  # the walk ran on the reversed graph: z -> u in G'
            u, z = z, u
        order = np.lexsort((z, u))  # sort by tail, then head
        u, z = u[order], z[order]
    return finish(
        graph.n,
        u,
        z,
        np.ones(u.size),
        directed=True,
        scheme="randwalk",
        params=params,
        seed=seed64,
        timer=timer,
        edges=int(u.size),
        walks=int(graph.indices.size),
        failed=int(failed),
        lost=float(failed),
        dead_walks=int(dead),
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
        Walk length, 1 to 1000; ``t - 1`` hops.
    alpha : float
        In ``[0, 1]``; 0.5 by default (the paper's experiments). ``alpha = 1`` with the retry
        variant is :func:`randwalk`.
    variant : {"printed", "retry"}
        Algorithm 2 as printed, a multigraph (default; the paper's tables), or the retrying
        walk, a simple graph.
    max_tries : int, optional
        The retry bound M (1 to 1000) of the retry variant, 10 by default; not accepted with
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
        ``max_tries < 1``, or ``max_tries`` is given with ``variant="printed"``; a directed
        graph (:class:`~graphveil.NotApplicable`: RandWalk-mod has no directed form).

    References
    ----------
    The paper, Section IV-B, Algorithms 1 and 2 and Theorem 3.1 ("RandWalk-mod accepts
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
    if getattr(graph, "directed", False) is True:
        raise NotApplicable(
            "randwalk_mod has no directed form: its point is to keep every expected degree, and "
            "on a directed graph no random-walk scheme keeps both the expected in- and "
            "out-degrees (Nguyen's thesis, Section 3.4.4); use randwalk (out-degrees kept) or "
            "maxvar (both kept), or pass graph.to_undirected() to drop the arc directions"
        )
    check_graph(graph, what="randwalk_mod")
    t = check_walk_length(t)
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    _check_routing(routing)
    if variant not in _VARIANTS:
        raise ValueError(f"variant must be 'printed' or 'retry', got {variant!r}")
    if variant == "retry":
        tries = 10 if max_tries is None else _check_tries(max_tries)
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
    check_graph(graph, what="transition_matrix")
    deg = graph.degrees.astype(np.float64)
    inv = np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    data = np.repeat(inv, graph.degrees)
    return sp.csr_array((data, graph.indices, graph.indptr), shape=(graph.n, graph.n))


def edge_adding_matrix(graph: Graph, alpha: float) -> sp.csr_array:
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
    is ``W_ij + W_ji`` with ``W = Q P_RW^(t-1)`` (``Q`` the edge-adding matrix of Section IV-B):
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
        Walk length, 1 to 30. The cost grows with the number of pairs within ``t`` hops and
        with ``t``: one sparse product per hop.
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
    The paper, Section IV-B, Theorem 3.1 and Proposition 4.4.
    """
    check_graph(graph, what="randwalk_mod_uncertain")
    t = check_walk_length(t, MAX_EXACT_WALK_LENGTH)
    alpha = check_real(alpha, "alpha", 0.0, 1.0)
    timer = Timer()
    with timer.phase("matrix"):
        w = _walk_matrix(edge_adding_matrix(graph, alpha), graph, t - 1)
        if w.nnz > max_entries:
            raise ValueError(
                f"Q P^(t-1) has more than max_entries={max_entries:,} nonzeros; lower t or "
                "raise max_entries"
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
    check_graph(graph, what="randwalk_mod_tv_bound")
    t = check_walk_length(t, MAX_EXACT_WALK_LENGTH)
    if k_t is None:
        k_t = _nonzero_pairs(graph, t)
    m = graph.m
    return float(m * (k_t - m) / k_t) if k_t else 0.0
