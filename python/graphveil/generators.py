"""Synthetic graphs for scale: heavy-tailed degrees with real clustering, seeded.

The real graphs of the paper (SNAP com-youtube, com-dblp, com-amazon) cannot always be
downloaded; :func:`like` makes a Holme-Kim graph with exactly their node and edge counts so
that timing and memory at their scale can be measured anywhere. These graphs are synthetic:
their degree tail (exponent about 3) and clustering are those of the model, not of the
real graphs.
"""

from __future__ import annotations

import math

import numpy as np

from graphveil import _core
from graphveil._checks import check_int, check_threads
from graphveil._common import INT32_LIMIT
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph

__all__ = ["SIZES", "like", "powerlaw_cluster", "powerlaw_cluster_sized"]

#: Node and edge counts of the paper's graphs (SNAP; edges without self-loops).
SIZES: dict[str, tuple[int, int]] = {
    "youtube": (1_134_890, 2_987_624),
    "dblp": (317_080, 1_049_866),
    "amazon": (334_863, 925_872),
}

#: Triad-formation probability used by :func:`like` (see its docstring).
LIKE_P = 0.5


def powerlaw_cluster(
    n: int, m: int, p: float, *, seed: SeedLike = None, threads: int | None = None
) -> Graph:
    """Holme-Kim graph: preferential attachment with triad formation.

    The model of :func:`networkx.powerlaw_cluster_graph`: start from ``m`` isolated nodes; the
    next node joins all of them; every later node adds ``m`` edges, the first to a node
    ``t`` chosen with probability proportional to its degree, each further one with
    probability ``p`` to a random neighbour of ``t`` (a triangle) and otherwise by
    preferential attachment again. The result has ``m * (n - m)`` edges, a power-law degree
    tail with exponent about 3 and clustering that grows with ``p``.

    Unlike networkx, the ``m`` edges of a node are always distinct (networkx can draw a
    preferential target that a triad step already joined and then adds fewer edges).

    Parameters
    ----------
    n : int
        Number of nodes, ``n > m``.
    m : int
        Edges added per arriving node, ``m >= 1``.
    p : float
        Probability of a triad-formation step, in ``[0, 1]``.
    seed : int, numpy.random.Generator or None
        Random seed; the same seed gives the same graph on any machine and thread count.
    threads : int or None
        Threads for sorting the CSR rows (0 or None: all cores). Growth itself is sequential.

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        If ``m < 1``, ``n <= m`` or ``p`` is outside ``[0, 1]``.

    References
    ----------
    P. Holme and B. J. Kim, "Growing scale-free networks with tunable clustering",
    Phys. Rev. E 65, 026107 (2002).

    Examples
    --------
    >>> g = powerlaw_cluster(1000, 3, 0.5, seed=1)
    >>> g.n, g.m
    (1000, 2991)
    """
    n = check_int(n, "n")
    m = check_int(m, "m")
    if m < 1:
        raise ValueError(f"m must be at least 1, got {m}")
    if n <= m:
        raise ValueError(f"n must exceed m (n={n}, m={m}); raise n or lower m")
    edges = np.full(n, m, dtype=np.int32)
    edges[:m] = 0
    return _grow(n, edges, p, seed, threads)


def powerlaw_cluster_sized(
    n: int, edges: int, p: float, *, seed: SeedLike = None, threads: int | None = None
) -> Graph:
    """Holme-Kim graph with exactly ``n`` nodes and ``edges`` edges.

    As :func:`powerlaw_cluster` with a fractional mean ``m = edges / n``: ``m0 = ceil(m)``
    seed nodes, the next node joins all of them, and later nodes add ``floor`` or ``ceil``
    of the remaining mean edges, spread evenly over the arrival order, so that the total is
    exact. Every node after the seed has degree at least ``floor(m)``.

    Parameters
    ----------
    n : int
        Number of nodes.
    edges : int
        Number of edges, ``n - 1 <= edges`` and small enough that the growth is feasible
        (about ``edges <= n * sqrt(n) / 2``).
    p : float
        Probability of a triad-formation step, in ``[0, 1]``.
    seed : int, numpy.random.Generator or None
        Random seed.
    threads : int or None
        Threads for sorting the CSR rows (0 or None: all cores).

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        If the counts cannot be met by the growth (too few or too many edges for ``n``).

    Examples
    --------
    >>> g = powerlaw_cluster_sized(2000, 5263, 0.3, seed=0)
    >>> g.n, g.m
    (2000, 5263)
    """
    n = check_int(n, "n")
    total = check_int(edges, "edges")
    return _grow(n, _edge_schedule(n, total), p, seed, threads)


