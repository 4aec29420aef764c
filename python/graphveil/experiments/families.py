"""The families on every privacy axis, and the analyst's win counts: graphveil's own checks.

A family of the scheme registry (:data:`graphveil.anonymize.registry.FAMILIES`: the uncertainty
schemes, edge DP) protects some things and not others, so the study compares them on each
privacy axis of :data:`AXES` in turn:

- ``reid``: node re-identification by the strongest attack (the privacy-score table's ``reid``,
  the largest rate of the attacks that re-identify nodes; the row's ``reid_attack`` names
  it). A release without node identity
  (:attr:`Scheme.node_identity <graphveil.anonymize.registry.Scheme.node_identity>`: DP-dK,
  DGG) is not on this axis: no structural attack maps it whatever its noise, so its 0 would
  read as protection it does not owe to its noise;
- ``edge``: the measured edge-level loss (:func:`graphveil.attack.edge_recovery`), the larger
  of ``edge_loss`` (ln(TPR/FPR) of "the pair is published": an epsilon-edge-DP release that
  publishes each pair from its own bit, TmF or EdgeFlip, comes out at its epsilon) and
  ``edge_eps_lower`` (a 95% lower bound of the edge epsilon within one degree context, at most
  epsilon for an epsilon-edge-DP row): the stronger of the two measured tests, as ``reid`` is
  the strongest attack;
- ``epsilon``: the stated epsilon of the schemes that have one (grid parameter ``epsilon``);
  the uncertainty family has none, and is read on the measured axes.

On each axis, :func:`family_comparison` gives each family's lowest rel.err among its rows at or
below each level; :func:`family_markdown` writes it with, per family, the lowest value its rows
reach (what it protects, and below which it cannot). With the analyst statistics
(:attr:`graphveil.experiments.StudyConfig.analyst`), :func:`analyst_wins` counts which scheme
wins how many analyst queries at each level, as PGB's benchmark counts them per epsilon, and
:func:`kept_best` names the rows that keep the communities and the central nodes best.

Examples
--------
>>> [a.name for a in AXES]
['reid', 'edge', 'epsilon']
>>> axis("reid").value({"scheme": "dgg", "reid": 0.0}) is None  # no node identity
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from graphveil.anonymize import registry
from graphveil.anonymize._dp import EPSILON_GRID
from graphveil.experiments.config import STRONGEST
from graphveil.experiments.findings import Row, scheme_title, sig3
from graphveil.measure.errors import error_term
from graphveil.measure.utility import analyst_names, statistic

__all__ = [
    "AXES",
    "Axis",
    "NO_NODE_IDENTITY",
    "analyst_wins",
    "axis",
    "family_comparison",
    "family_markdown",
    "kept_best",
]

#: Why a release without node identity is not on the re-identification axis.
NO_NODE_IDENTITY = "no node identity: re-identification does not apply"

#: The strongest re-identification's score (``reid``) and the key naming its attack.
_REID = STRONGEST[0]


@dataclass(frozen=True)
class Axis:
    """One privacy axis of the family comparison: a number of every row, lower more private."""

    #: Its name (``reid``, ``edge``, ``epsilon``).
    name: str
    #: How study.md heads its section.
    title: str
    #: The row key it reads.
    column: str
    #: Its levels X: a row is at level X when its value is at most X.
    levels: tuple[float, ...]
    #: What it measures, one sentence of study.md.
    meaning: str
    #: ``why_not(row)``: why a row has no value on this axis (None: it has one, or none measured).
    why_not: Callable[[Row], str | None]
    #: ``detail(row)``: what a cell adds after the value (the attack that gave it, edge_loss).
    detail: Callable[[Row], str]
    #: Its name in the tables (default: :attr:`column`).
    header: str = ""
    #: ``read(row)``: the row's number on this axis when it is not ``row[column]``.
    read: Callable[[Row], Any] | None = None

    @property
    def label(self) -> str:
        """Its name in the tables."""
        return self.header or self.column

    def value(self, row: Row) -> float | None:
        """The row's value on this axis; None if it has none (:attr:`why_not`) or is undefined."""
        if self.why_not(row) is not None:
            return None
        value = row.get(self.column) if self.read is None else self.read(row)
        if value is None or math.isnan(float(value)):
            return None
        return float(value)


def _reid_why_not(row: Row) -> str | None:
    return None if registry.scheme(row["scheme"]).node_identity else NO_NODE_IDENTITY


