"""The uncertain graph: node pairs with independent existence probabilities."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphveil._common import index_dtype
from graphveil.graph import Graph


class UncertainGraph:
    """An uncertain graph on nodes ``0..n-1``: pairs ``(u, v)`` with probabilities ``p``.

    Every pair exists independently with its probability; a *possible world* (a sample)
    keeps each pair with probability ``p``.

    Canonical form (strict model, the default): ``u < v``, pairs sorted by ``(u, v)`` and
    unique, ``p`` float64 in ``[0, 1]``.

    Relaxed model (``relaxed=True``, constraint 2' of the paper, used by RandWalk-mod and
    Mixture): self-loops ``(u, u)`` and repeated pairs (multi-edges) are allowed; pairs are
    still sorted with ``u <= v``. The uncertain adjacency matrix is the sum of one entry per
    pair, so a pair ``(u, v)`` with ``u != v`` adds ``p`` to the expected degree of both ends
    and a self-loop ``(u, u)`` adds ``p`` once to ``u`` (the row sum of the matrix, as in
    Theorem 3.1). Samples used for statistics are simplified: multi-edges merged,
    self-loops dropped.

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
    meta : dict, optional
        Provenance (scheme, parameters, seed); saved with the graph.
    """

    __slots__ = ("_n", "_u", "_v", "_p", "_relaxed", "meta")

    def __init__(
        self,
        n: int,
        u: Any,
        v: Any,
        p: Any,
        *,
        relaxed: bool = False,
        meta: dict[str, Any] | None = None,
    ) -> None:
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        u_arr = np.asarray(u)
        v_arr = np.asarray(v)
        p_arr = np.asarray(p, dtype=np.float64)
        if not (u_arr.ndim == v_arr.ndim == p_arr.ndim == 1) or not (u_arr.size == v_arr.size == p_arr.size):
            raise ValueError(
                f"u, v and p must be 1-d arrays of one length, got sizes {u_arr.size}, {v_arr.size}, {p_arr.size}"
            )
        if u_arr.size and not (np.issubdtype(u_arr.dtype, np.integer) and np.issubdtype(v_arr.dtype, np.integer)):
            raise TypeError(f"pair ends must be integers, got dtypes {u_arr.dtype} and {v_arr.dtype}")
        if p_arr.size:
            bad = ~((p_arr >= 0.0) & (p_arr <= 1.0))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"probabilities must lie in [0, 1]: pair {i} ({int(u_arr[i])}, {int(v_arr[i])}) has p={p_arr[i]!r} "
                    f"({int(bad.sum())} such pairs)"
                )
            lo = int(min(u_arr.min(), v_arr.min()))
            hi = int(max(u_arr.max(), v_arr.max()))
            if lo < 0 or hi >= n:
                raise ValueError(f"pair ends must lie in 0..{n - 1}, found {lo if lo < 0 else hi}")
        dtype = index_dtype(n)
        a = np.minimum(u_arr, v_arr).astype(dtype, copy=False)
        b = np.maximum(u_arr, v_arr).astype(dtype, copy=False)
        if not relaxed and np.any(a == b):
            raise ValueError("self-loops are not allowed in the strict model; pass relaxed=True to keep them")
        order = np.lexsort((b, a))
        a, b, p_arr = a[order], b[order], p_arr[order]
        if not relaxed and a.size > 1:
            same = (a[1:] == a[:-1]) & (b[1:] == b[:-1])
            if same.any():
                i = int(np.flatnonzero(same)[0])
                raise ValueError(
                    f"pair ({int(a[i])}, {int(b[i])}) appears more than once; merge duplicates or pass relaxed=True"
                )
        for arr in (a, b, p_arr):
            arr.setflags(write=False)
        self._n = n
        self._u = a
        self._v = b
        self._p = p_arr
        self._relaxed = bool(relaxed)
        self.meta: dict[str, Any] = dict(meta or {})

    @classmethod
    def from_graph(cls, graph: Graph, *, meta: dict[str, Any] | None = None) -> UncertainGraph:
        """The deterministic graph as an uncertain graph with every edge at p = 1."""
        u, v = graph.edges()
        return cls(graph.n, u, v, np.ones(u.size), meta=meta)

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self._n

    @property
    def u(self) -> np.ndarray:
        """First pair ends (``u <= v``), read-only."""
        return self._u

    @property
    def v(self) -> np.ndarray:
        """Second pair ends, read-only."""
        return self._v

    @property
    def p(self) -> np.ndarray:
        """Probabilities (float64), read-only."""
        return self._p

    @property
    def relaxed(self) -> bool:
        """Whether self-loops and multi-edges are allowed."""
        return self._relaxed

    @property
    def num_pairs(self) -> int:
        """Number of pairs with a probability (including p = 0 and p = 1)."""
        return int(self._p.size)

    def expected_degrees(self) -> np.ndarray:
        """Expected degree of every node: the row sums of the uncertain adjacency matrix."""
        loops = self._u == self._v
        deg = np.bincount(self._u, weights=self._p, minlength=self._n)
        deg += np.bincount(self._v[~loops], weights=self._p[~loops], minlength=self._n)
        return deg

    def degree_variance(self) -> np.ndarray:
        """Variance of every node's degree: sum of p(1-p) over its pairs (a self-loop once)."""
        q = self._p * (1.0 - self._p)
        loops = self._u == self._v
        var = np.bincount(self._u, weights=q, minlength=self._n)
        var += np.bincount(self._v[~loops], weights=q[~loops], minlength=self._n)
        return var

    def total_variance(self) -> float:
        """TV = sum over pairs of p(1 - p): half the sum of the degree variances (Section 4)."""
        return float(np.sum(self._p * (1.0 - self._p)))

    def __repr__(self) -> str:
        kind = ", relaxed" if self._relaxed else ""
        return f"UncertainGraph(n={self._n:,}, pairs={self.num_pairs:,}{kind})"
