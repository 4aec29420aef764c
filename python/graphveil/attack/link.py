"""Link inference: how well the published probabilities point at the true edges.

The attacker ranks the published pairs by ``p``. Against the true graph ``G0`` this gives:

- the AUC of ``p`` for the pairs that are edges of ``G0`` against the other published pairs, in the
  Mann-Whitney form (a tie counts one half): the probability that a random true pair outranks a
  random false one;
- precision and recall of the top ``m`` pairs (``m`` = the edges of ``G0``), the attacker's guess of
  the edge set when it knows the edge count. A group of equal ``p`` cut at the ``m``-th place
  contributes its share of true pairs (the mean over every order of the tied pairs), so the
  figures are deterministic and do not depend on the order of the pairs;
- precision and recall of the most-likely world (the pairs with ``p >= 0.5``).

Recall is over all ``m`` edges of ``G0``: an edge missing from the published pairs is never found.
A deterministic release (a :class:`~graphveil.Graph`, or every ``p`` in {0, 1}: RandWalk,
EdgeSwitch, the DP schemes) has no ranking by ``p``: no AUC. Its edge set is its most-likely
world, and its top ``m`` pairs are defined by the tie rule (every published pair ties: an
attacker who knows ``m`` picks ``m`` of them at random), so precision and recall at ``m`` are
reported for it too. Ranking a graph's pairs by their plausibility is
:func:`~graphveil.attack.edge_recovery`.

A directed release is scored on ordered pairs: its pairs ``(u, v)`` are arcs, the true ones are
the arcs of a directed ``G0`` (``u -> v``; the reverse ``v -> u`` is another pair, true only if it
is an arc of G0), ``m`` is G0's number of arcs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphveil import _core
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import UncertainGraph

__all__ = ["LinkInference", "link_inference"]


@dataclass(frozen=True)
class LinkInference:
    """What ranking the published pairs by ``p`` reveals about the edges of ``G0``.

    Attributes
    ----------
    edges : int
        ``m``, the edges of ``G0``.
    pairs : int
        Published pairs (of the strict graph: a relaxed release is simplified first).
    true_pairs : int
        Published pairs that are edges of ``G0``.
    auc : float or None
        AUC of ``p``, true pairs against the other published pairs (ties count half); ``None``
        for a deterministic release or when either class is empty.
    precision_at_m, recall_at_m : float
        Of the ``min(m, pairs)`` pairs of highest ``p``, ties shared (on a deterministic
        release: the share of true pairs among the published, and that many over ``m``).
    likely_edges : int
        Pairs with ``p >= 0.5``: the most-likely world (the edge set of a deterministic release).
    precision, recall : float
        Of the most-likely world (NaN precision when it is empty).
    deterministic : bool
        Every published ``p`` is 0 or 1.
    """

    edges: int
    pairs: int
    true_pairs: int
    auc: float | None
    precision_at_m: float
    recall_at_m: float
    likely_edges: int
    precision: float
    recall: float
    deterministic: bool

    def as_dict(self) -> dict[str, float | int | bool | None]:
        """The fields as a plain dict (for JSON and tables)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def __repr__(self) -> str:
        def f(x: float | None) -> str:
            return "-" if x is None else f"{x:.4f}"

        ranked = "" if self.deterministic else f"auc={f(self.auc)}, "
        ranked += f"precision@m={f(self.precision_at_m)}, recall@m={f(self.recall_at_m)}, "
        kind = "deterministic" if self.deterministic else "uncertain"
        return (
            f"LinkInference({kind}, m={self.edges:,}, pairs={self.pairs:,}, {ranked}"
            f"likely world: {self.likely_edges:,} edges, precision={f(self.precision)}, "
            f"recall={f(self.recall)})"
        )


def _ratio(a: float, b: float) -> float:
    return float(a) / float(b) if b else float("nan")


def link_inference(g0: Graph, published: Graph | UncertainGraph) -> LinkInference:
    """Score the published probabilities as a link predictor for the edges of ``g0``.

    Parameters
    ----------
    g0 : Graph
        The true graph.
    published : UncertainGraph or Graph
        The release on the same node ids as ``g0`` (undo any id permutation first). A relaxed
        uncertain graph is simplified (:meth:`UncertainGraph.simplified`): parallel pairs merged.

    Returns
    -------
    LinkInference

    Raises
    ------
    TypeError
        If ``g0`` is not a Graph or ``published`` neither a Graph nor an UncertainGraph.
    ValueError
        If the two are on different numbers of nodes.

    Notes
    -----
    One C++ pass: the sorted pairs are labelled by a merge with the sorted edges of ``g0``, the
    true and the other probabilities sorted apart, and the AUC counted exactly in integers;
    O(P log P) for P published pairs.

    References
    ----------
    Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section III (the uncertain graph a release publishes).

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 1], [1, 2])
    >>> ug = gv.UncertainGraph(3, [0, 0, 1], [1, 2, 2], [0.9, 0.6, 0.4])
    >>> r = link_inference(g0, ug)
    >>> r.auc, r.precision_at_m, r.precision, r.recall
    (0.5, 0.5, 0.5, 0.5)
    """
    check_graph(g0, "g0", what=None)
    ug = release_on(g0, published).simplified()
    eu, ev = g0.edges()
    dtype = eu.dtype
    pairs, pos, auc2, top_k, top_hits, likely, likely_hits = _core.link_counts(
        ug.u.astype(dtype, copy=False), ug.v.astype(dtype, copy=False), ug.p, eu, ev
    )
    p = ug.p
    deterministic = bool(np.all((p == 0.0) | (p == 1.0)))
    neg = pairs - pos
    ranked = not deterministic
    return LinkInference(
        edges=g0.m,
        pairs=int(pairs),
        true_pairs=int(pos),
        auc=auc2 / (2.0 * pos * neg) if ranked and pos and neg else None,
        precision_at_m=_ratio(top_hits, top_k),
        recall_at_m=_ratio(top_hits, g0.m),
        likely_edges=int(likely),
        precision=_ratio(likely_hits, likely),
        recall=_ratio(likely_hits, g0.m),
        deterministic=deterministic,
    )


def release_on(g0: Graph, published: UncertainGraph | Graph) -> UncertainGraph:
    """``published`` as an uncertain graph on ``g0``'s nodes (a Graph becomes p = 1 pairs).

    The one input check of the attacks: a release must be on the same ``n`` nodes as ``g0``,
    under ``g0``'s ids (map a permuted release back with its run record first), and directed
    exactly when ``g0`` is.
    """
    if isinstance(published, Graph):
        published = UncertainGraph.from_graph(published)
    elif not isinstance(published, UncertainGraph):
        raise TypeError(
            f"published must be a graphveil.UncertainGraph or Graph, got {type(published).__name__}"
        )
    if published.directed != g0.directed:
        raise ValueError(
            f"g0 is {'' if g0.directed else 'un'}directed and the release "
            f"{'' if published.directed else 'un'}directed: attack a directed release with its "
            "directed G0 (or convert both with to_undirected())"
        )
    if published.n != g0.n:
        raise ValueError(
            f"g0 has {g0.n:,} nodes and the release {published.n:,}: both must be on the same nodes "
            "(undo the release's id permutation before measuring)"
        )
    return published
