"""Graph-matching de-anonymization: percolation, reconciliation and seed identification.

Each maps the nodes of a target graph (the anonymized one) to the nodes of an auxiliary graph
from structure alone, like :func:`~graphveil.attack.propagation`:

- :func:`~graphveil.attack.percolation`: percolation graph matching with ExpandWhenStuck (Yartseva and
  Grossglauser, COSN 2013; Kazemi, Hassani and Grossglauser, VLDB 2015). Matched pairs spread
  marks to their neighbouring pairs; the pair with the most marks, at least ``r``, is matched
  next. When no pair has ``r`` marks, the neighbouring pairs of the matched ones spread their
  marks as noisy seeds, which lets a handful of seeds percolate.
- :func:`~graphveil.attack.reconciliation`: Korula and Lattanzi's User-Matching (VLDB 2014). Rounds over degree
  buckets from high to low degree; a pair is matched when it has the most similarity witnesses
  (matched pairs among its neighbours) on both sides, and at least ``threshold``.
- :func:`~graphveil.attack.seed_identification`: Narayanan and Shmatikov's seed identification (IEEE S&P 2009,
  Section 5.1): the attacker takes a clique of high-degree nodes of the auxiliary graph and finds
  the one clique of the target graph whose degrees and pairwise common-neighbour counts match;
  its pairs are seeds that no one had to give (the seedless attack,
  :func:`~graphveil.attack.seedless_attack`).

Percolation and reconciliation take two undirected graphs or two directed ones. On digraphs they
read out- and in-neighbourhoods apart (graphveil's directed forms; the papers are about undirected
graphs): a matched pair ``(t, a)`` marks the pairs of its out-neighbours (``t -> x``, ``a -> y``)
and, apart, the pairs of its in-neighbours (``x -> t``, ``y -> a``); a pair's similarity witnesses
are its out-witnesses plus its in-witnesses. A node's degree there is its in- plus out-degree.

The kernels are C++ (percolation sequential, reconciliation parallel over the nodes of a step);
both give the same mapping on any number of threads. docs/faithfulness.rst lists where they
depart from the papers and why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_int, check_real, check_threads, require_undirected
from graphveil.attack.propagation import attack_graph, check_same_direction, kernel_inputs
from graphveil.graph import Graph

__all__ = ["percolation", "reconciliation", "seed_identification"]

#: Default mark threshold of percolation: 2, the smallest that filters chance (Kazemi et al.
#: use r = 2 in most of their experiments).
DEFAULT_R = 2

#: Default bound on the pairs one pair marks, deg(t) deg(a): a pair of two hubs of a web graph
#: would mark 10^8 pairs. Above every pair of ca-GrQc (81^2) and email-Enron (1,383^2 > it only
#: for its few top hubs), so exact on the first. It was 10^4, under which the study's hub seeds
#: of email-Enron spread nothing: percolation re-identified 0 of its core, G0 attacking itself
#: included; at 10^6 the control re-identifies 0.887 (about 1 s for the three worlds).
DEFAULT_MAX_SPREAD = 1_000_000

#: Default bound on the marks all noisy seeds of ExpandWhenStuck spread (the sum of their
#: deg(x) deg(y)): every matched pair offers deg(t) deg(a) noisy seeds. The control on ca-GrQc
#: with 1% seeds spreads 1.3 million.
DEFAULT_MAX_NOISY = 2_000_000

#: Default witness threshold of reconciliation (Korula and Lattanzi's T).
DEFAULT_THRESHOLD = 2

#: Default bound on the passes over the degree buckets (Korula and Lattanzi's k). Passes stop
#: after one that adds nothing; the control on ca-GrQc stops adding after 8.
DEFAULT_ITERATIONS = 10

#: Default bound on the image rows reconciliation reads in full: a matched neighbour whose image
#: has more neighbours is only searched (exact up to this degree; email-Enron's largest is 1,383).
DEFAULT_MAX_ROW = 2_000

#: Default clique size of seed identification.
DEFAULT_CLIQUE = 4

#: Default relative tolerance of seed identification's degrees and common-neighbour counts.
DEFAULT_TOLERANCE = 0.05

#: Default number of hubs seed identification starts a clique from, in turn.
DEFAULT_ATTEMPTS = 10


def _prepare(
    aux: Graph, target: Graph, seeds: Any, what: str
) -> tuple[np.ndarray, tuple[Any, ...]]:
    """The checked seed mapping and the kernel's arrays (:func:`kernel_inputs`)."""
    attack_graph(aux, "aux")
    attack_graph(target, "target")
    check_same_direction(aux, target, what)
    return kernel_inputs(aux, target, seeds)


