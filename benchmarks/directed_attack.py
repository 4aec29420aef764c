"""Directed against undirected attacks on directed releases: re-identification and time.

For a directed dataset and each release point, runs each seeded de-anonymization attack twice with
one seed (the same id permutation, seeds and worlds): reading the arcs' directions (the directed
form, the default on a directed release) and dropping them (``directed=False``, the attack on the
underlying undirected graphs). The attacks (``--attacks``): ``propagation``
(:func:`graphveil.attack.propagation_attack`, 50 hub seeds), ``percolation`` and
``reconciliation`` (:func:`graphveil.attack.percolation_attack`,
:func:`graphveil.attack.reconciliation_attack`, the study's attacker: 50 hub seeds). Prints, per
attack, the share of G0's core re-identified (correct, wrong) in the sampled, most-likely and
top-m worlds, the share of all nodes, the twin share (the ceiling is 1 - twins), and the wall
and CPU time of the attack (its three worlds; equal worlds are matched once), on the given
threads. With ``--scores`` it also times the study's whole attack step on the point
(:func:`graphveil.attack.attack_scores`, 3 sampled worlds, every registered attack). The load
average is printed before and after: the machine may be shared.

Points (seed 1): ``control`` (G0 itself), ``maxvar:X`` (n_p = X m, the study's parts,
``allow_fewer``), ``walk:T`` (RandWalk, t = T), ``switch:X`` (EdgeSwitch, s = X m).

Run: PYTHONPATH=python python benchmarks/directed_attack.py soc-Epinions1
     [--data-dir ../shared/data] [--threads 1] [--scores]
     [--attacks propagation,percolation,reconciliation] [POINT ...]
"""

from __future__ import annotations

import argparse
import os
import time

import graphveil as gv
from graphveil import datasets
from graphveil.anonymize import edge_switch, maxvar, randwalk
from graphveil.attack import (
    Deanonymization,
    attack_scores,
    percolation_attack,
    propagation_attack,
    reconciliation_attack,
)
from graphveil.attack.propagation import PropagationAttack, Reidentification

POINTS = ("control", "maxvar:0.19", "walk:2", "switch:0.1", "switch:0.5")
ATTACKS = ("propagation", "percolation", "reconciliation")


def release(g: gv.Graph, point: str, threads: int) -> gv.UncertainGraph | gv.Graph:
    """The release of ``point`` on ``g``'s ids."""
    if point == "control":
        return g
    kind, value = point.split(":")
    if kind == "maxvar":
        n_potential = round(float(value) * g.m)
        return maxvar(g, n_potential=n_potential, seed=1, threads=threads, allow_fewer=True)[0]
    if kind == "walk":
        return randwalk(g, t=int(value), seed=1, threads=threads)[0]
    if kind == "switch":
        return edge_switch(g, switches=round(float(value) * g.m), seed=1)[0]
    raise SystemExit(f"unknown point {point!r}: control, maxvar:X, walk:T or switch:X")


def rates(r: PropagationAttack | Deanonymization) -> dict[str, Reidentification]:
    """The core rates of the three worlds and the sampled world's over all nodes."""
    if isinstance(r, PropagationAttack):
        return {
            "sampled": r.sampled,
            "most_likely": r.most_likely,
            "top_m": r.top_m,
            "all": r.sampled_all,
        }
    out = {w.world: w.core for w in r.rates}
    return {**out, "all": r.rates[0].every}


def run(attack: str, g: gv.Graph, published: gv.UncertainGraph | gv.Graph, **kw: object):
    """One attack with the study's attacker (50 hub seeds)."""
    if attack == "propagation":
        return propagation_attack(g, published, seed=1, **kw)
    function = percolation_attack if attack == "percolation" else reconciliation_attack
    return function(g, published, seeds=50, seed_nodes="hubs", seed=1, **kw)


def line(name: str, r: PropagationAttack | Deanonymization, wall: float, cpu: float) -> str:
    x = rates(r)
    worlds = "  ".join(
        f"{w} {x[w].correct:.4f}/{x[w].wrong:.4f}" for w in ("sampled", "most_likely", "top_m")
    )
    return (
        f"  {name:10s} core correct/wrong: {worlds}; all {x['all'].correct:.4f}; "
        f"twins {x['sampled'].twins:.4f} (all {x['all'].twins:.4f}); "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("points", nargs="*", default=POINTS)
    parser.add_argument("--data-dir", default="../shared/data")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--scores", action="store_true", help="also time attack_scores")
    parser.add_argument(
        "--attacks", default=",".join(ATTACKS), help="comma-separated, of " + ", ".join(ATTACKS)
    )
    args = parser.parse_intermixed_args()
    print(f"load average {os.getloadavg()}, {os.cpu_count()} cores", flush=True)
    g = datasets.load(args.dataset, data_dir=args.data_dir, directed=True)
    print(f"{args.dataset}: {g}, threads {args.threads}", flush=True)
    for point in args.points:
        start = time.perf_counter()
        published = release(g, point, args.threads)
        print(f"{point}: release {time.perf_counter() - start:.1f} s", flush=True)
        for attack in args.attacks.split(","):
            print(f" {attack}", flush=True)
            for name, directed in (("directed", True), ("undirected", False)):
                wall, cpu = time.perf_counter(), time.process_time()
                r = run(attack, g, published, threads=args.threads, directed=directed)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                print(line(name, r, wall, cpu), flush=True)
        if args.scores:
            wall = time.perf_counter()
            s = attack_scores(g, published, seed=1, threads=args.threads)
            print(
                f"  attack_scores (3 worlds, every attack): {time.perf_counter() - wall:.1f} s, "
                f"reid_rate {s['reid_rate']:.4f}, percolation {s['percolation_rate']:.4f}, "
                f"reconciliation {s['reconciliation_rate']:.4f}, seedless {s['seedless_rate']:.4f}",
                flush=True,
            )
    print(f"load average {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
