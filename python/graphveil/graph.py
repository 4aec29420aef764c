"""The deterministic graph: immutable, simple, undirected or directed, stored as CSR."""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_threads, require_undirected
from graphveil._common import aligned, index_dtype
from graphveil.interop import (
    graph_to_igraph,
    graph_to_networkit,
    graph_to_networkx,
    graph_to_pandas,
    labels_array,
    pairs_from_arrow,
    pairs_from_igraph,
    pairs_from_networkit,
    pairs_from_pandas,
    square_coo,
)

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx


@dataclass(frozen=True)
class BuildCounts:
    """What was cleaned while building a graph: nothing is dropped silently."""

    self_loops: int = 0
    """Input pairs (u, u), dropped (the node itself is kept)."""
    duplicates: int = 0
    """Input pairs merged into an earlier one: exact repeats and reversed pairs (for a directed
    graph exact repeats only: an arc and its reverse are two arcs)."""
    lines: int | None = None
    """Edge lines read from a file (:func:`graphveil.read_edgelist`) or rows of a table
    (:meth:`Graph.from_pandas`, :meth:`Graph.from_arrow`); None otherwise."""
    exact_repeats: int | None = None
    """Of the duplicates: pairs repeating an earlier ``(u, v)`` in the same direction.
    None unless counted (:func:`graphveil.read_edgelist` and the table readers count them)."""
    reversed_pairs: int | None = None
    """Of the duplicates: the rest, pairs ``(v, u)`` whose reverse ``(u, v)`` was already there
    (each undirected edge of a file listing both directions counts once); 0 for a directed graph.
    None unless counted (:func:`graphveil.read_edgelist` and the table readers count them)."""


