"""Anonymize an edge list and publish it safely: the release goes out, the record stays home.

    python examples/publish_edge_list.py [FOLDER]

Writes, in FOLDER (default: a fresh temporary folder), `edges.txt.gz` (your graph: here the
embedded ca-GrQc written as an edge list), `release.npz` (publish it) and `private.json` (never
publish it), then shows what the release holds. No seed anywhere: the noise and the id permutation
come from fresh OS entropy, so nobody can redo them.
"""

from __future__ import annotations

import stat
import sys
import tempfile
from pathlib import Path

import numpy as np

import graphveil as gv
from graphveil import anonymize


def main(folder: Path) -> None:
    """Write an edge list, its release and the record to ``folder``; show the release."""
    edges = folder / "edges.txt.gz"
    gv.write_edgelist(gv.datasets.load("ca-GrQc"), edges, keep_ids=True)  # stands for your file

    g0 = gv.read_edgelist(edges)
    ug, report = anonymize.maxvar(g0, n_potential=g0.m // 2)  # n_p = m / 2, no seed
    ug.save(folder / "release.npz", record=folder / "private.json")

    with np.load(folder / "release.npz") as release:  # what the world sees, field by field
        print("release.npz holds:", ", ".join(release.files))
    mode = stat.S_IMODE((folder / "private.json").stat().st_mode)
    print(f"private.json has mode {mode:o}: the seed and the id permutation, never publish it")
    pub = gv.load_uncertain(folder / "release.npz")
    print(f"published: n = {pub.n:,}, {len(pub.p):,} pairs, ids permuted: {pub.ids_permuted}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(Path(tmp))
