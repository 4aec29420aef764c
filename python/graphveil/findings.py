"""The paper's qualitative findings, and the attacks against the scores, checked on a study's rows.

:func:`paper_claims` marks each claim of the paper's Section 6 as holding or not on one graph,
with the numbers; :func:`attack_disagreements` says per scheme where the propagation attack and
the H1 / H2_open scores order the grid points differently. Both read plain rows (the dicts of
:attr:`graphveil.experiments.Study.rows`), so they run on every study and on synthetic rows.

References
----------
Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
ASIACCS 2015, Section 6 (Tables 3, 4, 7 and Fig. 10).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

__all__ = [
    "COMPARABLE_REL_ERR",
    "RANDWALK_MIN_REL_ERR",
    "REID_TIE",
    "TABLE7_RIVALS",
    "Claim",
    "attack_disagreements",
    "comparable",
    "paper_claims",
]

#: Two rows have *comparable* rel.err when they differ by at most this fraction of the larger:
#: ``|a - b| <= 0.25 * max(a, b)``.
COMPARABLE_REL_ERR = 0.25

#: The schemes Table 7 of the paper compares MaxVar with (its eps and tradeoff claims are about
#: these; Mixture "also fills the gap" and EdgeSwitch is left out for its worst tradeoffs).
TABLE7_RIVALS = ("obfuscation", "randwalk", "randwalk_mod")

#: Re-identification rates closer than this (a fraction of the core) count as a tie when the
#: attack's order is compared with the scores': a few nodes either way is sampling noise.
REID_TIE = 0.01

#: The paper's lower bound on the random walks' rel.err ("lower-bounded around 8 to 10%").
RANDWALK_MIN_REL_ERR = 0.09

Row = dict[str, Any]


@dataclass(frozen=True)
class Claim:
    """One claim of the paper: ``holds`` is True, False, or None when the rows cannot decide."""

    claim: str
    holds: bool | None
    evidence: str

    @property
    def verdict(self) -> str:
        """``holds``, ``does not hold`` or ``not measured``."""
        return {True: "holds", False: "does not hold", None: "not measured"}[self.holds]


def comparable(a: float, b: float) -> bool:
    """Whether two rel.err values are comparable (:data:`COMPARABLE_REL_ERR`).

    Examples
    --------
    >>> comparable(0.08, 0.1), comparable(0.05, 0.1)
    (True, False)
    """
    return abs(a - b) <= COMPARABLE_REL_ERR * max(a, b)


def _g(x: float) -> str:
    return f"{x:.3g}"


def _rows(rows: Iterable[Row], *schemes: str) -> list[Row]:
    return [r for r in rows if r["scheme"] in schemes]


def _param(row: Row) -> float:
    """The row's grid value: the n_p / m found for MaxVar, else the requested value."""
    value: float = row["found"] if row.get("found") is not None else row["value"]
    return float(value)


def _trend(rows: list[Row], name: str, parameter: str) -> Claim:
    claim = f"{name}: H1 and H2_open fall and rel.err rises with {parameter}"
    if len(rows) < 2:
        return Claim(claim, None, f"needs two grid points, the study has {len(rows)}")
    rows = sorted(rows, key=_param)
    parts, holds = [], True
    for key, falls in (("H1", True), ("H2_open", True), ("rel_err", False)):
        values = [r[key] for r in rows]
        steps = list(pairwise(values))
        ok = all(b <= a for a, b in steps) if falls else all(b >= a for a, b in steps)
        holds &= ok
        shown = " → ".join(_g(v) for v in values)
        parts.append(f"{key} {shown}{'' if ok else ' (not monotone)'}")
    over = " → ".join(_g(_param(r)) for r in rows)
    return Claim(claim, holds, f"over {parameter} {over}: " + "; ".join(parts))


