"""The arrays behind :class:`~graphveil.uncertain.UncertainGraph`: its pairs, their canonical form and worlds.

Plain functions on the pair arrays ``(n, u, v, p)``, called by the class's constructor and methods
(which document the rules): the checks and canonical form of the constructor's arguments, the
sortable keys of pairs, the simplified pairs of a relaxed graph, the uncertain adjacency matrix,
the check of a graph compared with an uncertain graph, and the possible worlds of :meth:`sample
<graphveil.uncertain.UncertainGraph.sample>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_int, check_memory
from graphveil._common import in_sorted, index_dtype
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil._threads import default_threads
from graphveil.graph import Graph

if TYPE_CHECKING:
    from graphveil.uncertain import UncertainGraph


def canonical_pairs(
    n: int, u: Any, v: Any, p: Any, *, relaxed: bool, directed: bool
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The constructor's arguments checked and in canonical form: ``(n, u, v, p)``, read-only."""
    n = check_int(n, "n", low=0)
    u_arr = np.asarray(u)
    v_arr = np.asarray(v)
    try:
        p_arr = np.array(p, dtype=np.float64)  # always a private copy: it is frozen below
    except (TypeError, ValueError) as err:
        raise TypeError(f"p must hold real numbers: {err}") from None
    if not (u_arr.ndim == v_arr.ndim == p_arr.ndim == 1) or not (
        u_arr.size == v_arr.size == p_arr.size
    ):
        raise ValueError(
            f"u, v and p must be 1-d arrays of one length, got shapes {u_arr.shape}, {v_arr.shape}, {p_arr.shape}"
        )
    if u_arr.size and not (
        np.issubdtype(u_arr.dtype, np.integer) and np.issubdtype(v_arr.dtype, np.integer)
    ):
        raise TypeError(f"pair ends must be integers, got dtypes {u_arr.dtype} and {v_arr.dtype}")
    if p_arr.size:
        bad = ~((p_arr >= 0.0) & (p_arr <= 1.0))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"probabilities must lie in [0, 1]: pair {i} ({int(u_arr[i])}, {int(v_arr[i])}) has p={float(p_arr[i])!r} "
                f"({int(bad.sum())} such pairs)"
            )
        lo = int(min(u_arr.min(), v_arr.min()))
        hi = int(max(u_arr.max(), v_arr.max()))
        if lo < 0 or hi >= n:
            raise ValueError(
                f"pair ends must lie in 0..{n - 1}, found {lo if lo < 0 else hi}; pass a larger n or relabel"
            )
    dtype = index_dtype(n)
    # cast first: mixing e.g. uint64 and int64 would promote to float64
    u_arr = u_arr.astype(dtype, copy=False)
    v_arr = v_arr.astype(dtype, copy=False)
    if directed:  # ordered pairs stay as given
        a, b = u_arr.copy(), v_arr.copy()
    else:
        a = np.minimum(u_arr, v_arr)
        b = np.maximum(u_arr, v_arr)
    if not relaxed and np.any(a == b):
        i = int(np.flatnonzero(a == b)[0])
        raise ValueError(
            f"self-loop ({int(a[i])}, {int(a[i])}) is not allowed in the strict model; "
            "drop it or pass relaxed=True"
        )
    if not _is_sorted(a, b):
        # one stable sort of uint64 keys is ~3x faster than lexsort; stable keeps the
        # input order of repeated pairs (relaxed), so results never depend on the sort
        order = np.argsort(pair_keys(a, b, n), kind="stable") if n <= 2**32 else np.lexsort((b, a))
        a, b, p_arr = a[order], b[order], p_arr[order]
    if not relaxed and a.size > 1:
        same = (a[1:] == a[:-1]) & (b[1:] == b[:-1])
        if same.any():
            i = int(np.flatnonzero(same)[0])
            raise ValueError(
                f"pair ({int(a[i])}, {int(b[i])}) appears more than once; merge duplicates or pass relaxed=True"
            )
    for arr in (a, b, p_arr):
        arr.setflags(write=False)
    return n, a, b, p_arr