def percolation(
    aux: Graph,
    target: Graph,
    seeds: Any,
    *,
    r: int = DEFAULT_R,
    expand_when_stuck: bool = True,
    max_spread: int | None = DEFAULT_MAX_SPREAD,
    max_noisy: int | None = DEFAULT_MAX_NOISY,
    refuse_stalled: bool = False,
) -> np.ndarray:
    """Map the nodes of ``target`` to nodes of ``aux`` by percolation graph matching.

    Each matched pair ``(t, a)`` adds one mark to every pair ``(t', a')`` with ``t'`` a
    neighbour of ``t`` and ``a'`` one of ``a``, both unmatched. The unmatched pair with the most
    marks, at least ``r``, is matched next (equal marks: the smallest ``t'``, then ``a'``), and
    spreads its own marks. With ``expand_when_stuck``, when no pair has ``r`` marks every
    neighbouring pair of a matched pair that has not spread yet spreads its marks once, unmatched
    (noisy seeds); percolation stops when a phase has nothing left to spread.

    Parameters
    ----------
    aux : Graph
        The attacker's auxiliary graph.
    target : Graph
        The anonymized graph (its own ids; it may differ in size from ``aux``). Both undirected,
        or both directed: directed percolation (the module docstring).
    seeds : array_like of shape (k, 2)
        Known pairs ``(target node, aux node)``, each node at most once.
    r : int
        Marks a pair needs to be matched (>= 1).
    expand_when_stuck : bool
        Kazemi et al.'s ExpandWhenStuck; False is the plain percolation of Yartseva and
        Grossglauser, which stops when no pair has ``r`` marks.
    max_spread : int or None
        A pair ``(t, a)`` with ``deg(t) * deg(a) > max_spread`` (on digraphs ``out(t) out(a) +
        in(t) in(a)``, the pairs it marks) does not spread marks (nor offer its neighbouring pairs
        as noisy seeds); None: every pair spreads, as the papers.
    max_noisy : int or None
        ExpandWhenStuck takes noisy seeds (in the order their matched pairs were matched) only
        until they may spread ``max_noisy`` marks in all (the sum of their ``deg(x) deg(y)``);
        None: every one, as the paper.
    refuse_stalled : bool
        Refuse (ValueError) seeds none of which may spread a mark under ``max_spread``: the match
        would map nothing whatever the graphs. The attacks ask for it
        (:func:`~graphveil.attack.percolation_attack`), so a bound never reads as protection.

    Returns
    -------
    numpy.ndarray
        ``mapping[t]``: the aux node of target node ``t``, or -1; int64, seeds included.

    Raises
    ------
    TypeError, ValueError
        As :func:`~graphveil.attack.propagation` for the graphs and seeds; ValueError for an
        ``r``, ``max_spread`` or ``max_noisy`` below 1.

    Notes
    -----
    A pair with a node of degree below ``r`` is never marked: matched pairs form a matching, so
    it cannot collect ``r`` marks from them. On digraphs equal marks go to the smallest
    ``|in(t') - in(a')| + |out(t') - out(a')|``, and a pair joined to a matched pair by arcs both
    ways in both graphs gets two marks from it. Sequential C++; time is the sum of
    ``deg(t) * deg(a)`` over the pairs that spread, memory a hash table of the marked pairs
    (at most 22 bytes a pair with 32-bit ids) and the candidates of ``r`` marks or more (8 bytes
    each below 2^21 nodes).

    References
    ----------
    L. Yartseva, M. Grossglauser, "On the performance of percolation graph matching", COSN 2013.
    E. Kazemi, S. H. Hassani, M. Grossglauser, "Growing a graph matching from a handful of
    seeds", PVLDB 8(10), 2015, Algorithm 2 (ExpandWhenStuck).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 1, 2, 3], [1, 2, 2, 3, 3, 4])
    >>> percolation(g, g, [[0, 0], [1, 1]]).tolist()
    [0, 1, 2, 3, -1]
    """
    start, arrays = _prepare(aux, target, seeds, "percolation")
    r = check_int(r, "r", low=1)
    top = np.iinfo(np.int64).max
    spread = top if max_spread is None else check_int(max_spread, "max_spread", 1)
    noisy = top if max_noisy is None else check_int(max_noisy, "max_noisy", 1)
    if refuse_stalled:
        _refuse_stalled_seeds(aux, target, start, spread)
    # a digraph: marks along out-arcs and in-arcs apart
    kernel: Callable[..., Any] = _core.percolate_directed if aux.directed else _core.percolate
    mapping, _, _, _ = kernel(*arrays, start, r, bool(expand_when_stuck), spread, noisy)
    return mapping.astype(np.int64, copy=False)


