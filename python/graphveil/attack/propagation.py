"""Seed-and-extend de-anonymization (Narayanan and Shmatikov, IEEE S&P 2009).

The attacker holds an auxiliary graph (here ``G0`` itself, the strongest case) and a few known
pairs (target node, aux node), the *seeds*. Propagation extends the seeds: an unmapped target
node ``t`` scores every unmapped aux node ``c`` by its mapped neighbours whose images are
neighbours of ``c``, each adding ``1 / sqrt(deg_aux(c))`` (the paper's degree normalisation,
so hubs do not win by size alone). The best candidate is accepted when

- its *eccentricity* ``(max - second max) / std`` of the scores is at least ``theta``
  (``std`` over the candidates that scored; a single candidate has eccentricity +inf),
- and the same scoring from the candidate back to the unmapped target nodes picks ``t``
  (the reverse match).

Rounds repeat until one adds nothing (or ``max_rounds``). The paper updates the mapping inside
a pass; here every round reads the mapping of the previous round and adds all accepted pairs
at once (they form a matching), which makes the result independent of node order and thread
count and lets the C++ kernel score the nodes in parallel. Equal best scores go to the smallest
id (and fail any ``theta > 0``). The paper's revisiting of already mapped nodes and its
degree-difference filter are not implemented: a pair, once added, stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csgraph

from graphveil import _core
from graphveil._common import (
    NotApplicable,
    SeedLike,
    check_int,
    check_real,
    check_threads,
    seed_to_u64,
)
from graphveil.attack.link import release_on
from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "PropagationAttack",
    "Reidentification",
    "core_nodes",
    "high_degree_seeds",
    "propagation",
    "propagation_attack",
    "reidentification_rate",
]

#: Default eccentricity threshold. NS 2009 leave theta as a parameter; 0.5 accepts a clear
#: winner and rejects near-ties.
DEFAULT_THETA = 0.5

#: Default degree window: a candidate's degree must lie within this factor of the node's.
#: Not in NS 2009 (``None`` turns it off): without it the 1 / sqrt(degree) normalisation lets
#: low-degree automorphic nodes (the leaves of a hub) tie at the top of a high-degree node's
#: scores, and the tie blocks it for good.
DEFAULT_DEGREE_RATIO = 2.0

#: Default bound on the rounds of propagation (each round adds at least one pair or stops).
DEFAULT_MAX_ROUNDS = 100


def _check_graph(g: Any, name: str) -> Graph:
    if not isinstance(g, Graph):
        raise TypeError(f"{name} must be a graphveil.Graph, got {type(g).__name__}")
    return g


def _seed_pairs(seeds: Any, n_target: int, n_aux: int) -> np.ndarray:
    """Seeds as a (k, 2) int64 array of distinct (target, aux) pairs, checked."""
    arr = np.asarray(seeds)
    if arr.size == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"seeds must be pairs (target node, aux node) of shape (k, 2), got shape {arr.shape}"
        )
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"seeds must hold integer node ids, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    for col, name, n in ((0, "target", n_target), (1, "aux", n_aux)):
        ids = arr[:, col]
        bad = (ids < 0) | (ids >= n)
        if bad.any():
            raise ValueError(
                f"seed {name} node {int(ids[bad][0])} is out of range: the {name} graph has nodes 0..{n - 1}"
            )
        if np.unique(ids).size != ids.size:
            raise ValueError(f"seeds repeat a {name} node: each node may be seeded once")
    return arr


def propagation(
    aux: Graph,
    target: Graph,
    seeds: Any,
    *,
    theta: float = DEFAULT_THETA,
    degree_ratio: float | None = DEFAULT_DEGREE_RATIO,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    threads: int | None = None,
) -> np.ndarray:
    """Map the nodes of ``target`` to nodes of ``aux`` by seed-and-extend propagation.

    Parameters
    ----------
    aux : Graph
        The attacker's auxiliary graph.
    target : Graph
        The anonymized graph to de-anonymize (its own node ids; it may differ in size from ``aux``).
    seeds : array_like of shape (k, 2)
        Known pairs ``(target node, aux node)``, each node at most once.
    theta : float
        Eccentricity threshold (>= 0) a best candidate must reach, in both directions.
    max_rounds : int
        Upper bound on the rounds (>= 1).
    threads : int, optional
        Worker threads (``None`` or 0: every core). The result does not depend on it.

    Returns
    -------
    numpy.ndarray
        ``mapping[t]`` = the aux node of target node ``t``, or -1; int64, length ``target.n``.
        Seeds are included.

    Raises
    ------
    TypeError
        If a graph is not a :class:`~graphveil.Graph` or the seeds are not integers.
    ValueError
        If a graph is empty (:class:`~graphveil.NotApplicable`), a seed is out of range or repeats a node, or ``theta`` /
        ``max_rounds`` are invalid.

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009, Section 5.2.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 2, 3, 4])
    >>> propagation(g, g, [[0, 0], [1, 1]]).tolist()
    [0, 1, 2, 3, 4]
    """
    _check_graph(aux, "aux")
    _check_graph(target, "target")
    for g, name in ((aux, "aux"), (target, "target")):
        if g.n == 0 or g.m == 0:
            raise NotApplicable(
                f"the {name} graph is empty ({g.n} nodes, {g.m} edges): propagation needs edges"
            )
    theta = check_real(theta, "theta", 0.0, float("inf"))
    if degree_ratio is not None:
        degree_ratio = check_real(degree_ratio, "degree_ratio", 1.0, float("inf"))
    max_rounds = check_int(max_rounds, "max_rounds", low=1)
    pairs = _seed_pairs(seeds, target.n, aux.n)
    wide = target.indices.dtype == np.int64 or aux.indices.dtype == np.int64
    dtype = np.int64 if wide else np.int32
    start = np.full(target.n, -1, dtype=dtype)
    start[pairs[:, 0]] = pairs[:, 1]
    mapping, _, _ = _core.propagate(
        target.indptr,
        target.indices.astype(dtype, copy=False),
        aux.indptr,
        aux.indices.astype(dtype, copy=False),
        start,
        theta,
        float("inf") if degree_ratio is None else degree_ratio,
        max_rounds,
        check_threads(threads),
    )
    return mapping.astype(np.int64, copy=False)


@dataclass(frozen=True)
class Reidentification:
    """Fractions of the scored nodes that a mapping gets right, wrong, or leaves unmapped.

    Attributes
    ----------
    nodes : int
        Nodes scored.
    correct, wrong, unmapped : float
        Fractions of ``nodes`` (they sum to 1; NaN when ``nodes`` is 0).
    """

    nodes: int
    correct: float
    wrong: float
    unmapped: float

    def as_dict(self) -> dict[str, float | int]:
        """The fields as a plain dict."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def __repr__(self) -> str:
        return (
            f"Reidentification(nodes={self.nodes:,}, correct={self.correct:.4f}, "
            f"wrong={self.wrong:.4f}, unmapped={self.unmapped:.4f})"
        )


