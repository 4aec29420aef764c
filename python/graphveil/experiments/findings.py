"""The paper's own claims, each quoted and checked on a study's rows.

:func:`paper_claims` takes each claim of the paper's evaluation (Section VII, numbered
as the shipped source numbers it: VII-A "(k,eps)-obf and RandWalk", VII-B "Effectiveness of
MaxVar", VII-C "Comparative Evaluation"), quoted from its text,
and marks it as holding, not holding, not applicable or not checked on one graph, with the
numbers; :func:`claims_markdown` writes them for ``study.md``. Tradeoffs are compared at matched
rel.err by :func:`compare_tradeoffs`, over each scheme's piecewise-linear rel.err -> tradeoff
curve (:func:`tradeoff_curve`, :func:`interpolate`). graphveil's own checks, not the paper's, are in
:mod:`graphveil.experiments.checks`. All read plain rows (the dicts of
:attr:`graphveil.experiments.Study.rows`), so they run on every study and on synthetic rows.

References
----------
Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
ASIACCS 2015, Section VII (Tables 3, 4, 6, 7 and Fig. 10).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from graphveil.anonymize import registry
from graphveil.measure.scores import EPS, H1, H2_OPEN

#: The keys of the model's privacy scores in a row (:mod:`graphveil.measure.scores`).
_H1, _H2 = H1.name, H2_OPEN.name

__all__ = [
    "EDGE_BALANCE",
    "HOLDS",
    "NOT_APPLICABLE",
    "NOT_CHECKED",
    "NOT_HOLDS",
    "PAPER_EXCEPTIONS",
    "RANDWALK_ALIKE",
    "RANDWALK_MIN_REL_ERR",
    "RANDWALK_T2_MISS",
    "Claim",
    "Matched",
    "claims_markdown",
    "compare_tradeoffs",
    "interpolate",
    "paper_claims",
    "tradeoff_curve",
]

Row = dict[str, Any]

#: The verdicts of a :class:`Claim`.
HOLDS, NOT_HOLDS, NOT_APPLICABLE, NOT_CHECKED = (
    "holds",
    "does not hold",
    "not applicable",
    "not checked",
)

# The schemes the paper's claims name, spelled as the registry spells them (a rename fails here).
OBF, RANDWALK, RANDWALK_MOD, MAXVAR, EDGE_SWITCH, MIXTURE = (
    registry.scheme(name).name
    for name in ("obfuscation", "randwalk", "randwalk_mod", "maxvar", "edge_switch", "mixture")
)
WALKS = (RANDWALK, RANDWALK_MOD)
#: The schemes of the paper's Table 7 besides MaxVar (its eps and tradeoff claims compare these).
TABLE7_RIVALS = (OBF, RANDWALK, RANDWALK_MOD)

#: RandWalk and RandWalk-mod "perform alike" at a walk length t when their rel.err differ by at
#: most this fraction of the larger. Read off the paper's Table 4: its alike cases (dblp, amazon
#: t >= 3) differ by at most 14%, its exceptions (amazon t = 2, youtube) by 21% to 39%.
RANDWALK_ALIKE = 0.20

#: The paper's exceptions to RandWalk and RandWalk-mod performing alike: graph -> the walk
#: lengths excepted (None: every t).
PAPER_EXCEPTIONS: Mapping[str, frozenset[int] | None] = {
    "com-youtube": None,
    "com-amazon": frozenset({2}),
}

#: RandWalk "misses a lot of edges" at t = 2 when its samples have at least this fraction of m
#: fewer edges than G0 (and fewer than at every other t). The paper's Table 4: 4.6% (dblp), 6.9%
#: (amazon), 11.8% (youtube) at t = 2, at most 0.25% at t >= 3.
RANDWALK_T2_MISS = 0.02

#: The random walks' rel.err is "lower-bounded around 8 to 10%": graphveil checks the lower end.
RANDWALK_MIN_REL_ERR = 0.08

#: ``|E0 \ E| ~ |E \ E0|`` when they differ by at most this fraction of the larger (the paper's
#: Table 7 rows differ by at most 0.2%, RandWalk at t = 2 apart).
EDGE_BALANCE = 0.05

# The description of the matched-rel.err comparison, in study.md and :func:`compare_tradeoffs`.
_MATCHED = (
    "Tradeoffs are compared at matched rel.err, not row by row: each scheme's rows, sorted by "
    "rel.err (rows of equal rel.err averaged), make a piecewise-linear curve rel.err -> "
    "tradeoff, and two schemes are compared at every breakpoint of either curve on the overlap "
    "of their rel.err ranges (between breakpoints the difference of two such curves is linear, "
    "so these points decide it). One scheme is better than the other when its tradeoff is lower "
    "at every such point; when the curves cross, neither is. When the two rel.err ranges do not "
    "overlap the study says so and compares the two rows that face each other across the gap "
    "(the highest rel.err of the lower scheme, the lowest of the other), as the paper's Table 7 "
    "compares rows of different rel.err."
)


@dataclass(frozen=True)
class Claim:
    """One claim of the paper, checked on one study's rows.

    ``verdict`` is one of :data:`HOLDS`, :data:`NOT_HOLDS`, :data:`NOT_APPLICABLE` (the paper
    itself excepts this graph; ``evidence`` says why) or :data:`NOT_CHECKED` (the rows it needs
    are missing; ``evidence`` starts with ``needs``).
    """

    #: A short name of the claim.
    name: str
    #: The paper's section, e.g. ``"VII-A ((k,eps)-obf and RandWalk)"``.
    section: str
    #: The paper's sentences, word for word (LaTeX as plain text).
    quote: str
    #: How graphveil reads the claim on a study's rows.
    reading: str
    #: :data:`HOLDS`, :data:`NOT_HOLDS`, :data:`NOT_APPLICABLE` or :data:`NOT_CHECKED`.
    verdict: str
    #: The numbers behind the verdict.
    evidence: str

    @property
    def holds(self) -> bool | None:
        """True or False when checked, None when not applicable or not checked."""
        return {HOLDS: True, NOT_HOLDS: False}.get(self.verdict)


@dataclass(frozen=True)
class ClaimText:
    """What a :class:`Claim` says before it is checked: its name, section, quote and reading.

    The claims of this module and :mod:`~graphveil.experiments.further_claims` are built from
    these with :func:`make_claim`.
    """

    name: str
    section: str
    quote: str
    reading: str


_OBF_T = registry.scheme(OBF).title
_S61 = "VII-A ((k,ε)-obf and RandWalk)"
_S62 = "VII-B (Effectiveness of MaxVar)"
_S63 = "VII-C (Comparative Evaluation)"
_TRADEOFF = "tradeoff at matched rel.err (see above)"

_OBF = ClaimText(
    f"{_OBF_T} has low rel.err only at small σ, while its privacy scores rise",
    _S61,
    "We find that the scheme achieves low relative errors only at small σ. However, privacy "
    "scores, especially H2_open, rise fast (up to 50% compared to the true graph).",
    f"over {_OBF_T}'s σ grid, rel.err rises with σ while H1 and H2_open fall (so they rise as σ "
    "shrinks); H2_open at the smallest σ is shown against G0's",
)
_ALIKE = ClaimText(
    "RandWalk and RandWalk-mod perform alike",
    _S61,
    "Table 4 shows the performance similarity between RandWalk and RandWalk-mod except the case "
    "of youtube and for t=2 in amazon.",
    f"at every t both ran, their rel.err differ by at most {RANDWALK_ALIKE:.0%} of the larger "
    "(the paper's alike cases differ by at most 14%, its exceptions by 21-39%; H2_open, a few "
    "units, differs by up to 32% in cases the paper calls alike); on youtube the claim is not "
    "applicable, on amazon t = 2 is left out",
)
_T2 = ClaimText(
    "RandWalk misses many edges at t = 2",
    _S61,
    "RandWalk misses a lot of edges at t=2 (see footnote [...]).",
    f"RandWalk's samples at t = 2 have at least {RANDWALK_T2_MISS:.0%} of m fewer edges than G0, "
    "and more missing than at any other t (missing: |E0 \\ E| - |E \\ E0|; m = S_NE + missing)",
)
_WALKS = ClaimText(
    "the random walks have very low privacy scores and rel.err bounded below",
    _S61,
    "The remarkable characteristics of random-walk schemes are the very low privacy scores and the "
    "high relative errors (lower-bounded around 8 to 10%).",
    f"every RandWalk and RandWalk-mod row has an H2_open below every {_OBF_T} and MaxVar row's, "
    f"and a rel.err of at least {RANDWALK_MIN_REL_ERR} (H1 shown, not judged: on the paper's "
    f"youtube a RandWalk-mod H1 of 26.9 is above {_OBF_T}'s 23.4)",
)
_MAXVAR = ClaimText(
    "MaxVar's privacy scores fall and its rel.err rises with n_p",
    _S62,
    "As for privacy scores, if we increase n_p, we gain better privacy as we allow more edge "
    "switches.",
    "over MaxVar's grid (ordered by the n_p / m found), H1 and H2_open fall and rel.err rises; "
    "the rising rel.err is the paper's Table 6 (its text says only that rel.err is near linear "
    "in the replaced edges)",
)
_TRADE = ClaimText(
    f"MaxVar's tradeoff is better than {_OBF_T}'s and worse than the random walks'",
    _S63,
    "Clearly, MaxVar gains better privacy-utility tradeoffs than (k,ε)-obf, but worse than "
    "RandWalk, RandWalk-mod.",
    f"MaxVar's {_TRADEOFF} is better than {_OBF_T}'s and worse than RandWalk's and RandWalk-mod's",
)
_MIX = ClaimText(
    f"Mixture fills the gap between {_OBF_T} and the random walks",
    _S63 + " and VII-A",
    "The simple solution Mixture also fills the gap. [VII-A:] Clearly, there is a gap between high "
    "tradeoffs in (k,ε)-obf and high relative errors in RandWalk where MaxVar and Mixture may "
    "play their roles.",
    "the gap is rel.err below the random walks' lowest (the 'high relative errors in RandWalk') "
    f"with a {_TRADEOFF} better than {_OBF_T}'s: some Mixture rows lie below that rel.err and "
    f"there Mixture's tradeoff is better than {_OBF_T}'s",
)
_SWITCH = ClaimText(
    "EdgeSwitch has the worst tradeoff",
    _S63,
    "We omit EdgeSwitch due to its worst tradeoffs.",
    f"EdgeSwitch's {_TRADEOFF} is worse than every other scheme's",
)
_EPS = ClaimText(
    "MaxVar has the best ε for every k",
    _S63,
    "In addition to the re-identification scores H1 and H2_open, we also compute ε for "
    "k ∈ {30, 50,100} to have a fair comparison with (k,ε)-obf. Table 7 shows that MaxVar has "
    "the best (k,ε) scores.",
    "for every k of the study, MaxVar's mean ε over its grid is below the mean of each other "
    f"scheme of Table 7 ({_OBF_T}, RandWalk, RandWalk-mod); a mean, because on the paper's own "
    f"rows a single {_OBF_T} row beats a MaxVar row (youtube, k = 100)",
)
_EDGES = ClaimText(
    f"|E0 \\ E| ~ |E \\ E0| for MaxVar and the random walks, both above {_OBF_T}'s",
    _S63,
    "MaxVar and RandWalk/RandWalk-mod have |E_G0 \\ E_G| ≃ |E_G \\ E_G0| and these two quantities "
    "are higher than those of (k,ε)-obf where the number of edges is preserved only at small σ.",
    "every MaxVar, RandWalk and RandWalk-mod row has removed and added edges within "
    f"{EDGE_BALANCE:.0%} of the larger (RandWalk at t = 2 left out: the paper says it misses "
    f"edges there), and both counts of every such row exceed those of every {_OBF_T} row (read "
    f"literally: on the paper's youtube, {_OBF_T} σ = 0.1 removes 378,566 edges, more than "
    "MaxVar n_p = 600k's 213,097)",
)
_TV = ClaimText(
    f"Fig. 10: MaxVar's TV lies between {_OBF_T}'s and RandWalk-mod's",
    _S63,
    "Fig 10 compares the normalized total variance (i.e. divided by |E_G0|) of three schemes. "
    "Again, MaxVar is between (k,ε)-obf and RandWalk-mod.",
    f"every {_OBF_T} TV / m is below every MaxVar one, and every MaxVar one below every "
    "RandWalk-mod one (RandWalk-mod's is its uncertain model's TV, the quantity of Fig. 10)",
)


def make_claim(spec: ClaimText, verdict: str | bool, evidence: str) -> Claim:
    """The claim ``spec`` with its verdict (True: holds, False: does not) and evidence."""
    if isinstance(verdict, bool):
        verdict = HOLDS if verdict else NOT_HOLDS
    return Claim(spec.name, spec.section, spec.quote, spec.reading, verdict, evidence)


def needs_rows(spec: ClaimText, rows: Sequence[Row], schemes: Iterable[str]) -> Claim | None:
    """The claim as not checked if a scheme it names has no rows, else None."""
    have = {r["scheme"] for r in rows}
    missing = [scheme_title(s) for s in schemes if s not in have]
    if not missing:
        return None
    return make_claim(spec, NOT_CHECKED, "needs rows of " + ", ".join(missing))


def scheme_title(scheme: str) -> str:
    """The scheme's title, as the tables and claims name it."""
    return registry.scheme(scheme).title


