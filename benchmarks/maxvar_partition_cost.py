"""MaxVar's study anonymizations on a graph: one METIS partition per grid point against one per study.

Runs the study's MaxVar points (the registry's grid, the study's seeds) on a dataset twice over:
``per-point`` as the study did before it shared the partition (each point partitions G0 with its
own seed), ``shared`` as it does now (:attr:`~graphveil.anonymize.registry.Scheme.prepare` once,
then every point on those parts). Prints each point's time and the total wall and CPU time.

Run: PYTHONPATH=python python benchmarks/maxvar_partition_cost.py per-point|shared
     [--dataset synthetic-youtube] [--data-dir ../shared/data]

Measured on synthetic-youtube (1,134,890 nodes, 2,987,624 edges, 71 parts), 2 cores shared with
other jobs (load 3-7), two alternating runs each: per-point 37.3-39.7 s CPU (57.6-110.1 s wall,
METIS 5-19 s a point), shared 16.4-18.4 s CPU (21.9-44.8 s wall, METIS once 5.4-17.3 s).
"""

from __future__ import annotations

import argparse
import time

from graphveil import datasets
from graphveil.anonymize import registry
from graphveil.experiments import GridPoint, StudyConfig, point_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("per-point", "shared"))
    parser.add_argument("--dataset", default="synthetic-youtube")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    g = datasets.load(args.dataset, data_dir=args.data_dir)
    config = StudyConfig(samples=1, threads=args.threads)
    record = registry.scheme("maxvar")
    assert record.prepare is not None
    wall, cpu = time.perf_counter(), time.process_time()
    prepared = None
    if args.mode == "shared":
        t0 = time.perf_counter()
        prepared = record.prepare(g, config, point_seed(config.seed, "maxvar.prepare"))
        print(f"partition once: {time.perf_counter() - t0:.1f} s", flush=True)
    for value in record.default_grid:
        point = GridPoint("maxvar", value)
        seed = point_seed(config.seed, point.key)
        t0 = time.perf_counter()
        if prepared is None:
            _, report = record.study(g, value, config, seed)
        else:
            _, report = record.study(g, value, config, seed, prepared=prepared)
        print(
            f"{point.key}: {time.perf_counter() - t0:.1f} s (partition "
            f"{report['timings']['partition']:.2f} s, {report['params']['parts']} parts)",
            flush=True,
        )
    print(
        f"{args.mode}: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s "
        f"CPU on {args.dataset} (n={g.n:,}, m={g.m:,})"
    )


if __name__ == "__main__":
    main()
