"""The ``graphveil`` command line: a thin shell over the Python API.

Each subcommand is one pair of functions in this module:

- ``_add_<cmd>(subparsers)`` creates its parser and calls ``parser.set_defaults(run=_run_<cmd>)``;
- ``_run_<cmd>(args) -> int`` does the work and returns the exit status.

To add a command, write the pair and append ``_add_<cmd>`` to ``_COMMANDS``. User mistakes
(``ValueError``, ``TypeError``, ``KeyError``, ``OSError`` and their subclasses) raised by a
``_run_`` function are printed as one line ``graphveil: error: ...`` on stderr with exit
status 2, the same as an argparse usage error; anything else is a bug and keeps its traceback.
SIGINT (Ctrl-C) and SIGTERM stop a command cleanly: temporary files are removed, one line is
printed and the exit status is 130 or 143.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import graphveil

#: Exceptions that mean "the user asked for something that cannot be done" (exit 2).
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError, KeyError, OSError)


class Terminated(BaseException):
    """Raised in the main thread on SIGTERM, so that every writer cleans up as on Ctrl-C."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user error, 130/143 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    previous = _install(signal.SIGTERM, _on_sigterm)
    try:
        return int(args.run(args) or 0)
    except USER_ERRORS as exc:
        print(f"{parser.prog}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted; no partial output was left", file=sys.stderr)
        return 128 + signal.SIGINT
    except Terminated:
        print(f"{parser.prog}: terminated; no partial output was left", file=sys.stderr)
        return 128 + signal.SIGTERM
    finally:
        if previous is not None:
            _install(signal.SIGTERM, previous)


def _install(signum: int, handler: Any) -> Any:
    """Set a signal handler where Python allows it (the main thread); the previous one, or None."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread (e.g. main() called from a worker)
        return None


def check_outputs(*paths: str | os.PathLike[str] | None) -> None:
    """Fail before any work if an output cannot be written; each error names its path."""
    from graphveil._common import check_output_path

    given = [os.path.realpath(p) for p in paths if p is not None]
    if len(set(given)) != len(given):
        raise ValueError("two outputs name the same file; give each its own path")
    for path in paths:
        if path is not None:
            check_output_path(path)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="graphveil",
        description="Anonymize social graphs via uncertainty semantics, and measure privacy and utility.",
        epilog=(
            "examples:\n"
            "  graphveil stats --dataset ca-GrQc      the embedded default graph\n"
            "  graphveil stats edges.txt.gz           any SNAP-style edge list\n"
            "  graphveil anonymize maxvar edges.txt.gz --n-potential 1000 -o pub.npz --record private.json\n"
            "                                         a release, and its private record (never publish it)\n"
            "  graphveil evaluate edges.txt.gz pub.npz --record private.json --samples 20\n"
            "                                         privacy and utility of a published graph\n"
            "  graphveil sample pub.npz -n 5 -o worlds/   possible worlds of a release\n"
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
    add_header_argument(parser)


def add_header_argument(parser: argparse.ArgumentParser) -> None:
    """``--header``: skip the first line of the GRAPH file (read by :func:`load_graph`)."""
    parser.add_argument(
        "--header", action="store_true", help="skip the first line of GRAPH (a CSV header)"
    )


def load_graph(args: argparse.Namespace) -> graphveil.Graph:
    """The graph named by the arguments of :func:`add_graph_argument`."""
    from graphveil import datasets

    if args.dataset is not None:
        if args.header:
            raise ValueError("--header applies to a GRAPH file; drop it with --dataset")
        return datasets.load(args.dataset, data_dir=args.data_dir)
    from graphveil.io import read_edgelist

    return read_edgelist(args.graph, header=args.header)


# ---------------------------------------------------------------------------- stats
def _add_stats(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="size, degree, privacy and utility statistics of a graph",
        description=(
            "Print n, m, degree statistics, what was cleaned while reading the graph, the graph's own "
            "privacy scores (H1, H2_open: its numbers of signatures; eps for each k) and the "
            "utility statistics of the paper (Section 5)."
        ),
    )
    add_graph_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )
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
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the sampled BFS sources / HyperBall (default 0)",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="worker threads (default: all cores)"
    )
    parser.set_defaults(run=_run_stats)


def graph_stats(
    graph: graphveil.Graph,
    *,
    measures: bool = False,
    k: Sequence[int] = (30, 50, 100),
    seed: int | None = 0,
    threads: int | None = None,
) -> dict[str, Any]:
    """The numbers ``graphveil stats`` prints, as a dict.

    ``lines_read``, ``exact_repeats`` and ``reversed_pairs`` (the two kinds of merged
    duplicates) appear only for a graph read from a file, where they were counted.
    With ``measures=True`` also the graph's own privacy scores (``H1``, ``H2_open``: the numbers
    of distinct signatures, its score against itself), ``eps_k<k>`` of the graph itself and
    the utility statistics ``S_NE ... S_Diam`` (:data:`graphveil.measure.STATISTICS`).
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
    if measures:
        from graphveil.measure import eps, num_signatures, utility_statistics

        stats["H1"] = num_signatures(graph, "h1", threads=threads)
        stats["H2_open"] = num_signatures(graph, "h2_open", threads=threads)
        for kk, value in sorted(eps(graph, graph, list(k), threads=threads).items()):
            stats[f"eps_k{kk}"] = value
        stats.update(utility_statistics(graph, seed=seed, threads=threads))
    return stats


