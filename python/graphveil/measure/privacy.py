"""Privacy measures: the re-identification scores H1 and H2_open, and eps of (k, eps)-obfuscation.

Re-identification scores (Section VI-A of the paper)
----------------------------------------------------
A structural query gives every node a *signature*; nodes with equal signatures form an
equivalence class. H1 uses the degree; H2_open uses the *set* (not multiset) of the
neighbours' degrees. For a published graph ``g`` and the true graph ``g0`` on the same nodes,
node ``u`` is re-identified with probability ``1 / |C|`` where ``C`` is the class of ``g``
holding ``u``'s *original* signature, if ``u`` is in ``C``, and 0 otherwise. The score is the
sum over all nodes (lower is better); on ``g0`` itself it is the number of classes.

Signatures are hashed in C++ and grouped by exact comparison of the sorted sets inside every
run of equal hashes, so a hash collision can never merge two classes. The authors' code
(``graph-dp/compare/attack_structure_igraph.py``) did not fully remove duplicate degrees from
the H2_open lists (a loop-bound bug); here the signatures are true sets.

(k, eps)-obfuscation check (Section III-B, Boldi et al. VLDB 2012)
------------------------------------------------------------------
In an uncertain graph the degree of ``v`` is Poisson-binomial: ``X_v(d) = Pr[deg v = d]``,
computed exactly by convolution in C++ for *every* node (the authors' code replaced the law
of nodes above degree 5,000 by a uniform one). For each degree value ``d``:
``S_d = sum_v X_v(d)`` and ``H_d`` is the entropy, in bits, of ``Y_d(v) = X_v(d) / S_d``,
accumulated in one streaming pass as ``H_d = log2 S_d - (sum_v X_v(d) log2 X_v(d)) / S_d``.
A node ``v`` whose degree in ``g0`` is ``d_v`` is k-obfuscated iff ``H_{d_v} >= log2 k``;
``eps`` is the fraction of nodes that are not. For a deterministic graph ``H_d`` is
``log2`` of the number of nodes of degree ``d``.

Differences from the authors' ``compute_eps_multi`` (``graph-dp/src/entropy_obfuscation_igraph.py``),
which under-counts failures:

* it skipped every node whose degree column has entropy exactly 0 (``ent[deg] > 0`` test), i.e.
  precisely the nodes that are uniquely identified; here ``H = 0 < log2 k`` fails them;
* it skipped nodes whose original degree exceeds the output's maximum degree; here such a
  degree has ``S_d = 0``, entropy 0, and the node fails;
* it dropped ``Y`` values below 1e-6 from the entropy sum and used a uniform law for nodes of
  degree above 5,000; here every term counts and every law is exact.

Relaxed models (RandWalk-mod, Mixture): every pair is one independent Bernoulli trial. A pair
``(u, w)`` with ``u != w`` counts for both ends (parallel pairs count separately); a self-loop
``(u, u)`` adds 2 to ``u``'s degree (the adjacency matrix of Theorem 3.1): the degree is the row
sum of the uncertain adjacency matrix, so its mean is :meth:`UncertainGraph.expected_degrees`.
The same holds for a deterministic relaxed release (the printed RandWalk-mod, every p = 1): eps
is then that of its multigraph degrees, as the authors' ``compute_eps_deterministic_multi``
read them from a ``networkx.MultiGraph``.

H1 and H2_open of a multigraph world (:class:`~graphveil.multigraph.Multigraph`, a world of a
relaxed release) follow the authors' ``incorrectness_measure_multigraph.py``, which read each
world as a ``networkx.MultiGraph``: the degree counts every copy of a pair and a loop twice, and
H2_open is the set of those degrees over the node's distinct neighbours, the node itself among
them if it has a loop (``MultiGraph.neighbors``). G0 is simple, so its signatures are unchanged.

``H_d >= log2 k`` is tested with a tolerance of 1e-9 bits so that a degree held by exactly
``k`` sure nodes passes whatever the last bit of the logarithm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, cast, overload

import numpy as np
import scipy.sparse as sp

from graphveil import _core
from graphveil._checks import check_int, check_ints, check_threads
from graphveil._common import aligned
from graphveil.graph import Graph, check_graph
from graphveil.measure import directed
from graphveil.multigraph import Multigraph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "SignatureIndex",
    "degree_distributions",
    "degree_entropy",
    "directed_eps",
    "eps",
    "h1",
    "h2_open",
    "num_signatures",
    "reidentification_score",
    "signature_classes",
    "signature_index",
]

SignatureKind = Literal["h1", "h2_open"]

#: Tolerance (bits) of the test ``H_d >= log2 k``.
ENTROPY_TOLERANCE = 1e-9


# ---------------------------------------------------------------------------------------------
# re-identification scores


def _check_graph(g: Any, name: str, *, what: str = "this measure") -> Graph:
    return check_graph(g, name, what=what)


def _check_kind(kind: str) -> str:
    if kind not in ("h1", "h2_open"):
        raise ValueError(f"kind must be 'h1' or 'h2_open', got {kind!r}")
    return kind


@dataclass(frozen=True, eq=False)
class SignatureIndex:
    """G0's signature classes under one kind, computed once by :func:`signature_index`.

    A score against it computes only the published graph's signatures: pass it as ``g0`` to
    :func:`reidentification_score`, :func:`h1` or :func:`h2_open` (the kind must match). The
    score is bit-identical to the one against the graph itself.

    Attributes
    ----------
    kind : {"h1", "h2_open"}
    n : int
        Nodes of G0.
    classes : numpy.ndarray of int64
        Class of every node (as :func:`signature_classes`).
    keys, rep_ptr, rep_values : numpy.ndarray
        Per class, the key and the sorted values of its signature (the C++ kernel's form):
        class ``c`` is ``rep_values[rep_ptr[c]:rep_ptr[c + 1]]``; ``rep_values`` has G0's
        index width.
    weak_hash : bool
        The test hook forcing hash collisions (see ``_score``); scores use the same hash.
    """

    kind: str
    n: int
    classes: np.ndarray
    keys: np.ndarray
    rep_ptr: np.ndarray
    rep_values: np.ndarray
    weak_hash: bool = False

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update({key: aligned(value) for key, value in state.items()})

    @property
    def count(self) -> int:
        """Number of classes: G0's score against itself."""
        return int(self.keys.size)


def signature_index(
    g0: Graph, kind: SignatureKind = "h1", *, threads: int | None = None
) -> SignatureIndex:
    """G0's signature classes, computed once for many scores against G0.

    Parameters
    ----------
    g0 : Graph
        The true graph.
    kind : {"h1", "h2_open"}
    threads : int, optional
        Worker threads; the index does not depend on it.

    Returns
    -------
    SignatureIndex

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])  # path: {2} {1,2} {1,2} {2}
    >>> index = signature_index(g0, "h2_open")
    >>> index.count, h2_open(index, g0) == h2_open(g0, g0)
    (2, True)
    """
    return _signature_index(
        _check_graph(g0, "g0", what="signature_index"), _check_kind(kind), threads, False
    )


def _signature_index(g0: Graph, kind: str, threads: int | None, weak_hash: bool) -> SignatureIndex:
    classes, keys, rep_ptr, rep_values = _core.signature_index(
        g0.indptr, g0.indices, kind, check_threads(threads), weak_hash
    )
    return SignatureIndex(kind, g0.n, classes, keys, rep_ptr, rep_values, weak_hash)


def _score(
    g0: Graph | SignatureIndex,
    g: Graph | Multigraph,
    kind: str,
    threads: int | None,
    weak_hash: bool,
) -> tuple[float, int, int, int]:
    # A multigraph's CSR lists every copy of a neighbour (a loop twice in its own row): the
    # kernel's degree is the row length and its H2_open set dedups the repeated values, which
    # is exactly the authors' MultiGraph rule (see the module docstring).
    if not isinstance(g, Multigraph):
        _check_graph(g, "g", what="the re-identification scores (H1, H2_open)")
    _check_kind(kind)
    if not isinstance(g0, SignatureIndex):
        _check_graph(g0, "g0", what="the re-identification scores (H1, H2_open)")
    if g0.n != g.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and g has {g.n}: both graphs must be on the same node set 0..n-1 "
            "(a published sample keeps every node, isolated ones included)"
        )
    if isinstance(g0, SignatureIndex):
        if g0.kind != kind:
            raise ValueError(
                f"g0 is a signature index of kind {g0.kind!r} and the score asks {kind!r}: "
                f"build it with signature_index(g0, {kind!r})"
            )
        # G0 and its samples share n, so they share the index width; cast the small
        # representatives array if a caller built g on another width.
        reps = g0.rep_values.astype(g.indices.dtype, copy=False)
        result = _core.reidentification_score_indexed(
            g0.classes, g0.keys, g0.rep_ptr, reps, g.indptr, g.indices, kind,
            check_threads(threads), g0.weak_hash,
        )  # fmt: skip
    else:
        result = _core.reidentification_score(
            g0.indptr, g0.indices, g.indptr, g.indices, kind, check_threads(threads), weak_hash
        )
    score, matched, c0, c1 = result
    return float(score), int(matched), int(c0), int(c1)


