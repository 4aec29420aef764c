"""The utility statistics of Section VI-B of the paper, and their one table.

:data:`STATISTIC_TABLE` is the only list of statistics: name, description, how it is computed,
display formats and header. :func:`utility_statistics`, the reports
(:mod:`graphveil.measure.report`), the study (:mod:`graphveil.experiments`) and its plots all
read it, so a new statistic is one more row there (plus its function and tests). Degree-based: ``S_NE`` (edges), ``S_AD`` (average degree), ``S_MD`` (maximum degree), ``S_DV``
(degree variance), ``S_PL`` (power-law exponent). Shortest-path based, over connected pairs only:
``S_APD`` (average distance), ``S_EDiam`` (effective diameter), ``S_CL`` (connectivity length),
``S_Diam`` (diameter). Clustering: ``S_CC`` (transitivity).

Conventions for degenerate graphs (no crash, no warning): a mean, percentile or fit over an empty
set is ``nan`` (``S_AD`` and ``S_DV`` of the graph with no nodes; ``S_APD``, ``S_EDiam``, ``S_CL``
of a graph without edges; ``S_PL`` when fewer than four distinct positive degrees leave too
little to fit); a count or maximum over an empty set is 0 (``S_NE``, ``S_MD``, ``S_Diam``);
``S_CC`` is 0 when the graph has no connected triple (the networkx convention; igraph returns nan).

A :class:`~graphveil.multigraph.Multigraph` (a world of a relaxed release: the printed
RandWalk-mod, Mixture over it) is measured as the authors measured it
(``graph-dp/compare/utility_measure_multigraph.py``): the degree-based statistics ``S_NE, S_AD,
S_MD, S_DV, S_PL`` on the multigraph (every copy of a pair and every loop is an edge, a loop adds
2 to its node's degree), ``S_CC`` and the distance statistics on its simple graph (igraph's
``transitivity_undirected`` simplifies its adjacency lists first; the authors simplified the
graph before the distances).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads, require_undirected
from graphveil._seeds import SeedLike
from graphveil._threads import default_threads
from graphveil.graph import Graph
from graphveil.measure import _analyst_rows as _rows
from graphveil.measure import analyst as _analyst
from graphveil.measure import directed
from graphveil.measure._checks import check_measured, is_directed, measured_graph, simple_graph

# The distance statistics live in graphveil.measure.distances, the power-law fit in
# graphveil.measure.powerlaw; they stay importable from here.
from graphveil.measure.distances import (  # noqa: F401
    DIAMETER_MAX_BFS,
    DIAMETER_METHODS,
    DISTANCE_SOURCES,
    EXACT_THRESHOLD,
    HYPERBALL_LOG2M,
    Statistics,
    diameter,
    diameter_choice,
    diameter_lower_bound,
    distance_histogram,
    distance_statistics,
    neighbourhood_function,
)
from graphveil.measure.powerlaw import (  # noqa: F401
    RIVAL_ALPHA_GAP,
    RIVAL_KS_MARGIN,
    PowerLawFit,
    pooled_powerlaw_exponent,
    powerlaw_exponent,
    powerlaw_fit,
    powerlaw_rival,
)
from graphveil.multigraph import Multigraph


# ---------------------------------------------------------------------------- degree statistics
def degree_statistics(graph: Graph | Multigraph) -> dict[str, float]:
    """Edges, average, maximum and variance of the degrees: ``S_NE, S_AD, S_MD, S_DV``.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph, or a multigraph: then every copy of a pair and every loop
        is an edge and a loop adds 2 to its node's degree (igraph's ``ecount`` and ``degree``,
        as the authors measured the printed RandWalk-mod), except in ``S_MD``, which leaves
        loops out as their igraph ``maxdegree()`` call did.

    Returns
    -------
    dict[str, float]
        ``S_NE = m``, ``S_AD = 2m / n``, ``S_MD = max degree``,
        ``S_DV = (1/n) sum (d_v - S_AD)^2`` (population variance). With no nodes ``S_AD`` and
        ``S_DV`` are nan, ``S_NE`` and ``S_MD`` are 0.

    Raises
    ------
    TypeError
        If ``graph`` is not a :class:`graphveil.Graph` or a Multigraph.

    References
    ----------
    Section VI-B ("Degree-based statistics") of the paper.

    Examples
    --------
    >>> g = Graph.from_edges([0, 0, 0], [1, 2, 3])
    >>> degree_statistics(g)
    {'S_NE': 3.0, 'S_AD': 1.5, 'S_MD': 3.0, 'S_DV': 0.75}
    >>> degree_statistics(Multigraph(4, [0, 0, 0, 1], [1, 1, 2, 1]))["S_NE"]
    4.0
    """
    require_undirected(graph, "degree_statistics")
    graph = check_measured(graph)
    deg = graph.degrees
    if graph.n == 0:
        return {"S_NE": 0.0, "S_AD": float("nan"), "S_MD": 0.0, "S_DV": float("nan")}
    mean = 2.0 * graph.m / graph.n
    # igraph's maxdegree() leaves loops out unless asked, and the authors did not ask
    top = graph.loopless_degrees if isinstance(graph, Multigraph) else deg
    return {
        "S_NE": float(graph.m),
        "S_AD": mean,
        "S_MD": float(top.max()),
        "S_DV": float(np.mean((deg - mean) ** 2)),
    }


# ----------------------------------------------------------------------------------- triangles
def triangle_count(graph: Graph | Multigraph, *, threads: int | None = None) -> tuple[int, int]:
    """Number of triangles and of connected triples (paths of length two).

    Triangles are counted in C++ by the degree-ordered orientation (every edge points to the
    endpoint of higher (degree, id) rank, so each triangle is found once from its lowest node and
    every out-degree is O(sqrt m)); O(m sqrt m) time, parallel over nodes, exact integers, so the
    answer does not depend on ``threads``.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph; a multigraph is counted on its simple graph (loops dropped,
        copies merged), as igraph's ``transitivity_undirected`` counts it.
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    (int, int)
        ``(triangles, triples)`` with ``triples = sum_v d_v (d_v - 1) / 2``.

    Examples
    --------
    >>> triangle_count(Graph.from_edges([0, 1, 2], [1, 2, 0]))
    (1, 3)
    """
    require_undirected(graph, "triangle_count")
    graph = simple_graph(check_measured(graph))
    triangles, triples = _core.count_triangles(graph.indptr, graph.indices, check_threads(threads))
    return int(triangles), int(triples)


def transitivity(graph: Graph | Multigraph, *, threads: int | None = None) -> float:
    """Global clustering coefficient ``S_CC = 3 * triangles / connected triples``.

    Returns 0.0 for a graph without connected triples (as ``networkx.transitivity``).

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph; a multigraph's is its simple graph's (igraph 0.7's
        ``transitivity_undirected`` simplified its adjacency lists first; so does igraph 1.0).
    threads : int, optional
        Worker threads (None or 0: all cores).

    Returns
    -------
    float

    References
    ----------
    Section VI-B ("Clustering statistics") of the paper.

    Examples
    --------
    >>> transitivity(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3]))
    0.6
    """
    require_undirected(graph, "transitivity")
    triangles, triples = triangle_count(graph, threads=threads)
    return 3.0 * triangles / triples if triples else 0.0


#: The degrees each power-law statistic fits (a graph attribute): ``S_PL`` a graph's degrees,
#: ``S_PL_in`` and ``S_PL_out`` a digraph's in- and out-degrees.
POWERLAW_DEGREES: dict[str, str] = {
    "S_PL": "degrees",
    "S_PL_in": "in_degrees",
    "S_PL_out": "out_degrees",
}


def unstable_powerlaw_fits(graph: Graph) -> dict[str, tuple[PowerLawFit, PowerLawFit]]:
    """The power-law statistics of ``graph`` whose fit has a rival: ``{name: (fit, rival)}``.

    Each statistic of :data:`~graphveil.measure.utility.POWERLAW_DEGREES` measured on
    ``graph`` (``S_PL``, or ``S_PL_in`` and ``S_PL_out`` of a digraph) whose
    :func:`powerlaw_fit` has a :func:`powerlaw_rival`.
    Measured against such a G0, a sample's exponent may take either fit, so the statistic's
    rel.err term says which fit the samples took more than what the release changed:
    :class:`~graphveil.measure.Report` and the study's ``study.md`` warn of it.

    Examples
    --------
    >>> unstable_powerlaw_fits(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3]))
    {}
    """
    graph = measured_graph(graph)
    out = {}
    for name in statistic_names(graph.directed):
        if name in POWERLAW_DEGREES:
            degrees = getattr(graph, POWERLAW_DEGREES[name])
            rival = powerlaw_rival(degrees)
            if rival is not None:
                out[name] = (powerlaw_fit(degrees), rival)
    return out


# ------------------------------------------------------------------------ the statistics table
@dataclass(frozen=True)
class StatisticOptions:
    """The options of :func:`utility_statistics`, handed to every statistic's ``compute``."""

    exact_threshold: int
    sources: int
    seed: SeedLike
    threads: int | None
    distance_method: str
    diameter_method: str = "ifub"
    #: G0 measured once for the analyst statistics (None: they are not measured).
    analyst: _analyst.AnalystReference | None = None


