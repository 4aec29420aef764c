"""MaxVar: maximum degree variance under unchanged expected degrees (Section V of the paper)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from graphveil import _core
from graphveil._checks import check_int, check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil._threads import map_ordered
from graphveil.anonymize._maxvar_dyads import potential_mutual_share, solve_dyads, split_dyads
from graphveil.anonymize._qp import EQ_TOL, SOLVERS, solve_directed
from graphveil.anonymize._report import Timer, finish_graph, graph_first, renamed_option
from graphveil.anonymize.partitioners import METIS_OPTIONS as METIS_OPTIONS  # as before
from graphveil.anonymize.partitioners import Partitioner
from graphveil.anonymize.partitioners import get as get_partitioner
from graphveil.anonymize.parts import PartLayout, split_parts
from graphveil.graph import Graph, check_graph
from graphveil.interop import require
from graphveil.uncertain import Anonymized, UncertainGraph

#: Picks per requested potential edge before a part gives up (plus 1024 per part).
ATTEMPTS_PER_REQUEST = 256


#: A part's ``p``, solver statistics and the pairs ``p`` is aligned with (None: the proposal's).
_PartResult = tuple[np.ndarray, dict[str, Any], tuple[np.ndarray, np.ndarray] | None]


def _solve_part(solver: str, options: dict[str, Any], *task: Any) -> _PartResult:
    """One part's QP; a module-level function so that process pools can pickle it.

    ``task`` is ``(n, pu, pv, degree)`` (undirected) or ``(_DirectedPart,)``. Returns ``p``,
    the solver's statistics and the pairs ``p`` is aligned with when they are not the part's
    proposal pairs (the dyad-level QP's arcs), else None.
    """
    if len(task) == 1:
        return _solve_directed(solver, options, task[0])
    p, stats = SOLVERS[solver](*task, **options)
    return p, stats, None


class _DirectedPart(NamedTuple):
    """A directed part's QP input: its pairs (G0's arcs first), in-part degrees, dyad option."""

    n: int
    pu: np.ndarray
    pv: np.ndarray
    edges: int
    out_degree: np.ndarray
    in_degree: np.ndarray
    dyads: tuple[float, int] | None  # (share, seed) for the dyad-level QP
    part: int


def _solve_directed(solver: str, options: dict[str, Any], task: _DirectedPart) -> _PartResult:
    """A directed part: the arcs every feasible point fixes (a max-flow), then the QP of the rest.

    The pair QP runs on out-copies ``0..n-1`` and in-copies ``n..2n-1`` (see :func:`maxvar` and
    :func:`~graphveil.anonymize._qp.solve_directed`); the dyad-level QP splits the part
    (:func:`split_dyads`, :func:`solve_dyads`). ``flow_fixed`` in the statistics counts the
    fixed arcs.
    """
    n, pu, pv = task.n, task.pu, task.pv
    if task.dyads is None:
        p, stats = solve_directed(solver, options, n, pu, pv, task.out_degree, task.in_degree)
        return p, stats, None
    split = split_dyads(n, pu, pv, task.edges, *task.dyads, task.part)
    return solve_dyads(solver, options, n, split, task.out_degree, task.in_degree)


def _shortfall_message(counts: np.ndarray, parts: int) -> str:
    """One line saying what to change; G0's counts stay out of it (the private report has them)."""
    short = counts[:, 1] < counts[:, 0]
    scarce = bool((counts[short, 3] < counts[short, 0]).any())
    why = (
        "too few friend-of-friend non-edge pairs exist there"
        if scarce
        else "random picks did not reach the friend-of-friend pairs there"
    )
    return (
        f"the friend-of-friend rule cannot supply the potential edges asked for in "
        f"{int(short.sum())} of {parts} parts ({why}): lower n_potential, use fewer parts, or pass "
        "allow_fewer=True to accept what was found (the counts per part go to the private report)"
    )


def _progress_bar(enabled: bool, desc: str, total: int) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="part" if total > 1 else "step", leave=True)


