"""The MaxVar quadratic program of one part and its two backends.

For the pairs ``e = {u, v}`` of a part (its edges and its potential edges)::

    minimise   sum_e p_e^2
    subject to 0 <= p_e <= 1                      for every pair
               sum_{e at u} p_e = d_u             for every node u of the part

``"dual"``: the exact solver of :mod:`graphveil._core` (semismooth Newton on the concave
dual in one multiplier per node, ``p_e = clip((lambda_u + lambda_v) / 2, 0, 1)``).
``"osqp"``: the QP handed to OSQP as a sparse problem, ``P = 2 I`` and ``A = [incidence; I]``.

Both backends end with the same repair step (C++): clip ``p`` into ``[0, 1]``, then cancel the
remaining equality residual by least-norm moves of the pairs strictly inside the box, each move
shortened so that no pair leaves it. The box therefore holds exactly and the equalities to
rounding; the order is never reversed (a clip after a repair would undo it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil.interop import require

#: Equality tolerance every returned solution meets (per node, absolute).
EQ_TOL = 1e-6


def qp_matrices(
    n: int, pu: np.ndarray, pv: np.ndarray, degree: np.ndarray
) -> tuple[sp.csc_matrix, np.ndarray, sp.csc_matrix, np.ndarray, np.ndarray]:
    """The part's QP in OSQP form ``min 1/2 x'Px + q'x, l <= Ax <= u``, built sparsely.

    ``P = 2 I`` (so ``1/2 x'Px = sum x^2``), ``A = [incidence; I]`` in CSC, ``l = [d; 0]``,
    ``u = [d; 1]``. The incidence matrix has one column per pair with two ones, so it is
    written directly in CSC form without a COO detour.
    """
    npairs = int(pu.size)
    rows = np.empty(3 * npairs, dtype=np.int64)
    rows[0::3] = np.minimum(pu, pv)
    rows[1::3] = np.maximum(pu, pv)
    rows[2::3] = n + np.arange(npairs, dtype=np.int64)
    indptr = np.arange(0, 3 * npairs + 1, 3, dtype=np.int64)
    a = sp.csc_matrix((np.ones(3 * npairs), rows, indptr), shape=(n + npairs, npairs))
    p = sp.identity(npairs, format="csc") * 2.0
    q = np.zeros(npairs)
    lower = np.concatenate([degree, np.zeros(npairs)])
    upper = np.concatenate([degree, np.ones(npairs)])
    return sp.csc_matrix(p), q, a, lower, upper


def fixed_arcs(
    n: int, tails: np.ndarray, heads: np.ndarray, out_degree: np.ndarray, in_degree: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The arcs of a directed part's QP that every feasible point holds at 0 or at 1.

    A directed part's constraints (arcs ``tails[k] -> heads[k]`` in ``0..n-1``, each ``p`` in
    ``[0, 1]``, out-degree and in-degree sums) are a transportation polytope: the flows from
    the out-copies (supply ``out_degree``) to the in-copies (demand ``in_degree``) along the
    arcs, capacity 1. Any two feasible points differ by a circulation in the residual graph of
    either, so an arc is the same in every feasible point iff it lies on no cycle of the
    residual graph of one integral flow (a maximum flow, which meets every degree): iff its
    two ends lie in different strongly connected components. Such arcs make the QP's dual
    unbounded (no multipliers reach ``p = 0`` or ``1`` exactly through the other arcs), so
    Newton would stall on them; they are fixed before the solve. In C++ (the GIL released):
    the arcs one node's count forces are peeled first, then Dinic's maximum flow and Tarjan's
    strongly connected components run on the rest.

    Returns
    -------
    (fixed, value)
        A mask over the arcs and the integral flow (0 or 1), which is the fixed arcs' value.

    Raises
    ------
    ValueError
        No flow meets the degrees (the degrees are not those of a subgraph of the arcs), or a
        degree is not a non-negative integer.
    """
    tails, heads = _same_width(tails, heads)
    return _core.fixed_arcs(n, tails, heads, _floats(out_degree), _floats(in_degree))


def solve_directed(
    solver: str,
    options: dict[str, Any],
    n: int,
    tails: np.ndarray,
    heads: np.ndarray,
    out_degree: np.ndarray,
    in_degree: np.ndarray,
) -> tuple[np.ndarray, dict[str, Any]]:
    """One directed part's QP with ``solver``: ``p`` per arc and the statistics.

    The QP (see :func:`~graphveil.anonymize.maxvar`) is the undirected QP of the bipartite graph
    of out-copies ``u`` and in-copies ``n + v``. ``"dual"``: all in C++, the arcs
    :func:`fixed_arcs` finds fixed first, then the exact solver on each strongly connected
    component of the rest (independent QPs, no free arc between them), its Newton step taking
    out the null directions that bipartite components have (``components`` in the statistics).
    ``"osqp"``: :func:`fixed_arcs`, then OSQP on the bipartite QP of the other arcs. Both add
    ``flow_fixed`` (the arcs fixed) to the statistics; ``objective`` is ``sum p^2`` over every
    arc.
    """
    if solver == "dual":
        start = time.perf_counter()
        tails, heads = _same_width(tails, heads)
        p, stats = _core.maxvar_directed(
            n, tails, heads, _floats(out_degree), _floats(in_degree), **options
        )
        stats["solver"] = "dual"
        stats["status"] = "solved" if stats["converged"] else "not converged"
        stats["seconds"] = time.perf_counter() - start
        return p, stats
    fixed, value = fixed_arcs(n, tails, heads, out_degree, in_degree)
    free = ~fixed
    rhs = np.concatenate(
        [
            out_degree - np.bincount(tails[fixed], value[fixed], minlength=n),
            in_degree - np.bincount(heads[fixed], value[fixed], minlength=n),
        ]
    )
    p_free, stats = SOLVERS[solver](2 * n, tails[free], heads[free] + n, rhs, **options)
    p = value.copy()
    p[free] = p_free
    stats["flow_fixed"] = int(np.count_nonzero(fixed))
    stats["objective"] = float(np.sum(p * p))
    return p, stats


def _same_width(tails: np.ndarray, heads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Arc ends in one index width (int32 when both are, else int64), C-contiguous."""
    dtype = np.int32 if tails.dtype == heads.dtype == np.int32 else np.int64
    return np.ascontiguousarray(tails, dtype=dtype), np.ascontiguousarray(heads, dtype=dtype)


def _floats(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.float64)


def _uniform_share(n: int, pu: np.ndarray, pv: np.ndarray, degree: np.ndarray) -> np.ndarray:
    """Each pair at u carrying the same share d_u / (pairs at u), averaged over both ends."""
    pairs_at = np.bincount(pu, minlength=n) + np.bincount(pv, minlength=n)
    share = np.divide(degree, pairs_at, out=np.zeros(n), where=pairs_at > 0)
    return np.clip(0.5 * (share[pu] + share[pv]), 0.0, 1.0)


def solve_dual(
    n: int, pu: np.ndarray, pv: np.ndarray, degree: np.ndarray, *, tol: float = 1e-10
) -> tuple[np.ndarray, dict[str, Any]]:
    """Exact solve of one part in C++ (the GIL is released during the solve)."""
    start = time.perf_counter()
    p, stats = _core.maxvar_dual(n, pu, pv, degree, tol=tol)
    stats["solver"] = "dual"
    stats["status"] = "solved" if stats["converged"] else "not converged"
    stats["seconds"] = time.perf_counter() - start
    return p, stats


def solve_osqp(
    n: int,
    pu: np.ndarray,
    pv: np.ndarray,
    degree: np.ndarray,
    *,
    eps: float = 1e-7,
    rho: float = 1.0,
    max_iter: int = 50_000,
    time_limit: float = 0.0,
    polish: bool = True,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Solve one part with OSQP, then clip and repair (see the module docstring).

    ``time_limit`` in seconds (0 = none) and ``max_iter`` bound the ADMM; the answer is
    repaired whatever OSQP's status, and the stats say how far OSQP itself was.
    """
    osqp = require("osqp")  # the `osqp` extra

    start = time.perf_counter()
    npairs = int(pu.size)
    if npairs == 0:
        p = np.zeros(0)
        status, iterations = "solved", 0
    else:
        P, q, A, lower, upper = qp_matrices(n, pu, pv, degree)
        solver = osqp.OSQP()
        new_names = int(str(osqp.__version__).split(".")[0]) >= 1  # OSQP 1.0 renamed two settings
        settings: dict[str, Any] = {
            "eps_abs": eps,
            "eps_rel": eps,
            "rho": rho,
            "max_iter": max_iter,
            "verbose": False,
        }
        settings["polishing" if new_names else "polish"] = polish
        settings["warm_starting" if new_names else "warm_start"] = True
        if time_limit:
            settings["time_limit"] = float(time_limit)
        solver.setup(P, q, A, lower, upper, **settings)
        solver.warm_start(x=_uniform_share(n, pu, pv, degree))
        # We judge the answer ourselves (repair + residual check), so OSQP must not raise.
        result = solver.solve(raise_error=False) if new_names else solver.solve()
        status = str(result.info.status)
        iterations = int(result.info.iter)
        p = np.asarray(result.x, dtype=np.float64)
        if p.shape != (npairs,) or not np.all(np.isfinite(p)):
            raise RuntimeError(
                f"OSQP returned no usable solution (status {status!r}); try solver='dual'"
            )
        p = np.ascontiguousarray(p)
    p, stats = _core.repair_qp(n, pu, pv, degree, p)
    stats["iterations"] = iterations
    stats["solver"] = "osqp"
    stats["status"] = status
    stats["converged"] = bool(stats["eq_residual"] <= EQ_TOL and stats["box_residual"] == 0.0)
    stats["seconds"] = time.perf_counter() - start
    return p, stats


SOLVERS: dict[str, Callable[..., tuple[np.ndarray, dict[str, Any]]]] = {
    "dual": solve_dual,
    "osqp": solve_osqp,
}