def reidentification_score(
    g0: Graph | SignatureIndex,
    g: Graph | Multigraph,
    kind: SignatureKind = "h1",
    *,
    threads: int | None = None,
) -> float:
    """Sum over the nodes of their re-identification probability in ``g`` (Section VI-A).

    Parameters
    ----------
    g0 : Graph or SignatureIndex
        The true graph, or its :func:`signature_index` of the same ``kind`` (computed once for
        many scores: the result is the same).
    g : Graph or Multigraph
        A published deterministic graph (e.g. a sample of an uncertain graph) on the same
        nodes ``0..n-1``; a multigraph is scored by the authors' multigraph rule (the module
        docstring).
    kind : {"h1", "h2_open"}
        The signature: the degree (H1) or the set of neighbours' degrees (H2_open).
    threads : int, optional
        Worker threads (0 or None: all cores). The result does not depend on it.

    Returns
    -------
    float
        ``sum_u [u in C(u)] / |C(u)|`` with ``C(u)`` the nodes of ``g`` whose signature equals
        ``u``'s signature in ``g0``. Lower is better; on ``g0`` itself it is the number of
        distinct signatures.

    Raises
    ------
    TypeError
        If ``g0`` or ``g`` is not a :class:`graphveil.Graph`.
    ValueError
        If the graphs have different node counts, ``kind`` is unknown or differs from the
        index's.

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])  # a path: degrees 1 2 2 1
    >>> reidentification_score(g0, g0, "h1")
    2.0

    References
    ----------
    Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section VI-A (Example 5.1, Table 5).
    """
    if getattr(g0, "directed", False) or getattr(g, "directed", False):
        return _directed_score(g0, g, _check_kind(kind))
    return _score(g0, g, kind, threads, False)[0]


