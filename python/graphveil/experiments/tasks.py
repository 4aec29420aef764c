"""The study's tasks: the units of work it hands to a pool or an executor, and a point's state.

Each task is a plain function of G0's :class:`~graphveil.measure.original.Original`, a grid
point and seeds, so it runs alike on a local pool and on a cluster (:mod:`graphveil.cluster`).
"""

from __future__ import annotations

import math
import time
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from graphveil._checks import NotApplicable
from graphveil._threads import task_threads
from graphveil.anonymize import registry
from graphveil.experiments.config import GridPoint, StudyConfig, point_seed, prepare_key
from graphveil.experiments.rows import model_tv
from graphveil.graph import Graph
from graphveil.measure.original import Original, eps_degree
from graphveil.measure.report import measure_sample
from graphveil.uncertain import Anonymized


@dataclass
class PointTasks:
    """A grid point whose tasks are submitted: what its row is made of, once they are done.

    A point its scheme cannot take has ``not_applicable`` set and no tasks.
    """

    #: The point's place in the whole grid (1-based), for progress messages.
    index: int
    point: GridPoint
    #: Why the scheme cannot run this point on G0 (its anonymization raised), else None.
    not_applicable: NotApplicable | None = None
    #: The published graph (run 0's for a deterministic scheme) and the scheme's report.
    ug: Any = None
    report: dict[str, Any] = field(default_factory=dict)
    #: Seconds of the anonymization.
    t_anon: float = 0.0
    #: The evaluation's root seed and the samples' seed (``evaluation_seeds``).
    root: int = 0
    sample_seed: int = 0
    #: The samples' tasks and then the eps task, or the independent runs' tasks.
    futures: list[Future[Any]] = field(default_factory=list)
    #: The model TV task of a scheme with a :attr:`~graphveil.anonymize.registry.Scheme.model_tv`.
    model_tv: Future[Any] | None = None

    def running(self) -> list[Future[Any]]:
        """The point's tasks still running."""
        return [f for f in [*self.futures, self.model_tv] if f is not None and not f.done()]


#: How a study keeps a point whose release is G0 itself (the reason of its not-applicable row).
IDENTITY_BASELINE = "allow_identity=True, or --allow-identity, measures it as a baseline row"


def _anonymize(
    graph: Graph, point: GridPoint, config: StudyConfig, seed: int, prepared: Any = None
) -> Anonymized:
    record = registry.scheme(point.scheme)
    if record.prepare is None:
        return record.study(graph, point.value, config, seed)
    return record.study(graph, point.value, config, seed, prepared=prepared)


def prepare_task(reference: Original, scheme: str, config: StudyConfig) -> tuple[Any, dict]:
    """A scheme's :attr:`~graphveil.anonymize.registry.Scheme.prepare` on G0 as a task.

    Returns ``(prepared, info)``: what every grid point of the scheme is given, and its
    ``seed`` (derived from the study's) and ``time_s`` for the private record.
    """
    prepare = registry.scheme(scheme).prepare
    assert prepare is not None
    seed = point_seed(config.seed, prepare_key(scheme))
    t0 = time.perf_counter()
    prepared = prepare(reference.graph, config, seed)
    return prepared, {"seed": seed, "time_s": time.perf_counter() - t0}


def anonymize_task(
    reference: Original, point: GridPoint, config: StudyConfig, seed: int, prepared: Any = None
) -> Any:
    """One anonymization of G0 as a task: ``(ug, report, seconds)`` or a NotApplicable reason."""
    t0 = time.perf_counter()
    local = replace(config, threads=task_threads(config.threads))
    try:
        ug, report = _anonymize(reference.graph, point, local, seed, prepared)
    except ValueError as err:  # the scheme's own checks: this graph cannot take this point
        return NotApplicable(str(err))
    if not config.allow_identity:  # the rule on the output: G0 itself is no anonymization
        reason = registry.identity_reason(reference.graph, ug)
        if reason is not None:
            return NotApplicable(f"{reason} ({IDENTITY_BASELINE})")
    return ug, report, time.perf_counter() - t0


def eps_task(reference: Original, ug: Any, ks: tuple[int, ...], threads: int) -> dict[int, float]:
    """The eps(k) of a published graph against G0, for every k of ``ks``, as a task."""
    degree = eps_degree(reference.graph)  # a directed G0's: the joint (in, out) degree
    return reference.scoring.eps(
        reference.graph, ug, ks, degree=degree, threads=task_threads(threads)
    )


def independent_run(
    reference: Original,
    point: GridPoint,
    config: StudyConfig,
    run_seed: int,
    sample_seed: int,
    stat_seed: int,
    published: Any = None,
) -> tuple[dict[str, float], np.ndarray, dict[int, float], float]:
    """One independent run of a deterministic scheme, measured once: row, degrees, eps, pairs.

    ``published`` is the run's output when it is already made (run 0: the point's release).
    """
    ug = published
    if ug is None:  # another seed's run of a point whose run 0 passed the output rule
        result = anonymize_task(reference, point, replace(config, allow_identity=True), run_seed)
        if isinstance(result, NotApplicable):
            raise result  # run 0 of this point ran, so another seed should too: say why not
        ug = result[0]
    row, hist = measure_sample(reference, ug, 0, sample_seed, stat_seed, config.threads)
    return row, hist, eps_task(reference, ug, config.k, config.threads), float(ug.num_pairs)


def has_model(point: GridPoint) -> bool:
    """Whether the point's Fig. 10 bar is a model's TV, not its published graph's.

    That is, whether its scheme has a :attr:`~graphveil.anonymize.registry.Scheme.model_tv`.
    """
    return registry.scheme(point.scheme).model_tv is not None


def model_tv_task(
    reference: Original, point: GridPoint, threads: int | None
) -> tuple[float, float]:
    """:func:`~graphveil.experiments.rows.model_tv` of a point with a model (:func:`has_model`), as a task."""
    return model_tv(reference.graph, point, math.nan, task_threads(threads))
