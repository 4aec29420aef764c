"""MaxVar: maximum degree variance under unchanged expected degrees (Section 4 of the paper)."""

from __future__ import annotations

import copy
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._common import (
    SeedLike,
    callable_module,
    check_int,
    check_threads,
    default_threads,
    seed_to_u64,
)
from graphveil.anonymize._qp import EQ_TOL, SOLVERS
from graphveil.anonymize.parts import metis_parts, split_parts
from graphveil.graph import Graph
from graphveil.uncertain import Anonymized, UncertainGraph

#: Picks per requested potential edge before a part gives up (plus 1024 per part).
ATTEMPTS_PER_REQUEST = 256

#: METIS options MaxVar uses unless told otherwise: 2 refinement iterations instead of METIS's 10.
#: Measured: on a youtube-size Holme-Kim graph (60 parts) METIS takes 11.4 s of CPU instead of
#: 30.8 s for a 1.1% larger cut; on web-NotreDame (20 parts) 0.48 s instead of 0.54 s, cut +0.6%.
METIS_OPTIONS = {"niter": 2}


def _solve_part(
    solver: str, options: dict[str, Any], n: int, pu: np.ndarray, pv: np.ndarray, degree: np.ndarray
) -> tuple[np.ndarray, dict]:
    """One part's QP; a module-level function so that process pools can pickle it."""
    return SOLVERS[solver](n, pu, pv, degree, **options)


def _shortfall_message(counts: np.ndarray, n_potential: int, parts: int) -> str:
    short = np.flatnonzero(counts[:, 1] < counts[:, 0])
    found = int(counts[:, 1].sum())
    lines = [
        (
            f"the friend-of-friend rule found {found:,} of the {n_potential:,} potential edges "
            f"asked for ({len(short)} of {parts} parts fell short of their share):"
        )
    ]
    for i in short[:5]:
        requested, got, attempts, available = (int(x) for x in counts[i])
        if available < requested:
            why = f"only {available:,} friend-of-friend non-edge pairs exist in it"
        else:
            why = f"{available:,} such pairs exist but {attempts:,} random picks did not reach them"
        lines.append(f"  part {i}: {got:,} of {requested:,}; {why}")
    if len(short) > 5:
        lines.append(f"  ... and {len(short) - 5} more parts")
    lines.append(
        "lower n_potential, use fewer parts, or pass allow_fewer=True to accept what was found"
    )
    return "\n".join(lines)


def _progress_bar(enabled: bool, desc: str, total: int) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="part" if total > 1 else "step", leave=True)