def _directed_score(g0: Any, g: Any, kind: str) -> float:
    """H1 / H2_open of directed graphs: the signatures of :mod:`graphveil.measure.directed`."""
    for name, graph in (("g0", g0), ("g", g)):
        if not isinstance(graph, Graph) or not graph.directed:
            raise TypeError(
                f"{name} must be a directed graphveil.Graph when the other is directed, got "
                f"{graph!r}; score directed graphs against directed graphs (or convert both "
                "with to_undirected())"
            )
    if g0.n != g.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and g has {g.n}: both graphs must be on the same node set 0..n-1"
        )
    return directed.directed_score(g0, g, kind)


def h1(g0: Graph | SignatureIndex, g: Graph | Multigraph, *, threads: int | None = None) -> float:
    """H1 score of ``g`` against ``g0``: signatures are node degrees.

    Directed graphs (both): the signature is the pair (in-degree, out-degree)
    (:mod:`graphveil.measure.directed`).

    See :func:`reidentification_score` for parameters and the definition.

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 0, 0], [1, 2, 3])  # a star
    >>> h1(g0, g0)
    2.0
    """
    return reidentification_score(g0, g, "h1", threads=threads)


def h2_open(
    g0: Graph | SignatureIndex, g: Graph | Multigraph, *, threads: int | None = None
) -> float:
    """H2_open score of ``g`` against ``g0``: signatures are sets of neighbours' degrees.

    Directed graphs (both): the pair of sets of the out-neighbours' and of the in-neighbours'
    (in, out) degree pairs (:mod:`graphveil.measure.directed`).

    See :func:`reidentification_score` for parameters and the definition.

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])  # path: {2} {1,2} {1,2} {2}
    >>> h2_open(g0, g0)
    2.0
    """
    return reidentification_score(g0, g, "h2_open", threads=threads)


