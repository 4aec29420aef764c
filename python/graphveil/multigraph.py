"""A deterministic multigraph: a world in which pairs may repeat and self-loops stay.

The printed RandWalk-mod (Algorithm 2, the paper's tables) and a Mixture over it publish
*relaxed* graphs (constraint 2'): a pair may appear several times and a node may be joined to
itself. The authors measured such a graph as igraph and networkx read it from an edge list
(``graph-dp/compare/utility_measure_multigraph.py``, ``incorrectness_measure_multigraph.py``):
every copy of a pair and every loop is an edge, and a loop adds 2 to its node's degree
(``igraph.Graph.degree``, ``networkx.MultiGraph.degree``). :class:`Multigraph` holds that
form once, for every measure that reads it:

* :attr:`~Multigraph.m` counts every pair (a loop once, every copy), as igraph's ``ecount``;
* :attr:`~Multigraph.degrees` are the row sums of the adjacency matrix (a loop 2, every copy 1), as igraph's
  ``degree`` (so :attr:`~Multigraph.m` is half their sum);
* :attr:`~Multigraph.loopless_degrees` leave the loops out: the maximum degree ``S_MD`` is theirs, as
  igraph's ``maxdegree()`` counts no loop unless asked (``loops=False`` by default, in 0.7 too);
* :attr:`~Multigraph.indptr` / :attr:`~Multigraph.indices` list, for every node, each copy of each neighbour (a loop
  lists the node twice in its own row): the degree is the row length, and the set of the
  neighbours' degrees (H2_open) holds the node's own degree if it has a loop, as networkx's
  ``MultiGraph.neighbors`` does;
* :attr:`~Multigraph.simple` is the simple graph (loops dropped, copies merged) on which the authors
  computed the distance statistics; igraph's ``transitivity_undirected`` simplifies its
  adjacency lists first (``igraph_adjlist_simplify``), so S_CC is also the simple graph's.

Examples
--------
>>> g = Multigraph(3, [0, 0, 1, 2], [1, 1, 2, 2])
>>> g.m, g.degrees.tolist(), g.simple.m
(4, [2, 3, 3], 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from graphveil._common import index_dtype
from graphveil.graph import Graph, as_id_array

__all__ = ["Multigraph"]


class Multigraph:
    """A deterministic undirected multigraph on nodes ``0..n-1`` (see the module docstring).

    Parameters
    ----------
    n : int
        Number of nodes (isolated ones included).
    u, v : array_like of int
        One entry per edge; a pair may repeat (in either order) and ``u == v`` is a loop.

    Raises
    ------
    ValueError
        If the arrays differ in length or hold ids outside ``0..n-1``.
    TypeError
        If the ids are not integers.
    """

    __slots__ = ("_degrees", "_indices", "_indptr", "_m", "_n", "_simple", "_u", "_v")

    def __init__(self, n: int, u: Any, v: Any) -> None:
        a = as_id_array(u, "u")
        b = as_id_array(v, "v")
        if a.shape != b.shape:
            raise ValueError(f"u and v must have the same length, got {a.size} and {b.size}")
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n):
            raise ValueError(f"node ids must lie in 0..{n - 1}; pass a larger n")
        dtype = index_dtype(n)
        lo, hi = np.minimum(a, b).astype(dtype), np.maximum(a, b).astype(dtype)
        order = np.lexsort((hi, lo))
        self._n = n
        self._u, self._v = lo[order], hi[order]
        self._m = int(self._u.size)
        # every edge in both rows; a loop (u, u) twice in row u
        rows = np.concatenate([self._u, self._v])
        cols = np.concatenate([self._v, self._u])
        order = np.lexsort((cols, rows))
        self._indices = np.ascontiguousarray(cols[order], dtype=dtype)
        counts = np.bincount(rows, minlength=n)
        self._indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=self._indptr[1:])
        self._degrees = counts.astype(np.int64)
        self._simple: Graph | None = None

    @classmethod
    def from_graph(cls, graph: Graph) -> Multigraph:
        """The multigraph with the edges of a simple graph, each once."""
        u, v = graph.edges()
        return cls(graph.n, u, v)

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._n

    @property
    def m(self) -> int:
        """Number of edges: every copy of a pair and every loop (igraph's ``ecount``)."""
        return self._m

    @property
    def degrees(self) -> np.ndarray:
        """Degree of every node: a loop adds 2, every copy 1 (igraph's ``degree``)."""
        return self._degrees

    @property
    def loopless_degrees(self) -> np.ndarray:
        """Degree of every node without its loops (igraph's ``maxdegree`` reads these)."""
        loops = self._u[self._u == self._v]
        return self._degrees - 2 * np.bincount(loops, minlength=self._n)

    @property
    def indptr(self) -> np.ndarray:
        """Row offsets of :attr:`indices` (int64, ``n + 1`` entries)."""
        return self._indptr

    @property
    def indices(self) -> np.ndarray:
        """Every node's neighbours, sorted, each copy listed (a loop twice in its own row)."""
        return self._indices

    @property
    def loops(self) -> int:
        """Number of self-loops."""
        return int(np.count_nonzero(self._u == self._v))

    @property
    def simple(self) -> Graph:
        """The simple graph: loops dropped, copies of a pair merged (built on first use)."""
        if self._simple is None:
            self._simple = Graph.from_edges(self._u, self._v, self._n)
        return self._simple

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Every edge as ``(u, v)`` with ``u <= v``, sorted; copies repeated."""
        return self._u, self._v

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Multigraph):
            return NotImplemented
        return (
            self._n == other._n
            and np.array_equal(self._u, other._u)
            and np.array_equal(self._v, other._v)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Multigraph(n={self._n:,}, m={self._m:,}, loops={self.loops:,})"
