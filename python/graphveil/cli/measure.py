"""``graphveil stats`` and ``graphveil evaluate``: measures of a graph and of a release."""

from __future__ import annotations

import argparse
import math
from typing import Any

from graphveil.cli._common import (
    add_directed_argument,
    add_graph_argument,
    add_header_argument,
    add_json_argument,
    add_record_argument,
    add_scoring_argument,
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
    show_progress,
    write_json,
)
from graphveil.measure import graph_stats


# ---------------------------------------------------------------------------- stats
def add_stats(subparsers: Any) -> None:
    """Register ``graphveil stats``."""
    parser = subparsers.add_parser(
        "stats",
        help="size, degree, privacy and utility statistics of a graph",
        description=(
            "Print n, m, degree statistics, what was cleaned while reading the graph, the graph's own "
            "privacy scores (H1, H2_open: its numbers of signatures; eps for each k) and the "
            "utility statistics of the paper (Section VI)."
        ),
    )
    add_graph_argument(parser)
    add_json_argument(parser, "the numbers")
    add_verbosity(parser)
    parser.add_argument(
        "--basic",
        action="store_true",
        help="only size and degree numbers (skip privacy and utility)",
    )
    parser.add_argument(
        "--k",
        type=int,
        nargs="+",
        default=[30, 50, 100],
        metavar="K",
        help="k values for eps (default: 30 50 100)",
    )
    # A fixed default: the statistics of one graph repeat run after run.
    add_seed_argument(parser, "the sampled BFS sources / HyperBall", default=0, secret=False)
    add_threads_argument(parser)
    parser.set_defaults(run=_run_stats)


def _run_stats(args: argparse.Namespace) -> int:
    check_outputs(args.json, inputs=graph_inputs(args))
    stats = graph_stats(
        load_graph(args), measures=not args.basic, k=args.k, seed=args.seed, threads=args.threads
    )
    check_outputs(args.json)
    if args.json is not None:
        write_json(args.json, stats)
        if json_to_stdout(args):
            return 0
    width = max(map(len, stats))
    for key, value in stats.items():
        if isinstance(value, float) and not (key.startswith("S_") and value.is_integer()):
            text = f"{value:,.4f}"
        else:
            text = f"{int(value):,}"
        print(f"{key.replace('_', ' ') if key.islower() else key:<{width}}  {text}")
    return 0


# ---------------------------------------------------------------------------- evaluate
def add_evaluate(subparsers: Any) -> None:
    """Register ``graphveil evaluate``."""
    parser = subparsers.add_parser(
        "evaluate",
        help="privacy and utility of a published uncertain graph against the true graph",
        usage="%(prog)s [-h] (GRAPH | --dataset NAME) UNCERTAIN [--samples N] [--k K [K ...]] [options]",
        description=(
            "Draw samples of UNCERTAIN (a .npz or TSV written by UncertainGraph.save) and print, as the "
            "paper's table rows, H1, H2_open, the utility statistics, rel.err, tradeoff, the edge "
            "differences and eps for each k, next to the true graph's own row (Section VI)."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="GRAPH (edge list of the true graph) then UNCERTAIN; only UNCERTAIN with --dataset",
    )
    parser.add_argument("--dataset", metavar="NAME", help="the true graph is a registered dataset")
    parser.add_argument(
        "--data-dir", action="append", metavar="DIR", help="folder searched for --dataset files"
    )
    add_header_argument(parser)
    add_directed_argument(parser, also="; UNCERTAIN must then be a directed release")
    parser.add_argument(
        "--samples", type=int, default=20, help="possible worlds drawn (default 20, as the paper)"
    )
    parser.add_argument(
        "--k",
        type=int,
        nargs="+",
        default=[30, 50, 100],
        metavar="K",
        help="k values for eps (default: 30 50 100)",
    )
    add_seed_argument(parser, "the samples and statistics", secret=False)
    add_threads_argument(parser)
    add_record_argument(parser, reads="UNCERTAIN")
    add_scoring_argument(parser)
    parser.add_argument(
        "--attacks",
        action="store_true",
        help="also run every registered attack on the release and print its scores "
        "(`graphveil scores` lists them; at most 3 sampled worlds are attacked)",
    )
    parser.add_argument(
        "--analyst",
        action="store_true",
        help="also measure the analyst statistics (communities, central nodes, spread, PGB's "
        "queries) as their own column group with their mean error analyst.err (undirected "
        'only; pip install "graphveil[analyst]")',
    )
    parser.add_argument(
        "--label", default=None, help="row label (default: the scheme recorded in UNCERTAIN)"
    )
    add_json_argument(parser, "the report")
    add_verbosity(parser)
    parser.add_argument("--csv", metavar="FILE", help="also write the report as CSV")
    parser.set_defaults(run=_run_evaluate)


def attack_lines(extra: dict[str, float]) -> list[str]:
    """The attack scores of a report's ``extra`` (``attack_<key>``), one line each.

    Every attack score of the privacy-score table (:data:`graphveil.scores.PRIVACY_SCORE_TABLE`)
    in its order, with its title; the strongest attack's last.
    """
    from graphveil.scores import PRIVACY_SCORE_TABLE

    values = {
        key[len("attack_") :]: None if math.isnan(v) else v
        for key, v in extra.items()
        if key.startswith("attack_")
    }
    scores = [s for s in PRIVACY_SCORE_TABLE if s.on == "attack"]
    width = max(len(s.name) for s in scores)
    lines = ["", "attack scores (lower is more private unless marked; `graphveil scores`):"]
    for s in scores:
        value = s.value(values)
        text = "undefined" if value is None else s.formats[1].format(value)
        mark = "" if s.more_private else "  (not a privacy level)"
        lines.append(f"{s.name:<{width}}  {text:>10}  {s.title}{mark}")
    return lines


def _run_evaluate(args: argparse.Namespace) -> int:
    from graphveil.evaluation import evaluate
    from graphveil.measure.plan import scheme_label

    expected = 1 if args.dataset is not None else 2
    if len(args.paths) != expected:
        raise ValueError(
            "give the true graph and the uncertain graph: `graphveil evaluate GRAPH UNCERTAIN` "
            "or `graphveil evaluate --dataset NAME UNCERTAIN`"
        )
    args.graph = None if args.dataset is not None else args.paths[0]
    inputs = [*graph_inputs(args), *release_inputs(args.paths[-1]), args.record]
    check_outputs(args.json, args.csv, inputs=inputs)
    ug = load_release(args.paths[-1], args.record)  # carries its record, checked
    check_direction(args, ug, args.paths[-1])
    g0 = load_graph(args)
    if ug.n != g0.n:
        raise ValueError(
            f"the true graph has {g0.n:,} nodes and the uncertain graph {ug.n:,}: both must be on the same nodes"
        )
    label = args.label
    if label is None:
        label = scheme_label(ug.meta) if ug.meta.get("scheme") else "published"
    try:
        report = evaluate(
            g0,
            ug,
            samples=args.samples,
            seed=args.seed,
            k=args.k,
            threads=args.threads,
            label=label,
            scoring=args.scoring,
            attacks=args.attacks,
            progress=show_progress(args),  # a bar over the samples on a terminal
            analyst=args.analyst,
        )
    except ValueError as err:
        raise ValueError(f"{args.paths[-1]}: {err}") from None
    if args.json == "-":
        write_json("-", report.to_dict())
    else:
        print(report.table())
        if args.attacks:
            print("\n".join(attack_lines(report.extra)))
        if args.json:
            report.to_json(args.json)
    if args.csv:
        report.to_csv(args.csv)
    return 0