def sig3(x: float) -> str:
    """``x`` to three significant digits, as the claims' evidence shows numbers."""
    return f"{x:.3g}"


def percent(x: float) -> str:
    """The fraction ``x`` as a percentage of two significant digits."""
    return f"{100 * x:.2g}%"


def rows_of(rows: Iterable[Row], *schemes: str) -> list[Row]:
    """The rows of ``schemes``, in order."""
    return [r for r in rows if r["scheme"] in schemes]


def grid_value(row: Row) -> float:
    """The row's grid value: the n_p / m found for MaxVar, else the requested value."""
    value: float = row["found"] if row.get("found") is not None else row["value"]
    return float(value)


def _span(values: Sequence[float]) -> str:
    return f"{sig3(min(values))}-{sig3(max(values))}"


# ---------------------------------------------------------------- matched rel.err
def tradeoff_curve(rows: Iterable[Row]) -> list[tuple[float, float]]:
    """A scheme's ``(rel_err, tradeoff)`` points sorted by rel.err, equal rel.err averaged.

    Examples
    --------
    >>> tradeoff_curve([{"rel_err": 0.2, "tradeoff": 1.0}, {"rel_err": 0.1, "tradeoff": 3.0},
    ...                 {"rel_err": 0.2, "tradeoff": 2.0}])
    [(0.1, 3.0), (0.2, 1.5)]
    """
    by_err: dict[float, list[float]] = {}
    for r in rows:
        by_err.setdefault(float(r["rel_err"]), []).append(float(r["tradeoff"]))
    return sorted((x, math.fsum(ys) / len(ys)) for x, ys in by_err.items())


