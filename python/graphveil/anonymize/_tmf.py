"""TmF, the Top-m Filter of Nguyen, Imine and Rusinowitch (2015): an edge-DP graph in O(m)."""

from __future__ import annotations

import math

import numpy as np

from graphveil._checks import check_real, check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._dp import (
    check_epsilon,
    laplace_tail,
    pair_count,
    release_pairs,
    two_sided_geometric,
)
from graphveil.anonymize._report import Timer, finish
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["tmf", "tmf_threshold"]


def tmf_threshold(pairs: int, m_noisy: float, epsilon: float) -> float:
    """TmF's threshold theta: about ``m_noisy`` of the ``pairs`` noisy cells A_ij + Lap(1/eps) pass.

    The paper's two cases: with eps_theta = ln(N / m~ - 1), theta = ln(N / m~ - 1) / (2 eps) + 1/2
    when ``epsilon >= eps_theta``, else theta = ln(N / (2 m~) + (e^eps - 1) / 2) / eps.

    Examples
    --------
    >>> round(tmf_threshold(1_000_000, 1_000, 1.0), 4)
    6.2163
    >>> round(tmf_threshold(1_000_000, 1_000, 10.0), 4)
    0.8453
    """
    ratio = pairs / m_noisy - 1.0
    if epsilon >= math.log(ratio):
        return math.log(ratio) / (2.0 * epsilon) + 0.5
    return math.log(pairs / (2.0 * m_noisy) + math.expm1(epsilon) / 2.0) / epsilon


def tmf(
    graph: Graph,
    *,
    epsilon: float,
    count_share: float = 0.01,
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """TmF (Top-m Filter): an epsilon-edge-DP graph of about m edges, in O(m) time and memory.

    Privacy: epsilon-edge differential privacy (two graphs are neighbours when they differ in
    one edge). The budget splits in two by sequential composition: eps_t = ``count_share`` *
    epsilon buys a noisy edge count m~ = m + two-sided geometric noise (sensitivity 1), and
    eps_2 = epsilon - eps_t the noisy adjacency matrix A_ij + Lap(1/eps_2) of the N = n(n-1)/2
    upper cells (one edge changes one cell: L1 sensitivity 1). A pair is published when its
    noisy cell exceeds the threshold theta (``tmf_threshold``) chosen from m~ so that about
    m~ cells pass; thresholding is post-processing, so the release is epsilon-edge-DP.

    The N cells are never visited: each true edge passes with probability Pr[Lap > theta - 1],
    and the number of non-edges that pass is drawn from Binomial(N - m, Pr[Lap > theta]) and
    placed uniformly among the non-edges: the same distribution as filtering every cell. (The
    paper, and the authors' code, fill up to exactly m~ pairs with uniform non-edges instead,
    which is not the filter's distribution.)

    Directed ``graph``: epsilon-edge-DP with the arc as the unit (two digraphs are neighbours
    when they differ in one arc ``u -> v``; an arc and its reverse are two units, so a mutual
    dyad is protected at 2 epsilon). The same mechanism on the N = n(n-1) ordered pairs: one
    arc changes the arc count m by 1 (sensitivity 1) and one cell of the (non-symmetric)
    adjacency matrix by 1 (L1 sensitivity 1), so the budget split, the noise and theta are
    those above with N = n(n-1); the release is a directed graph of about m~ arcs.

    Parameters
    ----------
    graph : Graph
        The true graph G0 (at least 2 nodes), undirected or directed.
    epsilon : float
        The privacy budget (> 0, finite); smaller is more private.
    count_share : float
        The share of ``epsilon`` spent on the noisy edge count, in (0, 1). The count needs
        little: at the default 0.01 and epsilon = 1 its noise is about 100 edges. (The authors'
        code spent a fixed eps_t = 0.5, which leaves nothing at epsilon = 0.5.)
    seed : int, numpy.random.Generator or None
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments
        only: anyone who learns it can regenerate the noise.
    threads : int, optional
        Threads deciding the true edges (0 or None: all cores); the output does not depend on it.

    Returns
    -------
    Anonymized
        A graph (every p = 1); the report (private) gives ``theta``, ``m_noisy``, the pass
        probabilities ``p_keep`` and ``p_add``, and how many published pairs are true edges.

    Raises
    ------
    ValueError
        If epsilon is not a finite number > 0, count_share is outside (0, 1), or the graph has
        fewer than 2 nodes.

    References
    ----------
    H. H. Nguyen, A. Imine, M. Rusinowitch, "Differentially private publication of social
    graphs at linear cost", ASONAM 2015 (TmF); "Network structure release under differential
    privacy", Transactions on Data Privacy 9(3), 2016.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import tmf
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = tmf(g, epsilon=5.0, seed=1)
    >>> report["params"], bool((ug.p == 1).all())
    ({'epsilon': 5.0, 'count_share': 0.01}, True)
    """
    check_graph(graph, what="tmf", directed=True)
    epsilon = check_epsilon(epsilon)
    count_share = check_real(count_share, "count_share", 0.0, 1.0)
    if not 0.0 < count_share < 1.0:
        raise ValueError(
            f"count_share must lie strictly between 0 and 1 (the share of epsilon spent on the "
            f"edge count), got {count_share}"
        )
    threads = check_threads(threads)
    pairs = pair_count(graph)
    seed64 = seed_to_u64(seed)
    rng = np.random.default_rng(seed64)
    timer = Timer()
    with timer.phase("release"):
        eps_count = count_share * epsilon
        eps_cells = epsilon - eps_count
        # clipped into [1, N/2] (post-processing): ln(N / m~ - 1) stays defined and >= 0
        half = pairs / 2.0
        m_noisy = min(
            max(
                float(
                    graph.m + int(two_sided_geometric(rng, 1, epsilon=eps_count, sensitivity=1)[0])
                ),
                min(1.0, half),
            ),
            half,
        )
        theta = tmf_threshold(pairs, m_noisy, eps_cells)
        p_keep = laplace_tail(theta - 1.0, 1.0 / eps_cells)
        p_add = laplace_tail(theta, 1.0 / eps_cells)
        u, v, kept, added = release_pairs(graph, p_keep, p_add, rng, threads)
    return finish(
        graph.n,
        u,
        v,
        np.ones(u.size),
        directed=graph.directed,
        scheme="tmf",
        params={"epsilon": epsilon, "count_share": count_share},
        seed=seed64,
        timer=timer,
        m_noisy=m_noisy,
        theta=theta,
        p_keep=p_keep,
        p_add=p_add,
        kept_edges=kept,
        added_pairs=added,
    )
