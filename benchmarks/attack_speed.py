"""Each de-anonymization attack on each world of a release, one thread (run as a script).

python benchmarks/attack_speed.py [GRAPH] [--study]: G0 is GRAPH (default web-NotreDame), the
releases its control (G0 itself) and MaxVar at n_p/m = 0.19 (seed 1; web-NotreDame in 20 parts as
in bench_attack.py, other graphs in MaxVar's default parts). For each release,
the worlds the attacks read (sampled, most-likely, top-m on hidden ids, as
:func:`~graphveil.attack.percolation_attack` builds them; equal worlds timed once) and two seed
sets (1% of the nodes drawn uniformly, 50 hubs), it times each kernel on one thread: propagation,
percolation, reconciliation, and the seedless attack (seed identification, then propagation).
Each run is a forked child: CPU seconds and peak RSS are the child's (``os.wait4``; the peak
counts the graphs the child inherited), printed with the fraction of G0's core re-identified.
``--study`` also times each registered attack's study score (:attr:`Attack.score
<graphveil.attack.registry.Attack.score>`: the three worlds, the study's 50 hub seeds,
propagation on 3 sampled worlds) on each release.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import graphveil as gv
from graphveil.anonymize import maxvar
from graphveil.attack import (
    high_degree_seeds,
    percolation,
    propagation,
    reconciliation,
    reidentification_rate,
    seed_identification,
    structural_twins,
)
from graphveil.attack.deanonymization import _setup, _uniform_seeds
from graphveil.attack.registry import REGISTRY, ScoreRequest
from graphveil.attack.worlds import WORLDS


def _forked(run: Callable[[], Any]) -> tuple[Any, float, float]:
    """run() in a forked child: its result, CPU seconds and peak RSS (MB)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        with os.fdopen(write, "wb") as out:
            pickle.dump(run(), out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as inp:
        result = pickle.load(inp)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        raise RuntimeError(f"the timed child failed (status {status})")
    return result, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _seedless(g0: gv.Graph, world: gv.Graph) -> np.ndarray:
    pairs = seed_identification(g0, world)
    if pairs.size == 0:
        return np.full(world.n, -1, dtype=np.int64)
    return propagation(g0, world, pairs, threads=1)


KERNELS: dict[str, Callable[[gv.Graph, gv.Graph, np.ndarray], np.ndarray]] = {
    "propagation": lambda g0, w, s: propagation(g0, w, s, threads=1),
    "percolation": lambda g0, w, s: percolation(g0, w, s, refuse_stalled=True),
    "reconciliation": lambda g0, w, s: reconciliation(g0, w, s, threads=1),
    "seedless": lambda g0, w, s: _seedless(g0, w),
}


def _kernels(name: str, g0: gv.Graph, release: Any, twins: np.ndarray) -> None:
    rng = np.random.default_rng(1)
    s = _setup(g0, release, rng, min_degree=5, worlds=WORLDS, g0_twins=twins, threads=1)
    seed_sets = {
        "1% uniform": _uniform_seeds(s.g0, s.truth, round(0.01 * g0.n), rng),
        "50 hubs": high_degree_seeds(s.g0, s.truth, 50, seed=rng),
    }
    alike: dict[int, list[str]] = {}  # equal worlds are one object (_setup): timed once
    for world in WORLDS:
        alike.setdefault(id(s.worlds[world]), []).append(world)
    worlds = {
        "all three" if len(names) == 3 else "=".join(names): s.worlds[names[0]]
        for names in alike.values()
    }
    core = np.flatnonzero(s.core)
    for attack, kernel in KERNELS.items():
        for label, seeds in seed_sets.items() if attack != "seedless" else [("none", None)]:
            for world, graph in worlds.items():

                def run(kernel=kernel, graph=graph, seeds=seeds) -> float:
                    mapping = kernel(s.g0, graph, seeds)
                    return reidentification_rate(mapping, s.truth, core).correct

                correct, cpu, peak = _forked(run)
                print(
                    f"  {name:8s} {attack:15s} {label:11s} {world:12s} {cpu:7.2f} s  "
                    f"{peak:6.0f} MB  core re-identified {correct:.4f}",
                    flush=True,
                )


def _study(name: str, g0: gv.Graph, release: Any, twins: np.ndarray) -> None:
    request = ScoreRequest(3, 1, 50, "ns", 1, twins)
    for attack in REGISTRY.values():
        if not attack.reidentifies:
            continue
        scores, cpu, peak = _forked(lambda a=attack: a.score(g0, release, request))
        print(
            f"  {name:8s} {attack.name:15s} study score {cpu:7.2f} s  {peak:6.0f} MB  "
            f"{attack.headline} {scores[attack.headline]:.4f}",
            flush=True,
        )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    graph = args[0] if args else "web-NotreDame"
    g0 = gv.datasets.load(graph, data_dir=["../shared/data", "/work/shared/data"]).to_undirected()
    start = time.perf_counter()
    twins = structural_twins(g0)
    parts = 20 if graph == "web-NotreDame" else None  # bench_attack.py's release; else the default
    release, _ = maxvar(g0, n_potential=round(0.19 * g0.m), parts=parts, seed=1, threads=1)
    print(
        f"{graph}: {g0.n:,} nodes, {g0.m:,} edges; MaxVar 0.19 and G0's twins in "
        f"{time.perf_counter() - start:.1f} s. CPU seconds and peak RSS of one run, one thread:"
    )
    for name, published in (("control", g0), ("maxvar", release)):
        _kernels(name, g0, published, twins)
    if "--study" in sys.argv:
        print("each re-identifying attack's study score (three worlds, 50 hub seeds):")
        for name, published in (("control", g0), ("maxvar", release)):
            _study(name, g0, published, twins)


if __name__ == "__main__":
    main()
