"""Directed forms of the measures: statistics along the arcs, and directed signatures.

Statistics of a directed :class:`~graphveil.Graph` (its out-CSR ``indptr/indices`` holds the
arcs ``u -> v``), the rows of :data:`~graphveil.measure.utility.STATISTIC_TABLE` marked
directed:

* ``S_NE`` arcs, ``S_AD = arcs / n`` (the mean out-degree, equal to the mean in-degree),
  ``S_MD_in``/``S_MD_out`` and ``S_DV_in``/``S_DV_out`` (population variance) of the in- and
  out-degrees, ``S_PL_in``/``S_PL_out`` the power-law exponents of each
  (:func:`~graphveil.measure.powerlaw_exponent`).
* ``S_REC`` reciprocity: the fraction of arcs whose reverse is an arc
  (``networkx.overall_reciprocity``, igraph's default ``reciprocity``).
* ``S_CC``: Fagiolo's global clustering of a directed graph (Phys. Rev. E 76, 2007), the ratio
  ``sum_v t_v / sum_v T_v`` with ``t_v = ((A + A^T)^3)_vv / 2`` the directed triangles at ``v``
  and ``T_v = d_v (d_v - 1) - 2 d_v^<->`` the directed triples (``d_v`` total degree,
  ``d_v^<->`` reciprocated pairs at ``v``): ``networkx.clustering`` of a DiGraph is
  ``t_v / T_v`` per node; this is the global ratio of the same counts, so a symmetric digraph
  has the transitivity of its undirected graph. Counted in C++ as the triangles of the
  underlying undirected graph weighted by the product of their pairs' arc counts (1 or 2):
  ``sum_v t_v`` is three times that sum.
* Distances along the arcs (``d(s, t)`` follows arcs from ``s``; pairs with no directed path
  are left out): ``S_APD``, ``S_EDiam``, ``S_CL``, ``S_Diam`` as undirected, exact (BFS from
  every node) up to ``exact_threshold`` nodes, else from ``sources`` random sources with at least
  one out-arc, ``S_Diam`` then the longest distance they find (the paper's lower bound; iFUB
  needs symmetric distances). The BFS is ``graphveil._core.directed_distance_histogram``.
* ``S_SCC``/``S_WCC`` the number of strongly/weakly connected components (isolated nodes
  included, as networkx counts them) and ``S_SCC_max``/``S_WCC_max`` the largest one's share
  of the nodes.

Signatures (Section VI-A of the paper, directed): H1 is the pair ``(in-degree, out-degree)``;
H2_open the pair of *sets* ``({(in(w), out(w)) : w out-neighbour of v}, {(in(w), out(w)) : w
in-neighbour of v})`` (sets, as the undirected H2_open). Grouped exactly (the sets' bytes are
the keys of a dict), never by hash.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_threads
from graphveil.graph import Graph

__all__ = [
    "components",
    "degree_statistics_directed",
    "directed_clustering",
    "directed_signature_ids",
    "reciprocity",
]


def _arc_keys(graph: Graph) -> np.ndarray:
    u, v = graph.edges()
    return u.astype(np.int64) * graph.n + v.astype(np.int64)  # sorted: arcs come sorted by (u, v)


def _has(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(keys, wanted)
    pos[pos == keys.size] = 0
    return keys[pos] == wanted if keys.size else np.zeros(wanted.size, dtype=bool)


def reciprocity(graph: Graph) -> float:
    """``S_REC``: the fraction of arcs ``u -> v`` whose reverse ``v -> u`` is an arc (nan if none).

    Examples
    --------
    >>> reciprocity(Graph.from_edges([0, 1, 1], [1, 0, 2], directed=True))
    0.6666666666666666
    """
    if graph.m == 0:
        return float("nan")
    u, v = graph.edges()
    reverse = v.astype(np.int64) * graph.n + u.astype(np.int64)
    return float(np.count_nonzero(_has(_arc_keys(graph), reverse))) / graph.m


def degree_statistics_directed(graph: Graph) -> dict[str, float]:
    """``S_NE, S_AD`` and the in/out ``S_MD``, ``S_DV`` of a directed graph (module docstring)."""
    nan = float("nan")
    out: dict[str, float] = {"S_NE": float(graph.m)}
    if graph.n == 0:
        out.update(S_AD=nan, S_MD_in=0.0, S_MD_out=0.0, S_DV_in=nan, S_DV_out=nan)
        return out
    mean = graph.m / graph.n
    out["S_AD"] = mean
    for side, deg in (("in", graph.in_degrees), ("out", graph.out_degrees)):
        out[f"S_MD_{side}"] = float(deg.max())
        out[f"S_DV_{side}"] = float(np.mean((deg - mean) ** 2))
    return out


def directed_clustering(graph: Graph, *, threads: int | None = None) -> float:
    """``S_CC`` of a directed graph: Fagiolo's global ratio ``sum t_v / sum T_v`` (0 if no triple).

    Examples
    --------
    >>> directed_clustering(Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True))  # a cycle
    0.5
    """
    simple = graph.to_undirected()
    if simple.m == 0:
        return 0.0
    rows = np.repeat(np.arange(simple.n, dtype=np.int64), np.diff(simple.indptr))
    cols = simple.indices.astype(np.int64)
    keys = _arc_keys(graph)
    both = _has(keys, rows * graph.n + cols) & _has(keys, cols * graph.n + rows)
    weights = np.where(both, 2, 1).astype(np.uint8)
    weighted = _core.count_weighted_triangles(
        simple.indptr, simple.indices, weights, check_threads(threads)
    )
    total = graph.degrees.astype(np.int64)
    mutual = np.bincount(rows[both], minlength=graph.n)  # reciprocated pairs at each node
    triples = int(np.sum(total * (total - 1) - 2 * mutual))
    return 3.0 * int(weighted) / triples if triples else 0.0


def components(graph: Graph) -> dict[str, float]:
    """``S_SCC, S_SCC_max, S_WCC, S_WCC_max``: component counts and the largest one's share."""
    from scipy.sparse.csgraph import connected_components  # not paid for by `import graphveil`

    if graph.n == 0:
        return {"S_SCC": 0.0, "S_SCC_max": float("nan"), "S_WCC": 0.0, "S_WCC_max": float("nan")}
    data = np.ones(graph.indices.size, dtype=np.int8)
    matrix = sp.csr_array((data, graph.indices, graph.indptr), shape=(graph.n, graph.n))
    out: dict[str, float] = {}
    for name, connection in (("S_SCC", "strong"), ("S_WCC", "weak")):
        count, labels = connected_components(matrix, directed=True, connection=connection)
        out[name] = float(count)
        out[f"{name}_max"] = float(np.bincount(labels).max()) / graph.n
    return out


