"""MaxVar's dyad-level directed QP (``maxvar(..., dyads=True)``): a mutual dyad is one unit.

A part's pairs split in two: its *dyads*, G0's mutual dyads ``{u, v}`` (both arcs inside the
part) and the potential mutual dyads, each one variable ``q`` published on both arcs; and its
*single arcs*, G0's asymmetric arcs and the potential single arcs, each its own variable ``p``.
The friend-of-friend potential arcs ``u -> v`` become potential mutual dyads or stay single
arcs in G0's proportions: a share ``r`` (G0's reciprocity) of the potential arcs lies in
potential mutual dyads, as a share ``r`` of G0's arcs lies in mutual dyads.

The QP keeps, at every node ``u`` of the part, its mutual degree ``m_u`` (G0's mutual dyads at
``u``) on the dyads and the rest of its out- and in-degree on the single arcs::

    minimise   sum_dyads 2 q^2 + sum_arcs p^2
    subject to sum_{dyads at u} q = m_u,  sum_{arcs u -> .} p = d+_u - m_u,
               sum_{arcs . -> u} p = d-_u - m_u,  0 <= q, p <= 1

so every expected out- and in-degree is kept (``m_u`` plus the rest), and it splits into two
independent pair QPs of the existing solvers: the undirected MaxVar QP of the dyads (an edge
per dyad, degrees ``m``) and the directed QP of the single arcs (out- and in-copies, with the
arcs every feasible point fixes found first, :func:`~graphveil.anonymize._qp.solve_directed`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from graphveil._seeds import keyed_rng
from graphveil.anonymize._qp import solve_directed
from graphveil.graph import Graph

#: The key of a part's stream that turns potential arcs into potential mutual dyads.
DYAD_STREAM = 0x6479616473  # "dyads"


def potential_mutual_share(g: Graph) -> float:
    """The chance that a potential arc becomes a potential mutual dyad: ``r / (2 - r)``.

    ``r = 2 M / m`` is G0's reciprocity (``M`` mutual dyads); a share ``f`` of ``N`` proposals
    made mutual holds ``2 f N`` of ``(1 + f) N`` potential arcs, which is ``r`` at
    ``f = r / (2 - r)``.
    """
    u, v = g.edges()
    keys = u.astype(np.int64) * g.n + v
    reverse = v.astype(np.int64) * g.n + u
    r = float(np.count_nonzero(np.isin(reverse, keys))) / g.m
    return r / (2.0 - r)


class DyadSplit(NamedTuple):
    """One part's dyads and single arcs, in local ids.

    Dyad ``k`` joins ``dyad_u[k]`` and ``dyad_v[k]`` both ways (the first ``g0_dyads`` are G0's
    mutual dyads, then the potential ones); single arc ``k`` is ``arc_u[k] -> arc_v[k]`` (G0's
    asymmetric arcs, then the potential single arcs).
    """

    dyad_u: np.ndarray
    dyad_v: np.ndarray
    g0_dyads: int
    arc_u: np.ndarray
    arc_v: np.ndarray
    potential_mutual: int


def split_dyads(
    n: int, pu: np.ndarray, pv: np.ndarray, edges: int, share: float, seed: int, part: int
) -> DyadSplit:
    """A part's dyads and single arcs: G0's arcs ``pu[:edges] -> pv[:edges]``, then potential.

    A potential arc ``u -> v`` becomes a potential mutual dyad with chance ``share`` (a coin of
    the part's own stream) when no G0 arc joins ``u`` and ``v`` and no other proposal names
    the pair; ``u -> v`` and ``v -> u`` both proposed are one potential mutual dyad. A mutual
    dyad costs two potential arcs, so proposals are used in order until the part's count of
    potential arcs is spent.
    """
    pu, pv = pu.astype(np.int64), pv.astype(np.int64)
    eu, ev, qu, qv = pu[:edges], pv[:edges], pu[edges:], pv[edges:]
    mutual = np.isin(ev * n + eu, eu * n + ev)
    lead = mutual & (eu < ev)  # one dyad per mutual pair, at its arc u -> v with u < v
    pair = np.minimum(qu, qv) * n + np.maximum(qu, qv)
    _, first, counts = np.unique(pair, return_index=True, return_counts=True)
    alone = np.zeros(qu.size, dtype=bool)
    alone[first[counts == 1]] = True
    twice = np.zeros(qu.size, dtype=bool)  # u -> v and v -> u both proposed: one dyad
    twice[first[counts == 2]] = True
    drop = ~alone & ~twice  # the second proposal of such a pair
    free = alone & ~np.isin(pair, np.minimum(eu, ev) * n + np.maximum(eu, ev))
    coin = keyed_rng(seed, part, DYAD_STREAM).random(qu.size) < share
    both = (free & coin) | twice
    used = (np.cumsum(np.where(drop, 0, 1 + both)) <= qu.size) & ~drop
    qu, qv, both = qu[used], qv[used], both[used]
    return DyadSplit(
        np.concatenate([eu[lead], qu[both]]),
        np.concatenate([ev[lead], qv[both]]),
        int(np.count_nonzero(lead)),
        np.concatenate([eu[~mutual], qu[~both]]),
        np.concatenate([ev[~mutual], qv[~both]]),
        int(np.count_nonzero(both)),
    )


def solve_dyad_qp(
    solver: str, options: dict[str, Any], n: int, split: DyadSplit, mutual_degree: np.ndarray
) -> tuple[np.ndarray, dict[str, Any]]:
    """The dyads' QP as the directed QP of their double cover: ``q`` per dyad and its statistics.

    ``min sum 2 q^2`` subject to ``sum_{dyads at u} q = m_u``, ``0 <= q <= 1`` is the directed
    QP ``min sum p^2`` over both arcs of every dyad with out- and in-degree ``m_u`` at every
    node: a dyad's two arcs share ``q`` at the optimum (the problem is symmetric under reversing
    every arc and its optimum unique), and both problems' objectives and constraints agree on
    such points. The directed solver finds first the arcs every feasible point fixes at 0 or 1
    (:func:`~graphveil.anonymize._qp.solve_directed`). The dyads' graph is sparse, often a
    forest (a part of web-NotreDame at n_p = 280k: 15,241 dyads on 16,768 nodes), where many
    dyads are fixed so: on them the undirected dual has no finite optimum, and one such part
    ended on the projection after 200 Newton steps. ``q`` is the mean of a dyad's two arcs,
    which keeps every ``m_u`` exactly.
    """
    k = split.dyad_u.size
    p, stats = solve_directed(
        solver,
        options,
        n,
        np.concatenate([split.dyad_u, split.dyad_v]),
        np.concatenate([split.dyad_v, split.dyad_u]),
        mutual_degree,
        mutual_degree,
    )
    return 0.5 * (p[:k] + p[k:]), stats


def solve_dyads(
    solver: str,
    options: dict[str, Any],
    n: int,
    split: DyadSplit,
    out_degree: np.ndarray,
    in_degree: np.ndarray,
) -> tuple[np.ndarray, dict[str, Any], tuple[np.ndarray, np.ndarray]]:
    """One part's dyad-level QP (see the module docstring): ``p`` per published arc.

    The published arcs are every dyad's two arcs (``u -> v`` then ``v -> u``, both at its
    ``q``), then the single arcs. The statistics add up (iterations) or take the worst
    (residuals) of the two QPs, plus ``flow_fixed`` (single arcs fixed before the solve),
    ``potential_mutual`` and ``objective`` (``sum p^2`` over the published arcs).
    """
    g0 = split.g0_dyads
    mutual_degree = np.bincount(split.dyad_u[:g0], minlength=n) + np.bincount(
        split.dyad_v[:g0], minlength=n
    )
    q, dyad_stats = solve_dyad_qp(solver, options, n, split, mutual_degree)
    single_out, single_in = out_degree - mutual_degree, in_degree - mutual_degree
    p, stats = solve_directed(solver, options, n, split.arc_u, split.arc_v, single_out, single_in)
    for key in ("iterations", "cg_iterations", "repair_iterations", "projection_iterations"):
        if key in stats:
            stats[key] += dyad_stats.get(key, 0)
    for key in ("eq_residual", "box_residual", "raw_eq_residual", "raw_box_residual"):
        if key in stats:
            stats[key] = max(stats[key], dyad_stats.get(key, 0.0))
    stats["converged"] = bool(stats["converged"] and dyad_stats["converged"])
    stats["objective"] = float(2.0 * np.sum(q * q) + np.sum(p * p))
    stats["seconds"] += dyad_stats["seconds"]
    stats["potential_mutual"] = split.potential_mutual
    arcs = (
        np.concatenate([split.dyad_u, split.dyad_v, split.arc_u]),
        np.concatenate([split.dyad_v, split.dyad_u, split.arc_v]),
    )
    return np.concatenate([q, q, p]), stats, arcs