def interpolate(curve: Sequence[tuple[float, float]], rel_err: float) -> float:
    """The piecewise-linear tradeoff of ``curve`` (:func:`tradeoff_curve`) at ``rel_err``.

    Raises
    ------
    ValueError
        If ``rel_err`` lies outside the curve's rel.err range (nothing is extrapolated).

    Examples
    --------
    >>> interpolate([(0.1, 3.0), (0.2, 1.0)], 0.125)
    2.5
    """
    xs = [x for x, _ in curve]
    if not curve or not xs[0] <= rel_err <= xs[-1]:
        span = f"{xs[0]:g}..{xs[-1]:g}" if curve else "empty"
        raise ValueError(f"rel_err {rel_err:g} is outside the curve's rel.err range ({span})")
    i = bisect_left(xs, rel_err)
    if xs[i] == rel_err:
        return curve[i][1]
    (x0, y0), (x1, y1) = curve[i - 1], curve[i]
    return y0 + (y1 - y0) * (rel_err - x0) / (x1 - x0)


@dataclass(frozen=True)
class Matched:
    """Scheme A's tradeoff against scheme B's at matched rel.err (:func:`compare_tradeoffs`)."""

    #: ``(rel_err_a, tradeoff_a, rel_err_b, tradeoff_b)`` at each compared point; on an overlap
    #: the two rel.err are equal and the tradeoffs interpolated.
    points: tuple[tuple[float, float, float, float], ...]
    #: Whether the two rel.err ranges overlap (else ``points`` is the one facing pair of rows).
    overlap: bool
    #: A's and B's rel.err ranges.
    range_a: tuple[float, float]
    range_b: tuple[float, float]

    @property
    def better(self) -> bool:
        """A's tradeoff is lower at every point."""
        return all(ta < tb for _, ta, _, tb in self.points)

    @property
    def worse(self) -> bool:
        """A's tradeoff is higher at every point."""
        return all(ta > tb for _, ta, _, tb in self.points)

    def describe(self, a: str, b: str) -> str:
        """The comparison in words, naming A and B."""
        if not self.overlap:
            (xa, ta, xb, tb) = self.points[0]
            return (
                f"{a} against {b}: their rel.err ranges do not overlap ({a} "
                f"{sig3(self.range_a[0])}-{sig3(self.range_a[1])}, {b} {sig3(self.range_b[0])}-"
                f"{sig3(self.range_b[1])}); facing across the gap, {a} at rel.err {sig3(xa)} has "
                f"tradeoff {sig3(ta)}, {b} at {sig3(xb)} has {sig3(tb)}"
            )
        lo, hi = self.points[0][0], self.points[-1][0]
        n = len(self.points)
        where = (
            f"on the common rel.err {sig3(lo)}-{sig3(hi)}" if lo < hi else f"at rel.err {sig3(lo)}"
        )
        lower = [p for p in self.points if p[1] < p[3]]
        higher = [p for p in self.points if p[1] > p[3]]

        def at(p: tuple[float, float, float, float]) -> str:
            return f"at {sig3(p[0])}: {sig3(p[1])} against {sig3(p[3])}"

        if self.better or self.worse:
            side = "lower" if self.better else "higher"
            closest = min(self.points, key=lambda p: abs(p[1] - p[3]))
            count = "the one point" if n == 1 else f"all {n} points"
            return (
                f"{a}'s tradeoff is {side} than {b}'s {where}, at {count} (closest {at(closest)})"
            )
        parts = [f"lower at {len(lower)} of {n} points"] if lower else []
        parts += [f"higher at {len(higher)}"] if higher else []
        ties = n - len(lower) - len(higher)
        parts += [f"equal at {ties}"] if ties else []
        examples = "; ".join(at(p) for p in (lower[:1] + higher[:1]))
        return f"{a}'s tradeoff against {b}'s {where}: " + ", ".join(parts) + f" ({examples})"


