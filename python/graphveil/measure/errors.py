"""How the analyst statistics' means are scored against G0's: their terms and ``analyst_err``.

rel.err (:func:`~graphveil.measure.report.relative_error`) averages the paper's statistics'
relative errors; the analyst group (:func:`~graphveil.measure.utility.analyst_names`) has its
own mean error, whose terms follow each row's :attr:`~graphveil.measure.utility.Statistic.score`.
"""

from __future__ import annotations

import math

from graphveil.measure.utility import analyst_names, statistic

__all__ = ["analyst_error", "analyst_rows", "error_term"]


def error_term(name: str, mean: float, original: float) -> float:
    """The error of a mean against G0's value, as statistic ``name`` is scored.

    ``|mean - original| / |original|`` for a ``"relative"`` score (nan when ``original`` is 0),
    ``|mean - original|`` for the others (G0's value being what G0 scores against itself);
    nan when either value is not finite.

    Examples
    --------
    >>> error_term("S_TRI", 90.0, 100.0), error_term("S_NMI", 0.75, 1.0)
    (0.1, 0.25)
    """
    score = statistic(name).score
    if not (math.isfinite(mean) and math.isfinite(original)):
        return math.nan
    if score == "relative":
        return abs(mean - original) / abs(original) if original != 0.0 else math.nan
    return abs(mean - original)


def analyst_error(
    mean: dict[str, float], original: dict[str, float]
) -> tuple[float, dict[str, float]]:
    """analyst.err = mean over the analyst statistics of their error terms.

    Each term is :func:`error_term`: relative for the statistics
    scored ``"relative"`` (triangles, average clustering, assortativity, modularity, spread),
    ``|mean - G0|`` for a divergence, an agreement or an overlap (G0's own value being 0 or 1).
    A term that is nan (a value not defined on G0 or the samples) is left out of the mean;
    analyst.err is nan if no term is left. rel.err and the paper's columns are unchanged.

    Returns
    -------
    (float, dict)
        analyst.err and the per-statistic terms.

    Examples
    --------
    >>> terms = analyst_error({"S_TRI": 90.0, "S_NMI": 0.75}, {"S_TRI": 100.0, "S_NMI": 1.0})[1]
    >>> terms["S_TRI"], terms["S_NMI"]
    (0.1, 0.25)
    """
    terms = {
        key: error_term(key, float(mean[key]), float(original[key]))
        for key in analyst_names()
        if key in mean and key in original
    }
    finite = [t for t in terms.values() if math.isfinite(t)]
    return (math.fsum(finite) / len(finite) if finite else math.nan), terms


def analyst_rows(
    label: str, width: int, original: dict[str, float], mean: dict[str, float], error: float
) -> list[str]:
    """The analyst column group of a report's table: headers, G0's row, the mean row and its error."""
    cols = analyst_names()
    head = ["".ljust(width)] + [statistic(c).column.rjust(10) for c in cols]
    orig = ["original".ljust(width)] + [
        statistic(c).formats[0].format(original[c]).rjust(10) for c in cols
    ]
    row = [label.ljust(width)] + [statistic(c).formats[1].format(mean[c]).rjust(10) for c in cols]
    rows = (
        head + ["analyst.err".rjust(11)],
        orig + ["".rjust(11)],
        row + [f"{error:.3f}".rjust(11)],
    )
    return [" ".join(r) for r in rows]
