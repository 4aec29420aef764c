"""Seed-and-extend de-anonymization (Narayanan and Shmatikov, IEEE S&P 2009).

The attacker holds an auxiliary graph (here ``G0`` itself, the strongest case) and a few known
pairs (target node, aux node), the *seeds*. Propagation extends the seeds: an unmapped target
node ``t`` scores every unmapped aux node ``c`` by its mapped neighbours whose images are
neighbours of ``c``, each adding ``1 / sqrt(deg_aux(c))`` (the paper's degree normalisation,
so hubs do not win by size alone). The best candidate is accepted when

- its *eccentricity* ``(max - second max) / std`` of the scores is at least ``theta``. As NS
  define it (``eccentricity="ns"``, the default) the scores are a list with one entry per node
  of the other graph, zeros included: ``std`` is over all of them, and the second max is 0
  when one candidate scored. ``eccentricity="scored"`` (graphveil's earlier rule, a departure)
  takes ``std`` over the candidates that scored only, with +inf for a single one: without the
  zeros ``std`` is usually much larger, so the same ``theta`` is stricter
  (docs/faithfulness.rst);
- and the same scoring from the candidate back to the unmapped target nodes picks ``t``
  (the reverse match).

Rounds repeat until one adds nothing (or ``max_rounds``). The paper updates the mapping inside
a pass; here every round reads the mapping of the previous round and adds all accepted pairs
at once (they form a matching), which makes the result independent of node order and thread
count and lets the C++ kernel score the nodes in parallel. Equal best scores go to the smallest
id (and fail any ``theta > 0``). The paper's revisiting of already mapped nodes and its
degree-difference filter are not implemented: a pair, once added, stays.

A mapping is scored by :func:`reidentification_rate`: correct, wrong and unmapped shares of the
scored nodes, *accuracy* (correct among the mapped ones) and *coverage* (mapped share) apart,
and the share of the scored nodes with a *structural twin* (:func:`structural_twins`), which no
structural attack tells apart but by a guess.

Directed graphs are matched by *directed* propagation, as Narayanan and Shmatikov define it (their
paper is about directed graphs): an unmapped node's mapped in-neighbours ``x -> t`` vote for the
candidates ``c`` with ``image(x) -> c``, each adding ``1 / sqrt(in_deg(c))``, and its mapped
out-neighbours ``t -> x`` for the ``c`` with ``c -> image(x)``, each adding
``1 / sqrt(out_deg(c))`` (a mutual neighbour votes on both sides); the degree window bounds both
degrees; the eccentricity test and the reverse match are as above. :func:`propagation_attack`
runs it on a directed release (``directed=False`` drops the directions: the undirected attack,
a weaker attacker), and :func:`structural_twins` of a digraph are its directed twins (same in- and
out-neighbours).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import (
    NotApplicable,
    check_int,
    check_real,
    check_threads,
    require_undirected,
)
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.attack.link import release_on
from graphveil.attack.worlds import WORLDS, most_likely_world, top_m_world
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "PropagationAttack",
    "Reidentification",
    "core_nodes",
    "default_seeds",
    "high_degree_seeds",
    "propagation",
    "propagation_attack",
    "propagation_table",
    "reidentification_rate",
    "structural_twins",
]

#: Default eccentricity threshold. NS 2009 leave theta as a parameter; 0.5 accepts a clear
#: winner and rejects near-ties.
DEFAULT_THETA = 0.5

#: Default degree window: a candidate's degree must lie within this factor of the node's.
#: Not in NS 2009 (``None`` turns it off): without it the 1 / sqrt(degree) normalisation lets
#: low-degree automorphic nodes (the leaves of a hub) tie at the top of a high-degree node's
#: scores, and the tie blocks it for good.
DEFAULT_DEGREE_RATIO = 2.0

#: How the eccentricity's standard deviation is taken: ``"ns"`` over every node of the other
#: graph, zeros included (Narayanan-Shmatikov), ``"scored"`` over the candidates that scored.
ECCENTRICITIES = ("ns", "scored")

#: Default eccentricity rule: the paper's.
DEFAULT_ECCENTRICITY = "ns"

#: Default bound on the rounds of propagation (each round adds at least one pair or stops).
DEFAULT_MAX_ROUNDS = 100

#: Default number of known seed pairs (the issue's control uses 50), at most a tenth of the
#: nodes on small graphs (:func:`default_seeds`).
DEFAULT_SEEDS = 50


def default_seeds(n: int) -> int:
    """The default number of seed pairs on ``n`` nodes: 50, at most ``n // 10`` (at least 1).

    >>> default_seeds(5242), default_seeds(34)
    (50, 3)
    """
    return min(DEFAULT_SEEDS, max(1, n // 10))


def attack_graph(g: Any, name: str) -> Graph:
    """``g`` checked as a graph an attack reads (named ``name`` in the error)."""
    return check_graph(g, name, what=None)


def _check_eccentricity(eccentricity: Any) -> str:
    if not isinstance(eccentricity, str):
        raise TypeError(
            f"eccentricity must be a string, one of {', '.join(map(repr, ECCENTRICITIES))}, "
            f"got {type(eccentricity).__name__}"
        )
    if eccentricity not in ECCENTRICITIES:
        raise ValueError(
            f"eccentricity must be one of {', '.join(map(repr, ECCENTRICITIES))}, got {eccentricity!r}"
        )
    return eccentricity


def check_same_direction(aux: Graph, target: Graph, what: str) -> None:
    """Refuse one directed and one undirected graph: a matching reads both alike (``what``: its name)."""
    if aux.directed != target.directed:
        raise ValueError(
            f"aux is {'' if aux.directed else 'un'}directed and target "
            f"{'' if target.directed else 'un'}directed: pass two directed graphs (directed "
            f"{what}) or two undirected ones (to_undirected() drops the directions)"
        )


def kernel_inputs(
    aux: Graph, target: Graph, seeds: Any
) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The checked seed mapping and the CSR arrays of a matching kernel.

    ``start[t]``: the aux node seeded for target node ``t``, or -1. The arrays: the target's CSR
    (``indptr``, ``indices``), then the aux graph's; a digraph's out-CSR then its in-CSR. Ids are
    int64 when either graph's are, else int32, in the seed mapping too.
    """
    pairs = checked_seed_pairs(seeds, target.n, aux.n)
    graphs = (target, aux)
    wide = any(g.indices.dtype == np.int64 for g in graphs)
    dtype = np.int64 if wide else np.int32
    start = np.full(target.n, -1, dtype=dtype)
    start[pairs[:, 0]] = pairs[:, 1]
    arrays: list[np.ndarray] = []
    for g in graphs:
        arrays += [g.indptr, g.indices.astype(dtype, copy=False)]
        if g.directed:
            arrays += [g.in_indptr, g.in_indices.astype(dtype, copy=False)]
    return start, tuple(arrays)


