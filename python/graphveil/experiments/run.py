"""The study's entry point, :func:`reproduce`: G0 measured, every grid point run or reused, the tables.

Every finished point is recorded in ``out_dir/points`` at once
(:class:`~graphveil.experiments.state.StudyState`), so an interrupted run resumes without redoing
finished points.
"""

from __future__ import annotations

import logging
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from graphveil._common import PACKAGE_VERSION
from graphveil.experiments.config import StudyConfig, no_directed_form, paper_grid
from graphveil.experiments.rows import (
    measure_original,
    original_row,
    point_id,
    study_rows,
    unstable_fits,
)
from graphveil.experiments.schedule import Scheduler
from graphveil.experiments.state import StudyState
from graphveil.experiments.tables import Study
from graphveil.graph import Graph
from graphveil.measure.utility import diameter_choice

#: The keywords :func:`reproduce` took before :class:`StudyConfig` (its fields of the same
#: names), accepted with a DeprecationWarning for one release.
OLD_KEYWORDS = (
    "samples",
    "seed",
    "k",
    "threads",
    "maxvar_parts",
    "partitioner",
    "attacks",
    "distance_sources",
    "scoring",
    "allow_identity",
    "analyst",
)


def reproduce(
    graph: Graph,
    config: StudyConfig | None = None,
    *,
    graph_name: str = "G0",
    schemes: Iterable[str] | None = None,
    grid: Mapping[str, Sequence[float]] | None = None,
    out_dir: str | Path | None = None,
    resume: bool = True,
    overwrite: bool = False,
    executor: Executor | None = None,
    progress: bool | Callable[[str], None] = False,
    figures: bool = True,
    **old: Any,
) -> Study:
    """Run the paper's study on ``graph`` and return its tables as data.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    config : StudyConfig, optional
        The study's settings, checked when made (samples, seed, k, attacks, ...; default
        ``StudyConfig()``, the paper's). Recorded points are reused only under an equal config.
        A directed ``graph`` sets :attr:`StudyConfig.directed` (:meth:`StudyConfig.for_graph`).
    graph_name : str
        Name used in tables and figures.
    schemes : iterable of str, optional
        Subset of :func:`graphveil.anonymize.registry.names`. Default: the paper's study, the
        schemes of family ``"uncertainty"``; the edge-DP schemes (family ``"dp"``, e.g.
        ``registry.names(family="dp")``) run over their epsilon grid only when named, so the
        paper's study stays the paper's.
    grid : dict, optional
        Override grid values per scheme, e.g. ``{"maxvar": [0.19, 0.57]}``.
    out_dir : path, optional
        Where to record finished points and write tables and figures
        (:class:`~graphveil.experiments.state.StudyState`).
    resume : bool
        Reuse the points already recorded in ``out_dir`` under the same graph, config and
        version.
    overwrite : bool
        Let ``out_dir`` hold another graph's study (its ``study.json`` names another graph):
        its tables, figures and recorded points are removed first. Without it such a folder is
        refused, so that no table of the old graph is left beside the new ones.
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
    progress : bool or callable
        Log progress per grid point and phase at INFO on the ``graphveil`` logger (or hand each
        message to the callable). ``True`` on a terminal (stderr a TTY) also draws one bar over
        the points' samples with an ETA (tqdm).
    figures : bool
        Write the PNG figures too (needs matplotlib, the ``plot`` extra).
    **old
        The settings as keywords, as ``reproduce`` took them before :class:`StudyConfig`
        (``samples``, ``seed``, ``k``, ``threads``, ``maxvar_parts``, ``partitioner``,
        ``attacks``, ``distance_sources``, ``scoring``, ``allow_identity``, ``analyst``):
        deprecated, accepted with a DeprecationWarning for one release.

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
    What the config's settings do in the study:

    - ``maxvar_parts``: G0 is partitioned once per study, seeded by the master seed, and every
      MaxVar point runs on those parts, as the authors' scripts did (the seed and time are in
      ``Study.preparations``); rows and tables name the n_p / m MaxVar actually found.
    - ``attacks``: every release is attacked (:func:`graphveil.attack.attack_scores`; at most
      ``ATTACK_SAMPLES`` sampled worlds a point, to keep the cost bounded) and its row gets
      link AUC, precision@m, the re-identification rates and the strongest one; G0's own row
      gets the un-anonymized control.
    - ``distance_sources``: the BFS sources of the distance statistics on graphs above 10,000
      nodes, for G0 and every sample (:func:`~graphveil.measure.utility.distance_statistics`).
      Their error falls as 1 / sqrt(sources) and their cost, most of a sample's on a large
      graph, grows with them: 256 sources take a third of the time on synthetic-youtube and,
      by that scaling, err about twice as much.
    - ``scoring``: graphveil's corrected measures, or the authors' (H2_open on their
      neighbour-degree lists, their eps rule, ``S_PL`` fitted on the pooled degrees of a row's
      samples or runs), which also runs (k,eps)-obf as they did (``variant="authors"``:
      ``|H| = ceil(eps n)``, 3 tries); ``study.md`` says which. Undirected graphs only.
    - ``allow_identity``: a point whose release is G0 itself (every published pair a true edge
      with p = 1, no true edge missing: e.g. EdgeFlip at epsilon 30) is measured as a baseline
      row; without it such a point is recorded not applicable with that reason
      (:func:`graphveil.anonymize.registry.identity_reason`), never reported as an
      anonymization.
    - ``analyst``: the analyst statistics (:func:`~graphveil.measure.utility.analyst_names`:
      communities, central nodes, spread and PGB's queries) are measured on G0
      (``Original(analyst=True)``) and every sample: each row gets them and their mean error
      ``analyst_err``, the tables a column group of their own, ``study.md`` the win counts per
      privacy level (:func:`graphveil.experiments.families.analyst_wins`). Off by default for
      its cost (on web-NotreDame about 15 times the paper's ten statistics a sample); the
      paper's columns and rel.err do not change. Undirected G0 only; needs the ``analyst``
      extra.

    A scheme whose output is deterministic (every probability 0 or 1: RandWalk, RandWalk-mod,
    EdgeSwitch) is run ``samples`` times with independent seeds, each run measured once, and its
    row carries the mean and spread over the runs, as the authors did; its ``runs`` is
    ``samples``. Run 0 uses the point's seed, run ``r`` ``point_seed(point seed, "run-r")``.

    Raises
    ------
    ValueError
        For unknown schemes, empty or invalid grid values, a grid for a scheme not run, a
        config ``graph`` cannot take (:meth:`StudyConfig.for_graph`), or an ``out_dir`` holding
        another graph's study (without ``overwrite``).
    TypeError
        For ``config`` given with the old keywords, or an unknown keyword.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.experiments import StudyConfig, reproduce
    >>> g = gv.datasets.load("karate_club")
    >>> study = reproduce(
    ...     g, StudyConfig(samples=1, k=(10,)), graph_name="karate", schemes=["randwalk"],
    ...     grid={"randwalk": [2]}, figures=False,
    ... )
    >>> len(study.rows), study.to_markdown().splitlines()[0]
    (1, '# graphveil study of karate (n=34, m=78)')
    """
    config = _config(config, old).for_graph(graph)
    points = paper_grid(schemes, grid)
    say = _progress_sink(progress)
    state = StudyState(graph, config, out_dir, resume=resume, overwrite=overwrite)
    started = time.perf_counter()
    say(f"original graph: n={graph.n:,} m={graph.m:,}; computing its own scores")
    diameter_method = diameter_choice(graph)
    reference = measure_original(graph, config, diameter_method)
    fits = unstable_fits(graph)
    original = state.original(lambda: original_row(reference, config, fits))
    original.update(fits)  # also of a G0 row recorded before the check
    pending = state.pending(points, say)
    if config.directed:  # a scheme without a directed form never runs, not even as undirected
        for _, point in pending:
            why = no_directed_form(point)
            if why is not None:
                state.record(point, {**point_id(point), "not_applicable": why})
        pending = [(i, p) for i, p in pending if p.key not in state.rows]
    # Each point is recorded as soon as it is complete (locally one at a time, the next one
    # anonymized meanwhile; on an executor every point's tasks are queued at once).
    bar = progress is True and sys.stderr.isatty()  # one bar on a terminal, none in a log file
    scheduler = Scheduler(reference, config, original, len(points), say, executor, bar)
    for _, point, row in scheduler.rows(pending):
        state.record(point, row)
    state.record_preparations(scheduler.preparations)
    rows, skipped = study_rows(graph, points, state.rows, say)
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
        graph_digest=state.digest,
        preparations=state.preparations,
    )
    if out_dir is not None:
        say(f"writing tables{' and figures' if figures else ''} to {out_dir}")
        study.write(out_dir, figures=figures)
    return study


def _config(config: StudyConfig | None, old: dict[str, Any]) -> StudyConfig:
    """``config``, or the StudyConfig of the old keywords (with a DeprecationWarning)."""
    unknown = sorted(set(old) - set(OLD_KEYWORDS))
    if unknown:
        raise TypeError(f"reproduce() got an unexpected keyword argument {unknown[0]!r}")
    if not old:
        return StudyConfig() if config is None else config
    if config is not None:
        raise TypeError(
            f"reproduce() got config and {', '.join(f'{k}=' for k in old)}: pass the settings "
            "in the config only"
        )
    spelled = ", ".join(f"{k}=..." for k in old)
    warnings.warn(
        f"reproduce(graph, {spelled}) is deprecated; pass reproduce(graph, StudyConfig({spelled}))"
        " (the old form goes in the next release)",
        DeprecationWarning,
        stacklevel=3,  # the caller's line
    )
    return StudyConfig(**old)


def _progress_sink(progress: bool | Callable[[str], None]) -> Callable[[str], None]:
    if callable(progress):
        return progress
    if progress:  # INFO on the graphveil logger: the CLI shows it as "graphveil: ..." unless -q
        return logging.getLogger("graphveil.experiments").info
    return lambda msg: None
