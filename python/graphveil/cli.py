"""The ``graphveil`` command line: a thin shell over the Python API.

Each subcommand is one pair of functions in this module:

- ``_add_<cmd>(subparsers)`` creates its parser and calls ``parser.set_defaults(run=_run_<cmd>)``;
- ``_run_<cmd>(args) -> int`` does the work and returns the exit status.

To add a command, write the pair and append ``_add_<cmd>`` to ``_COMMANDS``. User mistakes
(``ValueError``, ``TypeError``, ``KeyError``, ``OSError`` and their subclasses) raised by a
``_run_`` function are printed as one line ``graphveil: error: ...`` on stderr with exit
status 2, the same as an argparse usage error; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import graphveil

#: Exceptions that mean "the user asked for something that cannot be done" (exit 2).
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError, KeyError, OSError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except USER_ERRORS as exc:
        print(f"{parser.prog}: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="graphveil",
        description="Anonymize social graphs via uncertainty semantics, and measure privacy and utility.",
        epilog=(
            "examples:\n"
            "  graphveil stats --dataset ca-GrQc      the embedded default graph\n"
            "  graphveil stats edges.txt.gz           any SNAP-style edge list\n"
            "  graphveil datasets list                registered graphs and where they are\n"
            "  graphveil datasets fetch com-dblp      download one, verified\n"
            "Run `graphveil COMMAND --help` for a command's options."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {graphveil.__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in _COMMANDS:
        add(subparsers)
    return parser


# ---------------------------------------------------------------------------- helpers
def _one_line(exc: BaseException) -> str:
    # KeyError's str() is the repr of its argument; show the message itself.
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(text.split()) or type(exc).__name__


def add_graph_argument(parser: argparse.ArgumentParser) -> None:
    """A graph input: a positional edge-list path, or ``--dataset NAME`` (with ``--data-dir``).

    Shared by every command that reads one graph; resolve it with :func:`load_graph`.
    """
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "graph", nargs="?", metavar="GRAPH", help="edge-list file (.txt, .gz, .bz2, .xz)"
    )
    group.add_argument(
        "--dataset", metavar="NAME", help="a registered dataset (see `graphveil datasets list`)"
    )
    parser.add_argument(
        "--data-dir",
        action="append",
        metavar="DIR",
        help="folder searched for --dataset files before the package and the cache (repeatable)",
    )


def load_graph(args: argparse.Namespace) -> graphveil.Graph:
    """The graph named by the arguments of :func:`add_graph_argument`."""
    from graphveil import datasets

    if args.dataset is not None:
        return datasets.load(args.dataset, data_dir=args.data_dir)
    from graphveil.io import read_edgelist

    return read_edgelist(args.graph)


# ---------------------------------------------------------------------------- stats
def _add_stats(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="size and degree statistics of a graph",
        description="Print n, m, degree statistics and what was cleaned while reading the graph.",
    )
    add_graph_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )
    parser.set_defaults(run=_run_stats)


def graph_stats(graph: graphveil.Graph) -> dict[str, Any]:
    """The numbers ``graphveil stats`` prints, as a dict.

    ``lines_read``, ``exact_repeats`` and ``reversed_pairs`` (the two kinds of merged
    duplicates) appear only for a graph read from a file, where they were counted.
    """
    deg = graph.degrees
    counts = graph.build_counts
    empty = deg.size == 0
    stats: dict[str, Any] = {
        "nodes": graph.n,
        "edges": graph.m,
        "min_degree": 0 if empty else int(deg.min()),
        "mean_degree": 0.0 if empty else float(deg.mean()),
        "max_degree": 0 if empty else int(deg.max()),
        "degree_variance": 0.0 if empty else float(np.var(deg)),
        "isolated_nodes": int(np.count_nonzero(deg == 0)),
    }
    if counts.lines is not None:
        stats["lines_read"] = int(counts.lines)
    stats["self_loops_dropped"] = int(counts.self_loops)
    stats["duplicates_merged"] = int(counts.duplicates)
    for key in ("exact_repeats", "reversed_pairs"):
        value = getattr(counts, key)
        if value is not None:
            stats[key] = int(value)
    return stats


def _run_stats(args: argparse.Namespace) -> int:
    stats = graph_stats(load_graph(args))
    if args.json:
        print(json.dumps(stats))
        return 0
    width = max(map(len, stats))
    for key, value in stats.items():
        text = f"{value:,.4f}" if isinstance(value, float) else f"{value:,}"
        print(f"{key.replace('_', ' '):<{width}}  {text}")
    return 0


# ---------------------------------------------------------------------------- datasets
def _add_datasets(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "datasets",
        help="list or download registered graphs",
        description="The registry of graphs: embedded, downloadable (verified) and synthetic.",
    )
    sub = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="every registered graph and where it is")
    listing.add_argument(
        "--data-dir", action="append", metavar="DIR", help="also look in this folder"
    )
    listing.set_defaults(run=_run_datasets_list)
    fetch = sub.add_parser(
        "fetch",
        help="download a graph into the cache, verified",
        description="Download a registered graph, verify its checksum and counts, store it as NAME.txt.gz.",
    )
    fetch.add_argument("name", metavar="NAME", help="a name from `graphveil datasets list`")
    fetch.add_argument(
        "--data-dir",
        metavar="DIR",
        help="target folder (default: $GRAPHVEIL_DATA_DIR or ~/.cache/graphveil)",
    )
    fetch.add_argument("--force", action="store_true", help="download again even if present")
    fetch.add_argument("--no-progress", action="store_true", help="no progress bar")
    fetch.set_defaults(run=_run_datasets_fetch)


def _run_datasets_list(args: argparse.Namespace) -> int:
    from graphveil import datasets

    rows = []
    for entry in datasets.list():
        if entry.synthetic:
            where = "generated"
        else:
            path = datasets.locate(entry.name, args.data_dir)
            if path is None:
                where = "not downloaded"
            else:
                where = "embedded" if path.parent == datasets.EMBEDDED_DIR else str(path)
        rows.append((entry.name, f"{entry.nodes:,}", f"{entry.edges:,}", where, entry.description))
    header = ("name", "nodes", "edges", "where", "description")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        cells = [
            cell.rjust(w) if i in (1, 2) else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        ]
        print("  ".join([*cells, row[4]]))
    return 0


def _run_datasets_fetch(args: argparse.Namespace) -> int:
    from graphveil import datasets

    path = datasets.fetch(
        args.name, data_dir=args.data_dir, force=args.force, progress=not args.no_progress
    )
    print(path)
    return 0


# ---------------------------------------------------------------------------- anonymize
def _add_anonymize(subparsers: Any) -> None:
    # The schemes live in graphveil._cli_anonymize (one _add_/_run_ pair per scheme).
    from graphveil._cli_anonymize import add_anonymize

    add_anonymize(subparsers)


_COMMANDS: list[Callable[[Any], None]] = [_add_stats, _add_datasets, _add_anonymize]
