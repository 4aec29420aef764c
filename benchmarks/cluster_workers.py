"""Samples on Dask worker processes against thread workers and a local pool (run as a script).

python benchmarks/cluster_workers.py [GRAPH] [TASKS]: measures TASKS (default 10) samples of
one MaxVar release of GRAPH (default web-NotreDame) as a study does, two at a time: on a local
pool of two threads, on a 2-worker LocalCluster of thread workers (what ``--scheduler local:2``
starts) and on one of process workers. Prints each engine's wall time and the seconds of a
sample inside its task: the reason ``local:N`` starts thread workers.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import distributed

import graphveil as gv
from graphveil.cluster import DaskExecutor, executor_for, share
from graphveil.experiments import StudyConfig
from graphveil.experiments.rows import measure_original
from graphveil.measure.report import measure_sample
from graphveil.measure.utility import diameter_choice


def timed_sample(reference: Any, ug: Any, index: int) -> float:
    t0 = time.perf_counter()
    measure_sample(reference, ug, index, 11, 12, 1)
    return time.perf_counter() - t0


def run(name: str, pool: Executor, reference: Any, ug: Any, tasks: int) -> None:
    ref, rel = share(pool, reference), share(pool, ug)
    t0 = time.perf_counter()
    inside = [f.result() for f in [pool.submit(timed_sample, ref, rel, j) for j in range(tasks)]]
    print(
        f"  {name:22s} wall {time.perf_counter() - t0:5.2f} s; a sample {min(inside):.2f}-"
        f"{max(inside):.2f} s, mean {sum(inside) / tasks:.2f} s"
    )


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    tasks = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    config = StudyConfig(samples=tasks, k=(50,), attacks=False, distance_sources=1000)
    reference = measure_original(g0, config.for_graph(g0), diameter_choice(g0))
    ug, _ = gv.anonymize.maxvar(g0, n_potential=round(0.19 * g0.m), seed=1, allow_fewer=True)
    print(f"{name}: {tasks} samples, two at a time")
    with ThreadPoolExecutor(2) as pool:
        run("local, 2 threads", pool, reference, ug, tasks)
    with executor_for("local:2") as pool:
        run("LocalCluster, threads", pool, reference, ug, tasks)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        run("LocalCluster, processes", DaskExecutor(client), reference, ug, tasks)


if __name__ == "__main__":
    main()