def num_signatures(g: Graph, kind: SignatureKind = "h1", *, threads: int | None = None) -> int:
    """Number of distinct signatures (equivalence classes) of ``g``: its score against itself.

    Parameters
    ----------
    g : Graph
    kind : {"h1", "h2_open"}
    threads : int, optional

    Returns
    -------
    int
    """
    if getattr(g, "directed", False) is True:  # the directed signatures (measure.directed)
        return int(round(_directed_score(g, g, _check_kind(kind))))
    return _score(g, g, kind, threads, False)[2]


def signature_classes(
    g: Graph, kind: SignatureKind = "h1", *, threads: int | None = None
) -> np.ndarray:
    """Equivalence class of every node of ``g`` under the signature ``kind``.

    Returns
    -------
    numpy.ndarray of int64
        Dense class ids ``0..classes-1``, numbered in order of the first node holding each
        signature; equal ids iff equal signatures (compared exactly, not by hash).
    """
    _check_graph(g, "g", what="signature_classes")
    _check_kind(kind)
    return _core.signature_classes(g.indptr, g.indices, kind, check_threads(threads), False)


# ---------------------------------------------------------------------------------------------
# degree distributions, entropy and eps


def _pairs(ug: UncertainGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    u = np.ascontiguousarray(ug.u)
    v = np.ascontiguousarray(ug.v, dtype=u.dtype)
    p = np.ascontiguousarray(ug.p, dtype=np.float64)
    return u, v, p


def _check_published(g: Any, name: str = "published") -> Graph | UncertainGraph:
    if not isinstance(g, (Graph, UncertainGraph)):
        raise TypeError(
            f"{name} must be a graphveil.UncertainGraph or Graph, got {type(g).__name__}"
        )
    return g


def degree_distributions(ug: UncertainGraph | Graph, *, threads: int | None = None) -> sp.csr_array:
    """The exact degree distribution ``X_v(d) = Pr[deg v = d]`` of every node.

    Parameters
    ----------
    ug : UncertainGraph or Graph
        A deterministic graph gives one-point laws.
    threads : int, optional

    Returns
    -------
    scipy.sparse.csr_array, shape (n, max possible degree + 1)
        Row ``v`` is ``X_v``; row ``v`` stores entries ``0..d_v`` where ``d_v`` is the number of
        pairs at ``v`` with ``p > 0`` (explicit zeros kept), so memory is ``O(n + pairs)``.
        Meant for inspection and tests; :func:`eps` never builds it.

    Notes
    -----
    Poisson-binomial by exact convolution, ``O(d_v^2)`` per node; a self-loop of a relaxed
    model adds 2 to its node's degree (see the module notes).
    """
    # a directed graph's total degree (in + out): every pair counts at both ends, as here
    _check_published(ug, "ug")
    if isinstance(ug, Graph):
        ug = UncertainGraph.from_graph(ug)
    u, v, p = _pairs(ug)
    offsets, values = _core.degree_distributions(ug.n, u, v, p, check_threads(threads))
    lengths = np.diff(offsets)
    cols = np.arange(values.size, dtype=np.int64) - np.repeat(offsets[:-1], lengths)
    width_cols = int(lengths.max()) if lengths.size else 0
    return sp.csr_array((values, cols, offsets), shape=(ug.n, width_cols))


def degree_entropy(published: UncertainGraph | Graph, *, threads: int | None = None) -> np.ndarray:
    """Entropy ``H_d`` (bits) of the node distribution ``Y_d`` for every degree value ``d``.

    Parameters
    ----------
    published : UncertainGraph or Graph
    threads : int, optional
        Worker threads; the result is bit-identical for any value.

    Returns
    -------
    numpy.ndarray of float64
        ``H[d]`` for ``d = 0 .. D``, ``D`` the largest degree with positive probability.
        ``H[d] = 0`` where no node can have degree ``d``. For a Graph,
        ``H[d] = log2(number of nodes of degree d)``.

    Examples
    --------
    The four-node uncertain graph of Table 2 of the paper:

    >>> import graphveil as gv
    >>> ug = gv.UncertainGraph(4, [0, 0, 0, 1, 2], [1, 2, 3, 2, 3], [.3, .8, .9, .7, .4])
    >>> degree_entropy(ug).round(2).tolist()
    [1.4, 1.84, 1.91, 1.0]

    References
    ----------
    Section III-B and Table 2 of the paper; Boldi et al. VLDB 2012.
    """
    # a directed graph's total degree (in + out): every pair counts at both ends, as here
    _check_published(published)
    if isinstance(published, Graph):
        counts = np.bincount(published.degrees, minlength=1).astype(np.float64)
        out = np.zeros_like(counts)
        np.log2(counts, out=out, where=counts > 0)
        return out
    u, v, p = _pairs(published)
    entropy, _mass = _core.degree_entropy(published.n, u, v, p, check_threads(threads))
    return entropy


@overload
def eps(
    g0: Graph,
    published: UncertainGraph | Graph,
    k: int,
    *,
    degree: str | None = None,
    threads: int | None = None,
) -> float: ...
@overload
def eps(
    g0: Graph,
    published: UncertainGraph | Graph,
    k: Iterable[int],
    *,
    degree: str | None = None,
    threads: int | None = None,
) -> dict[int, float]: ...


def eps(
    g0: Graph,
    published: UncertainGraph | Graph,
    k: int | Iterable[int],
    *,
    degree: str | None = None,
    threads: int | None = None,
) -> float | dict[int, float]:
    """Fraction of nodes that ``published`` fails to k-obfuscate w.r.t. the degree.

    Parameters
    ----------
    g0 : Graph
        The true graph; node ``v``'s property is its degree ``d_v`` in ``g0``.
    published : UncertainGraph or Graph
        The anonymized output on the same nodes ``0..n-1``.
    k : int or iterable of int
        Obfuscation level(s), each >= 1. The paper reports k = 30, 50, 100.
    degree : {None, "total", "in", "out", "joint"}
        The property obfuscated. None or ``"total"``: the degree (of a directed graph the total
        degree, in + out). ``"in"``, ``"out"`` or ``"joint"`` (directed graphs only): the in-
        or out-degree, whose law at ``v`` is Poisson-binomial over the pairs with head (tail)
        ``v``, or the pair (in, out), whose law is the product of the two (exact, see
        :func:`~graphveil.measure.privacy.directed_eps`).
    threads : int, optional
        Worker threads for the degree distributions; the result does not depend on it.

    Returns
    -------
    float or dict
        For one ``k``: eps, the fraction of nodes ``v`` with ``H_{d_v} < log2 k``. For several:
        ``{k: eps}``. The entropies are computed once for all ``k``.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If the node counts differ or some ``k < 1``.

    Notes
    -----
    Every failing node is counted, including those whose degree is unique (entropy 0) and
    those whose original degree is above the output's maximum degree; the authors' code
    skipped both (see the module notes).

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 0, 1], [2, 3, 2])  # Figure 1(a): degrees 2 1 2 1
    >>> ug = gv.UncertainGraph(4, [0, 0, 0, 1, 2], [1, 2, 3, 2, 3], [.3, .8, .9, .7, .4])
    >>> eps(g0, ug, 3)
    0.0
    >>> eps(g0, ug, [3, 4])  # H_1 = 1.84, H_2 = 1.91 bits: below log2 4 = 2
    {3: 0.0, 4: 1.0}

    References
    ----------
    Definition 2.1 of the paper; Boldi et al., "Injecting Uncertainty in Graphs for Identity
    Obfuscation", VLDB 2012.
    """
    check_graph(g0, "g0", what=None)
    _check_published(published)
    side = _check_degree(degree, g0, published)
    if g0.n != published.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and the published graph {published.n}: they must share nodes 0..n-1"
        )
    single = isinstance(k, (int, np.integer)) and not isinstance(k, bool)
    ks = check_ints(k, "k", 1)
    if side == "total":
        entropy = degree_entropy(published, threads=threads)
        deg0 = g0.degrees
        # A degree beyond the output's range has S_d = 0: entropy 0, and the node fails any k > 1.
        h = np.zeros(deg0.size, dtype=np.float64)
        inside = deg0 < entropy.size
        h[inside] = entropy[deg0[inside]]
    else:
        h = _directed_entropies(g0, published, cast("DirectedDegree", side), threads)
    n = max(g0.n, 1)
    result = {
        int(kk): float(np.count_nonzero(h < np.log2(float(kk)) - ENTROPY_TOLERANCE)) / n
        for kk in ks
    }
    return result[int(ks[0])] if single else result