def _refuse_stalled_seeds(aux: Graph, target: Graph, start: np.ndarray, spread: int) -> None:
    """Refuse seeds none of which may spread a mark: the match would report 0, not a measurement.

    A seed pair ``(t, a)`` with ``deg(t) deg(a) > spread`` (on digraphs ``out(t) out(a) +
    in(t) in(a)``) marks nothing, so when every seed is
    such a pair percolation maps no node whatever the release (the study's hub seeds of
    email-Enron did so under the earlier bound of 10^4).
    """
    t = np.flatnonzero(start >= 0)
    if t.size == 0:
        return
    a = start[t]
    products = np.diff(target.indptr)[t].astype(np.float64) * np.diff(aux.indptr)[a]
    if target.directed:  # out(t) out(a) + in(t) in(a)
        products += np.diff(target.in_indptr)[t].astype(np.float64) * np.diff(aux.in_indptr)[a]
    if bool(np.all(products > spread)):
        raise ValueError(
            f"every one of the {t.size} seed pairs has deg(t) deg(a) above max_spread={spread:,} "
            f"(the smallest is {int(products.min()):,}), so none would spread a mark and "
            "percolation would map nothing whatever the release: raise max_spread (None: no "
            "bound) or give seeds of lower degree"
        )


def reconciliation(
    aux: Graph,
    target: Graph,
    seeds: Any,
    *,
    threshold: int = DEFAULT_THRESHOLD,
    iterations: int = DEFAULT_ITERATIONS,
    max_row: int | None = DEFAULT_MAX_ROW,
    threads: int | None = None,
) -> np.ndarray:
    """Map the nodes of ``target`` to nodes of ``aux`` by Korula-Lattanzi reconciliation.

    At most ``iterations`` passes (fewer when one adds nothing, which leaves every later pass
    the same); each runs one step per degree bucket ``j = floor(log2 D), ..., 1``
    (``D`` the larger maximum degree). In a step, with the mapping of the previous step fixed,
    every unmatched pair ``(t, a)`` of degrees ``>= 2^j`` scores its *similarity witnesses*, the
    matched pairs ``(x, y)`` with ``x`` a neighbour of ``t`` and ``y`` one of ``a``; the pair is
    matched when its score is at least ``threshold`` and strictly the highest of every pair of
    ``t`` and of every pair of ``a`` (a tie at the top matches neither). On two digraphs the
    witnesses of ``(t, a)`` are the matched ``(x, y)`` with ``t -> x`` and ``a -> y`` plus those
    with ``x -> t`` and ``y -> a``, counted apart and summed (a matched pair joined to both by
    arcs both ways counts twice, one joined by arcs of opposite directions not at all), and the
    buckets read in- plus out-degrees.

    Parameters
    ----------
    aux, target, seeds
        As :func:`~graphveil.attack.percolation`.
    threshold : int
        Witnesses a pair needs (>= 1; the paper's T).
    iterations : int
        Bound on the passes over the buckets (>= 1; the paper's k).
    max_row : int or None
        A pair's witnesses through a matched neighbour whose image has more than ``max_row``
        neighbours (on digraphs in- plus out-degree) count only for candidates that also have a
        witness through another row (the thousands of pages around a hub of a web graph are not
        enumerated from it); None: every witness counts, as the paper.
    threads : int, optional
        Worker threads (``None`` or 0: every core). The result does not depend on it.

    Returns
    -------
    numpy.ndarray
        ``mapping[t]``: the aux node of target node ``t``, or -1; int64, seeds included.

    Raises
    ------
    TypeError, ValueError
        As :func:`~graphveil.attack.percolation`; ValueError for a ``threshold``, ``iterations`` or ``max_row``
        below 1.

    Notes
    -----
    A node's candidates are read from the image rows of its matched neighbours. A candidate
    with ``f`` witnesses lies in some row besides the ``f - 1`` longest, so with ``f`` the
    threshold (or a higher lower bound of the top score) those are only searched (binary
    search), which is exact. Nodes with the same matched neighbours share one scoring. Nodes are
    scored in parallel against the mapping of the previous step, with integer scores: the result
    does not depend on ``threads``.

    References
    ----------
    N. Korula, S. Lattanzi, "An efficient reconciliation algorithm for social networks",
    PVLDB 7(5), 2014, Algorithm 1 (User-Matching).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 1, 2, 3], [1, 2, 2, 3, 3, 4])
    >>> reconciliation(g, g, [[0, 0], [1, 1]]).tolist()
    [0, 1, 2, 3, -1]
    """
    start, arrays = _prepare(aux, target, seeds, "reconciliation")
    threshold = check_int(threshold, "threshold", low=1)
    iterations = check_int(iterations, "iterations", low=1)
    row = np.iinfo(np.int64).max if max_row is None else check_int(max_row, "max_row", low=1)
    # a digraph: out-witnesses plus in-witnesses
    kernel: Callable[..., Any] = _core.reconcile_directed if aux.directed else _core.reconcile
    mapping, _, _ = kernel(*arrays, start, threshold, iterations, row, check_threads(threads))
    return mapping.astype(np.int64, copy=False)