def _randwalk_claim(rows: Sequence[Row]) -> Claim:
    claim = (
        "RandWalk and RandWalk-mod: low H2_open (below every (k,eps)-obf and MaxVar row) and "
        f"rel.err >= {RANDWALK_MIN_REL_ERR}"
    )
    walks = _rows(rows, "randwalk", "randwalk_mod")
    others = _rows(rows, "obfuscation", "maxvar")
    if not walks:
        return Claim(claim, None, "no RandWalk or RandWalk-mod rows")
    top_h2 = max(r["H2_open"] for r in walks)
    low_err = min(r["rel_err"] for r in walks)
    err_ok = low_err >= RANDWALK_MIN_REL_ERR
    evidence = f"their H2_open is at most {_g(top_h2)}, their rel.err at least {_g(low_err)}"
    if not others:
        return Claim(claim, None, evidence + "; no (k,eps)-obf or MaxVar rows to compare with")
    floor = min(r["H2_open"] for r in others)
    evidence += f"; the lowest (k,eps)-obf or MaxVar H2_open is {_g(floor)}"
    return Claim(claim, top_h2 < floor and err_ok, evidence)


def _tradeoff_claim(rows: Sequence[Row], title: Callable[[str], str]) -> Claim:
    pct = round(100 * COMPARABLE_REL_ERR)
    claim = (
        "MaxVar has the best tradeoff at comparable rel.err "
        f"(rel.err within {pct}% of the larger of the two) among the schemes of Table 7"
    )
    maxvar = _rows(rows, "maxvar")
    others = _rows(rows, *TABLE7_RIVALS)
    pairs = [(mv, r) for mv in maxvar for r in others if comparable(mv["rel_err"], r["rel_err"])]
    if not pairs:
        return Claim(claim, None, "no rival row has a rel.err comparable with a MaxVar row")
    lost = [(mv, r) for mv, r in pairs if mv["tradeoff"] > r["tradeoff"]]
    evidence = f"MaxVar has the lower tradeoff in {len(pairs) - len(lost)} of {len(pairs)} comparable pairs"
    if lost:
        mv, r = max(lost, key=lambda pair: pair[0]["tradeoff"] - pair[1]["tradeoff"])
        evidence += (
            f"; e.g. {title(r['scheme'])} {r['label']} (rel.err {_g(r['rel_err'])}, tradeoff "
            f"{_g(r['tradeoff'])}) against MaxVar {mv['label']} (rel.err {_g(mv['rel_err'])}, "
            f"tradeoff {_g(mv['tradeoff'])})"
        )
    return Claim(claim, not lost, evidence)


def _eps_claim(rows: Sequence[Row], ks: Sequence[int], title: Callable[[str], str]) -> Claim:
    claim = (
        "MaxVar has the lowest eps (its mean eps over its grid is the lowest of the schemes of "
        "Table 7, for every k)"
    )
    schemes = list(dict.fromkeys(r["scheme"] for r in _rows(rows, "maxvar", *TABLE7_RIVALS)))
    if "maxvar" not in schemes or len(schemes) < 2 or not ks:
        return Claim(claim, None, "needs MaxVar rows and a rival's")
    holds, parts = True, []
    for k in ks:
        mean = {
            s: sum(r[f"eps_k{k}"] for r in _rows(rows, s)) / len(_rows(rows, s)) for s in schemes
        }
        rival = min((s for s in mean if s != "maxvar"), key=lambda s: mean[s])
        holds &= mean["maxvar"] <= mean[rival]
        parts.append(
            f"mean eps at k={k}: MaxVar {_g(mean['maxvar'])}, best rival {title(rival)} {_g(mean[rival])}"
        )
    return Claim(claim, holds, "; ".join(parts))


def _tv_claim(rows: Sequence[Row]) -> Claim:
    claim = "Fig. 10 ordering of TV / m: (k,eps)-obf < MaxVar < RandWalk-mod (every bar)"

    def tv(schemes: str) -> list[float]:
        values = [
            r.get("tv_model_normalized", r.get("tv_normalized")) for r in _rows(rows, schemes)
        ]
        return [v for v in values if v is not None]

    obf, mv, rw = tv("obfuscation"), tv("maxvar"), tv("randwalk_mod")
    if not (obf and mv and rw):
        return Claim(claim, None, "needs (k,eps)-obf, MaxVar and RandWalk-mod rows with a TV")
    evidence = (
        f"(k,eps)-obf {_g(min(obf))}..{_g(max(obf))}, MaxVar {_g(min(mv))}..{_g(max(mv))}, "
        f"RandWalk-mod {_g(min(rw))}..{_g(max(rw))}"
    )
    return Claim(claim, max(obf) < min(mv) and max(mv) < min(rw), evidence)


