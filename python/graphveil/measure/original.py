"""The true graph G0 measured once: what every evaluation against it reuses.

A study evaluates many published graphs, each on many samples, against one true graph. What
those evaluations need of G0 does not change between them, so :class:`Original` computes it
once: the signature classes of H1 and H2_open in the form the C++ score kernel takes (a score
then computes only the sample's signatures), the sorted edge keys of the edge-difference
counts, and G0's own row of the paper's tables (its numbers of signatures, the utility
statistics and eps), drawn with the one statistics seed every sample shares.

It pickles cheaply enough to be an argument of every task on an executor: the signature
classes (one int64 per node and the classes' representatives) travel with the graph, since
rebuilding them costs a sort of every neighbourhood; the edge keys (one int64 per edge) are
left out and rebuilt on first use, since that is one pass over the edges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_ints, check_threads
from graphveil._common import in_sorted
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph
from graphveil.measure.analyst import AnalystReference, analyst_reference
from graphveil.measure.privacy import SignatureIndex, h1, h2_open, signature_index
from graphveil.measure.scores import EPS, H1, H2_OPEN, sample_score_names
from graphveil.measure.scoring import DEFAULT as DEFAULT_SCORING
from graphveil.measure.scoring import authors_h2_open, check_scoring
from graphveil.measure.scoring import scoring as scoring_named
from graphveil.measure.utility import (
    analyst_names,
    diameter_choice,
    statistic_names,
    utility_statistics,
)
from graphveil.multigraph import Multigraph

__all__ = ["DIRECTED_EPS_DEGREE", "PAPER_K", "Original", "eps_degree"]

#: The k values of the paper's eps columns.
PAPER_K: tuple[int, ...] = (30, 50, 100)

#: The degree of the eps columns of a directed G0 (reports and the study): the joint
#: ``(in, out)`` degree, the property directed (k, eps)-obfuscation hides by default, so a
#: directed obfuscation's own target is what its eps columns measure.
DIRECTED_EPS_DEGREE = "joint"


def eps_degree(graph: Any) -> str | None:
    """The ``degree`` of :func:`~graphveil.measure.privacy.eps` in reports on ``graph``.

    None (the degree) for an undirected graph, :data:`DIRECTED_EPS_DEGREE` for a directed one.
    """
    return DIRECTED_EPS_DEGREE if getattr(graph, "directed", False) is True else None


def check_same_kind(g0: Any, published: Any) -> None:
    """Refuse measuring a directed graph against an undirected one (either way round)."""
    d0, d1 = getattr(g0, "directed", False) is True, getattr(published, "directed", False) is True
    if d0 != d1:
        raise ValueError(
            f"g0 is {'' if d0 else 'un'}directed and the published graph "
            f"{'' if d1 else 'un'}directed: evaluate a directed release against its directed G0 "
            "(or convert both with to_undirected())"
        )


class Original:
    """G0 measured once, for every evaluation against it (:func:`~graphveil.evaluate`).

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    k : int or iterable of int, default (30, 50, 100)
        Obfuscation levels of G0's eps in :attr:`row`.
    statistics_seed : int, numpy.random.Generator or None
        Seed of the statistics' own randomness (BFS sources, HyperBall hashes), shared by G0's
        row and every sample measured against it so that estimation errors cancel in rel.err.
        None draws one.
    threads : int, optional
        Worker threads (None or 0: all cores). Nothing depends on it.
    statistics : callable, optional
        ``f(graph, *, seed, threads) -> dict`` with the utility statistics; defaults to
        :func:`graphveil.measure.utility.utility_statistics`, with ``S_Diam`` found the same
        way for G0 and every sample (:attr:`statistics_function`).
    row : dict, optional
        G0's row if already known (a :func:`~graphveil.measure.report.true_graph_row` of the
        same ``k``, seed and statistics); otherwise it is computed on first use of :attr:`row`.
    scoring : {"corrected", "authors"}, default "corrected"
        How H2_open and eps are scored, G0's row and every world against it
        (:mod:`graphveil.measure.scoring`).
    analyst : bool, default False
        Also measure the analyst statistics (:func:`~graphveil.measure.utility.analyst_names`)
        against G0's :attr:`analyst_reference`, drawn with ``statistics_seed``. Off by default:
        on web-NotreDame one sample's analyst set adds 0.67 s of wall time (1.3 s of CPU) to
        the paper's ten's 0.19 s (``python benchmarks/analyst_cost.py``, 2 threads), and G0's
        reference about 1 s once; on the youtube-size graph 3.6 s (7.5 s of CPU) to 1.6 s
        (2.6 s of CPU), Leiden 2.6 s of it, computed beside the other rows. Undirected G0 only.

    Attributes
    ----------
    graph : Graph
    k : tuple of int
    statistics_seed : int
        The 64-bit statistics seed.
    scoring : ~graphveil.measure.scoring.Scoring
    h1_index, h2_open_index : ~graphveil.measure.privacy.SignatureIndex
        G0's signature classes, the ``g0`` of every H1 and H2_open score against G0.

    Raises
    ------
    TypeError
        If ``graph`` is not a :class:`graphveil.Graph`.
    ValueError
        If some ``k < 1`` or ``row`` lacks a column or an asked ``k``; if ``scoring`` is
        unknown, or not ``"corrected"`` for a directed graph; if ``analyst`` is asked of a
        directed G0.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.measure import h2_open
    >>> g0 = gv.generators.powerlaw_cluster(60, 2, 0.3, seed=1)
    >>> ref = Original(g0, k=5, statistics_seed=1)
    >>> ref.row["H2_open"] == ref.h2_open_index.count == h2_open(g0, g0)
    True
    >>> ref.edge_differences(g0)
    (0, 0)
    """

    def __init__(
        self,
        graph: Graph,
        k: int | Iterable[int] = PAPER_K,
        *,
        statistics_seed: SeedLike = None,
        threads: int | None = None,
        statistics: Callable[..., dict[str, float]] | None = None,
        row: dict[str, Any] | None = None,
        scoring: str = DEFAULT_SCORING,
        analyst: bool = False,
    ) -> None:
        if not isinstance(graph, Graph):
            raise TypeError(f"g0 must be a graphveil.Graph, got {type(graph).__name__}")
        if analyst and graph.directed:
            raise ValueError(
                "the analyst statistics are measured on undirected graphs: drop analyst or "
                "evaluate g0.to_undirected()"
            )
        self.analyst = bool(analyst)
        self._analyst_reference: AnalystReference | None = None
        self.graph = graph
        self.scoring = scoring_named(check_scoring(scoring, directed=graph.directed))
        #: G0's H2_open signatures when the scoring computes them in Python (the authors' lists)
        self.h2_signatures = self.scoring.h2_open_signatures(graph)
        self.k = check_k(k)
        self.statistics_seed = seed_to_u64(statistics_seed)
        self.statistics = statistics
        self._default_statistics: Callable[..., dict[str, float]] | None = None
        self._threads = check_threads(threads)
        # A directed G0's signatures (in/out degree pairs) are grouped exactly, in one pass over
        # G0 and the sample together (measure.directed): there is no index, scores take G0.
        self.h1_index: SignatureIndex | None = None
        self.h2_open_index: SignatureIndex | None = None
        if not graph.directed:
            self.h1_index = signature_index(graph, "h1", threads=self._threads)
            self.h2_open_index = signature_index(graph, "h2_open", threads=self._threads)
        self._edge_keys: np.ndarray | None = None
        self._row = None if row is None else _checked_row(row, self.k, self.columns)

    @property
    def directed(self) -> bool:
        """Whether G0 is directed.

        Its statistics are then :func:`statistic_names(True)
        <graphveil.measure.utility.statistic_names>` and its eps is on the joint degree.
        """
        return bool(self.graph.directed)

    @property
    def analyst_names(self) -> tuple[str, ...]:
        """The analyst statistics measured against G0: all of them, or none."""
        return analyst_names() if self.analyst else ()

    @property
    def columns(self) -> tuple[str, ...]:
        """The statistics of G0's row and of every sample: the paper's, then the analyst's."""
        return (*statistic_names(self.directed), *self.analyst_names)

    @property
    def analyst_reference(self) -> AnalystReference | None:
        """G0 measured once for the analyst statistics (None unless ``analyst``), on first use."""
        if self.analyst and self._analyst_reference is None:
            self._analyst_reference = analyst_reference(
                self.graph, seed=self.statistics_seed, threads=self._threads
            )
        return self._analyst_reference

    def scores(self, world: Graph | Multigraph, threads: int | None = None) -> dict[str, float]:
        """H1 and H2_open of ``world`` against G0 (through G0's signature index if undirected)."""
        if self.h1_index is None or self.h2_open_index is None:
            return {H1.name: h1(self.graph, world), H2_OPEN.name: h2_open(self.graph, world)}
        return {
            H1.name: h1(self.h1_index, world, threads=threads),
            H2_OPEN.name: (
                h2_open(self.h2_open_index, world, threads=threads)
                if self.h2_signatures is None
                else authors_h2_open(self.h2_signatures, world)
            ),
        }

    @property
    def statistics_function(self) -> Callable[..., dict[str, float]]:
        """What measures G0 and every sample against it.

        ``statistics`` if given, else :func:`~graphveil.measure.utility.utility_statistics`
        with ``S_Diam`` found one way for all of them
        (:func:`~graphveil.measure.utility.diameter_choice`, made on first use).
        """
        if self.statistics is not None:
            return self.statistics
        if self._default_statistics is None:
            choice = diameter_choice(self.graph)
            self._default_statistics = partial(
                utility_statistics, diameter_method=choice, analyst=self.analyst_reference
            )
        return self._default_statistics

    @property
    def row(self) -> dict[str, Any]:
        """G0's own row: H1, H2_open (its numbers of signatures), the statistics and ``eps``.

        ``eps`` is a dict ``{k: eps}`` of G0 itself; computed once, on first use.
        """
        if self._row is None:
            row: dict[str, Any] = (  # its numbers of signatures: its scores against itself
                self.scores(self.graph)
                if self.h1_index is None or self.h2_open_index is None
                else {
                    H1.name: float(self.h1_index.count),
                    H2_OPEN.name: float(
                        self.h2_open_index.count
                        if self.h2_signatures is None
                        else len(set(self.h2_signatures))
                    ),
                }
            )
            fn = self.statistics_function
            row.update(
                statistic_values(
                    fn, self.graph, self.statistics_seed, self._threads, names=self.columns
                )
            )
            row[EPS.name] = self.scoring.eps(
                self.graph,
                self.graph,
                self.k,
                degree=eps_degree(self.graph),
                threads=self._threads,
            )
            self._row = row
        return self._row

    @property
    def edge_keys(self) -> np.ndarray:
        """G0's edges as sorted keys ``u * n + v`` (``u < v``), built on first use."""
        if self._edge_keys is None:
            self._edge_keys = edge_keys(self.graph)
        return self._edge_keys

    def edge_differences(self, g: Graph | Multigraph) -> tuple[int, int]:
        r"""``(|E_G0 \ E_G|, |E_G \ E_G0|)`` of a graph ``g`` on G0's nodes.

        For a multigraph, as the authors' ``compare_edges_diff_one``: an edge of G0 is removed
        if no copy of it is left, and every edge of ``g`` is added except one copy of each edge
        of G0 (a loop, and every further copy, is added).
        """
        keys0, keys = self.edge_keys, edge_keys(g.simple if isinstance(g, Multigraph) else g)
        common = int(np.count_nonzero(in_sorted(keys, keys0))) if keys0.size and keys.size else 0
        return int(keys0.size) - common, int(g.m) - common

    def __getstate__(self) -> dict[str, Any]:
        # The edge keys are one pass over the edges to rebuild and as large as the edge list
        # to ship: a worker rebuilds them. The signature classes cost a sort of every
        # neighbourhood: they travel.
        state = dict(self.__dict__)
        state["_edge_keys"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        scored = "" if self.scoring.name == DEFAULT_SCORING else f", scoring={self.scoring.name!r}"
        extra = ", analyst=True" if self.analyst else ""
        return f"Original(n={self.graph.n:,}, m={self.graph.m:,}, k={self.k}{scored}{extra})"


def check_k(k: int | Iterable[int]) -> tuple[int, ...]:
    """``k`` as a tuple of integers >= 1 (one int or an iterable), or a ValueError."""
    return check_ints(k, "k", 1)


def edge_keys(g: Graph) -> np.ndarray:
    """The edges of ``g`` as keys ``u * n + v`` (``u < v``; a directed graph's arcs), sorted."""
    # Canonical edges are sorted by (u, v), so the keys are sorted too. Built from the CSR
    # without filling the graph's edge cache, which would then travel with every pickle of it.
    if g.directed:  # the out-CSR holds every arc once, in (u, v) order
        u = np.repeat(np.arange(g.n, dtype=np.int64), g.out_degrees)
        return u * g.n + g.indices.astype(np.int64)
    u, v = _core.csr_edges(g.indptr, g.indices)
    return u.astype(np.int64) * g.n + v.astype(np.int64)


def statistic_values(
    fn: Callable[..., dict[str, float]],
    g: Graph | Multigraph,
    seed: int,
    threads: int,
    names: tuple[str, ...] | None = None,
) -> dict[str, float]:
    """The statistics ``names`` of ``g`` by ``fn``, checked to be there, as floats.

    ``names`` defaults to the paper's statistics of ``g``'s kind.
    """
    values = fn(g, seed=seed, threads=threads)
    if names is None:
        names = statistic_names(getattr(g, "directed", False) is True)
    missing = [key for key in names if key not in values]
    if missing:
        raise ValueError(f"the statistics function returned no {', '.join(missing)}")
    return {key: float(values[key]) for key in names}


def _checked_row(
    row: dict[str, Any], ks: tuple[int, ...], columns: tuple[str, ...]
) -> dict[str, Any]:
    names = (*sample_score_names(), *columns, EPS.name)
    missing = [key for key in names if key not in row]
    if missing or any(kk not in row[EPS.name] for kk in ks):
        raise ValueError(
            f"original must be a true_graph_row(g0, k) result; it lacks {missing or 'an asked k'}"
        )
    return row
