"""Which distance estimator to use above the exact threshold: HyperBall or 1,000 BFS sources.

Measures, on every real graph in ../shared/data with more than 10,000 nodes (or the graphs
named on the command line), the error of S_APD, S_EDiam and S_CL against the exact all-pairs
values, for HyperBall (log2m = 7) and for the 1,000-source BFS estimate, over several seeds;
and the error each leaves in the quantity the study reports, the relative difference between
G0 and a perturbed graph (one MaxVar sample, n_p = 0.57 m), both measured with the same seed
as evaluate does. Prints a Markdown table and the wall time of each estimator.

    python benchmarks/distance_accuracy.py                   # all graphs > 10k nodes
    python benchmarks/distance_accuracy.py email-Enron --seeds 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from graph_zoo import load_shared, shared_graph_path  # noqa: E402

import graphveil as gv  # noqa: E402
from graphveil.measure import utility as U  # noqa: E402

BIG = (
    "BlogCatalog3",
    "ca-AstroPh",
    "email-Enron",
    "musae-github",
    "soc-Epinions1",
    "soc-Slashdot0902",
)
STATS = ("S_APD", "S_EDiam", "S_CL")
METHODS = ("hyperball", "sampled")


def _perturbed(g0: gv.Graph) -> gv.Graph:
    out = gv.anonymize.maxvar(
        g0,
        n_potential=int(0.57 * g0.m),
        parts=max(1, round(g0.n / 16000)),
        allow_fewer=True,
        seed=7,
    )
    return out.graph.sample(seed=8)


def _timed(graph: gv.Graph, method: str, seed: int) -> tuple[dict[str, float], float]:
    start = time.perf_counter()
    stats = U.distance_statistics(graph, method=method, seed=seed)
    return dict(stats), time.perf_counter() - start


def measure(name: str, seeds: int) -> list[str]:
    """Rows of the Markdown table for one graph."""
    g0 = load_shared(name)
    g1 = _perturbed(g0)
    start = time.perf_counter()
    exact0 = U.distance_statistics(g0, method="exact")
    exact1 = U.distance_statistics(g1, method="exact")
    exact_time = (time.perf_counter() - start) / 2
    rows = []
    for method in METHODS:
        err: dict[str, list[float]] = {s: [] for s in STATS}
        diff_err: dict[str, list[float]] = {s: [] for s in STATS}
        times = []
        for seed in range(seeds):
            est0, t0 = _timed(g0, method, seed)
            est1, t1 = _timed(g1, method, seed)
            times += [t0, t1]
            for s in STATS:
                err[s].append(abs(est0[s] - exact0[s]) / exact0[s])
                true_rel = abs(exact1[s] - exact0[s]) / exact0[s]
                est_rel = abs(est1[s] - est0[s]) / est0[s]
                diff_err[s].append(abs(est_rel - true_rel))
        cells = [f"{100 * np.mean(err[s]):.2f} / {100 * np.max(err[s]):.2f}" for s in STATS]
        diffs = [f"{100 * np.max(diff_err[s]):.2f}" for s in STATS]
        rows.append(
            f"| {name} | {g0.n:,} | {method} | "
            + " | ".join(cells)
            + " | "
            + " | ".join(diffs)
            + f" | {np.mean(times):.2f} | {exact_time:.1f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="*", default=list(BIG))
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print(
        "| graph | n | method | APD err % mean / max | EDiam err % | CL err % "
        "| APD rel.diff err % max | EDiam | CL | s per graph | exact s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.graphs:
        shared_graph_path(name)
        for row in measure(name, args.seeds):
            print(row, flush=True)


if __name__ == "__main__":
    main()