def compare_tradeoffs(a: Sequence[Row], b: Sequence[Row]) -> Matched:
    """Scheme A's rows against scheme B's: their tradeoffs at matched rel.err.

    Each scheme's rows make a piecewise-linear curve rel.err -> tradeoff
    (:func:`tradeoff_curve`). On the overlap of the two rel.err ranges both curves are
    interpolated (:func:`interpolate`) at every breakpoint of either curve inside it and at its
    ends: the difference of the curves is linear between these points, so they decide where one
    curve lies below the other. When the ranges do not overlap, the one compared pair is the two
    rows facing each other across the gap.

    Examples
    --------
    >>> a = [{"rel_err": 0.0, "tradeoff": 1.0}, {"rel_err": 0.5, "tradeoff": 3.0}]
    >>> b = [{"rel_err": 0.25, "tradeoff": 3.0}, {"rel_err": 0.75, "tradeoff": 1.0}]
    >>> m = compare_tradeoffs(a, b)
    >>> m.points
    ((0.25, 2.0, 0.25, 3.0), (0.5, 3.0, 0.5, 2.0))
    >>> m.better, m.worse
    (False, False)
    """
    if not a or not b:
        raise ValueError("compare_tradeoffs needs at least one row of each scheme")
    ca, cb = tradeoff_curve(a), tradeoff_curve(b)
    range_a, range_b = (ca[0][0], ca[-1][0]), (cb[0][0], cb[-1][0])
    lo, hi = max(range_a[0], range_b[0]), min(range_a[1], range_b[1])
    if lo <= hi:
        xs = sorted({x for x, _ in ca + cb if lo <= x <= hi} | {lo, hi})
        points = tuple((x, interpolate(ca, x), x, interpolate(cb, x)) for x in xs)
        return Matched(points, True, range_a, range_b)
    pa, pb = (ca[-1], cb[0]) if range_a[1] < range_b[0] else (ca[0], cb[-1])
    return Matched(((pa[0], pa[1], pb[0], pb[1]),), False, range_a, range_b)


