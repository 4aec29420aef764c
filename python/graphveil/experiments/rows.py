"""The study's rows: G0's own row and each grid point's, made from its tasks' results.

A row is a plain dict (the scheme, its grid value and label, the privacy scores, the utility
statistics, rel.err, tradeoff, the attack columns and the timings), recorded per point in the
study's folder and read by the tables (:mod:`graphveil.experiments.tables`), the paper's claims
(:mod:`graphveil.experiments.findings`) and the figures.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from graphveil._checks import NotApplicable
from graphveil._json import dumps
from graphveil.anonymize import registry
from graphveil.experiments.config import (
    ATTACK_COLUMNS,
    STRONGEST,
    STRONGEST_COLUMNS,
    GridPoint,
    StudyConfig,
    point_seed,
)
from graphveil.graph import Graph
from graphveil.measure.original import Original
from graphveil.measure.report import Report, pooled_exponent, sum_histograms
from graphveil.measure.scores import EPS, sample_score_names
from graphveil.measure.utility import (
    analyst_names,
    statistic_names,
    unstable_powerlaw_fits,
    utility_statistics,
)
from graphveil.scores import privacy_score

if TYPE_CHECKING:  # tasks imports this module (a model's TV): no import back at run time
    from graphveil.experiments.tasks import PointTasks


def study_rows(
    graph: Graph,
    points: Sequence[GridPoint],
    records: dict[str, dict[str, Any]],
    say: Callable[[str], None],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The recorded points in grid order: rows to tabulate, and the points found not applicable."""
    rows = []
    skipped = []
    for i, point in enumerate(points, 1):
        prefix = f"[{i}/{len(points)}] {point.key}: "
        cached = records[point.key]
        if "not_applicable" in cached:
            say(
                f"{prefix}not applicable: {registry.scheme(point.scheme).title}: "
                f"{cached['not_applicable']}"
            )
            skipped.append({**_identity(cached), "reason": cached["not_applicable"]})
            continue
        if "tv_model" not in cached:
            _add_model_tv(graph, point, cached)
        rows.append(cached)
        if "attack_not_applicable" in cached:  # the row stands, without its attack columns
            reason = f"attack: {cached['attack_not_applicable']}"
            say(f"{prefix}not applicable: {reason}")
            skipped.append({**_identity(cached), "reason": reason})
    return rows, skipped


def point_id(point: GridPoint) -> dict[str, Any]:
    """What names a point in its row: ``scheme``, ``value`` and ``label``."""
    return {"scheme": point.scheme, "value": point.value, "label": point.label}


def _identity(row: dict[str, Any]) -> dict[str, Any]:
    """The :func:`point_id` fields of a recorded row (``label`` may name the value found)."""
    return {key: row.get(key) for key in ("scheme", "value", "label")}


def point_row(
    graph: Graph,
    point: GridPoint,
    config: StudyConfig,
    original: dict[str, Any],
    tasks: PointTasks,
) -> dict[str, Any]:
    """A point's table row from its done tasks: samples of one output, or independent runs."""
    ug, report = tasks.ug, tasks.report
    results = [f.result() for f in tasks.futures]
    runs = 1
    if deterministic(ug):
        runs = len(results)
        per_sample = [r[0] for r in results]
        hists = [r[1] for r in results]
        eps = {k: math.fsum(r[2][k] for r in results) / runs for k in config.k}
        pairs: float = math.fsum(r[3] for r in results) / runs
    else:
        per_sample = [r[0] for r in results[:-1]]
        hists = [r[1] for r in results[:-1]]
        eps = {k: float(results[-1][k]) for k in config.k}
        pairs = ug.num_pairs
    histogram = sum_histograms(hists)
    directed = config.directed  # a directed G0's statistics, and no S_PL to pool
    ev = Report(
        original={key: original[key] for key in (*sample_score_names(), *_statistics(config))},
        per_sample=per_sample,
        eps=eps,
        eps_original={k: original[EPS.key(k)] for k in config.k},
        n=graph.n,
        m=graph.m,
        seed=tasks.root,
        sample_seed=tasks.sample_seed,
        extra={} if directed else {"S_PL_pooled": pooled_exponent(histogram)},
        degree_histogram=histogram,
        directed=directed,
        scoring=config.scoring,
        analyst=config.analyst,
    )
    row: dict[str, Any] = {
        **point_id(point),
        "seed": point_seed(config.seed, point.key),
        "runs": runs,
        "pairs": pairs,
        "tv": ug.total_variance(),
        "tv_normalized": ug.total_variance() / graph.m,
    }
    _add_model_tv(graph, point, row, None if tasks.model_tv is None else tasks.model_tv.result())
    _add_found(graph, point, report, row)
    row.update(_report_row(ev, config))
    if config.attacks:  # on the point's one release (run 0 for a deterministic scheme)
        t3 = time.perf_counter()
        identity = registry.scheme(point.scheme).node_identity
        seed = point_seed(row["seed"], "attack")
        row.update(_attack_row(graph, ug, config, seed, node_identity=identity))
        row["time_attack_s"] = time.perf_counter() - t3
    row["scheme_report"] = _jsonable(report)
    return row


