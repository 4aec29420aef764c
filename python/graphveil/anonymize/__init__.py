"""Anonymization schemes: each returns an :class:`Anonymized` (uncertain graph + report).

Each scheme lives in a module of its own name; that module is what the package attribute holds
(``import graphveil.anonymize.maxvar as m`` gives the module, never a function), and it is
callable as the scheme: ``graphveil.anonymize.maxvar(g, ...)`` and
``from graphveil.anonymize import maxvar`` work as before.
"""

from typing import TYPE_CHECKING

from graphveil.anonymize.obfuscation import (
    ObfuscationError,
    obfuscation_expected_tv,
    truncated_normal_moments,
)
from graphveil.anonymize.randwalk import (
    randwalk_mod,
    randwalk_mod_tv,
    randwalk_mod_tv_bound,
    randwalk_mod_uncertain,
    walk_ends,
)
from graphveil.anonymize.switching import edge_switch
from graphveil.uncertain import Anonymized

if TYPE_CHECKING:  # the type checker sees the functions; at run time they are the callable modules
    from graphveil.anonymize.maxvar import maxvar
    from graphveil.anonymize.mixture import mixture
    from graphveil.anonymize.obfuscation import obfuscation
    from graphveil.anonymize.partition import partition
    from graphveil.anonymize.randwalk import randwalk
else:
    from graphveil.anonymize import maxvar, mixture, obfuscation, partition, randwalk

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
