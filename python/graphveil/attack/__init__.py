"""Attacks on a release: what an adversary actually recovers, next to the H1 / H2_open scores.

- :func:`link_inference`: the published probabilities as a link predictor (AUC, top-m precision,
  the most-likely world).
- :func:`propagation`: Narayanan-Shmatikov seed-and-extend de-anonymization, scored by
  :func:`reidentification_rate` (accuracy and coverage apart, and the share of nodes with a
  structural twin, :func:`structural_twins`); :func:`propagation_attack` runs it against a release.
- :func:`edge_recovery`: edge recovery from ``p`` and plausibility (:func:`plausibility`;
  Zhang et al., NDSS 2020), and the measured edge-level privacy loss: ln(TPR / FPR) of "the
  pair is published" and a lower bound of the epsilon the release exhibits.
- :func:`attack_scores`: every attack, as the few numbers a study row carries.
- :mod:`~graphveil.attack.registry`: one record per attack (function, study columns, command),
  read by :func:`attack_scores`, the study and the CLI.
"""

from graphveil.attack import registry
from graphveil.attack.edges import EdgeRecovery, edge_recovery, plausibility
from graphveil.attack.link import LinkInference, link_inference
from graphveil.attack.propagation import (
    PropagationAttack,
    Reidentification,
    core_nodes,
    default_seeds,
    high_degree_seeds,
    propagation,
    propagation_attack,
    reidentification_rate,
    structural_twins,
)
from graphveil.attack.scores import attack_scores

__all__ = [
    "EdgeRecovery",
    "LinkInference",
    "PropagationAttack",
    "Reidentification",
    "attack_scores",
    "core_nodes",
    "default_seeds",
    "edge_recovery",
    "high_degree_seeds",
    "link_inference",
    "plausibility",
    "propagation",
    "propagation_attack",
    "registry",
    "reidentification_rate",
    "structural_twins",
]