def _run_stats(args: argparse.Namespace) -> int:
    stats = graph_stats(
        load_graph(args), measures=not args.basic, k=args.k, seed=args.seed, threads=args.threads
    )
    if args.json:
        print(json.dumps({key: _finite_or_none(value) for key, value in stats.items()}))
        return 0
    width = max(map(len, stats))
    for key, value in stats.items():
        if isinstance(value, float) and not (key.startswith("S_") and value.is_integer()):
            text = f"{value:,.4f}"
        else:
            text = f"{int(value):,}"
        print(f"{key.replace('_', ' ') if key.islower() else key:<{width}}  {text}")
    return 0


def _finite_or_none(value: Any) -> Any:
    return None if isinstance(value, float) and not np.isfinite(value) else value


# ---------------------------------------------------------------------------- evaluate
def _add_evaluate(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="privacy and utility of a published uncertain graph against the true graph",
        usage="%(prog)s [-h] (GRAPH | --dataset NAME) UNCERTAIN [--samples N] [--k K [K ...]] [options]",
        description=(
            "Draw samples of UNCERTAIN (a .npz or TSV written by UncertainGraph.save) and print, as the "
            "paper's table rows, H1, H2_open, the utility statistics, rel.err, tradeoff, the edge "
            "differences and eps for each k, next to the true graph's own row (Section 5)."
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
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the samples and statistics (default: fresh)"
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="worker threads (default: all cores)"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="the private run record written with UNCERTAIN (--record / save(record=...)): maps "
        "its permuted ids back to the true graph's; needed unless it was written with --keep-ids",
    )
    parser.add_argument(
        "--label", default=None, help="row label (default: the scheme recorded in UNCERTAIN)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--csv", metavar="FILE", help="also write the report as CSV")
    parser.set_defaults(run=_run_evaluate)


def _run_evaluate(args: argparse.Namespace) -> int:
    from graphveil.measure import evaluate
    from graphveil.measure.report import _scheme_label
    from graphveil.uncertain import UncertainGraph

    expected = 1 if args.dataset is not None else 2
    if len(args.paths) != expected:
        raise ValueError(
            "give the true graph and the uncertain graph: `graphveil evaluate GRAPH UNCERTAIN` "
            "or `graphveil evaluate --dataset NAME UNCERTAIN`"
        )
    args.graph = None if args.dataset is not None else args.paths[0]
    check_outputs(args.json, args.csv)
    ug = UncertainGraph.load(args.paths[-1])
    record = None
    if args.record is not None:
        from graphveil.record import load_record

        record = load_record(args.record)
    elif ug.ids_permuted:
        raise ValueError(
            f"{args.paths[-1]} was saved with permuted node ids, so its nodes cannot be matched to the "
            "true graph: pass the private run record written with it (--record FILE, from "
            "`graphveil anonymize ... --record FILE`), or publish with --keep-ids"
        )
    g0 = load_graph(args)
    if ug.n != g0.n:
        raise ValueError(
            f"the true graph has {g0.n:,} nodes and the uncertain graph {ug.n:,}: both must be on the same nodes"
        )
    label = args.label
    if label is None:
        label = _scheme_label(ug.meta) if ug.meta.get("scheme") else "published"
    try:
        report = evaluate(
            g0,
            ug,
            samples=args.samples,
            seed=args.seed,
            k=args.k,
            threads=args.threads,
            label=label,
            record=record,
        )
    except ValueError as err:
        raise ValueError(
            f"{args.paths[-1]}: {err}".replace("drop record=", "drop --record")
        ) from None
    print(report.table())
    if args.json:
        report.to_json(args.json)
    if args.csv:
        report.to_csv(args.csv)
    return 0


# ---------------------------------------------------------------------------- sample
def _add_sample(subparsers: Any) -> None:
    from graphveil._cli_anonymize import RECORD_HELP, SEED_HELP

    parser = subparsers.add_parser(
        "sample",
        help="draw possible worlds from a published uncertain graph, as edge lists",
        description=(
            "Draw N possible worlds of PUBLISHED (a .npz or TSV written by `graphveil anonymize -o` or "
            "UncertainGraph.save) and write each as an edge list DIR/world-<i>.txt (or --suffix). "
            "A release saved with permuted ids is already in public ids: its worlds keep them (the "
            "release's run record maps them back). A file saved with --keep-ids holds the true ids: its "
            "worlds are written under one fresh random permutation, shared by all of them and kept in "
            "--record, unless --keep-ids."
        ),
    )
    parser.add_argument("published", metavar="PUBLISHED", help="the uncertain graph (.npz, .tsv)")
    parser.add_argument("-n", "--count", type=int, default=1, help="worlds to draw (default 1)")
    parser.add_argument("-o", "--out", metavar="DIR", required=True, help="output folder")
    parser.add_argument(
        "--suffix", default=".txt", help="file suffix: .txt, .txt.gz, .txt.bz2 or .txt.xz"
    )
    parser.add_argument("--seed", type=int, default=None, help=SEED_HELP)
    parser.add_argument(
        "--keep-ids",
        action="store_true",
        help="write the file's ids as they are even when they are the true ids",
    )
    parser.add_argument("--record", metavar="FILE", help=RECORD_HELP)
    parser.add_argument(
        "--threads", type=int, default=None, help="worker threads (default: all cores)"
    )
    parser.set_defaults(run=_run_sample)


def _run_sample(args: argparse.Namespace) -> int:
    from pathlib import Path

    from graphveil._common import seed_to_u64
    from graphveil.io import write_edgelist
    from graphveil.record import RunRecord, release_digest
    from graphveil.uncertain import UncertainGraph

    if args.count < 1:
        raise ValueError(f"-n/--count must be at least 1, got {args.count}")
    if args.suffix not in (".txt", ".txt.gz", ".txt.bz2", ".txt.xz"):
        raise ValueError(
            f"--suffix must be .txt, .txt.gz, .txt.bz2 or .txt.xz, got {args.suffix!r}"
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    width = len(str(args.count - 1))
    paths = [out / f"world-{i:0{width}d}{args.suffix}" for i in range(args.count)]
    check_outputs(*paths, args.record)
    ug = UncertainGraph.load(args.published)
    source = release_digest(ug.n, ug.u, ug.v, ug.p)
    perm = None
    if not ug.ids_permuted and not args.keep_ids:
        ug, perm = ug.with_permuted_ids()
    seed = seed_to_u64(args.seed)
    worlds = ug.sample(args.count, seed, threads=args.threads)
    assert isinstance(worlds, list)  # a count was given
    releases: list[dict[str, str]] = []
    for world, path in zip(worlds, paths):
        rec = write_edgelist(world, path, keep_ids=True, threads=args.threads)
        releases += rec.releases
    record = RunRecord(
        perm, {"command": "sample", "source": source, "seed": seed, "count": args.count}, releases
    )
    if args.record:
        record.save(args.record)
    kind = "public (permuted) ids" if ug.ids_permuted else "the true ids (--keep-ids)"
    print(f"wrote {args.count} world(s) to {out}/ in {kind}")
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


# ---------------------------------------------------------------------------- reproduce
def _add_reproduce(subparsers: Any) -> None:
    # The paper's study (graphveil.experiments); its parser lives in graphveil._cli_reproduce.
    from graphveil._cli_reproduce import add_reproduce

    add_reproduce(subparsers)


# ---------------------------------------------------------------------------- attack
def _add_attack(subparsers: Any) -> None:
    # Link inference and propagation (graphveil.attack); the parser lives in graphveil._cli_attack.
    from graphveil._cli_attack import add_attack

    add_attack(subparsers)


_COMMANDS: list[Callable[[Any], None]] = [
    _add_stats,
    _add_anonymize,
    _add_evaluate,
    _add_sample,
    _add_attack,
    _add_reproduce,
    _add_datasets,
]
