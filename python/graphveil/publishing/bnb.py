"""Branch and bound over the schemes: the incumbent, pruning, and the utility direction checked.

See :func:`prune` for the rule and why it is sound; :func:`check_utility` for the check that
turns it off on a graph where a scheme's utility breaks its declared direction.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from graphveil.anonymize import registry

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.publishing import Candidate, Search

__all__ = [
    "bound", "check_utility", "ends", "incumbent", "interval", "outclassed", "prune", "rival",
]  # fmt: skip


def interval(values: list[float], op: str, confidence: float) -> tuple[float, float]:
    """(mean, one-sided Student-t confidence bound of the mean on the side ``op`` reads)."""
    from scipy.stats import t as student

    x = np.asarray(values, dtype=np.float64)
    if np.isnan(x).any():
        return math.nan, math.nan
    mean = float(x.mean())
    if np.isinf(x).any():
        return mean, mean
    half = float(student.ppf(confidence, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return mean, mean + half if op == "<=" else mean - half


def ends(knob: Any) -> tuple[float, float]:
    """The knob's (most private, least private) ends."""
    return (knob.high, knob.low) if knob.more_private == "higher" else (knob.low, knob.high)


def bound(values: list[float], side: str, confidence: float) -> float:
    """The one-sided confidence bound of the mean of ``values`` (``"<="``: upper)."""
    return interval(values, side, confidence)[1]


def incumbent(search: Search) -> Candidate | None:
    """The value measured so far that meets the target with the least utility loss."""
    met = [c for c in search.candidates if c.meets and not c.reason]
    return min(met, key=lambda c: c.utility_mean) if met else None


def rival(search: Search, name: str) -> Candidate | None:
    """The incumbent, when it may prune scheme ``name``.

    That is: another scheme's, ``name``'s utility monotone, the objective rel.err, pruning not
    turned off (:func:`check_utility`).
    """
    knob = registry.scheme(name).knob
    best = incumbent(search)
    if (
        best is None
        or best.scheme == name
        or search.objective != "rel_err"
        or not search.prune_ok
        or knob is None
        or not knob.utility_monotone
    ):
        return None
    return best


def outclassed(search: Search, cand: Candidate) -> bool:
    """Whether ``cand`` loses clearly more than a rival incumbent: it cannot win, met or not.

    Its lower confidence bound of rel.err above the incumbent's upper one (:func:`rival`).
    """
    best = rival(search, cand.scheme)
    if best is None or cand.reason or len(cand.utility) < 2:
        return False
    floor = bound(cand.utility, ">=", search.confidence)
    return floor > bound(best.utility, "<=", search.confidence)


def prune(search: Search, name: str) -> bool:
    """Whether scheme ``name`` cannot win any more (branch and bound); the audit says why.

    Sound when the scores are monotone over the knob (a value that fails has every value that
    meets on its private side) and the utility loss does not fall as the knob grows more
    private (:attr:`Knob.utility_monotone <graphveil.anonymize.registry.Knob.utility_monotone>`):
    then a failing value whose loss is already clearly above the incumbent's (its lower
    confidence bound above the incumbent's upper one) rules out every value of the scheme.
    Only for the objective rel.err, the loss that direction is declared and checked for.
    """
    record = registry.scheme(name)
    best = rival(search, name)
    if best is None or record.knob is None:
        return False
    ceiling = bound(best.utility, "<=", search.confidence)
    open_end = ends(record.knob)[1]
    for c in [*search.screens, *search.candidates]:
        if c.scheme != name or c.meets or c.reason or len(c.utility) < 2:
            continue
        if c.screened and c.value != open_end:  # G0 at the open end: values between may run
            continue
        floor = bound(c.utility, ">=", search.confidence)
        if floor > ceiling:
            where = (
                "every value of it is at least as private"
                if c.screened
                else f"a value of it that meets the target is more private than {c.value:g}"
            )
            search.pruned[name] = (
                f"{record.title}: pruned: its rel_err at {c.label} (mean {c.utility_mean:.4g}, "
                f"at least {floor:.4g}) is already worse than the incumbent {best.label}'s (mean "
                f"{best.utility_mean:.4g}, at most {ceiling:.4g}); {where}, and its rel_err "
                "does not fall as the knob grows more private"
            )
            search.notes.append(search.pruned[name])
            search.progress(f"{record.title}: pruned (it cannot win; see the report)")
            return True
    return False


def check_utility(search: Search, name: str) -> None:
    """Check the declared utility direction on the values of ``name`` measured (the audit says).

    A utility-monotone scheme whose loss falls, beyond both confidence bounds, from a less
    private value to a more private one turns pruning off for the rest of the search; the
    schemes pruned before are then searched again (:func:`publish`).
    """
    knob = registry.scheme(name).knob
    if knob is None or not knob.utility_monotone or search.objective != "rel_err":
        return
    tried = sorted(
        (
            c
            for c in [*search.screens, *search.candidates]
            if c.scheme == name and not c.reason and len(c.utility) > 1
        ),
        key=lambda c: c.value if knob.more_private == "higher" else -c.value,
    )  # least private first
    for i, a in enumerate(tried):
        for c in tried[i + 1 :]:
            if bound(c.utility, "<=", search.confidence) < bound(
                a.utility, ">=", search.confidence
            ):
                search.prune_ok = False
                search.notes.append(
                    f"{registry.scheme(name).title}: rel_err is not monotone over its knob "
                    f"({c.utility_mean:.4g} at {c.value:g} against {a.utility_mean:.4g} at the "
                    f"less private {a.value:g}): nothing more is pruned on this graph"
                )
                return
