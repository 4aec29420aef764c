"""The scorings of a release: graphveil's corrected measures (the default) and the authors' own.

A *scoring* is every choice of a measure where graphveil corrects the paper's authors: it is
chosen once per evaluation (:func:`~graphveil.evaluate`'s ``scoring``) or study
(:func:`~graphveil.experiments.reproduce`, ``graphveil reproduce --scoring``) and this
registry is its one home. Two are registered:

``"corrected"`` (the default)
    H2_open on the true *sets* of neighbours' degrees; eps counting every node that fails;
    ``S_PL`` the mean of the per-sample fits; (k, eps)-obfuscation as Boldi et al. describe it
    (``|H| = ceil(eps n / 2)``, 5 tries per sigma).
``"authors"``
    The measures exactly as the authors' scripts (``hiepbkhn/itce2011``, ``graph-dp/``)
    computed them for the paper's tables:

    * H2_open on their neighbour-degree *lists*: ``equivalence_class_H2_open``
      (``compare/attack_structure*.py``) sorts the degrees and removes repeats with a loop
      that stops one short, so the largest degree is kept twice when it repeats
      (``[1, 2, 3, 3] -> [1, 2, 3, 3]``, ``[1, 1, 2] -> [1, 2]``);
      :func:`authors_h2_signatures`;
    * eps by their rule, :func:`authors_eps`;
    * ``S_PL`` fitted once on the degrees of all samples (or runs) pooled
      (``power_law_estimate`` on the ``deg_list`` of ``all_statistics_from_file``);
    * (k, eps)-obfuscation's ``|H| = ceil(eps n)`` and 3 tries
      (``src/entropy_obfuscation*.py``: ``n_discard``, ``N_TRIES``), the scheme's
      ``variant="authors"``: a scheme parameter, set by a study run under this scoring.

    The other measures (H1, the utility statistics, the edge differences) are the same in
    both. Every node ``0..n-1`` of G0 is scored, as their igraph reader (``Read_Edgelist``)
    numbers them; their networkx reader of the multigraph scripts would leave out a node
    isolated in G0 (none in the paper's graphs; one in ca-GrQc). Directed graphs have no
    authors' scoring (the paper's tables are undirected).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphveil._checks import check_ints
from graphveil.graph import Graph, check_graph
from graphveil.measure.privacy import degree_distributions
from graphveil.measure.privacy import eps as exact_eps
from graphveil.multigraph import Multigraph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "DEFAULT",
    "SCORINGS",
    "Scoring",
    "authors_eps",
    "authors_h2_open",
    "authors_h2_signatures",
    "check_scoring",
    "scoring",
]

#: The authors' ``compute_X_sparse``: a node with more neighbours than this gets a uniform law.
AUTHORS_DEGREE_LIMIT = 5000
#: The authors' ``compute_entropy_sparse``: terms with ``Y <= 1e-6`` are left out of the entropy.
AUTHORS_Y_FLOOR = 0.000001


@dataclass(frozen=True)
class Scoring:
    """One way of scoring releases: which H2_open, eps, ``S_PL`` and obfuscation variant.

    Attributes
    ----------
    name : str
        The registry key (``evaluate(..., scoring=name)``, ``--scoring name``).
    title : str
        What ``study.md`` and reports say was used.
    authors_lists : bool
        H2_open on the authors' neighbour-degree lists (:func:`authors_h2_signatures`) instead
        of true sets.
    authors_eps : bool
        eps by the authors' rule (:func:`authors_eps`) instead of every failing node.
    pooled_s_pl : bool
        A report's ``S_PL`` (its mean row, rel.err) is the exponent fitted on the pooled
        degrees of all samples instead of the mean of the per-sample exponents.
    obfuscation_variant : str
        The ``variant`` of :func:`~graphveil.anonymize.obfuscation` a study runs under this
        scoring (``"boldi"``: ``|H| = ceil(eps n / 2)``, 5 tries; ``"authors"``:
        ``ceil(eps n)``, 3 tries).
    """

    name: str
    title: str
    authors_lists: bool
    authors_eps: bool
    pooled_s_pl: bool
    obfuscation_variant: str

    def h2_open_signatures(self, g: Graph | Multigraph) -> list[bytes] | None:
        """The H2_open signatures this scoring computes in Python, or None (the C++ true sets)."""
        return authors_h2_signatures(g) if self.authors_lists else None

    def eps(
        self,
        g0: Graph,
        published: UncertainGraph | Graph,
        k: Iterable[int],
        *,
        degree: str | None = None,
        threads: int | None = None,
    ) -> dict[int, float]:
        """``{k: eps}`` of ``published`` under this scoring."""
        if self.authors_eps:
            return authors_eps(g0, published, k, threads=threads)
        return exact_eps(g0, published, list(k), degree=degree, threads=threads)


#: The scorings by name; :data:`DEFAULT` is graphveil's corrected measures.
SCORINGS: dict[str, Scoring] = {
    s.name: s
    for s in (
        Scoring(
            name="corrected",
            title=(
                "graphveil's corrected measures (H2_open on true neighbour-degree sets, eps "
                "counting every failing node, S_PL the mean of per-sample fits; "
                "(k,eps)-obf with Boldi's |H| = ceil(eps n / 2) and 5 tries)"
            ),
            authors_lists=False,
            authors_eps=False,
            pooled_s_pl=False,
            obfuscation_variant="boldi",
        ),
        Scoring(
            name="authors",
            title=(
                "the authors' scoring (H2_open on their neighbour-degree lists, their eps "
                "rule, S_PL fitted on the pooled degrees; (k,eps)-obf with their "
                "|H| = ceil(eps n) and 3 tries)"
            ),
            authors_lists=True,
            authors_eps=True,
            pooled_s_pl=True,
            obfuscation_variant="authors",
        ),
    )
}

#: The scoring of every evaluation and study unless another is asked for.
DEFAULT = "corrected"


def check_scoring(name: Any, *, directed: bool = False) -> str:
    """``name`` checked to be a registered scoring (and one a directed graph takes)."""
    if name not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(map(repr, SCORINGS))}, got {name!r}")
    if directed and name != DEFAULT:
        raise ValueError(
            f"scoring={name!r} is for undirected graphs (the paper's tables are undirected); "
            f"score a directed graph with scoring={DEFAULT!r}"
        )
    return str(name)


def scoring(name: str = DEFAULT) -> Scoring:
    """The registered :class:`Scoring` called ``name``.

    Examples
    --------
    >>> scoring("authors").obfuscation_variant
    'authors'
    """
    return SCORINGS[check_scoring(name)]


# ---------------------------------------------------------------------------------------------
# H2_open on the authors' lists


def authors_h2_signatures(g: Graph | Multigraph) -> list[bytes]:
    """Every node's H2_open signature as the authors' ``equivalence_class_H2_open`` built it.

    The sorted degrees of the node's distinct neighbours (a multigraph's degrees count every
    copy and a loop twice; a node with a loop is its own neighbour, as in networkx's
    ``MultiGraph.neighbors``), with repeats removed by their loop ``while i < len - 1: if
    h[i-1] == h[i]: del h[i-1]``, which never compares the last two: the largest degree stays
    twice when it repeats. Returned as one ``bytes`` key per node (a flag byte for that
    repeat, then the distinct degrees), equal exactly when the authors' lists are equal.

    Examples
    --------
    >>> import graphveil as gv
    >>> star = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2])  # node 0: degrees [2, 2, 1]
    >>> authors_h2_signatures(star)[0][0], authors_h2_signatures(star)[3][0]  # [1, 2, 2]; [3]
    (1, 0)
    """
    if not isinstance(g, Multigraph):
        check_graph(g, "g", what="the authors' H2_open")
    n = g.n
    indptr = np.asarray(g.indptr, dtype=np.int64)
    degrees = np.diff(indptr)  # a multigraph's CSR lists every copy, a loop twice
    rows = np.repeat(np.arange(n, dtype=np.int64), degrees)
    pairs = np.unique(rows * max(n, 1) + np.asarray(g.indices, dtype=np.int64))  # distinct
    rows = pairs // max(n, 1)
    values = degrees[pairs % max(n, 1)]
    order = np.lexsort((values, rows))
    rows, values = rows[order], values[order]
    first = np.ones(rows.size, dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (values[1:] != values[:-1])
    run_start = np.flatnonzero(first)
    run_length = np.diff(np.append(run_start, rows.size))
    run_row = rows[run_start]
    # the last run of each row: its largest degree, kept twice when it repeats
    last = np.ones(run_start.size, dtype=bool)
    last[:-1] = run_row[1:] != run_row[:-1]
    repeated = np.zeros(n, dtype=np.uint8)
    repeated[run_row[last]] = run_length[last] >= 2
    buffer = values[run_start].astype(np.int64).tobytes()
    bounds = np.searchsorted(run_row, np.arange(n + 1)) * 8
    flags = repeated.tobytes()
    return [flags[v : v + 1] + buffer[bounds[v] : bounds[v + 1]] for v in range(n)]


def authors_h2_open(
    g0: Graph | list[bytes], g: Graph | Multigraph, *, signatures: list[bytes] | None = None
) -> float:
    """H2_open of ``g`` against ``g0`` on the authors' lists (:func:`authors_h2_signatures`).

    ``g0`` is the true graph or its signatures, computed once for many scores; ``signatures``
    are ``g``'s when already computed. The sum of the nodes' re-identification probabilities
    (``1 / |C|`` for a node whose signature in ``g`` equals its signature in ``g0``, ``C`` its
    class in ``g``) is exactly rounded (``math.fsum``): the authors summed a dict's values in an
    order Python 2 left unspecified.

    Examples
    --------
    >>> import graphveil as gv
    >>> path = gv.Graph.from_edges([0, 1, 2], [1, 2, 3])  # lists [2] [1, 2] [1, 2] [2]
    >>> authors_h2_open(path, path)
    2.0
    """
    before = g0 if isinstance(g0, list) else authors_h2_signatures(g0)
    after = authors_h2_signatures(g) if signatures is None else signatures
    if len(before) != len(after):
        raise ValueError(
            f"g0 has {len(before)} nodes and g has {len(after)}: both graphs must be on the "
            "same node set 0..n-1"
        )
    sizes = Counter(after)
    return math.fsum(1.0 / sizes[a] for a, b in zip(after, before) if a == b)


# ---------------------------------------------------------------------------------------------
# eps by the authors' rule


def authors_eps(
    g0: Graph,
    published: UncertainGraph | Graph,
    k: int | Iterable[int],
    *,
    threads: int | None = None,
) -> dict[int, float]:
    """Eps of (k, eps)-obfuscation by the authors' rule, ``{k: eps}``.

    Their ``compute_eps_multi`` (``src/entropy_obfuscation_igraph.py``) for an uncertain graph
    and for a deterministic output read with ``p = 1`` (RandWalk, EdgeSwitch, G0 itself):

    * each node's degree law by their convolution, except a node with more than 5,000 pairs,
      whose law is uniform on ``0..pairs``;
    * ``Y_d(v) = X_v(d) / S_d`` and the entropy ``H_d`` summed in node order over the terms
      with ``Y > 1e-6`` only;
    * a node of G0 fails when ``0 < H_{d_v} < log2 k`` (a degree whose column has entropy 0,
      a unique one, is skipped) and ``d_v`` is at most the output's largest degree (a node
      above it is skipped);
    * eps is the failures over ``n``.

    A relaxed deterministic release (the printed RandWalk-mod's multigraph, every p = 1) is
    read as their ``compute_eps_deterministic_multi`` read it (``incorrectness_measure_multigraph.py``):
    ``H_d = log2`` of the number of nodes of multigraph degree ``d`` (a loop counts 2), with
    the same skips. A relaxed release with ``p < 1`` (Mixture, which the authors did not run)
    takes the first rule with the relaxed degree law (a loop adds 2).

    The entropies are summed term by term in their order with ``math.log(y, 2)``, so that a
    degree held by exactly ``k`` nodes is decided as their code decided it.

    Examples
    --------
    >>> import graphveil as gv
    >>> g0 = gv.Graph.from_edges([0, 0, 0, 1], [1, 2, 3, 2])  # degrees 3 2 2 1
    >>> authors_eps(g0, g0, [2, 3])  # unique degrees are skipped: only the two of degree 2
    {2: 0.0, 3: 0.5}
    """
    check_graph(g0, "g0", what="the authors' eps", directed=False)
    if not isinstance(published, (Graph, UncertainGraph)):
        raise TypeError(
            f"published must be a graphveil.UncertainGraph or Graph, got {type(published).__name__}"
        )
    if published.directed:
        raise ValueError("the authors' eps is for undirected graphs: use scoring='corrected'")
    if g0.n != published.n:
        raise ValueError(
            f"g0 has {g0.n} nodes and the published graph {published.n}: they must share nodes 0..n-1"
        )
    ks = check_ints(k, "k", 1)
    ug = (
        published if isinstance(published, UncertainGraph) else UncertainGraph.from_graph(published)
    )
    if ug.relaxed and bool(np.all(ug.p == 1.0)):
        entropy, top = _multigraph_entropy(ug)
    else:
        entropy, top = _uncertain_entropy(ug, threads)
    deg0 = g0.degrees
    n = max(g0.n, 1)
    out: dict[int, float] = {}
    for kk in ks:
        log2k = math.log(int(kk), 2)
        failing = sum(1 for d in deg0.tolist() if d <= top and 0.0 < entropy[d] < log2k)
        out[int(kk)] = float(failing) / n
    return out


def _multigraph_entropy(ug: UncertainGraph) -> tuple[list[float], int]:
    """``compute_eps_deterministic_multi``: ``log2`` of each degree's count in the multigraph."""
    world = Multigraph(ug.n, ug.u, ug.v)
    counts = np.bincount(world.degrees, minlength=1).tolist()
    return [math.log(c, 2) if c > 0 else 0.0 for c in counts], len(counts) - 1


def _uncertain_entropy(ug: UncertainGraph, threads: int | None) -> tuple[list[float], int]:
    """``compute_X/Y/entropy_sparse`` of ``compute_eps_multi``, term by term in their order."""
    n = ug.n
    u = np.asarray(ug.u, dtype=np.int64)
    v = np.asarray(ug.v, dtype=np.int64)
    # igraph's degree of the published graph: every pair (p = 0 too) at both ends, a loop twice
    pairs_at = np.bincount(u, minlength=n) + np.bincount(v, minlength=n)
    loopless = pairs_at - 2 * np.bincount(u[u == v], minlength=n)
    top = int(loopless.max()) if n else 0  # igraph's maxdegree(): loops left out
    width = int(pairs_at.max()) + 1 if n else 1
    laws = degree_distributions(ug, threads=threads)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(laws.indptr))
    cols = laws.indices.astype(np.int64)
    values = laws.data.astype(np.float64)
    big = pairs_at > AUTHORS_DEGREE_LIMIT
    if big.any():  # their uniform law over 0..pairs for the largest nodes
        keep = ~big[rows]
        extra_rows = np.repeat(np.flatnonzero(big), pairs_at[big] + 1)
        extra_cols = np.concatenate([np.arange(d + 1) for d in pairs_at[big]])
        extra_vals = 1.0 / (pairs_at[extra_rows] + 1)
        rows = np.concatenate([rows[keep], extra_rows])
        cols = np.concatenate([cols[keep], extra_cols])
        values = np.concatenate([values[keep], extra_vals])
        order = np.lexsort((cols, rows))
        rows, cols, values = rows[order], cols[order], values[order]
    column_sum = np.zeros(width, dtype=np.float64)
    np.add.at(column_sum, cols, values)  # in node order for each degree, as their loop
    with np.errstate(divide="ignore", invalid="ignore"):
        y = values / column_sum[cols]
    counted = y > AUTHORS_Y_FLOOR
    terms = np.array([-t * math.log(t, 2) for t in y[counted].tolist()], dtype=np.float64)
    entropy = np.zeros(width, dtype=np.float64)
    np.add.at(entropy, cols[counted], terms)
    return entropy.tolist(), top
