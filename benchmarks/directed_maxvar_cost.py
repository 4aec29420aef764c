"""Directed against undirected MaxVar on web-NotreDame: time, Newton iterations, total variance.

web-NotreDame read directed (325,729 nodes, 1,469,679 arcs) and its underlying undirected graph
(1,090,108 edges), n_p = 200,000, 20 parts, seed 1, interleaved runs (directed, undirected,
directed, ...), so that a change of the machine's load hits both alike. Prints per run the wall
time, the solve phase, the parts whose Newton hit its cap or did not converge, the parts whose
repair ran the projection, and the total variance.

Run: PYTHONPATH=python python benchmarks/directed_maxvar_cost.py [--runs 3] [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import time

from graphveil import datasets
from graphveil.anonymize import maxvar


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data-dir", default="../shared/data")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    directed = datasets.load("web-NotreDame", data_dir=args.data_dir, directed=True)
    undirected = directed.to_undirected()
    print(directed, undirected, flush=True)
    for run in range(args.runs):
        for name, g in (("directed", directed), ("undirected", undirected)):
            start = time.perf_counter()
            _, report = maxvar(g, n_potential=200_000, parts=20, seed=1, threads=args.threads)
            seconds = time.perf_counter() - start
            stats = report["solver_stats"]
            capped = sum(s["iterations"] >= 200 for s in stats)
            failed = sum(not s["converged"] for s in stats)
            projected = sum(s["projection_iterations"] > 0 for s in stats)
            print(
                f"run {run} {name:10s} {seconds:6.1f} s (solve {report['timings']['solve']:5.1f} s), "
                f"Newton at its cap {capped}, not converged {failed}, projection {projected}, "
                f"Newton iterations <= {max(s['iterations'] for s in stats)}, "
                f"tv {report['tv']:,.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
