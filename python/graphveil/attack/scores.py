"""Every registered attack on one release, as a few numbers per grid point of a study.

:func:`attack_scores` runs each attack of :data:`graphveil.attack.registry.REGISTRY` (its
:attr:`~graphveil.attack.registry.Attack.score`) and returns flat numbers for a table row. The
cost is bounded: :func:`~graphveil.attack.propagation_attack` runs against ``samples`` sampled
worlds (the study passes at most :data:`ATTACK_SAMPLES`), each with the most-likely and top-m
worlds, so ``3 * samples`` propagations; percolation, reconciliation and the seedless attack run
once against the three worlds (equal worlds matched once); G0's structural twins are computed
once for all of them. On email-Enron a release's attacks take seconds (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

from graphveil._checks import NotApplicable, check_samples
from graphveil._seeds import SeedLike
from graphveil.attack.propagation import (
    DEFAULT_ECCENTRICITY,
    DEFAULT_SEEDS,
    default_seeds,
    structural_twins,
)
from graphveil.attack.registry import REGISTRY, ScoreRequest
from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = ["ATTACK_SAMPLES", "ATTACK_SEEDS", "attack_scores"]

#: Sampled worlds a study attacks per grid point (fewer when it draws fewer samples).
ATTACK_SAMPLES = 3

#: Known seed pairs of the propagation attacker (the issue's control uses 50), at most a tenth
#: of the nodes on small graphs (:func:`~graphveil.attack.propagation.default_seeds`).
ATTACK_SEEDS = DEFAULT_SEEDS


def attack_scores(
    g0: Graph,
    published: UncertainGraph | Graph,
    samples: int = ATTACK_SAMPLES,
    seed: SeedLike = None,
    *,
    seeds: int | None = None,
    eccentricity: str = DEFAULT_ECCENTRICITY,
    threads: int | None = None,
    node_identity: bool = True,
) -> dict[str, Any]:
    """Every registered attack on one release, as flat numbers.

    Link inference and Narayanan-Shmatikov re-identification (:mod:`graphveil.attack.registry`).

    Parameters
    ----------
    g0 : Graph
        The true graph (also the attacker's auxiliary graph).
    published : UncertainGraph or Graph
        The release on ``g0``'s node ids.
    samples : int
        Sampled worlds attacked by propagation; the rates are their means.
    seed : int, numpy.random.Generator or None
        Randomness of every attack (id permutation, seed pairs, the sampled world).
    seeds : int, optional
        Seed pairs the attacker knows (default :data:`~graphveil.attack.scores.ATTACK_SEEDS`, at most ``n // 10``).
    eccentricity : {"ns", "scored"}
        The propagation's eccentricity rule (:func:`~graphveil.attack.propagation`).
    threads : int, optional
        Threads of the kernels; the numbers do not depend on it.
    node_identity : bool, default True
        The release carries G0's node identities
        (:attr:`Scheme.node_identity <graphveil.anonymize.registry.Scheme.node_identity>`).
        False (a generator dealing synthetic edges to the nodes): the attacks that re-identify
        nodes (:attr:`~graphveil.attack.registry.Attack.reidentifies`) do not apply, are not
        run, and their columns are None, never a 0 that would read as protection.

    Returns
    -------
    dict
        ``link_auc`` (None for a deterministic release, which has no ranking by p),
        ``precision_at_m``, ``link_precision`` and ``link_recall`` of the most-likely world,
        ``reid_rate`` (mean fraction of the core nodes of ``g0`` re-identified in a sampled
        world; :func:`~graphveil.attack.core_nodes`), ``reid_rate_std`` (its spread over the
        attacks, each with its own world, id permutation and seed pairs), ``reid_wrong`` (mean
        wrongly matched fraction), ``reid_accuracy`` (correct among the mapped:
        ``reid_rate / reid_coverage``, None when nothing is mapped), ``reid_coverage`` (mean
        mapped fraction of the core, right or wrong), ``reid_twin_share`` (mean share of the core with a structural
        twin in ``g0``, :func:`~graphveil.attack.structural_twins`: matched only by guessing),
        ``reid_rate_most_likely`` (against the most-likely world), ``attack_samples`` and
        ``attack_seeds``: each attack's :attr:`~graphveil.attack.registry.Attack.columns`, in
        registry order, then the two counts.

    Raises
    ------
    ValueError
        If ``samples < 1``, or the release and ``g0`` differ in their numbers of nodes.
    NotApplicable
        If ``g0`` has no nodes (or the attacks cannot take it otherwise).

    A directed ``g0`` and release are attacked in each attack's directed form
    (:attr:`graphveil.attack.registry.Attack.directed`).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("ca-GrQc")
    >>> s = attack_scores(g, g, samples=2, seed=1)  # the un-anonymized control
    >>> s["link_auc"] is None, s["link_precision"], s["reid_rate"] > 0.6
    (True, 1.0, True)
    """
    samples = check_samples(samples)
    if g0.n == 0:
        raise NotApplicable("the graph has no nodes: there is nothing to attack")
    seeds = default_seeds(g0.n) if seeds is None else seeds
    run = [
        a.name
        for a in REGISTRY.values()
        # no directed form, or nothing to re-identify: their numbers are undefined
        if not (g0.directed and a.directed is None) and not (a.reidentifies and not node_identity)
    ]
    # G0's structural twins, once for every attack that scores re-identification.
    reidentify = any(REGISTRY[name].reidentifies for name in run)
    # (undirected G0 only: on a digraph, directed propagation and the seedless attack read its
    # directed twins and the others its undirected graph's, each computed by the attack)
    twins = structural_twins(g0) if reidentify and not g0.directed else None
    request = ScoreRequest(samples, seed, seeds, eccentricity, threads, twins)
    scores: dict[str, Any] = {}
    for attack in REGISTRY.values():  # each draws its own randomness from `seed`
        if attack.name in run:
            scores.update(attack.score(g0, published, request))
        else:
            scores.update(dict.fromkeys(attack.names()))
    return {**scores, "attack_samples": samples, "attack_seeds": seeds}
