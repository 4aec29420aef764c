"""graphveil's Leiden against igraph's, per graph: CPU seconds and modularity (run as a script).

python benchmarks/community_race.py [GRAPH ...]: for each graph (default karate_club, ca-GrQc,
facebook_combined, web-NotreDame, synthetic-youtube; names as ``graphveil.datasets.load`` takes
them, the shared ones from ../shared/data), runs :func:`graphveil.measure.analyst.communities`
(the C++ kernel, ``LEIDEN_ITERATIONS`` runs) and igraph's ``community_leiden`` (objective
modularity, 1 and 2 iterations) with seeds 1 and 2, and prints each one's CPU seconds (the best
of the two seeds), its modularity (the mean of the two), the number of communities and the NMI
between graphveil's and igraph's partitions at equal iterations. The load average is printed
too: the machine is shared.
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

import graphveil as gv
from graphveil.measure import analyst as A

GRAPHS = ["karate_club", "ca-GrQc", "facebook_combined", "web-NotreDame", "synthetic-youtube"]
SEEDS = (1, 2)


def igraph_leiden(graph, seed: int, iterations: int) -> np.ndarray:
    """igraph's community_leiden (modularity), seeded through its Python RNG hook."""
    import igraph as ig

    ig.set_random_number_generator(random.Random(seed))
    try:
        part = graph.community_leiden(objective_function="modularity", n_iterations=iterations)
    finally:
        ig.set_random_number_generator(random)
    return np.asarray(part.membership)


def _race(g: gv.Graph, name: str, run) -> tuple[str, float, float, int, np.ndarray]:
    cpu, quality, labels = float("inf"), [], np.zeros(0)
    for seed in SEEDS:
        start = time.process_time()
        labels = run(seed)
        cpu = min(cpu, time.process_time() - start)
        quality.append(A.modularity(g, labels))
    return name, cpu, float(np.mean(quality)), int(labels.max()) + 1, labels


def main() -> None:
    import igraph as ig

    names = sys.argv[1:] or GRAPHS
    print(
        f"load average {os.getloadavg()[0]:.2f}; graphveil runs {A.LEIDEN_ITERATIONS} iteration(s)"
    )
    for name in names:
        g = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
        u, v = g.edges()
        graph = ig.Graph(n=g.n, edges=np.column_stack([u, v]))
        rows = [_race(g, "graphveil", lambda s: A.communities(g, seed=s))]
        for iterations in (1, 2):
            rows.append(
                _race(
                    g,
                    f"igraph, {iterations} it.",
                    lambda s, i=iterations: igraph_leiden(graph, s, i),
                )
            )
        print(f"{name} ({g.n:,} nodes, {g.m:,} edges)")
        for label, cpu, quality, count, labels in rows:
            nmi = A.normalized_mutual_info(rows[0][4], labels)
            print(
                f"  {label:18s} {cpu:8.2f} s CPU  modularity {quality:.4f}  {count:6d} communities  NMI with graphveil's {nmi:.3f}"
            )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
