"""PrivGraph (Yuan et al., USENIX Security 2023): communities found under edge DP, then a graph.

Vectorised numpy throughout: time O((n + m) log(n + m)) per phase and memory O(n + m); no
n x n matrix and no dense matrix of community or super-node pairs (their noisy cells are drawn
sparsely, exact in distribution: :func:`noisy_pair_cells`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from graphveil._checks import check_int, check_real, check_threads
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._dp import check_epsilon, two_sided_geometric
from graphveil.anonymize._dp_dk import check_small, simple_pairs
from graphveil.anonymize._louvain import BATCHES, gather, louvain, segment_weights
from graphveil.anonymize._report import Timer, finish
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["privgraph"]

#: The share of epsilon spent on the noisy edge count m~ (the consistency targets' total).
COUNT_SHARE = 0.01
#: The paper's split of the rest: community initialisation, adjustment, information extraction.
PHASE_SHARES = (1 / 3, 1 / 3, 1 / 3)
#: L1 sensitivity of a cell count (super-node pairs, community pairs) and of the edge count.
CELL_SENSITIVITY = 1
#: L1 sensitivity of the intra-community degree vector: an inner edge adds 1 to two degrees.
DEGREE_SENSITIVITY = 2
#: The exponential mechanism's utility (a node's neighbours in a community) changes by 1 per edge.
UTILITY_SENSITIVITY = 1
#: Selections one edge's utility enters: its two endpoints' (each node selects once).
SELECTIONS_PER_EDGE = 2
#: The sizes below are bounded by n + min(m~, SIZE_PER_NODE n) (:func:`size_bound`): at tiny
#: epsilon m~ is mostly noise, and memory must stay linear in the graph.
SIZE_PER_NODE = 64
#: Largest resolution accepted (the paper varies it in [0.5, 3]).
MAX_RESOLUTION = 100.0


def budget_split(epsilon: float) -> dict[str, float]:
    """The budget of each query: the edge count, then the paper's three phases.

    Examples
    --------
    >>> split = budget_split(1.5)
    >>> split["count"], round(split["initialisation"], 4), round(sum(split.values()), 12)
    (0.015, 0.495, 1.5)
    """
    count = COUNT_SHARE * epsilon
    rest = epsilon - count
    first, second, _ = (share * rest for share in PHASE_SHARES)
    # the last share is what is left, so that the four add up to epsilon (no rounding above it)
    return {
        "count": count,
        "initialisation": first,
        "adjustment": second,
        "extraction": rest - first - second,
    }


def exponential_scale(epsilon: float) -> float:
    """The exponential mechanism's ``s`` in Pr[C] ~ exp(s u(C)) for a phase budget ``epsilon``.

    Each selection is an (epsilon / 2)-DP exponential mechanism, ``exp(eps' u / (2 Delta u))``:
    s = epsilon / 4 (the paper's, with one pass).

    >>> exponential_scale(1.0)
    0.25
    """
    return epsilon / SELECTIONS_PER_EDGE / (2 * UTILITY_SENSITIVITY)


def size_bound(n: int, m_noisy: int) -> int:
    """The public bound on sizes: zero cells drawn per query, and half the published edges.

    ``n + min(max(m~, 0), SIZE_PER_NODE * n)``: about n + m at any useful epsilon.

    >>> size_bound(100, 250), size_bound(100, -5), size_bound(100, 10**9)
    (350, 100, 6500)
    """
    return n + min(max(m_noisy, 0), SIZE_PER_NODE * n)


def bound_output(
    degrees: np.ndarray, counts: np.ndarray, bound: int
) -> tuple[np.ndarray, np.ndarray]:
    """Degrees and pair counts scaled down (floored) to publish at most ``bound`` edges.

    The edges are half the degree sum plus the counts; unchanged when within (post-processing).
    """
    total = degrees.sum() / 2 + counts.sum()
    if total <= bound:
        return degrees, counts
    factor = bound / total
    return np.floor(degrees * factor).astype(np.int64), np.floor(counts * factor).astype(np.int64)


def privgraph(
    graph: Graph,
    *,
    epsilon: float,
    group_size: int = 20,
    resolution: float = 1.0,
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """PrivGraph: an epsilon-edge-DP graph rebuilt from noisy community information.

    **Privacy: epsilon-edge-DP** (``graphveil.anonymize._dp``), n public. Five queries in
    sequence (``budget_split``), each DP on its own, composed: eps_0 = epsilon / 100 and
    eps_1 = eps_2 = eps_3 = (epsilon - eps_0) / 3, the paper's equal split. Every noise is the
    two-sided geometric (discrete Laplace, ``alpha = exp(-eps / sensitivity)``); everything
    not listed is post-processing.

    0. *Edge count* (eps_0, sensitivity 1): m~ = m + noise, the total the consistency steps keep.
    1. *Community initialisation* (eps_1). The nodes are cut uniformly at random into groups of
       ``group_size`` (the paper's N = 20; data-independent). Every cell of the super-graph,
       the K(K - 1) / 2 group pairs and the K groups (edges inside a group, counted once), gets
       noise of sensitivity **1**: one edge is in exactly one cell (the paper counts the
       diagonal twice at sensitivity 2: the same mechanism). Consistency (the paper's
       norm-sub): each noisy cell minus one integer shift, negatives to 0, the shift chosen to
       keep the total (the diagonal's own noisy sum; the pairs' m~ minus it). Louvain
       (``graphveil.anonymize._louvain``, resolution ``resolution``, the paper's t = 1) on
       the weighted super-graph; each node takes its group's community.
    2. *Community adjustment* (eps_2). Each node once, in random batches (``BATCHES`` = 32),
       picks a community among all non-empty ones by the exponential mechanism: Pr[C] is
       proportional to ``exp(eps_2 / 4 * u(C))``, u(C) the node's neighbours in C (sensitivity
       1). One edge changes the utility of two selections (its endpoints'), each an
       (eps_2 / 2)-DP exponential mechanism: eps_2 in all, as in the paper.
    3. *Information extraction* (eps_3). Each node's degree inside its community gets noise of
       sensitivity **2** (an inner edge adds 1 to two degrees), each pair of communities its
       edge count noise of sensitivity **1**. One edge changes either two degrees or one count,
       never both, so the pair of queries is eps_3-DP (the paper's parallel composition).
       Consistency: norm-sub per community (total kept), degrees clipped to [0, size - 1];
       norm-sub of the pair counts to m~ minus half the noisy degree sum.
    4. *Reconstruction* (post-processing). Inside each community the Chung-Lu model on the
       noisy degrees, as the authors' code draws it: each pair joined with probability
       min(1, d_i d_j / S), S the community's degree sum (drawn in O(S), not over all pairs).
       Between two communities their noisy count of pairs, both endpoints uniform in their
       communities. Repeated pairs are erased. If the degrees and counts would publish more
       than twice ``n + min(m~, 64 n)`` edges (only at a tiny epsilon, where m~ is noise), they
       are scaled down to it.

    **Departures from the paper and its code, stated.** Discrete noise on the integer counts
    (Laplace in the paper). The consistency of the group and community pairs keeps the noisy
    edge count m~ (eps_0) rather than the sum of all noisy cells, which needs every one of
    the ~n^2 / 800 cells and has noise growing with their number; so cells are drawn sparsely:
    the true non-zero cells with their noise, and of the zero cells only those whose noise
    reaches a public threshold t (their number Binomial, placed uniformly, values
    t + geometric: the exact law), t the smallest integer >= 1 for which about n + m~ zero
    cells reach it; the shift is at least t - 1. The exponential mechanism runs in batches
    rather than one node at a time (the same privacy). The authors' code places every
    inter-community edge's first endpoint in the *last* community (a stale loop variable);
    here both are uniform in their own communities.

    Parameters
    ----------
    graph : Graph
        The true undirected graph (n >= 2 nodes); a directed graph is refused.
    epsilon : float
        The privacy budget; see ``EPSILON_GRID``.
    group_size : int
        Nodes per random group of the community initialisation (the paper's N), >= 1.
    resolution : float
        Louvain's resolution on the noisy super-graph (the paper's t), in (0, 100].
    seed : int, numpy.random.Generator or None
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments
        only: anyone who learns it can regenerate the noise.
    threads : int, optional
        Accepted for the schemes' common interface; one random stream, so the output depends
        on the seed only.

    Returns
    -------
    Anonymized
        A deterministic simple graph (all p = 1). The published ``params`` are ``epsilon``,
        ``group_size`` and ``resolution``; the report gives the ``budget`` split, ``m_noisy``,
        the super-graph's ``groups``, its ``threshold`` and ``shift``, the ``communities``
        after initialisation and adjustment, the pair counts' ``threshold`` and ``shift``, and
        the ``intra_edges`` and ``inter_edges`` published: all computed from noisy values.

    Raises
    ------
    ValueError
        If epsilon is out of range, group_size < 1, resolution outside (0, 100], or the graph
        has fewer than 2 nodes; :class:`~graphveil.NotApplicable` (a ValueError) if the graph
        is directed.

    References
    ----------
    Q. Yuan, Z. Zhang, L. Du, M. Chen, P. Cheng, M. Sun, "PrivGraph: differentially private
    graph data publication by exploiting community information", USENIX Security 2023 (code:
    github.com/Privacy-Graph/PrivGraph); V. D. Blondel et al., "Fast unfolding of communities
    in large networks", J. Stat. Mech. 2008 (Louvain); F. McSherry and K. Talwar, "Mechanism
    design via differential privacy", FOCS 2007 (the exponential mechanism).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import privgraph
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = privgraph(g, epsilon=2.0, seed=1)
    >>> ug.n == g.n, bool((ug.p == 1).all()), report["params"]
    (True, True, {'epsilon': 2.0, 'group_size': 20, 'resolution': 1.0})
    """
    check_graph(graph, what="privgraph")
    eps = check_epsilon(epsilon)
    group_size = check_int(group_size, "group_size", 1)
    resolution = check_real(resolution, "resolution", 0.0, MAX_RESOLUTION, open_low=True)
    check_small(graph, 2, "privgraph")
    check_threads(threads)
    seed64 = seed_to_u64(seed)
    rng = np.random.Generator(np.random.PCG64(seed64))
    budget = budget_split(eps)
    timer = Timer()
    info: dict[str, Any] = {"budget": budget}
    with timer.phase("initialisation"):
        noise = two_sided_geometric(rng, 1, epsilon=budget["count"], sensitivity=CELL_SENSITIVITY)
        m_noisy = graph.m + int(noise[0])
        labels = initial_communities(
            graph, budget["initialisation"], group_size, resolution, m_noisy, rng, info
        )
    with timer.phase("adjustment"):
        labels = adjust_communities(graph, labels, exponential_scale(budget["adjustment"]), rng)
        info["communities"] = {
            "initialised": info.pop("initialised"),
            "adjusted": int(labels.max()) + 1,
        }
    with timer.phase("extraction"):
        degrees, keys, counts = extract(graph, labels, budget["extraction"], m_noisy, rng, info)
    with timer.phase("reconstruction"):
        u, v, intra = reconstruct(graph.n, labels, degrees, keys, counts, rng)
    return finish(
        graph.n,
        u,
        v,
        np.ones(u.size),
        scheme="privgraph",
        params={"epsilon": eps, "group_size": group_size, "resolution": resolution},
        seed=seed64,
        timer=timer,
        m_noisy=m_noisy,
        intra_edges=intra,
        inter_edges=int(u.size - intra),
        **info,
    )


# ---------------------------------------------------------------------------- noisy cells
def cell_threshold(cells: int, epsilon: float, budget: float) -> int:
    """The smallest integer t >= 1 with ``cells * Pr[noise >= t] <= budget``.

    Pr[noise >= t] = alpha^t / (1 + alpha) for the two-sided geometric of ``alpha = e^-rate``,
    ``epsilon`` here the rate (the budget over the sensitivity).

    Examples
    --------
    >>> cell_threshold(10, 1.0, 100), cell_threshold(10**8, 1.0, 10**4)
    (1, 9)
    """
    alpha = math.exp(-epsilon)
    if cells * alpha / (1 + alpha) <= budget:
        return 1
    t = max(1, math.ceil(math.log(cells / ((1 + alpha) * budget)) / epsilon))
    while t > 1 and cells * alpha ** (t - 1) / (1 + alpha) <= budget:  # rounding guard
        t -= 1
    while cells * alpha**t / (1 + alpha) > budget:
        t += 1
    return t


def noisy_pair_cells(
    k: int,
    keys: np.ndarray,
    counts: np.ndarray,
    epsilon: float,
    sensitivity: float,
    rng: np.random.Generator,
    budget: float,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The cells ``x = count + noise >= t`` of all k(k - 1) / 2 pairs ``i < j`` of k classes.

    ``keys`` (``i * k + j``, sorted, distinct) and ``counts`` are the non-zero true cells;
    every cell gets two-sided geometric noise of ``epsilon`` at ``sensitivity``
    (``alpha = exp(-epsilon / sensitivity)``), at most ``budget`` zero cells expected to reach t. The true cells
    draw theirs; of the zero cells, Binomial(zero cells, Pr[noise >= t]) reach t, placed
    uniformly among them, each of value t + a geometric number of failures of success
    probability 1 - alpha (the law of the noise above t). Returns ``(keys, x, t)``, sorted by key,
    t from :func:`cell_threshold`: exactly the noisy cells of value >= t.
    """
    cells = k * (k - 1) // 2
    empty = np.zeros(0, dtype=np.int64)
    noisy = counts + two_sided_geometric(rng, counts.size, epsilon=epsilon, sensitivity=sensitivity)
    if cells == 0:
        return empty, empty, 1
    rate = epsilon / sensitivity
    t = cell_threshold(cells, rate, budget)
    alpha = math.exp(-rate)
    free = cells - keys.size
    above = int(rng.binomial(free, alpha**t / (1 + alpha))) if free > 0 else 0
    extra = free_pairs(k, keys, above, rng)
    values = t + rng.geometric(-math.expm1(-rate), above).astype(np.int64) - 1
    keep = noisy >= t
    all_keys = np.concatenate([keys[keep], extra])
    order = np.argsort(all_keys, kind="stable")
    return all_keys[order], np.concatenate([noisy[keep], values])[order], t


def free_pairs(k: int, taken: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct pair keys ``i * k + j`` (i < j) uniform among those not in ``taken``.

    Uniform pairs are drawn in rounds until at least ``count`` distinct keys not ``taken`` are
    held; given its size that set is uniform (the draws are exchangeable), and a uniformly
    random ``count`` of it is kept: a uniformly random subset. Returned sorted.
    """
    pool = np.zeros(0, dtype=np.int64)
    while pool.size < count:
        draws = int((count - pool.size) * 1.25) + 16
        i = rng.integers(0, k, draws)
        j = rng.integers(0, k - 1, draws)
        j += j >= i
        new = distinct(np.minimum(i, j) * k + np.maximum(i, j))
        pool = distinct(np.concatenate([pool, new[~sorted_member(taken, new)]]))
    if pool.size > count:
        pool = np.sort(pool[rng.choice(pool.size, count, replace=False)])
    return pool


def distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct values of ``keys``, sorted (a sort: numpy's hashing unique is slower here)."""
    keys = np.sort(keys)
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if keys.size else keys


def sorted_member(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is in ``sorted_keys`` (sorted, distinct)."""
    if sorted_keys.size == 0:
        return np.zeros(keys.size, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), sorted_keys.size - 1)
    return sorted_keys[at] == keys


def total_shift(values: np.ndarray, target: float, low: int) -> int:
    """Norm-sub's shift: the integer delta >= ``low`` closest to keeping ``target``.

    That is, ``sum(max(values - delta, 0))`` closest to ``target`` (the smallest delta on a tie).

    Examples
    --------
    >>> total_shift(np.array([5, 3, -2, -1]), 5, 0)
    1
    >>> total_shift(np.array([5, 3, 1]), 9, 0)
    0
    """
    a = np.sort(np.asarray(values, dtype=np.int64))
    if a.size == 0:
        return low
    prefix = np.concatenate(([0], np.cumsum(a)))

    def mass(delta: int) -> int:
        below = int(np.searchsorted(a, delta, side="right"))
        return int(prefix[-1] - prefix[below]) - (a.size - below) * delta

    lo, hi = low, max(low, int(a[-1]))
    if target <= 0:
        return hi
    while lo < hi:  # the smallest delta with mass(delta) <= target (mass is nonincreasing)
        mid = (lo + hi) // 2
        if mass(mid) <= target:
            hi = mid
        else:
            lo = mid + 1
    if lo > low and abs(mass(lo - 1) - target) <= abs(mass(lo) - target):
        return lo - 1
    return lo


def segment_shift(values: np.ndarray, segment: np.ndarray, k: int) -> np.ndarray:
    """:func:`total_shift` (low 0, target each segment's own sum) of every segment at once."""
    x = np.asarray(values, dtype=np.int64)
    target = np.bincount(segment, weights=x, minlength=k)
    top = np.zeros(k, dtype=np.int64)
    np.maximum.at(top, segment, x)
    lo = np.zeros(k, dtype=np.int64)
    hi = np.maximum(top, 0)

    def mass(delta: np.ndarray) -> np.ndarray:
        return np.bincount(segment, weights=np.maximum(x - delta[segment], 0), minlength=k)

    while np.any(lo < hi):
        active = lo < hi
        mid = (lo + hi) // 2
        fits = mass(mid) <= target
        hi = np.where(active & fits, mid, hi)
        lo = np.where(active & ~fits, mid + 1, lo)
    before = np.maximum(lo - 1, 0)
    better = (lo > 0) & (np.abs(mass(before) - target) <= np.abs(mass(lo) - target))
    return np.where(target <= 0, np.maximum(top, 0), np.where(better, before, lo))


# ---------------------------------------------------------------------------- phases
def initial_communities(
    graph: Graph,
    epsilon: float,
    group_size: int,
    resolution: float,
    m_noisy: int,
    rng: np.random.Generator,
    info: dict[str, Any],
) -> np.ndarray:
    """Phase 1: random groups, their noisy super-graph, Louvain; each node's community."""
    n = graph.n
    groups = -(-n // group_size)
    group = (np.arange(n, dtype=np.int64) // group_size)[rng.permutation(n)]
    u, v = graph.edges()
    gu, gv = group[u], group[v]
    inner = gu == gv
    diagonal = np.bincount(gu[inner], minlength=groups) + two_sided_geometric(
        rng, groups, epsilon=epsilon, sensitivity=CELL_SENSITIVITY
    )
    loops = np.maximum(diagonal - total_shift(diagonal, int(diagonal.sum()), 0), 0)
    lo = np.minimum(gu[~inner], gv[~inner])
    hi = np.maximum(gu[~inner], gv[~inner])
    keys, counts = np.unique(lo * groups + hi, return_counts=True)
    del gu, gv, lo, hi
    cells, noisy, t = noisy_pair_cells(
        groups, keys, counts, epsilon, CELL_SENSITIVITY, rng, size_bound(n, m_noisy)
    )
    shift = total_shift(noisy, m_noisy - int(diagonal.sum()), t - 1)
    keep = noisy > shift
    weights = (noisy[keep] - shift).astype(np.float64)
    super_labels = louvain(
        groups,
        cells[keep] // groups,
        cells[keep] % groups,
        weights,
        loops.astype(np.float64),
        resolution=resolution,
        rng=rng,
    )
    info["groups"] = {"count": groups, "threshold": t, "shift": shift, "pairs": int(keep.sum())}
    info["initialised"] = int(super_labels.max()) + 1
    return super_labels[group]


def adjust_communities(
    graph: Graph, labels: np.ndarray, scale: float, rng: np.random.Generator
) -> np.ndarray:
    """Phase 2: every node re-picks its community once by the exponential mechanism.

    Batches of nodes in random order; a node chooses among the communities non-empty at its
    batch's start, Pr[C] proportional to exp(scale * neighbours in C)
    (:func:`exponential_scale`). Returns labels renumbered 0..k-1 (first appearance).
    """
    n = graph.n
    indptr, indices = graph.indptr.astype(np.int64), graph.indices.astype(np.int64)
    comm = labels.astype(np.int64).copy()
    size = np.bincount(comm, minlength=int(comm.max()) + 1)
    for batch in np.array_split(rng.permutation(n), min(BATCHES, n)):
        live = np.flatnonzero(size > 0)
        rank = np.full(size.size, -1, dtype=np.int64)
        rank[live] = np.arange(live.size)
        position, owner = gather(indptr, batch)
        node, target, utility = segment_weights(
            owner, rank[comm[indices[position]]], np.ones(position.size), live.size
        )
        chosen = exponential_choice(node, target, utility, batch.size, live.size, scale, rng)
        new = live[chosen]
        np.subtract.at(size, comm[batch], 1)
        np.add.at(size, new, 1)
        comm[batch] = new
    _, comm = np.unique(comm, return_inverse=True)
    return first_labels(comm)


def first_labels(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered by first appearance along the nodes."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inverse]


def exponential_choice(
    node: np.ndarray,
    target: np.ndarray,
    utility: np.ndarray,
    size: int,
    candidates: int,
    scale: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """One exponential-mechanism draw per node among ``candidates`` classes ``0..c-1``.

    ``(node, target, utility)``: each node's classes of non-zero utility (sorted by node, then
    class); every other class has utility 0. Pr[class] is proportional to
    ``exp(scale * utility)``, computed relative to each node's largest utility (no overflow).
    """
    top = np.zeros(size)
    np.maximum.at(top, node, utility)
    weight = np.exp(scale * (utility - top[node]))
    near = np.bincount(node, weights=weight, minlength=size)
    listed = np.bincount(node, minlength=size)
    rest_each = np.exp(-scale * top)
    rest = (candidates - listed) * rest_each
    draw = rng.random(size) * (near + rest)
    chosen = np.empty(size, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(listed)))
    cumulative = np.cumsum(weight)
    offset = np.concatenate(([0.0], cumulative))[starts[:-1]]
    pick_near = draw < near
    ids = np.flatnonzero(pick_near)
    at = np.searchsorted(cumulative, offset[ids] + draw[ids], side="right")
    at = np.clip(at, starts[ids], starts[ids + 1] - 1)
    chosen[ids] = target[at]
    ids = np.flatnonzero(~pick_near)
    with np.errstate(divide="ignore", invalid="ignore"):
        j = np.floor((draw[ids] - near[ids]) / rest_each[ids])
    j = np.clip(np.nan_to_num(j, posinf=0.0), 0, candidates - listed[ids] - 1).astype(np.int64)
    # the j-th class (0-based) not listed for the node: j + #{listed s_i with s_i - i <= j}
    local = np.arange(node.size) - starts[node]
    keyed = node * (candidates + 1) + (target - local)
    below = np.searchsorted(keyed, ids * (candidates + 1) + j, side="right") - starts[ids]
    chosen[ids] = j + below
    return chosen


def extract(
    graph: Graph,
    labels: np.ndarray,
    epsilon: float,
    m_noisy: int,
    rng: np.random.Generator,
    info: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Phase 3: noisy degrees inside the communities and noisy edge counts between them."""
    n, k = graph.n, int(labels.max()) + 1
    u, v = graph.edges()
    cu, cv = labels[u], labels[v]
    inner = cu == cv
    degrees = np.bincount(u[inner], minlength=n) + np.bincount(v[inner], minlength=n)
    noisy = degrees + two_sided_geometric(rng, n, epsilon=epsilon, sensitivity=DEGREE_SENSITIVITY)
    shift = segment_shift(noisy, labels, k)
    sizes = np.bincount(labels, minlength=k)
    consistent = np.clip(noisy - shift[labels], 0, sizes[labels] - 1)
    lo = np.minimum(cu[~inner], cv[~inner])
    hi = np.maximum(cu[~inner], cv[~inner])
    keys, counts = np.unique(lo * k + hi, return_counts=True)
    del cu, cv, lo, hi
    cells, cell_noisy, t = noisy_pair_cells(
        k, keys, counts, epsilon, CELL_SENSITIVITY, rng, size_bound(n, m_noisy)
    )
    inter_total = m_noisy - int(noisy.sum()) // 2
    cell_shift = total_shift(cell_noisy, inter_total, t - 1)
    keep = cell_noisy > cell_shift
    cells = cells[keep]
    pair_counts = np.minimum(
        cell_noisy[keep] - cell_shift, sizes[cells // k] * sizes[cells % k]
    ).astype(np.int64)
    info["community_pairs"] = {"threshold": t, "shift": cell_shift, "pairs": int(keep.sum())}
    degrees, pair_counts = bound_output(
        consistent.astype(np.int64), pair_counts, 2 * size_bound(n, m_noisy)
    )
    return degrees, cells, pair_counts


def reconstruct(
    n: int,
    labels: np.ndarray,
    degrees: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Phase 4: Chung-Lu inside communities, uniform pairs between them.

    Returns the published pairs and how many of them lie inside a community.
    """
    k = int(labels.max()) + 1
    iu, iv = chung_lu(labels, k, degrees, rng)
    order = np.argsort(labels, kind="stable")
    sizes = np.bincount(labels, minlength=k)
    starts = np.cumsum(sizes) - sizes
    a, b = np.repeat(keys // k, counts), np.repeat(keys % k, counts)
    pick_a = order[starts[a] + (rng.random(a.size) * sizes[a]).astype(np.int64)]
    pick_b = order[starts[b] + (rng.random(b.size) * sizes[b]).astype(np.int64)]
    u, v = simple_pairs(n, np.concatenate([iu, pick_a]), np.concatenate([iv, pick_b]))
    return u, v, int(iu.size)


#: Chung-Lu pairs of ``lambda = d_i d_j / S`` at least this are enumerated, the others sampled
#: (the exact integer test ``2 d_i d_j >= S`` assumes 1/2).
HEAVY = 0.5


def chung_lu(
    labels: np.ndarray, k: int, degrees: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Each pair i < j of a community joined with probability min(1, d_i d_j / S), independently.

    S is the community's degree sum (the authors' ``generate_intra_edge``), in O(n + S): the
    pairs of ``lambda = d_i d_j / S >= HEAVY`` (at most S / HEAVY of them) are listed and kept
    with probability min(1, lambda); the others are drawn as Poisson(c S / 2) endpoint pairs in
    proportion to the degrees, c = -ln(1 - HEAVY) / HEAVY, so a light pair is drawn at least once
    with probability 1 - exp(-c lambda) >= lambda, and kept with probability
    lambda / (1 - exp(-c lambda)).
    """
    d = degrees.astype(np.float64)
    order = np.lexsort((-d, labels))  # by community, then degree descending
    ranked, owner = d[order], labels[order]
    total = np.bincount(labels, weights=d, minlength=k)
    sizes = np.bincount(labels, minlength=k)
    starts = np.cumsum(sizes) - sizes
    # heavy: for position a, the partners b > a in its community with d_b >= HEAVY S / d_a
    width = float(d.max(initial=0.0)) + 2.0
    key = owner * width + (width - 1.0 - ranked)  # ascending along ``order``
    # a slightly lower bar (rounding), then the exact integer test 2 d_a d_b >= S (HEAVY = 1/2)
    need = np.where(ranked > 0, HEAVY * total[owner] / np.maximum(ranked, 1.0), np.inf)
    need *= 1 - 1e-9
    limit = owner * width + (width - 1.0 - np.minimum(need, width - 1.0))
    end = np.searchsorted(key, limit, side="right")
    end = np.where(need <= width - 2.0, end, np.arange(d.size) + 1)  # nobody heavy enough
    span = np.maximum(end - np.arange(d.size) - 1, 0)
    first = np.repeat(np.arange(d.size), span)
    second = first + 1 + np.arange(first.size) - np.repeat(np.cumsum(span) - span, span)
    whole = degrees.astype(np.int64)[order]
    sums = np.bincount(labels, weights=degrees, minlength=k).astype(np.int64)
    exact = 2 * whole[first] * whole[second] >= sums[owner[first]]
    first, second = first[exact], second[exact]
    lam = ranked[first] * ranked[second] / total[owner[first]]
    keep = rng.random(first.size) < np.minimum(lam, 1.0)
    heavy_u, heavy_v = order[first[keep]], order[second[keep]]
    # light: oversampled product-form pairs, thinned
    c = -math.log1p(-HEAVY) / HEAVY
    draws = rng.poisson(c * total / 2.0)
    cumulative = np.cumsum(ranked)
    base = np.concatenate(([0.0], cumulative))[starts]
    community = np.repeat(np.arange(k), 2 * draws)
    ends = np.searchsorted(
        cumulative, base[community] + rng.random(community.size) * total[community], "right"
    )
    ends = order[np.clip(ends, starts[community], starts[community] + sizes[community] - 1)]
    lu, lv = simple_pairs(labels.size, ends[0::2], ends[1::2])
    whole = degrees.astype(np.int64)
    light = 2 * whole[lu] * whole[lv] < sums[labels[lu]]
    lam = d[lu] * d[lv] / np.maximum(total[labels[lu]], 1.0)
    lu, lv, lam = lu[light], lv[light], lam[light]
    keep = rng.random(lu.size) * -np.expm1(-c * lam) < lam
    return simple_pairs(
        labels.size, np.concatenate([heavy_u, lu[keep]]), np.concatenate([heavy_v, lv[keep]])
    )
