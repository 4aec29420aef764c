"""The analyst statistics beside the paper's ten, per statistic, on one sample (run as a script).

python benchmarks/analyst_cost.py [GRAPH] [THREADS] [ROUNDS]: loads GRAPH (default web-NotreDame;
``synthetic-youtube`` for the youtube-size graph), builds G0's analyst reference once, draws a
sample (G0 with 5% of its edges dropped, as ``bench_utility.py``'s stand-in for a world: same
nodes, most edges) and times each compute function of :data:`STATISTIC_TABLE` on it, the ten
statistics' (degrees, S_CC, S_PL, the distances) beside the analyst rows', best of ROUNDS
(default 2) on THREADS threads (default 2). Prints the wall and CPU seconds (all of this
process's threads) per function, the two totals and their ratios, then one call of
``utility_statistics`` with and without the analyst set (the one-thread rows computed beside
the others, as in a study), the load average before and after (the machine is shared), and
every value, so a change can be checked to leave them equal.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from typing import Any

import numpy as np

import graphveil as gv
from graphveil.measure import utility as U
from graphveil.measure.analyst import analyst_reference


def _sample(graph: gv.Graph, keep: float = 0.95, seed: int = 1) -> gv.Graph:
    u, v = graph.edges()
    mask = np.random.default_rng(seed).random(u.size) < keep
    return gv.Graph.from_edges(u[mask], v[mask], graph.n)


def _best(fn: Any, rounds: int) -> tuple[tuple[float, float], Any]:
    """(wall, CPU) seconds of the fastest of ``rounds`` calls (CPU: this process's threads)."""
    best, out = (float("inf"), float("inf")), None
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        out = fn()
        best = min(best, (time.perf_counter() - start, time.process_time() - cpu))
    return best, out


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    load_before = os.getloadavg()
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    ref_time, ref = _best(lambda: analyst_reference(g0, seed=1, threads=threads), 1)
    sample = _sample(g0)
    options = U.StatisticOptions(U.EXACT_THRESHOLD, U.DISTANCE_SOURCES, 1, threads, "auto")
    options = dataclasses.replace(options, analyst=ref)
    times: dict[bool, dict[str, tuple[float, float]]] = {False: {}, True: {}}
    values: dict[str, float] = {}
    for stat in U.STATISTIC_TABLE:
        if not stat.measures(False) or stat.name in values:
            continue
        seconds, part = _best(lambda stat=stat: stat.compute(sample, options), rounds)
        values.update(part)
        times[stat.analyst]["+".join(part)] = seconds
    print(
        f"{name} ({g0.n:,} nodes, {g0.m:,} edges), one sample ({sample.m:,} edges), "
        f"{threads} threads, best of {rounds}; G0's analyst reference {ref_time[0]:.2f} s "
        f"({ref_time[1]:.2f} s CPU) once"
    )
    total: dict[bool, tuple[float, float]] = {}
    for analyst, title in ((False, "the paper's ten"), (True, "the analyst set")):
        print(f"  {title:38s} {'wall':>8s} {'CPU':>8s}")
        for part, (wall, cpu) in times[analyst].items():
            print(f"    {part:36s} {wall:8.3f} {cpu:8.3f}")
        total[analyst] = (
            sum(w for w, _ in times[analyst].values()),
            sum(c for _, c in times[analyst].values()),
        )
        print(f"    {'total':36s} {total[analyst][0]:8.3f} {total[analyst][1]:8.3f}")
    print(
        f"  analyst / ten: {total[True][0] / total[False][0]:.1f}x wall, "
        f"{total[True][1] / total[False][1]:.1f}x CPU"
    )
    # one call of utility_statistics, as a study makes it: the one-thread rows (Leiden) beside
    whole = {
        analyst: _best(
            lambda analyst=analyst: U.utility_statistics(
                sample, seed=1, threads=threads, analyst=ref if analyst else None
            ),
            rounds,
        )[0]
        for analyst in (False, True)
    }
    print(
        f"  utility_statistics, the ten: {whole[False][0]:.3f} s wall, {whole[False][1]:.3f} s CPU; "
        f"with the analyst set: {whole[True][0]:.3f} s wall, {whole[True][1]:.3f} s CPU"
    )
    print(
        f"  its analyst set alone / the ten: {(whole[True][0] - whole[False][0]) / whole[False][0]:.1f}x "
        f"wall, {(whole[True][1] - whole[False][1]) / whole[False][1]:.1f}x CPU"
    )
    print(f"  load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    print("  values: " + ", ".join(f"{k}={v!r}" for k, v in values.items()))


if __name__ == "__main__":
    main()
