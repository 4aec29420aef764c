"""De-anonymization attacks on a release: percolation, reconciliation and a seedless attack.

Each attack hides the release's ids behind a random permutation, gives the attacker ``G0`` as
its auxiliary graph, and maps the nodes of each attacked world (:mod:`graphveil.attack.worlds`:
a sampled world, the most-likely world, the top-m world) back to ``G0``:

- :func:`~graphveil.attack.percolation_attack`: percolation graph matching with ExpandWhenStuck
  (:func:`~graphveil.attack.percolation`);
- :func:`~graphveil.attack.reconciliation_attack`: Korula and Lattanzi's reconciliation
  (:func:`~graphveil.attack.reconciliation`);
- :func:`~graphveil.attack.seedless_attack`: no seed given; Narayanan and Shmatikov's whole
  attack, seed identification (:func:`~graphveil.attack.seed_identification`) from the hubs'
  degrees and common neighbours, then their propagation (:func:`~graphveil.attack.propagation`).

The seeded attacks run once per seed count of a sweep (``seed_fractions`` of the nodes: 0.5%,
1%, 2% and 5% by default), drawn uniformly among G0's non-isolated nodes as in the papers
(``seed_nodes="uniform"``) or among its hubs as :func:`~graphveil.attack.propagation_attack`
(``"hubs"``). A mapping is scored as propagation's (:func:`~graphveil.attack.reidentification_rate`)
on G0's core minus the seeds and on every non-seed node: correct, wrong, unmapped, accuracy,
coverage and the share with a structural twin (:func:`~graphveil.attack.structural_twins`).

A directed G0 and release: percolation and reconciliation match G0's arcs to each world's, reading
out- and in-neighbours apart (their directed forms, :func:`~graphveil.attack.percolation` and
:func:`~graphveil.attack.reconciliation` on two digraphs; ``directed=False`` drops the directions,
the attack on the underlying undirected graphs, a weaker attacker); the seedless attack finds its
seed clique on the undirected graphs (a clique has no direction) and extends it by directed
propagation (:func:`~graphveil.attack.propagation`). The twins are then G0's directed twins; the
core and the seeds are G0's undirected graph's either way, so that the directed and the undirected
attack with one ``seed`` score the same nodes from the same seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphveil._checks import check_int, check_real
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.attack.link import release_on
from graphveil.attack.matching import (
    DEFAULT_ATTEMPTS,
    DEFAULT_CLIQUE,
    DEFAULT_ITERATIONS,
    DEFAULT_MAX_NOISY,
    DEFAULT_MAX_ROW,
    DEFAULT_MAX_SPREAD,
    DEFAULT_R,
    DEFAULT_THRESHOLD,
    DEFAULT_TOLERANCE,
    percolation,
    reconciliation,
    seed_identification,
)
from graphveil.attack.propagation import (
    DEFAULT_THETA,
    Reidentification,
    attack_graph,
    core_nodes,
    high_degree_seeds,
    propagation,
    reads_directions,
    reidentification_rate,
    structural_twins,
)
from graphveil.attack.worlds import WORLDS, most_likely_world, top_m_world
from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "DEFAULT_SEED_FRACTIONS",
    "SEED_NODES",
    "Deanonymization",
    "WorldRate",
    "deanonymization_table",
    "percolation_attack",
    "reconciliation_attack",
    "seedless_attack",
]

#: The seed sweep of a report: fractions of G0's nodes given as seed pairs.
DEFAULT_SEED_FRACTIONS = (0.005, 0.01, 0.02, 0.05)

#: How seed pairs are drawn: uniformly among G0's non-isolated nodes (the papers' setting), or
#: among its hubs (:func:`~graphveil.attack.high_degree_seeds`, propagation's).
SEED_NODES = ("uniform", "hubs")

#: A matcher: (aux, target, seed pairs) -> mapping target -> aux (-1: unmapped).
Matcher = Callable[[Graph, Graph, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class WorldRate:
    """One attacked world at one seed count: its rates on G0's core and on every node."""

    world: str
    seeds: int
    core: Reidentification
    every: Reidentification

    def as_dict(self) -> dict[str, Any]:
        """Nested plain dicts."""
        return {
            "world": self.world,
            "seeds": self.seeds,
            "core": self.core.as_dict(),
            "all": self.every.as_dict(),
        }