def _dominating(a: Sequence[Row], b: Sequence[Row]) -> str:
    """B's rows with a lower rel.err and a lower tradeoff than every row of A, in words."""
    err = min(r["rel_err"] for r in a)
    trade = min(r["tradeoff"] for r in a)
    return "; ".join(
        f"outside the matched comparison, {scheme_title(r['scheme'])} {r['label']} (rel.err "
        f"{sig3(r['rel_err'])}, tradeoff {sig3(r['tradeoff'])}) has a lower rel.err and a lower "
        f"tradeoff than every {scheme_title(a[0]['scheme'])} row"
        for r in b
        if r["rel_err"] < err and r["tradeoff"] < trade
    )


def _versus(a: str, b: str, rows: Sequence[Row], want: str) -> tuple[bool, str]:
    """Whether scheme ``a``'s tradeoff is ``want`` ("better" / "worse") than ``b``'s, in words.

    A row of the scheme said to be worse that beats every row of the other on both rel.err and
    tradeoff is named too: the matched comparison cannot see it.
    """
    ra, rb = rows_of(rows, a), rows_of(rows, b)
    matched = compare_tradeoffs(ra, rb)
    ok = matched.better if want == "better" else matched.worse
    note = _dominating(ra, rb) if want == "better" else _dominating(rb, ra)
    return ok, "; ".join(t for t in (matched.describe(scheme_title(a), scheme_title(b)), note) if t)


# ---------------------------------------------------------------- the claims
def _monotone(rows: list[Row], falling: Sequence[str], rising: Sequence[str]) -> tuple[bool, str]:
    """Whether each ``falling`` column falls and each ``rising`` column rises along ``rows``."""
    parts, ok = [], True
    for key in (*falling, *rising):
        values = [float(r[key]) for r in rows]
        steps = list(pairwise(values))
        good = all(b <= a for a, b in steps) if key in falling else all(b >= a for a, b in steps)
        ok &= good
        parts.append(
            f"{key} {' → '.join(sig3(v) for v in values)}{'' if good else ' (not monotone)'}"
        )
    return ok, "; ".join(parts)


def _obf_claim(rows: Sequence[Row], original: Mapping[str, Any] | None) -> Claim:
    if (missing := needs_rows(_OBF, rows, [OBF])) is not None:
        return missing
    obf = sorted(rows_of(rows, OBF), key=grid_value)
    if len(obf) < 2:
        return make_claim(_OBF, NOT_CHECKED, "needs two σ values, the study has one")
    ok, text = _monotone(obf, (_H1, _H2), ("rel_err",))
    over = " → ".join(sig3(grid_value(r)) for r in obf)
    evidence = f"over σ {over}: {text}"
    if original and original.get(_H2):
        evidence += (
            f"; H2_open at σ = {sig3(grid_value(obf[0]))} is "
            f"{percent(obf[0][_H2] / original[_H2])} of G0's {sig3(original[_H2])}"
        )
    return make_claim(_OBF, ok, evidence)


