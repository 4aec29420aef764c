"""Bridges to the libraries users hold: pandas, pyarrow, networkx, igraph, networkit, scipy.

The conversion code behind :meth:`Graph.from_pandas`, :meth:`Graph.from_arrow`,
:meth:`Graph.from_igraph`, :meth:`Graph.from_networkit`, :meth:`Graph.to_igraph`,
:meth:`Graph.to_networkit`, :meth:`Graph.to_networkx`, :meth:`Graph.to_pandas`,
:meth:`UncertainGraph.to_pandas`, :meth:`UncertainGraph.to_networkx`,
:meth:`UncertainGraph.to_igraph`, :meth:`UncertainGraph.from_networkx`,
:meth:`UncertainGraph.from_igraph` and :meth:`UncertainGraph.from_scipy`; the classes delegate
here. Every library is imported lazily, when a conversion needs it; a missing one raises an
ImportError naming the pip install that brings it.

This module sits below the graph classes: it turns the libraries' objects into arrays (and the
classes build themselves from those) and reads the classes' arrays, but never imports them.
In-memory conversions keep node ids ``0..n-1`` as they are (the caller holds the graph
already). Files, GraphML included, are :mod:`graphveil.io`'s.
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_threads

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.graph import Graph
    from graphveil.uncertain import UncertainGraph

#: pip install that provides each optional module (one home for the hint).
_INSTALL = {
    "pandas": "pandas",
    "pyarrow": '"graphveil[parquet]"',
    "osqp": '"graphveil[osqp]"',
    "networkx": "networkx",
    "igraph": "igraph",
    "networkit": '"networkit>=11"',
}


def require(module: str) -> ModuleType:
    """Import an optional library, or raise an ImportError saying how to install it."""
    try:
        with warnings.catch_warnings():
            # a library's own import-time deprecations (networkit imports IPython's) are not the
            # user's to act on
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(
            f"this needs {module}, which is not installed: pip install {_INSTALL[module]}"
        ) from err


# ---------------------------------------------------------------------- tables -> Graph
# Relabelled pairs of a table: int64 ``u``, ``v`` in ``0..len(labels)-1``, and the labels.
Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]


def pairs_from_pandas(df: Any, source: Any, target: Any, threads: int | None) -> Pairs:
    """The pairs behind :meth:`Graph.from_pandas`."""
    pd = require("pandas")
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas.DataFrame, got {type(df).__name__}")
    columns = []
    for role, name in (("source", source), ("target", target)):
        _check_column(name, list(df.columns), role)
        col = df[name]
        if isinstance(col, pd.DataFrame):
            raise ValueError(f"the table has several columns named {name!r}; rename them")  # noqa: TRY004 (a table, not a type, is wrong)
        missing = col.isna().to_numpy()
        if missing.any():
            _refuse_missing(name, int(np.flatnonzero(missing)[0]), int(missing.sum()))
        if pd.api.types.is_integer_dtype(col.dtype) and not pd.api.types.is_unsigned_integer_dtype(
            col.dtype
        ):
            columns.append(col.to_numpy(dtype=np.int64))  # also nullable Int64 without NA
        else:
            columns.append(col.to_numpy())
    return pairs_from_columns(columns[0], columns[1], (source, target), threads)


def pairs_from_arrow(table: Any, source: Any, target: Any, threads: int | None) -> Pairs:
    """The pairs behind :meth:`Graph.from_arrow`."""
    pa = require("pyarrow")
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        raise TypeError(f"expected a pyarrow.Table or RecordBatch, got {type(table).__name__}")
    columns = []
    for role, name in (("source", source), ("target", target)):
        _check_column(name, table.column_names, role)
        if table.column_names.count(name) > 1:
            raise ValueError(f"the table has several columns named {name!r}; rename them")
        col = table.column(name)
        if col.null_count:
            missing = np.asarray(col.is_null())
            _refuse_missing(name, int(np.flatnonzero(missing)[0]), int(col.null_count))
        if pa.types.is_dictionary(col.type):
            col = col.cast(col.type.value_type)
        columns.append(np.asarray(col.to_numpy(zero_copy_only=False)))
    return pairs_from_columns(columns[0], columns[1], (source, target), threads)


def pairs_from_columns(
    src: np.ndarray, dst: np.ndarray, names: tuple[Any, Any], threads: int | None
) -> Pairs:
    """The pairs ``(src[i], dst[i])`` of any hashable ids, relabelled to ``0..n-1``.

    Integer ids take the path of :func:`graphveil.read_edgelist` (the parallel C++ relabelling,
    ascending order of the original id). Other ids are ranked in ascending order when they
    can be ordered, else in order of first appearance. :func:`graphveil.graph.build_counted`
    builds the graph, counted as a file is.
    """
    nthreads = check_threads(threads)
    if src.shape != dst.shape or src.ndim != 1:
        raise ValueError(f"columns {names[0]!r} and {names[1]!r} must be 1-d and of one length")
    for name, col in zip(names, (src, dst)):
        if col.dtype.kind == "f" and np.isnan(col).any():
            _refuse_missing(name, int(np.flatnonzero(np.isnan(col))[0]), int(np.isnan(col).sum()))
        if col.dtype.kind == "u" and col.size and col.max() > np.iinfo(np.int64).max:
            raise ValueError(f"column {name!r} holds ids above 2**63-1; relabel them first")
    if src.dtype.kind in "iu" and dst.dtype.kind in "iu":
        u = np.array(src, dtype=np.int64)  # copies: relabel_ascending rewrites them in place
        v = np.array(dst, dtype=np.int64)
        labels = _core.relabel_ascending(u, v, np.zeros(0, dtype=np.int64), nthreads)
    else:
        codes, labels = _factorize(np.concatenate([_as_ids(src), _as_ids(dst)]))
        u, v = codes[: src.size], codes[src.size :]
        u, v = np.ascontiguousarray(u), np.ascontiguousarray(v)
    return u, v, labels


def _as_ids(col: np.ndarray) -> np.ndarray:
    # mixed kinds (int and str columns) concatenate into one object array, not into strings
    return col if col.dtype.kind in "OUS" else col.astype(object)


def _factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``0..k-1`` for the distinct values (ascending if orderable) and the values.

    Hashing first (pandas' hash table when installed, else a dict), then sorting only the
    distinct values: sorting all 2m Python objects is ~10x slower.
    """
    try:
        import pandas as pd
    except ImportError:
        pd = None
    try:
        if pd is not None:
            codes, firsts = pd.factorize(values, sort=False, use_na_sentinel=False)
            uniques = labels_array(list(firsts))
        else:
            index: dict[Any, int] = {}
            codes = np.fromiter(
                (index.setdefault(x, len(index)) for x in values.tolist()),
                dtype=np.int64,
                count=values.size,
            )
            uniques = labels_array(list(index))
    except TypeError as err:
        raise TypeError(f"node ids must be hashable: {err}") from None
    try:
        order = np.argsort(uniques, kind="stable")
    except TypeError:  # ids of kinds that cannot be compared, e.g. int and str
        return np.asarray(codes, dtype=np.int64), uniques
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size, dtype=np.int64)
    return rank[codes], uniques[order]


