"""The privacy-score table: every privacy score graphveil measures, one record each.

:data:`PRIVACY_SCORE_TABLE` is the only list of privacy scores, as
:data:`~graphveil.measure.utility.STATISTIC_TABLE` is of the utility statistics. It holds:

- the model's own scores, :data:`graphveil.measure.scores.MODEL_SCORES`: H1 and H2_open (on every
  sampled world) and eps (on the release, one column per k);
- every column of every attack of :data:`graphveil.attack.registry.REGISTRY`, made a
  :class:`~graphveil.measure.scores.PrivacyScore` by :func:`attack_score` (the column's title,
  meaning, range, direction and where it is defined are the registry's: an attack added there
  is in the table without an edit here);
- ``reid``, the re-identification of the strongest attack: the largest headline of the attacks
  that re-identify nodes
  (:attr:`Attack.reidentifies <graphveil.attack.registry.Attack.reidentifies>`);
- ``edge_eps``, the measured edge-level loss read from above: the larger of ``edge_loss`` and
  ``edge_eps_lower`` (:func:`edge_epsilon`).

Reports (:class:`~graphveil.measure.Report`, through the model scores), the study's rows,
tables, figures, checks and claims, ``graphveil evaluate`` and ``graphveil scores`` read it, and
a privacy target (``h2_open<=50``, ``eps_k50<=0.01``, ``reid<=0.05``) names its scores by
``target`` (:func:`target_score`).

Examples
--------
>>> from graphveil.scores import privacy_score, target_score
>>> privacy_score("reid_rate").attack, privacy_score("reid_rate").more_private
('propagation', 'lower')
>>> score, k = target_score("eps_k50")
>>> score.name, k, score.key(k)
('eps', 50, 'eps_k50')
"""

from __future__ import annotations

import math
import re
from typing import Any

from graphveil.attack.registry import REGISTRY, Attack, Column
from graphveil.measure.scores import MODEL_SCORES, PrivacyScore

__all__ = [
    "PRIVACY_SCORE_TABLE",
    "attack_score",
    "attack_rows",
    "edge_epsilon",
    "privacy_score",
    "score_names",
    "strongest_reidentification",
    "target_score",
    "targets",
]

#: The display formats of an attack's column: its numbers are rates, AUCs and shares.
ATTACK_FORMATS = ("{:.4f}", "{:.4f}")


def attack_score(attack: Attack, column: Column) -> PrivacyScore:
    """The privacy score of one column of a registered attack (its facts are the registry's).

    Its target name is the column's name, when the column is a level of privacy
    (:attr:`Column.more_private <graphveil.attack.registry.Column.more_private>`).
    """
    return PrivacyScore(
        name=column.name,
        title=column.title,
        meaning=column.meaning,
        formats=ATTACK_FORMATS,
        low=column.low,
        high=column.high,
        more_private=column.more_private,
        on="attack",
        attack=attack.name,
        deterministic=attack.deterministic and column.deterministic,
        directed=attack.directed is not None,
        target=column.name if column.more_private else "",
        table=column.table,
    )


def strongest_reidentification() -> PrivacyScore:
    """``reid``: the largest re-identification rate of the attacks that re-identify nodes."""
    heads = [(a, a.column(a.headline)) for a in REGISTRY.values() if a.reidentifies]
    names = tuple(c.name for _, c in heads)
    return PrivacyScore(
        name="reid",
        title="nodes re-identified by the strongest attack (fraction of the core)",
        meaning=(
            "the largest re-identification rate of the attacks that re-identify nodes "
            f"({', '.join(names)}): what the strongest of them recovers"
        ),
        formats=ATTACK_FORMATS,
        low=min(c.low for _, c in heads),
        high=max(c.high for _, c in heads),
        on="attack",
        deterministic=any(a.deterministic and c.deterministic for a, c in heads),
        directed=any(a.directed is not None for a, _ in heads),
        target="reid",
        table=True,
        strongest=names,
    )


#: The columns of the measured edge-level loss that ``edge_eps`` is the larger of.
EDGE_EPS_COLUMNS = ("edge_loss", "edge_eps_lower")


