"""The study's entry point, :func:`reproduce`: G0 measured, every grid point run or reused, the tables.

Every finished point is recorded in ``out_dir/points`` at once (:mod:`graphveil.experiments.state`),
so an interrupted run resumes without redoing finished points.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphveil._common import PACKAGE_VERSION
from graphveil.experiments.config import (
    GridPoint,
    _prepare_key,
    _study_config,
    no_directed_form,
    paper_grid,
)
from graphveil.experiments.rows import (
    _original_row,
    _point_id,
    _reference,
    _study_rows,
    unstable_fits,
)
from graphveil.experiments.schedule import Scheduler
from graphveil.experiments.state import (
    _claim_folder,
    _fingerprint,
    _load_point,
    _save_point,
    _state_dir,
    graph_digest,
)
from graphveil.experiments.tables import Study
from graphveil.graph import Graph
from graphveil.measure.utility import DISTANCE_SOURCES, diameter_choice


def reproduce(
    graph: Graph,
    *,
    graph_name: str = "G0",
    schemes: Iterable[str] | None = None,
    grid: Mapping[str, Sequence[float]] | None = None,
    samples: int = 20,
    seed: int = 1,
    k: Sequence[int] = (30, 50, 100),
    threads: int | None = None,
    out_dir: str | Path | None = None,
    resume: bool = True,
    progress: bool | Callable[[str], None] = False,
    figures: bool = True,
    maxvar_parts: int | None = None,
    partitioner: str = "metis",
    attacks: bool = True,
    executor: Executor | None = None,
    distance_sources: int = DISTANCE_SOURCES,
    overwrite: bool = False,
    scoring: str = "corrected",
    allow_identity: bool = False,
    analyst: bool = False,
) -> Study:
    """Run the paper's study on ``graph`` and return its tables as data.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    graph_name : str
        Name used in tables and figures.
    schemes : iterable of str, optional
        Subset of :func:`graphveil.anonymize.registry.names`. Default: the paper's study, the
        schemes of family ``"uncertainty"``; the edge-DP schemes (family ``"dp"``, e.g.
        ``registry.names(family="dp")``) run over their epsilon grid only when named, so the
        paper's study stays the paper's.
    grid : dict, optional
        Override grid values per scheme, e.g. ``{"maxvar": [0.19, 0.57]}``.
    samples : int
        Possible worlds drawn per grid point (the paper: 20).
    seed : int
        Master seed; every grid point derives its own seed from it and its key, so a point's
        numbers do not depend on which other points run or in which order.
    k : sequence of int
        The k of the eps(k) columns.
    threads : int, optional
        Threads for the kernels (0 or None: all cores). Results do not depend on it.
    out_dir : path, optional
        Where to record finished points and write tables and figures. With ``resume``, points
        already recorded there under the same graph, config and version are reused.
    progress : bool or callable
        Log progress per grid point and phase at INFO on the ``graphveil`` logger (or hand each
        message to the callable). ``True`` on a terminal (stderr a TTY) also draws one bar over
        the points' samples with an ETA (tqdm).
    figures : bool
        Write the PNG figures too (needs matplotlib, the ``plot`` extra).
    maxvar_parts : int, optional
        MaxVar's parts; default ``max(1, round(n / 16,000))``
        (:func:`graphveil.anonymize.registry.maxvar_parts`); the paper's own graphs took 20, 20
        and 60 (:attr:`graphveil.datasets.Dataset.maxvar_parts`, which ``graphveil reproduce
        --dataset`` passes). G0 is partitioned once per study, seeded by the master seed, and
        every MaxVar point runs on those parts, as the authors' scripts did (the seed and time
        are in ``Study.preparations``). Rows and tables name the n_p / m MaxVar actually found.
    partitioner : str
        What splits G0 into MaxVar's parts, a name from
        :mod:`graphveil.anonymize.partitioners` (default ``"metis"``, with its default options).
    attacks : bool
        Attack every release and add link AUC, precision@m and the propagation
        re-identification rate, its accuracy and coverage and the core's twin share to its row
        (:func:`graphveil.attack.attack_scores`; at most
        ``ATTACK_SAMPLES`` sampled worlds a point, to keep the cost bounded). G0's own row gets
        the un-anonymized control.
    distance_sources : int, default 1000
        BFS sources of the distance statistics on graphs above 10,000 nodes, for G0 and every
        sample (:func:`~graphveil.measure.utility.distance_statistics`). Their error falls as
        1 / sqrt(sources) and their cost, most of a sample's on a large graph, grows with them:
        256 sources take a third of the time on synthetic-youtube and, by that scaling, err about
        twice as much.
    executor : concurrent.futures.Executor, optional
        Run the work there: every grid point's anonymization is a task, and so is every sample
        (or, for a scheme whose output is deterministic, every independent run) within it, e.g.
        ``dask.distributed.Client(...).get_executor()`` or a
        :class:`~graphveil.cluster.DaskExecutor` (see
        :func:`~graphveil.cluster.executor_for`). On Dask, G0 is sent to each worker once and
        each point's published graph stays on the worker that made it; other executors' tasks
        get them as arguments. Each task's seed comes from the master seed, the point and its
        index, so the study is identical to a local run whatever the number of workers. Points
        are recorded in ``out_dir`` as they finish, so a killed cluster run resumes.
    overwrite : bool
        Let ``out_dir`` hold another graph's study (its ``study.json`` names another graph):
        its tables, figures and recorded points are removed first. Without it such a folder is
        refused, so that no table of the old graph is left beside the new ones.
    scoring : {"corrected", "authors"}, default "corrected"
        How every row is scored (:mod:`graphveil.measure.scoring`): graphveil's corrected
        measures, or the authors' (H2_open on their neighbour-degree lists, their eps rule,
        ``S_PL`` fitted on the pooled degrees of a row's samples or runs), which also runs
        (k,eps)-obf as they did (``variant="authors"``: ``|H| = ceil(eps n)``, 3 tries).
        ``study.md`` says which; it is part of the study's fingerprint, so recorded points
        scored the other way are not reused. Undirected graphs only.
    allow_identity : bool
        Measure a point whose release is G0 itself (every published pair a true edge with
        p = 1, no true edge missing: e.g. EdgeFlip at epsilon 30) as a baseline row. Without
        it such a point is recorded not applicable with that reason
        (:func:`graphveil.anonymize.registry.identity_reason`), never reported as an
        anonymization.
    analyst : bool
        Also measure the analyst statistics (:func:`~graphveil.measure.utility.analyst_names`:
        communities, central nodes, spread and PGB's queries) on G0 (``Original(analyst=True)``)
        and every sample: each row gets them and their mean error ``analyst_err``, the tables
        a column group of their own, ``study.md`` the win counts per privacy level
        (:func:`graphveil.experiments.families.analyst_wins`). Off by default for its cost
        (on web-NotreDame about 7 times the paper's ten statistics' CPU a sample, most of it
        Leiden); the paper's
        columns and rel.err do not change. Undirected G0 only; needs the ``analyst`` extra.

    Returns
    -------
    Study

    A directed ``graph`` (:attr:`Graph.directed`) is studied on its directed form: the schemes
    with a directed form (:func:`graphveil.anonymize.registry.directed`) run, every point of
    another scheme is recorded not applicable (it never runs on the undirected graph); the
    statistics are the directed ones, eps is on the joint (in, out) degree, the attacks are
    their directed forms and the paper's claims are marked not applicable (docs/directed.rst).

    Notes
    -----
    A scheme whose output is deterministic (every probability 0 or 1: RandWalk, RandWalk-mod,
    EdgeSwitch) is run ``samples`` times with independent seeds, each run measured once, and its
    row carries the mean and spread over the runs, as the authors did; its ``runs`` is
    ``samples``. Run 0 uses the point's seed, run ``r`` ``point_seed(point seed, "run-r")``.

    Raises
    ------
    ValueError
        For unknown schemes, empty or invalid grid values, a grid for a scheme not run,
        samples < 1 or k < 1, or an ``out_dir`` holding another graph's study (without
        ``overwrite``).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.experiments import reproduce
    >>> g = gv.datasets.load("karate_club")
    >>> study = reproduce(
    ...     g, graph_name="karate", schemes=["randwalk"], grid={"randwalk": [2]},
    ...     samples=1, k=(10,), figures=False,
    ... )
    >>> len(study.rows), study.to_markdown().splitlines()[0]
    (1, '# graphveil study of karate (n=34, m=78)')
    """
    config = _study_config(
        graph, samples, seed, k, threads, attacks, maxvar_parts, distance_sources, partitioner,
        scoring, analyst,
    )  # fmt: skip
    config = replace(config, allow_identity=bool(allow_identity))
    points = paper_grid(schemes, grid)
    say = _progress_sink(progress)
    fingerprint = _fingerprint(graph, config, PACKAGE_VERSION)
    digest = graph_digest(graph)
    _claim_folder(out_dir, graph, digest, overwrite)
    state_dir = _state_dir(out_dir)
    started = time.perf_counter()
    say(f"original graph: n={graph.n:,} m={graph.m:,}; computing its own scores")
    diameter_method = diameter_choice(graph)
    reference = _reference(graph, config, diameter_method)
    original = _load_point(state_dir, "original", fingerprint) if resume else None
    if original is None:
        original = _original_row(reference, config)
        _save_point(state_dir, "original", fingerprint, original)
    original.update(unstable_fits(graph))  # also of a G0 row recorded before the check
    records, preparations, pending = _recorded(state_dir, fingerprint, points, resume, say)
    if config.directed:  # a scheme without a directed form never runs, not even as undirected
        for i, point in [(i, p) for i, p in pending if no_directed_form(p)]:
            row = {**_point_id(point), "not_applicable": no_directed_form(point)}
            _save_point(state_dir, point.key, fingerprint, row)
            records[point.key] = row
        pending = [(i, p) for i, p in pending if not no_directed_form(p)]
    # Each point is recorded as soon as it is complete (locally one at a time, the next one
    # anonymized meanwhile; on an executor every point's tasks are queued at once).
    bar = progress is True and sys.stderr.isatty()  # one bar on a terminal, none in a log file
    scheduler = Scheduler(reference, config, original, len(points), say, executor, bar)
    for _, point, row in scheduler.rows(pending):
        _save_point(state_dir, point.key, fingerprint, row)
        records[point.key] = row
    for name, info in scheduler.preparations.items():
        _save_point(state_dir, _prepare_key(name), fingerprint, info)
    preparations.update(scheduler.preparations)
    rows, skipped = _study_rows(graph, points, records, say)
    study = Study(
        graph_name=graph_name,
        n=graph.n,
        m=graph.m,
        config=config,
        original=original,
        rows=rows,
        version=PACKAGE_VERSION,
        timings={"total_s": time.perf_counter() - started},
        not_applicable=skipped,
        diameter_method=diameter_method,
        graph_digest=digest,
        preparations=preparations,
    )
    if out_dir is not None:
        say(f"writing tables{' and figures' if figures else ''} to {out_dir}")
        study.write(out_dir, figures=figures)
    return study


def _recorded(
    state_dir: Path | None,
    fingerprint: str,
    points: Sequence[GridPoint],
    resume: bool,
    say: Callable[[str], None],
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], list[tuple[int, GridPoint]]]:
    """What a resumed study reuses: recorded rows and preparations, and the points still to run.

    Returns ``(records, preparations, pending)``: rows by point key, preparations by scheme,
    and the ``(index in the grid, point)`` of every point not recorded.
    """
    records: dict[str, dict[str, Any]] = {}
    preparations: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(p.scheme for p in points):
        recorded = _load_point(state_dir, _prepare_key(name), fingerprint) if resume else None
        if recorded is not None:
            preparations[name] = recorded
    pending: list[tuple[int, GridPoint]] = []
    for i, point in enumerate(points, 1):
        cached = _load_point(state_dir, point.key, fingerprint) if resume else None
        if cached is not None:
            say(f"[{i}/{len(points)}] {point.key}: recorded, reused")
            records[point.key] = cached
        else:
            pending.append((i, point))
    return records, preparations, pending


def _progress_sink(progress: bool | Callable[[str], None]) -> Callable[[str], None]:
    if callable(progress):
        return progress
    if progress:  # INFO on the graphveil logger: the CLI shows it as "graphveil: ..." unless -q
        return logging.getLogger("graphveil.experiments").info
    return lambda msg: None
