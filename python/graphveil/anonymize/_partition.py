"""METIS k-way partitioning through pymetis (the first phase of MaxVar and of Partition)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from graphveil._common import SeedLike
from graphveil.graph import Graph

#: METIS reads its seed as a C int.
_METIS_SEED_MAX = 2**31 - 1


def _metis_dtype() -> np.dtype:
    """The index dtype of the METIS that pymetis was built against (zero-copy hand-off)."""
    import pymetis

    if hasattr(pymetis, "zero_copy_dtype"):
        return np.dtype(pymetis.zero_copy_dtype())
    return np.dtype(np.int32)  # pragma: no cover - pymetis < 2023.1.1 was built with 32-bit idx_t


def _metis_seed(seed: SeedLike) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, _METIS_SEED_MAX, endpoint=True))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"seed must be an int, a numpy.random.Generator or None, not {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed) % (_METIS_SEED_MAX + 1)


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
    if isinstance(parts, (bool, np.bool_)) or not isinstance(parts, (int, np.integer)):
        raise TypeError(f"parts must be an integer, not {type(parts).__name__}")
    parts = int(parts)
    if parts < 1:
        raise ValueError(f"parts must be at least 1, got {parts}")
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