@dataclass(frozen=True)
class Deanonymization:
    """A de-anonymization attack against a release's worlds, at each seed count of its sweep."""

    #: The attack's registry name.
    attack: str
    #: One entry per (seed count, world), seed counts ascending, worlds in the order of
    #: :data:`~graphveil.attack.worlds.WORLDS`.
    rates: tuple[WorldRate, ...]
    #: The attack's parameters, as given.
    parameters: dict[str, Any] = field(default_factory=dict)
    #: The attack read the arcs' directions (a directed G0 and release); False on an undirected
    #: release, or when the directions were dropped (``directed=False``).
    directed: bool = False

    def rate(self, world: str = "sampled", seeds: int | None = None) -> Reidentification:
        """The core rates of ``world`` at ``seeds`` seed pairs (default: the smallest count)."""
        for r in self.rates:
            if r.world == world and (seeds is None or r.seeds == seeds):
                return r.core
        raise KeyError(f"no rates for world {world!r} with seeds={seeds}")

    def as_dict(self) -> dict[str, Any]:
        """Nested plain dicts."""
        return {
            "attack": self.attack,
            "parameters": dict(self.parameters),
            "rates": [r.as_dict() for r in self.rates],
            "directed": self.directed,
        }


def deanonymization_table(result: Deanonymization) -> str:
    """The printed result of a de-anonymization command: one line per seed count and world."""
    columns = ("correct", "wrong", "unmapped", "accuracy", "coverage", "twins")
    head = f"{'seeds':>7}  {'world':<11}  {'core':>7}  " + "  ".join(f"{c:>8}" for c in columns)
    lines = [head + f"  {'all: correct':>12}"]
    for r in result.rates:
        values = r.core.as_dict()
        lines.append(
            f"{r.seeds:>7,}  {r.world:<11}  {r.core.nodes:>7,}  "
            + "  ".join(f"{values[c]:>8.4f}" for c in columns)
            + f"  {r.every.correct:>12.4f}"
        )
    params = ", ".join(f"{k} {v}" for k, v in result.parameters.items())
    read = ", directed (in- and out-neighbours)" if result.directed else ""
    lines.append(f"{result.attack}: {params}{read}")
    return "\n".join(lines)


