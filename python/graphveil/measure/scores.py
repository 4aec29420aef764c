"""The privacy scores: one record each, :class:`PrivacyScore`, shaped like the statistics' rows.

A privacy score is a number that says how much of G0 a release gives away. The model's own are
here: H1 and H2_open (Section VI-A of the paper, on every sampled world) and eps of
(k, eps)-obfuscation (on the release itself, one column per k), :data:`MODEL_SCORES`. Every
attack's numbers are scores too; their records are built from the attack registry's columns
one floor up (:data:`graphveil.scores.PRIVACY_SCORE_TABLE`, the one table of every score), since
``measure`` does not import ``attack``. :class:`~graphveil.measure.Report` reads the records
here (its columns, headers and formats); the study, the CLI and targets read the whole table.

Examples
--------
>>> H2_OPEN.name, H2_OPEN.more_private, H2_OPEN.target
('H2_open', 'lower', 'h2_open')
>>> EPS.key(50), EPS.column(50), EPS.target_name(50)
('eps_k50', 'eps(k=50)', 'eps_k50')
>>> H1.bounds(n=4039)
(0.0, 4039.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphveil.measure.scoring import SCORINGS
from graphveil.measure.scoring import scoring as scoring_named

__all__ = [
    "EPS",
    "H1",
    "H2_OPEN",
    "MODEL_SCORES",
    "ON",
    "PrivacyScore",
    "sample_score_names",
]

#: What a score is computed on: each sampled world (the mean over the samples is reported), the
#: release itself, or an attack's run on the release (``attack``).
ON = ("sample", "release", "attack")


@dataclass(frozen=True)
class PrivacyScore:
    """One privacy score: a row of :data:`graphveil.scores.PRIVACY_SCORE_TABLE`.

    Attributes
    ----------
    name : str
        The key in study rows, reports and their CSV and JSON (``"H1"``, ``"reid_rate"``); a
        score with a ``parameter`` is keyed :meth:`key` (``eps_k50``).
    title : str
        Short title (axis labels, listings).
    meaning : str
        What it measures, one sentence.
    header : str
        Column header of :meth:`Report.table <graphveil.measure.Report.table>` (default:
        name); ``{k}`` in it is the parameter's value.
    formats : (str, str)
        Display formats of the true graph's row and of the mean row.
    low, high : float
        Its range: every value is in ``[low, high]`` (times ``n``, G0's nodes, when
        ``per_node``); None and NaN stand for undefined.
    per_node : bool
        The range scales with G0's nodes: H1 and H2_open are sums over the nodes.
    more_private : {"lower", "higher", ""}
        Which way is more private; ``""`` for a number that is no level of privacy (a spread,
        a property of G0 alone), which a target cannot bound.
    on : {"sample", "release", "attack"}
        Computed on each sampled world (reported as the mean over the samples), on the release
        itself, or by an attack (:data:`ON`).
    attack : str
        The attack (its registry name) whose column it is; for a score over several attacks,
        ``""`` and ``strongest`` names their columns.
    deterministic : bool
        Defined on a deterministic release (a Graph, or every p in {0, 1}); None there when
        False (link inference's AUC needs a ranking).
    directed : bool
        Defined on a directed release of a directed G0 (None there when False).
    scoring : str
        The attribute of :class:`~graphveil.measure.scoring.Scoring` that decides how it is
        computed (``"authors_lists"``: H2_open on sets or on the authors' lists;
        ``"authors_eps"``: eps's rule), ``""`` when every scoring computes it alike.
    target : str
        Its short name in a privacy target (``h2_open<=50``, ``reid<=0.05``); with a
        parameter, the prefix of :meth:`target_name` (``eps_k50``). ``""``: not a target.
    parameter : str
        ``"k"`` for a score with one column per value (eps), ``""`` otherwise.
    table : bool
        Shown in the study's comparison table (the study's attack columns are those of
        :func:`graphveil.attack.registry.table_columns`).
    strongest : tuple of str
        For a score over several columns: the columns it is the largest of (the strongest
        attack's for ``reid``; ``edge_loss`` and ``edge_eps_lower`` for ``edge_eps``), read by
        :meth:`value`.
    """

    name: str
    title: str
    meaning: str
    header: str = ""
    formats: tuple[str, str] = ("{:.4f}", "{:.4f}")
    low: float = 0.0
    high: float = 1.0
    per_node: bool = False
    more_private: str = "lower"
    on: str = "sample"
    attack: str = ""
    deterministic: bool = True
    directed: bool = True
    scoring: str = ""
    target: str = ""
    parameter: str = ""
    table: bool = True
    strongest: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        problems = []
        if not (self.name.isidentifier() and self.title and self.meaning):
            problems.append("it needs a name (an identifier: a row's key), a title and a meaning")
        try:
            [f.format(1.5) for f in self.formats]
            self.column(1)
        except (IndexError, KeyError, ValueError, AttributeError):
            problems.append(f"formats {self.formats!r} or header {self.header!r} do not format")
        if len(self.formats) != 2:
            problems.append("formats are two: the true graph's row and the mean row")
        if self.target != self.target.lower():
            problems.append(f"target {self.target!r} is not lower case (targets are read so)")
        if self.on == "attack" and not (self.attack or self.strongest):
            problems.append("a score computed by an attack names it (attack or strongest)")
        if self.more_private not in ("lower", "higher", ""):
            problems.append(f"more_private {self.more_private!r} is not 'lower', 'higher' or ''")
        if self.on not in ON:
            problems.append(f"on {self.on!r} is not one of {ON}")
        if self.scoring and not all(hasattr(s, self.scoring) for s in SCORINGS.values()):
            problems.append(f"scoring {self.scoring!r} is no attribute of Scoring")
        if self.target and not self.more_private:
            problems.append("a target needs a direction (more_private)")
        if not self.low <= self.high:
            problems.append(f"its range [{self.low}, {self.high}] is empty")
        if problems:
            raise ValueError(f"privacy score {self.name!r}: {'; '.join(problems)}")

    def key(self, k: int | None = None) -> str:
        """Its key in a row or report: the name, or ``<name>_k<k>`` for a parametrised score."""
        if not self.parameter:
            return self.name
        if k is None:
            raise ValueError(f"{self.name} has one column per {self.parameter}: give its value")
        return f"{self.name}_{self.parameter}{int(k)}"

    def column(self, k: int | None = None) -> str:
        """Its column header in a report table (``{k}`` of ``header`` filled)."""
        return (self.header or self.name).format(k=k)

    def target_name(self, k: int | None = None) -> str:
        """Its name in a privacy target (``h2_open``, ``eps_k50``); ``""`` if none."""
        if not self.target:
            return ""
        return f"{self.target}_{self.parameter}{int(k)}" if self.parameter and k else self.target

    def bounds(self, n: int | None = None) -> tuple[float, float]:
        """Its range ``(low, high)``; a per-node range needs ``n`` (else ``high`` is inf)."""
        if not self.per_node:
            return self.low, self.high
        if n is None:
            return self.low, math.inf
        return self.low * n, self.high * n

    def in_range(self, value: Any, n: int | None = None) -> bool:
        """``value`` is None or NaN (undefined), or within :meth:`bounds`."""
        if value is None:
            return True
        value = float(value)
        low, high = self.bounds(n)
        return math.isnan(value) or low <= value <= high

    def meets(self, value: float, bound: float) -> bool:
        """Whether ``value`` is at least as private as ``bound`` (``<=`` for a lower-is-private)."""
        if not self.more_private:
            raise ValueError(f"{self.name} is no level of privacy: it cannot be bounded")
        return value <= bound if self.more_private == "lower" else value >= bound

    def value(self, row: Mapping[str, Any], k: int | None = None) -> Any:
        """Its value in a row (a study row, ``attack_scores``); None where undefined.

        A score over several attacks is the largest defined value of its ``strongest``
        columns (None when none is defined).
        """
        if self.strongest:
            values = [row.get(c) for c in self.strongest]
            defined = [float(v) for v in values if v is not None and not math.isnan(float(v))]
            return max(defined) if defined else None
        return row.get(self.key(k))

    @property
    def source_key(self) -> str:
        """The row key naming the attack that gave a score over several (``reid_attack``)."""
        return f"{self.name}_attack" if self.strongest else ""

    def source(self, row: Mapping[str, Any]) -> str | None:
        """The column of ``strongest`` that gives :meth:`value` (the first on a tie), else None.

        None also for a score over no columns, or when none of them is defined in ``row``.
        """
        best = self.value(row) if self.strongest else None
        if best is None:
            return None
        for name in self.strongest:
            v = row.get(name)
            if v is not None and float(v) == best:
                return name
        return None  # pragma: no cover

    def by_authors(self, scoring: str) -> bool:
        """Whether scoring ``scoring`` computes it the authors' way (``scoring``)."""
        return bool(self.scoring) and bool(getattr(scoring_named(scoring), self.scoring))

    def applies(self, *, deterministic: bool = False, directed: bool = False) -> bool:
        """Whether it is defined on a release of this kind."""
        return (self.deterministic or not deterministic) and (self.directed or not directed)


_COUNTS = ("{:.0f}", "{:.1f}")

#: H1 (Section VI-A): the degree as the attacker's query.
H1 = PrivacyScore(
    "H1",
    "H1 score (nodes re-identified by degree)",
    "expected number of nodes re-identified by their degree: the sum over G0's nodes of "
    "1 / |C|, C the nodes of the world with the node's degree in G0 (0 if the node is not "
    "among them); G0's own is its number of distinct degrees",
    formats=_COUNTS,
    high=1.0,
    per_node=True,
    target="h1",
)

#: H2_open (Section VI-A): the set of the neighbours' degrees as the attacker's query.
H2_OPEN = PrivacyScore(
    "H2_open",
    "H2_open score",
    "expected number of nodes re-identified by the set of their neighbours' degrees "
    "(the authors' lists under scoring 'authors'), summed as H1",
    formats=_COUNTS,
    high=1.0,
    per_node=True,
    scoring="authors_lists",
    target="h2_open",
)

#: eps of (k, eps)-obfuscation (Section III-B), one column per k.
EPS = PrivacyScore(
    "eps",
    "eps of (k, eps)-obfuscation",
    "share of G0's nodes not k-obfuscated: the entropy of the release's degree law at their "
    "degree in G0 is below log2 k (the joint (in, out) degree if directed)",
    header="eps(k={k})",
    formats=("{:.5f}", "{:.5f}"),
    on="release",
    scoring="authors_eps",
    target="eps",
    parameter="k",
)

#: The model's own privacy scores, in the order of reports and the study's tables.
MODEL_SCORES: tuple[PrivacyScore, ...] = (H1, H2_OPEN, EPS)


def sample_score_names() -> tuple[str, ...]:
    """The model scores measured on every sampled world, in order: ``('H1', 'H2_open')``."""
    return tuple(s.name for s in MODEL_SCORES if s.on == "sample")