def _id_array(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer node ids, got dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def reidentification_rate(mapping: Any, truth: Any, nodes: Any = None) -> Reidentification:
    """Score a mapping against the true correspondence.

    Parameters
    ----------
    mapping : array_like of int
        ``mapping[t]``: the aux node guessed for target node ``t``, -1 if unmapped.
    truth : array_like of int
        ``truth[t]``: the true aux node of ``t`` (same length).
    nodes : array_like of int, optional
        Score only these target nodes (e.g. :func:`core_nodes`); default every node.

    Returns
    -------
    Reidentification

    Raises
    ------
    ValueError
        If the lengths differ or ``nodes`` holds an id out of range.

    Examples
    --------
    >>> reidentification_rate([0, 2, -1, 3], [0, 1, 2, 3])
    Reidentification(nodes=4, correct=0.5000, wrong=0.2500, unmapped=0.2500)
    """
    mapping = _id_array(mapping, "mapping")
    truth = _id_array(truth, "truth")
    if mapping.size != truth.size:
        raise ValueError(
            f"mapping has {mapping.size:,} entries and truth {truth.size:,}: both need one per target node"
        )
    if nodes is not None:
        nodes = _id_array(nodes, "nodes")
        bad = (nodes < 0) | (nodes >= mapping.size)
        if bad.any():
            raise ValueError(
                f"node {int(nodes[bad][0])} is out of range for a mapping of {mapping.size:,} nodes"
            )
        mapping, truth = mapping[nodes], truth[nodes]
    k = mapping.size
    if k == 0:
        nan = float("nan")
        return Reidentification(0, nan, nan, nan)
    unmapped = int(np.count_nonzero(mapping < 0))
    correct = int(np.count_nonzero(mapping == truth))
    return Reidentification(k, correct / k, (k - unmapped - correct) / k, unmapped / k)


def core_nodes(graph: Graph, min_degree: int = 5) -> np.ndarray:
    """Nodes of degree ``>= min_degree`` in the largest connected component (sorted).

    The nodes an attack can hope to re-identify from structure; NS 2009 report their rates on
    such a core.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 3], [1, 2, 2, 4])
    >>> core_nodes(g, 2).tolist()
    [0, 1, 2]
    """
    _check_graph(graph, "graph")
    min_degree = check_int(min_degree, "min_degree", low=0)
    if graph.n == 0:
        return np.zeros(0, dtype=np.int64)
    _, label = csgraph.connected_components(graph.to_scipy(), directed=False)
    largest = np.argmax(np.bincount(label))
    return np.flatnonzero((label == largest) & (graph.degrees >= min_degree)).astype(np.int64)


def high_degree_seeds(
    aux: Graph, truth: Any, k: int, *, pool: int | None = None, seed: SeedLike = None
) -> np.ndarray:
    """``k`` true seed pairs among the hubs of ``aux``: the attacker knows the high-degree nodes.

    Draws ``k`` distinct aux nodes uniformly among the ``pool`` nodes of highest degree
    (default ``2 k``; equal degrees ordered by id) and pairs each with its true target node.

    Parameters
    ----------
    aux : Graph
        The auxiliary graph.
    truth : array_like of int
        ``truth[t]``: the aux node of target node ``t`` (a permutation when both graphs share
        their nodes; aux nodes absent from it are never drawn).
    k : int
        Number of seeds.
    pool : int, optional
        How many top-degree aux nodes to draw from (>= k).
    seed : int, numpy.random.Generator or None
        Randomness.

    Returns
    -------
    numpy.ndarray
        Shape ``(k, 2)``: rows ``(target node, aux node)``.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2])
    >>> high_degree_seeds(g, [0, 1, 2, 3], 2, pool=2, seed=1)[:, 1].tolist()
    [0, 1]
    """
    _check_graph(aux, "aux")
    truth = _id_array(truth, "truth")
    k = check_int(k, "k", low=0)
    if truth.size and (truth.min() < -1 or truth.max() >= aux.n):
        raise ValueError(f"truth must hold aux node ids in 0..{aux.n - 1} (or -1)")
    owner = np.full(aux.n, -1, dtype=np.int64)
    known = truth >= 0
    owner[truth[known]] = np.flatnonzero(known)
    eligible = np.flatnonzero(owner >= 0)
    pool = 2 * k if pool is None else check_int(pool, "pool", low=k)
    if k > eligible.size:
        raise ValueError(
            f"k={k} seeds asked for but only {eligible.size} aux nodes have a target node"
        )
    order = eligible[np.lexsort((eligible, -aux.degrees[eligible]))][: max(pool, k)]
    rng = np.random.default_rng(seed_to_u64(seed))
    chosen = np.sort(rng.choice(order, size=k, replace=False))
    return np.column_stack([owner[chosen], chosen]).astype(np.int64)


@dataclass(frozen=True)
class PropagationAttack:
    """Propagation against one sampled world and against the most-likely world of a release.

    Rates are over :func:`core_nodes` of ``G0`` minus the seeds (``core``) and over every
    non-seed node (``all``).
    """

    sampled: Reidentification
    most_likely: Reidentification
    sampled_all: Reidentification
    most_likely_all: Reidentification
    seeds: int
    theta: float

    def as_dict(self) -> dict[str, Any]:
        """Nested plain dicts."""
        return {
            "sampled": self.sampled.as_dict(),
            "most_likely": self.most_likely.as_dict(),
            "sampled_all": self.sampled_all.as_dict(),
            "most_likely_all": self.most_likely_all.as_dict(),
            "seeds": self.seeds,
            "theta": self.theta,
        }


def _most_likely_world(ug: UncertainGraph) -> Graph:
    simple = ug.simplified()
    keep = simple.p >= 0.5
    return Graph.from_edges(simple.u[keep], simple.v[keep], ug.n)


def propagation_attack(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    seeds: int = 50,
    theta: float = DEFAULT_THETA,
    degree_ratio: float | None = DEFAULT_DEGREE_RATIO,
    min_degree: int = 5,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    seed: SeedLike = None,
    threads: int | None = None,
) -> PropagationAttack:
    """Run :func:`propagation` with ``G0`` as the auxiliary graph against a release.

    The release's ids are hidden by a random permutation (drawn from ``seed``), the attacker
    gets ``seeds`` high-degree true pairs (:func:`high_degree_seeds`), and propagation runs
    against one sampled world and against the most-likely world (``p >= 0.5``; the edge set
    itself for a deterministic release).

    Parameters
    ----------
    g0 : Graph
        The true graph, used as the auxiliary graph.
    published : UncertainGraph or Graph
        The release on ``g0``'s node ids (before any id permutation).
    seeds : int
        Number of seed pairs.
    theta, max_rounds, threads
        As for :func:`propagation`.
    min_degree : int
        Degree bound of the core the main rates are reported on (:func:`core_nodes`).
    seed : int, numpy.random.Generator or None
        Randomness of the permutation, the seeds and the sampled world.

    Returns
    -------
    PropagationAttack

    Raises
    ------
    ValueError
        If the release and ``g0`` differ in their numbers of nodes, or an argument is invalid.

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("ca-GrQc")
    >>> r = propagation_attack(g, g, seeds=50, seed=1)  # the un-anonymized control
    >>> r.sampled.wrong, r.sampled.correct > 0.6
    (0.0, True)
    """
    _check_graph(g0, "g0")
    published = release_on(g0, published)
    seeds = check_int(seeds, "seeds", low=0)
    rng = np.random.default_rng(seed_to_u64(seed))
    perm = rng.permutation(g0.n)  # g0 node i is target node perm[i]
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g0.n)
    seed_pairs = high_degree_seeds(g0, truth, seeds, seed=rng)
    scored = np.ones(g0.n, dtype=bool)
    scored[seed_pairs[:, 0]] = False
    core = np.zeros(g0.n, dtype=bool)
    core[perm[core_nodes(g0, min_degree)]] = True
    core &= scored

    def attack(world: Graph) -> tuple[Reidentification, Reidentification]:
        wu, wv = world.edges()
        target = Graph.from_edges(perm[wu], perm[wv], g0.n)
        mapping = propagation(
            g0,
            target,
            seed_pairs,
            theta=theta,
            degree_ratio=degree_ratio,
            max_rounds=max_rounds,
            threads=threads,
        )
        return (
            reidentification_rate(mapping, truth, np.flatnonzero(core)),
            reidentification_rate(mapping, truth, np.flatnonzero(scored)),
        )

    world = published.sample(seed=rng, threads=threads)
    assert isinstance(world, Graph)  # one sample: one Graph
    sampled, sampled_all = attack(world)
    likely, likely_all = attack(_most_likely_world(published))
    return PropagationAttack(sampled, likely, sampled_all, likely_all, seeds, theta)
