"""An evaluation planned and reduced: its inputs checked, its samples listed, its Report built.

:class:`SamplePlan` is what :func:`graphveil.evaluate` does on the measure floor: it checks the
inputs, measures G0 once (an :class:`~graphveil.measure.Original`), lists the samples to draw,
measures them (:func:`~graphveil.measure.report.map_samples`, on any executor) and reduces them
to a :class:`~graphveil.measure.Report`. :func:`graphveil.evaluate` adds what lies above this
floor: the attacks and the cluster (G0 and the release sent to a Dask cluster once).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from graphveil._checks import check_samples
from graphveil._seeds import SeedLike, evaluation_seeds, seed_to_u64
from graphveil._threads import check_threads
from graphveil.graph import Graph, check_graph
from graphveil.measure.original import PAPER_K, Original, check_k, check_same_kind, eps_degree
from graphveil.measure.report import (
    PRIVACY,
    Report,
    fit_extra,
    map_samples,
    pooled_exponent,
    sum_histograms,
)
from graphveil.measure.scoring import DEFAULT as DEFAULT_SCORING
from graphveil.measure.scoring import check_scoring
from graphveil.measure.utility import statistic_names
from graphveil.record import true_ids
from graphveil.uncertain import Anonymized, UncertainGraph

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.record import RunRecord

__all__ = ["SamplePlan", "evaluate", "scheme_label"]

#: One measured sample: its row and its degree histogram (:func:`~graphveil.measure.report.measure_sample`).
Measured = tuple[dict[str, float], np.ndarray]


@dataclass(frozen=True)
class SamplePlan:
    """One evaluation's checked inputs and the samples it measures (see :func:`graphveil.evaluate`).

    Build it with :meth:`build` (the arguments of :func:`graphveil.evaluate`), measure its
    samples with :meth:`measure` (or :func:`~graphveil.measure.report.map_samples` of
    ``reference``, ``release`` and ``indices`` on any executor), and reduce them
    with :meth:`report`.

    Attributes
    ----------
    reference : Original
        G0 measured once (its row, signatures, statistics seed and function).
    release : UncertainGraph or Graph
        The published graph, in G0's ids (mapped back through its record).
    label : str
        The report's row label.
    ks : tuple of int
        The obfuscation levels of eps.
    threads : int
        Worker threads of this process (resolved: never 0).
    threads_asked : int or None
        ``threads`` as given (None or 0: a task on an executor takes its worker's share).
    seed, sample_seed : int
        The evaluation's 64-bit seed and the seed of its samples.
    indices : tuple of int
        The samples to draw and measure, in the seed's sequence.
    copies : int
        How many times each counts (``samples`` when every world is the same graph, else 1).
    first_sample : int
        The first sample's index (see :meth:`Report.merge <graphveil.measure.Report.merge>`).
    """

    reference: Original
    release: UncertainGraph | Graph
    label: str
    ks: tuple[int, ...]
    threads: int
    threads_asked: int | None
    seed: int
    sample_seed: int
    indices: tuple[int, ...]
    copies: int
    first_sample: int

    @classmethod
    def build(
        cls,
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
        first_sample: int = 0,
        analyst: bool = False,
        scoring: str = DEFAULT_SCORING,
    ) -> SamplePlan:
        """The plan of ``graphveil.evaluate`` with these arguments (the same meaning and checks).

        Raises
        ------
        TypeError, ValueError
            As :func:`graphveil.evaluate`.
        """
        ug, label, samples, ks, nthreads = _check_inputs(g0, ug, samples, k, threads, label, record)
        root, sample_seed, stat_seed = evaluation_seeds(seed, statistics_seed)
        reference = _reference(
            g0, ks, stat_seed, statistics_seed, nthreads, statistics, original, scoring, analyst
        )
        indices, copies = _sample_plan(ug, samples, first_sample)
        return cls(
            reference, ug, label, ks, nthreads, threads, root, sample_seed, tuple(indices), copies,
            int(first_sample),
        )  # fmt: skip

    def measure(
        self,
        executor: Executor | None = None,
        share: Callable[[Any], Any] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> list[Measured]:
        """Every planned sample measured, in order: one task each on ``executor``, else here.

        ``share`` wraps G0's reference and the release before they are sent to the tasks (the
        cluster's :func:`~graphveil.cluster.share`); ``on_done()`` is called as each sample is
        done (a progress bar).
        """
        # on an executor, a task left to choose takes its worker's share (task_threads)
        per_task = (
            None if executor is not None and self.threads_asked in (None, 0) else self.threads
        )
        wrap = share or (lambda x: x)
        return map_samples(
            executor, wrap(self.reference), wrap(self.release), self.indices, self.sample_seed,
            self.reference.statistics_seed, per_task, self.reference.statistics_function,
            on_done,
        )  # fmt: skip

    def report(self, measured: list[Measured]) -> Report:
        """The Report of the measured samples (each counted ``copies`` times), G0's row and eps."""
        reference, ug, copies = self.reference, self.release, self.copies
        per_sample = [row for row, _ in measured for _ in range(copies)]
        histogram = sum_histograms(h for _, h in measured for _ in range(copies))
        extra: dict[str, float] = {}
        directed = reference.directed
        if reference.statistics is None and not directed:  # a directed graph has no S_PL
            extra["S_PL_pooled"] = pooled_exponent(histogram)
        extra.update(fit_extra(reference.graph))
        row, g0, ks = reference.row, reference.graph, self.ks
        names = (*PRIVACY, *statistic_names(directed), *reference.analyst_names)
        report = Report(
            original={key: float(row[key]) for key in names},
            per_sample=per_sample,
            eps=reference.scoring.eps(g0, ug, ks, degree=eps_degree(g0), threads=self.threads),
            eps_original={kk: float(row["eps"][kk]) for kk in ks},
            n=g0.n,
            m=g0.m,
            seed=self.seed,
            sample_seed=self.sample_seed,
            label=self.label,
            extra=extra,
            degree_histogram=histogram,
            directed=directed,
            scoring=reference.scoring.name,
            analyst=reference.analyst,
        )
        if copies == 1 and not isinstance(ug, Graph):
            report.first_sample = self.first_sample
        return report


def evaluate(
    g0: Graph,
    ug: UncertainGraph | Graph,
    samples: int = 20,
    seed: SeedLike = None,
    k: int | Iterable[int] = PAPER_K,
    threads: int | None = None,
    *,
    attacks: bool = False,
    executor: Executor | None = None,
    **options: Any,
) -> Report:
    """Deprecated: :func:`graphveil.evaluate` (the same arguments), which this spelling runs.

    ``graphveil.measure.evaluate`` goes in the next release. It gives the same reports on the
    measure floor alone: ``attacks=True`` (the attacks live one floor up) is refused, and on a
    Dask executor G0 is sent with every sample rather than once.

    Raises
    ------
    ValueError
        If ``attacks`` is true: call :func:`graphveil.evaluate`.
    """
    warnings.warn(
        "graphveil.measure.evaluate is deprecated: call graphveil.evaluate (the same arguments); "
        "the old spelling goes in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    if attacks:
        raise ValueError("attacks=True needs graphveil.evaluate(..., attacks=True)")
    plan = SamplePlan.build(g0, ug, samples, seed, k, threads, **options)
    return plan.report(plan.measure(executor))


def _check_inputs(
    g0: Any,
    ug: Any,
    samples: Any,
    k: int | Iterable[int],
    threads: int | None,
    label: str,
    record: RunRecord | np.ndarray | None,
) -> tuple[UncertainGraph | Graph, str, int, tuple[int, ...], int]:
    """Validated inputs of :func:`graphveil.evaluate`: ``(ug in true ids, label, samples, ks, threads)``."""
    check_graph(g0, "g0", what=None)
    if isinstance(ug, Anonymized):
        if label == "published":
            label = scheme_label(ug.report)
        ug = ug.graph
    if not isinstance(ug, (UncertainGraph, Graph)):
        raise TypeError(f"ug must be a graphveil.UncertainGraph or Graph, got {type(ug).__name__}")
    check_same_kind(g0, ug)
    if ug.n != g0.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and the published graph {ug.n}: they must share nodes 0..n-1"
        )
    ug = true_ids(ug, record)
    return ug, label, check_samples(samples), check_k(k), check_threads(threads)


def _reference(
    g0: Graph,
    ks: tuple[int, ...],
    stat_seed: int,
    statistics_seed: SeedLike,
    threads: int,
    statistics: Callable[..., dict[str, float]] | None,
    original: Original | dict[str, Any] | None,
    scoring: str = DEFAULT_SCORING,
    analyst: bool = False,
) -> Original:
    """G0 measured once: ``original`` checked against the call, or built here."""
    if not isinstance(original, Original):
        return Original(
            g0,
            ks,
            statistics_seed=stat_seed,
            threads=threads,
            statistics=statistics,
            row=original,
            scoring=scoring,
            analyst=analyst,
        )
    if bool(analyst) != original.analyst:
        raise ValueError(
            f"analyst={bool(analyst)} differs from original's: build the Original with "
            f"analyst={bool(analyst)}"
        )
    if original.scoring.name != check_scoring(scoring, directed=g0.directed):
        raise ValueError(
            f"original is scored {original.scoring.name!r} and the call asks {scoring!r}: "
            "build the Original with the same scoring"
        )
    if original.graph is not g0 and original.graph != g0:
        raise ValueError("original was built for another graph: pass Original(g0) of this g0")
    if any(kk not in original.k for kk in ks):
        raise ValueError(f"original has eps for k in {original.k}, not all of {ks}: add them")
    if statistics_seed is not None and seed_to_u64(statistics_seed) != original.statistics_seed:
        raise ValueError(
            "statistics_seed differs from original's: drop it (the original's is used) or "
            "build the Original with it"
        )
    if statistics is not None and statistics is not original.statistics:
        raise ValueError(
            "statistics differs from original's: build the Original with the same function"
        )
    return original


def _sample_plan(
    ug: UncertainGraph | Graph, samples: int, first_sample: int
) -> tuple[list[int], int]:
    """The sample indices to measure and how many times each counts."""
    if isinstance(ug, Graph):
        return [0], 1
    if np.all((ug.p == 0.0) | (ug.p == 1.0)):
        # Every possible world is the same graph (a single RandWalk or EdgeSwitch output), and
        # the statistics share one seed: each sample's row would be identical, so compute it
        # once and count it `samples` times. A study runs such schemes independently instead.
        return [0], int(samples)
    return list(range(int(first_sample), int(first_sample) + samples)), 1


def scheme_label(report: dict[str, Any]) -> str:
    """The row label of a scheme's report or release meta: ``scheme(param=value, ...)``."""
    params = report.get("params") or {}
    inner = ", ".join(f"{k}={v}" for k, v in params.items() if not isinstance(v, (dict, list)))
    scheme = str(report.get("scheme", "published"))
    return f"{scheme}({inner})" if inner else scheme