def like(name: str, *, p: float = LIKE_P, seed: SeedLike = 0, threads: int | None = None) -> Graph:
    """A synthetic Holme-Kim graph the size of one of the paper's graphs.

    ``like("youtube")`` has 1,134,890 nodes and 2,987,624 edges, as SNAP's com-youtube;
    also ``"dblp"`` and ``"amazon"`` (see :data:`SIZES`). ``p = 0.5`` gives an average
    local clustering of 0.25 at dblp size and 0.31 at youtube size (seed 0; SNAP reports 0.08
    for com-youtube and 0.63 for com-dblp), a largest hub of degree 4,416 at youtube size, and a
    minimum degree of 2 or 3 where real graphs have many degree-1 nodes. The graph is
    synthetic: use it for scale, not for the paper's numbers.

    Parameters
    ----------
    name : str
        ``"youtube"``, ``"dblp"`` or ``"amazon"``.
    p : float
        Triad-formation probability.
    seed : int, numpy.random.Generator or None
        Random seed (default 0, so the named graph is reproducible).
    threads : int or None
        Threads for sorting the CSR rows.

    Returns
    -------
    Graph

    Raises
    ------
    KeyError
        If ``name`` is not in :data:`SIZES`.
    """
    key = name.lower().removeprefix("com-")
    if key not in SIZES:
        raise KeyError(f"no size named {name!r}; choose one of {', '.join(sorted(SIZES))}")
    n, total = SIZES[key]
    return powerlaw_cluster_sized(n, total, p, seed=seed, threads=threads)


def _edge_schedule(n: int, total: int) -> np.ndarray:
    """Per-node edge counts summing to ``total``: seed zeros, one full join, then floor/ceil."""
    if n < 3:
        raise ValueError(f"n must be at least 3, got {n}")
    if total < n - 1:
        raise ValueError(
            f"edges={total} is below n - 1 = {n - 1}: every node after the seed adds an edge"
        )
    m0 = max(1, math.ceil(total / (n - 1)))
    while True:
        later = n - m0 - 1
        if later < 1:
            raise ValueError(f"edges={total} is too many for n={n}; lower edges or raise n")
        rest = total - m0
        base, extra = divmod(rest, later)
        # Node m0 + 1 sees m0 + 1 earlier nodes, the tightest constraint on base + 1.
        if base >= 1 and base + (extra > 0) <= m0 + 1:
            break
        m0 += 1
    schedule = np.zeros(n, dtype=np.int64)
    schedule[m0] = m0
    i = np.arange(later + 1, dtype=np.int64)
    # Bresenham spacing: exactly `extra` of the later nodes get base + 1.
    bump = np.diff(i * extra // later)
    schedule[m0 + 1 :] = base + bump
    assert int(schedule.sum()) == total
    return schedule.astype(np.int32)


def _grow(n: int, edges: np.ndarray, p: float, seed: SeedLike, threads: int | None) -> Graph:
    if n > INT32_LIMIT:
        raise ValueError(f"n={n} exceeds the int32 node ids the generator uses (2**31 - 1)")
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    indptr, indices = _core.powerlaw_cluster(n, edges, p, seed_to_u64(seed), check_threads(threads))
    return Graph(indptr, indices, validate=False)