def _alike_claim(rows: Sequence[Row], graph: str | None) -> Claim:
    excepted = PAPER_EXCEPTIONS.get(graph or "", frozenset())
    if excepted is None:
        return make_claim(_ALIKE, NOT_APPLICABLE, f"the paper excepts {graph} at every t")
    if (missing := needs_rows(_ALIKE, rows, WALKS)) is not None:
        return missing
    walk = {int(r["value"]): r for r in rows_of(rows, RANDWALK)}
    mod = {int(r["value"]): r for r in rows_of(rows, RANDWALK_MOD)}
    ts = sorted(set(walk) & set(mod) - excepted)
    if not ts:
        return make_claim(_ALIKE, NOT_CHECKED, "needs RandWalk and RandWalk-mod at a common t")
    parts, ok = [], True
    for t in ts:
        a, b = walk[t]["rel_err"], mod[t]["rel_err"]
        gap = abs(a - b) / max(a, b)
        ok &= gap <= RANDWALK_ALIKE
        parts.append(f"t={t}: {sig3(a)} against {sig3(b)} ({percent(gap)} apart)")
    evidence = "rel.err of RandWalk against RandWalk-mod: " + ", ".join(parts)
    if excepted:
        evidence += f"; t = {', '.join(map(str, sorted(excepted)))} left out, as the paper excepts it on {graph}"
    return make_claim(_ALIKE, ok, evidence)


def _missing_edges(row: Row) -> tuple[float, float]:
    """RandWalk's edges missing from a sample (removed minus added) and G0's m, from the row."""
    missing = float(row["removed_edges"]) - float(row["added_edges"])
    return missing, float(row["S_NE"]) + missing


def _t2_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_T2, rows, [RANDWALK])) is not None:
        return missing
    walk = {int(r["value"]): r for r in rows_of(rows, RANDWALK)}
    if 2 not in walk:
        return make_claim(_T2, NOT_CHECKED, "needs RandWalk at t = 2")
    lost = {t: _missing_edges(r)[0] / _missing_edges(r)[1] for t, r in sorted(walk.items())}
    others = {t: x for t, x in lost.items() if t != 2}
    ok = lost[2] >= RANDWALK_T2_MISS and all(lost[2] > x for x in others.values())
    missing2, m = _missing_edges(walk[2])
    evidence = (
        f"at t = 2 its samples miss {sig3(missing2)} of G0's {sig3(m)} edges ({percent(lost[2])})"
    )
    if others:
        evidence += "; at " + ", ".join(f"t={t}: {percent(x)}" for t, x in others.items())
    return make_claim(_T2, ok, evidence)


def _walks_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_WALKS, rows, (*WALKS, OBF, MAXVAR))) is not None:
        return missing
    walks, others = rows_of(rows, *WALKS), rows_of(rows, OBF, MAXVAR)
    top_h2 = max(r[_H2] for r in walks)
    floor_h2 = min(r[_H2] for r in others)
    low_err = min(r["rel_err"] for r in walks)
    ok = top_h2 < floor_h2 and low_err >= RANDWALK_MIN_REL_ERR
    evidence = (
        f"the random walks' H2_open is at most {sig3(top_h2)}, the lowest {_OBF_T} or MaxVar "
        f"H2_open {sig3(floor_h2)}; their rel.err is at least {sig3(low_err)}; their H1 "
        f"{_span([r[_H1] for r in walks])} against {_OBF_T}'s and MaxVar's "
        f"{_span([r[_H1] for r in others])}"
    )
    return make_claim(_WALKS, ok, evidence)


def _maxvar_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_MAXVAR, rows, [MAXVAR])) is not None:
        return missing
    mv = sorted(rows_of(rows, MAXVAR), key=grid_value)
    if len(mv) < 2:
        return make_claim(_MAXVAR, NOT_CHECKED, "needs two n_p values, the study has one")
    ok, text = _monotone(mv, (_H1, _H2), ("rel_err",))
    over = " → ".join(sig3(grid_value(r)) for r in mv)
    return make_claim(_MAXVAR, ok, f"over n_p/m {over}: {text}")


def _tradeoff_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_TRADE, rows, (MAXVAR, OBF, *WALKS))) is not None:
        return missing
    results = [
        _versus(MAXVAR, OBF, rows, "better"),
        *(_versus(MAXVAR, walk, rows, "worse") for walk in WALKS),
    ]
    return make_claim(_TRADE, all(ok for ok, _ in results), "; ".join(t for _, t in results))


