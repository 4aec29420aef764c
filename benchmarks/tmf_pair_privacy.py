"""TmF's per-pair privacy loss: PGB's implementation against graphveil's, measured.

Edge DP bounds, for every pair e, ln Pr[e published | e in G] / Pr[e published | e not in G]
(and the same for "not published") by epsilon. Both mechanisms decide each pair the same way
whatever its ids, so over R releases the published share of the true edges estimates the first
probability and the published share of the non-edges the second (G and G minus e differ in m by
one, which moves neither). This prints that measured log-ratio, and its closed form at m~ = m.

PGB (Liu et al. 2024, github.com/dooohow/PGB, ``utils.top_m_filter``) is ported here from its
logic, in plain numpy, linear in m (its own code loops over the dense n x n matrix):

- half the budget to the edge count: m~ = max(0, m + Lap(2 / eps));
- with eps_1 = eps / 2 and eps_t = ln(N / m~ - 1): theta = eps_t / (2 eps_1) when eps_1 < eps_t,
  else ln(N / (2 m~) + (e^eps_1 - 1) / 2) / eps_1. The paper (Nguyen et al. 2015) takes the first
  form when eps_1 >= eps_t, and adds 1/2 to it: PGB's branches are swapped and the 1/2 dropped;
- each true edge is published when max(0, 1 + Lap(1 / eps_1)) > theta;
- then pairs drawn uniformly at random among those not yet published are added until m~ are:
  a true edge that failed the filter can come back, a non-edge gets in only this way.

At the study's epsilon the threshold is far above 1, so few true edges pass and the fill is
nearly all of the release: the non-edges' rate stays about m / N while the true edges' is the
filter's, and their ratio exceeds e^eps. graphveil's TmF (``graphveil.anonymize.tmf``) has the
ratio e^(0.99 eps) exactly (theta >= 1: Pr[Lap > theta - 1] / Pr[Lap > theta]).

    python benchmarks/tmf_pair_privacy.py                 # ca-GrQc, epsilon 1 and 5, 200 runs
    python benchmarks/tmf_pair_privacy.py --epsilon 0.5 1 2 5 --runs 500

On ca-GrQc (200 runs, seed 0) it printed: epsilon 1: PGB 3.30 (closed form 3.30), graphveil 0.98
(closed form 0.99); epsilon 5: PGB 5.46 (5.46), graphveil 4.95 (4.95). PGB's TmF is not
epsilon-DP: its loss exceeds epsilon by 2.3 at epsilon = 1.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import graphveil as gv
from graphveil.anonymize import tmf
from graphveil.anonymize._tmf import tmf_threshold


def laplace_tail(x: float, scale: float) -> float:
    """Pr[Lap(scale) > x]."""
    return 0.5 * math.exp(-x / scale) if x >= 0 else 1.0 - 0.5 * math.exp(x / scale)


def pgb_threshold(pairs: int, m_noisy: float, eps_cells: float) -> float:
    """PGB's theta: the paper's two cases with the branches swapped and without the + 1/2."""
    eps_t = math.log(pairs / m_noisy - 1)
    if eps_cells < eps_t:
        return eps_t / (2 * eps_cells)
    return math.log(pairs / (2 * m_noisy) + (math.exp(eps_cells) - 1) / 2) / eps_cells


def pgb_release(graph: gv.Graph, epsilon: float, rng: np.random.Generator) -> tuple[int, int]:
    """One release of PGB's TmF: (published true edges, published non-edges)."""
    n, m = graph.n, graph.m
    pairs = n * (n - 1) // 2
    eps_cells = eps_count = epsilon / 2
    m_noisy = max(0.0, m + rng.laplace(0, 1 / eps_count))
    theta = pgb_threshold(pairs, m_noisy, eps_cells)
    passed = np.maximum(0.0, 1 + rng.laplace(0, 1 / eps_cells, m)) > theta
    kept = int(passed.sum())
    fill = max(0, math.ceil(m_noisy - kept))
    # uniform distinct pairs among those not yet published: rejection, first draws kept
    u, v = graph.edges()
    edge_keys = u.astype(np.int64) * n + v
    published = edge_keys[passed]
    chosen = np.zeros(0, dtype=np.int64)
    while chosen.size < fill:
        a = rng.integers(0, n, 2 * fill + 16)
        b = rng.integers(0, n, a.size)
        keys = np.minimum(a, b) * n + np.maximum(a, b)
        keys = keys[(a != b) & ~np.isin(keys, published)]
        keys = np.concatenate([chosen, keys])
        _, first = np.unique(keys, return_index=True)
        chosen = keys[np.sort(first)][:fill]
    back = int(np.isin(chosen, edge_keys).sum())  # true edges that came back in the fill
    return kept + back, fill - back


def graphveil_release(graph: gv.Graph, epsilon: float, seed: int) -> tuple[int, int]:
    ug, _ = tmf(graph, epsilon=epsilon, seed=seed)
    u, v = graph.edges()
    edge_keys = u.astype(np.int64) * graph.n + v
    keys = ug.u.astype(np.int64) * graph.n + ug.v
    true = int(np.isin(keys, edge_keys).sum())
    return true, int(keys.size - true)


def log_ratio(p_edge: float, p_non: float) -> float:
    """The larger of the two per-pair losses: published, and not published."""
    return max(math.log(p_edge / p_non), math.log((1 - p_non) / (1 - p_edge)))


def closed_forms(graph: gv.Graph, epsilon: float) -> tuple[float, float]:
    """Both log-ratios at m~ = m: (PGB's, graphveil's)."""
    pairs, m = graph.n * (graph.n - 1) // 2, graph.m
    eps_cells = epsilon / 2
    p1 = laplace_tail(pgb_threshold(pairs, m, eps_cells) - 1, 1 / eps_cells)
    q = m * (1 - p1) / (pairs - m * p1)  # the fill's share of the unpublished pairs
    pgb = log_ratio(p1 + (1 - p1) * q, q)
    eps_cells = 0.99 * epsilon
    theta = tmf_threshold(pairs, m, eps_cells)
    ours = log_ratio(laplace_tail(theta - 1, 1 / eps_cells), laplace_tail(theta, 1 / eps_cells))
    return pgb, ours


def measure(graph: gv.Graph, epsilon: float, runs: int, seed: int) -> tuple[float, float]:
    pairs, m = graph.n * (graph.n - 1) // 2, graph.m
    rng = np.random.default_rng(seed)
    out = []
    for release in (
        lambda r: pgb_release(graph, epsilon, rng),
        lambda r: graphveil_release(graph, epsilon, seed * runs + r),
    ):
        counts = np.array([release(r) for r in range(runs)]).sum(axis=0)
        out.append(log_ratio(counts[0] / (m * runs), counts[1] / ((pairs - m) * runs)))
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="ca-GrQc")
    parser.add_argument("--epsilon", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    graph = gv.datasets.load(args.dataset)
    print(f"{args.dataset}: n = {graph.n:,}, m = {graph.m:,}, {args.runs} runs per epsilon")
    print(
        "| epsilon | PGB measured | PGB closed form | graphveil measured | graphveil closed form |"
    )
    print("|---|---|---|---|---|")
    for epsilon in args.epsilon:
        pgb, ours = measure(graph, epsilon, args.runs, args.seed)
        pgb_cf, ours_cf = closed_forms(graph, epsilon)
        print(f"| {epsilon:g} | {pgb:.2f} | {pgb_cf:.2f} | {ours:.2f} | {ours_cf:.2f} |")


if __name__ == "__main__":
    main()
