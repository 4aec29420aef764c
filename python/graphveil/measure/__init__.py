"""Measures of an anonymized graph (Section VI of the paper): privacy, utility and reports.

:func:`evaluate` composes these measures with the attacks and the cluster one layer up
(:mod:`graphveil.evaluation`); it is loaded from there on first use, so that ``measure``
imports neither :mod:`graphveil.attack` nor :mod:`graphveil.cluster`.
"""

from typing import Any

from graphveil.measure.original import Original
from graphveil.measure.privacy import (
    SignatureIndex,
    degree_distributions,
    degree_entropy,
    eps,
    h1,
    h2_open,
    num_signatures,
    reidentification_score,
    signature_classes,
    signature_index,
)
from graphveil.measure.report import Report, relative_error
from graphveil.measure.summary import graph_stats
from graphveil.measure.utility import (
    STATISTIC_TABLE,
    STATISTICS,
    PowerLawFit,
    Statistic,
    degree_statistics,
    diameter,
    diameter_choice,
    diameter_lower_bound,
    distance_histogram,
    distance_statistics,
    neighbourhood_function,
    pooled_powerlaw_exponent,
    powerlaw_exponent,
    powerlaw_fit,
    powerlaw_rival,
    transitivity,
    triangle_count,
    unstable_powerlaw_fits,
    utility_statistics,
)

__all__ = [
    "STATISTICS",
    "STATISTIC_TABLE",
    "Original",
    "PowerLawFit",
    "Report",
    "SignatureIndex",
    "Statistic",
    "degree_distributions",
    "degree_entropy",
    "degree_statistics",
    "diameter",
    "diameter_choice",
    "diameter_lower_bound",
    "distance_histogram",
    "distance_statistics",
    "eps",
    "evaluate",
    "graph_stats",
    "h1",
    "h2_open",
    "neighbourhood_function",
    "num_signatures",
    "pooled_powerlaw_exponent",
    "powerlaw_exponent",
    "powerlaw_fit",
    "powerlaw_rival",
    "reidentification_score",
    "relative_error",
    "signature_classes",
    "signature_index",
    "transitivity",
    "triangle_count",
    "unstable_powerlaw_fits",
    "utility_statistics",
]


def __getattr__(name: str) -> Any:
    if name == "evaluate":  # the composition one layer up (graphveil.evaluation)
        from graphveil.evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"evaluate"})
