"""Louvain modularity clustering of a weighted graph, vectorised (numpy), seeded.

PrivGraph runs Louvain on its noisy super-graph (post-processing of a DP release, so any
clustering is private; this one needs nothing beyond numpy). The method is Blondel et al.'s
(2008): local moving of nodes to the neighbouring community of best modularity gain, then
aggregation of the communities into nodes, until a level moves nothing. The local moving is
*batched*: each sweep visits the nodes in a random order cut into ``BATCHES`` batches; the nodes
of a batch choose their moves from the assignment at the batch's start, and the batches follow
one another. With one node per batch this is Louvain's sequential sweep; with 32 batches each
sweep is a few sorts over the arcs, O(E log E), and the modularity reached is within a few
per cent of networkx's sequential Louvain (tests/test_privgraph.py).

Modularity with resolution gamma: ``Q = sum_c in_c / W - gamma (tot_c / 2W)^2``, W the total
edge weight (self-loops once), in_c the weight inside community c, tot_c the sum of its nodes'
weighted degrees (a self-loop counts twice), as networkx and python-louvain define it.
"""

from __future__ import annotations

import numpy as np

#: Batches per sweep of the local moving (see the module docstring).
BATCHES = 32
#: Sweeps per level at most; a level ends earlier when a sweep moves no node.
MAX_SWEEPS = 32
#: Levels (aggregations) at most.
MAX_LEVELS = 32
#: A level ends when a sweep moves at most this share of its nodes.
_SETTLED = 1e-3
#: A move must gain more than this (relative to W), so that rounding never moves a node back and forth.
_GAIN_TOL = 1e-12


def louvain(
    n: int,
    u: np.ndarray,
    v: np.ndarray,
    w: np.ndarray,
    loops: np.ndarray,
    *,
    resolution: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Community labels ``0..k-1`` of the ``n`` nodes (numbered by first appearance).

    ``(u, v, w)`` are the weighted edges, ``u != v``, each pair once, ``w > 0``; ``loops[i]`` is
    node i's self-loop weight. Deterministic given ``rng``'s state.

    Examples
    --------
    >>> u, v = np.array([0, 0, 1, 3, 3, 4, 2]), np.array([1, 2, 2, 4, 5, 5, 3])
    >>> louvain(6, u, v, np.ones(7), np.zeros(6), resolution=1.0,
    ...         rng=np.random.default_rng(0)).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    labels = np.arange(n, dtype=np.int64)
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    w = np.asarray(w, dtype=np.float64)
    loops = np.asarray(loops, dtype=np.float64)
    total = float(w.sum() + loops.sum())
    if n == 0 or total <= 0:
        return labels
    size = n
    for _ in range(MAX_LEVELS):
        comm = local_moving(size, u, v, w, loops, total, resolution, rng)
        _, comm = np.unique(comm, return_inverse=True)
        k = int(comm.max()) + 1
        labels = comm[labels]
        if k == size:
            break
        u, v, w, loops = aggregate(k, comm, u, v, w, loops)
        size = k
    return first_appearance(labels)


def first_appearance(labels: np.ndarray) -> np.ndarray:
    """Relabel so that community ids appear in increasing order along the nodes."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inverse]


def aggregate(
    k: int, comm: np.ndarray, u: np.ndarray, v: np.ndarray, w: np.ndarray, loops: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The graph of the communities: edge weights summed, inner edges become self-loops."""
    cu, cv = comm[u], comm[v]
    inner = cu == cv
    new_loops = np.bincount(comm, weights=loops, minlength=k)
    new_loops += np.bincount(cu[inner], weights=w[inner], minlength=k)
    lo = np.minimum(cu[~inner], cv[~inner])
    hi = np.maximum(cu[~inner], cv[~inner])
    keys, inverse = np.unique(lo * k + hi, return_inverse=True)
    weights = np.bincount(inverse, weights=w[~inner], minlength=keys.size)
    return keys // k, keys % k, weights, new_loops


def arcs(n: int, u: np.ndarray, v: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, ...]:
    """CSR of the symmetric arcs: ``(indptr, targets, weights)``."""
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order], np.concatenate([w, w])[order]


def gather(indptr: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The arc positions of ``nodes`` and, for each arc, the index of its node in ``nodes``."""
    lengths = indptr[nodes + 1] - indptr[nodes]
    owner = np.repeat(np.arange(nodes.size), lengths)
    starts = np.repeat(indptr[nodes] - (np.cumsum(lengths) - lengths), lengths)
    return starts + np.arange(owner.size), owner


def segment_weights(
    owner: np.ndarray, target: np.ndarray, weight: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sum ``weight`` by ``(owner, target)``: the distinct pairs (sorted) and their sums."""
    keys = owner * width + target
    if keys.size == 0:
        return keys, keys, np.zeros(0)
    order = np.argsort(keys)  # integer weights in PrivGraph: sums exact in any order
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    sums = np.add.reduceat(weight[order], starts)
    return keys[starts] // width, keys[starts] % width, sums


def local_moving(
    n: int,
    u: np.ndarray,
    v: np.ndarray,
    w: np.ndarray,
    loops: np.ndarray,
    total: float,
    resolution: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """One level's batched local moving; returns each node's community (ids < n)."""
    indptr, dst, wt = arcs(n, u, v, w)
    k = (
        np.zeros(n)
        + np.bincount(u, weights=w, minlength=n)
        + np.bincount(v, weights=w, minlength=n)
    )
    k += 2 * loops
    comm = np.arange(n, dtype=np.int64)
    tot = k.copy()
    scale = resolution / (2.0 * total)
    for _ in range(MAX_SWEEPS):
        moved = 0
        for batch in np.array_split(rng.permutation(n), min(BATCHES, n)):
            position, owner = gather(indptr, batch)
            if position.size == 0:
                continue
            node, target, weight = segment_weights(owner, comm[dst[position]], wt[position], n)
            own = comm[batch]
            ki = k[batch]
            here = np.zeros(batch.size)
            mine = target == own[node]
            here[node[mine]] = weight[mine]
            stay = here - scale * ki * (tot[own] - ki)
            gain = np.where(mine, -np.inf, weight - scale * ki[node] * tot[target])
            best, choice = segment_best(node, gain, batch.size)
            go = np.flatnonzero(best > stay + _GAIN_TOL * total)
            if go.size == 0:
                continue
            new = target[choice[go]]
            tot -= np.bincount(own[go], weights=ki[go], minlength=n)
            tot += np.bincount(new, weights=ki[go], minlength=n)
            comm[batch[go]] = new
            moved += go.size
        if moved <= n * _SETTLED:
            break
    return comm


def segment_best(node: np.ndarray, gain: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per node (``node`` sorted): the largest ``gain`` and the position of its first maximum."""
    best = np.full(size, -np.inf)
    np.maximum.at(best, node, gain)
    at_best = np.flatnonzero(gain == best[node])
    choice = np.zeros(size, dtype=np.int64)
    # the first maximum of each node: positions are sorted, so keep the first of each node
    first = at_best[np.concatenate(([True], node[at_best[1:]] != node[at_best[:-1]]))]
    choice[node[first]] = first
    return best, choice