def _reid_detail(row: Row) -> str:
    attack = row.get(_REID.source_key)
    return f" by {attack}" if attack else ""


def _epsilon_why_not(row: Row) -> str | None:
    if registry.scheme(row["scheme"]).grid_parameter == "epsilon":
        return None
    return "no stated epsilon: read on the measured axes"


#: The edge attack's measured losses: the pooled ln(TPR/FPR) and the in-context lower bound.
_EDGE_LOSSES = ("edge_loss", "edge_eps_lower")


def _edge_loss(row: Row) -> float | None:
    """The larger of the measured edge losses (the stronger evidence of loss), None if neither."""
    values = [float(v) for c in _EDGE_LOSSES if (v := row.get(c)) is not None and v == v]
    return max(values) if values else None


def _edge_detail(row: Row) -> str:
    return "".join(f", {c} {sig3(row[c])}" for c in _EDGE_LOSSES if row.get(c) is not None)


#: The axes, in study.md's order.
AXES: tuple[Axis, ...] = (
    Axis(
        "reid",
        "At equal node re-identification (the strongest attack)",
        _REID.name,
        (0.05, 0.1, 0.25, 0.5),
        f"{_REID.name}: {_REID.meaning}, the share of G0's core (degree >= 5, largest component)",
        _reid_why_not,
        _reid_detail,
    ),
    Axis(
        "edge",
        "At equal measured edge-level loss",
        "edge_loss",
        (*EPSILON_GRID, 15.0),
        "edge loss: the larger of the edge attack's two measured losses (the stronger evidence), "
        "edge_loss, the ln(TPR/FPR) of 'the pair is published' over all pairs (TmF and EdgeFlip "
        "come out at their epsilon; pooled over the pairs, it also counts what the degrees say "
        "of a pair, so a generator of noisy-degree graphs, DP-dK or DGG, shows more than its "
        "epsilon), and edge_eps_lower, a 95% lower bound of the edge epsilon within one degree "
        "context (at most epsilon for an epsilon-edge-DP row; -inf when no context has the "
        "counts)",
        lambda row: None,
        _edge_detail,
        header="edge loss",
        read=_edge_loss,
    ),
    Axis(
        "epsilon",
        "At equal stated epsilon",
        "value",
        EPSILON_GRID,
        "epsilon: the edge-DP guarantee a scheme states (its grid value)",
        _epsilon_why_not,
        lambda row: "",
        header="epsilon",
    ),
)


def axis(name: str) -> Axis:
    """The axis called ``name``; ValueError naming them otherwise."""
    for a in AXES:
        if a.name == name:
            return a
    raise ValueError(f"no axis {name!r}: one of {', '.join(a.name for a in AXES)}")


def _at(rows: Sequence[Row], ax: Axis, level: float, family: str | None = None) -> list[Row]:
    """The rows (of ``family``) at or below ``level`` on ``ax``, with a rel.err."""
    members = set(registry.names(family=family)) if family else None
    out = []
    for r in rows:
        value = ax.value(r)
        if value is None or value > level or r.get("rel_err") is None:
            continue
        if members is None or r["scheme"] in members:
            out.append(r)
    return out


def family_comparison(rows: Sequence[Row], ax: Axis | str = "reid") -> list[dict[str, Any]]:
    """Each family's best utility at each level of one axis: graphveil's own check.

    For every level X of the axis and every family of the registry, the row of lowest rel.err
    among the family's rows whose value on the axis is at most X; the family of the lower
    rel.err gives the better utility at that level (``better`` is None when a family has no
    such row, or on a tie).

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "label": "n_p/m=0.19", "rel_err": 0.02, "reid": 0.43},
    ...     {"scheme": "tmf", "label": "epsilon=10", "rel_err": 0.05, "reid": 0.54},
    ...     {"scheme": "tmf", "label": "epsilon=1", "rel_err": 0.37, "reid": 0.0},
    ...     {"scheme": "dgg", "label": "epsilon=5", "rel_err": 0.13, "reid": 0.0},
    ... ]
    >>> [(c["level"], c["better"]) for c in family_comparison(rows)]
    [(0.05, None), (0.1, None), (0.25, None), (0.5, 'uncertainty')]
    >>> family_comparison(rows)[0]["best"]["dp"]["label"]  # not DGG: no node identity
    'epsilon=1'
    """
    ax = axis(ax) if isinstance(ax, str) else ax
    out = []
    for level in ax.levels:
        best: dict[str, Row | None] = {
            family: min(_at(rows, ax, level, family), key=lambda r: r["rel_err"], default=None)
            for family in registry.FAMILIES
        }
        found = {f: r for f, r in best.items() if r is not None}
        better = None
        if len(found) == len(registry.FAMILIES):
            errs = sorted((r["rel_err"], f) for f, r in found.items())
            better = errs[0][1] if errs[0][0] < errs[1][0] else None
        out.append({"level": level, "best": best, "better": better})
    return out


