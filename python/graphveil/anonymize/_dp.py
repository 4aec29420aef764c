"""What the differential-privacy schemes share: the privacy parameter, its grid, the release.

Edge differential privacy (Hay et al. 2009): two graphs are neighbours when they differ in one
edge; a randomized algorithm A is epsilon-edge-DP when Pr[A(G) in S] <= exp(epsilon) Pr[A(G') in
S] for every pair of neighbours and every set S of outputs. Each DP scheme says in its docstring
which quantity it perturbs and the sensitivity its noise is calibrated to.

On a directed graph the unit is the *arc*: two digraphs are neighbours when they differ in one
arc (one ordered pair ``u -> v``), so an arc and its reverse are two units (protecting both
arcs of a mutual dyad costs 2 epsilon, by group privacy). A candidate of a direct scheme is then
each of the N = n(n-1) ordered pairs.

The direct schemes (TmF, EdgeFlip) publish every node pair independently: a true edge with
probability ``p_keep``, a non-edge with probability ``p_add``. :func:`release_pairs` draws such
a release in O(m + output): each edge decided on its own (C++, seeded per block), the number of
non-edges published drawn from Binomial(N - m, p_add) and placed uniformly at random among the
non-edges, so the N = n(n-1)/2 pairs are never visited. A directed graph's release is drawn
the same way over the N = n(n-1) ordered pairs, in numpy (:func:`release_arcs`).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from graphveil import _core
from graphveil.graph import Graph

#: The study's default grid of epsilon for every DP scheme (smaller is more private).
EPSILON_GRID: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)


#: The bounds of epsilon, for every DP scheme (:func:`check_epsilon`, the study's grid check).
#: Below ``EPSILON_MIN`` the noise of the widest query (DP-2K's joint degree matrix, whose
#: sensitivity grows to about 8 sqrt(n)) could not be drawn exactly in 64-bit integers; above
#: ``EPSILON_MAX`` the promise e^epsilon is void many times over (it is already 5e21 at 50), and
#: every scheme publishes its noiseless limit.
EPSILON_MIN = 1e-6
EPSILON_MAX = 1e6


def epsilon_requirement() -> str:
    """What :func:`check_epsilon` requires, said to the user (also the study's grid check).

    Examples
    --------
    >>> epsilon_requirement()
    'epsilon must be a number in [1e-06, 1e+06] (the privacy budget of edge DP)'
    """
    return f"epsilon must be a number in [{EPSILON_MIN:g}, {EPSILON_MAX:g}] (the privacy budget of edge DP)"


def valid_epsilon(value: float) -> bool:
    """Whether ``value`` lies in [``EPSILON_MIN``, ``EPSILON_MAX``] (NaN does not)."""
    return EPSILON_MIN <= value <= EPSILON_MAX


def check_epsilon(epsilon: Any) -> float:
    """``epsilon`` as a float, or a ValueError/TypeError that says what to pass.

    Examples
    --------
    >>> check_epsilon(2)
    2.0
    >>> check_epsilon(0)
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be a number in [1e-06, 1e+06] (the privacy budget of edge DP), got 0
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
        raise TypeError(f"epsilon must be a number > 0, got {type(epsilon).__name__}")
    value = float(epsilon)
    if not valid_epsilon(value):
        raise ValueError(f"{epsilon_requirement()}, got {epsilon!r}")
    return value


#: The smallest epsilon / sensitivity :func:`two_sided_geometric` draws: its geometric variables,
#: of mean about sensitivity / epsilon, stay far inside int64 (a wider noise would wrap around,
#: and the difference of two saturated draws is 0: no noise at all).
GEOMETRIC_MIN_RATE = 1e-13


def two_sided_geometric(
    rng: np.random.Generator, size: int, *, epsilon: float, sensitivity: float
) -> np.ndarray:
    """``size`` draws of the two-sided geometric (discrete Laplace) noise of ``epsilon``-DP.

    ``Pr[X = z]`` is proportional to ``alpha ** abs(z)`` with ``alpha = exp(-epsilon /
    sensitivity)``: added to an integer query of L1 sensitivity ``sensitivity``, it gives
    epsilon-DP (Ghosh, Roughgarden and Sundararajan, "Universally utility-maximizing privacy
    mechanisms", STOC 2009), the integer counterpart of Laplace noise of scale
    ``sensitivity / epsilon``. Drawn as the difference of two geometric variables from the
    one stream ``rng``, so the same generator state gives the same noise.

    Returns
    -------
    numpy.ndarray
        int64 noise of length ``size``.

    Examples
    --------
    >>> noise = two_sided_geometric(np.random.default_rng(0), 4, epsilon=1e9, sensitivity=2)
    >>> noise.tolist()
    [0, 0, 0, 0]
    """
    rate = epsilon / sensitivity
    if not rate >= GEOMETRIC_MIN_RATE:
        raise ValueError(
            f"noise of epsilon {epsilon:g} at sensitivity {sensitivity:g} is too wide to draw "
            f"exactly (epsilon / sensitivity must be >= {GEOMETRIC_MIN_RATE:g}): raise epsilon, or the share of it this query gets"
        )
    q = -math.expm1(-rate)  # 1 - alpha, the success probability
    first = rng.geometric(q, size)
    second = rng.geometric(q, size)
    return (first - second).astype(np.int64)


def pair_count(graph: Graph) -> int:
    """N, the candidates a DP release decides: n(n-1)/2 pairs, or n(n-1) arcs if directed.

    A ValueError below two nodes.
    """
    if graph.n < 2:
        raise ValueError(
            f"the graph has {graph.n} node(s): an edge-DP release needs at least 2 nodes "
            "(one node pair) to publish"
        )
    return graph.n * (graph.n - 1) // (1 if graph.directed else 2)


def laplace_tail(x: float, scale: float) -> float:
    """Pr[L > x] for L ~ Laplace(0, ``scale``).

    Examples
    --------
    >>> laplace_tail(0.0, 1.0), round(laplace_tail(1.0, 1.0), 4), round(laplace_tail(-1.0, 1.0), 4)
    (0.5, 0.1839, 0.8161)
    """
    if x >= 0:
        return 0.5 * math.exp(-x / scale)
    return 1.0 - 0.5 * math.exp(x / scale)


def release_pairs(
    graph: Graph, p_keep: float, p_add: float, rng: np.random.Generator, threads: int
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Publish every pair independently: an edge with ``p_keep``, a non-edge with ``p_add``.

    Returns ``(u, v, kept, added)``: the published pairs (u < v, sorted) and how many of them
    are true edges and non-edges (private: the counts say how many edges survived). A directed
    graph's arcs and ordered pairs go to :func:`release_arcs` (``threads`` unused).
    """
    if graph.directed:
        return release_arcs(graph, p_keep, p_add, rng)
    n, m = graph.n, graph.m
    free = pair_count(graph) - m
    added = int(rng.binomial(free, p_add)) if free > 0 and p_add > 0 else 0
    eu, ev = graph.edges()  # canonical: u < v, sorted by (u, v), so the keys are sorted
    keys = eu.astype(np.int64) * n + ev
    kept_keys, added_keys = _core.release_pairs(
        keys, n, float(p_keep), added, int(rng.integers(0, 2**63)), threads
    )
    del keys
    out = np.sort(np.concatenate((kept_keys, added_keys)))
    u, v = np.divmod(out, n)
    return u, v, int(kept_keys.size), int(added_keys.size)


def release_arcs(
    graph: Graph, p_keep: float, p_add: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """:func:`release_pairs` on a directed graph: every ordered pair ``u -> v`` (u != v) on its own.

    The number of non-arcs published is drawn from Binomial(n(n-1) - m, ``p_add``) first, as
    for pairs; then each arc is kept with ``p_keep`` (one uniform each, in the arcs' canonical
    order), then that many distinct non-arcs are placed uniformly (:func:`uniform_non_arcs`).
    Returns the published arcs sorted by (u, v), and the kept and added counts (private).
    """
    n = graph.n
    eu, ev = graph.edges()  # sorted by (u, v): the keys are sorted
    keys = eu.astype(np.int64) * n + ev
    free = pair_count(graph) - keys.size
    added = int(rng.binomial(free, p_add)) if free > 0 and p_add > 0 else 0
    kept_keys = keys[rng.random(keys.size) < p_keep]
    added_keys = uniform_non_arcs(keys, n, added, rng)
    out = np.sort(np.concatenate((kept_keys, added_keys)))
    u, v = np.divmod(out, n)
    return u, v, int(kept_keys.size), int(added_keys.size)


def uniform_non_arcs(keys: np.ndarray, n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct ordered pairs ``a * n + b`` (a != b) not in sorted ``keys``, uniformly.

    Sequential rejection, vectorized: uniform ordered pairs are drawn in batches, arcs dropped,
    and the first ``count`` distinct ones in draw order kept, which is a uniform subset. When
    ``count`` exceeds half the non-arcs, the n(n-1) <= m + 2 ``count`` ordered pairs are listed
    instead and ``count`` of the non-arcs chosen without replacement: O(m + count) either way.
    """
    if count == 0:
        return np.empty(0, dtype=np.int64)
    total = n * (n - 1)
    if 2 * count > total - keys.size:
        pool = np.setdiff1d(_ordered_keys(np.arange(total, dtype=np.int64), n), keys)
        return rng.choice(pool, count, replace=False)
    chosen = np.empty(0, dtype=np.int64)
    while chosen.size < count:
        draw = _ordered_keys(rng.integers(0, total, (count - chosen.size) * 2 + 16), n)
        at = np.minimum(np.searchsorted(keys, draw), max(keys.size - 1, 0))
        fresh = draw[keys[at] != draw] if keys.size else draw
        chosen = np.concatenate((chosen, fresh))
        first = np.unique(chosen, return_index=True)[1]
        chosen = chosen[np.sort(first)]
    return chosen[:count]


def _ordered_keys(index: np.ndarray, n: int) -> np.ndarray:
    """The ``index``-th ordered pair (a, b), a != b, in row order, as the key ``a * n + b``."""
    a, r = np.divmod(index, n - 1)
    return a * n + r + (r >= a)
