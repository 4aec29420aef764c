"""The evaluation of a release: the measures, the attacks and the executor, composed.

:func:`evaluate` is the one place that composes the layers below it: the measures of
:mod:`graphveil.measure` (samples drawn, measured and reduced to a
:class:`~graphveil.measure.Report`), the attacks of :mod:`graphveil.attack` (``attacks=True``)
and the cluster helpers of :mod:`graphveil.cluster` (a Dask executor gets G0 and the release
once). ``measure`` and ``attack`` are siblings that import neither each other nor the cluster; the
measure floor plans and reduces the samples (:class:`~graphveil.measure.SamplePlan`) and this
floor adds the attacks and the cluster. :func:`evaluate` is ``graphveil.evaluate``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import numpy as np

from graphveil._seeds import SeedLike
from graphveil.attack.scores import ATTACK_SAMPLES, attack_scores
from graphveil.cluster import share, sharing
from graphveil.graph import Graph
from graphveil.measure.original import PAPER_K, Original
from graphveil.measure.plan import SamplePlan
from graphveil.measure.report import Report
from graphveil.scores import attack_rows
from graphveil.uncertain import UncertainGraph

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.record import RunRecord

__all__ = ["attack_extra", "evaluate"]


def evaluate(
    g0: Graph,
    ug: UncertainGraph | Graph,
    samples: int = 20,
    seed: SeedLike = None,
    k: int | Iterable[int] = PAPER_K,
    threads: int | None = None,
    *,
    label: str = "published",
    statistics: Callable[..., dict[str, float]] | None = None,
    statistics_seed: SeedLike = None,
    original: Original | dict[str, Any] | None = None,
    record: RunRecord | np.ndarray | None = None,
    attacks: bool = False,
    executor: Executor | None = None,
    first_sample: int = 0,
    analyst: bool = False,
    scoring: str = "corrected",
    progress: bool = False,
) -> Report:
    """Measure the privacy and utility of a published graph as the paper does (Section VI).

    Parameters
    ----------
    g0 : Graph
        The true graph.
    ug : UncertainGraph, Graph or Anonymized
        The published graph on the same nodes ``0..n-1``. A deterministic Graph is its own
        single sample. A scheme's :class:`~graphveil.anonymize.Anonymized` output is accepted
        as is (its scheme and parameters become the default label). A release loaded from a
        file saved with permuted ids (:attr:`UncertainGraph.ids_permuted`) is refused unless
        ``record`` maps its ids back: measuring it on mismatched ids would be meaningless.
    samples : int, default 20
        Possible worlds drawn from ``ug`` (the paper: 20).
    seed : int, numpy.random.Generator or None
        One seed for everything random (the samples, the BFS sources and HyperBall hashes of
        the statistics). The report records it.
    k : int or iterable of int, default (30, 50, 100)
        Obfuscation levels for eps.
    threads : int, optional
        Worker threads for every kernel (None or 0: all cores). Results do not depend on it.
    label : str
        Row label in the printed tables (default: "published", or the scheme's name and
        parameters for an Anonymized input).
    statistics : callable, optional
        ``f(graph, *, seed, threads) -> dict`` with the utility statistics; defaults to
        :func:`graphveil.measure.utility.utility_statistics`.
    statistics_seed : int, optional
        Seed of the statistics' own randomness (BFS sources, HyperBall hashes), the same for
        ``g0`` and every sample so that estimation errors cancel in rel.err; derived from
        ``seed`` when not given. A study passes one value for all its grid points, so that
        G0's row is identical across them.
    original : Original or dict, optional
        G0 measured once (:class:`~graphveil.measure.Original` of ``g0``: its signatures, edge keys and row, with
        ``k`` among its levels), or just its row (:func:`~graphveil.measure.report.true_graph_row` of ``g0`` with the same
        ``k``, ``statistics_seed`` and ``statistics``): a caller evaluating many published
        graphs of one G0 builds it once. An Original brings its ``statistics_seed`` and
        ``statistics``; passing different ones here is an error.
    record : RunRecord or numpy.ndarray, optional
        The private run record of the release (:func:`graphveil.load_record`), or its
        ``permutation``: ids of ``ug`` are mapped back through it before anything is measured.
        The record of an uncertain graph must be that release's own (its digest is checked);
        a Graph (a world sampled from a release, in the release's ids) takes the release's.
    attacks : bool
        Also attack the release (:func:`graphveil.attack.attack_scores` on at most
        ``ATTACK_SAMPLES`` of the worlds): its numbers go to ``report.extra`` as
        ``attack_<column>`` for every column of the attack registry (``attack_link_auc``,
        ``attack_precision_at_m``, ``attack_reid_rate``, ...; NaN where undefined, e.g. the AUC
        of a deterministic release).
    executor : concurrent.futures.Executor, optional
        Run every sample as one task there (e.g. ``dask.distributed.Client.get_executor()``;
        on Dask, G0 and ``ug`` are sent to each worker once, not with every sample).
        Sample ``i`` is drawn from the sample seed and ``i`` alone, so the report is the same
        for any executor and worker count. Without it samples run here, one per thread side
        by side. Either way each sample is drawn, measured and dropped: memory is G0 plus one
        sample per sample running (per worker).
    first_sample : int, default 0
        Measure samples ``first_sample .. first_sample + samples - 1`` of the seed's sequence:
        one part of an evaluation split by hand, to be combined with :meth:`Report.merge <graphveil.measure.Report.merge>`.
    analyst : bool, default False
        Also measure the analyst statistics (communities, central nodes, spread, PGB's
        divergences: :mod:`graphveil.measure.analyst`), in their own column group with their
        own mean error (``report.analyst_err``); rel.err and the paper's columns do not change.
        An ``original`` must have been built with the same ``analyst``.
    scoring : {"corrected", "authors"}, default "corrected"
        How H2_open, eps and ``S_PL`` are scored (:mod:`graphveil.measure.scoring`):
        graphveil's corrected measures, or exactly as the authors' scripts computed them
        (H2_open on their neighbour-degree lists, their eps rule, ``S_PL`` fitted on the
        pooled degrees of all samples). An ``original`` must have been built with the same.
    progress : bool, default False
        Show a progress bar over the samples on stderr (tqdm), with an ETA.

    Returns
    -------
    Report
        Per-sample values, means and spreads, rel.err, tradeoff, edge differences, eps and the
        true graph's own row.

    Raises
    ------
    TypeError
        If ``g0`` is not a Graph or ``ug`` neither an UncertainGraph nor a Graph.
    ValueError
        If the node counts differ, ``samples < 1`` or some ``k < 1``; if ``ug``'s ids are
        permuted and no ``record`` is given, or ``record`` belongs to another release; if one
        of ``g0`` and ``ug`` is directed and the other not; if ``scoring`` is unknown, not
        ``"corrected"`` for directed graphs, or not ``original``'s.

    Notes
    -----
    Per sample: H1 and H2_open against ``g0`` (:func:`~graphveil.measure.privacy.h1`,
    :func:`~graphveil.measure.privacy.h2_open`), the utility statistics and the edge differences;
    reported values are means over the samples (``S_PL`` too: the mean of the per-sample
    exponents; the exponent of the pooled degrees, as the authors computed it, is in
    ``report.extra["S_PL_pooled"]``). eps is computed once, on ``ug`` itself.

    A directed ``g0`` and its directed release are measured on the directed statistics
    (:func:`statistic_names(True) <graphveil.measure.utility.statistic_names>`: reciprocity,
    in/out degrees, Fagiolo clustering, components, distances along arcs) and the directed
    signatures; the edge differences count arcs (ordered pairs), eps is on the joint (in, out)
    degree (:data:`~graphveil.measure.original.DIRECTED_EPS_DEGREE`, what directed
    obfuscation hides by default) and the attacks run on the directed release
    (:mod:`graphveil.attack`). See :doc:`/directed`.

    References
    ----------
    Nguyen, Imine, Rusinowitch, ASIACCS 2015, Sections VI and VII (Tables 3-7).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import randwalk
    >>> from graphveil import evaluate
    >>> g = gv.datasets.load("karate_club")
    >>> ug, _ = randwalk(g, t=2, seed=1)
    >>> rep = evaluate(g, ug, samples=2, seed=1, k=10)
    >>> rep.samples, rep.rel_err >= 0
    (2, True)

    G0 measured once for many evaluations gives the same reports:

    >>> ref = gv.measure.Original(g, k=10, statistics_seed=3)
    >>> again = evaluate(g, ug, samples=2, seed=1, k=10, original=ref)
    >>> again.to_dict() == evaluate(g, ug, samples=2, seed=1, k=10, statistics_seed=3).to_dict()
    True
    """
    plan = SamplePlan.build(
        g0, ug, samples, seed, k, threads, label=label, statistics=statistics,
        statistics_seed=statistics_seed, original=original, record=record,
        first_sample=first_sample, analyst=analyst, scoring=scoring,
    )  # fmt: skip
    pool = sharing(executor)  # G0 and ug go to a Dask cluster once, not with every sample
    with _bar(progress, len(plan.indices)) as bar:
        measured = plan.measure(pool, lambda x: share(pool, x), bar)
    report = plan.report(measured)
    if attacks:
        report.extra.update(attack_extra(g0, plan.release, samples, plan.seed, plan.threads))
    return report


@contextlib.contextmanager
def _bar(enabled: bool, total: int) -> Iterator[Callable[[], None] | None]:
    """``on_done`` of a tqdm bar over ``total`` samples on stderr, or None when not ``enabled``."""
    if not enabled or total < 2:
        yield None
        return
    from tqdm.auto import tqdm

    with tqdm(total=total, desc="samples", unit="sample") as bar:
        yield lambda: bar.update(1)


def attack_extra(
    g0: Graph, ug: UncertainGraph | Graph, samples: int, root: int, threads: int
) -> dict[str, float]:
    """The attack numbers of ``report.extra``: ``attack_<column>`` (NaN where undefined).

    One per attack score of the privacy-score table (:func:`graphveil.scores.attack_rows`, in
    its order), then the attacks' counts (``attack_samples``, ``attack_seeds``).
    """
    scores = attack_scores(g0, ug, min(int(samples), ATTACK_SAMPLES), root, threads=threads)
    names = dict.fromkeys([*(s.name for s in attack_rows()), *scores])  # the table's, the counts
    return {f"attack_{k}": math.nan if scores[k] is None else float(scores[k]) for k in names}
