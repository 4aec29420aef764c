"""Measures of an anonymized graph (Section VI of the paper): privacy, utility and reports.

:func:`graphveil.evaluate` composes these measures (planned and reduced by
:class:`SamplePlan`) with the attacks and the cluster one floor up (:mod:`graphveil.evaluation`):
``measure`` imports neither :mod:`graphveil.attack` nor :mod:`graphveil.cluster`.
``graphveil.measure.evaluate`` is deprecated (it goes in the next release).
"""

from graphveil.measure.original import Original
from graphveil.measure.plan import SamplePlan, evaluate
from graphveil.measure.powerlaw import (
    PowerLawFit,
    pooled_powerlaw_exponent,
    powerlaw_exponent,
    powerlaw_fit,
    powerlaw_rival,
)
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
    Statistic,
    degree_statistics,
    diameter,
    diameter_choice,
    diameter_lower_bound,
    distance_histogram,
    distance_statistics,
    neighbourhood_function,
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
    "SamplePlan",
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