def _uniform_seeds(aux: Graph, truth: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` true pairs ``(target node, aux node)``, aux nodes drawn among the non-isolated ones."""
    owner = np.full(aux.n, -1, dtype=np.int64)
    owner[truth] = np.arange(truth.size)
    pool = np.flatnonzero(aux.degrees > 0)
    if k > pool.size:
        raise ValueError(f"{k} seeds asked for but G0 has {pool.size} non-isolated nodes")
    chosen = np.sort(rng.choice(pool, size=k, replace=False))
    return np.column_stack([owner[chosen], chosen]).astype(np.int64)


@dataclass
class _Setup:
    """The attacker's view of one release: hidden ids, the attacked worlds, what is scored."""

    g0: Graph  # G0's undirected graph, the auxiliary graph
    truth: np.ndarray  # truth[t]: G0 node of target node t
    core: np.ndarray  # core[t]: target node t is in G0's core
    twins: np.ndarray  # twins[t]: target node t has a structural twin in G0 (the graph read)
    worlds: dict[str, Graph]  # the attacked worlds on the hidden ids
    # An attack that reads directions (directed=True in _setup, a directed G0): G0 itself and the
    # attacked worlds with their arcs, on the hidden ids; else None and {}.
    g0_arcs: Graph | None = None
    arcs: dict[str, Graph] = field(default_factory=dict)

    def score(self, world: str, seeds: int, mapping: np.ndarray, pairs: np.ndarray) -> WorldRate:
        scored = np.ones(self.truth.size, dtype=bool)
        scored[pairs[:, 0]] = False
        core = np.flatnonzero(self.core & scored)
        every = np.flatnonzero(scored)
        return WorldRate(
            world,
            seeds,
            reidentification_rate(mapping, self.truth, core, twins=self.twins),
            reidentification_rate(mapping, self.truth, every, twins=self.twins),
        )


def _setup(
    g0: Graph,
    published: UncertainGraph | Graph,
    rng: np.random.Generator,
    *,
    min_degree: int,
    worlds: Sequence[str],
    g0_twins: np.ndarray | None,
    threads: int | None,
    directed: bool | None = None,
    what: str = "propagation",
) -> _Setup:
    """``directed``: as :func:`~graphveil.attack.percolation_attack`'s (``what`` names the attack)."""
    if not isinstance(g0, Graph):
        raise TypeError(f"g0 must be a graphveil.Graph, got {type(g0).__name__}")
    release = release_on(g0, published)
    m = g0.m  # the attacker knows the number of edges (arcs) of G0
    g0_arcs = attack_graph(g0, "g0") if reads_directions(directed, g0, what) else None
    g0 = attack_graph(g0.to_undirected(), "g0")
    perm = rng.permutation(g0.n)  # G0 node i is target node perm[i]
    truth = np.empty_like(perm)
    truth[perm] = np.arange(g0.n)
    core = np.zeros(g0.n, dtype=bool)
    core[perm[core_nodes(g0, min_degree)]] = True
    if g0_twins is None:
        g0_twins = structural_twins(g0 if g0_arcs is None else g0_arcs)
    elif np.shape(g0_twins) != (g0.n,) or np.asarray(g0_twins).dtype != bool:
        raise ValueError(
            f"g0_twins must be structural_twins(g0): a boolean array of {g0.n:,} entries"
        )
    twins = np.zeros(g0.n, dtype=bool)
    twins[perm] = g0_twins
    hidden: dict[str, Graph] = {}
    arcs: dict[str, Graph] = {}
    for world in worlds:
        if world == "sampled":
            graph = release.sample(seed=rng, threads=threads)
            assert isinstance(graph, Graph)  # one sample: one Graph
        elif world == "most_likely":
            graph = most_likely_world(release)
        else:
            graph = top_m_world(release, m, ids=perm)
        hidden[world] = _hide(graph.to_undirected(), perm, hidden)
        if g0_arcs is not None:
            arcs[world] = _hide(graph, perm, arcs)
    return _Setup(g0, truth, core, twins, hidden, g0_arcs, arcs)


def _hide(graph: Graph, perm: np.ndarray, earlier: dict[str, Graph]) -> Graph:
    """``graph`` on the hidden ids; an earlier world equal to it is returned itself (same object)."""
    wu, wv = graph.edges()
    target = Graph.from_edges(perm[wu], perm[wv], graph.n, directed=graph.directed)
    return next((other for other in earlier.values() if other == target), target)


def _seed_counts(fractions: Any, seeds: Any, g0: Graph) -> tuple[int, ...]:
    """The seed counts of a run: ``seeds`` alone, or each fraction of the nodes (at least 1)."""
    if seeds is not None:
        return (check_int(seeds, "seeds", low=0),)
    if isinstance(fractions, (int, float)):
        fractions = (fractions,)
    counts = []
    for f in fractions:
        f = check_real(f, "seed fraction", 0.0, 1.0, open_low=True)
        counts.append(max(1, round(f * g0.n)))
    if not counts:
        raise ValueError("seed_fractions must hold at least one fraction in (0, 1]")
    return tuple(sorted(set(counts)))


def _check_bounds(**bounds: Any) -> None:
    """Each bound is None (off) or an integer >= 1 (checked before any work is done)."""
    for name, value in bounds.items():
        if value is not None:
            check_int(value, name, low=1)


def _check_worlds(worlds: Any) -> tuple[str, ...]:
    if isinstance(worlds, str):
        worlds = (worlds,)
    worlds = tuple(worlds)
    bad = [w for w in worlds if w not in WORLDS]
    if bad or not worlds:
        raise ValueError(f"worlds must be some of {', '.join(map(repr, WORLDS))}, got {worlds!r}")
    return worlds


def _check_seed_nodes(seed_nodes: Any) -> str:
    if seed_nodes not in SEED_NODES:
        raise ValueError(
            f"seed_nodes must be one of {', '.join(map(repr, SEED_NODES))}, got {seed_nodes!r}"
        )
    return str(seed_nodes)


def _seeded(
    name: str,
    matcher: Matcher,
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    seed_counts: tuple[int, ...],
    seed_nodes: str,
    min_degree: int,
    seed: SeedLike,
    threads: int | None,
    g0_twins: np.ndarray | None,
    parameters: dict[str, Any],
    worlds: Sequence[str] = WORLDS,
    directed: bool | None = None,
) -> Deanonymization:
    """Run ``matcher`` from each seed count's seeds against each world (one permutation).

    ``directed`` (None: when G0 is directed): match G0's arcs to each world's, else the
    undirected graphs.
    """
    rng = np.random.default_rng(seed_to_u64(seed))
    s = _setup(
        g0,
        published,
        rng,
        min_degree=min_degree,
        worlds=worlds,
        g0_twins=g0_twins,
        threads=threads,
        directed=directed,
        what=name,
    )
    aux = s.g0 if s.g0_arcs is None else s.g0_arcs
    rates = []
    for k in seed_counts:
        if seed_nodes == "hubs":
            pairs = high_degree_seeds(s.g0, s.truth, k, seed=rng)
        else:
            pairs = _uniform_seeds(s.g0, s.truth, k, rng)
        mappings: dict[int, np.ndarray] = {}  # by world graph: equal worlds are matched once
        for world in worlds:
            graph = s.worlds[world] if s.g0_arcs is None else s.arcs[world]
            if id(graph) not in mappings:
                mappings[id(graph)] = matcher(aux, graph, pairs)
            rates.append(s.score(world, k, mappings[id(graph)], pairs))
    params = {**parameters, "seed_nodes": seed_nodes}
    return Deanonymization(name, tuple(rates), params, s.g0_arcs is not None)


def percolation_attack(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    seed_fractions: Sequence[float] = DEFAULT_SEED_FRACTIONS,
    seeds: int | None = None,
    seed_nodes: str = "uniform",
    r: int = DEFAULT_R,
    expand_when_stuck: bool = True,
    max_spread: int | None = DEFAULT_MAX_SPREAD,
    max_noisy: int | None = DEFAULT_MAX_NOISY,
    min_degree: int = 5,
    seed: SeedLike = None,
    threads: int | None = None,
    g0_twins: np.ndarray | None = None,
    worlds: Sequence[str] = WORLDS,
    directed: bool | None = None,
) -> Deanonymization:
    """Percolation graph matching with ExpandWhenStuck against a release's worlds.

    Parameters
    ----------
    g0 : Graph
        The true graph, the attacker's auxiliary graph.
    published : UncertainGraph or Graph
        The release on ``g0``'s node ids.
    seed_fractions : sequence of float
        The sweep: fractions of the nodes (in (0, 1]) given as seed pairs, one run each.
    seeds : int, optional
        One run with this many seed pairs instead of the sweep (>= 0).
    seed_nodes : {"uniform", "hubs"}
        Seeds drawn uniformly among G0's non-isolated nodes, or among its hubs.
    r, expand_when_stuck, max_spread, max_noisy
        As :func:`~graphveil.attack.percolation`.
    min_degree : int
        Degree bound of the core the main rates are on (:func:`~graphveil.attack.core_nodes`).
    seed : int, numpy.random.Generator or None
        Randomness of the permutation, the sampled world and the seeds.
    threads : int, optional
        Threads of the sampling; the result does not depend on it.
    g0_twins : numpy.ndarray, optional
        :func:`~graphveil.attack.structural_twins` of the graph the attack reads (``g0``; its
        undirected graph when the attack drops directions), if known.
    worlds : sequence of str
        The worlds attacked (:data:`~graphveil.attack.worlds.WORLDS`, the default).
    directed : bool, optional
        On a directed ``g0``: read the arcs' directions (``None``, the default, or True: directed
        percolation, marks along out-arcs and in-arcs apart) or drop them (False: the attack on
        the underlying undirected graphs, a weaker attacker). True on an undirected ``g0`` is
        refused.

    Returns
    -------
    Deanonymization

    Raises
    ------
    ValueError
        If the release is not on ``g0``'s nodes or a parameter is out of range.

    References
    ----------
    E. Kazemi, S. H. Hassani, M. Grossglauser, "Growing a graph matching from a handful of
    seeds", PVLDB 8(10), 2015.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("karate_club")
    >>> r = percolation_attack(g, g, seed_fractions=[0.1], seed=1)  # the control
    >>> r.rate("sampled").coverage
    1.0
    """
    r = check_int(r, "r", low=1)
    _check_bounds(max_spread=max_spread, max_noisy=max_noisy)
    counts = _seed_counts(seed_fractions, seeds, g0)
    params = {
        "r": r,
        "expand_when_stuck": bool(expand_when_stuck),
        "max_spread": max_spread,
        "max_noisy": max_noisy,
    }

    def matcher(aux: Graph, target: Graph, pairs: np.ndarray) -> np.ndarray:
        return percolation(
            aux,
            target,
            pairs,
            r=r,
            expand_when_stuck=expand_when_stuck,
            max_spread=max_spread,
            max_noisy=max_noisy,
            refuse_stalled=True,
        )

    return _seeded(
        "percolation",
        matcher,
        g0,
        published,
        seed_counts=counts,
        seed_nodes=_check_seed_nodes(seed_nodes),
        min_degree=check_int(min_degree, "min_degree", low=0),
        seed=seed,
        threads=threads,
        g0_twins=g0_twins,
        parameters=params,
        worlds=_check_worlds(worlds),
        directed=directed,
    )


def reconciliation_attack(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    seed_fractions: Sequence[float] = DEFAULT_SEED_FRACTIONS,
    seeds: int | None = None,
    seed_nodes: str = "uniform",
    threshold: int = DEFAULT_THRESHOLD,
    iterations: int = DEFAULT_ITERATIONS,
    max_row: int | None = DEFAULT_MAX_ROW,
    min_degree: int = 5,
    seed: SeedLike = None,
    threads: int | None = None,
    g0_twins: np.ndarray | None = None,
    worlds: Sequence[str] = WORLDS,
    directed: bool | None = None,
) -> Deanonymization:
    """Korula-Lattanzi reconciliation against a release's worlds.

    Parameters
    ----------
    g0, published, seed_fractions, seeds, seed_nodes, min_degree, seed, g0_twins, worlds
        As :func:`~graphveil.attack.percolation_attack`.
    directed : bool, optional
        As :func:`~graphveil.attack.percolation_attack`: True or None on a directed ``g0`` is
        directed reconciliation (out- and in-witnesses counted apart and summed).
    threshold, iterations, max_row
        As :func:`~graphveil.attack.reconciliation`.
    threads : int, optional
        Threads of the sampling and of the kernel; the result does not depend on it.

    Returns
    -------
    Deanonymization

    References
    ----------
    N. Korula, S. Lattanzi, "An efficient reconciliation algorithm for social networks",
    PVLDB 7(5), 2014.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("karate_club")
    >>> r = reconciliation_attack(g, g, seed_fractions=[0.1], seed=1)  # the control
    >>> r.rate("top_m").wrong
    0.0
    """
    threshold = check_int(threshold, "threshold", low=1)
    iterations = check_int(iterations, "iterations", low=1)
    _check_bounds(max_row=max_row)
    counts = _seed_counts(seed_fractions, seeds, g0)

    def matcher(aux: Graph, target: Graph, pairs: np.ndarray) -> np.ndarray:
        return reconciliation(
            aux,
            target,
            pairs,
            threshold=threshold,
            iterations=iterations,
            max_row=max_row,
            threads=threads,
        )

    return _seeded(
        "reconciliation",
        matcher,
        g0,
        published,
        seed_counts=counts,
        seed_nodes=_check_seed_nodes(seed_nodes),
        min_degree=check_int(min_degree, "min_degree", low=0),
        seed=seed,
        threads=threads,
        g0_twins=g0_twins,
        parameters={"threshold": threshold, "iterations": iterations, "max_row": max_row},
        worlds=_check_worlds(worlds),
        directed=directed,
    )


def seedless_attack(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    size: int = DEFAULT_CLIQUE,
    tolerance: float = DEFAULT_TOLERANCE,
    attempts: int = DEFAULT_ATTEMPTS,
    theta: float = DEFAULT_THETA,
    min_degree: int = 5,
    seed: SeedLike = None,
    threads: int | None = None,
    g0_twins: np.ndarray | None = None,
    worlds: Sequence[str] = WORLDS,
) -> Deanonymization:
    """Narayanan and Shmatikov's whole attack: seed identification, then propagation.

    No seed pair is given: :func:`~graphveil.attack.seed_identification` matches a
    ``size``-clique of G0's hubs to the one clique of the world with the same degrees and
    common-neighbour counts (within ``tolerance``; from each of ``attempts`` hubs in turn until
    one matches uniquely), and :func:`~graphveil.attack.propagation` (its defaults but
    ``theta``) extends the matching from it. When no clique matches uniquely, nothing is mapped.
    Rates are over G0's core (and every node): the identified seeds count as re-identified when
    right. On a directed release the clique is found on the undirected graphs and propagation is
    directed (in- and out-neighbours apart); the twins are G0's directed twins.

    Parameters
    ----------
    g0, published, min_degree, seed, worlds
        As :func:`~graphveil.attack.percolation_attack`.
    g0_twins : numpy.ndarray, optional
        :func:`~graphveil.attack.structural_twins` of ``g0`` (directed twins of a directed G0), if
        known.
    size, tolerance, attempts
        As :func:`~graphveil.attack.seed_identification`.
    theta : float
        As :func:`~graphveil.attack.propagation`.
    threads : int, optional
        Threads of the sampling and of propagation; the result does not depend on it.

    Returns
    -------
    Deanonymization
        Its rates have ``seeds`` 0: none was given.

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009, Sections 5.1
    (seed identification) and 5.2 (propagation).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("ca-GrQc")
    >>> r = seedless_attack(g, g, seed=1)  # the control
    >>> r.rate("most_likely").correct > 0.6, r.rate("most_likely").wrong
    (True, 0.0)
    """
    size = check_int(size, "size", low=1)
    tolerance = check_real(tolerance, "tolerance", 0.0, 1.0)
    attempts = check_int(attempts, "attempts", low=1)
    theta = check_real(theta, "theta", 0.0, float("inf"))
    rng = np.random.default_rng(seed_to_u64(seed))
    min_degree = check_int(min_degree, "min_degree", low=0)
    worlds = _check_worlds(worlds)
    s = _setup(
        g0,
        published,
        rng,
        min_degree=min_degree,
        worlds=worlds,
        g0_twins=g0_twins,
        threads=threads,
    )
    rates = []
    mappings: dict[int, np.ndarray] = {}  # by world graph: equal worlds are matched once
    for world in worlds:
        graph = s.worlds[world]
        read = graph if s.g0_arcs is None else s.arcs[world]  # what propagation reads
        if id(read) not in mappings:
            pairs = seed_identification(
                s.g0, graph, size=size, tolerance=tolerance, attempts=attempts
            )
            mapping = np.full(graph.n, -1, dtype=np.int64)
            if pairs.size:  # found: a world with edges and a G0 with edges
                aux = s.g0 if s.g0_arcs is None else s.g0_arcs
                mapping = propagation(aux, read, pairs, theta=theta, threads=threads)
            mappings[id(read)] = mapping
        rates.append(s.score(world, 0, mappings[id(read)], np.zeros((0, 2), dtype=np.int64)))
    params = {"size": size, "tolerance": tolerance, "attempts": attempts, "theta": theta}
    return Deanonymization("seedless", tuple(rates), params, s.g0_arcs is not None)