def _check_degree(degree: str | None, g0: Graph, published: UncertainGraph | Graph) -> str:
    """The degree ``eps`` obfuscates (``"total"``, ``"in"``, ``"out"``), checked."""
    if g0.directed != published.directed:
        raise ValueError(
            f"g0 is {'' if g0.directed else 'un'}directed and the published graph "
            f"{'' if published.directed else 'un'}directed: measure graphs of one kind"
        )
    side = "total" if degree is None else degree
    if side not in ("total", "in", "out", "joint"):
        raise ValueError(f"degree must be None, 'total', 'in', 'out' or 'joint', got {degree!r}")
    if side != "total" and not g0.directed:
        raise ValueError(
            f"degree={side!r} needs directed graphs; an undirected graph has one degree"
        )
    return side


# ---------------------------------------------------------------------------------------------
# The degree kinds of a directed graph that eps (and a directed (k, eps)-obfuscation) takes.
# ---------------------------------------------------------------------------------------------

#: The degree a directed eps (and a directed (k, eps)-obfuscation) is taken on.
DirectedDegree = Literal["joint", "out", "in"]
DIRECTED_DEGREES: tuple[str, ...] = ("joint", "out", "in")


def check_directed_degree(degree: Any) -> str:
    """``degree`` checked to be one of :data:`DIRECTED_DEGREES`."""
    if degree not in DIRECTED_DEGREES:
        raise ValueError(f"degree must be 'joint', 'out' or 'in', got {degree!r}")
    return str(degree)


