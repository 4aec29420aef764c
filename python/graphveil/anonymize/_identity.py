"""The rule on a scheme's output: a release that is G0 itself (the registry re-exports it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphveil.graph import Graph

__all__ = ["IDENTITY_OUTPUT", "IDENTITY_TOLERANCE", "identity_reason"]

#: How close to 1 a p counts as certain, and to 0 as absent, when a release is compared with G0
#: (a QP's p may miss 1 by rounding).
IDENTITY_TOLERANCE = 1e-9

#: What the CLI and the study say of a release that is G0 itself (:func:`identity_reason`).
IDENTITY_OUTPUT = (
    "the release is the input graph G0: every published pair is a true edge with p = 1 and no "
    "true edge is missing"
)


def identity_reason(graph: Graph, release: Any) -> str | None:
    """``IDENTITY_OUTPUT`` if ``release`` publishes ``graph`` itself, else None.

    The rule on the output, whatever the scheme and its parameters (the parameter rules,
    :attr:`~graphveil.anonymize.registry.Scheme.no_op`, cannot see e.g. TmF at epsilon 50): ``release`` (an
    :class:`~graphveil.UncertainGraph` on ``graph``'s node ids, before any permutation) is G0
    when its pairs with p above ``IDENTITY_TOLERANCE`` are exactly ``graph``'s edges (arcs),
    each with p within the tolerance of 1. A loop or a repeated pair of a relaxed release is no
    edge of G0. O(m) on the pair arrays: both are in canonical order, so no sort is needed.
    The CLI refuses such a release and the study records its point as not applicable, unless
    ``--allow-identity`` (``allow_identity=True``).

    Examples
    --------
    >>> from graphveil import Graph, UncertainGraph
    >>> g = Graph.from_edges([0, 1], [1, 2])
    >>> identity_reason(g, UncertainGraph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 0.0])) is not None
    True
    >>> identity_reason(g, UncertainGraph(3, [0, 1], [1, 2], [1.0, 0.9])) is None
    True
    """
    if release.n != graph.n or release.directed != graph.directed:
        return None
    p = release.p
    published = p > IDENTITY_TOLERANCE
    if int(np.count_nonzero(published)) != graph.m:
        return None
    if not bool(np.all(p[published] >= 1.0 - IDENTITY_TOLERANCE)):
        return None
    gu, gv = graph.edges()
    same = np.array_equal(release.u[published], gu) and np.array_equal(release.v[published], gv)
    return IDENTITY_OUTPUT if same else None