def _mixture_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_MIX, rows, (MIXTURE, OBF, *WALKS))) is not None:
        return missing
    floor = min(r["rel_err"] for r in rows_of(rows, *WALKS))
    mixture = rows_of(rows, MIXTURE)
    gap = [r for r in mixture if r["rel_err"] < floor]
    evidence = (
        f"the random walks' lowest rel.err is {sig3(floor)}; {len(gap)} of Mixture's "
        f"{len(mixture)} rows lie below it"
    )
    if not gap:
        return make_claim(_MIX, False, evidence)
    ok, text = _versus(MIXTURE, OBF, [*gap, *rows_of(rows, OBF)], "better")
    return make_claim(_MIX, ok, f"{evidence}; on those, {text}")


def _switch_claim(rows: Sequence[Row]) -> Claim:
    others = (OBF, RANDWALK, RANDWALK_MOD, MAXVAR, MIXTURE)  # the paper's, not every registered
    if (missing := needs_rows(_SWITCH, rows, (EDGE_SWITCH, *others))) is not None:
        return missing
    results = [_versus(EDGE_SWITCH, s, rows, "worse") for s in others]
    return make_claim(_SWITCH, all(ok for ok, _ in results), "; ".join(t for _, t in results))


def _eps_claim(rows: Sequence[Row], ks: Sequence[int]) -> Claim:
    if (missing := needs_rows(_EPS, rows, (MAXVAR, *TABLE7_RIVALS))) is not None:
        return missing
    if not ks:
        return make_claim(_EPS, NOT_CHECKED, "needs the ε columns of some k")
    ok, parts = True, []
    for k in ks:
        mean = {
            s: math.fsum(r[EPS.key(k)] for r in rows_of(rows, s)) / len(rows_of(rows, s))
            for s in (MAXVAR, *TABLE7_RIVALS)
        }
        rival = min(TABLE7_RIVALS, key=lambda s: mean[s])
        ok &= mean[MAXVAR] < mean[rival]
        parts.append(
            f"k={k}: MaxVar {sig3(mean[MAXVAR])}, the best other {scheme_title(rival)} {sig3(mean[rival])}"
        )
    return make_claim(_EPS, ok, "mean ε " + "; ".join(parts))


def _edges_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_EDGES, rows, (MAXVAR, *WALKS, OBF))) is not None:
        return missing
    changed = rows_of(rows, MAXVAR, *WALKS)
    balanced = [r for r in changed if not (r["scheme"] == RANDWALK and int(r["value"]) == 2)]

    def gap(r: Row) -> float:
        removed, added = r["removed_edges"], r["added_edges"]
        return abs(removed - added) / max(removed, added, 1e-300)

    worst = max(balanced, key=gap)
    obf = rows_of(rows, OBF)
    parts = [
        f"removed and added differ by at most {percent(gap(worst))} ({scheme_title(worst['scheme'])} "
        f"{worst['label']}: {sig3(worst['removed_edges'])} and {sig3(worst['added_edges'])})"
    ]
    ok = gap(worst) <= EDGE_BALANCE
    for key, what in (("removed_edges", "removed"), ("added_edges", "added")):
        low = min(changed, key=lambda r: r[key])
        high = max(obf, key=lambda r: r[key])
        ok &= low[key] > high[key]
        parts.append(
            f"fewest {what}: {scheme_title(low['scheme'])} {low['label']} {sig3(low[key])}, most "
            f"{_OBF_T}: {high['label']} {sig3(high[key])}"
        )
    return make_claim(_EDGES, ok, "; ".join(parts))


def _tv_claim(rows: Sequence[Row]) -> Claim:
    if (missing := needs_rows(_TV, rows, (OBF, MAXVAR, RANDWALK_MOD))) is not None:
        return missing

    def tv(scheme: str) -> list[float]:
        values = [
            r.get("tv_model_normalized", r.get("tv_normalized")) for r in rows_of(rows, scheme)
        ]
        return [float(v) for v in values if v is not None]

    obf, mv, mod = tv(OBF), tv(MAXVAR), tv(RANDWALK_MOD)
    if not (obf and mv and mod):
        return make_claim(
            _TV, NOT_CHECKED, f"needs the TV of {_OBF_T}, MaxVar and RandWalk-mod rows"
        )
    evidence = f"TV / m: {_OBF_T} {_span(obf)}, MaxVar {_span(mv)}, RandWalk-mod {_span(mod)}"
    return make_claim(_TV, max(obf) < min(mv) and max(mv) < min(mod), evidence)