def _row(g: Graph, x: int) -> np.ndarray:
    return g.indices[g.indptr[x] : g.indptr[x + 1]]


def _common(g: Graph, x: int, y: int) -> int:
    return int(np.intersect1d(_row(g, x), _row(g, y), assume_unique=True).size)


def _hub_clique(aux: Graph, start: int, size: int) -> list[int]:
    """A clique of high-degree aux nodes, greedily.

    ``start``, then each time the highest-degree node adjacent to every node taken (equal
    degrees: smallest id); shorter if none is left.
    """
    deg = aux.degrees
    clique = [start]
    common = _row(aux, start).astype(np.int64)
    while len(clique) < size and common.size:
        nxt = int(common[np.lexsort((common, -deg[common]))[0]])
        clique.append(nxt)
        common = np.intersect1d(common, _row(aux, nxt), assume_unique=True)
    return clique


def _clique_matches(
    aux: Graph, target: Graph, clique: list[int], tolerance: float, budget: list[int]
) -> list[list[int]]:
    """Up to two cliques of ``target`` matching ``clique`` in order.

    Degrees and pairwise common neighbours within ``tolerance``, depth-first in id order;
    ``budget[0]`` counts the candidate nodes left to try (the search stops when it runs out).
    """
    k = len(clique)
    want_deg = aux.degrees[clique].astype(np.float64)
    want_common = np.array([[_common(aux, a, b) for b in clique] for a in clique], dtype=np.float64)
    tdeg = target.degrees

    def close(x: float, want: float) -> bool:
        return abs(x - want) <= tolerance * want

    first = np.flatnonzero(np.abs(tdeg - want_deg[0]) <= tolerance * want_deg[0])
    found: list[list[int]] = []
    stack: list[tuple[list[int], np.ndarray]] = [([], first)]
    while stack and len(found) < 2:
        chosen, candidates = stack.pop()
        i = len(chosen)
        for x in candidates[::-1].tolist():  # reversed: the smallest id is popped first
            budget[0] -= 1
            if budget[0] < 0:
                return found
            if x in chosen or not close(float(tdeg[x]), want_deg[i]):
                continue
            if any(
                not close(_common(target, x, y), want_common[i, j]) for j, y in enumerate(chosen)
            ):
                continue
            path = [*chosen, x]
            if i + 1 == k:
                found.append(path)
            else:
                rest = _row(target, path[0]).astype(np.int64)
                for y in path[1:]:
                    rest = np.intersect1d(rest, _row(target, y), assume_unique=True)
                stack.append((path, rest))
    return found


