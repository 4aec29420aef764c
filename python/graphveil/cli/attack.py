"""``graphveil attack``: what an adversary recovers from a published uncertain graph.

- ``graphveil attack link GRAPH PUBLISHED``: link inference (AUC, precision and recall at m, the
  most-likely world);
- ``graphveil attack propagation GRAPH PUBLISHED``: Narayanan-Shmatikov propagation with the
  true graph as auxiliary graph, against a sampled world and the most-likely world.

Both print a small table and can write ``--json FILE``. Thin shells over :mod:`graphveil.attack`.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from graphveil.cli._common import (
    add_header_argument,
    add_json_argument,
    add_verbosity,
    check_outputs,
    graph_inputs,
    json_to_stdout,
    load_graph,
    load_release,
    release_inputs,
    seed_value,
    write_json,
)


def add_attack(subparsers: Any) -> None:
    """Register ``graphveil attack`` and its two actions."""
    from graphveil.attack.propagation import DEFAULT_ECCENTRICITY, ECCENTRICITIES

    parser = subparsers.add_parser(
        "attack",
        help="link inference and de-anonymization attacks on a published graph",
        description="Measure what an adversary recovers from a release, next to H1 / H2_open.",
    )
    sub = parser.add_subparsers(title="attacks", metavar="ATTACK", required=True)
    link = sub.add_parser(
        "link",
        help="rank the published pairs by p against the true edges",
        description=(
            "AUC of p for the true edges against the other published pairs, precision and recall of "
            "the top-m pairs and of the most-likely world (p >= 0.5)."
        ),
    )
    _add_inputs(link)
    link.set_defaults(run=_run_link)
    prop = sub.add_parser(
        "propagation",
        help="Narayanan-Shmatikov seed-and-extend de-anonymization",
        description=(
            "Hide the release's ids, give the attacker the true graph and --seeds high-degree true "
            "pairs, and propagate against one sampled world and the most-likely world. Rates are over "
            "the nodes of degree >= --min-degree in the largest component (core) and over all nodes: "
            "correct, wrong, unmapped, accuracy (correct among mapped), coverage (mapped share) and "
            "twins (share with a structural twin in the true graph, N(u)=N(v) or N[u]=N[v]: matched "
            "only by guessing)."
        ),
    )
    _add_inputs(prop)
    prop.add_argument("--seeds", type=int, default=50, help="known seed pairs (default 50)")
    prop.add_argument("--theta", type=float, default=None, help="eccentricity threshold")
    prop.add_argument(
        "--degree-ratio",
        type=float,
        default=None,
        help="candidate degree window factor (default 2; 0 turns it off, as the paper)",
    )
    prop.add_argument(
        "--eccentricity",
        choices=ECCENTRICITIES,
        default=DEFAULT_ECCENTRICITY,
        help="std of the eccentricity over every node as Narayanan-Shmatikov (ns, the default) "
        "or over the scored candidates only (scored: stricter at one theta)",
    )
    prop.add_argument("--min-degree", type=int, default=5, help="core degree bound (default 5)")
    prop.add_argument("--seed", type=seed_value, default=None, help="randomness (default: fresh)")
    prop.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")
    prop.set_defaults(run=_run_propagation)


def _add_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="GRAPH (edge list of the true graph) then PUBLISHED (.npz or TSV); only PUBLISHED with --dataset",
    )
    parser.add_argument("--dataset", metavar="NAME", help="the true graph is a registered dataset")
    add_header_argument(parser)
    parser.add_argument(
        "--data-dir", action="append", metavar="DIR", help="folder searched for --dataset files"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="the private run record written with PUBLISHED (--record of graphveil anonymize): "
        "maps its permuted ids back to the true graph's; needed unless it was written with --keep-ids",
    )
    add_json_argument(parser, "the result")
    add_verbosity(parser)


def _inputs(args: argparse.Namespace) -> tuple[Any, Any]:
    from graphveil.record import true_ids

    expected = 1 if args.dataset is not None else 2
    if len(args.paths) != expected:
        raise ValueError(
            "give the true graph and the release: `graphveil attack ATTACK GRAPH PUBLISHED` "
            "or `graphveil attack ATTACK --dataset NAME PUBLISHED`"
        )
    args.graph = None if args.dataset is not None else args.paths[0]
    check_outputs(
        args.json, inputs=[*graph_inputs(args), *release_inputs(args.paths[-1]), args.record]
    )
    ug = load_release(args.paths[-1], args.record)  # carries its record, checked
    g0 = load_graph(args)
    if ug.n != g0.n:
        raise ValueError(
            f"the true graph has {g0.n:,} nodes and the release {ug.n:,}: both must be on the same nodes"
        )
    return g0, true_ids(ug)


def _print_table(rows: list[tuple[str, str]]) -> None:
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.4f}"
    return f"{x:,}"


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in d.items()}


def _run_link(args: argparse.Namespace) -> int:
    from graphveil.attack import link_inference

    g0, ug = _inputs(args)
    r = link_inference(g0, ug)
    write_json(args.json, _clean(r.as_dict()))
    if json_to_stdout(args):
        return 0
    _print_table([(k.replace("_", " "), _fmt(v)) for k, v in r.as_dict().items()])
    return 0


def _run_propagation(args: argparse.Namespace) -> int:
    from graphveil.attack import propagation_attack
    from graphveil.attack.propagation import DEFAULT_DEGREE_RATIO, DEFAULT_THETA

    g0, ug = _inputs(args)
    ratio = DEFAULT_DEGREE_RATIO if args.degree_ratio is None else args.degree_ratio
    r = propagation_attack(
        g0,
        ug,
        seeds=args.seeds,
        theta=DEFAULT_THETA if args.theta is None else args.theta,
        degree_ratio=None if ratio == 0 else ratio,
        eccentricity=args.eccentricity,
        min_degree=args.min_degree,
        seed=args.seed,
        threads=args.threads,
    )
    payload = r.as_dict()
    for key in ("sampled", "most_likely", "sampled_all", "most_likely_all"):
        payload[key] = _clean(payload[key])
    write_json(args.json, payload)
    if json_to_stdout(args):
        return 0
    columns = ("correct", "wrong", "unmapped", "accuracy", "coverage", "twins")
    rows = [
        (name, rate)
        for name, rate in (
            ("sampled (core)", r.sampled),
            ("most likely (core)", r.most_likely),
            ("sampled (all)", r.sampled_all),
            ("most likely (all)", r.most_likely_all),
        )
    ]
    width = max(len(n) for n, _ in rows)
    print(f"{'world':<{width}}  {'nodes':>9}  " + "  ".join(f"{c:>8}" for c in columns))
    for name, rate in rows:
        values = rate.as_dict()
        print(
            f"{name:<{width}}  {rate.nodes:>9,}  "
            + "  ".join(f"{values[c]:>8.4f}" for c in columns)
        )
    print(f"seeds {r.seeds}, theta {r.theta:g}, eccentricity {r.eccentricity}")
    return 0