def _verdict(comparison: dict[str, Any]) -> str:
    """The last column: the better family, the only one that reaches the level, or a tie."""
    if comparison["better"] is not None:
        return str(comparison["better"])
    found = [f for f, row in comparison["best"].items() if row is not None]
    if len(found) == 1:
        return f"only {found[0]} rows reach it (of the schemes run)"
    return "tie" if found else "neither family reaches it"


def _name(row: Row) -> str:
    return f"{scheme_title(row['scheme'])} {row['label']}"


def _reach(rows: Sequence[Row], ax: Axis) -> list[str]:
    """Per family, what its rows reach on the axis (protect) and below which they cannot."""
    out = []
    levels = ax.levels
    for family in registry.FAMILIES:
        members = [r for r in rows if registry.scheme(r["scheme"]).family == family]
        valued = [r for r in members if ax.value(r) is not None]
        off = sorted({scheme_title(r["scheme"]) for r in members if ax.why_not(r) is not None})
        if not members:
            continue
        if not valued:
            reason = ax.why_not(members[0]) or "not measured"
            out.append(f"{family}: no row on this axis ({reason})")
            continue
        low = min(valued, key=lambda r: ax.value(r))  # type: ignore[arg-type, return-value]
        v = ax.value(low)
        assert v is not None
        below = [x for x in levels if x < v]
        text = f"{family}: down to {sig3(v)} ({_name(low)}{ax.detail(low)})"
        text += (
            f", so it cannot protect at the levels {', '.join(sig3(x) for x in below)}"
            if below
            else ", so it has rows at every level"
        )
        if off:
            text += f"; {', '.join(off)}: {ax.why_not(next(r for r in members if ax.why_not(r)))}"
        out.append(text)
    return out


def family_markdown(
    rows: Sequence[Row], graph: str, original: Row | None = None, analyst: bool = False
) -> list[str]:
    """The Markdown section *Uncertainty against edge DP*, one table per axis.

    Empty unless both families have rows. With ``analyst`` (and G0's row ``original``), each
    axis also gets the rows that keep the communities and the central nodes best
    (:func:`kept_best`) and the analyst win counts (:func:`analyst_wins`).
    """
    have = {registry.scheme(r["scheme"]).family for r in rows}
    if not set(registry.FAMILIES) <= have:
        return []
    lines = [
        "## Uncertainty against edge DP",
        "",
        (
            "graphveil's own check, not the paper's (graphveil.experiments.families). Each "
            f"privacy axis in turn: for each level X, the lowest rel.err of each family among its "
            f"rows at or below X on that axis; the lower one gives the better utility at that "
            f"level on {graph}. Under each table, what each family's rows reach on the axis (the "
            "levels it protects, and those it cannot)."
        ),
    ]
    for ax in AXES:
        lines += ["", f"### {ax.title}", "", f"{ax.meaning}.", ""]
        lines += [
            f"| {ax.label} <= | uncertainty schemes | edge-DP schemes | better utility |",
            "|---|---|---|---|",
        ]
        for c in family_comparison(rows, ax):
            cells = [_cell(c["best"][f], ax) for f in registry.FAMILIES]
            lines.append(f"| {sig3(c['level'])} | {' | '.join(cells)} | {_verdict(c)} |")
        lines += ["", *(f"- {s}" for s in _reach(rows, ax))]
        if analyst and original is not None:
            lines += ["", *_analyst_markdown(rows, original, ax)]
    return lines


def _cell(row: Row | None, ax: Axis) -> str:
    if row is None:
        return "none"
    value = ax.value(row)
    if value is None:
        return "none"
    shown = "" if ax.read is not None else f", {ax.label} {sig3(value)}"  # read: the detail says
    return f"{sig3(row['rel_err'])} ({_name(row)}{shown}{ax.detail(row)})"


