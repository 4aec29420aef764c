"""graphveil publish at three targets beside the study's grid measured by the same yardstick.

For one graph: the release :func:`graphveil.publish` chooses for each target (default: reid <=
0.05; edge_eps <= 2; both), its utility (rel.err, the search's mean over the releases of the
chosen value), its margin and the search's time; then every point of the study's grid (the
registry's ``default_grid`` of every scheme) measured exactly as the search measures a knob
value (``repeats`` releases, the one-sided bound of each score), and the best grid point that
meets each target. Prints one table; writes nothing but ``--out`` (the private audits, mode
0600: they hold scores measured on G0).

Run: PYTHONPATH=python python benchmarks/publish_targets.py --dataset ca-GrQc [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import time

from graphveil import datasets
from graphveil._common import atomic_path
from graphveil._json import dumps
from graphveil.anonymize import registry
from graphveil.publishing import Unreachable, _measure, _start, parse_target, publish

TARGETS = ("reid<=0.05", "edge_eps<=2", "reid<=0.05,edge_eps<=2")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="ca-GrQc")
    parser.add_argument("--data-dir", default="../shared/data")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--targets", nargs="*", default=list(TARGETS))
    parser.add_argument("--no-grid", action="store_true", help="skip the study's grid")
    parser.add_argument("--grid-only", action="store_true", help="only the study's grid")
    parser.add_argument("--schemes", nargs="*", help="the schemes allowed (default: all)")
    parser.add_argument("--max-minutes", type=float, help="each search's budget")
    parser.add_argument("--out", help="write the audits (private) to this JSON file")
    args = parser.parse_args()
    graph = datasets.load(args.dataset, data_dir=[args.data_dir])
    audits: dict[str, object] = {}
    print(f"{args.dataset}: n = {graph.n:,}", flush=True)
    for target in [] if args.grid_only else args.targets:
        start = time.monotonic()
        try:
            pub = publish(
                graph, target, schemes=args.schemes, seed=args.seed, threads=args.threads,
                max_minutes=args.max_minutes,
            )  # fmt: skip
        except Unreachable as err:
            print(f"{target}: {err} [{time.monotonic() - start:.0f} s]", flush=True)
            continue
        win = pub.audit["winner"]
        record = registry.scheme(pub.scheme)
        margins = ", ".join(f"{k} {v:+.4g}" for k, v in pub.audit["margins"].items())
        print(
            f"{target}: {record.title} {record.grid_parameter}={pub.value:.4g}, rel.err "
            f"{win['utility_mean']:.4f} (release {pub.audit['rel_err']:.4f}), margin {margins}, "
            f"{len(pub.candidates)} values (+{len(pub.audit['screened'])} for utility alone, "
            f"pruned: {', '.join(pub.audit['pruned']) or 'none'}) in "
            f"{time.monotonic() - start:.0f} s",
            flush=True,
        )
        audits[target] = pub.audit
    if not args.no_grid:
        audits["grid"] = grid(graph, args)
    if args.out:
        with atomic_path(args.out, private=True) as tmp:
            tmp.write_text(dumps(audits))


def grid(graph, args) -> list[dict[str, object]]:
    """Every study grid point, measured for every score the targets bound; the best per target."""
    bounds = {t: parse_target(t) for t in args.targets}
    every = {b.key: b for bs in bounds.values() for b in bs}
    loose = ",".join(
        f"{b.score.target_name(b.k)}{b.op}{_loosest(b, graph.n):g}" for b in every.values()
    )
    search = _start(graph, parse_target(loose), "rel_err", 0.95, 3, 3, args.seed, args.threads)
    start = time.monotonic()
    rows = []
    for record in registry.REGISTRY.values():
        for value in record.default_grid:
            c = _measure(search, record.name, float(value), "study grid")
            rows.append(c)
    print(f"study grid: {len(rows)} points in {time.monotonic() - start:.0f} s", flush=True)
    for target, bs in bounds.items():
        met = [c for c in rows if not c.reason and all(b.meets(c.interval[b.key][1]) for b in bs)]
        if not met:
            print(f"{target}: no study grid point meets it", flush=True)
            continue
        best = min(met, key=lambda c: c.utility_mean)
        print(
            f"{target}: best study grid point {best.label}, rel.err {best.utility_mean:.4f}",
            flush=True,
        )
    return [json.loads(dumps(c.as_dict())) for c in rows]


def _loosest(bound, n: int) -> float:
    """The limit every release meets: the end of the score's range (1e9 for an open end)."""
    low, high = bound.score.bounds(n)
    end = high if bound.op == "<=" else low
    return end if abs(end) < 1e9 else (1e9 if bound.op == "<=" else -1e9)


if __name__ == "__main__":
    main()