def checked_seed_pairs(seeds: Any, n_target: int, n_aux: int) -> np.ndarray:
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
    eccentricity: str = DEFAULT_ECCENTRICITY,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    threads: int | None = None,
) -> np.ndarray:
    """Map the nodes of ``target`` to nodes of ``aux`` by seed-and-extend propagation.

    Parameters
    ----------
    aux : Graph
        The attacker's auxiliary graph.
    target : Graph
        The anonymized graph to de-anonymize (its own node ids; it may differ in size from
        ``aux``). Both undirected, or both directed: directed propagation scores in- and
        out-neighbours apart (the module docstring).
    seeds : array_like of shape (k, 2)
        Known pairs ``(target node, aux node)``, each node at most once.
    theta : float
        Eccentricity threshold (>= 0) a best candidate must reach, in both directions.
    degree_ratio : float or None
        Score only candidates whose degree is within this factor (>= 1) of the node's (directed:
        in-degree and out-degree, each within the factor of the node's); None scores every
        candidate, as the paper (not in NS 2009; see :data:`~graphveil.attack.propagation.DEFAULT_DEGREE_RATIO`).
    eccentricity : {"ns", "scored"}
        The standard deviation of ``(max - second max) / std``: ``"ns"`` (default) over the
        scores of every node of the other graph, zeros included, as NS 2009 define it;
        ``"scored"`` over the candidates that scored only (a single one: +inf), graphveil's
        earlier, much stricter rule. Equal top scores give 0 either way.
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
        If a graph is empty (:class:`~graphveil.NotApplicable`), one graph is directed and the
        other not, a seed is out of range or repeats a node, or ``theta``, ``degree_ratio``,
        ``eccentricity`` or ``max_rounds`` are invalid.

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009, Section 5.2.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 2, 3, 4])
    >>> propagation(g, g, [[0, 0], [1, 1]]).tolist()
    [0, 1, 2, 3, 4]

    Directed: the 3-cycle ``0 -> 1 -> 2 -> 0`` with the tail ``2 -> 3``. Nodes 0 and 1 are twins
    of its undirected graph (a triangle), not of the digraph: from the seed 2, directed
    propagation maps them, undirected propagation cannot.

    >>> d = gv.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], directed=True)
    >>> propagation(d, d, [[2, 2]]).tolist()
    [0, 1, 2, 3]
    >>> propagation(d.to_undirected(), d.to_undirected(), [[2, 2]]).tolist()
    [-1, -1, 2, 3]
    """
    attack_graph(aux, "aux")
    attack_graph(target, "target")
    check_same_direction(aux, target, "propagation")
    for g, name in ((aux, "aux"), (target, "target")):
        if g.n == 0 or g.m == 0:
            raise NotApplicable(
                f"the {name} graph is empty ({g.n} nodes, {g.m} edges): propagation needs edges"
            )
    theta = check_real(theta, "theta", 0.0, float("inf"))
    if degree_ratio is not None:
        degree_ratio = check_real(degree_ratio, "degree_ratio", 1.0, float("inf"))
    all_nodes = _check_eccentricity(eccentricity) == "ns"
    max_rounds = check_int(max_rounds, "max_rounds", low=1)
    start, arrays = kernel_inputs(aux, target, seeds)
    ratio = float("inf") if degree_ratio is None else degree_ratio
    # the out-CSR, then the in-CSR, of each digraph
    kernel: Callable[..., Any] = _core.propagate_directed if aux.directed else _core.propagate
    mapping, _, _ = kernel(
        *arrays, start, theta, ratio, all_nodes, max_rounds, check_threads(threads)
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
        Fractions of ``nodes`` (they sum to 1; NaN when ``nodes`` is 0). ``correct`` is the
        re-identification rate over all scored nodes (``accuracy * coverage``).
    twins : float
        Fraction of ``nodes`` with a structural twin (:func:`structural_twins`): an attack
        matches those only by a guess. NaN when not measured.

    The properties ``mapped`` (``correct + wrong``), ``coverage`` (the same: the mapped share)
    and ``accuracy`` (``correct / mapped``, NaN when nothing is mapped) split the rate into how
    much the attack dares and how often it is right.
    """

    nodes: int
    correct: float
    wrong: float
    unmapped: float
    twins: float = float("nan")

    @property
    def mapped(self) -> float:
        """Fraction of the scored nodes that the mapping maps (right or wrong)."""
        return self.correct + self.wrong

    @property
    def coverage(self) -> float:
        """Mapped nodes over scored nodes (:attr:`mapped`)."""
        return self.mapped

    @property
    def accuracy(self) -> float:
        """Correct among the mapped nodes; NaN when none is mapped."""
        mapped = self.mapped
        return self.correct / mapped if mapped > 0 else float("nan")

    def as_dict(self) -> dict[str, float | int]:
        """The fields, then ``accuracy`` and ``coverage``, as a plain dict."""
        out: dict[str, float | int] = {
            name: getattr(self, name) for name in self.__dataclass_fields__
        }
        out.update(accuracy=self.accuracy, coverage=self.coverage)
        return out

    def __repr__(self) -> str:
        twins = "" if np.isnan(self.twins) else f", twins={self.twins:.4f}"
        return (
            f"Reidentification(nodes={self.nodes:,}, correct={self.correct:.4f}, "
            f"wrong={self.wrong:.4f}, unmapped={self.unmapped:.4f}{twins})"
        )


def _id_array(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer node ids, got dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def reidentification_rate(
    mapping: Any, truth: Any, nodes: Any = None, *, twins: Any = None
) -> Reidentification:
    """Score a mapping against the true correspondence.

    Parameters
    ----------
    mapping : array_like of int
        ``mapping[t]``: the aux node guessed for target node ``t``, -1 if unmapped.
    truth : array_like of int
        ``truth[t]``: the true aux node of ``t`` (same length).
    nodes : array_like of int, optional
        Score only these target nodes (e.g. :func:`core_nodes`); default every node.
    twins : array_like of bool, optional
        ``twins[t]``: target node ``t`` has a structural twin (:func:`structural_twins` of the
        graph ``truth`` points into, carried over to target ids); gives
        the ``twins`` field of :class:`Reidentification`.

    Returns
    -------
    Reidentification

    Raises
    ------
    ValueError
        If the lengths differ or ``nodes`` holds an id out of range.

    Examples
    --------
    >>> r = reidentification_rate([0, 2, -1, 3], [0, 1, 2, 3], twins=[False, True, True, False])
    >>> r
    Reidentification(nodes=4, correct=0.5000, wrong=0.2500, unmapped=0.2500, twins=0.5000)
    >>> round(r.accuracy, 4), r.coverage
    (0.6667, 0.75)
    """
    mapping = _id_array(mapping, "mapping")
    truth = _id_array(truth, "truth")
    if mapping.size != truth.size:
        raise ValueError(
            f"mapping has {mapping.size:,} entries and truth {truth.size:,}: both need one per target node"
        )
    twin = None
    if twins is not None:
        twin = np.asarray(twins)
        if twin.shape != mapping.shape or twin.dtype != np.bool_:
            raise ValueError(
                f"twins must be a boolean array with one entry per target node ({mapping.size:,}), "
                f"got shape {twin.shape} and dtype {twin.dtype}"
            )
    if nodes is not None:
        nodes = _id_array(nodes, "nodes")
        bad = (nodes < 0) | (nodes >= mapping.size)
        if bad.any():
            raise ValueError(
                f"node {int(nodes[bad][0])} is out of range for a mapping of {mapping.size:,} nodes"
            )
        mapping, truth = mapping[nodes], truth[nodes]
        twin = None if twin is None else twin[nodes]
    k = mapping.size
    nan = float("nan")
    if k == 0:
        return Reidentification(0, nan, nan, nan, nan)
    unmapped = int(np.count_nonzero(mapping < 0))
    correct = int(np.count_nonzero(mapping == truth))
    share = nan if twin is None else int(np.count_nonzero(twin)) / k
    return Reidentification(k, correct / k, (k - unmapped - correct) / k, unmapped / k, share)


def structural_twins(graph: Graph) -> np.ndarray:
    """Which nodes have a structural twin: another node with the same neighbourhood.

    Nodes ``u != v`` are *twins* when ``N(u) = N(v)`` (false twins: same neighbours, not
    adjacent) or ``N[u] = N[v]`` (true twins: adjacent, same neighbours besides each other),
    where ``N[u] = N(u) + {u}``. Swapping two twins is an automorphism of the graph, so no
    attack that reads structure alone tells them apart: a twin share ``s`` of the scored nodes
    caps a guess-free attack at ``1 - s`` of them (a lower bound on the share of nodes with an
    automorphic equivalent, which can be larger). Isolated nodes are each other's false twins.
    Exact: neighbourhoods are grouped by a hash and compared in full within each group.

    A directed graph's twins (*directed twins*) have the same out-neighbours *and* the same
    in-neighbours, open (``N_out(u) = N_out(v)`` and ``N_in(u) = N_in(v)``) or closed (both with
    the node itself added: then ``u -> v`` and ``v -> u`` are both arcs), the pairs whose swap is
    an automorphism of the digraph. They are twins of its undirected graph too, not conversely:
    direction tells apart nodes that the undirected graph cannot.

    Parameters
    ----------
    graph : Graph
        Undirected or directed.

    Returns
    -------
    numpy.ndarray
        Boolean, one entry per node.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 2, 3, 4])  # triangle 0-1-2, tail 2-3-4
    >>> structural_twins(g).tolist()  # 0 and 1: N[0] = N[1] = {0, 1, 2}
    [True, True, False, False, False]
    >>> d = gv.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 0], directed=True)  # 0 -> 1 -> 2 <-> 0
    >>> structural_twins(d).tolist(), structural_twins(d.to_undirected()).tolist()
    ([False, False, False], [True, True, True])
    """
    attack_graph(graph, "graph")
    n = graph.n
    twin = np.zeros(n, dtype=bool)
    if n < 2:
        return twin
    sides = [(graph.indptr, graph.indices.astype(np.int64, copy=False))]
    if graph.directed:  # the out-rows, then the in-rows
        sides.append((graph.in_indptr, graph.in_indices.astype(np.int64, copy=False)))
    # A random 64-bit code per node and side; a neighbourhood's hash is the (wrapping) sum of
    # its codes over the sides.
    rng = np.random.default_rng(0x7719)
    codes = [rng.integers(0, 2**63, n, dtype=np.int64).view(np.uint64) for _ in sides]
    open_hash = np.zeros(n, dtype=np.uint64)
    for (indptr, indices), code in zip(sides, codes):
        prefix = np.concatenate([np.zeros(1, np.uint64), np.cumsum(code[indices], dtype=np.uint64)])
        open_hash += prefix[indptr[1:]] - prefix[indptr[:-1]]
    closed_hash = open_hash + sum(codes[1:], codes[0])  # N[u] = N(u) + {u} on every side
    degrees = [np.diff(indptr) for indptr, _ in sides]
    for hashes, closed in ((open_hash, False), (closed_hash, True)):
        order = np.lexsort((hashes, *degrees))
        same = hashes[order][1:] == hashes[order][:-1]
        for deg in degrees:
            same &= deg[order][1:] == deg[order][:-1]
        candidate = np.zeros(n, dtype=bool)
        candidate[order[1:][same]] = True
        candidate[order[:-1][same]] = True
        # Exact check within the hash groups (a collision of distinct sets splits a group).
        groups: dict[tuple[int, tuple[bytes, ...]], list[int]] = {}
        for u in np.flatnonzero(candidate).tolist():
            rows = []
            for indptr, indices in sides:
                row = indices[indptr[u] : indptr[u + 1]]  # sorted, no self-loop (a simple Graph)
                rows.append(
                    (np.insert(row, np.searchsorted(row, u), u) if closed else row).tobytes()
                )
            groups.setdefault((int(hashes[u]), tuple(rows)), []).append(u)
        for members in groups.values():
            if len(members) > 1:
                twin[members] = True
    return twin


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
    require_undirected(graph, "core_nodes")
    attack_graph(graph, "graph")
    min_degree = check_int(min_degree, "min_degree", low=0)
    if graph.n == 0:
        return np.zeros(0, dtype=np.int64)
    # Imported here: scipy.sparse.csgraph loads scipy.sparse.linalg and scipy.linalg (about
    # 0.1 s), which nothing else needs when graphveil is imported.
    from scipy.sparse import csgraph

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
    require_undirected(aux, "high_degree_seeds")
    attack_graph(aux, "aux")
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


#: The rates of a world :func:`propagation_attack` was not asked to attack: NaN over 0 nodes.
_NOT_ATTACKED = Reidentification(0, math.nan, math.nan, math.nan)


@dataclass(frozen=True)
class PropagationAttack:
    """Propagation against a sampled world, the most-likely world and the top-m world of a release.

    Rates are over :func:`core_nodes` of ``G0`` minus the seeds (``core``) and over every
    non-seed node (``all``); their ``twins`` are the shares with a structural twin in ``G0``.
    The worlds are those of :mod:`graphveil.attack.worlds`. ``directed``: the attack read the
    arcs' directions (directed propagation on a directed release); False on an undirected
    release, or when the directions were dropped.
    """

    sampled: Reidentification
    most_likely: Reidentification
    sampled_all: Reidentification
    most_likely_all: Reidentification
    top_m: Reidentification
    top_m_all: Reidentification
    seeds: int
    theta: float
    eccentricity: str = DEFAULT_ECCENTRICITY
    directed: bool = False

    def as_dict(self) -> dict[str, Any]:
        """Nested plain dicts."""
        return {
            "sampled": self.sampled.as_dict(),
            "most_likely": self.most_likely.as_dict(),
            "sampled_all": self.sampled_all.as_dict(),
            "most_likely_all": self.most_likely_all.as_dict(),
            "top_m": self.top_m.as_dict(),
            "top_m_all": self.top_m_all.as_dict(),
            "seeds": self.seeds,
            "theta": self.theta,
            "eccentricity": self.eccentricity,
            "directed": self.directed,
        }


def propagation_table(result: PropagationAttack) -> str:
    """The printed result of ``graphveil attack propagation``: one line of rates per world."""
    columns = ("correct", "wrong", "unmapped", "accuracy", "coverage", "twins")
    rows = [
        ("sampled (core)", result.sampled),
        ("most likely (core)", result.most_likely),
        ("top m (core)", result.top_m),
        ("sampled (all)", result.sampled_all),
        ("most likely (all)", result.most_likely_all),
        ("top m (all)", result.top_m_all),
    ]
    width = max(len(n) for n, _ in rows)
    lines = [f"{'world':<{width}}  {'nodes':>9}  " + "  ".join(f"{c:>8}" for c in columns)]
    for name, rate in rows:
        values = rate.as_dict()
        lines.append(
            f"{name:<{width}}  {rate.nodes:>9,}  "
            + "  ".join(f"{values[c]:>8.4f}" for c in columns)
        )
    read = ", directed (in- and out-neighbours)" if result.directed else ""
    lines.append(
        f"seeds {result.seeds}, theta {result.theta:g}, eccentricity {result.eccentricity}{read}"
    )
    return "\n".join(lines)


def reads_directions(directed: bool | None, g0: Graph, what: str = "propagation") -> bool:
    """Whether an attack on ``g0``'s release reads the arcs' directions (None: when it has them)."""
    if directed is None:
        return g0.directed
    if directed and not g0.directed:
        raise ValueError(
            f"directed=True asks for directed {what} but g0 is undirected: pass a directed "
            "g0 and release, or leave directed out"
        )
    return bool(directed)


def _seed_count(seeds: int | None, n: int) -> int:
    """The checked number of seed pairs on ``n`` nodes (None: :func:`default_seeds`)."""
    seeds = default_seeds(n) if seeds is None else check_int(seeds, "seeds", low=0)
    if seeds > n:  # named as both the API and the command line spell it
        raise ValueError(
            f"seeds={seeds} known seed pairs asked for (--seeds on the command line) but the "
            f"graph has only {n:,} nodes: pass at most {n:,}, or leave it out for the "
            f"default ({DEFAULT_SEEDS}, at most a tenth of the nodes: {default_seeds(n)} here)"
        )
    return seeds


def propagation_attack(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    seeds: int | None = None,
    theta: float = DEFAULT_THETA,
    degree_ratio: float | None = DEFAULT_DEGREE_RATIO,
    eccentricity: str = DEFAULT_ECCENTRICITY,
    min_degree: int = 5,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    seed: SeedLike = None,
    threads: int | None = None,
    g0_twins: np.ndarray | None = None,
    directed: bool | None = None,
    worlds: Sequence[str] = WORLDS,
) -> PropagationAttack:
    """Run :func:`propagation` with ``G0`` as the auxiliary graph against a release.

    The release's ids are hidden by a random permutation (drawn from ``seed``), the attacker
    gets ``seeds`` high-degree true pairs (:func:`high_degree_seeds`), and propagation runs
    against one sampled world, the most-likely world (``p >= 0.5``) and the top-m world (the
    ``m`` pairs of highest ``p``, ``m`` = G0's edges); all three are the edge set itself for a
    deterministic release of at most ``m`` edges (:mod:`graphveil.attack.worlds`), and equal
    worlds are matched once.

    Parameters
    ----------
    g0 : Graph
        The true graph, used as the auxiliary graph.
    published : UncertainGraph or Graph
        The release on ``g0``'s node ids (before any id permutation).
    seeds : int, optional
        Number of seed pairs, at most the nodes of ``g0`` (default :func:`default_seeds`: 50,
        at most a tenth of the nodes).
    theta, degree_ratio, eccentricity, max_rounds, threads
        As for :func:`propagation`.
    min_degree : int
        Degree bound of the core the main rates are reported on (:func:`core_nodes`).
    seed : int, numpy.random.Generator or None
        Randomness of the permutation, the seeds and the sampled world.
    g0_twins : numpy.ndarray, optional
        :func:`structural_twins` of the graph the attack reads (``g0``; its undirected graph when
        the attack drops directions), when the caller attacks several releases of one G0 and
        computes it once; computed here otherwise.
    directed : bool, optional
        On a directed ``g0``: read the arcs' directions (``None``, the default, or True: directed
        propagation, in- and out-neighbours scored apart) or drop them (False: the attack on the
        underlying undirected graphs, a weaker attacker). True on an undirected ``g0`` is refused.
    worlds : sequence of str
        The worlds attacked (default all three); another's rates are NaN over 0 nodes. The
        sampled world's mapping does not depend on it.

    Returns
    -------
    PropagationAttack

    Raises
    ------
    ValueError
        If the release and ``g0`` differ in their numbers of nodes, or an argument is invalid
        (``directed=True`` on an undirected ``g0``).

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("ca-GrQc")
    >>> r = propagation_attack(g, g, seeds=50, seed=1)  # the un-anonymized control
    >>> r.sampled.wrong, r.sampled.correct > 0.6, round(r.sampled.twins, 2)
    (0.0, True, 0.23)

    A directed ``g0`` takes a directed release: directed propagation matches each attacked
    world's arcs (a sampled directed world, the most-likely one: arcs of ``p >= 0.5``, the top-m
    one) to G0's, reading in- and out-neighbours apart; the twins are G0's directed twins
    (:func:`structural_twins`). The core and the seeds are those of G0's undirected graph
    (:meth:`Graph.to_undirected`), so that ``directed=False`` (directions dropped) scores the
    same nodes from the same seeds: with one ``seed`` the two attacks read the same permutation,
    seeds and worlds, and differ only in what they read of them.

    >>> d = gv.Graph.from_edges([0, 1, 2, 2, 3, 4, 5, 6, 6], [1, 2, 0, 3, 4, 5, 3, 2, 5], directed=True)
    >>> propagation_attack(d, d, seeds=1, seed=1, min_degree=1).directed
    True
    """
    if not isinstance(g0, Graph):
        raise TypeError(f"g0 must be a graphveil.Graph, got {type(g0).__name__}")
    published = release_on(g0, published)
    directed = reads_directions(directed, g0)
    m = g0.m  # the attacker knows G0's number of edges (arcs): the top-m world's size
    aux = attack_graph(g0 if directed else g0.to_undirected(), "g0")  # the graph it reads
    g0 = g0.to_undirected()  # the core and the seeds: G0's undirected graph either way
    seeds = _seed_count(seeds, g0.n)
    eccentricity = _check_eccentricity(eccentricity)
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
    if g0_twins is None:
        g0_twins = structural_twins(aux)
    elif np.shape(g0_twins) != (g0.n,) or np.asarray(g0_twins).dtype != bool:
        raise ValueError(
            f"g0_twins must be structural_twins(g0): a boolean array of {g0.n:,} entries"
        )
    twins = np.zeros(g0.n, dtype=bool)
    twins[perm] = g0_twins

    done: list[tuple[Graph, np.ndarray]] = []  # equal worlds (a graph's three) are matched once

    def attack(world: Graph) -> tuple[Reidentification, Reidentification]:
        wu, wv = (world if directed else world.to_undirected()).edges()
        target = Graph.from_edges(perm[wu], perm[wv], g0.n, directed=directed)
        mapping = next((m for other, m in done if other == target), None)
        if mapping is None:
            mapping = propagation(
                aux,
                target,
                seed_pairs,
                theta=theta,
                degree_ratio=degree_ratio,
                eccentricity=eccentricity,
                max_rounds=max_rounds,
                threads=threads,
            )
            done.append((target, mapping))
        return (
            reidentification_rate(mapping, truth, np.flatnonzero(core), twins=twins),
            reidentification_rate(mapping, truth, np.flatnonzero(scored), twins=twins),
        )

    world = published.sample(seed=rng, threads=threads)
    assert isinstance(world, Graph)  # one sample: one Graph
    sampled, sampled_all = attack(world)
    skip = (_NOT_ATTACKED, _NOT_ATTACKED)
    likely, likely_all = attack(most_likely_world(published)) if "most_likely" in worlds else skip
    top, top_all = attack(top_m_world(published, m, ids=perm)) if "top_m" in worlds else skip
    return PropagationAttack(
        sampled, likely, sampled_all, likely_all, top, top_all, seeds, theta, eccentricity,
        bool(directed),
    )  # fmt: skip