def paper_claims(
    rows: Sequence[Row], k: Sequence[int] = (), title: Callable[[str], str] = str
) -> list[Claim]:
    """Check the paper's qualitative claims on a study's rows.

    Parameters
    ----------
    rows : sequence of dict
        Study rows: ``scheme``, ``value``, ``label``, ``H1``, ``H2_open``, ``rel_err``,
        ``tradeoff``, ``eps_k{k}``, ``tv_model_normalized`` (MaxVar rows may carry ``found``,
        the n_p / m found, which orders them).
    k : sequence of int
        The k of the ``eps_k{k}`` columns.
    title : callable
        The printed name of a scheme (in the evidence).

    Returns
    -------
    list of Claim
        In the paper's order: MaxVar's trends with n_p, (k,eps)-obf's with sigma, the random
        walks' low H2_open and rel.err floor, MaxVar's tradeoff at comparable rel.err
        (:func:`comparable`), MaxVar's eps, the Fig. 10 TV ordering.

    Examples
    --------
    >>> rows = [
    ...     {"scheme": "maxvar", "value": v, "label": f"n_p/m={v}", "H1": h, "H2_open": h,
    ...      "rel_err": e, "tradeoff": e, "eps_k30": 0.001}
    ...     for v, h, e in ((0.2, 50, 0.02), (0.6, 30, 0.05))
    ... ]
    >>> claim = paper_claims(rows, k=(30,))[0]
    >>> claim.holds, claim.evidence
    (True, 'over n_p/m 0.2 → 0.6: H1 50 → 30; H2_open 50 → 30; rel_err 0.02 → 0.05')
    """
    return [
        _trend(_rows(rows, "maxvar"), "MaxVar", "n_p/m"),
        _trend(_rows(rows, "obfuscation"), "(k,eps)-obf", "sigma"),
        _randwalk_claim(rows),
        _tradeoff_claim(rows, title),
        _eps_claim(rows, k, title),
        _tv_claim(rows),
    ]


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
    attacked = [r for r in rows if r.get("reid_rate") is not None]
    out = []
    for scheme in dict.fromkeys(r["scheme"] for r in attacked):
        own = _rows(attacked, scheme)
        name = title(scheme)
        if len(own) == 1:
            r = own[0]
            inside = (
                f"{name}: one grid point ({r['label']}: H1 {_g(r['H1'])}, H2_open "
                f"{_g(r['H2_open'])}, re-identified {_g(r['reid_rate'])})"
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
                    f"re-identified {_g(hi['reid_rate'])} → {_g(lo['reid_rate'])})"
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
    gap = b["reid_rate"] - a["reid_rate"]
    attack = 0 if abs(gap) < REID_TIE else _sign(gap)
    return any(_sign(b[s] - a[s]) * attack < 0 for s in ("H1", "H2_open"))


def _example(pairs: list[tuple[Row, Row]], title: Callable[[str], str] | None = None) -> str:
    """The discordant pair with the largest gap in re-identification, in words."""
    a, b = max(pairs, key=lambda pair: abs(pair[1]["reid_rate"] - pair[0]["reid_rate"]))

    def name(r: Row) -> str:
        return r["label"] if title is None else f"{title(r['scheme'])} {r['label']}"

    return (
        f"{name(a)} → {name(b)}: H1 {_g(a['H1'])} → {_g(b['H1'])} and H2_open "
        f"{_g(a['H2_open'])} → {_g(b['H2_open'])}, but re-identified {_g(a['reid_rate'])} → "
        f"{_g(b['reid_rate'])}"
    )
