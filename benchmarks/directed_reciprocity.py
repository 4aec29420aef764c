"""Reciprocity of directed releases: each directed scheme, default and reciprocity-keeping forms.

For a directed dataset, prints G0's reciprocity and, per point, the release's expected
reciprocity ``E[reciprocated arcs] / E[arcs]`` (from ``p``: ``sum p_uv p_vu / sum p``) and that
of one sampled world, with the scheme's report figures and the time. Points (seed 1, the
study's MaxVar parts): ``maxvar:X`` / ``maxvar_dyads:X`` (n_p = X m, ``allow_fewer``),
``switch:X`` / ``switch_dyads:X`` (s = X m), ``walk_out:T`` / ``walk_in:T`` (RandWalk, t = T).

Run: PYTHONPATH=python python benchmarks/directed_reciprocity.py soc-Epinions1
     [--data-dir ../shared/data] [POINT ...]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import graphveil as gv
from graphveil import datasets
from graphveil.anonymize import edge_switch, maxvar, randwalk
from graphveil.measure.directed import reciprocity

POINTS = (
    "maxvar:0.19 maxvar_dyads:0.19 maxvar:0.95 maxvar_dyads:0.95 switch:0.5 switch_dyads:0.5 "
    "walk_out:2 walk_in:2 walk_out:10 walk_in:10"
).split()


def expected_reciprocity(ug: gv.UncertainGraph) -> float:
    """``sum p_uv p_vu / sum p`` over the release's ordered pairs."""
    keys = ug.u.astype(np.int64) * ug.n + ug.v
    reverse = ug.v.astype(np.int64) * ug.n + ug.u
    order = np.argsort(keys)
    pos = np.minimum(np.searchsorted(keys[order], reverse), keys.size - 1)
    back = np.where(keys[order][pos] == reverse, ug.p[order][pos], 0.0)
    return float((ug.p * back).sum() / ug.p.sum())


def run(g: gv.Graph, point: str) -> tuple[gv.UncertainGraph, str]:
    kind, value = point.split(":")
    if kind.startswith("maxvar"):
        ug, rep = maxvar(
            g,
            n_potential=round(float(value) * g.m),
            seed=1,
            threads=2,
            dyads=kind == "maxvar_dyads",
            allow_fewer=True,
        )
        return ug, f"n_p {sum(rep['potential_proposed']):,} tv {rep['tv']:,.0f}"
    if kind.startswith("switch"):
        ug, rep = edge_switch(
            g, switches=round(float(value) * g.m), seed=1, dyads=kind == "switch_dyads"
        )
        return ug, f"performed {rep['performed']:,}"
    direction = "in" if kind == "walk_in" else "out"
    ug, rep = randwalk(g, t=int(value), seed=1, threads=2, direction=direction)
    return ug, f"failed {rep['failed']:,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("points", nargs="*", default=POINTS)
    parser.add_argument("--data-dir", default="../shared/data")
    args = parser.parse_args()
    g = datasets.load(args.dataset, data_dir=args.data_dir, directed=True)
    print(f"{args.dataset}: {g}, reciprocity {reciprocity(g):.4f}", flush=True)
    for point in args.points:
        start = time.perf_counter()
        ug, figures = run(g, point)
        seconds = time.perf_counter() - start
        world = reciprocity(ug.sample(seed=2))
        print(
            f"{point:18s} expected {expected_reciprocity(ug):.4f}, one world {world:.4f}, "
            f"{figures}, {seconds:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