class Graph:
    """An immutable simple graph on nodes ``0..n-1`` in CSR form, undirected or directed.

    Undirected (the default): every edge ``{u, v}`` is stored in both rows; rows are sorted.
    ``indptr`` is int64 and ``indices`` int32 while ``n < 2**31`` (int64 above). Arrays are
    read-only views. ``labels[i]`` is the original id of node ``i`` (from a file, a networkx
    graph, ...); it is kept for the caller and never written into a published output unless
    asked for.

    Directed (``directed=True``): the graph is a set of *arcs* ``u -> v`` (ordered pairs,
    ``u != v``; an arc and its reverse are two arcs, both kept). ``indptr``/``indices`` are
    the **out-CSR**: row ``u`` holds the heads ``v`` of the arcs leaving ``u``, sorted, each
    arc stored once, so ``len(indices) == m``. The **in-CSR** (:attr:`in_indptr`,
    :attr:`in_indices`: row ``v`` holds the tails ``u`` of the arcs entering ``v``, sorted) is
    the transpose, built in C++ on first use in O(n + m) and cached (never pickled).
    ``m`` counts arcs; :attr:`out_degrees` and :attr:`in_degrees` count arcs leaving and
    entering a node; :attr:`degrees` is their sum (``in + out``, as networkx's
    ``DiGraph.degree``: a reciprocal pair ``u -> v``, ``v -> u`` adds 2 to both ends).
    ``edges()`` gives the arcs sorted by ``(u, v)`` (tails ``u``, heads ``v``; ``u > v``
    occurs). :meth:`neighbors` is :meth:`successors`. For an undirected graph
    :attr:`out_degrees`, :attr:`in_degrees` and :attr:`degrees` are equal and the in-CSR is the
    CSR itself. Operations with no directed form yet (the schemes, measures and attacks) refuse
    a directed graph with a ValueError (``graphveil._checks.require_undirected``);
    :meth:`to_undirected` drops the directions.

    Build one with :meth:`from_edges`, :meth:`from_scipy`, :meth:`from_networkx`,
    :meth:`from_igraph`, :meth:`from_networkit`, :meth:`from_pandas`, :meth:`from_arrow`,
    :func:`graphveil.read_edgelist` or :func:`graphveil.read_parquet`.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> g.n, g.m, g.degrees.tolist()
    (3, 3, [2, 2, 2])
    >>> d = Graph.from_edges([0, 1, 1], [1, 0, 2], directed=True)
    >>> d.m, d.out_degrees.tolist(), d.in_degrees.tolist(), d.degrees.tolist()
    (3, [1, 2, 0], [1, 1, 1], [2, 3, 1])
    """

    __slots__ = ("_counts", "_directed", "_edges", "_in", "_indices", "_indptr", "_labels")

    def __init__(
        self,
        indptr: np.ndarray,
        indices: np.ndarray,
        labels: np.ndarray | None = None,
        counts: BuildCounts | None = None,
        *,
        validate: bool = True,
        directed: bool = False,
    ) -> None:
        indptr = np.ascontiguousarray(indptr, dtype=np.int64)
        if indptr.ndim != 1 or indptr.size == 0:
            raise ValueError("indptr must be a 1-d array of length n + 1 >= 1")
        n = indptr.size - 1
        indices = np.ascontiguousarray(indices, dtype=index_dtype(n))
        if validate:
            _validate_csr(indptr, indices, bool(directed))
        if labels is not None:
            labels = np.asarray(labels)
            if labels.shape != (n,):
                raise ValueError(
                    f"labels must have one entry per node ({n}), got shape {labels.shape}"
                )
            labels.setflags(write=False)
        indptr.setflags(write=False)
        indices.setflags(write=False)
        self._indptr = indptr
        self._indices = indices
        self._labels = labels
        self._counts = counts or BuildCounts()
        self._directed = bool(directed)
        self._edges: tuple[np.ndarray, np.ndarray] | None = None
        self._in: tuple[np.ndarray, np.ndarray] | None = None

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(
        cls,
        u: Any,
        v: Any,
        n: int | None = None,
        *,
        labels: Any = None,
        threads: int | None = None,
        directed: bool = False,
    ) -> Graph:
        """Build from two arrays of node ids in ``0..n-1``.

        Self-loops are dropped and duplicate or reversed pairs merged; both are counted in
        :attr:`build_counts`. ``n`` defaults to ``max id + 1`` (isolated nodes need an explicit n).
        With ``directed=True`` the pairs are arcs ``u[i] -> v[i]``: self-loops are dropped and
        repeated arcs merged (counted), an arc and its reverse both kept.

        Raises
        ------
        ValueError
            If the arrays differ in length, hold negative ids or ids >= n.
        TypeError
            If the ids are not integers.
        """
        u_arr = as_id_array(u, "u")
        v_arr = as_id_array(v, "v")
        if u_arr.shape != v_arr.shape:
            raise ValueError(
                f"u and v must have the same length, got {u_arr.size} and {v_arr.size}"
            )
        top = int(max(u_arr.max(initial=-1), v_arr.max(initial=-1)))
        low = int(min(u_arr.min(initial=0), v_arr.min(initial=0)))
        if low < 0:
            raise ValueError(
                f"node ids must be non-negative, found {low}; relabel ids to 0..n-1 first"
            )
        if n is None:
            n = top + 1
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        if top >= n:
            raise ValueError(f"node id {top} is out of range for n={n}; pass a larger n")
        indptr, indices, loops, dups = _core.build_csr(
            n, u_arr, v_arr, index_dtype(n), check_threads(threads), bool(directed)
        )
        counts = BuildCounts(int(loops), int(dups))
        return cls(indptr, indices, labels, counts, validate=False, directed=directed)

    @classmethod
    def from_scipy(
        cls, matrix: Any, *, as_undirected: bool = False, directed: bool = False
    ) -> Graph:
        """Build from a square scipy.sparse matrix or array (any format); nonzeros are edges.

        A non-symmetric matrix is refused unless ``as_undirected=True`` (then ``a_ij`` or
        ``a_ji`` nonzero gives edge ``{i, j}``) or ``directed=True`` (then ``a_ij`` nonzero is
        the arc ``i -> j``, the layout :meth:`to_scipy` writes). Diagonal entries are dropped
        and counted.
        """
        if directed and as_undirected:
            raise ValueError("pass directed=True or as_undirected=True, not both")
        coo = square_coo(matrix)
        rows = coo.shape[0]
        coo.eliminate_zeros()
        coo.sum_duplicates()
        if directed:
            return cls.from_edges(coo.row, coo.col, rows, directed=True)
        if not as_undirected:
            off = coo.row != coo.col
            a = sp.csr_matrix(
                (np.ones(int(off.sum()), dtype=np.int8), (coo.row[off], coo.col[off])),
                shape=coo.shape,
            )
            if (a != a.T).nnz:
                raise ValueError(
                    "adjacency matrix is not symmetric (a directed graph); pass directed=True to "
                    "read every nonzero a_ij as the arc i -> j, or as_undirected=True to read it "
                    "as the undirected edge {i, j}"
                )
            keep = coo.row <= coo.col
            return cls.from_edges(coo.row[keep], coo.col[keep], rows)
        return cls.from_edges(coo.row, coo.col, rows)

    @classmethod
    def from_networkx(cls, graph: nx.Graph, *, as_undirected: bool = False) -> Graph:
        """Build from a networkx graph; its nodes become :attr:`labels` in iteration order.

        A ``DiGraph`` (or ``MultiDiGraph``) gives a directed Graph, its edges the arcs, unless
        ``as_undirected=True`` (then directions are ignored and reversed arcs merged);
        multigraph edges are merged and self-loops dropped (both counted).

        Examples
        --------
        >>> import networkx as nx
        >>> g = Graph.from_networkx(nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")]))
        >>> g.directed, g.m, Graph.from_networkx(nx.DiGraph([(0, 1), (1, 0)]), as_undirected=True).m
        (True, 3, 1)
        """
        directed = bool(graph.is_directed()) and not as_undirected
        nodes = list(graph.nodes())
        index = {node: i for i, node in enumerate(nodes)}
        m = graph.number_of_edges()
        u = np.fromiter((index[a] for a, _ in graph.edges()), dtype=np.int64, count=m)
        v = np.fromiter((index[b] for _, b in graph.edges()), dtype=np.int64, count=m)
        labels = labels_array(nodes)
        return cls.from_edges(u, v, len(nodes), labels=labels, directed=directed)

    @classmethod
    def from_pandas(
        cls,
        df: Any,
        source: Any = "source",
        target: Any = "target",
        *,
        threads: int | None = None,
        directed: bool = False,
    ) -> Graph:
        """Build from a pandas DataFrame with one edge per row, ids of any hashable kind.

        The ids (integers, strings, ...) are mapped to ``0..n-1`` in ascending order (in order
        of first appearance when they cannot be ordered, e.g. ints mixed with strings) and kept
        as :attr:`labels`. As in :func:`graphveil.read_edgelist`, self-loops are dropped and
        repeated or reversed pairs merged (a directed table becomes undirected), all counted in
        :attr:`build_counts` (``lines`` is the number of rows). Integer ids take the reader's
        own C++ relabelling, so ``from_pandas(pandas.read_csv(f))`` equals
        ``read_edgelist(f, header=True)``. With ``directed=True`` every row is the arc
        ``source -> target``: reversed rows are kept as arcs, only exact repeats merged.

        Parameters
        ----------
        df : pandas.DataFrame
            The edge table; other columns are ignored.
        source, target : hashable
            Column names of the two ends.
        threads : int, optional
            Worker threads (None or 0: all cores).
        directed : bool, default False
            Read the rows as arcs ``source -> target``.

        Raises
        ------
        ValueError
            If a column is missing or holds missing ids (NaN, None, NA).
        TypeError
            If ``df`` is not a DataFrame or ids are unhashable.
        ImportError
            If pandas is not installed.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"source": ["bob", "ann", "ann"], "target": ["ann", "cy", "bob"]})
        >>> g = Graph.from_pandas(df)
        >>> g.n, g.m, g.labels.tolist(), g.build_counts.reversed_pairs
        (3, 2, ['ann', 'bob', 'cy'], 1)
        """
        u, v, labels = pairs_from_pandas(df, source, target, threads)
        return build_counted(u, v, labels, check_threads(threads), directed=directed)

    @classmethod
    def from_arrow(
        cls,
        table: Any,
        source: Any = "source",
        target: Any = "target",
        *,
        threads: int | None = None,
        directed: bool = False,
    ) -> Graph:
        """Build from a pyarrow Table or RecordBatch, one edge per row: as :meth:`from_pandas`.

        Raises
        ------
        ValueError
            If a column is missing or holds nulls or NaN.
        ImportError
            If pyarrow is not installed (``pip install "graphveil[parquet]"``).

        Examples
        --------
        >>> import pyarrow as pa
        >>> t = pa.table({"a": [10, 20, 20], "b": [20, 30, 10]})
        >>> g = Graph.from_arrow(t, "a", "b")
        >>> g.m, g.labels.tolist()
        (2, [10, 20, 30])
        """
        u, v, labels = pairs_from_arrow(table, source, target, threads)
        return build_counted(u, v, labels, check_threads(threads), directed=directed)

    @classmethod
    def from_igraph(cls, graph: Any, *, as_undirected: bool = False) -> Graph:
        """Build from an ``igraph.Graph``; its vertex attribute ``name``, if any, gives :attr:`labels`.

        A directed graph gives a directed Graph unless ``as_undirected=True`` (directions
        ignored); multi-edges are merged and self-loops dropped (both counted).

        Examples
        --------
        >>> import igraph as ig
        >>> Graph.from_igraph(ig.Graph.Ring(5)).m
        5
        >>> Graph.from_igraph(ig.Graph(edges=[(0, 1), (1, 0)], directed=True)).m
        2
        """
        u, v, n, labels, directed = pairs_from_igraph(graph, as_undirected)
        return cls.from_edges(u, v, n, labels=labels, directed=directed)

    @classmethod
    def from_networkit(cls, graph: Any, *, as_undirected: bool = False) -> Graph:
        """Build from a ``networkit.Graph``; edge weights are ignored.

        Node ids are kept when they are ``0..n-1``. After node deletions (ids with gaps), the
        present nodes are numbered in ascending id order and their networkit ids kept as
        :attr:`labels`. A directed graph gives a directed Graph unless ``as_undirected=True``
        (directions ignored); multi-edges are merged and self-loops dropped (both counted).

        Raises
        ------
        TypeError
            If ``graph`` is not a networkit graph.
        ImportError
            If networkit is not installed (``pip install "networkit>=11"``).

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], 4)
        >>> Graph.from_networkit(g.to_networkit()) == g
        True
        """
        u, v, n, labels, directed = pairs_from_networkit(graph, as_undirected)
        return cls.from_edges(u, v, n, labels=labels, directed=directed)

    # ------------------------------------------------------------------ properties
    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._indptr.size - 1

    @property
    def m(self) -> int:
        """Number of edges (undirected) or arcs (directed)."""
        return self._indices.size if self._directed else self._indices.size // 2

    @property
    def directed(self) -> bool:
        """Whether the graph is directed (its pairs are arcs ``u -> v``)."""
        return self._directed

    def is_directed(self) -> bool:
        """:attr:`directed`, networkx's and igraph's spelling."""
        return self._directed

    @property
    def indptr(self) -> np.ndarray:
        """CSR row offsets, int64, length n + 1 (read-only); the out-CSR of a directed graph."""
        return self._indptr

    @property
    def indices(self) -> np.ndarray:
        """CSR neighbour ids, each row sorted (read-only): length 2m, or m heads (out-CSR) if directed."""
        return self._indices

    @property
    def in_indptr(self) -> np.ndarray:
        """Row offsets of the in-CSR (the transpose; :attr:`indptr` for an undirected graph)."""
        return self._in_csr()[0]

    @property
    def in_indices(self) -> np.ndarray:
        """Tails of the arcs entering each node, rows sorted (:attr:`indices` if undirected)."""
        return self._in_csr()[1]

    def _in_csr(self) -> tuple[np.ndarray, np.ndarray]:
        if not self._directed:
            return self._indptr, self._indices
        if self._in is None:
            indptr, indices = _core.csr_transpose(self._indptr, self._indices)
            indptr.setflags(write=False)
            indices.setflags(write=False)
            self._in = (indptr, indices)
        return self._in

    @property
    def degrees(self) -> np.ndarray:
        """Degree of every node (int64); for a directed graph in-degree + out-degree."""
        if self._directed:
            return self.out_degrees + self.in_degrees
        return np.diff(self._indptr)

    @property
    def out_degrees(self) -> np.ndarray:
        """Arcs leaving every node (int64); the degrees of an undirected graph."""
        return np.diff(self._indptr)

    @property
    def in_degrees(self) -> np.ndarray:
        """Arcs entering every node (int64); the degrees of an undirected graph."""
        if not self._directed:
            return np.diff(self._indptr)
        if self._in is not None:
            return np.diff(self._in[0])
        return np.bincount(self._indices, minlength=self.n).astype(np.int64, copy=False)

    @property
    def labels(self) -> np.ndarray:
        """Original id of every node (``arange(n)`` when none were given)."""
        if self._labels is None:
            return np.arange(self.n, dtype=np.int64)
        return self._labels

    @property
    def has_labels(self) -> bool:
        """Whether original ids other than ``0..n-1`` were given."""
        return self._labels is not None

    @property
    def build_counts(self) -> BuildCounts:
        """Self-loops dropped and duplicate pairs merged while building this graph."""
        return self._counts

    def neighbors(self, node: int) -> np.ndarray:
        """Sorted neighbours of ``node`` (a read-only view); :meth:`successors` if directed."""
        if not 0 <= node < self.n:
            raise IndexError(f"node {node} out of range for a graph on {self.n} nodes")
        return self._indices[self._indptr[node] : self._indptr[node + 1]]

    def successors(self, node: int) -> np.ndarray:
        """Heads ``v`` of the arcs ``node -> v``, sorted (the neighbours if undirected)."""
        return self.neighbors(node)

    def predecessors(self, node: int) -> np.ndarray:
        """Tails ``u`` of the arcs ``u -> node``, sorted (the neighbours if undirected)."""
        if not 0 <= node < self.n:
            raise IndexError(f"node {node} out of range for a graph on {self.n} nodes")
        indptr, indices = self._in_csr()
        return indices[indptr[node] : indptr[node + 1]]

    def to_undirected(self) -> Graph:
        """The undirected graph of the arcs with directions dropped (reciprocal arcs merged).

        An undirected graph returns itself. Labels are kept; the merged reverse arcs are counted
        in the result's :attr:`build_counts` (``duplicates``).

        Examples
        --------
        >>> Graph.from_edges([0, 1, 1], [1, 0, 2], directed=True).to_undirected().m
        2
        """
        if not self._directed:
            return self
        u, v = self._edge_arrays()
        return Graph.from_edges(u, v, self.n, labels=self._labels)

    @property
    def edges(self) -> EdgeView:
        """The edges: call it for arrays, iterate it for pairs (see :class:`~graphveil.graph.EdgeView`).

        ``u, v = g.edges()`` gives the canonical edge arrays (``u < v``, sorted by ``(u, v)``,
        read-only, computed once; for a directed graph the arcs ``u -> v`` sorted by ``(u, v)``,
        ``v`` being :attr:`indices` itself); ``for u, v in g.edges:`` yields the same edges as pairs of
        ints, as networkx's ``G.edges`` does; ``len(g.edges) == g.m``; ``(u, v) in g.edges``.

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2])
        >>> u, v = g.edges()
        >>> u.tolist(), v.tolist()
        ([0, 1], [1, 2])
        >>> [(a, b) for a, b in g.edges], len(g.edges), (2, 1) in g.edges
        ([(0, 1), (1, 2)], 2, True)
        """
        return EdgeView(self)

    def _edge_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._edges is None:
            if self._directed:
                # every out-CSR entry is one arc: tails repeat the row, heads are the entries
                u = np.repeat(np.arange(self.n, dtype=self._indices.dtype), self.out_degrees)
                v = self._indices
            else:
                u, v = _core.csr_edges(self._indptr, self._indices)
            u.setflags(write=False)
            v.setflags(write=False)
            self._edges = (u, v)
        return self._edges

    # ------------------------------------------------------------------ conversions
    def to_scipy(
        self, *, dtype: Any = np.float64, array: bool = True
    ) -> sp.csr_array | sp.csr_matrix:
        """Adjacency as ``scipy.sparse.csr_array`` (or ``csr_matrix``), sharing indices.

        Symmetric for an undirected graph; for a directed one entry ``(u, v)`` is 1 for the arc
        ``u -> v`` (row sums are out-degrees).
        """
        data = np.ones(self._indices.size, dtype=dtype)
        cls = sp.csr_array if array else sp.csr_matrix
        return cls((data, self._indices, self._indptr), shape=(self.n, self.n))

    def to_networkx(self, *, use_labels: bool = False) -> nx.Graph:
        """A ``networkx.Graph`` (``DiGraph`` if directed); nodes ``0..n-1``, or the labels if asked.

        Raises
        ------
        ImportError
            If networkx is not installed (``pip install networkx``).

        Examples
        --------
        >>> g = Graph.from_edges([0], [1], 3, labels=["a", "b", "c"])
        >>> sorted(g.to_networkx(use_labels=True).nodes())
        ['a', 'b', 'c']
        """
        return graph_to_networkx(self, use_labels)

    def to_pandas(self, *, use_labels: bool = False) -> Any:
        """A ``pandas.DataFrame`` with one row per edge, columns ``source`` and ``target``.

        Ids are ``0..n-1`` (``u < v``, sorted; for a directed graph one row per arc
        ``source -> target``, sorted), or the original labels if asked; the table
        :meth:`from_pandas` reads. An edge table has no row for an isolated node, so those are
        lost: keep ``n`` (and the labels) beside it, or use :func:`graphveil.write_parquet`,
        which keeps both.

        Raises
        ------
        ImportError
            If pandas is not installed (``pip install pandas``).

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], labels=[10, 20, 30])
        >>> g.to_pandas(use_labels=True).values.tolist()
        [[10, 20], [20, 30]]
        >>> Graph.from_pandas(g.to_pandas(use_labels=True)).labels.tolist()
        [10, 20, 30]
        """
        return graph_to_pandas(self, use_labels)

    def to_igraph(self, *, use_labels: bool = False) -> Any:
        """An ``igraph.Graph`` on vertices ``0..n-1``, directed if this graph is.

        The labels become the vertex attribute ``name`` if asked.

        Examples
        --------
        >>> Graph.from_edges([0, 1], [1, 2]).to_igraph().get_edgelist()
        [(0, 1), (1, 2)]
        """
        return graph_to_igraph(self, use_labels)

    def to_networkit(self) -> Any:
        """An unweighted ``networkit.Graph`` on nodes ``0..n-1``, directed if this graph is.

        Examples
        --------
        >>> Graph.from_edges([0, 1], [1, 2], 4).to_networkit().numberOfEdges()
        2
        """
        return graph_to_networkit(self)

    def subgraph(self, nodes: Any) -> Graph:
        """The subgraph induced by ``nodes`` (relabelled 0..len(nodes)-1 in the given order)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        if nodes.size and (nodes.min() < 0 or nodes.max() >= self.n):
            raise IndexError(f"subgraph nodes must lie in 0..{self.n - 1}")
        if np.unique(nodes).size != nodes.size:
            raise ValueError("subgraph nodes must be distinct")
        a = self.to_scipy(dtype=np.int8)[nodes][:, nodes].tocsr()
        a.sort_indices()
        labels = self.labels[nodes] if self._labels is not None else None
        return Graph(a.indptr, a.indices, labels, validate=False, directed=self._directed)

    # ------------------------------------------------------------------ dunder
    # The container conventions of networkx: a graph is the collection of its nodes, which are
    # the ids 0..n-1 (labels are the caller's names for them, looked up through g.labels).
    def __len__(self) -> int:
        """The number of nodes, ``n`` (so an empty graph is falsy, as in networkx)."""
        return self.n

    def __iter__(self) -> Iterator[int]:
        """The nodes ``0, 1, ..., n - 1`` as ints."""
        return iter(range(self.n))

    def __contains__(self, node: object) -> bool:
        """Whether ``node`` is a node id ``0 <= node < n`` (an integer, not a label)."""
        if isinstance(node, (bool, np.bool_)) or not isinstance(node, numbers.Integral):
            return False
        return 0 <= int(node) < self.n

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return (
            self.n == other.n
            and self._directed == other._directed
            and np.array_equal(self._indptr, other._indptr)
            and np.array_equal(self._indices, other._indices)
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> tuple[Any, ...]:
        # The edge arrays and the in-CSR are caches as large as the CSR: rebuilt on demand,
        # never shipped (a graph is an argument of every task on an executor).
        return (self._indptr, self._indices, self._labels, self._counts, self._directed)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        if len(state) == 4:  # pickled before graphs had a direction
            state = (*state, False)
        self._indptr, self._indices, self._labels, self._counts = map(aligned, state[:4])
        self._directed = bool(state[4])
        self._edges = None
        self._in = None

    def __repr__(self) -> str:
        kind = ", directed" if self._directed else ""
        return f"Graph(n={self.n:,}, m={self.m:,}{kind})"


class EdgeView:
    """A graph's edges, as arrays for numpy users and as pairs for networkx users.

    ``view()`` returns the canonical edge arrays ``(u, v)`` (``u < v``, sorted by ``(u, v)``,
    read-only; cached on the graph; a directed graph's arcs sorted by ``(u, v)``), so ``u, v = g.edges()`` costs nothing after the first call.
    Iterating the view itself yields every edge once as a pair of ints in the same order:
    ``for u, v in g.edges:`` (no call), networkx's spelling. ``for u, v in g.edges():`` does not
    work: the call returns the two arrays, so the loop would unpack each array; one object
    cannot be unpacked both as two arrays and as m pairs. ``len(view)`` is ``m``;
    ``(u, v) in view`` tests an edge in ``O(log degree)``.
    """

    __slots__ = ("_graph",)

    def __init__(self, graph: Graph) -> None:
        self._graph = graph

    def __call__(self) -> tuple[np.ndarray, np.ndarray]:
        """The edge arrays ``(u, v)``."""
        return self._graph._edge_arrays()

    def __iter__(self) -> Iterator[tuple[int, int]]:
        u, v = self._graph._edge_arrays()
        block = 1 << 16  # pairs converted to Python ints a block at a time, not all at once
        for start in range(0, u.size, block):
            yield from zip(u[start : start + block].tolist(), v[start : start + block].tolist())

    def __len__(self) -> int:
        return self._graph.m

    def __contains__(self, edge: object) -> bool:
        a: object
        b: object
        try:
            a, b = edge  # type: ignore[misc]
        except (TypeError, ValueError):
            return False
        graph = self._graph
        if not isinstance(a, numbers.Integral) or not isinstance(b, numbers.Integral):
            return False
        if a not in graph or b not in graph:  # also refuses bools
            return False
        row = graph.neighbors(int(a))
        i = int(np.searchsorted(row, int(b)))
        return i < row.size and int(row[i]) == int(b)

    def __repr__(self) -> str:
        return f"EdgeView(m={self._graph.m:,})"


def build_counted(
    u: np.ndarray, v: np.ndarray, labels: Any, nthreads: int, *, directed: bool = False
) -> Graph:
    """The graph on pairs already relabelled to ``0..len(labels)-1`` (int64 arrays).

    Every cleaning is counted: self-loops, exact repeats, reversed pairs (the one home of these counts,
    for files and tables alike). ``lines`` is the number of input pairs. With ``directed=True``
    the pairs are arcs: the merged duplicates are all exact repeats, ``reversed_pairs`` is 0.
    """
    n = len(labels)
    if directed:
        indptr, indices, loops, dups = _core.build_csr(
            n, u, v, index_dtype(n), nthreads, directed=True
        )
        counts = BuildCounts(
            self_loops=int(loops),
            duplicates=int(dups),
            lines=int(u.size),
            exact_repeats=int(dups),
            reversed_pairs=0,
        )
        return Graph(indptr, indices, labels, counts, validate=False, directed=True)
    directed_pairs = _core.count_directed_pairs(n, u, v, nthreads)
    indptr, indices, loops, dups = _core.build_csr(n, u, v, index_dtype(n), nthreads)
    pairs = int(u.size)
    m = indices.size // 2
    counts = BuildCounts(
        self_loops=int(loops),
        duplicates=int(dups),
        lines=pairs,
        exact_repeats=pairs - int(loops) - int(directed_pairs),
        reversed_pairs=int(directed_pairs) - m,
    )
    return Graph(indptr, indices, labels, counts, validate=False)


def as_id_array(values: Any, name: str) -> np.ndarray:
    """``values`` as a 1-d int64 array of node ids, checked (the edge endpoints' check)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of node ids, got shape {arr.shape}")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer node ids, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.size and arr.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds ids above 2**63-1; relabel them first")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _validate_csr(indptr: np.ndarray, indices: np.ndarray, directed: bool = False) -> None:
    n = indptr.size - 1
    if indptr[0] != 0 or indptr[-1] != indices.size or np.any(np.diff(indptr) < 0):
        raise ValueError("indptr must start at 0, be non-decreasing and end at len(indices)")
    if not directed and indices.size % 2:
        raise ValueError(
            "an undirected CSR stores every edge twice: len(indices) must be even "
            "(pass directed=True for the out-CSR of a directed graph)"
        )
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise ValueError(f"indices must lie in 0..{n - 1}")
    a = sp.csr_matrix((np.ones(indices.size, dtype=np.int8), indices, indptr), shape=(n, n))
    if not a.has_sorted_indices or a.diagonal().any():
        raise ValueError("rows must be sorted with no self-loops")
    stored = a.nnz
    a.sum_duplicates()
    if a.nnz != stored:
        raise ValueError("rows must not repeat a neighbour")
    if not directed and (a != a.T).nnz:
        raise ValueError(
            "adjacency must be symmetric: every edge stored in both rows "
            "(pass directed=True for the out-CSR of a directed graph)"
        )


def check_graph(
    graph: Any, name: str = "graph", *, what: str | None = "this scheme", directed: bool = False
) -> Any:
    """``graph``, checked to be a :class:`~graphveil.Graph` (the input of ``what``).

    TypeError naming ``name`` for anything else. A directed graph is refused too
    (:func:`require_undirected`) unless ``directed`` (``what`` has a directed form: its
    registry record says ``directed=True``) or ``what`` is None (the caller takes both).
    """
    if not isinstance(graph, Graph):
        raise TypeError(
            f"{name} must be a graphveil.Graph, not {type(graph).__name__}; build one with "
            "Graph.from_edges / from_scipy / from_networkx"
        )
    if what is not None and not directed:
        require_undirected(graph, what)
    return graph
