"""What one sample of a study costs, part by part, on one thread (run as a script).

python benchmarks/sample_cost.py [GRAPH] [SCHEME] [SOURCES]: anonymizes GRAPH (default
web-NotreDame) with SCHEME (maxvar, randwalk or edge_switch; default maxvar), draws one world and
times each part of measuring it as a study task does: the draw, the edge differences, H1 and
H2_open, transitivity, the degree statistics and power law, the SOURCES-source distance BFS
(default 1000) and iFUB (with its BFS count; a study skips it when G0's diameter_choice is
"lower_bound"). Prints seconds per part and the total a study spends.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import graphveil as gv
from graphveil import _core
from graphveil.measure import Original
from graphveil.measure import distances as D
from graphveil.measure import utility as U
from graphveil.measure.privacy import h1, h2_open

SCHEMES: dict[str, Callable[[gv.Graph], Any]] = {
    "maxvar": lambda g: gv.anonymize.maxvar(g, n_potential=round(0.57 * g.m), seed=1)[0],
    "randwalk": lambda g: gv.anonymize.randwalk(g, t=3, seed=3)[0],
    "edge_switch": lambda g: gv.anonymize.edge_switch(g, switches=round(0.3 * g.m), seed=3)[0],
}


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    scheme = sys.argv[2] if len(sys.argv) > 2 else "maxvar"
    sources = int(sys.argv[3]) if len(sys.argv) > 3 else U.DISTANCE_SOURCES
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    reference = Original(g0, threads=1)
    ug = SCHEMES[scheme](g0)
    parts: dict[str, float] = {}

    def timed(part: str, fn: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        out = fn()
        parts[part] = time.perf_counter() - start
        return out

    world = timed(
        "draw",
        lambda: gv.Graph.from_edges(*ug.sample_edges(5, index=0, threads=1), ug.n, threads=1),
    )
    timed("edge differences", lambda: reference.edge_differences(world))
    timed("H1 + H2_open", lambda: (h1(reference.h1_index, world, threads=1),
                                    h2_open(reference.h2_open_index, world, threads=1)))  # fmt: skip
    timed("transitivity", lambda: U.transitivity(world, threads=1))
    timed(
        "degrees + power law",
        lambda: (U.degree_statistics(world), U.powerlaw_exponent(world.degrees)),
    )
    src = D._random_sources(world, sources, np.random.default_rng(3))
    hist = timed("distance BFS", lambda: U.distance_histogram(world, src, threads=1))
    known = hist.size - 1
    ifub = timed("iFUB", lambda: _core.diameter_ifub(world.indptr, world.indices, 100, known))
    study_ifub = U.diameter_choice(g0) == "ifub"  # as a study measures it (G0 decides, once)
    if not study_ifub:
        parts["iFUB (a study skips it)"] = parts.pop("iFUB")
    diameter = max(ifub[0], known) if study_ifub else known
    print(
        f"{name}, {scheme}, {sources} sources, one thread (diameter {diameter:.0f}; iFUB on this "
        f"sample: {ifub[0]}, exact {ifub[1]}, {ifub[2]} BFS; the 1,000-source bound {known}):"
    )
    for part, seconds in parts.items():
        print(f"  {part:24s} {seconds:7.3f} s")
    total = sum(v for k, v in parts.items() if "skips" not in k)
    print(f"  {'total (as a study)':24s} {total:7.3f} s")


if __name__ == "__main__":
    main()
