"""Anonymization schemes: each returns an :class:`Anonymized` (uncertain graph + report).

The package exports the scheme functions (``graphveil.anonymize.maxvar(g, ...)``,
``from graphveil.anonymize import maxvar``); their code lives in private modules
(``_maxvar``, ``_randwalk``, ...), so no module is ever shadowed by a function. Every scheme
also has a record in :mod:`graphveil.anonymize.registry`, which the CLI and the study read.
"""

from graphveil.anonymize._dgg import dgg
from graphveil.anonymize._dp_dk import dp_dk
from graphveil.anonymize._edgeflip import edgeflip
from graphveil.anonymize._maxvar import maxvar
from graphveil.anonymize._mixture import mixture
from graphveil.anonymize._model_tv import randwalk_mod_tv, randwalk_mod_tv_estimate
from graphveil.anonymize._obfuscation import (
    ObfuscationError,
    obfuscation,
    obfuscation_expected_tv,
    truncated_normal_moments,
)
from graphveil.anonymize._partition import partition
from graphveil.anonymize._privgraph import privgraph
from graphveil.anonymize._randwalk import (
    randwalk,
    randwalk_mod,
    randwalk_mod_tv_bound,
    randwalk_mod_uncertain,
    walk_ends,
)
from graphveil.anonymize._switching import edge_switch
from graphveil.anonymize._tmf import tmf
from graphveil.uncertain import Anonymized

__all__ = [
    "Anonymized",
    "ObfuscationError",
    "dgg",
    "dp_dk",
    "edge_switch",
    "edgeflip",
    "maxvar",
    "mixture",
    "obfuscation",
    "obfuscation_expected_tv",
    "partition",
    "privgraph",
    "randwalk",
    "randwalk_mod",
    "randwalk_mod_tv",
    "randwalk_mod_tv_bound",
    "randwalk_mod_tv_estimate",
    "randwalk_mod_uncertain",
    "tmf",
    "truncated_normal_moments",
    "walk_ends",
]