@graph_first(
    "graph",
    "n_potential",
    "parts",
    "seed",
    "solver",
    "threads",
    "executor",
    "allow_fewer",
    "solver_options",
    "metis_options",
    "progress",
    "labels",
    "dyads",
)
@renamed_option(
    "metis_options",
    lambda options: {"partitioner": "metis", "partitioner_options": options},
    'partitioner="metis", partitioner_options=...',
)
def maxvar(
    graph: Graph,
    *,
    n_potential: int,
    parts: int | None = None,
    seed: SeedLike = None,
    solver: str = "dual",
    threads: int | None = None,
    executor: Executor | None = None,
    allow_fewer: bool = False,
    solver_options: dict[str, Any] | None = None,
    partitioner: str = "metis",
    partitioner_options: dict[str, Any] | None = None,
    progress: bool = False,
    labels: np.ndarray | None = None,
    dyads: bool = False,
) -> Anonymized:
    """Anonymize a graph with MaxVar: the most degree variance that keeps every expected degree.

    Three phases (Section V-B of the paper): a partitioner (METIS by default) splits ``graph``
    into ``parts`` parts; each part
    (its induced subgraph) receives ``n_potential / parts`` friend-of-friend potential edges;
    each part's quadratic program

        minimise sum p_e^2  s.t.  0 <= p_e <= 1,  sum of p_e at u = degree of u inside the part

    is solved over the part's edges and potential edges. Edges between parts keep ``p = 1``,
    so every node's expected degree equals its degree in ``graph``.

    A directed ``graph`` keeps every expected in-degree *and* out-degree (Nguyen's thesis,
    Section 3.4.4: with out-degree constraints alone the QP collapses to the trivial
    ``p_uv = d+_u / d+_u(G)``, every pair of ``u`` alike). METIS splits the underlying undirected
    graph; a part's potential arcs are directed friend-of-friend pairs ``u -> v`` with a path
    ``u -> w -> v`` in the part, ``v != u`` and no arc ``u -> v``; the QP is

        minimise sum p_uv^2  s.t.  0 <= p_uv <= 1,  sum_v p_uv = d+_u,  sum_u p_uv = d-_v

    over the part's arcs and potential arcs (in-part degrees), whose solution is
    ``p_uv = clip((alpha_u + beta_v) / 2, 0, 1)`` with ``alpha`` the multipliers of the
    out-degree and ``beta`` of the in-degree constraints. Both backends solve it as the
    undirected QP of the bipartite graph of out-copies ``u`` and in-copies ``n_part + v`` (the
    arc ``u -> v`` its edge ``{u, n_part + v}``), whose node constraints are exactly these: the
    dual solver's ``lambda`` is ``(alpha, beta)``. Arcs between parts keep ``p = 1``. Before
    the solve, a max-flow per part finds the arcs that every feasible point holds at 0 or 1
    (``fixed_arcs`` of ``graphveil.anonymize._qp``) and fixes them: on them the dual has no
    finite optimum and Newton would stall (per part ``flow_fixed`` in the solver statistics).
    The dual solver then solves each strongly connected component of the other arcs on its own
    (``components``), its Newton step taking out the null directions of the free arcs'
    components, which are bipartite.

    Parameters
    ----------
    graph : Graph
        The graph to anonymize (at least one edge).
    n_potential : int
        Number of potential edges (non-edges that may appear) to propose in total: ``n_p`` in
        the paper, below 2**63. Part ``i`` receives ``n_potential // parts`` of them, the first
        ``n_potential % parts`` parts one more.
    parts : int, optional
        Number of parts, ``1 <= parts <= graph.n``; by default the study's rule,
        :func:`~graphveil.anonymize.registry.maxvar_parts` (about 16,000 nodes a part, at least
        50 nodes a part, at least one part: 20 parts on dblp, 1 on ca-GrQc). ``parts=1``
        solves the whole graph as one QP (no cut edges, so no variance lost on them).
    seed : int, numpy.random.Generator or None
        Seeds the partitioner and the proposals (one random stream per part). The output does not depend
        on ``threads`` or on the executor. ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.
    solver : {"dual", "osqp"}
        ``"dual"`` (the default): the exact solver of this problem family in C++,
        ``p_e = clip((lambda_u + lambda_v) / 2, 0, 1)`` with one multiplier per node, semismooth
        Newton with conjugate gradients on the concave piecewise-quadratic dual. It is the
        default because it is both exact (equalities to ~1e-13, primal and dual objectives
        agree) and the fastest backend on the web-NotreDame benchmark (see
        ``benchmarks/bench_maxvar.py``): OSQP needs far longer per part and ADMM alone does not
        reach the required accuracy. ``"osqp"``: each part as a sparse QP for OSQP
        (``P = 2I``, ``A = [incidence; I]``), its answer clipped and repaired; needs the
        optional osqp package (``pip install "graphveil[osqp]"``).
    threads : int or None
        Threads for the proposal kernel and for the default thread pool (``None`` or 0: all
        cores).
    executor : concurrent.futures.Executor, optional
        Where the per-part QPs run (a thread pool of ``threads`` workers by default). Any
        executor works, e.g. a ``ProcessPoolExecutor`` or a Dask client's executor.
    allow_fewer : bool
        Accept fewer potential edges when a part cannot supply its share (else ValueError).
    solver_options : dict, optional
        Keyword arguments for the backend: ``tol`` (Newton's residual target, 1e-10) for
        ``"dual"``; ``eps`` (1e-7), ``rho`` (1.0), ``max_iter`` (50,000), ``time_limit``
        (seconds, 0 = none), ``polish`` (True) for ``"osqp"``.
    partitioner : str
        The partitioner that splits the graph, a name from
        :mod:`graphveil.anonymize.partitioners`: ``"metis"`` (the default, built in) or
        ``"kaminpar"`` (faster on large graphs; the ``kaminpar`` extra).
    partitioner_options : dict, optional
        The partitioner's options by name, over its defaults
        (:attr:`~graphveil.anonymize.partitioners.Partitioner.defaults`): METIS's default is
        ``{"niter": 2}``, 2 refinement iterations instead of METIS's 10, about 2.7 times faster
        on a youtube-size graph for a cut about 1% larger. ``metis_options=X``, the old
        spelling, is ``partitioner="metis", partitioner_options=X`` with a DeprecationWarning.
    progress : bool
        Show a progress bar per phase (tqdm).
    labels : numpy.ndarray, optional
        Precomputed parts: the part ``0..parts-1`` of every node (length ``graph.n``), as
        :meth:`Partitioner.labels <graphveil.anonymize.partitioners.Partitioner.labels>` returns
        them. No partitioner then runs (``partitioner`` and ``partitioner_options`` are unused
        and recorded as None) and ``seed`` seeds the proposals only. ``maxvar(g,
        n_potential=n_p, parts=k, seed=s)`` equals ``maxvar(g, n_potential=n_p, parts=k,
        seed=s, labels=partitioners.get("metis").labels(g, k, seed=s))``. The study
        partitions G0 once and passes the same labels to every grid point, as the authors'
        scripts read one part file per graph for every n_p.
    dyads : bool
        Directed graphs only: the dyad-level QP, which treats a mutual dyad (``u -> v`` and
        ``v -> u``) as one unit. Each mutual dyad of a part is one variable ``q``, both arcs
        published with ``p = q`` (cost ``2 q^2``); an asymmetric arc is its own variable; a
        potential arc ``u -> v`` becomes a potential mutual dyad (both arcs, one variable; two
        of the ``n_potential``) with chance ``r / (2 - r)``, ``r`` G0's reciprocity, when no
        arc joins ``u`` and ``v``, so that potential arcs lie in mutual dyads in G0's
        proportion. The dyads at every node ``u`` sum to its mutual degree ``m_u`` (G0's mutual
        dyads at ``u`` in the part), its single arcs to the rest of its out- and in-degree.
        Kept **exactly**: every expected in- and out-degree and every expected mutual degree
        (``sum q``). Kept **in expectation, approximately**: the reciprocated arcs, ``E = 2 sum
        q^2`` (arcs are independent, so a dyad at ``q < 1`` holds both arcs with ``q^2``); see
        ``docs/directed.rst`` for the measured reciprocity. The QP splits into the undirected
        MaxVar QP of the dyads and the directed QP of the single arcs, solved by ``solver``.
        The report adds ``potential_mutual`` (potential mutual dyads per part) and
        ``mutual_share``.

    Returns
    -------
    Anonymized
        ``(graph, report)``: the :class:`UncertainGraph` (the edges, the potential edges and the
        cut edges, ``m + n_potential`` pairs) and a dict with ``labels`` (the part of every
        node), ``cut_edges``, per part ``potential_requested`` / ``potential_proposed`` /
        ``proposal_attempts`` / ``potential_available`` (-1 when not counted) and
        ``solver_stats`` (iterations, ``eq_residual`` and ``box_residual`` of the returned p,
        the raw residuals of the solver before clipping and repair, ``objective``), plus
        ``tv`` (total degree variance), ``tv_bound`` = m n_p / (m + n_p) (Proposition 4.1,
        with n_p the potential edges actually proposed), ``timings`` (seconds per phase:
        ``partition``, ``propose``, ``solve``, ``assemble``) and, as in every scheme's report,
        ``scheme``, ``params``, ``seed``, ``n`` and ``pairs``. ``graph.meta`` holds the same
        report without the labels.

    Raises
    ------
    ValueError
        Empty graph or no edges (arcs); ``parts`` outside ``1..n``; ``n_potential < 0``; an unknown
        solver; too few friend-of-friend pairs for the request (unless ``allow_fewer``);
        ``labels`` not of length ``graph.n`` or outside ``0..parts-1``.
    TypeError
        ``graph`` is not a :class:`Graph`; non-integer counts; ``executor`` is not an Executor;
        ``labels`` not an integer array.
    RuntimeError
        A part's solution misses the equalities by more than 1e-6 (a solver failure).
    ImportError
        ``solver="osqp"`` without osqp installed (``pip install "graphveil[osqp]"``), or
        ``partitioner="kaminpar"`` without kaminpar (``pip install "graphveil[kaminpar]"``).

    Notes
    -----
    The code follows the phases: ``_propose`` (the parts and the friend-of-friend proposals,
    a ``_Proposal``), ``_solve`` (the per-part QPs on the executor, a ``_Solution``) and
    ``_assemble`` (the uncertain graph and the report).

    References
    ----------
    Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
    ASIACCS 2015, Section V (MaxVar, Algorithm 1, Proposition 4.1).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import maxvar
    >>> g = gv.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 2, 3, 4])
    >>> ug, report = maxvar(g, n_potential=2, parts=1, seed=1)
    >>> bool(abs(ug.expected_degrees() - g.degrees).max() < 1e-9)
    True
    >>> report["tv"] <= report["tv_bound"]
    True
    """
    n_potential, parts, options = _check_arguments(
        graph, n_potential, parts, solver, solver_options, executor
    )
    _check_dyads(graph, dyads)
    nthreads = check_threads(threads)
    seed_u64 = seed_to_u64(seed)
    given = None if labels is None else check_labels(labels, graph.n, parts)
    splitter = get_partitioner(partitioner)
    split_options = splitter.options(partitioner_options)
    if given is None:
        splitter.require()  # an optional extra: fail before any work
    timer = Timer()
    proposal = _propose(
        graph,
        n_potential,
        parts,
        seed_u64,
        (splitter, split_options) if given is None else given,
        nthreads,
        timer,
        progress,
    )
    if proposal.found < n_potential and not allow_fewer:
        raise ValueError(_shortfall_message(proposal.counts, parts))
    share = potential_mutual_share(graph) if dyads else None
    tasks = _tasks(proposal, None if share is None else (share, seed_u64))
    solution = _solve(proposal, tasks, solver, options, nthreads, executor, timer, progress)
    params = {
        "n_potential": n_potential,
        "parts": parts,
        "solver": solver,
        "solver_options": options,
        "partitioner": None if given is not None else splitter.name,
        "partitioner_options": None if given is not None else split_options,
        "allow_fewer": bool(allow_fewer),
    }
    if dyads:  # recorded when set, so the default's release is as before
        params["dyads"] = True
    extra = {}
    if share is not None:
        extra = {
            "mutual_share": share,
            "potential_mutual": [stats["potential_mutual"] for stats in solution.stats],
        }
    result = _assemble(graph, proposal, solution, params, seed_u64, timer, progress, extra)
    return result


