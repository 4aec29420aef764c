"""graphveil's own checks of a study's rows, not the paper's: the attacks against the scores.

:func:`attack_disagreements` says per scheme where the strongest re-identification (``reid``)
and the H1 / H2_open scores order the grid points differently; :func:`fit_warnings` warns of an
unstable power-law fit. The families on every privacy axis are
:mod:`graphveil.experiments.families`. Both read plain rows (the dicts of
:attr:`graphveil.experiments.Study.rows`), like the paper's claims
(:mod:`graphveil.experiments.findings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from graphveil.experiments.config import STRONGEST
from graphveil.experiments.findings import Row, rows_of, sig3
from graphveil.measure.report import relative_error
from graphveil.measure.scores import H1, H2_OPEN
from graphveil.measure.utility import POWERLAW_DEGREES, RIVAL_KS_MARGIN, statistic_names

#: The keys of the model's privacy scores in a row (:mod:`graphveil.measure.scores`).
_H1, _H2 = H1.name, H2_OPEN.name

__all__ = [
    "REID",
    "REID_TIE",
    "attack_disagreements",
    "fit_warnings",
]

#: Re-identification rates closer than this (a fraction of the core) count as a tie when the
#: attack's order is compared with the scores': a few nodes either way is sampling noise.
REID_TIE = 0.01

#: The re-identification column of a row: the strongest attack's (``reid``, the privacy-score
#: table's; None on a release without node identity, which is then left out).
REID = STRONGEST[0].name


def attack_disagreements(rows: Sequence[Row], title: Callable[[str], str] = str) -> list[str]:
    """One sentence per attacked scheme: where the attack and the H1 / H2_open scores disagree.

    Two rows are *discordant* when H1 or H2_open orders them one way and the strongest
    re-identification (``reid``, rates within :data:`REID_TIE` tie) the other way: the
    score calls one row more private while the attack recovers more of it. Each sentence covers
    the scheme's own grid points, then its rows against every other scheme's.

    Parameters
    ----------
    rows : sequence of dict
        Study rows with ``scheme``, ``label``, ``H1``, ``H2_open`` and ``reid``.
    title : callable
        The printed name of a scheme.

    Returns
    -------
    list of str

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "label": "a", "H1": 9.0, "H2_open": 90.0, "reid": 0.5},
    ...     {"scheme": "maxvar", "label": "b", "H1": 5.0, "H2_open": 40.0, "reid": 0.6},
    ... ]
    >>> attack_disagreements(rows)[0]
    'maxvar: the attack and the scores disagree on 1 of its one pair of grid points, e.g. a → b: H1 9 → 5 and H2_open 90 → 40, but re-identified 0.5 → 0.6.'
    """
    attacked = [r for r in rows if r.get(REID) is not None]
    out = []
    for scheme in dict.fromkeys(r["scheme"] for r in attacked):
        own = rows_of(attacked, scheme)
        name = title(scheme)
        if len(own) == 1:
            r = own[0]
            inside = (
                f"{name}: one grid point ({r['label']}: H1 {sig3(r[_H1])}, H2_open "
                f"{sig3(r[_H2])}, re-identified {sig3(r[REID])})"
            )
        else:
            pairs = list(combinations(own, 2))
            bad = [(a, b) for a, b in pairs if _discordant(a, b)]
            if not bad:
                lo = min(own, key=lambda r: r[_H2])
                hi = max(own, key=lambda r: r[_H2])
                inside = (
                    f"{name}: the attack agrees with H1 and H2_open on the order of its "
                    f"{_pairs(len(pairs))} (H2_open {sig3(hi[_H2])} → {sig3(lo[_H2])}, "
                    f"re-identified {sig3(hi[REID])} → {sig3(lo[REID])})"
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
    return any(_sign(b[s] - a[s]) * attack < 0 for s in (_H1, _H2))


def _example(pairs: list[tuple[Row, Row]], title: Callable[[str], str] | None = None) -> str:
    """The discordant pair with the largest gap in re-identification, in words."""
    a, b = max(pairs, key=lambda pair: abs(pair[1][REID] - pair[0][REID]))

    def name(r: Row) -> str:
        return r["label"] if title is None else f"{title(r['scheme'])} {r['label']}"

    return (
        f"{name(a)} → {name(b)}: H1 {sig3(a[_H1])} → {sig3(b[_H1])} and H2_open "
        f"{sig3(a[_H2])} → {sig3(b[_H2])}, but re-identified {sig3(a[REID])} → "
        f"{sig3(b[REID])}"
    )


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
            f"**{name} is unstable.** G0 fits alpha {sig3(fit['alpha'])} at x_min "
            f"{sig3(fit['xmin'])} (KS {sig3(fit['ks'])}) and, within {RIVAL_KS_MARGIN:.0%} of that, "
            f"alpha {sig3(fit['rival_alpha'])} at x_min {sig3(fit['rival_xmin'])} (KS "
            f"{sig3(fit['rival_ks'])}) to its {POWERLAW_DEGREES[name].replace('_', '-')}: a "
            f"sample's fit may take either, so {name}'s rel.err term partly says which fit the "
            "samples took, not what the release changed."
        )
        if spread is not None and worst is not None:
            text += (
                f" Its samples spread most in {title(spread['scheme'])} {spread['label']} "
                f"(standard deviation {sig3(spread['std'][name])}); its term is up to "
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
