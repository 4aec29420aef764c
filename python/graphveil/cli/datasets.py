"""``graphveil datasets list | fetch``: the registry of graphs."""

from __future__ import annotations

import argparse
from typing import Any

from graphveil.cli._common import (
    add_json_argument,
    add_verbosity,
    check_outputs,
    json_to_stdout,
    show_progress,
    write_json,
)


# ---------------------------------------------------------------------------- datasets
def add_datasets(subparsers: Any) -> None:
    """Register ``graphveil datasets list|fetch``."""
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
    add_json_argument(listing, "the list")
    add_verbosity(listing)
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
    add_json_argument(fetch, "the path")
    add_verbosity(fetch)
    fetch.set_defaults(run=_run_datasets_fetch)


def _run_datasets_list(args: argparse.Namespace) -> int:
    from graphveil import datasets

    check_outputs(args.json)
    rows = []
    found = []
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
        found.append(
            {
                "name": entry.name,
                "nodes": entry.nodes,
                "edges": entry.edges,
                "where": where,
                "description": entry.description,
            }
        )
    write_json(args.json, found)
    if json_to_stdout(args):
        return 0
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

    check_outputs(args.json)
    path = datasets.fetch(
        args.name,
        data_dir=args.data_dir,
        force=args.force,
        progress=not args.no_progress and show_progress(args),
    )
    write_json(args.json, {"name": args.name, "path": str(path)})
    if not json_to_stdout(args):
        print(path)
    return 0
