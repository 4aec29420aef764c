"""The compute functions of the analyst rows of :data:`~graphveil.measure.utility.STATISTIC_TABLE`.

Each compares a graph with G0's :class:`~graphveil.measure.analyst.AnalystReference`, read from
``options.analyst``, on the graph's simple graph; statistics computed together share a function.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads
from graphveil.graph import Graph
from graphveil.measure import analyst as A
from graphveil.measure._checks import check_measured, simple_graph
from graphveil.multigraph import Multigraph


class _Options(Protocol):
    """What the analyst rows read of :class:`~graphveil.measure.utility.StatisticOptions`."""

    @property
    def analyst(self) -> A.AnalystReference | None: ...

    @property
    def threads(self) -> int | None: ...


def _reference(options: _Options) -> A.AnalystReference:
    if options.analyst is None:
        raise ValueError(
            "the analyst statistics are measured against G0: pass analyst=analyst_reference(g0)"
        )
    return options.analyst


def clustering(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    g = simple_graph(check_measured(graph))
    count, local = _core.local_triangles(g.indptr, g.indices, check_threads(options.threads))
    return {"S_TRI": float(count), "S_ACC": A.mean_clustering(g, local)}


def degree_kl(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    g = A.check_reference(graph, ref)
    return {"S_DegKL": A.kl_divergence(ref.degree_counts, np.bincount(g.degrees))}


def distance_kl(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    counts = A.distance_counts(
        A.check_reference(graph, ref),
        seed=ref.seed,
        exact_threshold=ref.exact_threshold,
        sources=ref.sources,
        threads=options.threads,
    )
    return {"S_DistKL": A.kl_divergence(ref.distance_counts, counts)}


def assortativity(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    return {"S_ASS": A.assortativity(graph)}


def communities(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    g = A.check_reference(graph, ref)
    labels = A.communities(g, seed=ref.seed)
    nmi, ari = A.agreement(ref.communities, labels)
    return {"S_MOD": A.modularity(g, labels), "S_NMI": nmi, "S_ARI": ari}


def eigenvector(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    evc = A.eigenvector_centrality(A.check_reference(graph, ref), threads=options.threads)
    k = ref.evc_top.size
    nodes = A.top_nodes(evc, k)
    return {
        "S_EVC_MAE": float(np.mean(np.abs(ref.evc_top - evc[nodes]))) if k else float("nan"),
        "S_EVC_top": A.node_overlap(ref.evc_nodes, nodes),
    }


def pagerank(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    rank = A.pagerank(A.check_reference(graph, ref), threads=options.threads)
    k = ref.pagerank_nodes.size
    return {"S_PR_top": A.node_overlap(ref.pagerank_nodes, A.top_nodes(rank, k))}


def spread(graph: Graph | Multigraph, options: _Options) -> dict[str, float]:
    ref = _reference(options)
    seeds = A.degree_discount_seeds(A.check_reference(graph, ref))
    spread = A.influence_spread(ref.graph, seeds, seed=ref.seed, threads=options.threads)
    return {"S_IC": spread}
