"""EdgeFlip: randomized response on every node pair (Mülle et al. 2015; Nguyen et al. 2015)."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from graphveil._checks import check_int, check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._dp import check_epsilon, pair_count, release_pairs
from graphveil.anonymize._report import Timer, finish
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["edgeflip", "edgeflip_posterior"]

Form = Literal["graph", "uncertain"]

#: Default bound on the expected number of published non-edges (about 1.6 GB of pairs and p).
MAX_PAIRS = 100_000_000


def flip_rate(epsilon: float) -> float:
    """The flip probability s / 2 = 1 / (1 + e^epsilon) of each pair's bit.

    Computed as e^-eps / (1 + e^-eps), which neither overflows at large epsilon nor loses the
    rate at small epsilon.

    Examples
    --------
    >>> round(flip_rate(math.log(9)), 12), flip_rate(1e6)
    (0.1, 0.0)
    """
    tail = math.exp(-epsilon)
    return tail / (1.0 + tail)


def expected_non_edges(pairs: int, epsilon: float) -> float:
    """N / (1 + e^epsilon): about how many non-edges a release publishes (public: n and eps).

    EdgeFlip's refusal (``max_pairs``) reads this and nothing else, so deciding it costs no
    privacy budget: the true edge count m, which adds about m (1 - 2 s/2) true edges to the
    release, never enters the decision or its message.
    """
    return pairs * flip_rate(epsilon)


def too_many_pairs(n: int, epsilon: float, max_pairs: int, directed: bool = False) -> str | None:
    """Why EdgeFlip refuses to publish on ``n`` nodes at ``epsilon``, or None.

    Public quantities only (see :func:`expected_non_edges`): the same answer for every graph
    on ``n`` nodes, so for G and any neighbour of it. ``directed``: N = n(n-1) ordered pairs.

    Examples
    --------
    >>> print(too_many_pairs(5242, 0.5, 10**6))
    at epsilon=0.5 on 5,242 nodes EdgeFlip publishes about 5,186,148 non-edges alone, more than max_pairs=1,000,000; raise epsilon to at least 2.55 or use tmf, which publishes about m pairs at any epsilon
    >>> too_many_pairs(5242, 5.0, 10**6) is None
    True
    """
    pairs = n * (n - 1) // (1 if directed else 2)
    expected = expected_non_edges(pairs, epsilon)
    if expected <= max_pairs:
        return None
    # N / (1 + e^eps) <= max_pairs  <=>  eps >= ln(N / max_pairs - 1)
    least = math.log(max(pairs / max_pairs - 1.0, 1.0))
    return (
        f"at epsilon={epsilon:g} on {n:,} nodes EdgeFlip publishes about {expected:,.0f} "
        f"non-edges alone, more than max_pairs={max_pairs:,}; raise epsilon to at least "
        f"{math.ceil(least * 100) / 100:.2f} or use tmf, which publishes about m pairs at any "
        "epsilon"
    )


def edgeflip_posterior(pairs: int, published: int, epsilon: float) -> tuple[float, float, float]:
    """``(m_hat, p1, p0)``: the edge count estimated from a release and Pr[edge | bit].

    With r = 1 / (1 + e^eps) the flip rate, a release of ``published`` pairs out of ``pairs``
    estimates m by m_hat = (published - N r) / (1 - 2 r) (unbiased, clipped into [1, N - 1]);
    with the prior pi = m_hat / N, Bayes gives p1 = Pr[edge | 1] = pi (1 - r) / (pi (1 - r) +
    (1 - pi) r) and p0 = Pr[edge | 0] = pi r / (pi r + (1 - pi)(1 - r)). Only the release is
    read, so this is post-processing and costs no budget.

    Examples
    --------
    >>> m_hat, p1, p0 = edgeflip_posterior(1000, 180, math.log(9))
    >>> round(m_hat, 1), round(p1, 4), round(p0, 4)
    (100.0, 0.5, 0.0122)
    """
    r = flip_rate(epsilon)
    m_hat = (published - pairs * r) / (1.0 - 2.0 * r)
    m_hat = min(max(m_hat, 1.0), max(pairs - 1.0, 1.0))
    prior = m_hat / pairs
    p1 = prior * (1 - r) / (prior * (1 - r) + (1 - prior) * r)
    p0 = prior * r / (prior * r + (1 - prior) * (1 - r))
    return m_hat, p1, p0


def edgeflip(
    graph: Graph,
    *,
    epsilon: float,
    form: Form = "graph",
    max_pairs: int = MAX_PAIRS,
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """EdgeFlip: flip every node pair's bit with probability s/2, s = 2 / (1 + e^epsilon).

    Privacy: epsilon-edge differential privacy (neighbours differ in one edge). Randomized
    response on each of the N = n(n-1)/2 cells of the adjacency matrix: a cell is published 1
    with probability 1 - s/2 = e^eps / (1 + e^eps) if it is an edge and s/2 = 1 / (1 + e^eps)
    if not, so one changed cell (sensitivity 1) changes the probability of any output by at
    most e^eps. The whole budget goes to the cells; no count is released.

    The N cells are never visited: each true edge survives on its own, the number of non-edges
    flipped to 1 is drawn from Binomial(N - m, s/2) and placed uniformly, in O(m + output). The
    output has about N s/2 pairs: 5 million on a graph of 5,000 nodes at epsilon = 0.5, so
    EdgeFlip suits large epsilon (about ln n and more, as its authors note); ``max_pairs``
    refuses a release whose expected number of published non-edges N s/2 exceeds it. That
    decision and its message read only public quantities (n, epsilon, ``max_pairs``), never the
    true edge count m: the refusal spends no budget and says nothing about G0 (the release
    adds about m (1 - s) true edges to the N s/2 non-edges).

    Directed ``graph``: epsilon-edge-DP with the arc as the unit (neighbours differ in one arc
    ``u -> v``; an arc and its reverse are two units, so a mutual dyad is protected at 2
    epsilon). Randomized response on each of the N = n(n-1) ordered pairs: one arc changes one
    cell (sensitivity 1), so the flip rate s/2 = 1 / (1 + e^eps) is the one above; the output
    is a directed graph of about N s/2 non-arcs and m (1 - s/2) arcs, ``max_pairs`` and the
    posterior read with N = n(n-1).

    ``form="uncertain"`` publishes the same release as an uncertain graph: each published
    pair with its posterior Pr[edge | bit 1] (``edgeflip_posterior``, Bayes with the prior
    m_hat / N estimated from the release itself, so still epsilon-edge-DP). The N - K pairs
    published 0 keep the posterior p0 (in the report), too small to list sparsely: they are
    left out.

    Parameters
    ----------
    graph : Graph
        The true graph G0 (at least 2 nodes), undirected or directed.
    epsilon : float
        The privacy budget (> 0, finite); smaller is more private.
    form : {"graph", "uncertain"}
        The published bits as a graph (every p = 1), or as an uncertain graph of posteriors.
    max_pairs : int
        Refuse (ValueError) when the expected number of published non-edges N s/2 exceeds it
        (>= 1).
    seed : int, numpy.random.Generator or None
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments
        only: anyone who learns it can regenerate the noise.
    threads : int, optional
        Threads deciding the true edges (0 or None: all cores); the output does not depend on it.

    Returns
    -------
    Anonymized
        The release; the report (private) gives ``s``, ``m_hat``, ``p1``, ``p0`` and how many
        published pairs are true edges.

    Raises
    ------
    ValueError
        If epsilon is not a finite number > 0, the graph has fewer than 2 nodes, or the
        expected release exceeds ``max_pairs``.

    References
    ----------
    Y. Mülle, C. Clifton, K. Böhm, "Privacy-integrated graph clustering through differential
    privacy", EDBT/ICDT Workshops 2015; H. H. Nguyen, A. Imine, M. Rusinowitch,
    "Differentially private publication of social graphs at linear cost", ASONAM 2015.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import edgeflip
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = edgeflip(g, epsilon=5.0, form="uncertain", seed=1)
    >>> report["params"]["form"], bool(((ug.p > 0) & (ug.p < 1)).all())
    ('uncertain', True)
    """
    check_graph(graph, what="edgeflip", directed=True)
    epsilon = check_epsilon(epsilon)
    if form not in ("graph", "uncertain"):
        raise ValueError(f"form must be 'graph' or 'uncertain', got {form!r}")
    max_pairs = check_int(max_pairs, "max_pairs", 1)
    threads = check_threads(threads)
    pairs = pair_count(graph)
    refusal = too_many_pairs(graph.n, epsilon, max_pairs, graph.directed)
    if refusal is not None:
        raise ValueError(refusal)
    flip = flip_rate(epsilon)  # s / 2
    seed64 = seed_to_u64(seed)
    rng = np.random.default_rng(seed64)
    timer = Timer()
    with timer.phase("release"):
        u, v, kept, added = release_pairs(graph, 1.0 - flip, flip, rng, threads)
    m_hat, p1, p0 = edgeflip_posterior(pairs, int(u.size), epsilon)
    p = np.full(u.size, p1 if form == "uncertain" else 1.0)
    return finish(
        graph.n,
        u,
        v,
        p,
        directed=graph.directed,
        scheme="edgeflip",
        params={"epsilon": epsilon, "form": form},
        seed=seed64,
        timer=timer,
        s=2.0 * flip,
        m_hat=m_hat,
        p1=p1,
        p0=p0,
        kept_edges=kept,
        added_pairs=added,
    )
