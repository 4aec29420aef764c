"""Edge recovery from ``p`` and plausibility, and the measured edge-level privacy loss.

The attack of Zhang, Humbert, Surma, Manoharan, Vreeken and Backes ("Towards Plausible Graph
Anonymization", NDSS 2020) on a release: a true edge is not only likely (its ``p``) but
*plausible* (its ends share neighbours in the release), while the pairs a scheme injects are
mostly implausible, except where the scheme picks them plausible by design (MaxVar's
friend-of-friend potential edges). :func:`~graphveil.attack.edge_recovery` scores every
published pair by its plausibility (:func:`~graphveil.attack.plausibility`), trains a logistic
regression on ``(p, plausibility)`` with the labels an attacker can know, and reports its AUC
beside ranking by ``p`` alone and by plausibility alone; a graph-valued release (every ``p`` in
{0, 1}) has plausibility alone.

It also measures the edge-level privacy loss of the release, the quantity edge differential
privacy bounds:

- ``loss``: the empirical ln(TPR / FPR) of the event "the pair is published", TPR the share of
  G0's edges published and FPR the share of G0's non-edges published (N - m of them, counted by
  combinatorics: N = n (n - 1) / 2 pairs, or n (n - 1) ordered pairs of a directed release). An
  uncertain release is a distribution over worlds, so both shares are expectations over its
  worlds: sums of ``p`` over the true and the false pairs.
- ``eps_lower``: a lower bound, at the stated confidence, of the edge-level epsilon the release
  exhibits. Edge DP compares a graph with and without one pair, the rest kept; so the test
  compares G0's edges and non-edges of the same *degree context* (the degrees of the pair's
  ends in G0 without the pair: a stratum), and is "the pair is in stratum s and ``p >= t``"
  (on a graph-valued release: "is published"). The stratum and threshold are chosen on one
  random half of the pairs; on the other half ln(TPR / FPR) is bounded by Clopper-Pearson
  intervals (TPR from below, FPR from above, each at half the error), so the selection does
  not bias the bound. An epsilon-edge-DP scheme that publishes a pair from its own bit and
  independent noise (EdgeFlip, TmF), or from degrees (DGG, DP-1K), then gives at most ``eps``
  with that confidence, while the pooled ``loss`` of DGG is about 4 at eps = 0.5 on ca-GrQc:
  its generator publishes pairs of high-degree nodes, which are more often edges.
  ``-inf`` when the test chosen passes no edge of the second half (no evidence).
- ``inference`` and ``inference_lower``: the same ln(TPR / FPR) and bound for the classifier's
  best threshold. This test reads the pair's *context* (the release around it), so it
  measures inference from the rest of the graph: a true edge closes triangles of G0 that the
  release keeps. Edge DP does not bound that (neighbouring graphs differ in one pair, its
  context kept; Kifer and Machanavajjhala, "No free lunch in data privacy", SIGMOD 2011):
  EdgeFlip at eps = 5 on ca-GrQc gives about 14. It says what an attacker learns about edges,
  not a DP guarantee broken.

Threat model of the classifier: the attacker holds the release and the true labels (edge of G0
or not) of a random ``known`` share of the published pairs (friendships it knows, and pairs it
knows are not friends); it learns from them only. The pairs are split at random in two halves:
the known pairs are drawn from the first, which also chooses the thresholds of the bounds; the
AUCs and the bounds are measured on the second half, whose labels the attacker never saw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphveil._checks import check_real
from graphveil._common import in_sorted
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.attack.link import release_on
from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = ["EdgeRecovery", "edge_recovery", "plausibility"]

#: Share of the published pairs whose labels the attacker knows (its training set).
DEFAULT_KNOWN = 0.1

#: Confidence of the lower bounds (one-sided, jointly over TPR and FPR).
DEFAULT_CONFIDENCE = 0.95

#: Neighbour look-ups per block of :func:`plausibility`: bounds its memory (about 40 bytes each).
_BLOCK = 1 << 22

#: Ridge of the logistic regression (on standardised features): keeps Newton finite when the
#: known pairs are separable (a release whose p alone splits them).
_RIDGE = 1.0


@dataclass(frozen=True)
class EdgeRecovery:
    """What ``p`` and plausibility reveal about the edges of ``G0``, and the edge-level loss.

    Attributes
    ----------
    edges : int
        ``m``, the edges (arcs) of ``G0``.
    pairs, true_pairs : int
        Published pairs (of the strict graph), and those that are edges of ``G0``.
    known : float
        Share of the published pairs whose labels trained the classifier.
    auc, auc_p, auc_plausibility : float or None
        On the held-out half of the published pairs: AUC of the classifier on
        ``(p, plausibility)``, of ``p`` alone (None on a graph-valued release) and of
        plausibility alone (ties count half). None when a class is empty.
    tpr, fpr : float or None
        Expected shares of G0's edges and of its non-edges published (sums of ``p``).
    loss : float or None
        ``ln(tpr / fpr)``: infinite when no non-edge is published, None when undefined.
    eps_lower : float or None
        Lower bound (at ``confidence``) of ln(TPR / FPR) of the best ``p`` threshold.
    inference, inference_lower : float or None
        ln(TPR / FPR) of the classifier's best threshold on the held-out half, and its lower
        bound (at ``confidence``): inference from the release around a pair, not bounded by
        edge DP (see the module docstring).
    confidence : float
        Of the lower bounds.
    deterministic : bool
        Every published ``p`` is 0 or 1.
    """

    edges: int
    pairs: int
    true_pairs: int
    known: float
    auc: float | None
    auc_p: float | None
    auc_plausibility: float | None
    tpr: float | None
    fpr: float | None
    loss: float | None
    eps_lower: float | None
    inference: float | None
    inference_lower: float | None
    confidence: float
    deterministic: bool

    def as_dict(self) -> dict[str, float | int | bool | None]:
        """The fields as a plain dict (for JSON and tables)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def plausibility(published: UncertainGraph | Graph) -> np.ndarray:
    """The plausibility of every published pair: resource allocation on the p-weighted graph.

    For the pair ``(u, v)`` of the strict release (:meth:`UncertainGraph.simplified`, in its
    order), ``sum over w of p(u, w) p(w, v) / d(w)``, with ``d(w)`` the expected degree of
    ``w`` (directed: ``u -> w -> v`` paths, ``d(w)`` the expected in- plus out-degree).

    Why this score: the resource-allocation index is among the strongest local link predictors
    (Zhou, Lü and Zhang, Eur. Phys. J. B 71, 2009), it never reads ``p(u, v)`` itself (so it
    is the pair's *context*, independent of the pair's own noise), weighting by ``p`` lets a
    low-``p`` injected pair count little, and dividing by ``d(w)`` keeps hubs from making
    every pair plausible. It costs one merge of the two ends' sorted neighbour lists per pair,
    O(d(u) + d(v)), in scipy's C code, over blocks of pairs of bounded memory, never an n x n
    matrix (the full product A D^-1 A would cost sum d(w)^2 and hold every pair at distance
    2); a spectral embedding would need an eigensolver per release for a similar signal.
    Measured: 1.85 million pairs (EdgeFlip at eps = 6 on email-Enron, mean degree 100) in
    about 18 s on one core. A C++ kernel would do the same merge in parallel over blocks of
    pairs, intersecting from the lower-degree end (O(min(d(u), d(v)) log d) per pair).

    Parameters
    ----------
    published : UncertainGraph or Graph
        The release (a Graph is every edge at ``p = 1``).

    Returns
    -------
    numpy.ndarray
        float64, one value >= 0 per pair of ``published.simplified()``.

    Examples
    --------
    >>> import graphveil as gv
    >>> ug = gv.UncertainGraph(4, [0, 0, 1, 2], [1, 2, 2, 3], [1.0, 1.0, 0.5, 1.0])
    >>> plausibility(ug).round(3).tolist()  # (0, 1): 1 * 0.5 / 2.5 through node 2
    [0.2, 0.333, 0.5, 0.0]
    """
    if isinstance(published, Graph):
        published = UncertainGraph.from_graph(published)
    ug = published.simplified()
    out = ug.to_scipy().tocsr()
    out.sum_duplicates()
    inn = out.T.tocsr() if ug.directed else out
    inn.sum_duplicates()
    degree = np.asarray(out.sum(axis=1)).ravel()
    if ug.directed:
        degree = degree + np.asarray(out.sum(axis=0)).ravel()
    return _resource_allocation(ug.u, ug.v, out, inn, degree)