def seed_identification(
    aux: Graph,
    target: Graph,
    *,
    size: int = DEFAULT_CLIQUE,
    tolerance: float = DEFAULT_TOLERANCE,
    attempts: int = DEFAULT_ATTEMPTS,
    max_steps: int = 1_000_000,
) -> np.ndarray:
    """Seed pairs found from structure alone: Narayanan-Shmatikov seed identification.

    The attacker takes a clique of ``size`` high-degree nodes of ``aux`` (a hub, then each time
    the highest-degree node adjacent to all taken) with their degrees and pairwise
    common-neighbour counts, and searches ``target`` for cliques whose nodes match them in order,
    each degree and count within a factor ``1 +- tolerance``. When exactly one clique of the
    target matches, its pairs are the seeds; none, or an ambiguous match (structurally equal
    hubs), gives none, as in the paper, and the next clique is tried: from each of the
    ``attempts`` highest-degree nodes of ``aux`` in turn (equal degrees: smallest id).

    Parameters
    ----------
    aux, target : Graph
        As :func:`~graphveil.attack.percolation`.
    size : int
        Clique size (>= 1; smaller if ``aux`` has no such clique around a hub).
    tolerance : float
        Relative tolerance of degrees and common-neighbour counts, in ``[0, 1)``.
    attempts : int
        Hubs tried as the clique's first node (>= 1).
    max_steps : int
        Bound on the candidate nodes the search tries over all attempts (>= 1); past it, the
        search gives up (no seeds).

    Returns
    -------
    numpy.ndarray
        Shape ``(k, 2)``: rows ``(target node, aux node)``; ``k`` is 0 or the clique's size.

    References
    ----------
    A. Narayanan, V. Shmatikov, "De-anonymizing Social Networks", IEEE S&P 2009, Section 5.1.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.Graph.from_edges([0, 0, 1, 0, 0, 0, 1, 1, 2], [1, 2, 2, 3, 4, 5, 6, 7, 8])
    >>> seed_identification(g, g, size=3).tolist()  # the triangle of degrees 5, 4, 3
    [[0, 0], [1, 1], [2, 2]]
    """
    for g, name in ((aux, "aux"), (target, "target")):
        attack_graph(g, name)
        require_undirected(g, "seed_identification")
    size = check_int(size, "size", low=1)
    tolerance = check_real(tolerance, "tolerance", 0.0, 1.0)
    if tolerance >= 1.0:
        raise ValueError(f"tolerance must lie in [0, 1), got {tolerance!r}")
    attempts = check_int(attempts, "attempts", low=1)
    budget = [check_int(max_steps, "max_steps", low=1)]
    if aux.m == 0 or target.m == 0:
        return np.zeros((0, 2), dtype=np.int64)
    hubs = np.lexsort((np.arange(aux.n), -aux.degrees))[:attempts]
    for start in hubs.tolist():
        if aux.degrees[start] == 0:
            break
        clique = _hub_clique(aux, start, size)
        found = _clique_matches(aux, target, clique, tolerance, budget)
        if budget[0] < 0:
            break
        if len(found) == 1:
            return np.column_stack([found[0], clique]).astype(np.int64)
    return np.zeros((0, 2), dtype=np.int64)
