"""Print a digest of seeded outputs of every kernel that uses a bits.hpp operation.

.ci/run prints it for the normal build (compiler intrinsics) and for a build with
GRAPHVEIL_PORTABLE_FALLBACKS forced, and requires the two to be identical: the fallbacks must
give the same bits (Lemire's bounded draws through the 128-bit multiply, the edge-list id
relabelling through popcount/ctz, HyperBall through clz; prefetch never changes a result).
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

import numpy as np

import graphveil as gv
from graphveil import anonymize
from graphveil.measure import utility


def main() -> int:
    digest = hashlib.sha256()
    lines = []

    def add(name: str, *arrays: object) -> None:
        h = hashlib.sha256()
        for a in arrays:
            h.update(np.ascontiguousarray(np.asarray(a)).tobytes())
        lines.append(f"{name:24s} {h.hexdigest()[:16]}")
        digest.update(h.digest())

    g = gv.generators.powerlaw_cluster(3000, 3, 0.3, seed=7)
    add("powerlaw_cluster", g.indptr, g.indices)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sparse-ids.txt"
        rng = np.random.default_rng(5)
        ids = rng.choice(10**12, size=400, replace=False) * 97 + 3  # sparse ids: bitmap relabelling
        pairs = ids[rng.integers(0, 400, size=(2000, 2))]
        np.savetxt(path, pairs, fmt="%d")
        read = gv.read_edgelist(path)
        add("read_edgelist", read.indptr, read.indices, np.asarray(read.labels))
    add("edge_switch", *_pairs(anonymize.edge_switch(g, switches=5000, seed=3).graph))
    add("randwalk", *_pairs(anonymize.randwalk(g, t=2, seed=3).graph))
    ug = anonymize.maxvar(g, n_potential=4000, parts=4, seed=3).graph
    add("maxvar", *_pairs(ug))
    for k, world in enumerate(ug.sample(3, seed=9)):
        add(f"sample[{k}]", world.indptr, world.indices)
    add("neighbourhood_function", utility.neighbourhood_function(g, seed=4))
    add("distance_histogram", utility.distance_histogram(g))
    print("\n".join(lines))
    print(f"{'ALL':24s} {digest.hexdigest()}")
    return 0


def _pairs(ug: gv.UncertainGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return ug.u, ug.v, ug.p


if __name__ == "__main__":
    sys.exit(main())
