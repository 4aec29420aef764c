"""Anonymization schemes: each returns an :class:`Anonymized` (uncertain graph + report)."""

from graphveil.anonymize._result import Anonymized
from graphveil.anonymize.maxvar import maxvar
from graphveil.anonymize.mixture import mixture
from graphveil.anonymize.obfuscation import (
    ObfuscationError,
    obfuscation,
    obfuscation_expected_tv,
    truncated_normal_moments,
)
from graphveil.anonymize.partition import partition
from graphveil.anonymize.randwalk import (
    randwalk,
    randwalk_mod,
    randwalk_mod_tv,
    randwalk_mod_tv_bound,
    randwalk_mod_uncertain,
    walk_ends,
)
from graphveil.anonymize.switching import edge_switch

__all__ = [
    "Anonymized",
    "ObfuscationError",
    "edge_switch",
    "maxvar",
    "mixture",
    "obfuscation",
    "obfuscation_expected_tv",
    "partition",
    "randwalk",
    "randwalk_mod",
    "randwalk_mod_tv",
    "randwalk_mod_tv_bound",
    "randwalk_mod_uncertain",
    "truncated_normal_moments",
    "walk_ends",
]