def directed_degree_values(g: Graph, degree: str) -> np.ndarray:
    """Every node's value of ``degree`` in the directed ``g``: int64, ``(n,)`` or ``(n, 2)`` (in, out)."""
    if degree == "out":
        return np.asarray(g.out_degrees, dtype=np.int64)
    if degree == "in":
        return np.asarray(g.in_degrees, dtype=np.int64)
    return np.column_stack([g.in_degrees, g.out_degrees]).astype(np.int64)


def _in_out_distributions(
    published: UncertainGraph | Graph, threads: int | None
) -> tuple[sp.csr_array, sp.csr_array]:
    """Every node's in-degree and out-degree distributions (rows), each a Poisson binomial.

    A pair ``u -> v`` counts once at ``u`` (out) and once at ``v`` (in): the pairs
    ``(u, n + v)`` of a graph on ``2n`` nodes, whose node ``u`` has the out-degree and node
    ``n + v`` the in-degree of the directed graph, through the one exact kernel.
    """
    n = published.n
    if isinstance(published, Graph):
        u, v = published.edges()
        p = np.ones(u.size)
    else:
        u, v, p = _pairs(published)
    u = np.ascontiguousarray(u, dtype=np.int64)
    w = np.ascontiguousarray(v, dtype=np.int64) + n
    offsets, values = _core.degree_distributions(
        2 * n, u, w, np.ascontiguousarray(p, dtype=np.float64), check_threads(threads)
    )
    lengths = np.diff(offsets)
    cols = np.arange(values.size, dtype=np.int64) - np.repeat(offsets[:-1], lengths)
    width = int(lengths.max()) if lengths.size else 0
    both = sp.csr_array((values, cols, offsets), shape=(2 * n, max(width, 1)))
    return sp.csr_array(both[n:]), sp.csr_array(both[:n])


def _xlogx(m: sp.csr_array) -> sp.csr_array:
    out = m.copy()
    data = out.data
    positive = data > 0
    data[positive] = data[positive] * np.log2(data[positive])
    data[~positive] = 0.0
    return out