#: How each score of :attr:`Statistic.score` turns a mean and G0's value into an error term.
SCORES: tuple[str, ...] = ("relative", "divergence", "agreement", "overlap")
#: The graphs a statistic is measured on (:attr:`Statistic.applies`).
APPLIES: tuple[str, ...] = ("undirected", "directed", "both")
#: The paper's groups of statistics (:attr:`Statistic.group`; ``""``: none).
GROUPS: tuple[str, ...] = ("degree", "path", "clustering", "")
#: Where a statistic may be NaN (:attr:`Statistic.undefined`): nowhere, on the graph without
#: nodes, on a graph without edges (arcs; and without nodes), or on some other graphs too.
UNDEFINED: tuple[str, ...] = ("", "no nodes", "no edges", "some graphs")


@dataclass(frozen=True)
class Statistic:
    """One row of :data:`STATISTIC_TABLE`.

    Attributes
    ----------
    name : str
        The key in every result (``utility_statistics``, reports, study tables and CSV files).
    description : str
        What it measures.
    compute : callable
        ``compute(graph, options) -> dict`` holding at least ``name``. Statistics computed
        together share one function (e.g. the four distance statistics share one BFS), and
        :func:`utility_statistics` calls each function once.
    formats : (str, str)
        :meth:`Report.table <graphveil.measure.Report.table>` formats of the true graph's row
        (exact values) and of the mean row.
    header : str
        Column header of :meth:`Report.table <graphveil.measure.Report.table>` (default: name).
    applies : {"undirected", "directed", "both"}
        The graphs it is measured on.
    relative : bool
        Whether it enters rel.err (default True). A count that a graph's small pieces dominate
        (the numbers of strong and weak components: G0 with 2 weak components and a world
        with a few hundred isolated nodes give a term of several hundred) is reported, not
        averaged into rel.err; its share of the largest component is.
    group : {"degree", "path", "clustering", ""}
        The paper's group of the statistic (Section 5.2's degree-based, shortest path-based and
        clustering statistics); ``""`` for the directed-only ones and the analyst statistics.
    analyst : bool
        Whether it is one of the analyst statistics (:mod:`graphveil.measure.analyst`: PGB's
        and PrivGraph's queries), their own column group (default False: the paper's
        statistics). They are measured only against an
        :class:`~graphveil.measure.analyst.AnalystReference` of G0 and averaged into their own
        mean error, ``analyst_err`` (:func:`~graphveil.measure.errors.error_term`), so the
        paper's columns and rel.err do not change.
    score : {"relative", "divergence", "agreement", "overlap"}
        How a sample's value is scored against G0's
        (:func:`~graphveil.measure.errors.error_term`): ``"relative"``,
        ``|mean - G0| / |G0|``; the others compare the sample with G0 themselves (G0 scores
        0 against itself for a divergence, 1 for an agreement or an overlap) and their error
        is ``|mean - G0|``.
    reference : str
        The implementation it is tested against (and equals where the definitions agree).
    undefined : {"", "no nodes", "no edges", "some graphs"}
        Where its value may be NaN (:data:`~graphveil.measure.utility.UNDEFINED`): nowhere (a
        count, a maximum: 0 on an empty set), on the graph without nodes (a mean over the
        nodes), on a graph without edges (a mean over connected pairs), or on some other graphs
        too (``S_PL`` with fewer than four distinct positive degrees to fit, ``S_ASS`` where
        every edge joins equal degrees). tests/test_api.py checks every row on the graph zoo
        against it.
    sequential : bool
        Whether its kernel runs on one thread (default False): with more than one thread,
        :func:`utility_statistics` computes it in a thread of its own while the other rows'
        kernels run, so that one sample's statistics take less wall time (the values are the
        same: every row's randomness is its own seed's).
    """

    name: str
    description: str
    compute: Callable[[Graph | Multigraph, StatisticOptions], dict[str, float]]
    formats: tuple[str, str] = ("{:.2f}", "{:.2f}")
    header: str = ""
    #: The graphs it is measured on: ``"undirected"``, ``"directed"`` or ``"both"`` (then its
    #: ``compute`` has a directed form, :mod:`graphveil.measure.directed`).
    applies: str = "undirected"
    #: Whether it enters rel.err (see the class docstring).
    relative: bool = True
    #: The paper's group: ``"degree"``, ``"path"``, ``"clustering"`` (``""``: none).
    group: str = ""
    #: Whether it is an analyst statistic, in their own column group (see the class docstring).
    analyst: bool = False
    #: How it is scored against G0: ``"relative"``, ``"divergence"``, ``"agreement"`` or
    #: ``"overlap"`` (see the class docstring and :func:`~graphveil.measure.errors.error_term`).
    score: str = "relative"
    reference: str = ""  #: The implementation it is tested against.
    #: Where it may be NaN: ``""``, ``"no nodes"``, ``"no edges"``, ``"some graphs"``.
    undefined: str = ""
    #: Whether its kernel runs on one thread (the Leiden communities): given more than one
    #: thread, :func:`utility_statistics` computes it beside the other rows.
    sequential: bool = False

    def __post_init__(self) -> None:
        problems = []
        if not self.name.isidentifier():
            problems.append("its name must be an identifier (a CSV column, a JSON key)")
        if not (self.description and callable(self.compute)):
            problems.append("it needs a description and a compute function")
        if self.applies not in APPLIES:
            problems.append(f"applies {self.applies!r} is not one of {', '.join(APPLIES)}")
        if self.group not in GROUPS:
            problems.append(f"group {self.group!r} is not one of {GROUPS}")
        if self.undefined not in UNDEFINED:
            problems.append(f"undefined {self.undefined!r} is not one of {UNDEFINED}")
        if self.score not in SCORES:
            problems.append(f"score {self.score!r} is not one of {', '.join(SCORES)}")
        if self.analyst and (self.group or not self.reference):
            problems.append("an analyst statistic has no paper's group and names its reference")
        if not self.analyst and self.score != "relative":
            problems.append("a paper's statistic enters rel.err: its score is 'relative'")
        try:
            [f.format(1.5) for f in self.formats]
        except (IndexError, KeyError, ValueError, AttributeError):
            problems.append(f"formats {self.formats!r} do not format a number")
        if len(self.formats) != 2:
            problems.append("formats are two: the true graph's row and the mean row")
        if problems:
            raise ValueError(f"statistic {self.name!r}: {'; '.join(problems)}")

    def measures(self, directed: bool) -> bool:
        """Whether this statistic is measured on a directed (or an undirected) graph."""
        return self.applies == "both" or self.applies == ("directed" if directed else "undirected")

    @property
    def column(self) -> str:
        """The header of this statistic's column in a report table."""
        return self.header or self.name