# ------------------------------------------------------------------------ the analyst
def _terms(row: Row, original: Row, names: Sequence[str]) -> dict[str, float]:
    """The row's error term of each analyst statistic ``names`` (nan where undefined)."""
    return {
        n: error_term(n, float(row.get(n, math.nan)), float(original.get(n, math.nan)))
        for n in names
    }


def _mean(values: Sequence[float]) -> float:
    finite = [v for v in values if math.isfinite(v)]
    return math.fsum(finite) / len(finite) if finite else math.nan


#: What :func:`kept_best` judges: the analyst statistics scored by agreement with G0's
#: communities (NMI, ARI), and by overlap with G0's top nodes (eigenvector, PageRank).
KEPT = {"communities": "agreement", "central nodes": "overlap"}


def kept_best(rows: Sequence[Row], original: Row, ax: Axis, level: float) -> dict[str, Any]:
    """The rows at ``level`` on ``ax`` that keep the communities and the central nodes best.

    Communities: the mean error of the analyst statistics scored ``"agreement"`` (NMI and ARI
    of the Leiden communities with G0's); central nodes: of those scored ``"overlap"`` (G0's
    top-1% nodes by eigenvector centrality and PageRank kept), each
    :func:`~graphveil.measure.errors.error_term`. ``{what: (row, error) or None}``.
    """
    at = [r for r in rows if (v := ax.value(r)) is not None and v <= level]
    out: dict[str, Any] = {}
    for what, score in KEPT.items():
        names = [n for n in analyst_names() if statistic(n).score == score]
        scored = [(r, _mean(list(_terms(r, original, names).values()))) for r in at]
        scored = [(r, e) for r, e in scored if math.isfinite(e)]
        out[what] = min(scored, key=lambda s: s[1], default=None)
    return out


def analyst_wins(
    rows: Sequence[Row], original: Row, ax: Axis, level: float
) -> dict[str, tuple[int, Row]]:
    """Which scheme wins how many analyst queries at ``level`` on ``ax`` (PGB's count).

    Each scheme with rows at the level enters with its row of lowest ``analyst_err`` there;
    an analyst statistic is won by the schemes whose row has the lowest error term on it
    (every tied scheme wins it). ``{scheme: (wins, its row)}``, schemes in registry order.
    """
    entrants: dict[str, Row] = {}
    for r in rows:
        v = ax.value(r)
        err = r.get("analyst_err")
        if v is None or v > level or err is None or not math.isfinite(err):
            continue
        if r["scheme"] not in entrants or err < entrants[r["scheme"]]["analyst_err"]:
            entrants[r["scheme"]] = r
    wins = dict.fromkeys(entrants, 0)
    for name in analyst_names():
        terms = {s: _terms(r, original, [name])[name] for s, r in entrants.items()}
        finite = {s: t for s, t in terms.items() if math.isfinite(t)}
        if finite:
            low = min(finite.values())
            for s, t in finite.items():
                wins[s] += t == low
    order = [s for s in registry.names() if s in entrants]
    return {s: (wins[s], entrants[s]) for s in order}


def _analyst_markdown(rows: Sequence[Row], original: Row, ax: Axis) -> list[str]:
    schemes = [s for s in registry.names() if any(r["scheme"] == s for r in rows)]
    head = f"| {ax.label} <= | communities kept best | central nodes kept best | " + " | ".join(
        scheme_title(s) for s in schemes
    )
    lines = [
        f"Analyst queries on this axis: the rows keeping G0's communities (mean |1 - NMI|, "
        f"|1 - ARI|) and central nodes (mean share of G0's top-1% lost) best, then how many of "
        f"the {len(analyst_names())} analyst statistics each scheme wins (PGB's count; each "
        "scheme by its row of lowest analyst_err at the level, ties won by each).",
        "",
        head + " |",
        "|" + "---|" * (3 + len(schemes)),
    ]
    for level in ax.levels:
        best = kept_best(rows, original, ax, level)
        wins = analyst_wins(rows, original, ax, level)
        kept = [
            "none" if best[w] is None else f"{_name(best[w][0])} ({sig3(best[w][1])})" for w in KEPT
        ]
        counts = [str(wins[s][0]) if s in wins else "" for s in schemes]
        lines.append(f"| {sig3(level)} | {' | '.join(kept)} | {' | '.join(counts)} |")
    return lines
