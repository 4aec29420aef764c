"""Evaluation reports: privacy and utility of a published graph against the true one (Section VI).

:func:`graphveil.evaluate` draws samples ("possible worlds") of the published uncertain graph
and computes, on every sample (:func:`measure_sample`), the re-identification scores H1 and
H2_open, the utility statistics (:data:`~graphveil.measure.utility.STATISTIC_TABLE`) and the
edge differences with the true graph; then it averages them as the paper does (20 samples a
case), and adds eps of (k, eps)-obfuscation for the published graph itself
(:class:`~graphveil.measure.plan.SamplePlan` plans and reduces them). The result, a
:class:`Report`, prints as the rows of the paper's Tables 3-7 and saves as JSON or CSV.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphveil._common import atomic_path
from graphveil._json import dumps
from graphveil._seeds import SeedLike
from graphveil._threads import map_ordered, task_threads
from graphveil.graph import Graph
from graphveil.measure.errors import analyst_error, analyst_rows
from graphveil.measure.original import (
    DIRECTED_EPS_DEGREE,
    PAPER_K,
    Original,
    check_same_kind,
    statistic_values,
)
from graphveil.measure.powerlaw import RIVAL_KS_MARGIN, powerlaw_exponent
from graphveil.measure.scores import EPS, H2_OPEN, MODEL_SCORES
from graphveil.measure.scoring import DEFAULT as DEFAULT_SCORING
from graphveil.measure.scoring import check_scoring
from graphveil.measure.scoring import scoring as scoring_named
from graphveil.measure.utility import (
    POWERLAW_DEGREES,
    STATISTICS,
    analyst_names,
    rel_err_names,
    statistic,
    statistic_names,
    unstable_powerlaw_fits,
)
from graphveil.multigraph import Multigraph
from graphveil.uncertain import UncertainGraph

__all__ = ["PAPER_K", "STATISTICS", "Original", "Report", "analyst_error", "relative_error"]


#: The privacy scores of every sample (H1, H2_open), from their records (``MODEL_SCORES``), and
#: their column names.
_SAMPLED = [s for s in MODEL_SCORES if s.on == "sample"]
PRIVACY, _EDGES = tuple(s.name for s in _SAMPLED), ("edges_removed", "edges_added")

# Display formats (original row, mean row; the original row holds exact counts) and headers of
# the privacy scores and edge differences; the statistics' come from the statistics table.
_FORMATS = {s.name: s.formats for s in _SAMPLED} | dict.fromkeys(_EDGES, ("{:.0f}", "{:.1f}"))
_HEADERS = {s.name: s.column() for s in _SAMPLED} | dict(zip(_EDGES, ("|E0\\E|", "|E\\E0|")))


def _columns(
    scores: tuple[str, ...], statistics: tuple[str, ...], analyst: bool = False
) -> tuple[str, ...]:
    """Every per-sample column: privacy, edge differences, the ``statistics`` (and the analyst's)."""
    return scores + _EDGES + statistics + (analyst_names() if analyst else ())


def _format(column: str, row: int) -> str:
    """Display format of ``column`` in the original (``row=0``) or mean (``row=1``) row."""
    return (_FORMATS[column] if column in _FORMATS else statistic(column).formats)[row]


def _header(column: str) -> str:
    return _HEADERS[column] if column in _HEADERS else statistic(column).column


def relative_error(
    mean: dict[str, float],
    original: dict[str, float],
    *,
    directed: bool = False,
    statistics: Sequence[str] | None = None,
) -> tuple[float, dict[str, float]]:
    """rel.err = mean over the utility statistics of ``|mean - original| / original``.

    Parameters
    ----------
    mean : dict
        Each statistic averaged over the samples.
    original : dict
        The statistics of the true graph.
    directed : bool
        Over the statistics of directed graphs (``rel_err_names(True)``: reciprocity, the
        in/out degree statistics, the largest components' shares ...) instead of the paper's
        ten. The component counts are reported but not averaged in
        (:attr:`~graphveil.measure.utility.Statistic.relative`).
    statistics : sequence of str, optional
        The statistics measured (default: every one of the table for ``directed``); rel.err
        averages those of them that are ``relative``. A saved report passes its own, so that its
        rel.err stays what it was when a statistic is later added to the table.

    Returns
    -------
    (float, dict)
        rel.err and the per-statistic terms. A statistic whose original value is 0 or not
        finite (e.g. ``S_CC`` of a triangle-free graph, ``S_PL`` of a graph with too few
        distinct degrees) has no relative error: its term is ``nan`` and it is left out of the
        mean; rel.err is ``nan`` if no term is left.

    Examples
    --------
    The paper's Table 6, dblp, MaxVar with n_p = 200k (printed as 0.017):

    >>> g0 = dict(S_NE=1049866, S_AD=6.62, S_MD=343, S_DV=100.15, S_CC=0.306, S_PL=2.245,
    ...           S_APD=7.69, S_EDiam=9, S_CL=7.46, S_Diam=20)
    >>> mv = dict(S_NE=1049774, S_AD=6.62, S_MD=342.3, S_DV=100.73, S_CC=0.279, S_PL=2.213,
    ...           S_APD=7.66, S_EDiam=9.3, S_CL=7.43, S_Diam=19.5)
    >>> round(relative_error(mv, g0, statistics=list(g0))[0], 4)  # over the paper's ten
    0.0177
    """
    terms: dict[str, float] = {}
    names = rel_err_names(directed)
    if statistics is not None:
        names = tuple(name for name in statistics if statistic(name).relative)
    for key in names:
        o = float(original[key])
        mval = float(mean[key])
        terms[key] = (
            abs(mval - o) / abs(o)
            if (math.isfinite(o) and o != 0.0 and math.isfinite(mval))
            else math.nan
        )
    finite = [t for t in terms.values() if math.isfinite(t)]
    return (math.fsum(finite) / len(finite) if finite else math.nan), terms


@dataclass
class Report:
    r"""Privacy and utility of one published graph against the true graph.

    Attributes
    ----------
    original : dict
        The true graph's own row: H1, H2_open (its numbers of signatures) and the
        utility statistics.
    per_sample : list of dict
        For every sample: H1, H2_open, edges_removed ``|E_G0 \ E_G|``, edges_added
        ``|E_G \ E_G0|`` and the utility statistics.
    eps : dict
        ``{k: eps}`` of the published graph (computed on the uncertain graph itself).
    eps_original : dict
        ``{k: eps}`` of the true graph.
    n, m : int
        Size of the true graph.
    seed : int
        The 64-bit seed everything was derived from (samples and statistics).
    sample_seed : int
        The seed passed to ``UncertainGraph.sample``: ``ug.sample(len(per_sample),
        sample_seed)`` redraws the very samples.
    label : str
        A name for the published graph (scheme and parameters), shown as the row label.
    extra : dict
        Further values, e.g. ``S_PL_pooled`` (the exponent fitted on the pooled degrees of
        all samples, as the authors did), and for a power-law statistic whose fit on G0 is
        unstable (:func:`~graphveil.measure.unstable_powerlaw_fits`) its ``<name>_fit_alpha``,
        ``<name>_fit_xmin``, ``<name>_rival_alpha`` and ``<name>_rival_xmin``: see
        :attr:`Report.warnings`.
    degree_histogram : numpy.ndarray, optional
        Counts of each degree over all samples pooled: what ``S_PL_pooled`` is fitted on, kept so
        that :meth:`merge` refits it exactly.
    first_sample : int
        Index of the first sample in the seed's sequence (0 unless the report is one part of a
        split evaluation, see :meth:`merge`).
    directed : bool
        G0 and the release are directed: the columns are the directed statistics
        (``statistic_names(True)``), edges are arcs (ordered pairs) and eps is on the joint
        (in, out) degree (:data:`~graphveil.measure.original.DIRECTED_EPS_DEGREE`).
    statistics : tuple of str
        The utility statistics measured, in table order (default: ``statistic_names(directed)``
        as the table is now). A report read back keeps those it was saved with, so its mean,
        rel.err and table stay what they were when a statistic is later added to the table.
    scoring : str
        The :mod:`~graphveil.measure.scoring` of H2_open, eps and ``S_PL`` (``"corrected"``,
        graphveil's, or ``"authors"``). Under ``"authors"`` the mean row's ``S_PL`` (and so
        rel.err) is ``extra["S_PL_pooled"]``, the exponent of the pooled degrees.
    analyst : bool
        The analyst statistics (:func:`~graphveil.measure.utility.analyst_names`) were
        measured too: their columns follow the paper's, with their own mean error
        :attr:`analyst_err` (they never enter ``statistics`` or rel.err).

    Raises
    ------
    ValueError
        If ``statistics`` names a statistic that the table does not have (a report written by
        another graphveil version), or one missing from ``original``.
    """

    original: dict[str, float]
    per_sample: list[dict[str, float]]
    eps: dict[int, float]
    eps_original: dict[int, float]
    n: int
    m: int
    seed: int
    sample_seed: int
    label: str = "published"
    extra: dict[str, float] = field(default_factory=dict)
    degree_histogram: np.ndarray | None = None
    first_sample: int = 0
    directed: bool = False
    statistics: tuple[str, ...] = ()
    scoring: str = DEFAULT_SCORING
    analyst: bool = False

    def __post_init__(self) -> None:
        self.statistics = tuple(self.statistics) or statistic_names(self.directed)
        known = statistic_names(self.directed)
        unknown = [name for name in self.statistics if name not in known]
        if unknown:
            kind = "directed" if self.directed else "undirected"
            raise ValueError(
                f"the report holds {', '.join(unknown)}, not among this graphveil's {kind} "
                f"statistics ({', '.join(known)}): read it with the graphveil version that wrote it"
            )
        missing = [
            name
            for name in (*self.statistics, *(analyst_names() if self.analyst else ()))
            if name not in self.original
        ]
        if missing:
            raise ValueError(
                f"the true graph's row has no {', '.join(missing)}: measure every statistic "
                "of the report, or name those measured in statistics="
            )

    # ------------------------------------------------------------------ merging
    @classmethod
    def merge(cls, parts: Iterable[Report]) -> Report:
        """One report from partial reports of the same evaluation split over its samples.

        The parts must share the true graph's row, eps, seeds and label, and together cover
        samples ``0..N-1`` once (each part's ``first_sample`` and length). Per-sample rows
        are the sufficient statistics: the merged means and spreads are those of one run over
        all samples, and ``S_PL_pooled`` is refitted on the summed degree histograms.

        Raises
        ------
        ValueError
            If there are no parts, they come from different evaluations, or their samples
            overlap or leave a gap.

        Examples
        --------
        >>> from graphveil import generators, UncertainGraph
        >>> from graphveil import evaluate
        >>> g0 = generators.powerlaw_cluster(60, 2, 0.3, seed=1)
        >>> u, v = g0.edges()
        >>> ug = UncertainGraph(g0.n, u, v, [0.8] * g0.m)
        >>> whole = evaluate(g0, ug, samples=4, seed=3)
        >>> first = evaluate(g0, ug, samples=1, seed=3)
        >>> rest = evaluate(g0, ug, samples=3, seed=3, first_sample=1)
        >>> Report.merge([rest, first]).to_dict() == whole.to_dict()
        True
        """
        ordered = sorted(parts, key=lambda r: r.first_sample)
        if not ordered:
            raise ValueError("merge needs at least one report")
        head = ordered[0]
        same = (
            "original", "eps", "eps_original", "n", "m", "seed", "sample_seed", "label", "directed",
            "statistics",
            "scoring",
            "analyst",
        )  # fmt: skip
        for other in ordered[1:]:
            differing = [
                name for name in same if _canon(getattr(other, name)) != _canon(getattr(head, name))
            ]
            if differing:
                raise ValueError(
                    f"reports of different evaluations cannot be merged: {', '.join(differing)} differ"
                )
        expected = head.first_sample
        for part in ordered:
            if part.first_sample != expected:
                raise ValueError(
                    f"the parts' samples must follow each other: expected a part starting at "
                    f"sample {expected}, got one at {part.first_sample}"
                )
            expected += part.samples
        per_sample = [dict(row) for part in ordered for row in part.per_sample]
        hists = [part.degree_histogram for part in ordered]
        extra = dict(head.extra)
        histogram = None
        if all(h is not None for h in hists):
            histogram = sum_histograms(hists)
            if "S_PL_pooled" in extra:
                extra["S_PL_pooled"] = pooled_exponent(histogram)
        else:
            extra.pop("S_PL_pooled", None)
        return cls(
            original=dict(head.original),
            per_sample=per_sample,
            eps=dict(head.eps),
            eps_original=dict(head.eps_original),
            n=head.n,
            m=head.m,
            seed=head.seed,
            sample_seed=head.sample_seed,
            label=head.label,
            extra=extra,
            degree_histogram=histogram,
            first_sample=head.first_sample,
            directed=head.directed,
            statistics=head.statistics,
            scoring=head.scoring,
            analyst=head.analyst,
        )

    # ------------------------------------------------------------------ aggregates
    @property
    def samples(self) -> int:
        """Number of samples."""
        return len(self.per_sample)

    @property
    def mean(self) -> dict[str, float]:
        """Every column averaged over the samples.

        Under a scoring that pools ``S_PL`` (the authors'), ``S_PL`` is instead the exponent
        fitted on the pooled degrees, ``extra["S_PL_pooled"]``.
        """
        mean = {key: _mean([row[key] for row in self.per_sample]) for key in self._columns}
        if scoring_named(self.scoring).pooled_s_pl and "S_PL_pooled" in self.extra:
            mean["S_PL"] = float(self.extra["S_PL_pooled"])
        return mean

    @property
    def std(self) -> dict[str, float]:
        """Sample standard deviation (ddof = 1; 0 for a single sample) of every column."""
        return {key: _std([row[key] for row in self.per_sample]) for key in self._columns}

    @property
    def _columns(self) -> tuple[str, ...]:
        return _columns(self.scores, self.statistics, self.analyst)

    @property
    def scores(self) -> tuple[str, ...]:
        """The privacy scores of every sample it holds (H1, H2_open), in the records' order.

        Those of :data:`~graphveil.measure.scores.MODEL_SCORES` measured on every sample that
        the true graph's row holds: a report made before a score joined the records (the paper's
        rows, a saved file) keeps its own columns.
        """
        return tuple(name for name in PRIVACY if name in self.original)

    @property
    def rel_err_terms(self) -> dict[str, float]:
        """``|mean - original| / original`` for each statistic (nan where undefined)."""
        return relative_error(self.mean, self.original, statistics=self.statistics)[1]

    @property
    def rel_err(self) -> float:
        """Mean relative error over the utility statistics (Section VII of the paper)."""
        return relative_error(self.mean, self.original, statistics=self.statistics)[0]

    @property
    def warnings(self) -> list[str]:
        """What makes a number of this report unreliable, one sentence each.

        A power-law statistic whose fit on G0 has a rival (``extra``'s ``<name>_rival_alpha``):
        its samples may fit either exponent, so its rel.err term partly says which fit each
        sample took. The sentence gives both fits of G0 and the range of the samples' values.
        """
        out = []
        terms = self.rel_err_terms
        for name in self.statistics:
            if f"{name}_rival_alpha" not in self.extra:
                continue
            values = np.asarray([row[name] for row in self.per_sample], dtype=np.float64)
            finite = values[np.isfinite(values)]
            span = f"{finite.min():.3f} to {finite.max():.3f}" if finite.size else "nan"
            degrees = POWERLAW_DEGREES[name].replace("_", "-")
            out.append(
                f"{name} is unstable: G0's {degrees} fit alpha "
                f"{self.extra[f'{name}_fit_alpha']:.3f} at x_min "
                f"{self.extra[f'{name}_fit_xmin']:g} and, within {RIVAL_KS_MARGIN:.0%} of its KS "
                f"distance, alpha {self.extra[f'{name}_rival_alpha']:.3f} at x_min "
                f"{self.extra[f'{name}_rival_xmin']:g}; the samples' {name} span {span}, so its "
                f"rel.err term ({terms.get(name, math.nan):.3f}) partly says which fit each "
                "sample took (docs/directed.rst)"
            )
        return out

    @property
    def analyst_err_terms(self) -> dict[str, float]:
        """Each analyst statistic's error term (``measure.errors.error_term``; empty if none)."""
        return analyst_error(self.mean, self.original)[1] if self.analyst else {}

    @property
    def analyst_err(self) -> float:
        """Mean of :attr:`analyst_err_terms` (``measure.errors.analyst_error``; nan if none)."""
        return analyst_error(self.mean, self.original)[0] if self.analyst else math.nan

    @property
    def tradeoff(self) -> float:
        """``sqrt(H2_open) * rel.err`` (lower is better; Table 7 of the paper)."""
        return math.sqrt(self.mean[H2_OPEN.name]) * self.rel_err

    # ------------------------------------------------------------------ display
    def table(self) -> str:
        """The paper's rows: statistics (Tables 3, 4, 6) then privacy summary (Table 7)."""
        width = max(10, len(self.label), len("original"))
        stats_cols = self.scores + self.statistics
        head = ["".ljust(width)] + [_header(c).rjust(10) for c in stats_cols] + ["rel.err".rjust(8)]
        mean = self.mean
        orig_row = (
            ["original".ljust(width)]
            + [_format(c, 0).format(self.original[c]).rjust(10) for c in stats_cols]
            + ["".rjust(8)]
        )
        mean_row = (
            [self.label.ljust(width)]
            + [_format(c, 1).format(mean[c]).rjust(10) for c in stats_cols]
            + [f"{self.rel_err:.3f}".rjust(8)]
        )
        ks = sorted(self.eps)
        head2 = (
            ["".ljust(width)]
            + [_header(c).rjust(10) for c in self.scores + _EDGES]
            + [EPS.column(k).rjust(12) for k in ks]
            + ["rel.err".rjust(8), "tradeoff".rjust(9)]
        )
        orig2 = (
            ["original".ljust(width)]
            + [_format(c, 0).format(self.original[c]).rjust(10) for c in self.scores]
            + ["".rjust(10)] * 2
            + [EPS.formats[0].format(self.eps_original[k]).rjust(12) for k in ks]
            + ["".rjust(8), "".rjust(9)]
        )
        mean2 = (
            [self.label.ljust(width)]
            + [_format(c, 1).format(mean[c]).rjust(10) for c in self.scores + _EDGES]
            + [EPS.formats[1].format(self.eps[k]).rjust(12) for k in ks]
            + [f"{self.rel_err:.3f}".rjust(8), f"{self.tradeoff:.2f}".rjust(9)]
        )
        lines = [" ".join(r) for r in (head, orig_row, mean_row)]
        lines.append("")
        lines.extend(" ".join(r) for r in (head2, orig2, mean2))
        if self.analyst:
            lines.append("")
            lines.extend(analyst_rows(self.label, width, self.original, mean, self.analyst_err))
        lines.append(
            f"({self.samples} samples; n = {self.n:,}, m = {self.m:,}; seed = {self.seed}; "
            f"{self._eps_note})"
        )
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)

    @property
    def _eps_note(self) -> str:
        if self.scoring != DEFAULT_SCORING:
            return f"scored with {scoring_named(self.scoring).title}"
        kind = "joint (in, out) degree" if self.directed else "degree"
        return f"eps counts every node whose {kind} entropy is below log2 k"

    def __str__(self) -> str:
        return self.table()

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the inputs plus the derived mean, std, rel.err and tradeoff.

        A directed report also has ``directed`` (True) and ``eps_degree`` (``"joint"``); a
        report not scored the default way its ``scoring``.
        """
        kind: dict[str, Any] = (
            {"directed": True, "eps_degree": DIRECTED_EPS_DEGREE} if self.directed else {}
        )
        if self.warnings:
            kind["warnings"] = self.warnings
        if self.scoring != DEFAULT_SCORING:
            kind["scoring"] = self.scoring
        if self.analyst:
            kind.update(
                analyst=True,
                analyst_err=self.analyst_err,
                analyst_err_terms=self.analyst_err_terms,
            )
        return {
            "label": self.label,
            "n": self.n,
            "m": self.m,
            "samples": self.samples,
            "seed": self.seed,
            "sample_seed": self.sample_seed,
            "statistics": list(self.statistics),
            "original": dict(self.original),
            "per_sample": [dict(row) for row in self.per_sample],
            "mean": self.mean,
            "std": self.std,
            "rel_err": self.rel_err,
            "rel_err_terms": self.rel_err_terms,
            "tradeoff": self.tradeoff,
            "eps": {str(k): v for k, v in sorted(self.eps.items())},
            "eps_original": {str(k): v for k, v in sorted(self.eps_original.items())},
            "extra": dict(self.extra),
            "first_sample": self.first_sample,
            "degree_histogram": (
                None if self.degree_histogram is None else self.degree_histogram.tolist()
            ),
            **kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        """Rebuild a report from :meth:`to_dict` output (e.g. a loaded JSON file).

        The report keeps the statistics it was saved with (a file written before reports named
        them: those of its true graph's row), whatever the statistics table holds now.

        Raises
        ------
        ValueError
            If the file holds a statistic the table does not have.
        """
        statistics = data.get("statistics")
        if statistics is None:
            statistics = [k for k in data["original"] if k not in PRIVACY]
        return cls(
            original={k: float(v) for k, v in data["original"].items()},
            per_sample=[{k: float(v) for k, v in row.items()} for row in data["per_sample"]],
            eps={int(k): float(v) for k, v in data["eps"].items()},
            eps_original={int(k): float(v) for k, v in data["eps_original"].items()},
            n=int(data["n"]),
            m=int(data["m"]),
            seed=int(data["seed"]),
            sample_seed=int(data["sample_seed"]),
            label=str(data.get("label", "published")),
            extra={k: float(v) for k, v in data.get("extra", {}).items()},
            degree_histogram=(
                None
                if data.get("degree_histogram") is None
                else np.asarray(data["degree_histogram"], dtype=np.int64)
            ),
            first_sample=int(data.get("first_sample", 0)),
            directed=bool(data.get("directed", False)),
            statistics=tuple(str(name) for name in statistics),
            scoring=check_scoring(data.get("scoring", DEFAULT_SCORING)),
            analyst=bool(data.get("analyst", False)),
        )

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` as JSON (NaN written as null); atomic (temp file + rename)."""
        with atomic_path(path) as tmp:
            tmp.write_text(dumps(self.to_dict(), nan="null", indent=2) + "\n", encoding="utf-8")

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write one row per sample, then ``mean``, ``std`` and ``original``; atomic.

        Columns: row, H1, H2_open, edges_removed, edges_added, the utility statistics (and the
        analyst statistics if measured), rel_err, tradeoff (and analyst_err) and eps_k<k> (filled
        on the ``mean`` row for the published graph and on the ``original`` row for the true
        graph).
        """
        ks = sorted(self.eps)
        columns = self._columns
        errs = ["rel_err", "tradeoff", *(["analyst_err"] if self.analyst else [])]
        blank = [""] * len(errs)
        header = ["row", *columns, *errs, *[EPS.key(k) for k in ks]]
        rows: list[list[Any]] = []
        for i, row in enumerate(self.per_sample):
            rows.append([f"sample_{i}", *[row[c] for c in columns], *blank, *[""] * len(ks)])
        mean, std = self.mean, self.std
        errors = [self.rel_err, self.tradeoff, *([self.analyst_err] if self.analyst else [])]
        rows.append(["mean", *[mean[c] for c in columns], *errors, *[self.eps[k] for k in ks]])
        rows.append(["std", *[std[c] for c in columns], *blank, *[""] * len(ks)])
        orig = [self.original.get(c, 0.0 if c in _EDGES else math.nan) for c in columns]
        rows.append(["original", *orig, *blank, *[self.eps_original.get(k, "") for k in ks]])
        with atomic_path(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows([[_csv_value(v) for v in r] for r in rows])


def _mean(values: Sequence[float]) -> float:
    arr = np.asarray(values, dtype=np.float64)
    return float(arr.mean()) if arr.size else math.nan


def _std(values: Sequence[float]) -> float:
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return math.nan
    return float(arr.std(ddof=1)) if arr.size > 1 else 0.0


def _canon(value: Any) -> Any:
    """A value with nan made comparable (nan == nan), for checking that reports match."""
    if isinstance(value, dict):
        return {k: _canon(v) for k, v in value.items()}
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


def _csv_value(v: Any) -> Any:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else repr(v)
    return v


def true_graph_row(
    g0: Graph,
    k: int | Iterable[int] = PAPER_K,
    *,
    statistics_seed: SeedLike = None,
    threads: int | None = None,
    statistics: Callable[..., dict[str, float]] | None = None,
) -> dict[str, Any]:
    """G0's own row of the paper's tables.

    H1, H2_open (its numbers of signatures), the statistics (drawn with ``statistics_seed``) and
    ``eps``, a dict ``{k: eps}`` of G0 itself: :attr:`Original.row`.

    Pass it to :func:`graphveil.evaluate` as ``original`` to evaluate many published graphs of one G0
    without recomputing it; use the same ``statistics_seed`` there. An :class:`Original` does
    this and also keeps G0's signatures: prefer it.
    """
    return Original(
        g0, k, statistics_seed=statistics_seed, threads=threads, statistics=statistics
    ).row


def measure_sample(
    g0: Graph | Original,
    ug: UncertainGraph | Graph,
    index: int,
    sample_seed: int,
    stat_seed: int,
    threads: int | None = None,
    statistics: Callable[..., dict[str, float]] | None = None,
) -> tuple[dict[str, float], np.ndarray]:
    """Draw sample ``index`` of ``ug`` (``ug`` itself if a Graph), measure it and drop it.

    Returns its row (H1, H2_open, edge differences, statistics) and its degree histogram. The
    world of a relaxed ``ug`` (the printed RandWalk-mod, Mixture over it) is a
    :class:`~graphveil.multigraph.Multigraph`, ``ug.sample_multigraph(sample_seed, index=index)``,
    measured as the authors measured such worlds (every copy and loop an edge in the degrees,
    the signatures and the edges added; clustering and distances on its simple graph). Any
    other world is ``ug.sample(count, sample_seed)[index]`` for any ``count > index``: a task of an
    executor draws it alone, so the result never depends on how samples are spread over workers.
    ``g0`` is best an :class:`Original`, whose signatures and edge keys are reused; a Graph is
    measured here for this one sample. The statistics are ``statistics``, else the Original's
    (:attr:`Original.statistics_function <graphveil.measure.Original.statistics_function>`).
    A directed ``g0`` takes a directed ``ug`` (a ValueError otherwise): its worlds are directed
    graphs, the edge differences count arcs (ordered pairs) and the statistics are the directed
    ones.
    """
    check_same_kind(g0.graph if isinstance(g0, Original) else g0, ug)
    nthreads = task_threads(threads)
    reference = g0 if isinstance(g0, Original) else Original(g0, threads=nthreads)
    world: Graph | Multigraph
    if isinstance(ug, Graph):
        world = ug
    elif ug.relaxed and not ug.directed:  # loops and copies stay: the authors' multigraph way
        world = ug.sample_multigraph(sample_seed, index=index, threads=nthreads)
    else:
        u, v = ug.sample_edges(sample_seed, index=index, threads=nthreads)
        world = Graph.from_edges(u, v, ug.n, threads=nthreads, directed=ug.directed)
    removed, added = reference.edge_differences(world)
    row = reference.scores(world, nthreads)
    row.update(edges_removed=float(removed), edges_added=float(added))
    fn = statistics or reference.statistics_function
    row.update(statistic_values(fn, world, stat_seed, nthreads, names=reference.columns))
    return row, np.bincount(world.degrees)


def side_by_side(threads: int | None, tasks: int) -> tuple[int, int]:
    """How many of ``tasks`` run at once on this machine's ``threads``, and the threads of each.

    Parts of a task run on one thread and the multi-threaded kernels scale imperfectly, so
    tasks side by side with one thread each keep the cores busier than one task at a time on
    every thread (the web-NotreDame study runs at 184% CPU on 2 cores). Memory is one task's
    per task running.
    """
    total = task_threads(threads)
    workers = max(1, min(total, int(tasks)))
    return workers, max(1, total // workers)


def map_samples(
    executor: Executor | None,
    g0: Graph | Original,
    ug: UncertainGraph | Graph,
    indices: Sequence[int],
    sample_seed: int,
    stat_seed: int,
    threads: int | None,
    statistics: Callable[..., dict[str, float]] | None = None,
    on_done: Callable[[], None] | None = None,
) -> list[tuple[dict[str, float], np.ndarray]]:
    """:func:`measure_sample` of every index, in index order.

    One task each on ``executor``, or here, side by side on ``threads`` (:func:`side_by_side`).
    ``on_done()`` is called as each sample is done (a progress bar).
    """
    workers = None
    if executor is None:
        workers, threads = side_by_side(threads, len(indices))
    tasks = [(g0, ug, i, sample_seed, stat_seed, threads, statistics) for i in indices]
    return map_ordered(
        executor,
        workers,
        measure_sample,
        tasks,
        star=True,
        on_done=on_done,
        name="graphveil-sample",
    )


def sum_histograms(histograms: Iterable[np.ndarray | None]) -> np.ndarray:
    """Element-wise sum of degree histograms of different lengths."""
    total = np.zeros(0, dtype=np.int64)
    for h in histograms:
        if h is None:
            continue
        if h.size > total.size:
            total = np.pad(total, (0, h.size - total.size))
        total[: h.size] += h
    return total


def pooled_exponent(histogram: np.ndarray) -> float:
    """S_PL fitted on the pooled degrees of all samples, given as one degree histogram."""
    degrees = np.repeat(np.arange(histogram.size, dtype=np.int64), histogram)
    return float(powerlaw_exponent(degrees))


def fit_extra(g0: Graph) -> dict[str, float]:
    """``extra``'s entries of every power-law statistic whose fit on G0 has a rival.

    ``<name>_fit_alpha``, ``<name>_fit_xmin``, ``<name>_rival_alpha``, ``<name>_rival_xmin``
    (:func:`~graphveil.measure.unstable_powerlaw_fits`); :attr:`Report.warnings` reads them.
    """
    out: dict[str, float] = {}
    for name, (fit, rival) in unstable_powerlaw_fits(g0).items():
        out[f"{name}_fit_alpha"], out[f"{name}_fit_xmin"] = fit.alpha, fit.xmin
        out[f"{name}_rival_alpha"], out[f"{name}_rival_xmin"] = rival.alpha, rival.xmin
    return out