def _add_found(graph: Graph, point: GridPoint, report: dict[str, Any], row: dict[str, Any]) -> None:
    """Label the row with the grid value the scheme reached, where it may reach less than asked.

    A scheme with a :attr:`~graphveil.anonymize.registry.Scheme.found` (MaxVar, which may find
    fewer friend-of-friend pairs than requested) adds its fields (``found`` and ``requested``
    among them) from its report; the row's ``label`` (used by every table and figure) then
    names the found value, with the request in brackets when it fell short.
    """
    record = registry.scheme(point.scheme)
    if record.found is None:
        return
    row.update(record.found.fields(graph, point.value, report))
    label = f"{record.grid_parameter}={row['found']:.3g}"
    short = record.found.short(row)
    row["label"] = f"{label} (found; asked {point.value:g})" if short else label


def _add_model_tv(
    graph: Graph,
    point: GridPoint,
    row: dict[str, Any],
    computed: tuple[float, float] | None = None,
) -> None:
    """Set ``tv_model``, its normalised value and standard error (also for older records).

    ``computed`` is :func:`~graphveil.experiments.tasks.model_tv_task`'s result when a task already ran it.
    """
    tv, se = computed if computed is not None else model_tv(graph, point, row["tv"])
    row["tv_model"] = tv
    row["tv_model_normalized"] = None if tv is None else tv / graph.m
    row["tv_model_se"] = se


def model_tv(
    graph: Graph, point: GridPoint, published_tv: float, threads: int | None = None
) -> tuple[float, float]:
    """TV of the scheme's uncertain model, the quantity of the paper's Fig. 10, and its error.

    A scheme whose published graph is one realisation of an uncertain model (RandWalk-mod) has
    a :attr:`~graphveil.anonymize.registry.Scheme.model_tv`, which gives it. For every other
    scheme the model is the published uncertain graph itself: ``published_tv``, error 0.
    """
    hook = registry.scheme(point.scheme).model_tv
    if hook is None:
        return published_tv, 0.0
    return hook(graph, point.value, threads)


def deterministic(ug: Any) -> bool:
    """Whether every possible world of ``ug`` is the same graph (all probabilities 0 or 1)."""
    return bool(np.all((ug.p == 0.0) | (ug.p == 1.0)))


def _statistics(config: StudyConfig) -> tuple[str, ...]:
    """The statistics of a study's rows: the paper's, then the analyst's if it measures them."""
    return (*statistic_names(config.directed), *(analyst_names() if config.analyst else ()))


def _report_row(ev: Any, config: StudyConfig) -> dict[str, Any]:
    mean, std = ev.mean, ev.std
    names = (*sample_score_names(), *_statistics(config))
    row: dict[str, Any] = {key: mean[key] for key in names}
    if config.analyst:
        row["analyst_err"] = ev.analyst_err
    row["removed_edges"] = mean["edges_removed"]
    row["added_edges"] = mean["edges_added"]
    for k in config.k:
        row[EPS.key(k)] = float(ev.eps[k])
    row["rel_err"] = ev.rel_err
    row["tradeoff"] = ev.tradeoff
    row["std"] = {key: std[key] for key in names}
    row.update({f"extra_{key}": value for key, value in ev.extra.items()})
    return row


