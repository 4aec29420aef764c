"""Directed against undirected MaxVar on web-NotreDame: time, Newton iterations, total variance.

web-NotreDame read directed (325,729 nodes, 1,469,679 arcs) and its underlying undirected graph
(1,090,108 edges), n_p = 200,000 (``--n-potential``; a part short of friend-of-friend pairs takes
what it finds), 20 parts, seed 1, interleaved runs (directed, undirected, directed, ...), so that
a change of the machine's load hits both alike. Prints per run the wall
time of the whole anonymization and of its solve phase, the machine's load average when the run
started, the parts whose Newton hit its cap or did not converge, the parts whose repair ran the
projection, the most Newton iterations of a part and the total variance; after each pair, the
directed run's time over the undirected one's (whole and solve phase); at the end, the range of
those ratios.

Run: PYTHONPATH=python python benchmarks/directed_maxvar_cost.py [--runs 3] [--data-dir ../shared/data]
[--n-potential 200000]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from graphveil import datasets
from graphveil.anonymize import maxvar


def _run(g: Any, n_potential: int, threads: int) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    _, report = maxvar(
        g, n_potential=n_potential, parts=20, seed=1, threads=threads, allow_fewer=True
    )
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data-dir", default="../shared/data")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-potential", type=int, default=200_000)
    args = parser.parse_args()
    directed = datasets.load("web-NotreDame", data_dir=args.data_dir, directed=True)
    undirected = directed.to_undirected()
    print(directed, undirected, flush=True)
    ratios = []
    for run in range(args.runs):
        times = {}
        for name, g in (("directed", directed), ("undirected", undirected)):
            load = os.getloadavg()[0]
            seconds, report = _run(g, args.n_potential, args.threads)
            solve = report["timings"]["solve"]
            times[name] = (seconds, solve)
            stats = report["solver_stats"]
            print(
                f"run {run} {name:10s} {seconds:5.2f} s (solve {solve:5.2f} s), load {load:4.1f}, "
                f"Newton at its cap {sum(s['iterations'] >= 200 for s in stats)}, "
                f"not converged {sum(not s['converged'] for s in stats)}, "
                f"projection {sum(s['projection_iterations'] > 0 for s in stats)}, "
                f"Newton iterations <= {max(s['iterations'] for s in stats)}, "
                f"tv {report['tv']:,.0f}",
                flush=True,
            )
        whole = times["directed"][0] / times["undirected"][0]
        solve = times["directed"][1] / times["undirected"][1]
        ratios.append((whole, solve))
        print(f"run {run} directed / undirected: {whole:.2f} (solve phase {solve:.2f})", flush=True)
    wholes, solves = [r[0] for r in ratios], [r[1] for r in ratios]
    print(
        f"directed / undirected over {args.runs} runs: {min(wholes):.2f}-{max(wholes):.2f} "
        f"(solve phase {min(solves):.2f}-{max(solves):.2f})"
    )


if __name__ == "__main__":
    main()
