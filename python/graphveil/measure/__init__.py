"""Measures of an anonymized graph (Section 5 of the paper): privacy, utility and reports."""

from graphveil.measure.privacy import (
    degree_distributions,
    degree_entropy,
    eps,
    h1,
    h2_open,
    num_signatures,
    reidentification_score,
    signature_classes,
)
from graphveil.measure.report import Report, evaluate, relative_error

__all__ = [
    "Report",
    "evaluate",
    "relative_error",
    "degree_distributions",
    "degree_entropy",
    "eps",
    "h1",
    "h2_open",
    "num_signatures",
    "reidentification_score",
    "signature_classes",
]
