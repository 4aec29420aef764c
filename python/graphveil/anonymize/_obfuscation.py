"""(k, eps)-obfuscation of Boldi et al. (VLDB 2012), as analysed in Section III-B of the paper.

Potential pairs are drawn between "unique" nodes, every candidate pair gets a probability
from a truncated normal perturbation, and the width ``sigma`` of the perturbation is searched
(double until success, then bisect) for the smallest one whose output k-obfuscates all but an
``eps`` fraction of the nodes. Vectorised numpy with a seeded ``numpy.random.Generator``; the
eps check is :func:`graphveil.measure.privacy.eps` (exact Poisson-binomial, C++).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
from scipy import special

from graphveil import _core
from graphveil._checks import NotApplicable, check_int, check_real, check_threads
from graphveil._seeds import SeedLike, keyed_rng, seed_to_u64
from graphveil._threads import iter_ordered, task_threads
from graphveil.anonymize._report import Timer, finish_graph, graph_first
from graphveil.graph import Graph, check_graph
from graphveil.measure.privacy import (
    check_directed_degree,
    directed_degree_values,
)
from graphveil.measure.privacy import eps as eps_of
from graphveil.uncertain import Anonymized, UncertainGraph

__all__ = [
    "ObfuscationError",
    "obfuscation",
    "obfuscation_expected_tv",
    "truncated_normal_moments",
    "uniqueness",
]

#: The most attempts per sigma (t; Boldi et al. and the study take 5): each is a release and
#: its eps-hat, and a search tries a dozen sigmas or more.
MAX_ATTEMPTS = 100

#: The sigma search's lines (``graphveil.anonymize._obfuscation``).
log = logging.getLogger(__name__)

_SQRT_2PI = math.sqrt(2.0 * math.pi)
_SLICE = 1 << 20  # pairs per slice of the per-pair formulas: their temporaries stay small
#: Widest pair width sigma(e) drawn: the inverse-CDF draw of R_sigma errs by about
#: 1e-16 * sigma(e) (its tail's offset from 1/2 is ~ 1/sigma(e), against rounding at 1e-16),
#: 1e-7 here; above it draws collapse to 0 (G0 published), and R_sigma is uniform on [0, 1]
#: anyway (white noise, q = 1). The search (sigma <= sigma_max = 16) stays far below.
_WIDTH_MAX = 1e9

#: The variants of :func:`obfuscation`: ``|H|`` as a share of ``eps n`` and the default tries.
#: Boldi et al. exclude ``ceil(eps n / 2)`` nodes (5 tries here); the authors' code for the
#: paper ``ceil(eps n)`` with ``N_TRIES = 3`` (``graph-dp/src/entropy_obfuscation.py``).
OBFUSCATION_VARIANTS: dict[str, tuple[float, int]] = {"boldi": (0.5, 5), "authors": (1.0, 3)}


class ObfuscationError(RuntimeError):
    """No attempt met (k, eps).

    ``report`` says what was tried; ``best`` is the attempt with the
    smallest eps-hat (an :class:`Anonymized` that does *not* meet (k, eps)), or None.
    """

    def __init__(
        self, message: str, report: dict[str, Any], best: Anonymized | None = None
    ) -> None:
        super().__init__(message)
        self.report = report
        self.best = best


# ------------------------------------------------------------------ formulas
def truncated_normal_moments(sigma: Any) -> tuple[np.ndarray, np.ndarray]:
    """``E[r]`` and ``E[r^2]`` of ``r ~ N(0, sigma^2)`` truncated to ``[0, 1]`` (R_sigma).

    With ``Z = P(0 <= X <= 1) = erf(1 / (sigma sqrt 2)) / 2``:
    ``E[r] = sigma (1 - exp(-1 / 2 sigma^2)) / (Z sqrt(2 pi))`` and
    ``E[r^2] = sigma^2 - sigma exp(-1 / 2 sigma^2) / (Z sqrt(2 pi))``.

    These are the paper's equations (the E[r_e] formulas of Proposition 4.3) with its constant
    ``C`` read as the normaliser ``1 / Z``; the paper's text calls ``C = 0.5 erf(...)``, and its
    small-sigma approximation ``E[r] ~ sigma / sqrt(2 pi)`` drops a factor 2 (for small sigma
    R_sigma is half-normal, mean ``sigma sqrt(2 / pi)``). We use the exact expressions.
    """
    s = np.asarray(sigma, dtype=np.float64)
    if np.any(~(s > 0)):
        raise ValueError("sigma must be > 0")
    z = 0.5 * special.erf(1.0 / (s * math.sqrt(2.0)))
    tail = np.exp(-0.5 / (s * s))
    m1 = s * -np.expm1(-0.5 / (s * s)) / (z * _SQRT_2PI)
    m2 = s * s - s * tail / (z * _SQRT_2PI)
    return m1, m2


def obfuscation_expected_tv(sigma: float, num_pairs: int, *, q: float = 0.0) -> float:
    """Expected total variance of (k, eps)-obf: ``|E_C| (E[r] - E[r^2])`` (Proposition 4.3).

    ``num_pairs`` is ``m + n_p = |E_C|``, the candidate pairs. With white noise ``q`` a pair's
    ``r`` is uniform on [0, 1] with probability ``q`` (``E[r - r^2] = 1/6``). This is the
    paper's formula with a single ``sigma``; the scheme spreads ``sigma`` over pairs
    (``sigma(e)``), for which the report of :func:`obfuscation` gives the exact expectation.
    """
    q = check_real(q, "q", 0.0, 1.0)
    m1, m2 = truncated_normal_moments(sigma)
    return float(num_pairs * ((1.0 - q) * (m1 - m2) + q / 6.0))


def _sample_truncated_normal(sigma: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Inverse-CDF draws of N(0, sigma^2) truncated to [0, 1], one per entry of ``sigma``.

    ``r = -sigma Phi^-1(tail)`` with ``tail = (erfc(x) + w erf(x)) / 2``, ``x = 1 / (sigma sqrt 2)``,
    ``w`` uniform on (0, 1]: the upper-tail form keeps full precision for tiny sigma.
    """
    w = 1.0 - rng.random(sigma.size)
    for start in range(0, w.size, _SLICE):  # in slices, into w: no array-sized temporaries
        s = sigma[start : start + _SLICE]
        x = 1.0 / (s * math.sqrt(2.0))
        tail = 0.5 * (special.erfc(x) + w[start : start + _SLICE] * special.erf(x))
        w[start : start + _SLICE] = np.clip(-s * special.ndtri(tail), 0.0, 1.0)
    return w