def _resource_allocation(
    u: np.ndarray, v: np.ndarray, out: Any, inn: Any, degree: np.ndarray
) -> np.ndarray:
    """``sum_w out[u, w] inn[v, w] / degree[w]`` per pair, by blocks of rows.

    Each block takes the pairs' rows of ``out`` and of ``inn`` scaled by ``1 / degree`` and
    multiplies them entry by entry: scipy merges the two sorted rows of a pair in C, in
    O(d(u) + d(v)), and the block's look-ups (about :data:`_BLOCK`) bound its memory.
    """
    score = np.zeros(u.size)
    if u.size == 0:
        return score
    weight = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
    scaled = (inn @ sp.diags_array(weight)).tocsr()
    scaled.sort_indices()
    out.sort_indices()
    size = np.diff(out.indptr)[u].astype(np.int64) + np.diff(scaled.indptr)[v]
    for lo, hi in _blocks(np.concatenate(([0], np.cumsum(size)))):
        both = out[u[lo:hi]].multiply(scaled[v[lo:hi]])
        score[lo:hi] = np.asarray(both.sum(axis=1)).ravel()
    return score


def _blocks(bounds: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive pair ranges ``[lo, hi)`` of about :data:`_BLOCK` look-ups each."""
    out = []
    lo, total = 0, bounds.size - 1
    while lo < total:
        hi = int(np.searchsorted(bounds, bounds[lo] + _BLOCK, side="right")) - 1
        hi = min(max(hi, lo + 1), total)
        out.append((lo, hi))
        lo = hi
    return out


def _logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge logistic regression by Newton's method: weights of ``[1, x]`` (x standardised)."""
    a = np.column_stack([np.ones(len(x)), x])
    ridge = np.full(a.shape[1], _RIDGE)
    ridge[0] = 0.0  # the intercept is free
    w = np.zeros(a.shape[1])
    for _ in range(50):
        z = np.clip(a @ w, -30.0, 30.0)
        q = 1.0 / (1.0 + np.exp(-z))
        grad = a.T @ (q - y) + ridge * w
        hess = (a * (q * (1.0 - q))[:, None]).T @ a + np.diag(ridge + 1e-12)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def _auc(y: np.ndarray, score: np.ndarray) -> float | None:
    """Mann-Whitney AUC of ``score`` for ``y`` (ties count half); None if a class is empty."""
    from scipy.stats import rankdata  # scipy.stats is slow to import: on first use

    pos = int(y.sum())
    neg = y.size - pos
    if pos == 0 or neg == 0:
        return None
    ranks = rankdata(score)
    return float((ranks[y].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


def _classifier(features: np.ndarray, y: np.ndarray, train: np.ndarray) -> np.ndarray:
    """The attacker's score of every pair, learnt from the pairs ``train`` only.

    Features constant on the training pairs are dropped (``p`` of a graph-valued release).
    When the known pairs hold one class only there is nothing to learn from: the score is the
    sum of the standardised features (both point to an edge).
    """
    if len(features) == 0:
        return np.zeros(0)
    x = features[train] if np.count_nonzero(train) >= 2 else features
    mean, scale = x.mean(axis=0), x.std(axis=0)
    keep = scale > 0
    if not keep.any():
        return np.zeros(len(features))
    z = (features[:, keep] - mean[keep]) / scale[keep]
    labels = y[train]
    if labels.all() or not labels.any():  # also when nothing is known
        return np.asarray(z.sum(axis=1))
    w = _logistic(z[train], labels.astype(float))
    return np.asarray(z @ w[1:])


def _lower_bound(tp: Any, pos: Any, fp: Any, neg: Any, alpha: float) -> np.ndarray:
    """Clopper-Pearson ln(TPR_low / FPR_high), each rate one-sided at ``alpha / 2``.

    ``tp`` of ``pos`` edges and ``fp`` of ``neg`` non-edges passed the test; -inf when no edge
    did (no evidence).
    """
    from scipy.stats import beta  # scipy.stats is slow to import: on first use

    tp, pos, fp, neg = (np.asarray(x, dtype=float) for x in (tp, pos, fp, neg))
    tpr_low = np.where(tp > 0, beta.ppf(alpha / 2, np.maximum(tp, 1), pos - tp + 1), 0.0)
    fpr_high = np.where(fp < neg, beta.ppf(1 - alpha / 2, fp + 1, np.maximum(neg - fp, 1)), 1.0)
    with np.errstate(divide="ignore"):
        return np.asarray(np.log(tpr_low) - np.log(fpr_high))


def _log_ratio(tp: float, pos: int, fp: float, neg: int) -> float | None:
    """ln((tp / pos) / (fp / neg)): inf when fp = 0 < tp, None when undefined."""
    if pos <= 0 or neg <= 0 or (tp <= 0 and fp <= 0):
        return None
    if fp <= 0:
        return math.inf
    if tp <= 0:
        return -math.inf
    return math.log(tp / pos) - math.log(fp / neg)


def _held_out_bound(
    score: np.ndarray,
    y: np.ndarray,
    half: np.ndarray,
    stratum: np.ndarray,
    counts: tuple[np.ndarray, ...],
    alpha: float,
) -> tuple[float | None, float | None]:
    """The best test "stratum s and score >= t", chosen on the first half, bounded on the second.

    ``stratum`` numbers the published pairs' strata (0 for every pair: one pooled stratum);
    ``counts = (pos_a, neg_a, pos_b, neg_b)`` are, per stratum, G0's edges and non-edges in each
    half, published or not. The test of the highest Clopper-Pearson bound on the first half is
    measured on the second: returns its ln(TPR / FPR) there and the bound. None when no stratum
    has both classes in both halves.
    """
    pos_a, neg_a, pos_b, neg_b = counts
    first = ~half
    order = np.lexsort((-score[first], stratum[first]))
    sc, st, yy = score[first][order], stratum[first][order], y[first][order]
    valid = (pos_a > 0) & (neg_a > 0) & (pos_b > 0) & (neg_b > 0)
    if sc.size == 0 or not valid[st].any():
        return None, None
    tp = np.cumsum(yy)
    fp = np.cumsum(~yy)
    start = np.flatnonzero(np.r_[True, st[1:] != st[:-1]])  # each stratum's first pair
    group = np.cumsum(np.r_[True, st[1:] != st[:-1]]) - 1
    tp -= (tp - yy)[start][group]  # counts within the stratum
    fp -= (fp - ~yy)[start][group]
    cut = np.flatnonzero(np.r_[(st[1:] != st[:-1]) | (sc[1:] != sc[:-1]), True])
    s = st[cut]
    bounds = np.where(valid[s], _lower_bound(tp[cut], pos_a[s], fp[cut], neg_a[s], alpha), -np.inf)
    best = int(np.argmax(bounds))
    j, threshold = s[best], sc[cut[best]]
    passed = (stratum[half] == j) & (score[half] >= threshold)
    tp_b = int(np.sum(passed & y[half]))
    fp_b = int(np.sum(passed & ~y[half]))
    bound = float(_lower_bound(tp_b, pos_b[j], fp_b, neg_b[j], alpha))
    return _log_ratio(tp_b, int(pos_b[j]), fp_b, int(neg_b[j])), bound


def _split(
    rng: np.random.Generator,
    totals: tuple[np.ndarray, np.ndarray],
    published: tuple[np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, ...]:
    """Per stratum, G0's edges and non-edges of each half: ``(pos_a, neg_a, pos_b, neg_b)``.

    ``totals``: edges and non-edges per stratum; ``published``: those published;
    ``second``: those published in the second half. Every unpublished pair falls in the second
    half with probability 1/2, as each published one did.
    """
    pos_b = second[0] + rng.binomial(totals[0] - published[0], 0.5)
    neg_b = second[1] + rng.binomial(totals[1] - published[1], 0.5)
    return totals[0] - pos_b, totals[1] - neg_b, pos_b, neg_b


def _degree_strata(
    g0: Graph, u: np.ndarray, v: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each published pair's stratum, and G0's edges and non-edges of every stratum.

    A pair's stratum is the degrees of its ends in G0 *without the pair*: ``(d(u) - 1, d(v) -
    1)`` for an edge, ``(d(u), d(v))`` for a non-edge (unordered for an undirected G0; the total
    degree, in plus out, of a directed one). Within a stratum an edge and a non-edge have the
    same degree context, and the edge is what one more pair adds to it: the comparison edge DP
    bounds. The strata's sizes come from G0's degree histogram (no pair is enumerated).
    """
    n = g0.n
    deg = g0.degrees.astype(np.int64)
    if g0.directed:
        deg = g0.out_degrees.astype(np.int64) + g0.in_degrees.astype(np.int64)
    nodes = np.bincount(deg)  # nodes of each degree
    base = int(deg.max()) + 2 if n else 2

    def key(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if g0.directed:
            return np.asarray(a * base + b)
        return np.asarray(np.minimum(a, b) * base + np.maximum(a, b))

    eu, ev = (x.astype(np.int64) for x in g0.edges())
    one = y.astype(np.int64)
    strata, index = np.unique(key(deg[u] - one, deg[v] - one), return_inverse=True)
    a, b = np.divmod(strata, base)
    if g0.directed:  # ordered pairs of distinct nodes with these degrees
        pairs = nodes[a] * nodes[b] - np.where(a == b, nodes[a], 0)
    else:
        pairs = np.where(a == b, nodes[a] * (nodes[a] - 1) // 2, nodes[a] * nodes[b])
    positives = _count_in(key(deg[eu] - 1, deg[ev] - 1), strata)
    negatives = pairs - _count_in(key(deg[eu], deg[ev]), strata)
    return index.reshape(-1), positives, negatives


def _count_in(keys: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """How many of ``keys`` equal each of the sorted ``strata``."""
    values, counts = np.unique(keys, return_counts=True)
    if values.size == 0:
        return np.zeros(strata.size, dtype=np.int64)
    at = np.minimum(np.searchsorted(values, strata), values.size - 1)
    return np.where(values[at] == strata, counts[at], 0).astype(np.int64)


def _bincount(index: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(index, minlength=size).astype(np.int64)


def _labels(g0: Graph, ug: UncertainGraph) -> np.ndarray:
    """Which pairs of the strict release ``ug`` are edges (arcs) of ``g0``."""
    n = g0.n
    eu, ev = g0.edges()
    u, v = ug.u.astype(np.int64), ug.v.astype(np.int64)
    eu, ev = eu.astype(np.int64), ev.astype(np.int64)
    if not g0.directed:  # an undirected pair is (min, max)
        eu, ev = np.minimum(eu, ev), np.maximum(eu, ev)
        u, v = np.minimum(u, v), np.maximum(u, v)
    return in_sorted(u * n + v, np.sort(eu * n + ev))


def edge_recovery(
    g0: Graph,
    published: UncertainGraph | Graph,
    *,
    known: float = DEFAULT_KNOWN,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: SeedLike = None,
) -> EdgeRecovery:
    """Recover the edges of ``g0`` from a release's ``p`` and plausibility; measure the edge loss.

    See the module docstring (:mod:`graphveil.attack.edges`) for the attack, its threat model
    and what each number means.

    Parameters
    ----------
    g0 : Graph
        The true graph.
    published : UncertainGraph or Graph
        The release on ``g0``'s node ids (undo any id permutation first); a relaxed release is
        simplified (:meth:`UncertainGraph.simplified`).
    known : float
        Share of the published pairs whose labels the attacker knows, in (0, 0.5].
    confidence : float
        Of the lower bounds, in [0.5, 1).
    seed : int, numpy.random.Generator or None
        Randomness of the split of the pairs and of the known pairs.

    Returns
    -------
    EdgeRecovery

    Raises
    ------
    TypeError
        If ``g0`` is not a Graph or ``published`` neither a Graph nor an UncertainGraph.
    ValueError
        If the two differ in nodes or direction, or ``known`` or ``confidence`` is out of range.

    References
    ----------
    Y. Zhang, M. Humbert, B. Surma, P. Manoharan, J. Vreeken, M. Backes, "Towards Plausible
    Graph Anonymization", NDSS 2020. C. J. Clopper, E. S. Pearson, "The use of confidence or
    fiducial limits illustrated in the case of the binomial", Biometrika 26, 1934.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import edgeflip
    >>> g = gv.datasets.load("ca-GrQc")
    >>> ug, _ = edgeflip(g, epsilon=5.0, seed=1)
    >>> r = edge_recovery(g, ug, seed=1)
    >>> round(r.loss, 1), r.eps_lower <= 5.0, r.auc > 0.85, r.inference_lower > 5.0
    (5.0, True, True, True)
    """
    if not isinstance(g0, Graph):
        raise TypeError(f"g0 must be a graphveil.Graph, got {type(g0).__name__}")
    known = check_real(known, "known", 0.0, 0.5, open_low=True)
    confidence = check_real(confidence, "confidence", 0.5, 1.0)
    if confidence >= 1.0:
        raise ValueError("confidence must be below 1 (a bound at confidence 1 is -inf)")
    ug = release_on(g0, published).simplified()
    n, m, p = g0.n, g0.m, ug.p
    negatives = (n * (n - 1) if g0.directed else n * (n - 1) // 2) - m
    y = _labels(g0, ug)
    plaus = plausibility(ug)
    rng = np.random.default_rng(seed_to_u64(seed))
    held_out = rng.random(p.size) < 0.5  # the second half: AUCs and bounds
    train = ~held_out & (rng.random(p.size) < 2.0 * known)  # the known pairs, in the first
    score = _classifier(np.column_stack([p, np.log1p(plaus)]), y, train)
    deterministic = bool(np.all((p == 0.0) | (p == 1.0)))
    true_mass, false_mass = float(p[y].sum()), float(p[~y].sum())
    true_pub = int(y.sum())
    alpha = 1.0 - confidence
    u, v = ug.u.astype(np.int64), ug.v.astype(np.int64)
    stratum, positives, negatives_by = _degree_strata(g0, u, v, y)
    counts = _split(
        rng,
        (positives, negatives_by),
        (_bincount(stratum[y], positives.size), _bincount(stratum[~y], positives.size)),
        (
            _bincount(stratum[y & held_out], positives.size),
            _bincount(stratum[~y & held_out], positives.size),
        ),
    )
    _, eps_lower = _held_out_bound(p, y, held_out, stratum, counts, alpha)
    pooled = _split(
        rng,
        (np.array([m]), np.array([negatives])),
        (np.array([true_pub]), np.array([p.size - true_pub])),
        (np.array([int((y & held_out).sum())]), np.array([int((~y & held_out).sum())])),
    )
    one = np.zeros(p.size, dtype=np.int64)
    inference, inference_lower = _held_out_bound(score, y, held_out, one, pooled, alpha)
    yh = y[held_out]
    return EdgeRecovery(
        edges=m,
        pairs=int(p.size),
        true_pairs=true_pub,
        known=known,
        auc=_auc(yh, score[held_out]),
        auc_p=None if deterministic else _auc(yh, p[held_out]),
        auc_plausibility=_auc(yh, plaus[held_out]),
        tpr=true_mass / m if m else None,
        fpr=false_mass / negatives if negatives > 0 else None,
        loss=_log_ratio(true_mass, m, false_mass, negatives),
        eps_lower=eps_lower,
        inference=inference,
        inference_lower=inference_lower,
        confidence=confidence,
        deterministic=deterministic,
    )
