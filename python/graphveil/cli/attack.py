"""``graphveil attack``: what an adversary recovers from a published uncertain graph.

- ``graphveil attack link GRAPH PUBLISHED``: link inference (AUC, precision and recall at m, the
  most-likely world);
- ``graphveil attack propagation GRAPH PUBLISHED``: Narayanan-Shmatikov propagation with the
  true graph as auxiliary graph, against a sampled world and the most-likely world;
- ``graphveil attack edges GRAPH PUBLISHED``: edge recovery from p and plausibility, and the
  measured edge-level loss.

One action per record of :mod:`graphveil.attack.registry` (its help, description and options).
Each prints a small table and can write ``--json FILE``. Thin shells over :mod:`graphveil.attack`.
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any

from graphveil.cli._common import (
    add_directed_argument,
    add_header_argument,
    add_json_argument,
    add_record_argument,
    add_seed_argument,
    add_threads_argument,
    add_verbosity,
    check_direction,
    check_outputs,
    graph_inputs,
    json_to_stdout,
    load_graph,
    load_release,
    release_inputs,
    write_json,
)


def add_attack(subparsers: Any) -> None:
    """Register ``graphveil attack`` and one action per registered attack."""
    from graphveil.attack import registry

    parser = subparsers.add_parser(
        "attack",
        help="link inference and de-anonymization attacks on a published graph",
        description="Measure what an adversary recovers from a release, next to H1 / H2_open.",
    )
    sub = parser.add_subparsers(title="attacks", metavar="ATTACK", required=True)
    for record in registry.REGISTRY.values():
        command = sub.add_parser(record.name, help=record.help, description=record.description)
        _add_inputs(command)
        for option in record.options:
            if option.flag == "--seed":  # the one seed and thread options of every command
                add_seed_argument(command, "the attack's random draws", secret=False)
                continue
            if option.flag == "--threads":
                add_threads_argument(command)
                continue
            command.add_argument(
                option.flag,
                dest=option.keyword,
                type=option.type,
                default=option.default,
                choices=option.choices,
                help=option.help,
            )
        command.set_defaults(run=partial(_run, record))


def _add_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="GRAPH (edge list of the true graph) then PUBLISHED (.npz or TSV); only PUBLISHED with --dataset",
    )
    parser.add_argument("--dataset", metavar="NAME", help="the true graph is a registered dataset")
    add_header_argument(parser)
    add_directed_argument(parser, also="; PUBLISHED must then be a directed release")
    parser.add_argument(
        "--data-dir", action="append", metavar="DIR", help="folder searched for --dataset files"
    )
    add_record_argument(parser, reads="PUBLISHED")
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
    check_direction(args, ug, args.paths[-1])
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


def _run(record: Any, args: argparse.Namespace) -> int:
    """Run attack ``record`` with the command's options; print its table or write its JSON."""
    g0, ug = _inputs(args)
    options = {}
    for option in record.options:
        value = getattr(args, option.keyword)
        options[option.keyword] = value if option.convert is None else option.convert(value)
    result = record.function(g0, ug, **options)
    write_json(args.json, result.as_dict())
    if json_to_stdout(args):
        return 0
    if record.text is not None:
        print(record.text(result))
    else:
        _print_table([(k.replace("_", " "), _fmt(v)) for k, v in result.as_dict().items()])
    return 0
