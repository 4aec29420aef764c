"""Splitting a graph into METIS parts: the one parts path of MaxVar and Partition.

:func:`metis_parts` labels every node with its part; :func:`split_parts` groups the nodes by
part in one O(n + m) C++ pass and returns a :class:`PartLayout` (every part's induced subgraph
in local ids, and the cut edges); :func:`part_seed` is the seed of a part's own random stream.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_int
from graphveil._common import SeedLike, check_threads
from graphveil._seeds import metis_seed as _metis_seed
from graphveil._seeds import part_seed  # noqa: F401  (public here: the parts' seed)
from graphveil.graph import Graph


def _metis_dtype() -> np.dtype:
    """The index dtype of the METIS that pymetis was built against (zero-copy hand-off)."""
    import pymetis

    if hasattr(pymetis, "zero_copy_dtype"):
        return np.dtype(pymetis.zero_copy_dtype())
    return np.dtype(np.int32)  # pragma: no cover - pymetis < 2023.1.1 was built with 32-bit idx_t


def metis_parts(
    graph: Graph, parts: int, seed: SeedLike = None, *, options: dict[str, int] | None = None
) -> np.ndarray:
    """Split a graph into ``parts`` parts with METIS k-way (unweighted), minimising the cut.

    Parameters
    ----------
    graph : Graph
        The graph to split.
    parts : int
        Number of parts, ``1 <= parts <= graph.n``. ``parts=1`` puts every node in part 0
        without calling METIS.
    seed : int, numpy.random.Generator or None
        METIS's random seed. ``None`` uses METIS's own fixed default, so the result is
        still deterministic; a Generator is advanced by one draw.
    options : dict, optional
        Further METIS options by name (:class:`pymetis.Options` attributes), e.g.
        ``{"niter": 2}`` for fewer refinement iterations (METIS's default is 10).

    Returns
    -------
    numpy.ndarray
        int64 array of length ``graph.n``: the part label ``0..parts-1`` of every node.
        METIS balances part sizes but may leave a part empty on tiny or very uneven graphs.

    Raises
    ------
    ValueError
        If ``parts`` is not a positive integer or exceeds the number of nodes.
    TypeError
        If ``graph`` is not a :class:`graphveil.Graph`.

    Notes
    -----
    The CSR arrays are handed to METIS in the index dtype pymetis was compiled for
    (:func:`pymetis.zero_copy_dtype`): ``indptr`` (int64) is passed as is when that dtype is
    int64, ``indices`` is converted once, explicitly, and pymetis is asked to warn on any
    further copy.

    References
    ----------
    Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section 4.2 (graph partitioning);
    Karypis and Kumar, SIAM J. Sci. Comput. 20(1), 1998 (METIS).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 1, 3, 4], [1, 2, 4, 5])
    >>> labels = metis_parts(g, 2, seed=1)
    >>> sorted(set(labels[:3].tolist())) != sorted(set(labels[3:].tolist()))
    True
    """
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, not {type(graph).__name__}")
    parts = check_int(parts, "parts", low=1)
    if parts > graph.n:
        raise ValueError(
            f"parts={parts} exceeds the number of nodes ({graph.n}); ask for at most {graph.n} parts"
        )
    metis_seed = _metis_seed(seed)
    if options is not None and not isinstance(options, dict):
        raise TypeError(
            f"options must be a dict of METIS option names to ints, not {type(options).__name__}"
        )
    if parts == 1:
        return np.zeros(graph.n, dtype=np.int64)

    import pymetis

    dtype = _metis_dtype()
    xadj = graph.indptr if graph.indptr.dtype == dtype else graph.indptr.astype(dtype)
    adjncy = graph.indices if graph.indices.dtype == dtype else graph.indices.astype(dtype)
    # pymetis wants writeable-agnostic, C-contiguous buffers of exactly its idx dtype.
    xadj = np.ascontiguousarray(xadj)
    adjncy = np.ascontiguousarray(adjncy)
    metis_options = pymetis.Options()
    if metis_seed is not None:
        metis_options.seed = metis_seed
    for name, value in (options or {}).items():
        try:
            setattr(metis_options, name, int(value))
        except (KeyError, AttributeError, TypeError, ValueError) as err:
            raise ValueError(f"not a METIS option: {name}={value!r} ({err})") from None
    kwargs: dict[str, Any] = {"options": metis_options, "recursive": False}
    if hasattr(pymetis, "CSRAdjacency"):
        kwargs["adjacency"] = pymetis.CSRAdjacency(adj_starts=xadj, adjacent=adjncy)
    else:  # pragma: no cover - pymetis < 2025.2
        kwargs["xadj"], kwargs["adjncy"] = xadj, adjncy
    with warnings.catch_warnings():
        # A copy inside pymetis would mean our dtype/layout guess is wrong: make it loud.
        warnings.simplefilter("error", BytesWarning)
        try:
            result = pymetis.part_graph(parts, warn_on_copies=True, **kwargs)
        except TypeError:  # pragma: no cover - pymetis without warn_on_copies
            result = pymetis.part_graph(parts, **kwargs)
    labels = np.asarray(result[1], dtype=np.int64)
    if labels.shape != (graph.n,) or (labels.size and (labels.min() < 0 or labels.max() >= parts)):
        raise RuntimeError(f"METIS returned labels outside 0..{parts - 1}")  # pragma: no cover
    return labels


@dataclass(frozen=True)
class PartLayout:
    """A graph grouped by part (the arrays of ``_core.split_parts``).

    Part ``i`` holds positions ``node_ptr[i] .. node_ptr[i+1]-1``; position ``node_ptr[i] + j``
    is local node ``j`` of part ``i`` and global node ``order[node_ptr[i] + j]`` (global ids
    ascending inside a part). ``local_indptr`` / ``local_indices`` are the CSR of the disjoint
    union of the induced subgraphs over positions, with neighbours in local ids; ``edge_u`` /
    ``edge_v`` (sliced by ``edge_ptr``) are each part's edges in local ids, ``u < v``, sorted;
    ``cut_u`` / ``cut_v`` are the edges between parts in global ids, ``u < v``, sorted.
    """

    node_ptr: np.ndarray
    order: np.ndarray
    local_indptr: np.ndarray
    local_indices: np.ndarray
    edge_ptr: np.ndarray
    edge_u: np.ndarray
    edge_v: np.ndarray
    cut_u: np.ndarray
    cut_v: np.ndarray

    @property
    def parts(self) -> int:
        """Number of parts (empty ones included)."""
        return int(self.node_ptr.size - 1)

    def sizes(self) -> list[int]:
        """Number of nodes of every part."""
        return np.diff(self.node_ptr).tolist()

    def nodes(self, part: int) -> np.ndarray:
        """Global ids of the nodes of ``part``, ascending (local id ``j`` is entry ``j``)."""
        return self.order[self.node_ptr[part] : self.node_ptr[part + 1]]

    def subgraph(self, part: int) -> Graph:
        """The induced subgraph of ``part`` on local ids ``0..size-1``: a view, no O(m) rebuild."""
        a, b = int(self.node_ptr[part]), int(self.node_ptr[part + 1])
        row = self.local_indptr[a : b + 1]
        indices = self.local_indices[row[0] : row[-1]]
        return Graph(row - row[0], indices, validate=False)


def split_parts(
    graph: Graph, labels: np.ndarray, parts: int, *, threads: int | None = None
) -> PartLayout:
    """Group the nodes of ``graph`` by their part label (O(n + m), parallel over parts).

    Parameters
    ----------
    graph : Graph
        The graph to split.
    labels : numpy.ndarray
        int64 part label ``0..parts-1`` of every node (as :func:`metis_parts` returns).
    parts : int
        Number of parts.
    threads : int, optional
        Worker threads (``None`` or 0: every core); the layout is the same for any value.

    Returns
    -------
    PartLayout

    Examples
    --------
    >>> import numpy as np
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4])
    >>> layout = split_parts(g, np.array([0, 0, 1, 1, 1]), 2)
    >>> layout.nodes(1).tolist(), layout.subgraph(1).m, layout.cut_u.tolist(), layout.cut_v.tolist()
    ([2, 3, 4], 2, [1], [2])
    """
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    arrays = _core.split_parts(graph.indptr, graph.indices, labels, parts, check_threads(threads))
    return PartLayout(**arrays)
