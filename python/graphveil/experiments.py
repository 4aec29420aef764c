"""The paper's study on any graph: every scheme over its grid, privacy and utility side by side.

:func:`reproduce` runs the grid of Section 6 of the paper (Tables 3, 4, 6, 7), scaled to the
graph, evaluates every grid point on ``samples`` possible worlds and returns a :class:`Study`
whose tables and figures match the paper's. With ``out_dir`` every finished grid point is
recorded there at once, so an interrupted run resumes without redoing finished points.

References
----------
Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
ASIACCS 2015, Section 6 (Evaluation).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._common import (
    PACKAGE_VERSION,
    NotApplicable,
    atomic_path,
    check_int,
    check_output_path,
    check_threads,
    clean_stale_temporaries,
    seed_to_u64,
)
from graphveil.anonymize import registry
from graphveil.anonymize.registry import derived_seed
from graphveil.cluster import result_item, share, sharing, submit
from graphveil.graph import Graph
from graphveil.measure.original import Original
from graphveil.measure.utility import (
    DIAMETER_MAX_BFS,
    DISTANCE_SOURCES,
    diameter_choice,
    statistic_names,
    utility_statistics,
)
from graphveil.uncertain import Anonymized

#: The attack columns of the comparison table (:func:`graphveil.attack.attack_scores`):
#: ``reid_rate`` (correct over the scored core) splits into ``reid_accuracy`` (correct among
#: the mapped) times ``reid_coverage`` (mapped share); ``reid_twin_share`` is the share of the
#: core with a structural twin, which no structural attack matches but by guessing.
ATTACK_COLUMNS = (
    "link_auc",
    "precision_at_m",
    "reid_rate",
    "reid_accuracy",
    "reid_coverage",
    "reid_twin_share",
)

#: Version of the per-point record format in ``out_dir/points`` (4: NS's eccentricity and the
#: accuracy / coverage / twin columns of the attack; 5: MaxVar's one partition per study).
STATE_VERSION = 5


@dataclass(frozen=True)
class StudyConfig:
    """Fixed settings of one study; a recorded point is reused only under an equal config."""

    samples: int = 20
    seed: int = 1
    k: tuple[int, ...] = (30, 50, 100)
    obf_k: int = 50
    obf_eps: float = 0.1
    #: MaxVar's parts; None: the rule of :func:`graphveil.anonymize.registry.maxvar_parts`.
    maxvar_parts: int | None = None
    mixture_t: int = 2
    threads: int = 0
    #: Attack every release (:func:`graphveil.attack.attack_scores`): link AUC, precision@m and
    #: the propagation re-identification rate over at most ``ATTACK_SAMPLES`` sampled worlds.
    attacks: bool = True
    #: BFS sources of the distance statistics above the exact threshold (G0 and every sample).
    distance_sources: int = DISTANCE_SOURCES

    def to_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        return {
            "samples": self.samples,
            "seed": self.seed,
            "k": list(self.k),
            "obf_k": self.obf_k,
            "obf_eps": self.obf_eps,
            "maxvar_parts": self.maxvar_parts,
            "mixture_t": self.mixture_t,
            "attacks": self.attacks,
            "distance_sources": self.distance_sources,
        }


@dataclass(frozen=True)
class GridPoint:
    """One cell of the grid: a scheme at one value of its parameter."""

    scheme: str
    value: float

    @property
    def key(self) -> str:
        """The point's study key, ``scheme=value``."""
        return f"{self.scheme}={_fmt_value(self.value)}"

    @property
    def label(self) -> str:
        """The point's label in tables, ``parameter=value``."""
        return f"{registry.scheme(self.scheme).grid_parameter}={_fmt_value(self.value)}"