def _attack_row(
    graph: Graph, published: Any, config: StudyConfig, seed: int, *, node_identity: bool = True
) -> dict[str, Any]:
    """The attack columns of a row, empty on a graph the attacks cannot take.

    E.g. a sampled world without edges: ``attack_not_applicable`` then says why. Then the
    strongest re-identification (``reid``) and the attack that gave it (``reid_attack``),
    both None on a release without node identity, which no attack re-identifies
    (:attr:`Scheme.node_identity <graphveil.anonymize.registry.Scheme.node_identity>`).
    """
    from graphveil.attack.scores import ATTACK_SAMPLES, attack_scores

    samples = min(config.samples, ATTACK_SAMPLES)
    try:
        scores = attack_scores(
            graph, published, samples, seed, threads=config.threads, node_identity=node_identity
        )
    except NotApplicable as err:
        return {
            **dict.fromkeys((*ATTACK_COLUMNS, *STRONGEST_COLUMNS)),
            "attack_not_applicable": str(err),
        }
    return {**scores, **strongest(scores)}


def strongest(scores: dict[str, Any]) -> dict[str, Any]:
    """The scores over several attacks of a row (``reid``) and the attack giving each.

    Examples
    --------
    >>> strongest({"reid_rate": 0.2, "percolation_rate": 0.5, "seedless_rate": None})
    {'reid': 0.5, 'reid_attack': 'percolation'}
    """
    out: dict[str, Any] = {}
    for score in STRONGEST:
        column = score.source(scores)
        out[score.name] = score.value(scores)
        out[score.source_key] = None if column is None else privacy_score(column).attack
    return out


def measure_original(graph: Graph, config: StudyConfig, diameter_method: str) -> Original:
    """G0 measured once per study; its sample tasks reuse its signatures and edge keys."""
    # The same statistics seed as every grid point's evaluation, which reuses G0's row: it is
    # then exactly the one their rel.err is measured against.
    reference = Original(
        graph,
        config.k,
        statistics_seed=point_seed(config.seed, "statistics"),
        threads=config.threads,
        scoring=config.scoring,
        analyst=config.analyst,
    )
    # G0's analyst reference (its communities, top nodes, cascade seeds: None unless analyst),
    # measured once with the statistics seed, is what every sample is measured against.
    reference.statistics = partial(
        utility_statistics,
        sources=config.distance_sources,
        diameter_method=diameter_method,
        analyst=reference.analyst_reference,
    )
    return reference


def original_row(reference: Original, config: StudyConfig, fits: dict[str, Any]) -> dict[str, Any]:
    """G0's own row: its scores, statistics and eps(k), ``fits`` and, with attacks, the control.

    ``fits`` is :func:`unstable_fits` of G0.
    """
    graph = reference.graph
    row = dict(reference.row)
    eps = row.pop("eps")
    row.update({EPS.key(k): float(eps[k]) for k in config.k})
    row.update(fits)
    if config.attacks:  # the un-anonymized control: G0 published as is
        row.update(_attack_row(graph, graph, config, point_seed(config.seed, "attack")))
    return row


def unstable_fits(graph: Graph) -> dict[str, Any]:
    """G0 row's ``unstable_fits``: its power-law fits with a rival (nothing if none has one).

    ``{"unstable_fits": {name: {alpha, xmin, ks, rival_alpha, rival_xmin, rival_ks}}}``
    (:func:`~graphveil.measure.unstable_powerlaw_fits`); study.md warns of each
    (:func:`~graphveil.experiments.checks.fit_warnings`).
    """
    unstable = {
        name: {"alpha": fit.alpha, "xmin": fit.xmin, "ks": fit.ks}
        | {"rival_alpha": rival.alpha, "rival_xmin": rival.xmin, "rival_ks": rival.ks}
        for name, (fit, rival) in unstable_powerlaw_fits(graph).items()
    }
    return {"unstable_fits": unstable} if unstable else {}


def _jsonable(report: dict[str, Any]) -> dict[str, Any]:
    """The scheme report without bulky arrays (partition labels and the like)."""
    out = {}
    for key, value in report.items():
        if isinstance(value, np.ndarray) and value.size > 64:
            continue
        try:
            dumps(value)
        except TypeError:
            continue
        out[key] = value
    return out