def edge_epsilon() -> PrivacyScore:
    """``edge_eps``: the measured edge-level loss read conservatively, for a target to bound.

    The larger of the pooled loss ``edge_loss`` (ln TPR/FPR of "the pair is published") and
    ``edge_eps_lower`` (the lower confidence bound of the best test within one degree context):
    a release whose best test already exhibits more than the bound fails it even when the pooled
    loss is below.
    """
    return PrivacyScore(
        name="edge_eps",
        title="measured edge-level epsilon (the larger of edge_loss and edge_eps_lower)",
        meaning=(
            "the larger of the pooled edge loss ln(TPR/FPR) and the 95% lower bound of the best "
            "degree-context test's: an upper reading of the edge-level epsilon a release exhibits"
        ),
        low=-math.inf,
        high=math.inf,
        on="attack",
        target="edge_eps",
        table=False,
        strongest=EDGE_EPS_COLUMNS,
    )


def _table() -> tuple[PrivacyScore, ...]:
    attacks = tuple(attack_score(a, c) for a in REGISTRY.values() for c in a.columns)
    strongest = (
        (strongest_reidentification(),) if any(a.reidentifies for a in REGISTRY.values()) else ()
    )
    columns = {c.name for a in REGISTRY.values() for c in a.columns}
    edge = (edge_epsilon(),) if set(EDGE_EPS_COLUMNS) <= columns else ()
    table = (*MODEL_SCORES, *attacks, *strongest, *edge)
    for field in ("name", "target"):
        seen = [getattr(s, field) for s in table if getattr(s, field)]
        twice = sorted({x for x in seen if seen.count(x) > 1})
        if twice:
            raise ValueError(f"privacy scores share a {field}: {', '.join(twice)}")
    return table


#: Every privacy score: the model's, every attack column of the registry, the strongest attack's.
PRIVACY_SCORE_TABLE: tuple[PrivacyScore, ...] = _table()


def privacy_score(name: str) -> PrivacyScore:
    """The row of :data:`PRIVACY_SCORE_TABLE` called ``name``; ValueError naming them otherwise."""
    for score in PRIVACY_SCORE_TABLE:
        if score.name == name:
            return score
    raise ValueError(f"no privacy score {name!r}; the scores are {', '.join(score_names())}")


def score_names(*, on: str | None = None, table: bool | None = None) -> tuple[str, ...]:
    """The names of the table's scores, in order (only those computed ``on``, or in ``table``)."""
    return tuple(
        s.name
        for s in PRIVACY_SCORE_TABLE
        if (on is None or s.on == on) and (table is None or s.table == table)
    )


def attack_rows(*, table: bool | None = None) -> tuple[PrivacyScore, ...]:
    """The scores of the attacks' columns (only those of the comparison table with ``table``)."""
    return tuple(s for s in PRIVACY_SCORE_TABLE if s.attack and (table is None or s.table == table))


def targets() -> tuple[str, ...]:
    """The target names, a parametrised score's as ``<target>_k<k>`` (``eps_k<k>``)."""
    return tuple(
        f"{s.target}_{s.parameter}<{s.parameter}>" if s.parameter else s.target
        for s in PRIVACY_SCORE_TABLE
        if s.target
    )


def target_score(name: Any) -> tuple[PrivacyScore, int | None]:
    """The score a target names and its parameter: ``"eps_k50"`` -> ``(EPS, 50)``.

    Raises
    ------
    ValueError
        If no score has that target name (the message lists them), or a parametrised score
        is named without its value.
    """
    text = str(name).strip().lower()
    for score in PRIVACY_SCORE_TABLE:
        if not score.target:
            continue
        if score.parameter:
            found = re.fullmatch(rf"{re.escape(score.target)}_{score.parameter}([1-9][0-9]*)", text)
            if found:
                return score, int(found.group(1))
        elif text == score.target:
            return score, None
    raise ValueError(f"no privacy score is targeted as {name!r}; one of {', '.join(targets())}")
