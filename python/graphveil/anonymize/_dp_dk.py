"""DP-1K and DP-2K: the degree sequence or joint degree matrix under edge DP, and a graph from it.

All the work is vectorized numpy over the n nodes, the 2m stubs and the D x D cells of the
joint degree matrix (D <= 2 sqrt(n) + 1): time O(m log m) (sorts) and memory O(n + m).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.optimize import isotonic_regression

from graphveil._checks import check_int, check_threads, require_undirected
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.anonymize._dp import check_epsilon, two_sided_geometric
from graphveil.anonymize._report import Timer, finish
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["dp_dk"]

#: L1 sensitivity of the sorted degree sequence under edge DP: one edge adds 1 to two degrees.
DEGREE_SENSITIVITY = 2

#: L1 sensitivity of a digraph's joint (in, out) degree sequence, the 2n-vector (out(v), in(v))
#: over the nodes v in id order, under one arc: the arc u -> v adds 1 to out(u) and 1 to in(v).
JOINT_DEGREE_SENSITIVITY = 2

#: Rounds of the symmetric iterative proportional fitting that makes the noisy JDM consistent.
_IPF_ROUNDS = 200


def dp_dk(
    graph: Graph,
    *,
    epsilon: float,
    k: int = 1,
    seed: SeedLike = None,
    threads: int | None = None,
) -> Anonymized:
    """DP-dK (k = 1 or 2): a random graph with a noisy degree sequence / joint degree matrix.

    **Privacy: epsilon-edge-DP** (``graphveil.anonymize._dp``). The node set (``n``) is
    public; every other input of the output is one of the noisy queries below, and the rest is
    post-processing. No true statistic (maximum degree, edge count) is used unprotected.

    **DP-1K** (``k=1``): the whole budget goes to the *sorted* degree sequence (Hay et al. 2009),
    whose L1 sensitivity under one edge is 2 (the edge adds 1 to two degrees; sorting does not
    increase the change). Noise: two-sided geometric with ``alpha = exp(-epsilon / 2)`` on each
    of the n entries (the discrete Laplace of scale 2/epsilon). Consistency (post-processing):
    isotonic regression of the noisy sorted sequence (the constrained inference of Hay et al.),
    rounding and clipping to ``[0, n - 1]`` (n is public), then the smallest top-down reduction
    that satisfies every Erdos-Gallai inequality and the even sum: a graphical sequence. It is
    dealt to the nodes in a uniformly random order (the true ranks are not used).
    Generator: the configuration model (uniform stub matching) with self-loops and multi-edges
    erased, so the output degrees are at most the consistent sequence (``report["erased"]``
    counts the stub pairs dropped).

    **DP-2K** (``k=2``): the budget is split in halves. ``epsilon / 2`` buys the consistent
    degree sequence as in DP-1K. From it (post-processing, never from the true graph) a degree
    cap ``D`` is set: the consistent degree of rank ``ceil(sqrt(n))``, at most
    ``ceil(2 sqrt(n))`` and at least 1. ``epsilon / 2`` buys the joint degree matrix over
    *capped* degrees ``c(v) = min(deg(v), D)``: ``J[a, b]`` counts the edges between classes
    ``a <= b`` (``1 <= a, b <= D``). Its L1 sensitivity is at most ``4 D - 3`` for every graph:
    the new edge adds 1 to one cell, and each of the at most ``D - 1`` other edges of an
    endpoint whose capped class changes moves from one cell to another (2 each), for two
    endpoints; an endpoint of degree ``>= D`` keeps its class. This is Sala et al.'s
    ``4 d_max + 1`` bound with the public-by-construction cap ``D`` in place of the true
    ``d_max``, which it would leak. Noise: two-sided geometric, ``alpha = exp(-epsilon / 2 /
    (4 D - 3))``, on all ``D (D + 1) / 2`` cells. Consistency: negative cells to 0, then
    symmetric iterative proportional fitting to the stub counts of the classes that the
    consistent degree sequence implies (a tiny configuration-model prior keeps every row
    reachable), rounded. Generator (2K-configuration, Mahadevan et al. 2006): stubs
    labelled by class, shuffled within each class; each cell ``J[a, b]`` is matched from the
    class-a and class-b stubs, the stubs left by rounding are matched uniformly, and
    self-loops and multi-edges are erased.

    **Directed** ``graph`` (``k=1`` only; DP-2K refuses a digraph): epsilon-edge-DP with the arc
    as the unit (neighbours differ in one arc ``u -> v``; an arc and its reverse are two units,
    so a mutual dyad is protected at 2 epsilon). The whole budget goes to the *joint (in, out)
    degree sequence*, the 2n-vector of every node's out-degree and in-degree in id order
    (each node's pair kept together, so the correlation of in- and out-degree survives). Its L1
    sensitivity is 2 (``JOINT_DEGREE_SENSITIVITY``): one arc adds 1 to one out-degree and 1 to
    one in-degree. Noise: two-sided geometric with ``alpha = exp(-epsilon / 2)`` on each of the
    2n entries. Consistency (post-processing): each entry clipped to ``[0, n - 1]``; the side
    with more stubs loses its excess (``report["trimmed"]``) in stubs drawn uniformly without
    replacement, so the out- and in-stubs balance; the (in, out) pairs are dealt to the nodes in
    a uniformly random order (the true ids are not used). Generator: the directed configuration
    model (out-stubs matched to in-stubs uniformly) with self-loops and multi-arcs erased, so
    every output in- and out-degree is at most the consistent one.

    Parameters
    ----------
    graph : Graph
        The true graph (n >= 2 nodes), undirected or directed (k = 1).
    epsilon : float
        The privacy budget (finite, > 0); see ``EPSILON_GRID``.
    k : int
        1 (degree sequence) or 2 (joint degree matrix).
    seed : int, numpy.random.Generator or None
        ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments
        only: anyone who learns it can regenerate the noise.
    threads : int, optional
        Accepted for the schemes' common interface; the work is vectorized numpy on one random
        stream, so the output depends on the seed only.

    Returns
    -------
    Anonymized
        A deterministic simple graph (all p = 1). The published ``params`` are ``epsilon``
        and ``k``; the report also gives the ``budget`` split, the ``erased`` stub pairs and,
        for k = 2, the ``degree_cap`` D and the ``sensitivity`` 4D - 3 (private record).

    Raises
    ------
    ValueError
        If epsilon is not a finite number > 0, k is not 1 or 2, or the graph has fewer than
        2 nodes.

    References
    ----------
    Sala, Zhao, Wilson, Zheng and Zhao, "Sharing graphs using differentially private graph
    models", IMC 2011; Wang and Wu, "Preserving differential privacy in degree-correlation
    based graph generation", Transactions on Data Privacy 6(2), 2013; Hay, Li, Miklau and
    Jensen, "Accurate estimation of the degree distribution of private networks", ICDM 2009;
    Mahadevan, Krioukov, Fall and Vahdat, "Systematic topology analysis and generation using
    degree correlations", SIGCOMM 2006.

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import dp_dk
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = dp_dk(g, epsilon=2.0, seed=1)
    >>> ug.n == g.n, bool((ug.p == 1).all()), report["params"]
    (True, True, {'epsilon': 2.0, 'k': 1})
    """
    check_graph(graph, what="dp_dk", directed=True)
    eps = check_epsilon(epsilon)
    k = check_int(k, "k")
    if k not in (1, 2):
        raise ValueError(f"k must be 1 (DP-1K) or 2 (DP-2K), got {k!r}")
    if k == 2:
        require_undirected(graph, "dp_dk with k=2 (DP-2K)")
    check_small(graph, 2, "dp_dk")
    check_threads(threads)
    seed64 = seed_to_u64(seed)
    rng = np.random.Generator(np.random.PCG64(seed64))
    timer = Timer()
    if graph.directed:
        return _dp_1k_directed(graph, eps, rng, seed64, timer)
    eps_degrees = eps if k == 1 else eps / 2
    extra: dict[str, Any] = {"budget": {"degree_sequence": eps_degrees}}
    with timer.phase("noise"):
        noisy = noisy_sorted_degrees(graph.degrees, eps_degrees, rng)
    with timer.phase("consistency"):
        sequence = graphical_sequence(noisy)
        degrees = np.empty(graph.n, dtype=np.int64)
        degrees[rng.permutation(graph.n)] = sequence
    if k == 1:
        with timer.phase("generate"):
            u, v = configuration_pairs(degrees, rng)
    else:
        cap = degree_cap(sequence)
        sensitivity = jdm_sensitivity(cap)
        extra["budget"]["joint_degree_matrix"] = eps / 2
        extra.update(degree_cap=cap, sensitivity=sensitivity)
        with timer.phase("noise"):
            true_jdm = joint_degree_matrix(graph, cap)
            iu = np.triu_indices(cap)
            noisy_jdm = true_jdm[iu] + two_sided_geometric(
                rng, iu[0].size, epsilon=eps / 2, sensitivity=sensitivity
            )
            del true_jdm
        with timer.phase("consistency"):
            classes = np.minimum(degrees, cap)
            stubs = np.bincount(classes, weights=degrees, minlength=cap + 1)[1:]
            jdm = consistent_jdm(noisy_jdm, iu, stubs.astype(np.int64))
        with timer.phase("generate"):
            u, v = jdm_pairs(degrees, classes, jdm, rng)
    with timer.phase("erase"):
        total = u.size
        u, v = simple_pairs(graph.n, u, v)
    return finish(
        graph.n,
        u,
        v,
        np.ones(u.size),
        scheme="dp_dk",
        params={"epsilon": eps, "k": k},
        seed=seed64,
        timer=timer,
        erased=int(total - u.size),
        **extra,
    )


def _dp_1k_directed(
    graph: Graph, eps: float, rng: np.random.Generator, seed64: int, timer: Timer
) -> Anonymized:
    """DP-1K of a digraph (see :func:`dp_dk`): the joint (in, out) sequence, then a digraph."""
    with timer.phase("noise"):
        noisy_out, noisy_in = noisy_joint_degrees(graph, eps, rng)
    with timer.phase("consistency"):
        out, inn, trimmed = consistent_joint_degrees(noisy_out, noisy_in, rng)
        order = rng.permutation(graph.n)
        dealt_out = np.empty_like(out)
        dealt_in = np.empty_like(inn)
        dealt_out[order] = out
        dealt_in[order] = inn
    with timer.phase("generate"):
        u, v = directed_configuration_pairs(dealt_out, dealt_in, rng)
    with timer.phase("erase"):
        total = u.size
        u, v = simple_arcs(graph.n, u, v)
    return finish(
        graph.n,
        u,
        v,
        np.ones(u.size),
        directed=True,
        scheme="dp_dk",
        params={"epsilon": eps, "k": 1},
        seed=seed64,
        timer=timer,
        erased=int(total - u.size),
        budget={"joint_degree_sequence": eps},
        trimmed=trimmed,
    )


def noisy_joint_degrees(
    graph: Graph, epsilon: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The out- and in-degrees in id order plus two-sided geometric noise of sensitivity 2 (raw).

    One draw of 2n values: the first n on the out-degrees, the last n on the in-degrees.
    """
    joint = np.concatenate((graph.out_degrees, graph.in_degrees)).astype(np.int64)
    noisy = joint + two_sided_geometric(
        rng, joint.size, epsilon=epsilon, sensitivity=JOINT_DEGREE_SENSITIVITY
    )
    return noisy[: graph.n], noisy[graph.n :]


def consistent_joint_degrees(
    noisy_out: np.ndarray, noisy_in: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(out, in, trimmed)``: both clipped to [0, n - 1], the larger stub total trimmed to the other.

    The ``trimmed`` excess stubs are drawn uniformly without replacement from the larger side.
    """
    n = noisy_out.size
    out = np.clip(noisy_out, 0, max(n - 1, 0)).astype(np.int64)
    inn = np.clip(noisy_in, 0, max(n - 1, 0)).astype(np.int64)
    excess = int(out.sum() - inn.sum())
    if excess > 0:
        out = _drop_stubs(out, excess, rng)
    elif excess < 0:
        inn = _drop_stubs(inn, -excess, rng)
    return out, inn, abs(excess)


def _drop_stubs(degrees: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    stubs = np.repeat(np.arange(degrees.size, dtype=np.int64), degrees)
    dropped = stubs[rng.choice(stubs.size, count, replace=False)]
    return degrees - np.bincount(dropped, minlength=degrees.size)


def directed_configuration_pairs(
    out: np.ndarray, inn: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Uniform matching of out-stubs to in-stubs (equal totals): arcs, loops and copies kept."""
    tails = np.repeat(np.arange(out.size, dtype=np.int64), out)
    heads = np.repeat(np.arange(inn.size, dtype=np.int64), inn)
    return tails[rng.permutation(tails.size)], heads


def simple_arcs(n: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct non-loop arcs ``u -> v``, sorted (multi-arcs and loops erased)."""
    keep = u != v
    keys = np.sort(u[keep].astype(np.int64) * n + v[keep])
    if keys.size:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return np.divmod(keys, n) if n else (keys, keys)


def check_small(graph: Graph, minimum: int, scheme: str) -> None:
    if graph.n < minimum:
        raise ValueError(
            f"{scheme} needs a graph of at least {minimum} nodes to generate from, got n = "
            f"{graph.n}"
        )


def noisy_sorted_degrees(
    degrees: np.ndarray, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """The ascending degree sequence plus two-sided geometric noise of sensitivity 2 (raw)."""
    ordered = np.sort(np.asarray(degrees, dtype=np.int64))
    return ordered + two_sided_geometric(
        rng, ordered.size, epsilon=epsilon, sensitivity=DEGREE_SENSITIVITY
    )


def erdos_gallai_slack(descending: np.ndarray) -> np.ndarray:
    """``rhs_k - lhs_k`` of the Erdos-Gallai inequalities k = 1..n of a nonincreasing sequence."""
    d = np.asarray(descending, dtype=np.int64)
    n = d.size
    k = np.arange(1, n + 1, dtype=np.int64)
    # c[k-1] = #{i : d_i >= k}; d nonincreasing, so -d is nondecreasing.
    c = np.searchsorted(-d, -k, side="right")
    suffix = np.zeros(n + 1, dtype=np.int64)
    suffix[:n] = np.cumsum(d[::-1])[::-1]
    tail = k * np.maximum(c - k, 0) + suffix[np.maximum(k, c)]
    return k * (k - 1) + tail - np.cumsum(d)


def is_graphical(sequence: np.ndarray) -> bool:
    """Erdos-Gallai: non-negative, even sum and every inequality holds."""
    d = np.sort(np.asarray(sequence, dtype=np.int64))[::-1]
    if d.size == 0:
        return True
    return bool(d[-1] >= 0 and d.sum() % 2 == 0 and erdos_gallai_slack(d).min() >= 0)


def graphical_sequence(noisy: np.ndarray) -> np.ndarray:
    """Post-process a noisy sorted degree sequence into a graphical one (nonincreasing).

    Isotonic regression (least squares, nondecreasing), rounding, clipping to ``[0, n - 1]``;
    then, while an Erdos-Gallai inequality fails, the most violated one at k is repaired by
    lowering the k largest degrees from the top (water-filling) by exactly its deficit; an odd
    sum is made even by lowering one largest degree by 1, which keeps every inequality.
    """
    n = noisy.size
    fitted = isotonic_regression(noisy.astype(np.float64), increasing=True).x
    d = np.clip(np.rint(fitted), 0, max(n - 1, 0)).astype(np.int64)[::-1].copy()
    while True:
        slack = erdos_gallai_slack(d)
        worst = int(np.argmin(slack))
        if slack[worst] < 0:
            d[: worst + 1] = _lower_top(d[: worst + 1], int(-slack[worst]))
            d = np.sort(d)[::-1].copy()
            continue
        if d.sum() % 2:
            d[0] -= 1
            d = np.sort(d)[::-1].copy()
            continue
        return d


def _lower_top(top: np.ndarray, deficit: int) -> np.ndarray:
    """Lower a nonincreasing sequence by ``deficit`` in total, the largest entries first."""
    # removed(L) = sum(max(top - L, 0)) is nonincreasing in L; find the largest L with
    # removed(L) >= deficit, cap at L + 1 and take the rest from entries equal to L + 1.
    lo, hi = 0, int(top[0])
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if int(np.maximum(top - mid, 0).sum()) >= deficit:
            lo = mid
        else:
            hi = mid - 1
    level = lo
    out = np.minimum(top, level + 1)
    rest = deficit - int((top - out).sum())
    at_level = np.flatnonzero(out == level + 1)
    out[at_level[at_level.size - rest :] if rest else at_level[:0]] -= 1
    return out


def configuration_pairs(degrees: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Uniform stub matching of a sequence with an even sum (a multigraph with loops)."""
    stubs = np.repeat(np.arange(degrees.size, dtype=np.int64), degrees)
    stubs = stubs[rng.permutation(stubs.size)]
    return stubs[0::2], stubs[1::2]


def simple_pairs(n: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct non-loop pairs ``(min, max)``, sorted (multi-edges and loops erased)."""
    lo = np.minimum(u, v).astype(np.int64)
    hi = np.maximum(u, v).astype(np.int64)
    keep = lo != hi
    keys = np.sort(lo[keep] * n + hi[keep])
    if keys.size:  # sort-based: np.unique is several times slower on large int64 arrays
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return np.divmod(keys, n) if n else (keys, keys)


def degree_cap(descending: np.ndarray) -> int:
    """DP-2K's class cap D from the consistent (already private) degree sequence and n."""
    n = descending.size
    rank = math.isqrt(n - 1) + 1 if n else 1  # ceil(sqrt(n))
    bound = math.isqrt(4 * n - 1) + 1 if n else 1  # ceil(2 sqrt(n))
    return max(1, min(int(descending[min(rank, n) - 1]), bound))


def jdm_sensitivity(cap: int) -> int:
    """L1 sensitivity of the capped joint degree matrix under one edge (see :func:`dp_dk`)."""
    return max(1, 4 * cap - 3)


def joint_degree_matrix(graph: Graph, cap: int) -> np.ndarray:
    """``J[a-1, b-1]``, a <= b: edges between capped classes a and b (upper triangle used)."""
    u, v = graph.edges()
    classes = np.minimum(graph.degrees.astype(np.int64), cap)
    a, b = classes[u], classes[v]
    lo, hi = np.minimum(a, b) - 1, np.maximum(a, b) - 1
    flat = np.bincount(lo * cap + hi, minlength=cap * cap)
    return flat.reshape(cap, cap)


def consistent_jdm(
    noisy: np.ndarray, iu: tuple[np.ndarray, np.ndarray], stubs: np.ndarray
) -> np.ndarray:
    """Non-negative integer upper-triangle cells whose class stub counts do not exceed ``stubs``.

    ``stubs[a]`` is the number of stubs of class a + 1; a cell on the diagonal uses two stubs
    of its class per edge. Negative cells go to 0; symmetric iterative proportional fitting
    matches the row stub sums to ``stubs``; the result is rounded and any row still over
    its stubs is trimmed.
    """
    cap = stubs.size
    total = float(stubs.sum())
    i, j = iu
    diag = i == j
    weight = np.where(diag, 2.0, 1.0)
    if total == 0:
        return np.zeros(i.size, dtype=np.int64)
    prior = stubs[i] * stubs[j] / total * np.where(diag, 0.5, 1.0)
    cells = np.maximum(noisy, 0).astype(np.float64) + 1e-6 * prior
    target = stubs.astype(np.float64)
    for _ in range(_IPF_ROUNDS):
        rows = np.bincount(i, weights=weight * cells, minlength=cap)
        rows += np.bincount(j[~diag], weights=cells[~diag], minlength=cap)
        factor = np.divide(target, rows, out=np.zeros(cap), where=rows > 0)
        if np.abs(rows - target).max() <= 1e-6 * max(1.0, target.max()):
            break
        cells *= np.sqrt(factor[i] * factor[j])
    out = np.rint(cells).astype(np.int64)
    for _ in range(cap + 1):
        used = np.bincount(i, weights=weight * out, minlength=cap)
        used += np.bincount(j[~diag], weights=out[~diag], minlength=cap)
        over = np.flatnonzero(used > stubs)
        if over.size == 0:
            return out
        for row in over:
            # drop the largest cells of the row until it fits (at most a few per row)
            cells_of_row = np.flatnonzero((i == row) | (j == row))
            for cell in cells_of_row[np.argsort(-out[cells_of_row], kind="stable")]:
                if used[row] <= stubs[row]:
                    break
                take = min(int(out[cell]), int(np.ceil((used[row] - stubs[row]) / weight[cell])))
                out[cell] -= take
                used[row] -= take * weight[cell]
    return out  # pragma: no cover - the trimming above converges in one round


def jdm_pairs(
    degrees: np.ndarray, classes: np.ndarray, jdm: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The 2K-configuration multigraph: ``jdm`` (upper-triangle cells) matched on class stubs.

    ``classes[v]`` in ``1..D`` is node v's class (0 for degree 0); the class stub counts must
    cover the cells' demand. Stubs left over are matched uniformly.
    """
    cap = int(np.round((math.isqrt(8 * jdm.size + 1) - 1) / 2))
    ci, cj = np.triu_indices(cap)
    stubs = np.repeat(np.arange(degrees.size, dtype=np.int64), degrees)
    stubs = stubs[rng.permutation(stubs.size)]
    stubs = stubs[np.argsort(classes[stubs], kind="stable")]  # grouped by class, random inside
    class_start = np.searchsorted(classes[stubs], np.arange(cap + 2))
    # Demand rows: (class, cell, count), a diagonal cell takes 2 J stubs of its class.
    diag = ci == cj
    row_class = np.concatenate([ci + 1, (cj + 1)[~diag]])
    row_cell = np.concatenate([np.arange(ci.size), np.flatnonzero(~diag)])
    row_count = np.concatenate([np.where(diag, 2 * jdm, jdm), jdm[~diag]])
    order = np.lexsort((row_cell, row_class))
    row_class, row_cell, row_count = row_class[order], row_cell[order], row_count[order]
    ends = np.cumsum(row_count)
    demand = np.bincount(row_class, weights=row_count, minlength=cap + 1).astype(np.int64)
    first_of_class = np.concatenate([[0], np.cumsum(demand)])[row_class]
    start = class_start[row_class] + (ends - row_count) - first_of_class
    # side a of cell c is the row with class ci+1, side b the row with class cj+1
    start_a = np.zeros(ci.size, dtype=np.int64)
    start_b = np.zeros(ci.size, dtype=np.int64)
    is_b = (row_class == cj[row_cell] + 1) & ~diag[row_cell]
    start_a[row_cell[~is_b]] = start[~is_b]
    start_b[row_cell[is_b]] = start[is_b]
    start_b[diag] = start_a[diag] + jdm[diag]
    count = jdm
    offsets = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    u = stubs[np.repeat(start_a, count) + offsets]
    v = stubs[np.repeat(start_b, count) + offsets]
    # Leftover stubs of every class (after its demand), matched uniformly.
    left = np.concatenate(
        [np.arange(class_start[c] + demand[c], class_start[c + 1]) for c in range(cap + 1)]
    ).astype(np.int64)
    rest = stubs[left[rng.permutation(left.size)]]
    return np.concatenate([u, rest[0::2]]), np.concatenate([v, rest[1::2]])