def _check_column(name: Any, columns: list[Any], role: str) -> None:
    if name not in columns:
        raise ValueError(
            f"no column {name!r} in the table (its columns: {list(columns)}); "
            f"pass {role}= naming the column of {role} node ids"
        )


def _refuse_missing(name: Any, first: int, count: int) -> None:
    raise ValueError(
        f"column {name!r} has {count} missing id(s) (NaN/None/null), the first at row {first}; "
        "drop those rows (e.g. df.dropna()) or fill them in"
    )


# ---------------------------------------------------------------------- igraph, networkit
def pairs_from_igraph(
    graph: Any, as_undirected: bool
) -> tuple[np.ndarray, np.ndarray, int, Any, bool]:
    """The edges ``(u, v)``, node count, labels (None without names) of an igraph graph.

    The last item says whether the graph to build is directed (a directed igraph graph, unless
    ``as_undirected``).
    """
    ig = require("igraph")
    if not isinstance(graph, ig.Graph):
        raise TypeError(f"expected an igraph.Graph, got {type(graph).__name__}")
    pairs = np.array(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    labels = None
    if "name" in graph.vs.attributes():
        labels = labels_array(graph.vs["name"])
    directed = bool(graph.is_directed()) and not as_undirected
    return pairs[:, 0], pairs[:, 1], graph.vcount(), labels, directed


def graph_to_igraph(graph: Graph, use_labels: bool) -> Any:
    """:meth:`Graph.to_igraph`."""
    ig = require("igraph")
    u, v = graph.edges()
    out = ig.Graph(n=graph.n, edges=np.column_stack((u, v)), directed=graph.directed)
    if use_labels:
        out.vs["name"] = graph.labels.tolist()
    return out


def graph_to_networkit(graph: Graph) -> Any:
    """:meth:`Graph.to_networkit`."""
    nk = require("networkit")
    out = nk.Graph(graph.n, weighted=False, directed=graph.directed)
    if not hasattr(out, "addEdges"):  # added in networkit 11
        raise ImportError(
            f"this needs networkit 11 or newer (found {getattr(nk, '__version__', '?')}): "
            f"pip install --upgrade {_INSTALL['networkit']}"
        )
    u, v = graph.edges()
    if u.size:
        out.addEdges((u.astype(np.uint64), v.astype(np.uint64)))
    return out


def pairs_from_networkit(
    graph: Any, as_undirected: bool
) -> tuple[np.ndarray, np.ndarray, int, Any, bool]:
    """The edges ``(u, v)``, node count, labels of a networkit graph: :meth:`Graph.from_networkit`.

    The last item says whether the graph to build is directed (a directed networkit graph,
    unless ``as_undirected``). Nodes keep their ids when they are ``0..n-1``; after node deletions (ids with gaps) the
    present nodes are numbered ``0..n-1`` in ascending id order and their networkit ids become
    the labels (None otherwise). Edge weights are ignored.
    """
    nk = require("networkit")
    if not isinstance(graph, nk.Graph):
        raise TypeError(f"expected a networkit.Graph, got {type(graph).__name__}")
    directed = bool(graph.isDirected()) and not as_undirected
    pairs = np.array(list(graph.iterEdges()), dtype=np.int64).reshape(-1, 2)
    n = graph.numberOfNodes()
    if n == graph.upperNodeIdBound():
        return pairs[:, 0], pairs[:, 1], n, None, directed
    present = np.array(sorted(graph.iterNodes()), dtype=np.int64)
    rank = np.searchsorted(present, pairs)
    return rank[:, 0], rank[:, 1], n, present, directed


def graph_to_networkx(graph: Graph, use_labels: bool) -> Any:
    """:meth:`Graph.to_networkx`."""
    nx = require("networkx")
    out = nx.DiGraph() if graph.directed else nx.Graph()
    u, v = graph.edges()
    if use_labels:
        lab = graph.labels
        out.add_nodes_from(lab.tolist())
        out.add_edges_from(zip(lab[u].tolist(), lab[v].tolist()))
    else:
        out.add_nodes_from(range(graph.n))
        out.add_edges_from(zip(u.tolist(), v.tolist()))
    return out


def graph_to_pandas(graph: Graph, use_labels: bool) -> Any:
    """:meth:`Graph.to_pandas`."""
    pd = require("pandas")
    u, v = graph.edges()
    if use_labels:
        lab = graph.labels
        return pd.DataFrame({"source": lab[u], "target": lab[v]})
    return pd.DataFrame(
        {"source": np.array(u, dtype=np.int64), "target": np.array(v, dtype=np.int64)}
    )


# ---------------------------------------------------------------------- -> UncertainGraph
def uncertain_pairs_from_networkx(
    graph: Any, p: Any
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(n, u, v, p)`` of a networkx graph with probability attribute ``p``.

    The nodes become ``0..n-1`` in iteration order (an uncertain graph holds no labels); every
    edge (each copy of a multigraph's) is a pair, its attribute ``p`` the probability; an arc
    ``a -> b`` of a directed graph is the ordered pair ``(a, b)``.
    """
    if not (hasattr(graph, "is_directed") and hasattr(graph, "edges")):
        raise TypeError(f"expected a networkx graph, got {type(graph).__name__}")
    index = {node: i for i, node in enumerate(graph.nodes())}
    u, v, q = [], [], []
    for a, b, data in graph.edges(data=True):
        if p not in data:
            raise ValueError(
                f"edge ({a!r}, {b!r}) has no attribute {p!r}; pass p= naming the edge attribute "
                f"that holds the probability (its attributes: {sorted(map(str, data))})"
            )
        u.append(index[a])
        v.append(index[b])
        q.append(data[p])
    return (
        len(index),
        np.array(u, dtype=np.int64),
        np.array(v, dtype=np.int64),
        _probabilities(q, p),
    )


def uncertain_pairs_from_igraph(
    graph: Any, p: Any
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(n, u, v, p)`` of an igraph graph with the edge attribute ``p``.

    Vertex ids are kept as they are; an arc of a directed graph is an ordered pair.
    """
    ig = require("igraph")
    if not isinstance(graph, ig.Graph):
        raise TypeError(f"expected an igraph.Graph, got {type(graph).__name__}")
    if graph.ecount() and p not in graph.es.attributes():
        raise ValueError(
            f"the graph has no edge attribute {p!r}; pass p= naming the edge attribute that holds "
            f"the probability (its edge attributes: {graph.es.attributes()})"
        )
    pairs = np.array(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    q = graph.es[p] if graph.ecount() else []
    return graph.vcount(), pairs[:, 0], pairs[:, 1], _probabilities(q, p)


def _probabilities(values: list[Any], name: Any) -> np.ndarray:
    try:
        return np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        bad = next(x for x in values if not isinstance(x, (int, float, np.number)))
        raise TypeError(f"edge attribute {name!r} must hold numbers, found {bad!r}") from None


# ---------------------------------------------------------------------- UncertainGraph out
def uncertain_to_pandas(ug: UncertainGraph) -> Any:
    """:meth:`UncertainGraph.to_pandas`."""
    pd = require("pandas")
    return pd.DataFrame({"u": ug.u, "v": ug.v, "p": ug.p})


def uncertain_to_networkx(ug: UncertainGraph) -> Any:
    """:meth:`UncertainGraph.to_networkx`."""
    nx = require("networkx")
    if ug.directed:
        out = nx.MultiDiGraph() if ug.relaxed else nx.DiGraph()
    else:
        out = nx.MultiGraph() if ug.relaxed else nx.Graph()
    out.add_nodes_from(range(ug.n))
    out.add_weighted_edges_from(zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist()), weight="p")
    return out


def uncertain_to_igraph(ug: UncertainGraph) -> Any:
    """:meth:`UncertainGraph.to_igraph`."""
    ig = require("igraph")
    return ig.Graph(
        n=ug.n,
        edges=np.column_stack((ug.u, ug.v)),
        directed=ug.directed,
        edge_attrs={"p": ug.p.tolist()},
    )


# ---------------------------------------------------------------------- scipy -> UncertainGraph
def pairs_from_scipy(
    matrix: Any, relaxed: bool, directed: bool = False
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(n, u, v, p)`` of a symmetric matrix of probabilities: :meth:`UncertainGraph.from_scipy`.

    With ``directed``, of any square matrix: every stored entry is an arc (the constructor checks
    the probabilities and loops).
    """
    coo = square_coo(matrix)
    coo.sum_duplicates()  # explicit zeros stay: a stored 0 is a pair with p = 0
    if directed:
        return coo.shape[0], coo.row, coo.col, np.asarray(coo.data, dtype=np.float64)
    data = np.asarray(coo.data, dtype=np.float64)
    # A self-loop adds 2p to the diagonal (UncertainGraph.to_scipy, Theorem 3.1): read p = M_ii / 2.
    data = np.where(coo.row == coo.col, data / 2.0, data)
    bad = ~((data >= 0.0) & (data <= 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"probabilities must lie in [0, 1] (diagonal entries, 2p, in [0, 2]): entry "
            f"({int(coo.row[i])}, {int(coo.col[i])}) is {float(coo.data[i])!r} ({int(bad.sum())} "
            "such entries); a matrix of repeated pairs (sums above 1) cannot be read back"
        )
    asym = sp.csr_matrix((data, (coo.row, coo.col)), shape=coo.shape)
    diff = abs(asym - asym.T).tocoo()
    diff.eliminate_zeros()
    if diff.nnz:
        i = int(np.argmax(diff.data))
        a, b = sorted((int(diff.row[i]), int(diff.col[i])))
        raise ValueError(
            f"the matrix is not symmetric: entries ({a}, {b}) and ({b}, {a}) differ by "
            f"{float(diff.data[i])!r} ({diff.nnz // 2} such pairs); an uncertain graph is "
            "undirected, so pass (M + M.T) / 2 or a symmetric matrix"
        )
    loops = coo.row == coo.col
    if loops.any() and not relaxed:
        i = int(np.flatnonzero(loops)[0])
        raise ValueError(
            f"diagonal entry ({int(coo.row[i])}, {int(coo.row[i])}) is a self-loop, not allowed "
            "in the strict model; zero the diagonal (M.setdiag(0); M.eliminate_zeros()) or "
            "pass relaxed=True"
        )
    keep = coo.row <= coo.col
    return coo.shape[0], coo.row[keep], coo.col[keep], data[keep]


# ---------------------------------------------------------------------- shared with graph.py
def square_coo(matrix: Any) -> sp.coo_matrix:
    """A square scipy.sparse matrix or array (any format) as a fresh COO matrix."""
    if not sp.issparse(matrix):
        raise TypeError(f"expected a scipy.sparse matrix or array, got {type(matrix).__name__}")
    rows, cols = matrix.shape
    if rows != cols:
        raise ValueError(f"adjacency matrix must be square, got shape {matrix.shape}")
    return sp.coo_matrix(matrix, copy=True)


def labels_array(nodes: list[Any]) -> np.ndarray:
    """Labels as an int or str array when all are of that kind, else an object array.

    Mixed kinds stay objects: numpy would turn ``["a", 3]`` into ``["a", "3"]`` and
    ``[True, 2]`` into ``[1, 2]``, changing the caller's ids.
    """
    kinds = set(map(type, nodes))
    ints = all(
        issubclass(k, (int, np.integer)) and not issubclass(k, (bool, np.bool_)) for k in kinds
    )
    if ints or kinds == {str}:
        try:
            arr = np.asarray(nodes, dtype=np.int64 if ints else None)
        except (OverflowError, ValueError):
            pass
        else:
            if arr.ndim == 1:
                return arr
    arr = np.empty(len(nodes), dtype=object)
    arr[:] = nodes
    return arr