# Each statistic takes a Graph or a Multigraph: degrees (with S_PL) on the multigraph itself,
# clustering and distances on its simple graph (see the module docstring).
def _degrees(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    if is_directed(graph):
        return directed.degree_statistics_directed(measured_graph(graph))
    return degree_statistics(graph)


def _clustering(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    if is_directed(graph):
        return {
            "S_CC": directed.directed_clustering(measured_graph(graph), threads=options.threads)
        }
    return {"S_CC": transitivity(graph, threads=options.threads)}


def _powerlaw_sides(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    digraph = measured_graph(graph)
    return {
        "S_PL_in": powerlaw_exponent(digraph.in_degrees),
        "S_PL_out": powerlaw_exponent(digraph.out_degrees),
    }


def _reciprocity(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return {"S_REC": directed.reciprocity(measured_graph(graph))}


def _components(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return directed.components(measured_graph(graph))


def _powerlaw(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return {"S_PL": powerlaw_exponent(graph.degrees)}


def _distances(graph: Graph | Multigraph, options: StatisticOptions) -> dict[str, float]:
    return distance_statistics(
        simple_graph(graph),
        method=options.distance_method,
        exact_threshold=options.exact_threshold,
        sources=options.sources,
        diameter_method=options.diameter_method,
        seed=options.seed,
        threads=options.threads,
    )


_COUNT = ("{:.0f}", "{:.1f}")
_PL = ("{:.3f}", "{:.3f}")
_SHARE = ("{:.4f}", "{:.4f}")
_BOTH, _DIRECTED = "both", "directed"
_NX, _PGB, _SKL = "networkx", "PGB (dooohow/PGB utils.py)", "scikit-learn"


#: The utility statistics of Section VI-B, in the paper's column order: the one table every
#: part of graphveil reads (see the module docstring).
def _checked_table(*rows: Statistic) -> tuple[Statistic, ...]:
    """The rows, refusing a name or a column header that two of them would share."""
    for what in ("name", "column"):
        seen: dict[str, str] = {}
        for row in rows:
            value = getattr(row, what)
            if value in seen:
                raise ValueError(
                    f"statistic {row.name!r}: its {what} {value!r} is already statistic "
                    f"{seen[value]!r}'s: choose another"
                )
            seen[value] = row.name
    return rows


STATISTIC_TABLE: tuple[Statistic, ...] = _checked_table(
    Statistic(
        "S_NE",
        "number of edges (arcs)",
        _degrees,
        ("{:.0f}", "{:.0f}"),
        applies=_BOTH,
        group="degree",
    ),
    Statistic(
        "S_AD",
        "average degree (arcs / n if directed)",
        _degrees,
        applies=_BOTH,
        group="degree",
        undefined="no nodes",
    ),
    Statistic("S_MD", "maximum degree", _degrees, _COUNT, group="degree"),
    Statistic("S_DV", "degree variance", _degrees, group="degree", undefined="no nodes"),
    Statistic(
        "S_CC",
        "clustering coefficient (transitivity; Fagiolo's global ratio if directed)",
        _clustering,
        ("{:.4f}", "{:.4f}"),
        applies=_BOTH,
        group="clustering",
    ),
    Statistic(
        "S_PL",
        "power-law exponent of the degrees",
        _powerlaw,
        ("{:.3f}", "{:.3f}"),
        group="degree",
        undefined="some graphs",
    ),
    Statistic(
        "S_APD",
        "average distance between connected pairs (along arcs)",
        _distances,
        applies=_BOTH,
        group="path",
        undefined="no edges",
    ),
    Statistic(
        "S_EDiam",
        "effective diameter (90th percentile distance)",
        _distances,
        _COUNT,
        "S_ED",
        applies=_BOTH,
        group="path",
        undefined="no edges",
    ),
    Statistic(
        "S_CL",
        "connectivity length (harmonic mean distance)",
        _distances,
        applies=_BOTH,
        group="path",
        undefined="no edges",
    ),
    Statistic(
        "S_Diam",
        "diameter (exact by iFUB, else a BFS lower bound)",
        _distances,
        _COUNT,
        applies=_BOTH,
        group="path",
    ),
    # directed graphs only (graphveil.measure.directed)
    Statistic("S_MD_in", "maximum in-degree", _degrees, _COUNT, applies=_DIRECTED),
    Statistic("S_MD_out", "maximum out-degree", _degrees, _COUNT, applies=_DIRECTED),
    Statistic("S_DV_in", "in-degree variance", _degrees, applies=_DIRECTED, undefined="no nodes"),
    Statistic("S_DV_out", "out-degree variance", _degrees, applies=_DIRECTED, undefined="no nodes"),
    Statistic(
        "S_PL_in",
        "power-law exponent of the in-degrees",
        _powerlaw_sides,
        _PL,
        applies=_DIRECTED,
        undefined="some graphs",
    ),
    Statistic(
        "S_PL_out",
        "power-law exponent of the out-degrees",
        _powerlaw_sides,
        _PL,
        applies=_DIRECTED,
        undefined="some graphs",
    ),
    Statistic(
        "S_REC",
        "reciprocity (share of arcs whose reverse is an arc)",
        _reciprocity,
        _SHARE,
        applies=_DIRECTED,
        undefined="no edges",
    ),
    Statistic(
        "S_SCC",
        "strongly connected components",
        _components,
        _COUNT,
        applies=_DIRECTED,
        relative=False,
    ),
    Statistic(
        "S_SCC_max",
        "largest strongly connected component's share of the nodes",
        _components,
        _SHARE,
        applies=_DIRECTED,
        undefined="no nodes",
    ),
    Statistic(
        "S_WCC",
        "weakly connected components",
        _components,
        _COUNT,
        applies=_DIRECTED,
        relative=False,
    ),
    Statistic(
        "S_WCC_max",
        "largest weakly connected component's share of the nodes",
        _components,
        _SHARE,
        applies=_DIRECTED,
        undefined="no nodes",
    ),
    # the analyst statistics (graphveil.measure.analyst), their own column group and mean error
    Statistic(
        "S_TRI",
        "number of triangles (PGB's tria_count)",
        _rows.clustering,
        _COUNT,
        analyst=True,
        reference="networkx triangles",
    ),
    Statistic(
        "S_ACC",
        "average clustering, degree < 2 counting 0 (PGB's ACC)",
        _rows.clustering,
        _SHARE,
        analyst=True,
        reference="networkx average_clustering",
        undefined="no nodes",
    ),
    Statistic(
        "S_DegKL",
        "KL divergence of the degree distribution from G0's (PGB's deg_dsb_KL)",
        _rows.degree_kl,
        _SHARE,
        analyst=True,
        score="divergence",
        reference=f"{_PGB} cal_kl",
        undefined="no nodes",
    ),
    Statistic(
        "S_DistKL",
        "KL divergence of the distance distribution from G0's (PGB's dis_dsb_KL)",
        _rows.distance_kl,
        _SHARE,
        analyst=True,
        score="divergence",
        reference=f"{_PGB} cal_kl of distance_distribution",
        undefined="no nodes",
    ),
    Statistic(
        "S_ASS",
        "degree assortativity (PGB's Ass)",
        _rows.assortativity,
        _SHARE,
        analyst=True,
        reference="networkx degree_assortativity_coefficient",
        undefined="some graphs",
    ),
    Statistic(
        "S_MOD",
        "modularity of the graph's own Leiden communities (PGB's and PrivGraph's MOD)",
        _rows.communities,
        _SHARE,
        analyst=True,
        reference="networkx community.modularity",
        sequential=True,
        undefined="no edges",
    ),
    Statistic(
        "S_NMI",
        "NMI of the graph's Leiden communities with G0's (PGB's CD_NMI)",
        _rows.communities,
        _SHARE,
        analyst=True,
        score="agreement",
        reference=f"{_SKL} normalized_mutual_info_score",
        sequential=True,
        undefined="no nodes",
    ),
    Statistic(
        "S_ARI",
        "adjusted Rand index of the graph's Leiden communities with G0's",
        _rows.communities,
        _SHARE,
        analyst=True,
        score="agreement",
        reference=f"{_SKL} adjusted_rand_score",
        sequential=True,
        undefined="no nodes",
    ),
    Statistic(
        "S_EVC_MAE",
        "mean absolute difference of the top-1% eigenvector centralities (PGB's evc_MAE)",
        _rows.eigenvector,
        ("{:.5f}", "{:.5f}"),
        analyst=True,
        score="divergence",
        reference="networkx eigenvector_centrality",
        undefined="some graphs",
    ),
    Statistic(
        "S_EVC_top",
        "share of G0's top-1% nodes by eigenvector centrality in the graph's (PrivGraph's)",
        _rows.eigenvector,
        _SHARE,
        "S_EVC_1%",
        analyst=True,
        score="overlap",
        reference="networkx eigenvector_centrality",
        undefined="some graphs",
    ),
    Statistic(
        "S_PR_top",
        "share of G0's top-1% nodes by PageRank in the graph's (SecGraph's PageRank)",
        _rows.pagerank,
        _SHARE,
        "S_PR_1%",
        analyst=True,
        score="overlap",
        reference="networkx pagerank",
        undefined="some graphs",
    ),
    Statistic(
        "S_IC",
        "independent-cascade spread in G0 from the graph's 20 degree-discount seeds, p = 0.01 "
        "(PrivGraph's)",
        _rows.spread,
        ("{:.1f}", "{:.1f}"),
        analyst=True,
        reference="PrivGraph (Privacy-Graph/PrivGraph utils.py) runIC",
    ),
)


#: The names of the paper's statistics of :data:`STATISTIC_TABLE` measured on an undirected
#: graph, in order: the keys of :func:`utility_statistics` (without ``analyst``).
STATISTICS: tuple[str, ...] = tuple(
    stat.name for stat in STATISTIC_TABLE if stat.measures(False) and not stat.analyst
)


def statistic_names(directed: bool = False, analyst: bool = False) -> tuple[str, ...]:
    """The names of :data:`STATISTIC_TABLE` measured on an undirected (or directed) graph.

    The paper's statistics, or with ``analyst`` the analyst statistics. In table order, as
    the table is now (what reports and the study read).
    """
    return tuple(
        stat.name
        for stat in STATISTIC_TABLE
        if stat.measures(directed) and stat.analyst == bool(analyst)
    )


def analyst_names(directed: bool = False) -> tuple[str, ...]:
    """The analyst statistics' names (:func:`statistic_names` with ``analyst=True``)."""
    return statistic_names(directed, analyst=True)


def rel_err_names(directed: bool = False) -> tuple[str, ...]:
    """The statistics rel.err averages over: :func:`statistic_names` but those not ``relative``."""
    return tuple(name for name in statistic_names(directed) if statistic(name).relative)


def group_names(group: str) -> tuple[str, ...]:
    """The undirected statistics of one of the paper's groups (:attr:`Statistic.group`).

    Examples
    --------
    >>> group_names("degree")
    ('S_NE', 'S_AD', 'S_MD', 'S_DV', 'S_PL')
    """
    return tuple(s.name for s in STATISTIC_TABLE if s.group == group and s.measures(False))


def statistic(name: str) -> Statistic:
    """The row of :data:`STATISTIC_TABLE` called ``name``."""
    for stat in STATISTIC_TABLE:
        if stat.name == name:
            return stat
    raise KeyError(f"no statistic {name!r}; the statistics are {', '.join(statistic_names())}")


def utility_statistics(
    graph: Graph | Multigraph,
    *,
    exact_threshold: int = EXACT_THRESHOLD,
    sources: int = DISTANCE_SOURCES,
    seed: SeedLike = None,
    threads: int | None = None,
    distance_method: str = "auto",
    diameter_method: str = "ifub",
    analyst: _analyst.AnalystReference | None = None,
) -> Statistics:
    """The utility statistics of the paper (:data:`STATISTIC_TABLE`) for one (sample) graph.

    Parameters
    ----------
    graph : Graph or Multigraph
        A simple undirected graph (a sample of an uncertain graph, or the original), or a
        multigraph (a world of a relaxed release), measured as the module docstring says.
    exact_threshold : int, default 10000
        Distances are exact (all-pairs BFS) up to this many nodes, from 1,000 BFS sources above.
    sources : int, default 1000
        BFS sources for the diameter lower bound ``S_Diam`` (the paper: 1,000).
    seed : int, numpy.random.Generator or None
        Seeds the BFS sources and the HyperBall hash (the only random parts).
    threads : int, optional
        Worker threads (None or 0: all cores); results do not depend on it.
    distance_method : {"auto", "exact", "hyperball", "sampled"}
        How the distances are computed; see :func:`distance_statistics`.
    diameter_method : {"ifub", "lower_bound"}
        How ``S_Diam`` is found above ``exact_threshold``; see :func:`distance_statistics`
        and :func:`diameter_choice`.
    analyst : ~graphveil.measure.analyst.AnalystReference, optional
        G0 measured once (:func:`~graphveil.measure.analyst.analyst_reference`): the analyst
        statistics (:func:`~graphveil.measure.utility.analyst_names`) follow the paper's,
        measured against it with its seed. None (default): the paper's only.

    Returns
    -------
    dict[str, float]
        Keys :data:`STATISTICS`, in table order: ``S_NE, S_AD, S_MD, S_DV`` (:func:`degree_statistics`),
        ``S_CC`` (:func:`transitivity`), ``S_PL`` (:func:`powerlaw_exponent` of this graph's
        degrees), ``S_APD, S_EDiam, S_CL, S_Diam`` (:func:`distance_statistics`). Degenerate
        graphs follow the conventions in this module's docstring. A :class:`~graphveil.measure.distances.Statistics` dict,
        whose ``diameter_method`` attribute says how ``S_Diam`` was found.

    References
    ----------
    Section VI-B of the paper.

    Examples
    --------
    >>> stats = utility_statistics(Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3]), seed=0)
    >>> stats["S_NE"], stats["S_CC"], stats["S_Diam"]
    (4.0, 0.6, 2.0)
    """
    graph = check_measured(graph)
    options = StatisticOptions(
        exact_threshold, sources, seed, threads, distance_method, diameter_method, analyst
    )
    rows = [
        stat
        for stat in STATISTIC_TABLE
        if stat.measures(is_directed(graph)) and (analyst is not None or not stat.analyst)
    ]
    out: dict[str, float] = {}
    diameter_method = ""
    # statistics computed together come from one call; a one-thread kernel's beside the others
    beside = list(dict.fromkeys(stat.compute for stat in rows if stat.sequential))
    if (check_threads(threads) or default_threads()) < 2:
        beside = []
    with ThreadPoolExecutor(1) as pool:  # no thread starts without a task
        pending = [pool.submit(compute, graph, options) for compute in beside]
        for stat in rows:
            if stat.name not in out and stat.compute not in beside:
                part = stat.compute(graph, options)
                out.update(part)
                diameter_method = getattr(part, "diameter_method", diameter_method)
        for future in pending:
            out.update(future.result())
    return Statistics({stat.name: out[stat.name] for stat in rows}, diameter_method)
