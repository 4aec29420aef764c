"""The uncertain graph: node pairs with independent existence probabilities."""

from __future__ import annotations

import contextlib
import os
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp

from graphveil._checks import check_threads, require_undirected
from graphveil._common import aligned
from graphveil._pairs import (
    adjacency,
    canonical_pairs,
    check_graph,
    check_world_memory,
    match,
    non_negative,
    simplify,
    world_edges,
    worlds,
)
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph
from graphveil.interop import (
    pairs_from_scipy,
    uncertain_pairs_from_igraph,
    uncertain_pairs_from_networkx,
    uncertain_to_igraph,
    uncertain_to_networkx,
    uncertain_to_pandas,
)
from graphveil.multigraph import Multigraph
from graphveil.record import PUBLIC_META, RunRecord, check_record

__all__ = [
    "Anonymized",
    "UncertainGraph",
    "load_uncertain",
]


class UncertainGraph:
    """An uncertain graph on nodes ``0..n-1``: pairs ``(u, v)`` with probabilities ``p``.

    Every pair exists independently with its probability; a *possible world* (a sample)
    keeps each pair with probability ``p`` (Section III-A of the paper).

    Canonical form (strict model, the default): ``u < v``, pairs sorted by ``(u, v)`` and
    unique, ``p`` float64 in ``[0, 1]``. Pairs with ``p = 0`` and ``p = 1`` are kept as given.

    Relaxed model (``relaxed=True``, constraint 2' of the paper, used by the printed
    RandWalk-mod and by Mixture over it): self-loops ``(u, u)`` and repeated pairs
    (multi-edges) are allowed; pairs are still sorted with ``u <= v``. The uncertain adjacency
    matrix (:meth:`to_scipy`) is the sum of one entry per pair, so a pair ``(u, v)`` with
    ``u != v`` adds ``p`` to the expected degree of both ends, and a self-loop ``(u, u)`` adds
    ``2 p`` to the diagonal and to ``u``'s expected degree: a loop adds 2 to its node's degree,
    as in the adjacency matrix of Theorem 3.1, everywhere (:meth:`expected_degrees`,
    :meth:`degree_variance`, :meth:`to_scipy`, the degree laws behind eps in
    :mod:`graphveil.measure.privacy`). Entries may exceed 1. :meth:`total_variance` and
    :meth:`expected_num_edges` count pairs (a loop once). :meth:`sample` returns simple
    graphs: a pair repeated with probabilities ``p_1..p_k`` appears with probability
    ``1 - prod(1 - p_i)`` and self-loops are dropped, which is the strict graph
    :meth:`simplified` returns; the edit distance (:meth:`expected_edit_distance`) works on that
    graph. :meth:`sample_multigraph` keeps every loop and copy: the measures
    (:func:`graphveil.evaluate`, the study) read a relaxed graph's worlds that way, as
    the authors measured the printed RandWalk-mod (see :mod:`graphveil.multigraph`).

    Directed (``directed=True``): the pairs are *ordered*, ``(u, v)`` the arc ``u -> v``, kept
    as given (no swap to ``u < v``; ``(u, v)`` and ``(v, u)`` are two pairs with their own
    probabilities), sorted by ``(u, v)`` and unique; ``u != v`` unless relaxed (a relaxed loop
    ``(u, u)`` adds 1 to ``u``'s out-degree and 1 to its in-degree). A sample is a directed
    :class:`Graph`. :meth:`expected_out_degrees` (sums of ``p`` by tail) and
    :meth:`expected_in_degrees` (by head) split :meth:`expected_degrees` (their sum, the total
    degree of :attr:`Graph.degrees`); :meth:`out_degree_variance` and :meth:`in_degree_variance`
    are sums of ``p(1-p)`` by tail and by head, so both degree sequences have the same total
    variance ``TV_out = TV_in = sum p(1-p) =`` :meth:`total_variance`. The edit distance
    (:meth:`expected_edit_distance`) counts ordered pairs against a directed graph. A directed
    release (:meth:`save`, :meth:`to_graphml`) says so in its header (``directed``, a public
    field like ``relaxed``), and :meth:`load` gives a directed uncertain graph back.

    Parameters
    ----------
    n : int
        Number of nodes.
    u, v : array_like of int
        Pair ends. Reordered into canonical form.
    p : array_like of float
        Existence probabilities, each in ``[0, 1]``.
    relaxed : bool
        Allow self-loops and multi-edges.
    directed : bool
        The pairs are ordered (arcs ``u -> v``).
    meta : dict, optional
        Provenance: a scheme's report (scheme, parameters, seed, timings, ...), for the caller.
        Only ``meta["scheme"]`` and ``meta["params"]`` are published by :meth:`save`; the
        rest goes to the private run record.

    Raises
    ------
    ValueError
        If the arrays differ in length, ids fall outside ``0..n-1``, a probability lies outside
        ``[0, 1]`` (or is NaN), or the strict model receives a self-loop or a repeated pair.
    TypeError
        If the ids are not integers or the probabilities not real numbers.

    Examples
    --------
    >>> ug = UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0])
    >>> ug.expected_degrees().tolist(), ug.total_variance()
    ([0.5, 1.5, 1.0], 0.25)
    >>> dg = UncertainGraph(3, [1, 0], [0, 1], [0.5, 1.0], directed=True)
    >>> dg.u.tolist(), dg.expected_out_degrees().tolist(), dg.expected_in_degrees().tolist()
    ([0, 1], [1.0, 0.5, 0.0], [0.5, 1.0, 0.0])
    """

    __slots__ = (
        "_directed",
        "_ids_permuted",
        "_n",
        "_p",
        "_record",
        "_relaxed",
        "_simple",
        "_u",
        "_v",
        "meta",
    )

    def __init__(
        self,
        n: int,
        u: Any,
        v: Any,
        p: Any,
        *,
        relaxed: bool = False,
        directed: bool = False,
        meta: dict[str, Any] | None = None,
    ) -> None:
        n, a, b, p_arr = canonical_pairs(n, u, v, p, relaxed=relaxed, directed=directed)
        self._n = n
        self._u = a
        self._v = b
        self._p = p_arr
        self._relaxed = bool(relaxed)
        self._directed = bool(directed)
        self._simple: UncertainGraph | None = None
        self._ids_permuted: bool | None = False
        self._record: RunRecord | None = None
        self.meta: dict[str, Any] = dict(meta or {})

    @classmethod
    def from_graph(cls, graph: Graph, *, meta: dict[str, Any] | None = None) -> UncertainGraph:
        """The deterministic graph as an uncertain graph with every edge (arc) at p = 1."""
        u, v = graph.edges()
        return cls(graph.n, u, v, np.ones(u.size), directed=graph.directed, meta=meta)

    # ------------------------------------------------------------------ properties
    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._n

    @property
    def u(self) -> np.ndarray:
        """First pair ends (``u <= v``; the tails if directed), read-only."""
        return self._u

    @property
    def v(self) -> np.ndarray:
        """Second pair ends (the heads if directed), read-only."""
        return self._v

    @property
    def directed(self) -> bool:
        """Whether the pairs are ordered (arcs ``u -> v``)."""
        return self._directed

    @property
    def p(self) -> np.ndarray:
        """Probabilities (float64), read-only."""
        return self._p

    @property
    def relaxed(self) -> bool:
        """Whether self-loops and multi-edges are allowed."""
        return self._relaxed

    @property
    def ids_permuted(self) -> bool | None:
        """Whether the node ids are a release's random permutation of the true ids.

        True for a graph loaded from a file saved with permuted ids (or made by
        :meth:`with_permuted_ids`): its ids are not those of the true graph, and only the private
        run record maps them back. None when a file did not say (a plain ``u v p`` TSV).
        """
        return self._ids_permuted

    @property
    def run_record(self) -> RunRecord | None:
        """The private run record this release was loaded with (``load(path, record=...)``), or None.

        :meth:`save` writes its permutation through to a new record, and
        :func:`~graphveil.evaluate` maps the ids back through it when no ``record`` is
        passed. **Never publish it.**
        """
        return self._record

    @property
    def num_pairs(self) -> int:
        """Number of pairs with a probability (including p = 0 and p = 1)."""
        return int(self._p.size)

    # ------------------------------------------------------------------ the model
    def expected_degrees(self) -> np.ndarray:
        """Expected degree of every node: the row sums of the uncertain adjacency matrix.

        A self-loop with probability ``p`` adds ``2 p`` (a loop adds 2 to its node's degree).
        For a directed graph the expected total degree, in + out (:attr:`Graph.degrees`).

        Examples
        --------
        >>> UncertainGraph(2, [0, 0], [0, 1], [0.5, 1.0], relaxed=True).expected_degrees().tolist()
        [2.0, 1.0]
        """
        # u's column counts every pair once and v's column the same pair again: a loop twice
        deg = np.bincount(self._u, weights=self._p, minlength=self._n)
        deg += np.bincount(self._v, weights=self._p, minlength=self._n)
        return deg

    def expected_out_degrees(self) -> np.ndarray:
        """Expected out-degree of every node, the sum of ``p`` over the pairs it is the tail of.

        For an undirected graph: :meth:`expected_degrees`.
        """
        if not self._directed:
            return self.expected_degrees()
        return np.bincount(self._u, weights=self._p, minlength=self._n)

    def expected_in_degrees(self) -> np.ndarray:
        """Expected in-degree of every node, the sum of ``p`` over the pairs it is the head of.

        For an undirected graph: :meth:`expected_degrees`.
        """
        if not self._directed:
            return self.expected_degrees()
        return np.bincount(self._v, weights=self._p, minlength=self._n)

    def out_degree_variance(self) -> np.ndarray:
        """Variance of every node's out-degree: sum of ``p(1-p)`` over the pairs it is the tail of.

        Summed over the nodes it is :meth:`total_variance` (``TV_out = TV``). For an undirected
        graph: :meth:`degree_variance`.
        """
        if not self._directed:
            return self.degree_variance()
        return np.bincount(self._u, weights=self._p * (1.0 - self._p), minlength=self._n)

    def in_degree_variance(self) -> np.ndarray:
        """Variance of every node's in-degree: sum of ``p(1-p)`` over the pairs it is the head of.

        Summed over the nodes it is :meth:`total_variance` (``TV_in = TV``). For an undirected
        graph: :meth:`degree_variance`.
        """
        if not self._directed:
            return self.degree_variance()
        return np.bincount(self._v, weights=self._p * (1.0 - self._p), minlength=self._n)

    def degree_variance(self) -> np.ndarray:
        """Variance of every node's degree: sum of p(1-p) over its pairs, 4 p(1-p) for a self-loop.

        (A loop adds 2 to the degree with probability p, so its variance is 4 p(1-p).) For a
        directed graph the variance of the total degree, in + out (the arcs ``u -> v`` and
        ``v -> u`` are independent, so their variances add).
        """
        q = self._p * (1.0 - self._p)
        loops = self._u == self._v
        var = np.bincount(self._u, weights=np.where(loops, 4.0 * q, q), minlength=self._n)
        var += np.bincount(self._v[~loops], weights=q[~loops], minlength=self._n)
        return var

    def total_variance(self) -> float:
        """TV = sum over pairs of p(1 - p) (Section V-A).

        In the strict model this is half the sum of the degree variances, and the variance of
        the edit distance between a sample and any graph (Theorem 4.1). For a directed graph it
        is the total variance of either degree sequence: ``TV_out = TV_in = sum p(1-p)``, the
        sum of :meth:`out_degree_variance` and of :meth:`in_degree_variance`.
        """
        return float(np.sum(self._p * (1.0 - self._p)))

    def expected_num_edges(self) -> float:
        """Expected number of edges, sum of p (in the relaxed model every loop and copy counts).

        The expected edge count of a simplified sample is ``simplified().expected_num_edges()``.
        """
        return float(np.sum(self._p))

    def simplified(self) -> UncertainGraph:
        """The strict uncertain graph whose samples are this graph's simplified samples.

        Self-loops are dropped and a pair repeated with probabilities ``p_1..p_k`` becomes one
        pair with ``1 - prod(1 - p_i)``. A strict graph returns itself. ``meta`` is shared.
        """
        if not self._relaxed:
            return self
        if self._simple is None:
            a, b, q = simplify(self._u, self._v, self._p)
            self._simple = UncertainGraph(self._n, a, b, q, directed=self._directed, meta=self.meta)
            self._simple._ids_permuted = self._ids_permuted
            self._simple._record = self._record
        return self._simple

    def to_scipy(self, *, array: bool = True) -> sp.csr_array | sp.csr_matrix:
        """The uncertain adjacency matrix (Section IV-A) as a symmetric scipy.sparse CSR.

        Entry ``(u, v)`` is the sum of ``p`` over the pairs ``(u, v)``; a self-loop contributes
        ``2 p`` to the diagonal (Theorem 3.1's adjacency matrix), so row sums are
        :meth:`expected_degrees`. For a directed graph the matrix is not symmetric: entry
        ``(u, v)`` sums ``p`` over the arcs ``u -> v`` (a loop adds ``p``), so row sums are
        :meth:`expected_out_degrees` and column sums :meth:`expected_in_degrees`.
        """
        return adjacency(self._n, self._u, self._v, self._p, self._directed, array)

    @classmethod
    def from_scipy(
        cls, matrix: Any, *, relaxed: bool = False, directed: bool = False
    ) -> UncertainGraph:
        """Build from a symmetric scipy.sparse matrix (or array) of probabilities.

        With ``directed=True`` any square matrix: every stored entry ``(u, v)`` is the arc
        ``u -> v`` (explicit zeros included; a diagonal entry is a loop with that ``p``, as
        :meth:`to_scipy` writes a directed graph).

        Every stored entry of the upper triangle is a pair, explicit zeros included (a pair
        with p = 0), so ``from_scipy(ug.to_scipy())`` gives ``ug`` back for a strict graph.
        Diagonal entries are self-loops (entry ``2 p``, as :meth:`to_scipy` writes them):
        refused unless ``relaxed=True``.

        Raises
        ------
        TypeError
            If ``matrix`` is not a scipy.sparse matrix or array.
        ValueError
            If it is not square, not symmetric, has an entry outside ``[0, 1]`` (or NaN), or a
            diagonal entry in the strict model; the message names the first offending entry.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> m = sp.csr_array([[0, 0.5, 0], [0.5, 0, 1.0], [0, 1.0, 0]])
        >>> ug = UncertainGraph.from_scipy(m)
        >>> ug.u.tolist(), ug.v.tolist(), ug.p.tolist()
        ([0, 1], [1, 2], [0.5, 1.0])
        """
        n, u, v, p = pairs_from_scipy(matrix, relaxed, directed)
        return cls(n, u, v, p, relaxed=relaxed, directed=directed)

    @classmethod
    def from_networkx(cls, graph: Any, *, p: Any = "p", relaxed: bool = False) -> UncertainGraph:
        """Build from a networkx graph whose edge attribute ``p`` holds probabilities.

        A ``DiGraph`` (``MultiDiGraph``) gives a directed uncertain graph, its arcs the pairs.

        The nodes become ``0..n-1`` in the graph's node order (an uncertain graph carries no
        labels: node ``i`` is ``list(graph.nodes())[i]``), so
        ``UncertainGraph.from_networkx(ug.to_networkx()) == ug``. Every edge is a pair, each copy
        of a multigraph's edge too; a ``MultiGraph`` or a graph with self-loops needs
        ``relaxed=True``.

        Parameters
        ----------
        graph : networkx.Graph or networkx.MultiGraph
        p : hashable, default "p"
            The edge attribute holding each edge's probability.
        relaxed : bool
            Allow self-loops and repeated pairs (see the class).

        Raises
        ------
        ValueError
            If an edge lacks the attribute, or a probability lies outside ``[0, 1]``, as the
            constructor says.
        TypeError
            If an attribute value is not a number.

        Examples
        --------
        >>> import networkx as nx
        >>> g = nx.Graph()
        >>> g.add_edge("a", "b", p=0.5)
        >>> g.add_node("c")
        >>> ug = UncertainGraph.from_networkx(g)
        >>> ug.n, ug.u.tolist(), ug.v.tolist(), ug.p.tolist()
        (3, [0], [1], [0.5])
        """
        n, u, v, q = uncertain_pairs_from_networkx(graph, p)
        return cls(n, u, v, q, relaxed=relaxed, directed=bool(graph.is_directed()))

    @classmethod
    def from_igraph(cls, graph: Any, *, p: Any = "p", relaxed: bool = False) -> UncertainGraph:
        """Build from an ``igraph.Graph`` whose edge attribute ``p`` holds probabilities (directed if it is).

        Vertex ids are kept (``0..n-1``), so ``UncertainGraph.from_igraph(ug.to_igraph()) == ug``;
        otherwise as :meth:`from_networkx`.

        Raises
        ------
        ValueError, TypeError
            As :meth:`from_networkx`.
        ImportError
            If igraph is not installed (``pip install igraph``).

        Examples
        --------
        >>> import igraph as ig
        >>> g = ig.Graph(n=3, edges=[(0, 1)], edge_attrs={"prob": [0.25]})
        >>> UncertainGraph.from_igraph(g, p="prob").p.tolist()
        [0.25]
        """
        n, u, v, q = uncertain_pairs_from_igraph(graph, p)
        return cls(n, u, v, q, relaxed=relaxed, directed=bool(graph.is_directed()))

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` with columns ``u``, ``v``, ``p``, one row per pair.

        Examples
        --------
        >>> UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0]).to_pandas().shape
        (2, 3)
        """
        return uncertain_to_pandas(self)

    def to_networkx(self) -> Any:
        """A ``networkx.Graph`` on nodes ``0..n-1`` with the edge attribute ``p``.

        (A ``networkx.MultiGraph`` for a relaxed graph, which may repeat pairs; ``DiGraph`` and
        ``MultiDiGraph`` for a directed one.)

        Examples
        --------
        >>> g = UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0]).to_networkx()
        >>> g.number_of_nodes(), g.edges[0, 1]["p"]
        (3, 0.5)
        """
        return uncertain_to_networkx(self)

    def to_igraph(self) -> Any:
        """An ``igraph.Graph`` on vertices ``0..n-1`` with the edge attribute ``p`` (directed if this is).

        Examples
        --------
        >>> UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0]).to_igraph().es["p"]
        [0.5, 1.0]
        """
        return uncertain_to_igraph(self)

    def to_graphml(
        self, path: str | os.PathLike[str], *, keep_ids: bool = False, seed: SeedLike = None
    ) -> RunRecord:
        """Write GraphML (edge attribute ``p``), by default under randomly permuted node ids.

        ``save(path, format="graphml", keep_ids=keep_ids, seed=seed)``: the same release path
        (:func:`graphveil.io.write_release`), returning the same private
        :class:`~graphveil.record.RunRecord` (``record.permutation``: None when the ids were kept). The graph-level attribute ``graphveil`` holds the release
        header as JSON (the scalar keys of :data:`~graphveil.io.layout.RELEASE_KEYS`). ``.gz``/``.bz2``/``.xz``
        suffixes compress. Read by ``networkx.read_graphml(path, node_type=int)`` and
        ``igraph.Graph.Read_GraphML``.

        Examples
        --------
        >>> import tempfile, pathlib, networkx as nx
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "release.graphml"
        >>> _ = UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0]).to_graphml(path, keep_ids=True)
        >>> nx.read_graphml(path, node_type=int).edges[1, 2]["p"]
        1.0
        """
        from graphveil.io.releases import write_release  # io is a floor up (a declared escape)

        return write_release(self, path, format="graphml", keep_ids=keep_ids, seed=seed)

    # ------------------------------------------------------------------ edit distance
    def expected_edit_distance(self, graph: Graph) -> float:
        r"""Expected edit distance ``E[D(G, graph)]`` between a sample ``G`` and ``graph``.

        ``D(G, G') = |E_G \ E_G'| + |E_G' \ E_G|`` counts the pairs present in exactly one of
        the two graphs. By linearity (Section V-A), ``E[D] = sum over pairs in graph of (1 - p)
        + sum over pairs not in graph of p``. The paper assumes ``graph`` is a possible world;
        here an edge of ``graph`` that is no pair of this uncertain graph has p = 0 and adds 1.
        Relaxed graphs are measured through their simplified samples (:meth:`simplified`).
        A directed uncertain graph is measured against a directed graph, on ordered pairs (an
        arc and its reverse are two pairs).

        Parameters
        ----------
        graph : Graph
            A deterministic graph on the same ``n`` nodes (typically the original G0), directed
            exactly when this uncertain graph is.

        Returns
        -------
        float

        Raises
        ------
        TypeError
            If ``graph`` is not a :class:`Graph`.
        ValueError
            If ``graph`` has a different number of nodes.

        References
        ----------
        Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section V-A and Theorem 4.1.
        """
        simple = self.simplified()
        in_graph, outside = match(simple, graph)
        q = simple._p
        return float(np.sum(1.0 - q[in_graph]) + np.sum(q[~in_graph]) + outside)

    def edit_distance_variance(self, graph: Graph | None = None) -> float:
        """Variance of the edit distance between a sample and a graph: Theorem 4.1.

        ``Var[D(G, graph)] = sum of p(1 - p)`` over the pairs (of :meth:`simplified` for a
        relaxed graph), whatever ``graph`` is: every pair adds an independent Bernoulli term
        and ``graph`` only decides which outcome counts. ``graph`` is optional and only checked.

        References
        ----------
        Nguyen, Imine, Rusinowitch, ASIACCS 2015, Theorem 4.1 (proof in the appendix).
        """
        simple = self.simplified()
        if graph is not None:
            check_graph(graph, simple.n, simple.directed)
        return simple.total_variance()

    # ------------------------------------------------------------------ sampling
    def sample(
        self,
        count: int | None = None,
        seed: SeedLike = None,
        threads: int | None = None,
    ) -> Graph | list[Graph]:
        """Draw possible worlds: every pair kept independently with its probability.

        Samples are simple graphs (a relaxed graph's self-loops dropped and multi-edges
        merged, see :meth:`simplified`), directed for a directed uncertain graph. A sample of a graph whose ids are a release's
        permutation (:attr:`ids_permuted`) has those ids as its ``labels``;
        :func:`graphveil.write_edgelist` writes a labelled graph's labels and permutes the ids
        of any other. Drawn in C++ in parallel; pairs are cut into fixed
        blocks, each (sample, block) with its own random stream, so the output depends only on
        the seed, never on ``threads``; sample ``k`` of ``sample(count, seed)`` is the same for
        every ``count > k``.

        Parameters
        ----------
        count : int, optional
            Number of samples. ``None`` returns one :class:`Graph`, an int a list.
        seed : int, numpy.random.Generator or None
            Randomness; ``None`` draws fresh entropy.
        threads : int, optional
            Worker threads (``None`` or 0: every core).

        Returns
        -------
        Graph or list of Graph

        Raises
        ------
        ValueError
            If ``count`` is negative, ``threads`` invalid or the worlds exceed physical memory.

        References
        ----------
        Nguyen, Imine, Rusinowitch, ASIACCS 2015, Section III-A (possible worlds).

        Examples
        --------
        >>> ug = UncertainGraph(3, [0, 1], [1, 2], [1.0, 0.0])
        >>> ug.sample(seed=1).m
        1
        """
        single = count is None
        count = 1 if single else non_negative(count, "count", " or None")
        nthreads = check_threads(threads)
        simple = self.simplified()
        check_world_memory(simple, count, nthreads)
        graphs = worlds(simple, count, seed, nthreads)
        return graphs[0] if single else graphs

    def sample_edges(
        self,
        seed: SeedLike = None,
        *,
        index: int = 0,
        threads: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The edges of one sample as canonical arrays ``(u, v)``, ``u < v``, sorted (arcs if directed).

        The same world as ``sample(count, seed)[index]`` (and ``sample(seed=seed)`` for
        ``index=0``) for an int seed, without building the graph.

        Parameters
        ----------
        seed : int, numpy.random.Generator or None
            Randomness.
        index : int
            Which sample of the seed's sequence.
        threads : int, optional
            Worker threads (``None`` or 0: every core).

        Returns
        -------
        (numpy.ndarray, numpy.ndarray)
            The kept pairs, in the node-id dtype.
        """
        index = non_negative(index, "index")
        nthreads = check_threads(threads)
        return world_edges(self.simplified(), seed_to_u64(seed), int(index), nthreads)

    def sample_multigraph(
        self,
        seed: SeedLike = None,
        *,
        index: int = 0,
        threads: int | None = None,
    ) -> Multigraph:
        """One possible world with every kept pair as an edge: loops and copies stay.

        Every pair is one independent trial, as in :meth:`sample`, but nothing is merged: a
        relaxed graph's world is a :class:`~graphveil.multigraph.Multigraph` (a kept self-loop
        adds 2 to its node's degree, every kept copy of a pair is an edge), the form in which
        the paper's tables measured the printed RandWalk-mod. A deterministic relaxed graph
        (every p = 1, e.g. ``randwalk_mod(...).graph``) is its own world. Sample ``index`` of
        ``seed``; drawn in C++ with one random stream per fixed block of pairs, so the world
        never depends on ``threads``. (For a strict graph the world is the same graph as
        ``sample(seed=seed)`` only when no pair is drawn twice, which a strict graph never has;
        its draws then equal :meth:`sample_edges`'.)

        Examples
        --------
        >>> ug = UncertainGraph(3, [0, 0, 1], [0, 1, 1], [1.0, 1.0, 1.0], relaxed=True)
        >>> world = ug.sample_multigraph(seed=1)
        >>> world.m, world.degrees.tolist(), world.simple.m
        (3, [3, 3, 0], 1)
        """
        index = non_negative(index, "index")
        require_undirected(self, "sample_multigraph (a Multigraph)")
        u, v = world_edges(self, seed_to_u64(seed), int(index), check_threads(threads))
        return Multigraph(self._n, u, v)

    # ------------------------------------------------------------------ files
    def with_permuted_ids(self, seed: SeedLike = None) -> tuple[UncertainGraph, np.ndarray]:
        """Return this graph under uniformly random node ids: ``(graph, perm)``.

        Node ``i`` of this graph is node ``perm[i]`` of the result, whose :attr:`ids_permuted`
        is True and whose ``meta`` keeps only the public part (scheme and parameters). Keep
        ``seed`` None (fresh entropy) for anything published: anyone who learns the seed
        redraws ``perm`` and maps the ids back.
        """
        perm = np.random.default_rng(seed_to_u64(seed)).permutation(self._n).astype(np.int64)
        out = UncertainGraph(
            self._n,
            perm[self._u],
            perm[self._v],
            self._p,
            relaxed=self._relaxed,
            directed=self._directed,
            meta={k: self.meta[k] for k in PUBLIC_META if k in self.meta},
        )
        out._ids_permuted = True
        if self._record is not None and self._record.permutation is not None:
            # the true ids' mapping, through both permutations
            out._record = RunRecord(perm[self._record.permutation], dict(self._record.report))
        return out, perm

    def save(
        self,
        path: str | os.PathLike[str],
        *,
        keep_ids: bool = False,
        seed: SeedLike = None,
        format: str | None = None,
        compress: bool = False,
        record: str | os.PathLike[str] | None = None,
    ) -> RunRecord:
        """Publish the uncertain graph to ``path``, by default under randomly permuted node ids.

        The file is a *release*: it holds only :data:`~graphveil.io.layout.RELEASE_KEYS` (the format, ``n``, the
        pairs and their probabilities, the scheme's name and the parameters its user chose,
        whether the ids were permuted, the package version). Everything derived from the true
        graph or from randomness (the scheme's seed, the id permutation, search history,
        eps-hat, solver statistics, timings) goes into the returned :class:`RunRecord`, which
        is written to ``record`` (mode 0600) only when asked. Never publish the record.

        Unless ``keep_ids=True``, node ``i`` is written as ``perm[i]`` for a uniformly random
        permutation drawn from fresh entropy; ``record.permutation`` holds it. A graph whose
        ids are already a release's permutation (:attr:`ids_permuted`, e.g. a loaded release)
        is written as it is, without a second permutation. The same graph and ``seed`` give
        byte-identical files whatever the thread count. The release follows the umask (0644
        under umask 022); the write is atomic.

        Formats (:mod:`graphveil.io` holds their layouts; every one is written by
        :func:`graphveil.io.write_release`, the one release path): ``"npz"`` (a numpy archive
        with one entry per key of :data:`~graphveil.io.layout.RELEASE_KEYS`, ``params`` as JSON), ``"tsv"`` (one
        ``u<TAB>v<TAB>p`` line per pair and nothing else, so igraph's ``Graph.Read_Ncol`` and
        networkx's ``read_weighted_edgelist`` read it as it is; ``.gz``, ``.bz2``, ``.xz``
        compress), ``"parquet"`` (columns ``u``, ``v``, ``p``; ``pip install
        "graphveil[parquet]"``) or ``"graphml"`` (for other tools; ``.gz``, ``.bz2``, ``.xz``
        compress). The TSV's release header (the keys of :data:`~graphveil.io.layout.RELEASE_KEYS` but the arrays)
        goes to the JSON sidecar ``path + ".json"`` (:func:`graphveil.io.sidecar_path`), published with it: a
        header inside the body would break those readers, and a sidecar keeps the body a plain
        weighted edge list while graphveil still restores ``n``, ``relaxed`` and
        ``ids_permuted``; parquet and GraphML carry the same header inside the file. Chosen from
        the suffix when ``format`` is None.

        Parameters
        ----------
        path : str or os.PathLike
            Destination (``.npz``, ``.parquet``; ``.tsv``, ``.txt``, ``.graphml``, optionally
            followed by ``.gz``/``.bz2``/``.xz``).
        keep_ids : bool
            Write node ids as they are: the only way to publish the true ids.
        seed : int, numpy.random.Generator or None
            Randomness of the permutation. Leave it None for anything published: anyone who
            learns the seed redraws the permutation and maps the ids back.
        format : str, optional
            One of :data:`~graphveil.io.formats.RELEASE_FORMATS` (npz, tsv, parquet, graphml, ...):
            overrides the choice by suffix.
        compress : bool
            Deflate the .npz archive: about a third smaller for random probabilities, several
            times slower to write (ignored by the other formats: the suffix decides for text).
        record : str or os.PathLike, optional
            Also write the private run record there (JSON, mode 0600). Never publish it.

        Returns
        -------
        RunRecord
            The private record: ``permutation`` (node ``i`` of this graph is node
            ``permutation[i]`` in the file; None when the ids were written as they are) and
            ``report`` (this graph's ``meta``).

        Raises
        ------
        ValueError
            If the format cannot be told from the suffix, ``record`` is ``path``, or the public
            parameters name a secret (``seed``, ``permutation``, ``timings``, ``history``).
        TypeError
            If ``meta`` is not JSON-serialisable.
        ImportError
            For parquet without pyarrow: ``pip install "graphveil[parquet]"``.
        FileNotFoundError, PermissionError
            If a destination cannot be written (checked before anything is written).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> ug = UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0], meta={"scheme": "toy", "seed": 7})
        >>> rec = ug.save(d / "pub.npz", record=d / "private.json")
        >>> back = load_uncertain(d / "pub.npz")
        >>> back.ids_permuted, back.meta["scheme"], "seed" in back.meta
        (True, 'toy', False)
        >>> rec.report["seed"], sorted(rec.permutation.tolist())
        (7, [0, 1, 2])
        """
        from graphveil.io.releases import write_release  # io is a floor up (a declared escape)

        return write_release(
            self,
            path,
            format=format,
            keep_ids=keep_ids,
            seed=seed,
            compress=compress,
            record=record,
        )

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        format: str | None = None,
        record: RunRecord | str | os.PathLike[str] | None = None,
    ) -> UncertainGraph:
        """Read a release written by :meth:`save` (npz, TSV, parquet) or a plain ``u v p`` TSV.

        With ``record`` (the release's private run record, or its path), the graph carries it
        (:attr:`run_record`): saving it again writes the original id mapping into the new
        record, and :func:`~graphveil.evaluate` maps the ids back through it. The record
        must be this release's own (its digest is checked) and must say how the ids were
        written: a permuted release needs the record's permutation.

        The graph's ``meta`` holds the published ``scheme`` and ``params``; what the file said
        about itself (``format_version``, ``graphveil_version``, ``ids_permuted``) is added under
        ``meta["file"]``, and :attr:`ids_permuted` tells whether the ids are a permutation (then
        only the private run record maps them back to the true ids). A version-1 file (which
        also stored a seed and a whole report) is read the same way; that extra is dropped.
        Everything is validated: format tag and version, array shapes and dtypes, ids in
        ``0..n-1``, probabilities in ``[0, 1]``, canonical pairs. The format is told from the
        content (npz, parquet), else from the suffix; ``format`` overrides. GraphML is written
        for other tools only and is not read back.

        A TSV's header is read from its sidecar ``path + ".json"`` (or from ``# key: value``
        lines at the top, as releases before the sidecar wrote it). Without either, the file is
        read as plain ``u v p`` lines (``#``/``%`` comments allowed): ``n`` is then the largest
        id + 1, the model relaxed only if a self-loop appears, and :attr:`ids_permuted` None.

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        ValueError
            If the file is corrupt, truncated, of another kind, written by a newer format
            version, or holds an invalid uncertain graph; the message names the file. If
            ``record`` belongs to another release or cannot map its ids.
        """
        from graphveil.io.releases import read_uncertain  # io is a floor up (a declared escape)

        graph = read_uncertain(path, format=format)
        if record is not None:
            graph._record = check_record(graph, record, str(path))
        return graph

    # ------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        """Same n, model, pairs and probabilities (``meta`` is not compared)."""
        if not isinstance(other, UncertainGraph):
            return NotImplemented
        return (
            self._n == other._n
            and self._relaxed == other._relaxed
            and self._directed == other._directed
            and np.array_equal(self._u, other._u)
            and np.array_equal(self._v, other._v)
            and np.array_equal(self._p, other._p)
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._directed = False  # pickled before uncertain graphs had a direction
        for name, value in state.items():
            setattr(self, name, aligned(value))  # Dask may leave the arrays misaligned

    def __repr__(self) -> str:
        kind = (", relaxed" if self._relaxed else "") + (", directed" if self._directed else "")
        return f"UncertainGraph(n={self._n:,}, pairs={self.num_pairs:,}{kind})"


def load_uncertain(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    record: RunRecord | str | os.PathLike[str] | None = None,
) -> UncertainGraph:
    """Read an uncertain graph from a .npz, TSV or parquet release: :meth:`UncertainGraph.load`."""
    return UncertainGraph.load(path, format=format, record=record)


class Anonymized(NamedTuple):
    """The output of a scheme: the uncertain graph and a report of how it was made.

    Unpacks as ``ug, report = scheme(...)``, or read ``.graph`` and ``.report``. The uncertain
    graph's public attributes and methods read through it too (``result.directed``,
    ``result.save(path)``); it stays a tuple (``len`` 2): pass ``result.graph`` where an
    :class:`UncertainGraph` is expected. ``report`` is a plain dict (JSON-serialisable):
    ``scheme``, ``params``, ``seed``, ``timings`` (seconds per phase) and scheme-specific
    entries. The same dict (without bulky arrays) is stored in ``graph.meta`` for the caller.
    :meth:`UncertainGraph.save` publishes only ``scheme`` and ``params`` (the parameters the
    user chose); the rest, the seed first, goes to the private run record (``record=``), never
    into the release.

    >>> import graphveil as gv
    >>> result = gv.anonymize.randwalk(gv.datasets.load("karate_club"), t=2, seed=1)
    >>> ug, report = result
    >>> result.directed, result.n == ug.n, report["scheme"]
    (False, True, 'randwalk')
    """

    graph: UncertainGraph
    report: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        # Called only for names that neither a tuple nor the two fields have: the graph's.
        if name.startswith("_"):  # protocol lookups (copy, pickle, numpy) are not forwarded
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        with contextlib.suppress(AttributeError):
            return getattr(self.graph, name)
        raise AttributeError(
            f"{type(self).__name__!r} object has no attribute {name!r}: a scheme returns "
            "(graph, report); the uncertain graph is .graph (or unpack: ug, report = "
            f"scheme(...)) and has no {name!r} either"
        )