def _columns(m: sp.csr_array, values: np.ndarray) -> sp.csc_array:
    """The columns ``values`` of ``m`` (all 0 where a value lies beyond its width)."""
    width = max(m.shape[1], int(values.max()) + 1 if values.size else 0)
    wide = sp.csr_array((m.data, m.indices, m.indptr), shape=(m.shape[0], width))
    return sp.csc_array(sp.csc_array(wide)[:, values])


def directed_eps(
    g0: Graph,
    published: UncertainGraph | Graph,
    k: int,
    *,
    degree: DirectedDegree = "joint",
    threads: int | None = None,
) -> float:
    """Fraction of nodes that the directed ``published`` fails to k-obfuscate w.r.t. ``degree``.

    Definition 2.1 of the paper with the property ``degree`` of a node of the directed ``g0``:
    its out-degree, its in-degree, or the pair (in-degree, out-degree) (``"joint"``). In a
    possible world of ``published`` a node's out-degree and in-degree are sums over disjoint
    pairs (``u -> v`` and ``v -> u`` are two pairs), so they are independent Poisson binomials
    ``X+_v``, ``X-_v`` and the joint law is their product. ``Y_w(v) = X_v(w) / sum_x X_x(w)`` for
    the value ``w`` of the property, ``H_w`` its entropy (bits); node ``v`` fails when
    ``H_{w_v} < log2 k`` at its value ``w_v`` in ``g0``. Exact: the joint sums run over the
    values that occur in ``g0`` only (sparse products of the per-node laws), with no pruning.

    Parameters
    ----------
    g0 : Graph
        The true directed graph.
    published : UncertainGraph or Graph
        The directed output on the same nodes.
    k : int
        Obfuscation level, >= 1.
    degree : {"joint", "out", "in"}
        The property the adversary knows.
    threads : int, optional
        Threads of the degree distributions; the result does not depend on it.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Either graph undirected, node counts differ, ``k < 1`` or an unknown ``degree``.

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)  # a 3-cycle
    >>> directed_eps(g0, g0, 3), directed_eps(g0, g0, 4)
    (0.0, 1.0)
    """
    check_graph(g0, "g0", what=None)
    _check_published(published)
    degree = cast("DirectedDegree", check_directed_degree(degree))
    if not (g0.directed and published.directed):
        raise ValueError(
            "directed_eps measures a directed g0 and a directed published graph; use eps() "
            "for undirected ones"
        )
    if g0.n != published.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and the published graph {published.n}: they must share nodes 0..n-1"
        )
    k = check_int(k, "k", low=1)
    return float(eps(g0, published, k, degree=degree, threads=threads))


def _directed_entropies(
    g0: Graph, published: UncertainGraph | Graph, degree: DirectedDegree, threads: int | None
) -> np.ndarray:
    """``H_{w_v}`` per node ``v``: the entropy at ``v``'s value ``w_v`` of ``degree`` in ``g0``."""
    if g0.n == 0:
        return np.zeros(0)
    x_in, x_out = _in_out_distributions(published, threads)
    own = directed_degree_values(g0, degree)
    if degree == "joint":
        values, inverse = np.unique(own, axis=0, return_inverse=True)
        ins, in_at = np.unique(values[:, 0], return_inverse=True)
        outs, out_at = np.unique(values[:, 1], return_inverse=True)
        a, b = _columns(x_in, ins), _columns(x_out, outs)
        la, lb = _xlogx(sp.csr_array(a)), _xlogx(sp.csr_array(b))
        total = (a.T @ b).toarray()[in_at, out_at]
        plogp = (sp.csc_array(la).T @ b).toarray()[in_at, out_at]
        plogp += (a.T @ sp.csc_array(lb)).toarray()[in_at, out_at]
    else:
        values, inverse = np.unique(own, return_inverse=True)
        x = _columns(x_out if degree == "out" else x_in, values)
        total = np.asarray(x.sum(axis=0)).ravel()
        plogp = np.asarray(_xlogx(sp.csr_array(x)).sum(axis=0)).ravel()
    entropy = np.zeros(values.shape[0])
    ok = total > 0
    entropy[ok] = np.log2(total[ok]) - plogp[ok] / total[ok]
    return entropy[inverse.reshape(-1)]