def paper_claims(
    rows: Sequence[Row],
    k: Sequence[int] = (),
    *,
    original: Mapping[str, Any] | None = None,
    graph: str | None = None,
    directed: bool = False,
) -> list[Claim]:
    """Check the paper's own claims (its Section VII) on a study's rows.

    Parameters
    ----------
    rows : sequence of dict
        Study rows: ``scheme``, ``value``, ``label``, ``H1``, ``H2_open``, ``S_NE``,
        ``removed_edges``, ``added_edges``, ``eps_k{k}``, ``rel_err``, ``tradeoff``,
        ``tv_model_normalized`` (MaxVar rows may carry ``found``, the n_p / m found, which
        orders them).
    k : sequence of int
        The k of the ``eps_k{k}`` columns.
    original : mapping, optional
        G0's row (its ``H2_open`` is shown against (k,eps)-obf's).
    graph : str, optional
        The graph's name: the paper excepts ``com-youtube`` and ``com-amazon`` at t = 2 from
        RandWalk and RandWalk-mod performing alike (:data:`PAPER_EXCEPTIONS`).
    directed : bool
        The study's G0 is directed: every claim is :data:`NOT_APPLICABLE` (the paper's claims
        are about undirected graphs, and RandWalk-mod, which many of them name, has no directed
        form); its evidence still says what the rows show, read the claim's way, for
        information.

    Returns
    -------
    list of Claim
        In the paper's order: Section VII-A's (k,eps)-obf trend, RandWalk against RandWalk-mod,
        RandWalk's missing edges at t = 2 and the random walks' scores; Section VII-B's MaxVar
        trend; Section VII-C's tradeoffs of MaxVar, Mixture and EdgeSwitch (at matched rel.err,
        :func:`compare_tradeoffs`), MaxVar's eps, the edge differences and Fig. 10's TV.

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "value": v, "label": f"n_p/m={v}", "H1": h, "H2_open": h,
    ...      "rel_err": e, "tradeoff": e}
    ...     for v, h, e in ((0.2, 50, 0.02), (0.6, 30, 0.05))
    ... ]
    >>> claim = paper_claims(rows)[4]
    >>> claim.verdict, claim.evidence
    ('holds', 'over n_p/m 0.2 → 0.6: H1 50 → 30; H2_open 50 → 30; rel_err 0.02 → 0.05')
    >>> paper_claims(rows)[0].evidence
    'needs rows of (k,eps)-obf'
    """
    claims = [
        _obf_claim(rows, original),
        _alike_claim(rows, graph),
        _t2_claim(rows),
        _walks_claim(rows),
        _maxvar_claim(rows),
        _tradeoff_claim(rows),
        _mixture_claim(rows),
        _switch_claim(rows),
        _eps_claim(rows, k),
        _edges_claim(rows),
        _tv_claim(rows),
    ]
    if directed:
        return [undirected_only(c) for c in claims]
    return claims


def undirected_only(claim: Claim) -> Claim:
    """``claim`` marked not applicable on a directed G0, what the rows show kept as information."""
    shown = claim.evidence if claim.holds is None else f"{claim.verdict}: {claim.evidence}"
    return Claim(
        claim.name,
        claim.section,
        claim.quote,
        claim.reading,
        NOT_APPLICABLE,
        "the paper's claims are about undirected graphs and this G0 is directed (directed "
        f"statistics, no RandWalk-mod); read the claim's way, for information only: {shown}",
    )


def _found(claim: Claim) -> str:
    """The lead-in of a claim's evidence."""
    return "Found" if claim.holds is not None else claim.verdict.capitalize()


def _cell(text: str) -> str:
    """Text in a Markdown table cell: its pipes escaped."""
    return text.replace("|", "\\|")


def claims_markdown(claims: Sequence[Claim]) -> list[str]:
    """The claims as the lines of study.md's section: a summary table, then each claim quoted."""
    lines = [
        "## The paper's claims on this graph",
        "",
        (
            "Each claim of the paper's evaluation (Section VII), quoted from its text (LaTeX as "
            "plain text), checked on this study's rows by graphveil.experiments.findings: *holds*, *does not "
            "hold*, *not applicable* (the paper excepts this graph) or *not checked* (the rows "
            "it needs are missing). How graphveil reads each claim follows its quote. " + _MATCHED
        ),
        "",
        "| # | claim | section | verdict |",
        "|---|---|---|---|",
    ]
    lines += [
        "| " + " | ".join((str(i), _cell(c.name), c.section.split()[0], c.verdict)) + " |"
        for i, c in enumerate(claims, 1)
    ]
    for i, c in enumerate(claims, 1):
        lines += [
            "",
            f"**{i}. {c.name}** (Section {c.section}): **{c.verdict}**",
            "",
            f"> {c.quote}",
            "",
            f"Checked as: {c.reading}. {_found(c)}: {c.evidence}.",
        ]
    return lines
