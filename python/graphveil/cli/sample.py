"""``graphveil sample``: possible worlds of a release, as edge lists."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphveil.cli._common import (
    add_directed_argument,
    add_json_argument,
    add_record_argument,
    add_seed_argument,
    add_threads_argument,
    add_verbosity,
    check_outputs,
    json_to_stdout,
    read_published,
    release_inputs,
    write_json,
)
from graphveil.io.formats import FORMATS, usual_suffixes


# ---------------------------------------------------------------------------- sample
def add_sample(subparsers: Any) -> None:
    """Register ``graphveil sample``."""
    parser = subparsers.add_parser(
        "sample",
        help="draw possible worlds from a published uncertain graph, as edge lists",
        description=(
            "Draw N possible worlds of PUBLISHED (a .npz or TSV written by `graphveil anonymize -o` or "
            "UncertainGraph.save) and write each as an edge list DIR/world-<i>.txt (or --suffix). "
            "A release saved with permuted ids is already in public ids: its worlds keep them (the "
            "release's run record maps them back). A file saved with --keep-ids holds the true ids: its "
            "worlds are written under one fresh random permutation, shared by all of them and kept in "
            "--record, unless --keep-ids. A relaxed release (the printed RandWalk-mod, Mixture over "
            "it) has multigraph worlds, measured so by `graphveil evaluate`: each is written as that "
            "multigraph, one line per edge, every parallel copy and every self-loop (u u) kept "
            "(header '# graphveil edgelist ... multigraph=yes'; networkx's read_edgelist with "
            "create_using=MultiGraph reads it so)."
        ),
    )
    parser.add_argument(
        "published",
        metavar="PUBLISHED",
        help=f"the uncertain graph ({usual_suffixes('uncertain', readable=True)})",
    )
    parser.add_argument("-n", "--count", type=int, default=1, help="worlds to draw (default 1)")
    parser.add_argument(
        "-o", "--output", "--out", dest="output", metavar="DIR", required=True, help="output folder"
    )
    parser.add_argument(
        "--suffix",
        default=".txt",
        help=f"file suffix: {', '.join(FORMATS['edgelist'].all_suffixes())}",
    )
    add_seed_argument(parser, "the possible worlds drawn")
    parser.add_argument(
        "--keep-ids",
        action="store_true",
        help="write the file's ids as they are even when they are the true ids",
    )
    add_record_argument(parser)
    add_directed_argument(
        parser,
        "a plain u v p TSV without header",
        also="; a release's header says its direction, and --directed then only checks it",
    )
    add_threads_argument(parser)
    add_json_argument(parser, "the paths written")
    add_verbosity(parser)
    parser.set_defaults(run=_run_sample)


def _check_folder(out: Path) -> None:
    """Fail, creating nothing, if ``out`` cannot be (or be made) a folder to write in."""
    existing = out
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise NotADirectoryError(f"cannot write into {out}: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write into {out}: permission denied on {existing}")


@contextlib.contextmanager
def _new_folder(out: Path) -> Iterator[None]:
    """Create ``out`` (and its parents) for the block; if the block fails, remove what it made.

    Only folders this call created, and only while empty: a failed ``sample`` leaves no empty
    output folder behind, and never touches one that was there.
    """
    made = []
    for folder in [out, *out.parents]:
        if folder.exists():
            break
        made.append(folder)
    out.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        for folder in made:  # deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _run_sample(args: argparse.Namespace) -> int:
    from graphveil._checks import MAX_SAMPLES, check_threads
    from graphveil._common import atomic_group
    from graphveil._pairs import check_world_memory
    from graphveil._seeds import seed_to_u64
    from graphveil.io import write_edgelist
    from graphveil.record import RunRecord, release_digest

    if not 1 <= args.count <= MAX_SAMPLES:
        raise ValueError(f"-n/--count must lie in 1..{MAX_SAMPLES}, got {args.count}")
    suffixes = FORMATS["edgelist"].all_suffixes()
    if args.suffix not in suffixes:
        raise ValueError(
            f"--suffix must be {', '.join(suffixes[:-1])} or {suffixes[-1]}, got {args.suffix!r}"
        )
    out = Path(args.output)
    _check_folder(out)
    check_outputs(args.record, args.json, inputs=release_inputs(args.published))
    ug = read_published(args.published, args.directed)
    permute = not ug.ids_permuted and not args.keep_ids
    # the worlds (and a permutation of the ids) must fit in memory: refused before any of it
    extra = 16 * (ug.n + 1) if permute else 0
    check_world_memory(ug, args.count, check_threads(args.threads), extra)
    # Every input checked: only now may the folder be created.
    with _new_folder(out):
        width = len(str(args.count - 1))
        paths = [out / f"world-{i:0{width}d}{args.suffix}" for i in range(args.count)]
        check_outputs(*paths, args.record, args.json, inputs=release_inputs(args.published))
        source = release_digest(ug.n, ug.u, ug.v, ug.p)
        perm = None
        if permute:
            ug, perm = ug.with_permuted_ids()
        seed = seed_to_u64(args.seed)
        multigraph = ug.relaxed and not ug.directed  # the worlds evaluate measures: loops, copies
        if multigraph:
            worlds: list[Any] = [
                ug.sample_multigraph(seed, index=i, threads=args.threads) for i in range(args.count)
            ]
        else:
            drawn = ug.sample(args.count, seed, threads=args.threads)
            assert isinstance(drawn, list)  # a count was given
            worlds = drawn
        releases: list[dict[str, str]] = []
        with atomic_group():  # the worlds and their record: all in place, or none
            for world, path in zip(worlds, paths):
                rec = write_edgelist(world, path, keep_ids=True, threads=args.threads)
                releases += rec.releases
            record = RunRecord(
                perm,
                {
                    "command": "sample",
                    "source": source,
                    "seed": seed,
                    "count": args.count,
                    "multigraph": multigraph,
                },
                releases,
            )
            if args.record:
                record.save(args.record)
    kind = "public (permuted) ids" if ug.ids_permuted else "the true ids (--keep-ids)"
    write_json(
        args.json,
        {
            "worlds": [str(p) for p in paths],
            "ids_permuted": ug.ids_permuted,
            "multigraph": multigraph,
        },
    )
    if not json_to_stdout(args):
        what = "multigraph" if multigraph else "simple"
        print(f"wrote {args.count} {what} world(s) to {out}/ in {kind}{_MULTIGRAPH * multigraph}")
    return 0


#: What ``sample`` adds about a relaxed release's worlds.
_MULTIGRAPH = (
    "; every parallel copy and self-loop kept, one line each, as evaluate measures them "
    "(header multigraph=yes)"
)