def maxvar(
    g: Graph,
    n_potential: int,
    parts: int = 20,
    seed: SeedLike = None,
    solver: str = "dual",
    threads: int | None = None,
    executor: Executor | None = None,
    allow_fewer: bool = False,
    solver_options: dict[str, Any] | None = None,
    metis_options: dict[str, int] | None = None,
    progress: bool = False,
) -> Anonymized:
    """Anonymize a graph with MaxVar: the most degree variance that keeps every expected degree.

    Three phases (Section 4.2 of the paper): METIS splits ``g`` into ``parts`` parts; each part
    (its induced subgraph) receives ``n_potential / parts`` friend-of-friend potential edges;
    each part's quadratic program

        minimise sum p_e^2  s.t.  0 <= p_e <= 1,  sum of p_e at u = degree of u inside the part

    is solved over the part's edges and potential edges. Edges between parts keep ``p = 1``,
    so every node's expected degree equals its degree in ``g``.

    Parameters
    ----------
    g : Graph
        The graph to anonymize (at least one edge).
    n_potential : int
        Number of potential edges (non-edges that may appear) to propose in total: ``n_p`` in
        the paper. Part ``i`` receives ``n_potential // parts`` of them, the first
        ``n_potential % parts`` parts one more.
    parts : int
        Number of METIS parts, ``1 <= parts <= g.n``. ``parts=1`` solves the whole graph as one
        QP (no cut edges, so no variance lost on them).
    seed : int, numpy.random.Generator or None
        Seeds METIS and the proposals (one random stream per part). The output does not depend
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
        (``P = 2I``, ``A = [incidence; I]``), its answer clipped and repaired.
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
    metis_options : dict, optional
        METIS options by name (see :func:`graphveil.anonymize.parts.metis_parts`); default
        ``{"niter": 2}``: 2 refinement iterations instead of METIS's 10, about 2.7 times faster
        on a youtube-size graph for a cut about 1% larger.
    progress : bool
        Show a progress bar per phase (tqdm).

    Returns
    -------
    Anonymized
        ``(graph, report)``: the :class:`UncertainGraph` (the edges, the potential edges and the
        cut edges, ``m + n_potential`` pairs) and a dict with ``labels`` (the METIS part of every
        node), ``cut_edges``, per part ``potential_requested`` / ``potential_proposed`` /
        ``proposal_attempts`` / ``potential_available`` (-1 when not counted) and
        ``solver_stats`` (iterations, ``eq_residual`` and ``box_residual`` of the returned p,
        the raw residuals of the solver before clipping and repair, ``objective``), plus
        ``tv`` (total degree variance), ``tv_bound`` = m n_p / (m + n_p) (Proposition 4.1,
        with n_p the potential edges actually proposed) and ``timings`` (seconds per phase).
        ``graph.meta`` holds the same report without the labels.

    Raises
    ------
    ValueError
        Empty graph or no edges; ``parts`` outside ``1..n``; ``n_potential < 0``; an unknown
        solver; too few friend-of-friend pairs for the request (unless ``allow_fewer``).
    TypeError
        ``g`` is not a :class:`Graph`; non-integer counts; ``executor`` is not an Executor.
    RuntimeError
        A part's solution misses the equalities by more than 1e-6 (a solver failure).

    References
    ----------
    Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
    ASIACCS 2015, Section 4 (MaxVar, Algorithm 1, Proposition 4.1).

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
    t_start = time.perf_counter()
    if not isinstance(g, Graph):
        raise TypeError(
            f"g must be a graphveil.Graph, not {type(g).__name__}; build one with Graph.from_edges, "
            "Graph.from_scipy or Graph.from_networkx"
        )
    n_potential = check_int(n_potential, "n_potential")
    parts = check_int(parts, "parts")
    if g.n == 0 or g.m == 0:
        raise ValueError(f"MaxVar needs a graph with edges, got {g!r}")
    if n_potential < 0:
        raise ValueError(f"n_potential must be non-negative, got {n_potential}")
    if not 1 <= parts <= g.n:
        raise ValueError(f"parts must lie in 1..{g.n} (the number of nodes), got {parts}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {sorted(SOLVERS)}, got {solver!r}")
    options = dict(solver_options or {})
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor, not {type(executor).__name__}"
        )
    nthreads = check_threads(threads)
    seed_u64 = seed_to_u64(seed)
    timings: dict[str, float] = {}

    # Phase 1: METIS.
    bar = _progress_bar(progress, "partition", 1)
    t = time.perf_counter()
    metis = dict(METIS_OPTIONS if metis_options is None else metis_options)
    labels = metis_parts(g, parts, seed=seed_u64 % 2**31, options=metis)
    timings["partition"] = time.perf_counter() - t
    if bar is not None:
        bar.update(1)
        bar.close()

    # Phase 2: induced subgraphs and friend-of-friend proposals (C++, parallel over parts).
    bar = _progress_bar(progress, "propose", 1)
    t = time.perf_counter()
    layout = split_parts(g, labels, parts, threads=nthreads)
    requested = np.full(parts, n_potential // parts, dtype=np.int64)
    requested[: n_potential % parts] += 1
    ptr, prop_a, prop_b, counts = _core.propose_fof(
        layout.node_ptr,
        layout.local_indptr,
        layout.local_indices,
        requested,
        seed_u64,
        ATTEMPTS_PER_REQUEST,
        nthreads,
    )
    timings["propose"] = time.perf_counter() - t
    if bar is not None:
        bar.update(1)
        bar.close()
    if int(counts[:, 1].sum()) < n_potential and not allow_fewer:
        raise ValueError(_shortfall_message(counts, n_potential, parts))

    # Phase 3: one QP per part, on the executor.
    node_ptr, edge_ptr = layout.node_ptr, layout.edge_ptr
    local_degree = np.diff(layout.local_indptr).astype(np.float64)
    tasks = []
    for i in range(parts):
        e0, e1, q0, q1 = edge_ptr[i], edge_ptr[i + 1], ptr[i], ptr[i + 1]
        pu = np.concatenate([layout.edge_u[e0:e1], prop_a[q0:q1]])
        pv = np.concatenate([layout.edge_v[e0:e1], prop_b[q0:q1]])
        n_local = int(node_ptr[i + 1] - node_ptr[i])
        tasks.append((n_local, pu, pv, local_degree[node_ptr[i] : node_ptr[i + 1]]))
    bar = _progress_bar(progress, f"solve ({solver})", parts)
    t = time.perf_counter()
    own_pool = executor is None
    pool: Executor = (
        ThreadPoolExecutor(max_workers=nthreads or default_threads())
        if executor is None
        else executor
    )
    try:
        futures: list[Future] = [pool.submit(_solve_part, solver, options, *task) for task in tasks]
        if bar is not None:
            for future in futures:
                future.add_done_callback(lambda _f: bar.update(1))
        results = [future.result() for future in futures]
    finally:
        if own_pool:
            pool.shutdown(wait=True)
        if bar is not None:
            bar.close()
    timings["solve"] = time.perf_counter() - t

    # Phase 4: back to global ids; cut edges at p = 1.
    bar = _progress_bar(progress, "assemble", 1)
    t = time.perf_counter()
    order = layout.order
    us, vs, ps = [layout.cut_u], [layout.cut_v], [np.ones(layout.cut_u.size)]
    solver_stats = []
    for i, ((n_local, pu, pv, _deg), (p, stats)) in enumerate(zip(tasks, results)):
        if stats["eq_residual"] > EQ_TOL or stats["box_residual"] > 0.0:
            raise RuntimeError(
                f"part {i}: the {solver} solver returned p with equality residual {stats['eq_residual']:.2e} "
                f"and box residual {stats['box_residual']:.2e}; try the other solver"
            )
        base = node_ptr[i]
        us.append(order[base + pu])
        vs.append(order[base + pv])
        ps.append(p)
        stats = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in stats.items()}
        stats.update(
            part=i, nodes=n_local, edges=int(edge_ptr[i + 1] - edge_ptr[i]), pairs=int(pu.size)
        )
        solver_stats.append(stats)
    proposed = int(counts[:, 1].sum())
    report: dict[str, Any] = {
        "scheme": "maxvar",
        "params": {
            "n_potential": n_potential,
            "parts": parts,
            "solver": solver,
            "solver_options": options,
            "metis_options": metis,
            "allow_fewer": bool(allow_fewer),
        },
        "seed": seed_u64,
        "cut_edges": int(layout.cut_u.size),
        "potential_requested": counts[:, 0].tolist(),
        "potential_proposed": counts[:, 1].tolist(),
        "proposal_attempts": counts[:, 2].tolist(),
        "potential_available": counts[:, 3].tolist(),
        "solver_stats": solver_stats,
        "max_eq_residual": max((s["eq_residual"] for s in solver_stats), default=0.0),
        "max_box_residual": max((s["box_residual"] for s in solver_stats), default=0.0),
    }
    ug = UncertainGraph(g.n, np.concatenate(us), np.concatenate(vs), np.concatenate(ps))
    report["tv"] = ug.total_variance()
    report["tv_bound"] = g.m * proposed / (g.m + proposed) if proposed else 0.0
    timings["assemble"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - t_start
    report["timings"] = timings
    ug.meta.update(copy.deepcopy(report))
    report["labels"] = labels
    if bar is not None:
        bar.update(1)
        bar.close()
    return Anonymized(ug, report)


callable_module(__name__, maxvar)