def simplify(
    u: np.ndarray, v: np.ndarray, p: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of :meth:`UncertainGraph.simplified`: loops dropped, repeated pairs merged."""
    keep = u != v
    a, b, p = u[keep], v[keep], p[keep]
    if a.size:
        start = np.flatnonzero(np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])])
        size = np.diff(np.r_[start, a.size])
        q = 1.0 - np.multiply.reduceat(1.0 - p, start)
        # a lone pair keeps its p exactly (1 - (1 - p) may round away from p)
        q = np.where(size == 1, p[start], q)
        a, b = a[start], b[start]
    else:
        q = p
    return a, b, q


def adjacency(
    n: int, u: np.ndarray, v: np.ndarray, p: np.ndarray, directed: bool, array: bool
) -> sp.csr_array | sp.csr_matrix:
    """The uncertain adjacency matrix of :meth:`UncertainGraph.to_scipy`."""
    if directed:
        coo = sp.coo_matrix((p, (u, v)), shape=(n, n))
        arcs = coo.tocsr()
        arcs.sort_indices()
        return sp.csr_array(arcs) if array else arcs
    rows = np.concatenate([u, v])
    cols = np.concatenate([v, u])
    data = np.concatenate([p, p])
    coo = sp.coo_matrix((data, (rows, cols)), shape=(n, n))
    out = coo.tocsr()  # sums repeated pairs
    out.sort_indices()
    return sp.csr_array(out) if array else out


def check_graph(graph: Graph, n: int, directed: bool) -> None:
    """Refuse a graph that is no :class:`Graph` on ``n`` nodes of the uncertain graph's kind."""
    if not isinstance(graph, Graph):
        raise TypeError(f"expected a graphveil.Graph, got {type(graph).__name__}")
    if graph.n != n:
        raise ValueError(
            f"graph has {graph.n} nodes but the uncertain graph has {n}; they must match"
        )
    if graph.directed != directed:
        kinds = ("undirected", "directed")
        raise ValueError(
            f"graph is {kinds[graph.directed]} but the uncertain graph is "
            f"{kinds[directed]}; compare graphs of one kind (Graph.to_undirected() "
            "drops a graph's directions)"
        )


def match(simple: UncertainGraph, graph: Graph) -> tuple[np.ndarray, int]:
    """For a strict graph: which pairs are edges of ``graph``, and how many edges are no pair."""
    check_graph(graph, simple.n, simple.directed)
    gu, gv = graph.edges()
    pairs = pair_keys(simple.u, simple.v, simple.n)
    edges = pair_keys(gu, gv, simple.n)
    in_graph = in_sorted(pairs, edges)  # both lists are distinct sorted keys
    return in_graph, int(edges.size - np.count_nonzero(in_graph))


def check_world_memory(simple: UncertainGraph, count: int, nthreads: int, extra: int = 0) -> None:
    """Refuse ``count`` worlds of ``simple`` that would not fit in memory, before any is drawn.

    The kernel's peak: every world's CSR (``indptr`` of n + 1 int64, the kept pairs' ids once
    per end, at most the sum of p of them) and, per world drawn at once, its scratch (two
    int64 counts per node, two ids per pair). ``extra`` adds the caller's own (bytes). A crafted
    release claiming n = 2**31 - 1 needs 48 GiB for one world: refused in one line
    (:func:`~graphveil._checks.check_memory`), not a ``std::bad_alloc``.
    """
    ids = index_dtype(simple.n).itemsize
    nodes = simple.n + 1
    kept = float(np.sum(simple.p))
    world = 8 * nodes + 2 * ids * kept
    scratch = 16 * nodes + 2 * ids * simple.num_pairs
    at_once = min(count, nthreads or default_threads())
    need = int(count * world + at_once * scratch) + extra
    check_memory(need, f"{count:,} possible world(s) of {simple.n:,} nodes")


def worlds(simple: UncertainGraph, count: int, seed: SeedLike, nthreads: int) -> list[Graph]:
    """Samples ``0..count-1`` of a strict uncertain graph (:meth:`UncertainGraph.sample`)."""
    if simple.directed:
        return [_directed_world(simple, seed, k, nthreads) for k in range(count)]
    csrs = _core.sample_csr(
        simple.n, simple.u, simple.v, simple.p, seed_to_u64(seed), 0, int(count), nthreads
    )
    # Ids of a permuted release are public: the samples carry them as labels, so that
    # write_edgelist writes them as they are (no second permutation) and they stay the ids
    # the release's run record maps back. Other samples carry no labels: write_edgelist
    # then permutes their ids unless told to keep them.
    labels = np.arange(simple.n, dtype=np.int64) if simple.ids_permuted else None
    if labels is not None:
        labels.setflags(write=False)
    return [Graph(indptr, indices, labels, validate=False) for indptr, indices in csrs]


def world_edges(
    ug: UncertainGraph, seed: int, index: int, nthreads: int
) -> tuple[np.ndarray, np.ndarray]:
    """The kept pairs ``(u, v)`` of sample ``index`` of a (64-bit) seed: one trial per pair."""
    return _core.sample_edges(ug.n, ug.u, ug.v, ug.p, seed, index, nthreads)


def _directed_world(simple: UncertainGraph, seed: SeedLike, index: int, nthreads: int) -> Graph:
    """Sample ``index`` of a strict directed graph: the kept arcs are its out-CSR as they are.

    The same draws as :meth:`UncertainGraph.sample_edges` (one stream per fixed block of pairs); the kept
    pairs are sorted and unique, so the heads are the out-CSR's indices in order.
    """
    u, v = _core.sample_edges(
        simple.n, simple.u, simple.v, simple.p, seed_to_u64(seed), index, nthreads
    )
    indptr = np.zeros(simple.n + 1, dtype=np.int64)
    np.cumsum(np.bincount(u, minlength=simple.n), out=indptr[1:])
    labels = np.arange(simple.n, dtype=np.int64) if simple.ids_permuted else None
    if labels is not None:
        labels.setflags(write=False)
    return Graph(indptr, v, labels, validate=False, directed=True)


def _is_sorted(a: np.ndarray, b: np.ndarray) -> bool:
    if a.size < 2:
        return True
    da = np.diff(a)
    return bool(np.all(da >= 0) and np.all((da > 0) | (b[1:] >= b[:-1])))


def pair_keys(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """One sortable uint64 per canonical pair (sorted pairs give sorted keys)."""
    if n > 2**32:
        raise ValueError(f"edit distances need n <= 2**32 nodes, got {n}")
    return u.astype(np.uint64) * np.uint64(n) + v.astype(np.uint64)


def non_negative(value: Any, name: str, alternative: str = "") -> int:
    # ValueError for every wrong value (also a float or a bool): a count or index is one number.
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer{alternative}, got {value!r}")
    return int(value)
