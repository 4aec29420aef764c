"""Anonymization schemes: each returns an :class:`Anonymized` (uncertain graph + report)."""

from graphveil.anonymize._result import Anonymized
from graphveil.anonymize.mixture import mixture
from graphveil.anonymize.randwalk import (
    randwalk,
    randwalk_mod,
    randwalk_mod_tv_bound,
    randwalk_mod_uncertain,
    walk_ends,
)
from graphveil.anonymize.switching import edge_switch

__all__ = [
    "Anonymized",
    "edge_switch",
    "mixture",
    "randwalk",
    "randwalk_mod",
    "randwalk_mod_tv_bound",
    "randwalk_mod_uncertain",
    "walk_ends",
]
