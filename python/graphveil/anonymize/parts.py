"""Splitting a graph into parts: METIS, and the part layout MaxVar and Partition work on.

:func:`metis_parts` labels every node with its METIS part (MaxVar and Partition reach it, and
any other partitioner, through :mod:`graphveil.anonymize.partitioners`); :func:`split_parts` groups the nodes by
part in one O(n + m) C++ pass and returns a :class:`PartLayout` (every part's induced subgraph
in local ids, and the cut edges); :func:`part_seed` is the seed of a part's own random stream.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphveil import _core
from graphveil._checks import check_int, check_threads
from graphveil._seeds import (
    SeedLike,
    part_seed,  # noqa: F401  (public here: the parts' seed)
)
from graphveil._seeds import metis_seed as _metis_seed
from graphveil.graph import Graph, check_graph


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
        Further METIS options by name (the names of ``METIS_OPTION_*`` in lower case, as
        :class:`pymetis.Options` spells them), e.g. ``{"niter": 2}`` for fewer refinement
        iterations (METIS's default is 10).

    Returns
    -------
    numpy.ndarray
        int64 array of length ``graph.n``: the part label ``0..parts-1`` of every node. A
        directed graph is split as its underlying undirected graph (:meth:`Graph.to_undirected`:
        the cut counts node pairs joined by an arc either way), as METIS needs a symmetric CSR.
        METIS balances part sizes but may leave a part empty on tiny or very uneven graphs.

    Raises
    ------
    ValueError
        If ``parts`` is not a positive integer or exceeds the number of nodes, or an option is
        not a METIS option.
    TypeError
        If ``graph`` is not a :class:`graphveil.Graph`.

    Notes
    -----
    METIS 5.1.0 is built into graphveil (``cpp/third_party/metis``, Apache-2.0), configured as
    pymetis builds it, and called as ``pymetis.part_graph(parts, adjacency, options=...,
    recursive=False)`` calls it: the labels are identical to pymetis's, and pymetis is not
    needed. METIS draws its random numbers from the C library's ``rand()`` (as in pymetis), so
    a seed gives the same parts on every machine with the same C library (glibc, macOS, MSVC
    each have their own ``rand()``).

    References
    ----------
    Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section V-B (graph partitioning);
    Karypis and Kumar, SIAM J. Sci. Comput. 20(1), 1998 (METIS).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 1, 3, 4], [1, 2, 4, 5])
    >>> labels = metis_parts(g, 2, seed=1)
    >>> sorted(set(labels[:3].tolist())) != sorted(set(labels[3:].tolist()))
    True
    """
    check_graph(graph, what=None)
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
    graph = graph.to_undirected()  # itself when undirected

    metis_options = {} if metis_seed is None else {"seed": metis_seed}
    for name, value in (options or {}).items():
        if name not in _core.metis_option_names:
            raise ValueError(
                f"not a METIS option: {name}={value!r}; the options are "
                + ", ".join(_core.metis_option_names)
            )
        try:
            metis_options[name] = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"METIS option {name} must be an integer, not {value!r}") from None
        if not -(2**63) <= metis_options[name] < 2**63:
            raise ValueError(f"METIS option {name}={value!r} does not fit METIS's 64-bit integers")
    # METIS's idx_t is 64-bit: indptr is handed over as is, int32 indices are widened once.
    result = _core.metis_part_kway(
        graph.indptr, graph.indices.astype(np.int64, copy=False), parts, metis_options
    )
    labels = np.asarray(result, dtype=np.int64)
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
    ``cut_u`` / ``cut_v`` are the edges between parts in global ids, ``u < v``, sorted. For a
    directed graph (``directed``) the CSR is the out-CSR of the induced parts and the edges and
    cut edges are arcs ``u -> v`` sorted by ``(u, v)`` (any order of ``u`` and ``v``).
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
    directed: bool = False

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
        return Graph(row - row[0], indices, validate=False, directed=self.directed)


def split_parts(
    graph: Graph, labels: np.ndarray, parts: int, *, threads: int | None = None
) -> PartLayout:
    """Group the nodes of ``graph`` by their part label (O(n + m), parallel over parts).

    Parameters
    ----------
    graph : Graph
        The graph to split (directed: its arcs, parts the induced directed subgraphs).
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
    arrays = _core.split_parts(
        graph.indptr, graph.indices, labels, parts, check_threads(threads), directed=graph.directed
    )
    return PartLayout(**arrays, directed=graph.directed)