def uniqueness(degrees: np.ndarray, sigma: float) -> np.ndarray:
    """Boldi's sigma-uniqueness of every node: ``1 / C(d_v)``, ``C(d) = sum_d' count(d') phi_sigma(d - d')``.

    ``degrees`` is one value per node, or one row per node (a directed graph's joint
    ``(in, out)`` degree): ``phi_sigma`` is then the 2-D Gaussian kernel
    ``exp(-|d - d'|^2 / (2 sigma^2)) / (2 pi sigma^2)``.
    """
    array = np.asarray(degrees)
    rows = array.reshape(array.shape[0], -1)
    values, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    vals = values.astype(np.float64)
    common = np.empty(vals.shape[0])
    chunk = max(1, 4_000_000 // max(1, vals.shape[0] * vals.shape[1]))
    for start in range(0, vals.shape[0], chunk):
        diff = vals[start : start + chunk, None, :] - vals[None, :, :]
        with np.errstate(over="ignore"):  # (diff / sigma)^2 = inf for a tiny sigma: exp(-inf) = 0
            common[start : start + chunk] = (
                np.exp(-0.5 * ((diff / sigma) ** 2).sum(axis=2)) @ counts
            )
    common /= (sigma * _SQRT_2PI) ** vals.shape[1]
    return 1.0 / common[inverse.reshape(-1)]


# ------------------------------------------------------------------ one attempt
@dataclass
class _Prepared:
    graph: Graph
    k: int
    eps: float
    c: float
    q: float
    threads: int
    #: The degree of a directed graph (:data:`~graphveil.measure.privacy.DIRECTED_DEGREES`), None if undirected.
    degree: str | None = None
    #: |H| as a share of ``eps n``: Boldi's 1/2, the authors' 1 (:data:`OBFUSCATION_VARIANTS`).
    excluded_share: float = 0.5
    edge_keys: np.ndarray = field(init=False)
    degrees: np.ndarray = field(init=False)
    target: int = field(init=False)

    def __post_init__(self) -> None:
        g = self.graph
        eu, ev = g.edges()
        self.edge_keys = eu.astype(np.int64) * g.n + ev  # sorted: edges() is canonical
        self.degrees = g.degrees if self.degree is None else directed_degree_values(g, self.degree)
        self.target = round(self.c * g.m)


@dataclass
class _Attempt:
    graph: UncertainGraph
    eps_hat: float
    candidate_pairs: int
    removed_edges: int
    added_pairs: int
    excluded: int
    draws: int
    expected_tv: float


def _draw_candidates(
    prep: _Prepared, unique: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Boldi's candidate loop (sequential, C++); returns (removed edge keys, added keys, excluded, draws)."""
    g = prep.graph
    n, m = g.n, g.m
    excluded = min(n, math.ceil(prep.eps * n * prep.excluded_share))
    order = np.argsort(-unique, kind="stable")
    allowed = np.ones(n, dtype=bool)
    allowed[order[:excluded]] = False
    pool = np.flatnonzero(allowed)
    removed = np.zeros(0, dtype=np.int64)
    added = np.zeros(0, dtype=np.int64)
    if prep.target <= m:
        return removed, added, excluded, 0
    # feasibility: at most every non-edge inside V \ H can be added
    inside_edges = int(
        np.count_nonzero(allowed[prep.edge_keys // max(n, 1)] & allowed[prep.edge_keys % max(n, 1)])
    )
    free = pool.size * (pool.size - 1) // (1 if g.directed else 2) - inside_edges
    if prep.target > m + free:
        raise ValueError(
            f"c={prep.c:g} asks for {prep.target - m:,} potential pairs but only {free:,} node pairs outside "
            f"the {excluded:,} excluded nodes are not edges; lower c or eps"
        )
    try:
        removed, added, draws = _core.draw_candidates(
            prep.edge_keys,
            n,
            pool.astype(np.int64),
            unique[pool],
            prep.target,
            100 * prep.target + 1_000_000,
            int(rng.integers(0, 2**63)),
            directed=g.directed,
        )
    except RuntimeError as err:  # the graph has too few pairs to draw from, not a bug
        raise NotApplicable(
            f"{err}: the {excluded:,} excluded nodes leave too few pairs for {prep.target:,} candidates "
            "(lower c or eps)"
        ) from None
    return removed, added, excluded, draws


def _check_widths(sigma: float, sig: np.ndarray) -> None:
    """Refuse a sigma whose pair widths sigma(e) the draws cannot use (say which way it fails)."""
    narrowest, widest = float(sig.min()), float(sig.max())
    if not narrowest > 0:
        raise ValueError(
            f"sigma={sigma:g} is too small: a pair's width sigma(e) = sigma |E_C| U(e) / sum U "
            "underflows to 0; raise sigma"
        )
    if not widest <= _WIDTH_MAX:
        shown = f"{widest:.3g}"
        if float(shown) <= _WIDTH_MAX:  # rounded onto the limit: show every digit
            shown = repr(widest)
        raise ValueError(
            f"sigma={sigma:g} is too large: the pairs' widths sigma(e) reach {shown}, above "
            f"{_WIDTH_MAX:g}, where draws of R_sigma lose their precision (R_sigma is uniform on "
            "[0, 1] there: for that noise use q=1); lower sigma"
        )


def _attempt(
    prep: _Prepared, sigma: float, unique: np.ndarray, rng: np.random.Generator, threads: int
) -> _Attempt:
    g = prep.graph
    n = g.n
    removed, added, excluded, draws = _draw_candidates(prep, unique, rng)
    u, v, is_edge = _candidate_pairs(prep.edge_keys, removed, added, n)
    if u.size:
        # sigma(e) = sigma |E_C| ue / sum ue with ue the pair's mean uniqueness: the 1/2 cancels
        sig = unique[u]
        sig += unique[v]
        total = sig.sum()
        with np.errstate(over="ignore", under="ignore"):  # an extreme sigma: refused just below
            sig *= sigma * u.size
            sig /= total
        _check_widths(sigma, sig)
        noise = rng.random(u.size) < prep.q
        r = _sample_truncated_normal(sig, rng)
        r[noise] = rng.random(int(noise.sum()))
        del noise
        expected_tv = _expected_tv(sig, prep.q)
        del sig
        p = np.subtract(1.0, r, out=r, where=is_edge)  # edges keep 1 - r, the others r
    else:
        p = np.zeros(0)
        expected_tv = 0.0
    ug = UncertainGraph(n, u, v, p, directed=g.directed)
    eps_hat = float(eps_of(g, ug, prep.k, degree=prep.degree, threads=threads))
    return _Attempt(
        ug,
        eps_hat,
        int(u.size),
        int(removed.size),
        int(added.size),
        excluded,
        draws,
        expected_tv,
    )


def _candidate_pairs(
    edge_keys: np.ndarray, removed: np.ndarray, added: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate pairs ``E_C`` in canonical (u, v) order, and which of them are edges.

    ``edge_keys`` (sorted) less ``removed`` (some of them), merged with ``added`` (non-edges),
    all distinct keys ``u n + v``; without a sort of the whole, which would hold several
    copies of ``E_C``.
    """
    keep = np.ones(edge_keys.size, dtype=bool)
    keep[np.searchsorted(edge_keys, removed)] = False
    kept = edge_keys[keep]
    del keep
    added = np.sort(added)
    at = np.searchsorted(kept, added)
    at += np.arange(added.size)  # where each added key lands among all of them
    is_edge = np.ones(kept.size + added.size, dtype=bool)
    is_edge[at] = False
    keys = np.empty(is_edge.size, dtype=np.int64)
    keys[at] = added
    keys[is_edge] = kept
    del kept, at
    u, v = np.divmod(keys, max(n, 1))
    return u, v, is_edge


def _expected_tv(sig: np.ndarray, q: float) -> float:
    """``sum_e (1 - q)(E[r_e] - E[r_e^2]) + q / 6`` (Proposition 4.3 per pair), in slices."""
    total = 0.0
    for start in range(0, sig.size, _SLICE):
        m1, m2 = truncated_normal_moments(sig[start : start + _SLICE])
        total += float(np.sum((1.0 - q) * (m1 - m2) + q / 6.0))
    return total


# Step of the downward search from sigma = 1 (see obfuscation).
_DOWN_FACTOR = 16.0


def _generate(
    prep: _Prepared, sigma: float, attempts: int, seed64: int, step: int
) -> tuple[_Attempt | None, _Attempt, list[float]]:
    """T attempts at one sigma: (best success or None, best attempt overall, eps-hat list).

    The attempts are independent (each has its own seed), so they run side by side on the
    threads, at most that many held at once; they are weighed in order, so the result does not
    depend on the thread count.
    """
    unique = uniqueness(prep.degrees, sigma) if prep.graph.n else np.zeros(0)
    total = task_threads(prep.threads or None)
    workers = max(1, min(attempts, total))
    each = max(1, total // workers)

    def attempt(i: int) -> _Attempt:
        rng = keyed_rng(seed64, step, i)
        return _attempt(prep, sigma, unique, rng, each)

    best_ok: _Attempt | None = None
    best_any: _Attempt | None = None
    hats: list[float] = []
    for att in iter_ordered(workers, attempt, range(attempts), name="graphveil-obf"):
        hats.append(att.eps_hat)
        if best_any is None or att.eps_hat < best_any.eps_hat:
            best_any = att
        if att.eps_hat <= prep.eps and (best_ok is None or att.eps_hat < best_ok.eps_hat):
            best_ok = att
    assert best_any is not None
    return best_ok, best_any, hats


# ------------------------------------------------------------------ the scheme
@graph_first("graph", "k", "eps")
def obfuscation(
    graph: Graph,
    *,
    k: int,
    eps: float,
    sigma: float | None = None,
    c: float = 2.0,
    q: float = 0.01,
    attempts: int | None = None,
    tol: float = 0.05,
    sigma_max: float = 16.0,
    sigma_min: float = 1e-8,
    degree: str | None = None,
    variant: Literal["boldi", "authors"] = "boldi",
    seed: SeedLike = None,
    threads: int | None = None,
    progress: bool = False,
) -> Anonymized:
    """(k, eps)-obfuscation (Boldi et al.): an uncertain graph that k-obfuscates ``(1 - eps) n`` nodes.

    One attempt at width ``sigma``: the ``ceil(eps n / 2)`` most sigma-unique nodes form the
    excluded set H; pairs ``u != v`` are drawn with probability proportional to uniqueness
    outside H, an edge drawn is removed, a non-edge added, until ``|E_C| = c m``. Each
    candidate pair ``e`` gets ``sigma(e) = sigma |E_C| U(e) / sum U``, ``U(e)`` the mean
    uniqueness of its ends, and ``r_e`` uniform on [0, 1] with probability ``q``, else
    ``N(0, sigma(e)^2)`` truncated to [0, 1]; ``p(e) = 1 - r_e`` for an edge, ``r_e`` otherwise.
    eps-hat is measured by :func:`graphveil.measure.privacy.eps`; of ``attempts`` tries the one
    with the smallest eps-hat <= eps is kept. H and the tries follow Boldi et al.
    (``variant="boldi"``); the authors' code for the paper excluded ``ceil(eps n)`` nodes and
    tried 3 times (``variant="authors"``, docs/faithfulness.rst).

    Directed ``graph``: the adversary knows the ``degree`` of a node, its joint (in-degree,
    out-degree) by default, or its out- or in-degree alone. Uniqueness is the commonness of that
    value (for the joint degree a 2-D Gaussian kernel over the (in, out) values); candidate
    pairs are ordered pairs ``u -> v`` (an arc drawn is removed, a non-arc added); eps-hat is
    :func:`graphveil.measure.privacy.eps` with ``degree=`` that degree. No expected degree is kept
    (as undirected: the perturbation changes them).

    ``sigma=None`` searches for the smallest sigma that succeeds, to a relative tolerance
    wherever it lies: start at 1; if that fails, double until an attempt succeeds (giving up
    above ``sigma_max``); if it succeeds, divide by 16 until one fails (stopping at
    ``sigma_min``, with ``reached_sigma_min`` set in the report). Then bisect in log space between the last failure
    and the smallest success until their ratio is at most ``1 + tol``, keeping the smallest
    sigma that succeeds. (Success is random near the threshold: the search is exact for the
    attempts it draws.) On ca-GrQc with k = 100, eps = 0.05 it finds about 0.03, where the
    former stopping rule (bracket narrower than tol times the first success) stopped at 1/32. A given ``sigma`` (the paper's tables use 0.1, 0.01, 0.001) runs the
    attempts at that width only.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    k : int
        Obfuscation level, >= 1.
    eps : float
        Tolerance in [0, 1].
    sigma : float, optional
        Fixed width (> 0); None searches.
    c : float
        ``|E_C| = round(c m)`` candidate pairs (>= 1; 2 = as many potential pairs as edges).
    q : float
        White-noise probability in [0, 1].
    attempts : int, optional
        Attempts per sigma (t, 1 to 100); default the variant's: 5 (Boldi et al.), 3 (the
        authors').
    tol : float
        Relative tolerance in (0, 1) of the search: it stops when the smallest success is at
        most ``1 + tol`` times the largest failure below it.
    sigma_max, sigma_min : float
        Search limits: no success up to ``sigma_max`` raises; every sigma down to
        ``sigma_min`` succeeding stops the search there (``reached_sigma_min`` in the report).
    seed, threads
        Randomness (each attempt has its own stream derived from the seed, the search step and
        the attempt number) and threads: a sigma's attempts run side by side on them, with the
        same result on any count. ``None`` (the default) draws fresh OS entropy. A seed is for
        reproducible experiments only: anyone who learns it can regenerate the noise and undo
        the anonymization.
    degree : {"joint", "out", "in"}, optional
        Directed graphs only: the degree to obfuscate, ``"joint"`` by default.
    variant : {"boldi", "authors"}, default "boldi"
        ``|H|`` and the default tries: Boldi et al.'s ``ceil(eps n / 2)`` and 5, or the
        authors' ``ceil(eps n)`` and 3 (``entropy_obfuscation.py``: ``n_discard``,
        ``N_TRIES``), what a study run with ``scoring="authors"`` uses. Either way an attempt
        passes by :func:`graphveil.measure.privacy.eps` (every failing node counted) and a
        failed run keeps its closest attempt, where the authors kept their first.
    progress : bool
        Log one line per sigma tried at INFO on the ``graphveil`` logger (at DEBUG without it);
        ``logging.basicConfig(level=logging.INFO)`` shows them. The lines count the steps only:
        the sigmas tried and their eps-hat are private (the report's ``history``).

    Returns
    -------
    Anonymized
        The uncertain graph on the candidate pairs (edges removed by the draw are absent) and a
        report: ``sigma``, ``eps_hat``, ``history`` (every sigma tried with its eps-hat per
        attempt), ``candidate_pairs``, ``removed_edges``, ``added_pairs``, ``excluded``,
        ``tv`` (measured), ``expected_tv`` (exact given the candidates and sigma(e)),
        ``expected_tv_paper`` (Proposition 4.3 at ``sigma``) and, for a search,
        ``reached_sigma_min`` (every sigma tried down to ``sigma_min`` succeeded).

    Raises
    ------
    ObfuscationError
        No attempt met (k, eps) (at the fixed sigma, or at any sigma up to ``sigma_max``).
        The exception carries ``report`` and ``best`` (the closest attempt).
    ValueError
        If ``k < 1``, ``eps`` outside [0, 1], ``sigma <= 0``, ``attempts < 1``, ``c < 1``,
        ``q`` outside [0, 1], or c asks for more pairs than exist; ``degree`` unknown, or given
        for an undirected graph; ``variant`` unknown.

    References
    ----------
    Boldi, Bonchi, Gionis, Tassa, "Injecting Uncertainty in Graphs for Identity Obfuscation",
    VLDB 2012 (Algorithms 1 and 2); the paper, Sections III-B and V-C (Proposition 4.3).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import obfuscation
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = obfuscation(g, k=2, eps=0.3, seed=1)
    >>> ug.n, report["eps_hat"] <= 0.3
    (34, True)
    """
    check_graph(graph, what="obfuscation", directed=True)
    if graph.directed:
        degree = check_directed_degree("joint" if degree is None else degree)
    elif degree is not None:
        raise ValueError(
            f"degree={degree!r} is for directed graphs (their out, in or joint degree); an "
            "undirected graph is obfuscated on its degree: leave degree unset"
        )
    k = check_int(k, "k", 1, " (the obfuscation level)")
    eps = check_real(eps, "eps", 0.0, 1.0)
    if sigma is not None:
        sigma = check_real(sigma, "sigma", 0.0, math.inf, open_low=True)
    c = check_real(c, "c", 1.0, math.inf)
    q = check_real(q, "q", 0.0, 1.0)
    if variant not in OBFUSCATION_VARIANTS:
        raise ValueError(
            f"variant must be one of {', '.join(map(repr, OBFUSCATION_VARIANTS))}, got {variant!r}"
        )
    share, default_attempts = OBFUSCATION_VARIANTS[variant]
    if attempts is None:
        attempts = default_attempts
    attempts = check_int(attempts, "attempts", 1, " (t, attempts per sigma)")
    if attempts > MAX_ATTEMPTS:
        raise ValueError(
            f"attempts must lie in 1..{MAX_ATTEMPTS} (t, attempts per sigma), got {attempts}"
        )
    tol = check_real(tol, "tol", 0.0, 1.0, open_low=True)
    sigma_max = check_real(sigma_max, "sigma_max", 0.0, math.inf, open_low=True)
    sigma_min = check_real(sigma_min, "sigma_min", 0.0, sigma_max, open_low=True)
    seed64 = seed_to_u64(seed)
    prep = _Prepared(graph, k, eps, c, q, check_threads(threads), degree, share)
    params: dict[str, Any] = {
        "k": k,
        "eps": eps,
        "sigma": sigma,
        "c": c,
        "q": q,
        "attempts": attempts,
        "tol": tol,
        "sigma_max": sigma_max,
        "sigma_min": sigma_min,
    }
    if degree is not None:
        params["degree"] = degree
    if variant != "boldi":  # the default's params stay as they were
        params["variant"] = variant
    trials = _Trials(
        prep, attempts, seed64, params, progress, "search" if sigma is None else "fixed"
    )
    if sigma is not None:
        return _at_sigma(trials, sigma)
    return _search(trials, tol, sigma_min, sigma_max)


# ------------------------------------------------------------------ the sigma search
@dataclass
class _Trials:
    """The sigmas one run tries, in order, and what becomes of its best or closest attempt.

    The ``i``-th sigma tried draws its attempts from streams derived from ``(seed64, i, attempt)``
    (:func:`_generate`), so the output depends on the seed and on the sequence of sigmas only.
    """

    prep: _Prepared
    attempts: int
    seed64: int
    params: dict[str, Any]
    progress: bool
    mode: str
    timer: Timer = field(default_factory=Timer)
    history: list[dict[str, Any]] = field(default_factory=list)

    def run(self, sigma: float) -> tuple[_Attempt | None, _Attempt]:
        """The attempts at ``sigma``: (the best that meets (k, eps) or None, the closest one)."""
        with self.timer.phase("attempts"):
            ok, closest, hats = _generate(
                self.prep, sigma, self.attempts, self.seed64, len(self.history)
            )
        self.history.append({"sigma": sigma, "eps_hat": hats, "success": ok is not None})
        # The sigmas tried and their eps-hat are the search history, measured on G0: private
        # (the report's ``history``, kept by the run record), so the log counts steps only.
        log.log(
            logging.INFO if self.progress else logging.DEBUG,
            "obfuscation: sigma search, step %d done",
            len(self.history),
        )
        return ok, closest

    def result(self, att: _Attempt, sigma: float, **extra: Any) -> Anonymized:
        """The scheme's result for attempt ``att`` drawn at ``sigma``."""
        return _wrap(
            att, sigma, self.params, self.seed64, self.history, self.timer, self.mode, **extra
        )

    def fail(self, message: str, closest: _Attempt, sigma: float) -> ObfuscationError:
        """The error of a run where nothing met (k, eps); ``closest`` was drawn at ``sigma``."""
        report = {
            "scheme": "obfuscation",
            "params": self.params,
            "seed": self.seed64,
            "history": self.history,
            "timings": self.timer.timings,
            "eps_hat": closest.eps_hat,
        }
        return ObfuscationError(message, report, self.result(closest, sigma))


class _Bracket(NamedTuple):
    """A search state: ``low`` fails (0 when none has), ``high`` succeeds with attempt ``best``."""

    low: float
    high: float
    best: _Attempt


def _at_sigma(trials: _Trials, sigma: float) -> Anonymized:
    """A given ``sigma``: its best attempt that meets (k, eps), else ObfuscationError."""
    found, closest = trials.run(sigma)
    if found is None:
        prep = trials.prep
        raise trials.fail(
            # eps-hat is measured on G0: private, in the error's report, never in its message
            f"no attempt at sigma={sigma:g} k-obfuscates enough nodes: none of {trials.attempts} "
            f"leaves at most eps={prep.eps:g} of them below k={prep.k}; raise sigma or eps, or lower k",
            closest,
            sigma,
        )
    return trials.result(found, sigma)


def _search(trials: _Trials, tol: float, sigma_min: float, sigma_max: float) -> Anonymized:
    """The smallest sigma that succeeds, to the relative tolerance ``tol`` (see :func:`obfuscation`).

    Bracket the minimum from sigma = 1: double while attempts fail (:func:`_search_up`), or go
    down while they succeed (:func:`_search_down`); then bisect the bracket (:func:`_bisect`).
    A minimum below ``sigma_min`` stops there, reported as ``reached_sigma_min``.
    """
    found, closest = trials.run(1.0)
    if found is None:
        bracket = _search_up(trials, closest, sigma_max)
    else:
        bracket = _search_down(trials, found, sigma_min)
    low, high, best = _bisect(trials, bracket, tol, sigma_min)
    return trials.result(best, high, reached_sigma_min=low == 0.0)


def _search_up(trials: _Trials, closest: _Attempt, sigma_max: float) -> _Bracket:
    """Double sigma from 1 (which failed with ``closest``) until an attempt succeeds."""
    low, high = 0.0, 1.0
    while True:
        low, high = high, 2.0 * high
        if high > sigma_max:
            prep = trials.prep
            raise trials.fail(
                f"no sigma up to sigma_max={sigma_max:g} gives a (k={prep.k}, eps={prep.eps:g})-obfuscation "
                "(the best attempt's eps-hat is in the private report); raise eps or c, or lower k",
                closest,
                low,
            )
        found, closest = trials.run(high)
        if found is not None:
            return _Bracket(low, high, found)


def _search_down(trials: _Trials, best: _Attempt, sigma_min: float) -> _Bracket:
    """Divide sigma from 1 (which succeeded with ``best``) until an attempt fails or ``sigma_min``.

    By 16 at a time (the bisection is logarithmic in the factor): when G0 itself nearly meets
    (k, eps), every sigma succeeds, and sigma_min = 1e-8 is then reached in 7 steps, not 27.
    """
    low, high = 0.0, 1.0
    while low == 0.0 and high > sigma_min:
        trial = max(high / _DOWN_FACTOR, sigma_min)
        found, _ = trials.run(trial)
        if found is None:
            low = trial
        else:
            best, high = found, trial
    return _Bracket(low, high, best)


def _bisect(trials: _Trials, bracket: _Bracket, tol: float, sigma_min: float) -> _Bracket:
    """Bisect in log space until ``high / low <= 1 + tol``.

    A relative tolerance wherever the minimum lies: log2(log 16 / log(1 + tol)), about 6 steps
    for tol = 0.05. A bracket without a failure (``low == 0``) is returned as it is.
    """
    low, high, best = bracket
    while low > 0.0 and high > low * (1.0 + tol) and high > sigma_min:
        mid = math.sqrt(low * high)
        found, _ = trials.run(mid)
        if found is not None:
            best, high = found, mid
        else:
            low = mid
    return _Bracket(low, high, best)


def _wrap(
    att: _Attempt,
    sigma: float,
    params: dict[str, Any],
    seed64: int,
    history: list[dict[str, Any]],
    timer: Timer,
    mode: str,
    **extra: Any,
) -> Anonymized:
    ug = att.graph
    return finish_graph(
        ug,
        scheme="obfuscation",
        params=params,
        seed=seed64,
        timer=timer,
        mode=mode,
        sigma=sigma,
        eps_hat=att.eps_hat,
        history=history,
        candidate_pairs=att.candidate_pairs,
        removed_edges=att.removed_edges,
        added_pairs=att.added_pairs,
        excluded=att.excluded,
        draws=att.draws,
        tv=float(np.sum(ug.p * (1.0 - ug.p))),
        expected_tv=att.expected_tv,
        expected_tv_paper=obfuscation_expected_tv(sigma, att.candidate_pairs, q=params["q"]),
        **extra,
    )