def _check_dyads(g: Graph, dyads: Any) -> None:
    if dyads and not g.directed:
        raise ValueError(
            "dyads=True is for directed graphs (it treats a mutual dyad u <-> v as one unit); "
            "drop it for an undirected graph"
        )


#: Nodes per MaxVar part when the study scales the parts to a graph the paper did not use. A
#: rule, not the paper's counts: the paper split dblp and amazon (317,080 and 334,863 nodes)
#: into 20 parts and youtube (1,134,890) into 60, i.e. 15,900-16,700 nodes a part for dblp and
#: amazon but 18,900 for youtube; the rule gives those graphs 20, 21 and 71 parts. The paper's
#: datasets carry the paper's counts (:attr:`graphveil.datasets.Dataset.maxvar_parts`).
MAXVAR_NODES_PER_PART = 16_000


def maxvar_parts(n: int, parts: int | None = None) -> int:
    """MaxVar's number of parts in the study: ``parts`` if given, else ``max(1, round(n / 16,000))``.

    At most ``n // 50`` either way, so that a part keeps enough nodes for friend-of-friend
    candidates. The paper's own graphs take the paper's counts (20, 20, 60), given as ``parts``
    from their dataset records.

    Examples
    --------
    >>> maxvar_parts(5_242), maxvar_parts(317_080), maxvar_parts(1_134_890), maxvar_parts(5_242, 20)
    (1, 20, 71, 20)
    """
    wanted = max(1, round(n / MAXVAR_NODES_PER_PART)) if parts is None else int(parts)
    return max(1, min(wanted, n // 50))


def _check_arguments(
    g: Any, n_potential: Any, parts: Any, solver: Any, solver_options: Any, executor: Any
) -> tuple[int, int, dict[str, Any]]:
    """MaxVar's input checks in one place: the counts as ints and the solver options as a dict."""
    check_graph(g, "g", what="maxvar", directed=True)
    n_potential = check_int(n_potential, "n_potential")
    if parts is None:
        parts = maxvar_parts(g.n)
    parts = check_int(parts, "parts")
    if g.n == 0 or g.m == 0:
        raise ValueError(f"MaxVar needs a graph with edges, got {g!r}")
    # Above what exists the request is refused with the count (or, allow_fewer, takes all of
    # it) at no cost; only a count beyond the kernels' int64 is no request at all.
    if not 0 <= n_potential < 2**63:
        raise ValueError(f"n_potential must lie in 0..2**63 - 1, got {n_potential}")
    if not 1 <= parts <= g.n:
        raise ValueError(f"parts must lie in 1..{g.n} (the number of nodes), got {parts}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {sorted(SOLVERS)}, got {solver!r}")
    if solver == "osqp":
        require("osqp")  # an optional extra: fail before partitioning, not after
    options = dict(solver_options or {})
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor, not {type(executor).__name__}"
        )
    return n_potential, parts, options


def check_labels(labels: Any, n: int, parts: int) -> _Labels:
    """Given parts checked: an integer array of length ``n`` with values in ``0..parts-1``."""
    array = np.asarray(labels)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(
            f"labels must be an integer array (the part of every node), not {array.dtype}"
        )
    if array.shape != (n,):
        raise ValueError(
            f"labels must give the part of each of the {n:,} nodes, got shape {array.shape}"
        )
    if n and (array.min() < 0 or array.max() >= parts):
        raise ValueError(
            f"labels must lie in 0..{parts - 1} (parts={parts}), got "
            f"{int(array.min())}..{int(array.max())}; pass parts= the number of parts"
        )
    return _Labels(np.ascontiguousarray(array, dtype=np.int64))


@contextmanager
def _stage(
    timer: Timer, name: str, progress: bool, total: int = 0, desc: str | None = None
) -> Iterator[Any]:
    """Time a phase under ``name`` and show its progress bar (None when ``progress`` is off).

    ``total=0`` is a one-step phase whose bar ticks once when it ends; otherwise the caller
    ticks the bar it is given, ``total`` times. ``desc`` labels the bar (default ``name``).
    """
    bar = _progress_bar(progress, desc or name, total or 1)
    try:
        with timer.phase(name):
            yield bar
        if bar is not None and not total:
            bar.update(1)
    finally:
        if bar is not None:
            bar.close()


class _Labels(NamedTuple):
    """Given parts (checked by :func:`check_labels`): no partitioner runs."""

    labels: np.ndarray


class _Proposal(NamedTuple):
    """The output of :func:`_propose`: the parts and the pairs each part's QP runs over.

    Part ``i``'s potential edges are ``prop_u[ptr[i]:ptr[i+1]]`` / ``prop_v[...]`` in the
    part's local ids (as in ``layout``); row ``i`` of ``counts`` is the part's potential edges
    requested, proposed, random picks spent, and friend-of-friend non-edge pairs available
    (-1 when not counted).
    """

    labels: np.ndarray
    layout: PartLayout
    ptr: np.ndarray
    prop_u: np.ndarray
    prop_v: np.ndarray
    counts: np.ndarray

    @property
    def found(self) -> int:
        """Potential edges proposed over all parts (``n_p`` as found)."""
        return int(self.counts[:, 1].sum())

    def pairs(self, part: int) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of ``part``'s QP in local ids: its edges, then its potential edges."""
        e0, e1 = self.layout.edge_ptr[part], self.layout.edge_ptr[part + 1]
        q0, q1 = self.ptr[part], self.ptr[part + 1]
        pu = np.concatenate([self.layout.edge_u[e0:e1], self.prop_u[q0:q1]])
        pv = np.concatenate([self.layout.edge_v[e0:e1], self.prop_v[q0:q1]])
        return pu, pv


class _Solution(NamedTuple):
    """The output of :func:`_solve`: every part's ``p`` and solver statistics, in part order.

    ``p[i]`` is aligned with ``pairs[i]``, part ``i``'s pairs in local ids (those
    :meth:`_Proposal.pairs` gives, or the arcs of the dyad-level columns).
    """

    p: list[np.ndarray]
    stats: list[dict[str, Any]]
    pairs: list[tuple[np.ndarray, np.ndarray]]


def _propose(
    g: Graph,
    n_potential: int,
    parts: int,
    seed: int,
    split: tuple[Partitioner, dict[str, Any]] | _Labels,
    threads: int,
    timer: Timer,
    progress: bool,
) -> _Proposal:
    """Phase 1: the parts, then friend-of-friend potential edges inside every part.

    The parts come from the one parts path (the partitioner record's
    :meth:`~graphveil.anonymize.partitioners.Partitioner.labels`, seeded with ``seed``, which
    it reduces to its range, with the options of ``split``, then
    :func:`~graphveil.anonymize.parts.split_parts`), or are given (checked labels). Part
    ``i`` asks for ``n_potential // parts`` potential edges, the first ``n_potential % parts``
    parts one more; the C++ kernel draws them in parallel with one random stream per part, so
    the result depends on ``seed`` only. Timed as ``"partition"`` and ``"propose"``.
    """
    with _stage(timer, "partition", progress):
        if isinstance(split, _Labels):
            labels = split.labels
        else:
            splitter, options = split
            labels = splitter.labels(g, parts, seed=seed, threads=threads, options=options)
    with _stage(timer, "propose", progress):
        layout = split_parts(g, labels, parts, threads=threads)
        requested = np.full(parts, n_potential // parts, dtype=np.int64)
        requested[: n_potential % parts] += 1
        ptr, prop_u, prop_v, counts = _core.propose_fof(
            layout.node_ptr,
            layout.local_indptr,
            layout.local_indices,
            requested,
            seed,
            ATTEMPTS_PER_REQUEST,
            threads,
            directed=g.directed,
        )
    return _Proposal(labels, layout, ptr, prop_u, prop_v, counts)


#: A part's QP: ``(n, pu, pv, degree)`` of the pair solvers, or ``(_DirectedPart,)``.
_Task = tuple[Any, ...]


def _tasks(proposal: _Proposal, dyads: tuple[float, int] | None) -> list[_Task]:
    """Every part's QP with its in-part degrees as the equality right-hand sides.

    Directed parts go to :func:`_solve_directed` (``dyads = (share, seed)``: the dyad-level
    QP).
    """
    layout = proposal.layout
    node_ptr, edge_ptr = layout.node_ptr, layout.edge_ptr
    local_degree = np.diff(layout.local_indptr).astype(np.float64)
    tasks: list[_Task] = []
    for i in range(layout.parts):
        pu, pv = proposal.pairs(i)
        n_local = int(node_ptr[i + 1] - node_ptr[i])
        degree = local_degree[node_ptr[i] : node_ptr[i + 1]]
        if not layout.directed:
            tasks.append((n_local, pu, pv, degree))
            continue
        a, b = layout.local_indptr[node_ptr[i]], layout.local_indptr[node_ptr[i + 1]]
        in_degree = np.bincount(layout.local_indices[a:b], minlength=n_local).astype(np.float64)
        edges = int(edge_ptr[i + 1] - edge_ptr[i])
        tasks.append((_DirectedPart(n_local, pu, pv, edges, degree, in_degree, dyads, i),))
    return tasks


def _solve(
    proposal: _Proposal,
    tasks: list[_Task],
    solver: str,
    options: dict[str, Any],
    threads: int,
    executor: Executor | None,
    timer: Timer,
    progress: bool,
) -> _Solution:
    """Phase 2: every part's QP (``tasks``) on ``executor`` (a pool of ``threads`` threads by default).

    The statistics of part ``i`` are the solver's (numpy scalars made plain) plus ``part``,
    ``nodes``, ``edges`` and ``pairs``. Timed as ``"solve"``.

    Raises
    ------
    RuntimeError
        A part's ``p`` misses the equalities by more than ``EQ_TOL`` or leaves the box.
    """
    node_ptr, edge_ptr = proposal.layout.node_ptr, proposal.layout.edge_ptr
    with _stage(timer, "solve", progress, total=len(tasks), desc=f"solve ({solver})") as bar:
        results = _run_parts(tasks, solver, options, threads, executor, bar)
    solution = _Solution([], [], [])
    for i, (p, stats, arcs) in enumerate(results):
        if stats["eq_residual"] > EQ_TOL or stats["box_residual"] > 0.0:
            raise RuntimeError(
                f"part {i}: the {solver} solver returned p with equality residual {stats['eq_residual']:.2e} "
                f"and box residual {stats['box_residual']:.2e}; try the other solver"
            )
        pairs = proposal.pairs(i) if arcs is None else arcs
        stats = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in stats.items()}
        stats.update(
            part=i,
            nodes=int(node_ptr[i + 1] - node_ptr[i]),
            edges=int(edge_ptr[i + 1] - edge_ptr[i]),
            pairs=int(pairs[0].size),
        )
        solution.p.append(p)
        solution.stats.append(stats)
        solution.pairs.append(pairs)
    return solution


def _run_parts(
    tasks: list[_Task],
    solver: str,
    options: dict[str, Any],
    threads: int,
    executor: Executor | None,
    bar: Any,
) -> list[_PartResult]:
    """Each task's QP on ``executor`` (else an own pool of ``threads``), results in task order."""
    done = None if bar is None else (lambda: bar.update(1))
    calls = [(solver, options, *task) for task in tasks]  # see _solve_part
    return map_ordered(executor, threads, _solve_part, calls, star=True, on_done=done)


def _assemble(
    g: Graph,
    proposal: _Proposal,
    solution: _Solution,
    params: dict[str, Any],
    seed: int,
    timer: Timer,
    progress: bool,
    more: dict[str, Any],
) -> Anonymized:
    """Phase 3: the parts' pairs back in global ids, the cut edges at ``p = 1``, the report.

    The report (see :func:`maxvar`) is the shared one of every scheme
    (:func:`~graphveil.anonymize._report.finish_graph`) with MaxVar's per-part counts, the
    solver statistics and ``tv`` / ``tv_bound``; ``labels`` is added to the returned report
    only, not to ``graph.meta``. Timed as ``"assemble"``.
    """
    layout, counts = proposal.layout, proposal.counts
    with _stage(timer, "assemble", progress):
        us, vs, ps = [layout.cut_u], [layout.cut_v], [np.ones(layout.cut_u.size)]
        for i, p in enumerate(solution.p):
            pu, pv = solution.pairs[i]
            base = layout.node_ptr[i]
            us.append(layout.order[base + pu])
            vs.append(layout.order[base + pv])
            ps.append(p)
        ug = UncertainGraph(
            g.n, np.concatenate(us), np.concatenate(vs), np.concatenate(ps), directed=g.directed
        )
        found = proposal.found
        extra = {
            "cut_edges": int(layout.cut_u.size),
            "potential_requested": counts[:, 0].tolist(),
            "potential_proposed": counts[:, 1].tolist(),
            "proposal_attempts": counts[:, 2].tolist(),
            "potential_available": counts[:, 3].tolist(),
            "solver_stats": solution.stats,
            "max_eq_residual": max((s["eq_residual"] for s in solution.stats), default=0.0),
            "max_box_residual": max((s["box_residual"] for s in solution.stats), default=0.0),
            "tv": ug.total_variance(),
            "tv_bound": g.m * found / (g.m + found) if found else 0.0,
            **more,
        }
    result = finish_graph(ug, scheme="maxvar", params=params, seed=seed, timer=timer, **extra)
    result.report["labels"] = proposal.labels
    return result
