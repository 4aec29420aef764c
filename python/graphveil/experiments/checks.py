"""graphveil's own checks of a study's rows, not the paper's: the attacks against the scores.

:func:`attack_disagreements` says per scheme where the propagation attack and the H1 / H2_open
scores order the grid points differently; :func:`family_comparison` compares the families of
the registry (the uncertainty schemes, edge DP) at equal attack success. Both read plain rows
(the dicts of :attr:`graphveil.experiments.Study.rows`), like the paper's claims
(:mod:`graphveil.experiments.findings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from graphveil.anonymize import registry
from graphveil.attack.registry import reidentification_column
from graphveil.experiments.findings import Row, _g, _rows, _title
from graphveil.measure.report import relative_error
from graphveil.measure.utility import POWERLAW_DEGREES, RIVAL_KS_MARGIN, statistic_names

__all__ = [
    "ATTACK_LEVELS",
    "REID",
    "REID_TIE",
    "attack_disagreements",
    "family_comparison",
    "family_markdown",
    "fit_warnings",
]

#: Re-identification rates closer than this (a fraction of the core) count as a tie when the
#: attack's order is compared with the scores': a few nodes either way is sampling noise.
REID_TIE = 0.01

#: The re-identification rate's column in a row (the attack registry's).
REID = reidentification_column().name


def attack_disagreements(rows: Sequence[Row], title: Callable[[str], str] = str) -> list[str]:
    """One sentence per attacked scheme: where the attack and the H1 / H2_open scores disagree.

    Two rows are *discordant* when H1 or H2_open orders them one way and the propagation
    re-identification rate (``reid_rate``, rates within :data:`REID_TIE` tie) the other way: the
    score calls one row more private while the attack recovers more of it. Each sentence covers
    the scheme's own grid points, then its rows against every other scheme's.

    Parameters
    ----------
    rows : sequence of dict
        Study rows with ``scheme``, ``label``, ``H1``, ``H2_open`` and ``reid_rate``.
    title : callable
        The printed name of a scheme.

    Returns
    -------
    list of str

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "label": "a", "H1": 9.0, "H2_open": 90.0, "reid_rate": 0.5},
    ...     {"scheme": "maxvar", "label": "b", "H1": 5.0, "H2_open": 40.0, "reid_rate": 0.6},
    ... ]
    >>> attack_disagreements(rows)[0]
    'maxvar: the attack and the scores disagree on 1 of its one pair of grid points, e.g. a → b: H1 9 → 5 and H2_open 90 → 40, but re-identified 0.5 → 0.6.'
    """
    attacked = [r for r in rows if r.get(REID) is not None]
    out = []
    for scheme in dict.fromkeys(r["scheme"] for r in attacked):
        own = _rows(attacked, scheme)
        name = title(scheme)
        if len(own) == 1:
            r = own[0]
            inside = (
                f"{name}: one grid point ({r['label']}: H1 {_g(r['H1'])}, H2_open "
                f"{_g(r['H2_open'])}, re-identified {_g(r[REID])})"
            )
        else:
            pairs = list(combinations(own, 2))
            bad = [(a, b) for a, b in pairs if _discordant(a, b)]
            if not bad:
                lo = min(own, key=lambda r: r["H2_open"])
                hi = max(own, key=lambda r: r["H2_open"])
                inside = (
                    f"{name}: the attack agrees with H1 and H2_open on the order of its "
                    f"{_pairs(len(pairs))} (H2_open {_g(hi['H2_open'])} → {_g(lo['H2_open'])}, "
                    f"re-identified {_g(hi[REID])} → {_g(lo[REID])})"
                )
            else:
                inside = f"{name}: the attack and the scores disagree on {len(bad)} of its " + (
                    f"{_pairs(len(pairs))}, e.g. {_example(bad)}"
                )
        cross = [(a, b) for a in own for b in attacked if b["scheme"] != scheme]
        bad = [(a, b) for a, b in cross if _discordant(a, b)]
        if not cross:
            tail = ""
        elif not bad:
            tail = f"; against the other schemes' rows they agree on all {len(cross)} pairs"
        else:
            tail = (
                f"; against the other schemes they disagree on {len(bad)} of {len(cross)} pairs, "
                f"e.g. {_example(bad, title)}"
            )
        out.append(inside + tail + ".")
    return out


def _pairs(count: int) -> str:
    return "one pair of grid points" if count == 1 else f"{count} pairs of grid points"


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _discordant(a: Row, b: Row) -> bool:
    """H1 or H2_open orders a and b one way, the re-identification rate the other."""
    gap = b[REID] - a[REID]
    attack = 0 if abs(gap) < REID_TIE else _sign(gap)
    return any(_sign(b[s] - a[s]) * attack < 0 for s in ("H1", "H2_open"))


def _example(pairs: list[tuple[Row, Row]], title: Callable[[str], str] | None = None) -> str:
    """The discordant pair with the largest gap in re-identification, in words."""
    a, b = max(pairs, key=lambda pair: abs(pair[1][REID] - pair[0][REID]))

    def name(r: Row) -> str:
        return r["label"] if title is None else f"{title(r['scheme'])} {r['label']}"

    return (
        f"{name(a)} → {name(b)}: H1 {_g(a['H1'])} → {_g(b['H1'])} and H2_open "
        f"{_g(a['H2_open'])} → {_g(b['H2_open'])}, but re-identified {_g(a[REID])} → "
        f"{_g(b[REID])}"
    )


# ---------------------------------------------------------------------------- families
#: Attack levels X of :func:`family_comparison`: at most this share of G0's core re-identified.
ATTACK_LEVELS: tuple[float, ...] = (0.05, 0.1, 0.25, 0.5)


def family_comparison(
    rows: Sequence[Row], levels: Sequence[float] = ATTACK_LEVELS
) -> list[dict[str, Any]]:
    """Each family's best utility at equal attack success: graphveil's own check, not the paper's.

    The rule: for every level X and every family of the registry (``"uncertainty"``, ``"dp"``),
    the row of lowest rel.err among the family's rows whose propagation re-identification rate
    (``reid_rate``) is at most X; the family of the lower rel.err gives the better utility at
    that attack success (``better`` is None when a family has no such row, or on a tie). The
    re-identification rate is the attack defined for every release; link AUC is not defined on
    a published graph (every p = 1), so it does not enter the rule.

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "label": "n_p/m=0.19", "rel_err": 0.02, "reid_rate": 0.43},
    ...     {"scheme": "tmf", "label": "epsilon=10", "rel_err": 0.05, "reid_rate": 0.54},
    ...     {"scheme": "tmf", "label": "epsilon=1", "rel_err": 0.37, "reid_rate": 0.0},
    ... ]
    >>> [(c["level"], c["better"]) for c in family_comparison(rows, (0.1, 0.5, 0.6))]
    [(0.1, None), (0.5, 'uncertainty'), (0.6, 'uncertainty')]
    """
    out = []
    for level in levels:
        best: dict[str, Row | None] = {}
        for family in registry.FAMILIES:
            members = set(registry.names(family=family))
            candidates = [
                r
                for r in rows
                if r["scheme"] in members
                and r.get(REID) is not None
                and r[REID] <= level
                and r.get("rel_err") is not None
            ]
            best[family] = min(candidates, key=lambda r: r["rel_err"], default=None)
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


def family_markdown(rows: Sequence[Row], graph: str) -> list[str]:
    """The Markdown section of :func:`family_comparison`; empty unless both families have rows."""
    have = {registry.scheme(r["scheme"]).family for r in rows if r.get(REID) is not None}
    if not set(registry.FAMILIES) <= have:
        return []

    def cell(row: Row | None) -> str:
        if row is None:
            return "none"
        return (
            f"{_g(row['rel_err'])} ({_title(row['scheme'])} {row['label']}, reid {_g(row[REID])})"
        )

    lines = [
        "## Uncertainty against edge DP",
        "",
        (
            f"graphveil's own check, not the paper's. For each level X, the lowest rel.err of each "
            f"family among its rows whose propagation re-identification rate is at most X "
            f"(graphveil.experiments.checks.family_comparison); the lower one gives the better utility at "
            f"that attack success on {graph}."
        ),
        "",
        f"| {REID} <= | uncertainty schemes | edge-DP schemes | better utility |",
        "|---|---|---|---|",
    ]
    for c in family_comparison(rows):
        lines.append(
            f"| {_g(c['level'])} | {cell(c['best']['uncertainty'])} | {cell(c['best']['dp'])} "
            f"| {_verdict(c)} |"
        )
    return lines


def fit_warnings(
    rows: Sequence[Row],
    original: Row,
    directed: bool,
    title: Callable[[str], str] = str,
) -> list[str]:
    """A warning per power-law statistic whose fit on G0 is unstable, with what it does to rows.

    ``original["unstable_fits"]`` (the study's G0 row) names each statistic whose
    :func:`~graphveil.measure.powerlaw_fit` has a :func:`~graphveil.measure.powerlaw_rival`:
    its samples may fit either exponent, so its rel.err term partly says which fit they took.
    Each warning gives G0's two fits, the row whose samples spread most on it (their standard
    deviation) and the largest share of a row's rel.err its term makes.

    Examples
    --------
    >>> g0 = {"S_PL_out": 2.7, "unstable_fits": {"S_PL_out": {
    ...     "alpha": 2.7, "xmin": 55, "ks": 0.0517, "rival_alpha": 1.89, "rival_xmin": 2,
    ...     "rival_ks": 0.0521}}}
    >>> row = {"scheme": "maxvar", "label": "n_p/m=0.19", "S_PL_out": 2.2, "rel_err": 0.1,
    ...        "std": {"S_PL_out": 0.4}}
    >>> print(fit_warnings([row], g0, directed=True)[0])  # doctest: +ELLIPSIS
    **S_PL_out is unstable.** G0 fits alpha 2.7 at x_min 55 (KS 0.0517) and, within 2% of ... term is up to 100% of a row's rel.err (maxvar n_p/m=0.19).
    """
    names = statistic_names(directed)
    out = []
    for name, fit in (original.get("unstable_fits") or {}).items():
        spread = max(rows, key=lambda r: r.get("std", {}).get(name, 0.0), default=None)
        shares = [(_share(r, original, names, name, directed), r) for r in rows]
        share, worst = max(shares, key=lambda s: s[0], default=(0.0, None))
        text = (
            f"**{name} is unstable.** G0 fits alpha {_g(fit['alpha'])} at x_min "
            f"{_g(fit['xmin'])} (KS {_g(fit['ks'])}) and, within {RIVAL_KS_MARGIN:.0%} of that, "
            f"alpha {_g(fit['rival_alpha'])} at x_min {_g(fit['rival_xmin'])} (KS "
            f"{_g(fit['rival_ks'])}) to its {POWERLAW_DEGREES[name].replace('_', '-')}: a "
            f"sample's fit may take either, so {name}'s rel.err term partly says which fit the "
            "samples took, not what the release changed."
        )
        if spread is not None and worst is not None:
            text += (
                f" Its samples spread most in {title(spread['scheme'])} {spread['label']} "
                f"(standard deviation {_g(spread['std'][name])}); its term is up to "
                f"{share:.0%} of a row's rel.err ({title(worst['scheme'])} {worst['label']})."
            )
        out.append(text)
    return out


def _share(row: Row, original: Row, names: Sequence[str], name: str, directed: bool) -> float:
    """The share of ``row``'s rel.err that statistic ``name``'s term makes (0 if undefined)."""
    mean = {key: row.get(key, float("nan")) for key in names}
    g0 = {key: original.get(key, float("nan")) for key in names}
    _, terms = relative_error(mean, g0, directed=directed)
    finite = [t for t in terms.values() if t == t]  # not nan
    total = sum(finite)
    term = terms.get(name, float("nan"))
    return term / total if total > 0 and term == term else 0.0