@dataclass
class Study:
    """The result of :func:`reproduce`: one row per grid point plus the true graph's own row."""

    graph_name: str
    n: int
    m: int
    config: StudyConfig
    original: dict[str, Any]
    rows: list[dict[str, Any]]
    version: str
    timings: dict[str, float] = field(default_factory=dict)
    #: Grid points the scheme cannot run on this graph: ``scheme``, ``value``, ``label``, ``reason``.
    not_applicable: list[dict[str, Any]] = field(default_factory=list)
    #: How ``S_Diam`` was found for G0 and every sample
    #: (:func:`~graphveil.measure.utility.diameter_choice`).
    diameter_method: str = "ifub"
    #: :func:`graph_digest` of G0, in ``study.json``: a folder holding another graph's study is
    #: told apart before a run writes beside its tables.
    graph_digest: str = ""
    #: Per scheme with a :attr:`~graphveil.anonymize.registry.Scheme.prepare` (MaxVar's one
    #: partition of G0): its ``seed`` and ``time_s``. Private, like every seed of the study.
    preparations: dict[str, dict[str, Any]] = field(default_factory=dict)

    def scheme_rows(self, scheme: str) -> list[dict[str, Any]]:
        """The study's rows of one scheme."""
        return [r for r in self.rows if r["scheme"] == scheme]

    # -------------------------------------------------------------- tables as data
    def scheme_table(self, scheme: str) -> list[dict[str, Any]]:
        """The paper's per-scheme table (Tables 3, 4, 6): H1, H2_open, the utility statistics, rel.err."""
        header = registry.scheme(scheme).grid_parameter
        rows = self.scheme_rows(scheme)
        # MaxVar rows name the n_p / m found; the request shows where one of them fell short
        short = any(r.get("n_p_found", 0) < r.get("n_p_requested", 0) for r in rows)

        def requested(value: Any) -> dict[str, Any]:
            return {"requested": value} if short else {}

        table = [
            {
                header: self.graph_name,
                **requested(None),
                **_pick(self.original, ("H1", "H2_open", *statistic_names())),
                "rel_err": None,
            }
        ]
        for row in rows:
            table.append(
                {
                    header: row.get("found", row["value"]),
                    **requested(row["value"]),
                    **_pick(row, ("H1", "H2_open", *statistic_names(), "rel_err")),
                }
            )
        return table

    def comparison_table(self) -> list[dict[str, Any]]:
        """The paper's Table 7: privacy (H1, H2_open, edge differences, eps for each k) and utility."""
        eps_cols = [f"eps_k{k}" for k in self.config.k]
        cols = ("H1", "H2_open", "removed_edges", "added_edges", *eps_cols, "rel_err", "tradeoff")
        if self.config.attacks:
            cols += ATTACK_COLUMNS
        table = [{"case": self.graph_name, **{c: self.original.get(c) for c in cols}}]
        for row in self.rows:
            table.append(
                {
                    "case": f"{registry.scheme(row['scheme']).title} {row['label']}",
                    **_pick(row, cols),
                }
            )
        return table

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        """The study's tables by name."""
        out = {
            scheme: self.scheme_table(scheme)
            for scheme in registry.names()
            if self.scheme_rows(scheme)
        }
        out["comparison"] = self.comparison_table()
        return out

    def to_json(self) -> dict[str, Any]:
        """The study as a JSON-ready dict."""
        return {
            "graph": self.graph_name,
            "n": self.n,
            "m": self.m,
            "graphveil_version": self.version,
            "config": self.config.to_dict(),
            "original": self.original,
            "rows": self.rows,
            "tables": self.tables(),
            "not_applicable": self.not_applicable,
            "diameter_method": self.diameter_method,
            "graph_digest": self.graph_digest,
            "timings": self.timings,
            "preparations": self.preparations,
        }

    def to_markdown(self) -> str:
        """The study's tables as Markdown."""
        parts = [f"# graphveil study of {self.graph_name} (n={self.n:,}, m={self.m:,})", ""]
        header = (
            f"{self.config.samples} samples per case, seed {self.config.seed}, graphveil {self.version}. "
            "Lower H1, H2_open, eps, rel.err and tradeoff are better."
        )
        if self.diameter_method == "lower_bound":
            header += (
                f" S_Diam is the longest distance from {self.config.distance_sources:,} random "
                f"BFS sources (the paper's bound), as iFUB does not prove G0's diameter within "
                f"{DIAMETER_MAX_BFS} BFS."
            )
        parts.append(header)
        for name, table in self.tables().items():
            title = (
                "Comparison (the paper's Table 7)"
                if name == "comparison"
                else registry.scheme(name).title
            )
            parts += ["", f"## {title}", "", _markdown_table(table)]
        parts += ["", *self._findings_markdown()]
        control = self.original.get("attack_not_applicable")
        if self.not_applicable or control:
            parts += ["", "## Not applicable", ""]
            if control:
                parts.append(f"- {self.graph_name} as published (the control): attack: {control}")
            parts += [
                f"- {registry.scheme(r['scheme']).title} {r['label']}: {r['reason']}"
                for r in self.not_applicable
            ]
        return "\n".join(parts) + "\n"

    def _findings_markdown(self) -> list[str]:
        """The paper's claims checked on these rows, and where the attacks disagree with the scores."""
        from graphveil.findings import (
            attack_disagreements,
            claims_markdown,
            family_markdown,
            paper_claims,
        )

        lines = claims_markdown(
            paper_claims(self.rows, self.config.k, original=self.original, graph=self.graph_name)
        )
        sentences = attack_disagreements(self.rows, lambda s: registry.scheme(s).title)
        if sentences:
            lines += [
                "",
                "## The attacks against the scores",
                "",
                (
                    "graphveil's own check, not the paper's. Re-identified: the fraction of G0's "
                    "core nodes (degree >= 5, largest component) that propagation re-identifies "
                    "in a sampled world; a pair of rows disagrees when H1 or H2_open orders it "
                    "one way and the attack the other."
                ),
                "",
                *(f"- {s}" for s in sentences),
            ]
        families = family_markdown(self.rows, self.graph_name)
        return lines + ["", *families] if families else lines

    def write(self, out_dir: str | Path, *, figures: bool = True) -> list[Path]:
        """Write every table as Markdown, CSV and JSON (and the figures as PNG) into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for name, table in self.tables().items():
            written.append(_write_text(out / f"table_{name}.csv", _csv_table(table)))
            written.append(_write_text(out / f"table_{name}.md", _markdown_table(table) + "\n"))
        written.append(
            _write_text(
                out / "study.json",
                json.dumps(self.to_json(), indent=2, default=_json_default),
                private=True,  # per-point seeds and scheme reports: like a run record
            )
        )
        written.append(_write_text(out / "study.md", self.to_markdown()))
        if figures:
            from graphveil import plots

            written += plots.study_figures(self, out)
        return written


def paper_grid(
    schemes: Iterable[str] | None = None, grid: Mapping[str, Sequence[float]] | None = None
) -> list[GridPoint]:
    """The grid points of ``schemes`` (default: the paper's study), grids optionally overridden.

    The default is the ``"uncertainty"`` family; the edge-DP schemes run only when named.
    """
    known = registry.names()
    chosen = list(registry.names(family="uncertainty") if schemes is None else schemes)
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise ValueError(f"unknown scheme(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    values = {name: registry.scheme(name).default_grid for name in known}
    for scheme, vals in (grid or {}).items():
        if scheme not in known:
            raise ValueError(f"unknown scheme {scheme!r} in grid; choose from {', '.join(known)}")
        if scheme not in chosen:  # a grid nobody runs: a silent default would mislead
            raise ValueError(
                f"a grid is given for {scheme}, which is not among the schemes run "
                f"({', '.join(chosen)}): add {scheme} to the schemes or drop its grid"
            )
        vals = tuple(vals)
        if not vals:
            raise ValueError(f"grid for {scheme} is empty")
        values[scheme] = vals
    points = [GridPoint(s, float(v)) for s in chosen for v in values[s]]
    for point in points:
        _check_value(point)
    return points


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
    attacks: bool = True,
    executor: Executor | None = None,
    distance_sources: int = DISTANCE_SOURCES,
    overwrite: bool = False,
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
        message to the callable).
    figures : bool
        Write the PNG figures too (needs matplotlib, the ``plot`` extra).
    maxvar_parts : int, optional
        MaxVar's parts; default ``max(1, round(n / 16,000))``
        (:func:`graphveil.anonymize.registry.maxvar_parts`); the paper's own graphs took 20, 20
        and 60 (:attr:`graphveil.datasets.Dataset.maxvar_parts`, which ``graphveil reproduce
        --dataset`` passes). G0 is partitioned once per study, seeded by the master seed, and
        every MaxVar point runs on those parts, as the authors' scripts did (the seed and time
        are in ``Study.preparations``). Rows and tables name the n_p / m MaxVar actually found.
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

    Returns
    -------
    Study

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
        graph, samples, seed, k, threads, attacks, maxvar_parts, distance_sources
    )
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
    # Each point is recorded as soon as it is complete (locally one at a time, the next one
    # anonymized meanwhile; on an executor every point's tasks are queued at once).
    prepared: dict[str, dict[str, Any]] = {}
    for _, point, row in _run_points(
        reference, pending, config, original, len(points), say, executor, prepared
    ):
        _save_point(state_dir, point.key, fingerprint, row)
        records[point.key] = row
    for name, info in prepared.items():
        _save_point(state_dir, _prepare_key(name), fingerprint, info)
    preparations.update(prepared)
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


def _study_config(
    graph: Graph,
    samples: int,
    seed: int,
    k: Sequence[int],
    threads: int | None,
    attacks: bool,
    maxvar_parts: int | None,
    distance_sources: int,
) -> StudyConfig:
    """The checked configuration of :func:`reproduce` (every bad input fails before any work)."""
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, got {type(graph).__name__}")
    if graph.m == 0:
        raise ValueError("the graph has no edges: nothing to anonymize")
    if int(samples) < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    ks = tuple(int(x) for x in k)
    if not ks or min(ks) < 1:
        raise ValueError(f"every k must be at least 1, got {list(ks)}")
    return StudyConfig(
        samples=int(samples),
        seed=seed_to_u64(seed),
        k=ks,
        threads=check_threads(threads),
        attacks=bool(attacks),
        maxvar_parts=None
        if maxvar_parts is None
        else check_int(maxvar_parts, "maxvar_parts", low=1),
        distance_sources=check_int(distance_sources, "distance_sources", low=1),
    )


def graph_digest(graph: Graph) -> str:
    """SHA-256 of a graph's node count and edges: the same digest only for the same graph.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("karate_club")
    >>> graph_digest(g) == graph_digest(g) != graph_digest(gv.Graph.from_edges([0], [1]))
    True
    """
    h = hashlib.sha256()
    _hash_graph(h, graph)
    return h.hexdigest()


def _hash_graph(h: Any, graph: Graph) -> None:
    u, v = graph.edges()
    h.update(np.int64(graph.n).tobytes())
    h.update(np.ascontiguousarray(u, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(v, dtype=np.int64).tobytes())


#: What :meth:`Study.write` and the recorded points leave in a study's folder (removed by
#: ``overwrite`` when the folder held another graph's study).
_STUDY_FILES = ("table_*.csv", "table_*.md", "study.json", "study.md", "*.png", "points/*.json")


def _claim_folder(out_dir: str | Path | None, graph: Graph, digest: str, overwrite: bool) -> None:
    """Refuse (or, with ``overwrite``, clear) a folder whose ``study.json`` is another graph's.

    A ``study.json`` written before the digest was recorded is told apart by n and m only.
    """
    if out_dir is None:
        return
    out = Path(out_dir)
    try:
        previous = json.loads((out / "study.json").read_text())
    except (FileNotFoundError, NotADirectoryError, json.JSONDecodeError):
        return
    if not isinstance(previous, dict):
        return
    recorded = previous.get("graph_digest")
    if recorded == digest or (
        not recorded and (previous.get("n"), previous.get("m")) == (graph.n, graph.m)
    ):
        return
    if not overwrite:
        name = previous.get("graph", "?")
        raise ValueError(
            f"{out} holds the study of another graph ({name}, n={previous.get('n')}, "
            f"m={previous.get('m')}): its tables would be left beside this graph's; give a new "
            "folder, or overwrite=True to remove that study first"
        )
    for pattern in _STUDY_FILES:
        for path in out.glob(pattern):
            path.unlink()


def _state_dir(out_dir: str | Path | None) -> Path | None:
    """``out_dir/points``, created, checked writable and cleared of a killed run's temporaries."""
    if out_dir is None:
        return None
    state_dir = Path(out_dir) / "points"
    # private like a run record (each point holds its seed): 0700, its files 0600
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    state_dir.chmod(0o700)
    # fail before any work if the outputs cannot be written; drop what a killed run left
    check_output_path(state_dir.parent / "study.json")
    check_output_path(state_dir / "original.json")
    clean_stale_temporaries(state_dir.parent)
    clean_stale_temporaries(state_dir)
    return state_dir


def _study_rows(
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
            skipped.append(
                {**_pick(cached, ("scheme", "value", "label")), "reason": cached["not_applicable"]}
            )
            continue
        if "tv_model" not in cached:
            _add_model_tv(graph, point, cached)
        rows.append(cached)
        if "attack_not_applicable" in cached:  # the row stands, without its attack columns
            reason = f"attack: {cached['attack_not_applicable']}"
            say(f"{prefix}not applicable: {reason}")
            skipped.append({**_pick(cached, ("scheme", "value", "label")), "reason": reason})
    return rows, skipped


# ---------------------------------------------------------------------------- one point
def point_seed(master: int, key: str) -> int:
    """The seed of one grid point: a hash of the master seed and the point's key."""
    return derived_seed(master, key)


def _anonymize(
    graph: Graph, point: GridPoint, config: StudyConfig, seed: int, prepared: Any = None
) -> Anonymized:
    record = registry.scheme(point.scheme)
    if record.prepare is None:
        return record.study(graph, point.value, config, seed)
    return record.study(graph, point.value, config, seed, prepared=prepared)


def _prepare_key(scheme: str) -> str:
    """The study key (and record name) of a scheme's once-per-study preparation."""
    return f"{scheme}.prepare"


def _prepare_task(reference: Original, scheme: str, config: StudyConfig) -> tuple[Any, dict]:
    """A scheme's :attr:`~graphveil.anonymize.registry.Scheme.prepare` on G0 as a task.

    Returns ``(prepared, info)``: what every grid point of the scheme is given, and its
    ``seed`` (derived from the study's) and ``time_s`` for the private record.
    """
    prepare = registry.scheme(scheme).prepare
    assert prepare is not None
    seed = point_seed(config.seed, _prepare_key(scheme))
    t0 = time.perf_counter()
    prepared = prepare(reference.graph, config, seed)
    return prepared, {"seed": seed, "time_s": time.perf_counter() - t0}


def _anonymize_task(
    reference: Original, point: GridPoint, config: StudyConfig, seed: int, prepared: Any = None
) -> Any:
    """One anonymization of G0 as a task: ``(ug, report, seconds)`` or a NotApplicable reason."""
    from graphveil.measure.report import task_threads

    t0 = time.perf_counter()
    local = replace(config, threads=task_threads(config.threads))
    try:
        ug, report = _anonymize(reference.graph, point, local, seed, prepared)
    except ValueError as err:  # the scheme's own checks: this graph cannot take this point
        return NotApplicable(str(err))
    return ug, report, time.perf_counter() - t0


def _eps_task(reference: Original, ug: Any, ks: tuple[int, ...], threads: int) -> dict[int, float]:
    from graphveil.measure.privacy import eps
    from graphveil.measure.report import task_threads

    return eps(reference.graph, ug, list(ks), threads=task_threads(threads))


def _independent_run(
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
    from graphveil.measure.report import measure_sample

    ug = published
    if ug is None:
        result = _anonymize_task(reference, point, config, run_seed)
        if isinstance(result, NotApplicable):
            raise result  # run 0 of this point ran, so another seed should too: say why not
        ug = result[0]
    row, hist = measure_sample(reference, ug, 0, sample_seed, stat_seed, config.threads)
    return row, hist, _eps_task(reference, ug, config.k, config.threads), float(ug.num_pairs)


def _deterministic(ug: Any) -> bool:
    """Whether every possible world of ``ug`` is the same graph (all probabilities 0 or 1)."""
    return bool(np.all((ug.p == 0.0) | (ug.p == 1.0)))


def _run_points(
    reference: Original,
    batch: list[tuple[int, GridPoint]],
    config: StudyConfig,
    original: dict[str, Any],
    total: int,
    say: Callable[[str], None],
    executor: Executor | None,
    preparations: dict[str, dict[str, Any]] | None = None,
) -> Iterable[tuple[int, GridPoint, dict[str, Any]]]:
    """Run grid points as tasks on ``executor``; yield each finished row.

    A scheme with a :attr:`~graphveil.anonymize.registry.Scheme.prepare` has it run once, as a
    task queued before its first point's anonymization, whose result every point of the scheme
    is given (on Dask it stays on the cluster); its seed and time go into ``preparations``.

    On an executor every task goes there. G0's Original goes to the cluster once for the batch,
    and each point's published graph stays where its anonymization ran, if the executor can
    share (:mod:`graphveil.cluster`); otherwise every task gets them as arguments. Without an
    executor the points go one at a time: a point's samples or independent runs go side by side
    on a local pool (:func:`~graphveil.measure.report.side_by_side`) while the next point is
    anonymized beside them, so the cores are not left idle by anonymizations that run mostly
    on one thread, nor by the last samples of a point.
    """
    from graphveil.measure.report import _seeds, measure_sample, side_by_side

    graph = reference.graph
    with contextlib.ExitStack() as stack:
        if executor is not None:
            pool = side = sharing(executor) or executor
            task_config = anon_config = config
            ahead = len(batch)  # every point's tasks queued at once
        else:
            workers, per_task = side_by_side(config.threads, config.samples)
            pool = ThreadPoolExecutor(1, thread_name_prefix="graphveil-anon")
            side = ThreadPoolExecutor(workers, thread_name_prefix="graphveil")
            for local in (pool, side):  # interrupted: drop the queued tasks, wait for the running
                stack.callback(local.shutdown, wait=True, cancel_futures=True)
            stack.push(_stop_kernels_on_exit)  # runs first: the running tasks' kernels stop
            task_config = replace(config, threads=per_task)
            # The next point is anonymized while this one's samples run, on a task's share of
            # the threads: on all of them it would compete with the samples and hold more memory.
            anon_config = task_config
            ahead = 1
        g0 = share(pool, reference)
        stat_seed_in = point_seed(config.seed, "statistics")
        started: dict[str, float] = {}
        anon: dict[str, Future[Any]] = {}
        rank: dict[str, int] = {}
        prepared: dict[str, tuple[Future[Any], Any]] = {}  # scheme: (task, what points take)

        def prepare(j: int, scheme: str) -> Any:
            """The scheme's prepared object for its points (its task queued on first use)."""
            if registry.scheme(scheme).prepare is None:
                return None
            if scheme not in prepared:
                say(f"{registry.scheme(scheme).title}: preparing once for all its points")
                task = submit(pool, 2 - 2 * j, _prepare_task, g0, scheme, config)
                prepared[scheme] = (task, result_item(pool, task, 0))
            return prepared[scheme][1]

        def start(j: int) -> None:
            i, point = batch[j]
            shared = prepare(j, point.scheme)
            say(f"[{i}/{total}] {point.key}: anonymizing")
            started[point.key] = time.perf_counter()
            seed = point_seed(config.seed, point.key)
            # point j's anonymization ranks between point j-1's tasks and its own (cluster order)
            rank[point.key] = -2 * j
            # the first point has the machine to itself; later ones share it with samples
            alone = config if j == 0 else anon_config
            anon[point.key] = submit(
                pool, 1 - 2 * j, _anonymize_task, g0, point, alone, seed, shared
            )

        def queue(i: int, point: GridPoint) -> Any:
            """The point's tasks, submitted once its anonymization is done."""
            prefix = f"[{i}/{total}] {point.key}: "
            anonymized = anon.pop(point.key)  # dropped after this point's tasks take its graph
            result = anonymized.result()
            if isinstance(result, NotApplicable):
                return result
            ug, report, t_anon = result
            seed = point_seed(config.seed, point.key)
            root, sample_seed, stat_seed = _seeds(point_seed(seed, "evaluate"), stat_seed_in)
            model_tv = None  # RandWalk-mod's Fig. 10 bar: a task like the anonymization
            if _has_model(point):
                model_tv = submit(pool, rank[point.key], _model_tv_task, g0, point, config.threads)
            if _deterministic(ug):
                say(prefix + f"anonymized in {t_anon:.2f} s; {config.samples} independent runs")
                futures: list[Future[Any]] = [
                    submit(
                        side,
                        rank[point.key],
                        _independent_run,
                        g0,
                        point,
                        task_config,
                        seed if r == 0 else point_seed(seed, f"run-{r}"),
                        sample_seed,
                        stat_seed,
                        result_item(pool, anonymized, 0) if r == 0 else None,
                    )
                    for r in range(config.samples)
                ]
            else:
                say(prefix + f"anonymized in {t_anon:.2f} s; evaluating {config.samples} samples")
                published = result_item(pool, anonymized, 0)
                futures = [
                    submit(
                        side,
                        rank[point.key],
                        measure_sample,
                        g0,
                        published,
                        j,
                        sample_seed,
                        stat_seed,
                        task_config.threads,
                    )
                    for j in range(config.samples)
                ]
                futures.append(
                    submit(
                        side,
                        rank[point.key],
                        _eps_task,
                        g0,
                        published,
                        config.k,
                        task_config.threads,
                    )
                )
            return ug, report, t_anon, root, sample_seed, futures, model_tv

        queued: deque[tuple[int, GridPoint, Any]] = deque()  # points with tasks submitted

        def finish_first() -> tuple[int, GridPoint, dict[str, Any]]:
            """The first queued point's row, once its tasks are done."""
            i, point, item = queued.popleft()
            if isinstance(item, NotApplicable):
                return i, point, {**_point_id(point), "not_applicable": str(item)}
            ug, report, t_anon, root, sample_seed, futures, _tv = item
            row = _point_row(graph, point, config, original, item, [f.result() for f in futures])
            row["time_anonymize_s"] = t_anon
            row["time_evaluate_s"] = time.perf_counter() - started[point.key] - t_anon
            say(
                f"[{i}/{total}] {point.key}: done: H2_open={row['H2_open']:.1f} "
                f"rel.err={row['rel_err']:.4f}"
            )
            return i, point, row

        def waiting(item: Any) -> list[Future[Any]]:
            """The point's tasks still running."""
            if isinstance(item, NotApplicable):
                return []
            futures, model_tv = item[5], item[6]
            return [f for f in [*futures, model_tv] if f is not None and not f.done()]

        # A window over the batch: anonymizations run `ahead` points ahead of the point whose
        # tasks are being queued; a point is finished (and recorded) once the next one is
        # queued, or as soon as its tasks are done, so a killed cluster run keeps its points.
        for j in range(min(ahead, len(batch))):
            start(j)
        for j, (i, point) in enumerate(batch):
            while queued and not anon[point.key].done():  # record what is done meanwhile
                running = waiting(queued[0][2])
                if running:
                    wait([anon[point.key], *running], return_when=FIRST_COMPLETED)
                else:
                    yield finish_first()
            queued.append((i, point, queue(i, point)))
            if j + ahead < len(batch):
                start(j + ahead)
            while len(queued) > ahead or (queued and not waiting(queued[0][2])):
                yield finish_first()
        while queued:
            yield finish_first()
        for scheme, (task, _shared) in prepared.items():
            if preparations is not None:
                preparations[scheme] = task.result()[1]


def _stop_kernels_on_exit(exc_type: type[BaseException] | None, *_: Any) -> None:
    """On Ctrl-C or SIGTERM (not an error), stop the kernels running on the study's pools.

    The signal stops the main thread, not the pool threads: their tasks' kernels are told to
    stop (``_core.stop_kernels``), so the pools' shutdown does not wait for them to finish.
    """
    if exc_type is not None and not issubclass(exc_type, (Exception, GeneratorExit)):
        from graphveil import _core

        _core.stop_kernels()


def _point_id(point: GridPoint) -> dict[str, Any]:
    return {"scheme": point.scheme, "value": point.value, "label": point.label}


def _point_row(
    graph: Graph,
    point: GridPoint,
    config: StudyConfig,
    original: dict[str, Any],
    item: tuple[Any, ...],
    results: list[Any],
) -> dict[str, Any]:
    """A point's table row from its tasks' results: samples of one output, or independent runs."""
    from graphveil.measure.report import Report, _pooled_exponent, _sum_histograms

    ug, report, _t, root, sample_seed, _f, model_tv = item
    runs = 1
    if _deterministic(ug):
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
    histogram = _sum_histograms(hists)
    ev = Report(
        original={key: original[key] for key in ("H1", "H2_open", *statistic_names())},
        per_sample=per_sample,
        eps=eps,
        eps_original={k: original[f"eps_k{k}"] for k in config.k},
        n=graph.n,
        m=graph.m,
        seed=root,
        sample_seed=sample_seed,
        extra={"S_PL_pooled": _pooled_exponent(histogram)},
        degree_histogram=histogram,
    )
    row: dict[str, Any] = {
        **_point_id(point),
        "seed": point_seed(config.seed, point.key),
        "runs": runs,
        "pairs": pairs,
        "tv": ug.total_variance(),
        "tv_normalized": ug.total_variance() / graph.m,
    }
    _add_model_tv(graph, point, row, None if model_tv is None else model_tv.result())
    _add_found(graph, point, report, row)
    row.update(_report_row(ev, config))
    if config.attacks:  # on the point's one release (run 0 for a deterministic scheme)
        t3 = time.perf_counter()
        row.update(_attack_row(graph, ug, config, point_seed(row["seed"], "attack")))
        row["time_attack_s"] = time.perf_counter() - t3
    row["scheme_report"] = _jsonable(report)
    return row


def _add_found(graph: Graph, point: GridPoint, report: dict[str, Any], row: dict[str, Any]) -> None:
    """MaxVar: label the row with the n_p / m actually found, and keep the requested one.

    MaxVar may find fewer friend-of-friend pairs than requested (``allow_fewer``); its report
    counts what it found. The row's ``label`` (used by every table and figure) then names the
    found ratio, with the request in brackets when it fell short; ``found`` and ``requested``
    are the two ratios and ``n_p_found`` the count.
    """
    if point.scheme != "maxvar":
        return
    requested = round(point.value * graph.m)
    found = int(sum(report["potential_proposed"]))
    row["parts"] = int(report["params"]["parts"])
    row["n_p_requested"] = requested
    row["n_p_found"] = found
    row["requested"] = point.value
    row["found"] = found / graph.m
    label = f"{registry.scheme(point.scheme).grid_parameter}={row['found']:.3g}"
    row["label"] = label if found >= requested else f"{label} (found; asked {point.value:g})"


#: Multiply-adds (``n t 2m``) up to which RandWalk-mod's model TV is computed exactly: email-Enron
#: at t = 10 is 1.35e11 (100 s on 2 cores). Above it, a stratified estimate costing
#: about :data:`ESTIMATED_TV_WORK` (:func:`~graphveil.anonymize.randwalk_mod_tv_estimate`).
EXACT_TV_WORK = 2e11
ESTIMATED_TV_WORK = 2.5e9


def _has_model(point: GridPoint) -> bool:
    """Whether the point's Fig. 10 bar is a model's TV, not its published graph's."""
    return point.scheme == "randwalk_mod"


def _model_tv_task(
    reference: Original, point: GridPoint, threads: int | None
) -> tuple[float, float]:
    """:func:`_model_tv` of a point with a model (:func:`_has_model`), as a task."""
    from graphveil.measure.report import task_threads

    return _model_tv(reference.graph, point, math.nan, task_threads(threads))


def _add_model_tv(
    graph: Graph,
    point: GridPoint,
    row: dict[str, Any],
    computed: tuple[float, float] | None = None,
) -> None:
    """Set ``tv_model``, its normalised value and standard error (also for older records).

    ``computed`` is :func:`_model_tv_task`'s result when a task already ran it.
    """
    tv, se = computed if computed is not None else _model_tv(graph, point, row["tv"])
    row["tv_model"] = tv
    row["tv_model_normalized"] = None if tv is None else tv / graph.m
    row["tv_model_se"] = se


def _model_tv(
    graph: Graph, point: GridPoint, published_tv: float, threads: int | None = None
) -> tuple[float, float]:
    """TV of the scheme's uncertain model, the quantity of the paper's Fig. 10, and its error.

    For RandWalk-mod the published graph is one realisation of the walks (TV 0); its model is
    the uncertain adjacency matrix (A P^(t-1)) o (Q + Q^T), whose TV is streamed block by block
    (:func:`~graphveil.anonymize.randwalk_mod_tv`) without building it, exactly while that costs
    at most :data:`EXACT_TV_WORK` multiply-adds, else estimated with its standard error. For
    every other scheme the model is the published uncertain graph itself (error 0).
    """
    if not _has_model(point):
        return published_tv, 0.0
    from graphveil.anonymize import randwalk_mod_tv, randwalk_mod_tv_estimate

    t = int(point.value)
    work = float(graph.n) * t * 2 * graph.m
    if work <= EXACT_TV_WORK:
        return randwalk_mod_tv(graph, t, alpha=0.5, threads=threads), 0.0
    columns = max(200, int(ESTIMATED_TV_WORK / (t * 2 * graph.m)))
    return randwalk_mod_tv_estimate(graph, t, columns=columns, seed=0, threads=threads)


def _report_row(ev: Any, config: StudyConfig) -> dict[str, Any]:
    mean, std = ev.mean, ev.std
    row: dict[str, Any] = {key: mean[key] for key in ("H1", "H2_open", *statistic_names())}
    row["removed_edges"] = mean["edges_removed"]
    row["added_edges"] = mean["edges_added"]
    for k in config.k:
        row[f"eps_k{k}"] = float(ev.eps[k])
    row["rel_err"] = ev.rel_err
    row["tradeoff"] = ev.tradeoff
    row["std"] = {key: std[key] for key in ("H1", "H2_open", *statistic_names())}
    row.update({f"extra_{key}": value for key, value in ev.extra.items()})
    return row


def _attack_row(graph: Graph, published: Any, config: StudyConfig, seed: int) -> dict[str, Any]:
    """The attack columns of a row, empty on a graph the attacks cannot take.

    E.g. a sampled world without edges: ``attack_not_applicable`` then says why.
    """
    from graphveil.attack.scores import ATTACK_SAMPLES, attack_scores

    samples = min(config.samples, ATTACK_SAMPLES)
    try:
        return attack_scores(graph, published, samples, seed, threads=config.threads)
    except NotApplicable as err:
        return {**dict.fromkeys(ATTACK_COLUMNS), "attack_not_applicable": str(err)}


def _reference(graph: Graph, config: StudyConfig, diameter_method: str) -> Original:
    """G0 measured once per study; its sample tasks reuse its signatures and edge keys."""
    # The same statistics seed as every grid point's evaluation, which reuses G0's row: it is
    # then exactly the one their rel.err is measured against.
    return Original(
        graph,
        config.k,
        statistics_seed=point_seed(config.seed, "statistics"),
        threads=config.threads,
        statistics=partial(
            utility_statistics,
            sources=config.distance_sources,
            diameter_method=diameter_method,
        ),
    )


def _original_row(reference: Original, config: StudyConfig) -> dict[str, Any]:
    graph = reference.graph
    row = dict(reference.row)
    eps = row.pop("eps")
    row.update({f"eps_k{k}": float(eps[k]) for k in config.k})
    if config.attacks:  # the un-anonymized control: G0 published as is
        row.update(_attack_row(graph, graph, config, point_seed(config.seed, "attack")))
    return row


# ---------------------------------------------------------------------------- state
def _fingerprint(graph: Graph, config: StudyConfig, version: str) -> str:
    h = hashlib.sha256()
    _hash_graph(h, graph)
    h.update(
        json.dumps(
            {**config.to_dict(), "version": version, "state": STATE_VERSION}, sort_keys=True
        ).encode()
    )
    return h.hexdigest()


def _state_file(state_dir: Path, key: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)
    return state_dir / f"{safe}.json"


def _load_point(state_dir: Path | None, key: str, fingerprint: str) -> dict[str, Any] | None:
    if state_dir is None:
        return None
    path = _state_file(state_dir, key)
    try:
        record = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    if record.get("fingerprint") != fingerprint or record.get("key") != key:
        return None
    return record["row"]


def _save_point(state_dir: Path | None, key: str, fingerprint: str, row: dict[str, Any]) -> None:
    if state_dir is None:
        return
    record = {"key": key, "fingerprint": fingerprint, "row": row}
    text = json.dumps(record, default=_json_default)
    _write_text(_state_file(state_dir, key), text, private=True)


# ---------------------------------------------------------------------------- formatting
def _fmt_value(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _check_value(point: GridPoint) -> None:
    problem = registry.scheme(point.scheme).check_value(point.value)
    if problem is not None:
        raise ValueError(f"invalid grid value {point.value:g} for {point.scheme}: {problem}")


def _pick(row: dict[str, Any], cols: Iterable[str]) -> dict[str, Any]:
    return {c: row.get(c) for c in cols}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if value == 0 or 1e-3 <= abs(value) < 1e7:
            return f"{value:.4g}" if abs(value) < 1 else f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{value:.3e}"
    return str(value)


def _markdown_table(table: list[dict[str, Any]]) -> str:
    cols = list(table[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(_cell(r.get(c)) for c in cols) + " |" for r in table]
    return "\n".join(lines)


def _csv_table(table: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(table[0]), lineterminator="\n")
    writer.writeheader()
    for row in table:
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()


def _write_text(path: Path, text: str, *, private: bool = False) -> Path:
    with atomic_path(path, private=private) as tmp:
        tmp.write_text(text)
    return path


def _json_default(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


def _jsonable(report: dict[str, Any]) -> dict[str, Any]:
    """The scheme report without bulky arrays (partition labels and the like)."""
    out = {}
    for key, value in report.items():
        if isinstance(value, np.ndarray) and value.size > 64:
            continue
        try:
            json.dumps(value, default=_json_default)
        except TypeError:
            continue
        out[key] = value
    return out


def _progress_sink(progress: bool | Callable[[str], None]) -> Callable[[str], None]:
    if callable(progress):
        return progress
    if progress:  # INFO on the graphveil logger: the CLI shows it as "graphveil: ..." unless -q
        return logging.getLogger(__name__).info
    return lambda msg: None