def _row_sets(indptr: np.ndarray, indices: np.ndarray, codes: np.ndarray) -> tuple[Any, Any]:
    """Per row, the sorted distinct ``codes`` of its entries: ``(ptr, values)``."""
    n = indptr.size - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    vals = codes[indices]
    order = np.lexsort((vals, rows))
    rows, vals = rows[order], vals[order]
    keep = np.ones(rows.size, dtype=bool)
    keep[1:] = (rows[1:] != rows[:-1]) | (vals[1:] != vals[:-1])
    rows, vals = rows[keep], vals[keep]
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=ptr[1:])
    return ptr, vals


def _signature_keys(graph: Graph, kind: str) -> list[bytes] | np.ndarray:
    ins = graph.in_degrees.astype(np.int64)
    outs = graph.out_degrees.astype(np.int64)
    pair = np.stack([ins, outs], axis=1)
    if kind == "h1":
        return pair
    codes = ins * (2**31) + outs  # exact: degrees < 2**31
    optr, ovals = _row_sets(graph.indptr, graph.indices, codes)
    iptr, ivals = _row_sets(graph.in_indptr, graph.in_indices, codes)
    keys = []
    for x in range(graph.n):
        a, b = ovals[optr[x] : optr[x + 1]], ivals[iptr[x] : iptr[x + 1]]
        keys.append(np.int64(a.size).tobytes() + a.tobytes() + b.tobytes())
    return keys


def directed_signature_ids(graphs: list[Graph], kind: str) -> list[np.ndarray]:
    """Signature class ids of every node of each graph, numbered over all of them together.

    Equal ids (across the graphs too) iff equal signatures (``kind`` ``"h1"`` or ``"h2_open"``,
    the module docstring).
    """
    keys = [_signature_keys(g, kind) for g in graphs]
    if kind == "h1":
        stacked = np.concatenate(keys) if keys else np.zeros((0, 2), dtype=np.int64)
        _, ids = np.unique(stacked, axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        bounds = np.cumsum([0, *(g.n for g in graphs)])
        return [ids[bounds[i] : bounds[i + 1]].astype(np.int64) for i in range(len(graphs))]
    table: dict[bytes, int] = {}
    return [
        np.fromiter(
            (table.setdefault(k, len(table)) for k in part), dtype=np.int64, count=len(part)
        )
        for part in keys
    ]


def directed_score(g0: Graph, g: Graph, kind: str) -> float:
    """H1 / H2_open of a directed ``g`` against a directed ``g0`` (the paper's rule, signatures above)."""
    sig0, sig = directed_signature_ids([g0, g], kind)
    sizes = np.bincount(sig, minlength=int(max(sig0.max(initial=-1), sig.max(initial=-1))) + 1)
    hits = np.bincount(sig0[sig == sig0], minlength=sizes.size)  # per class: exact counts
    found = hits > 0
    return float(np.sum(hits[found] / sizes[found]))
