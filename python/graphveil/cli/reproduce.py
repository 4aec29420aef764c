"""``graphveil reproduce``: the paper's study on one graph (see :mod:`graphveil.experiments`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from graphveil import experiments as ex
from graphveil.anonymize import partitioners, registry
from graphveil.cli._common import (
    add_directed_argument,
    add_header_argument,
    add_json_argument,
    add_scoring_argument,
    add_seed_argument,
    add_threads_argument,
    add_verbosity,
    check_outputs,
    graph_inputs,
    json_to_stdout,
    load_graph,
    require_extras,
    write_json,
)
from graphveil.cli.anonymize import ALLOW_IDENTITY
from graphveil.experiments.config import StudyConfig, format_value
from graphveil.measure.utility import DISTANCE_SOURCES


def add_reproduce(subparsers: Any) -> None:
    """Register ``graphveil reproduce``."""
    parser = subparsers.add_parser(
        "reproduce",
        help="run the paper's whole study on a graph: tables and figures",
        description=(
            "Run every scheme of the paper over its grid on one graph (default: the embedded ca-GrQc), "
            "evaluate each grid point on possible worlds, and write the paper's tables (Markdown, CSV, "
            "JSON) and figures (PNG) to an output folder. Finished grid points are recorded there, so "
            "an interrupted run resumes where it stopped."
        ),
        epilog=(
            "examples:\n"
            "  graphveil reproduce                                   the embedded dataset, full grid\n"
            "  graphveil reproduce edges.txt.gz -o out --samples 5\n"
            "  graphveil reproduce --dataset web-NotreDame --data-dir ../shared/data\n"
            "  graphveil reproduce --dataset soc-Epinions1 --directed   a directed study\n"
            "  graphveil reproduce --schemes maxvar randwalk_mod --grid maxvar=0.19,0.57\n"
            "  graphveil reproduce --family uncertainty dp           the paper's study and edge DP\n"
            "  graphveil reproduce --schemes tmf edgeflip maxvar obfuscation\n"
            f"schemes: {', '.join(registry.names())} (default: the paper's study, family "
            f"uncertainty: {', '.join(registry.names(family='uncertainty'))}; the edge-DP "
            f"family dp: {', '.join(registry.names(family='dp'))}, only when asked for); "
            "default grid: "
            + "; ".join(
                f"{r.name} {r.grid_parameter} in {{{', '.join(map(format_value, r.default_grid))}}}"
                for r in registry.REGISTRY.values()
            )
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_input_options(parser)
    _add_grid_options(parser)
    _add_run_options(parser)
    parser.set_defaults(run=run_reproduce)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    """The graph to study and the output folder."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "graph", nargs="?", metavar="GRAPH", help="edge-list file (default: --dataset ca-GrQc)"
    )
    group.add_argument(
        "--dataset", metavar="NAME", help="a registered dataset (see `graphveil datasets list`)"
    )
    parser.add_argument(
        "--data-dir", action="append", metavar="DIR", help="folder searched for --dataset files"
    )
    add_header_argument(parser)
    add_directed_argument(
        parser,
        also=", and study it: only the schemes with a directed form run, on the directed "
        "statistics (see docs/directed.rst)",
    )
    parser.add_argument(
        "-o",
        "--output",
        "--out",
        dest="output",
        metavar="DIR",
        help="output folder (default: graphveil-out/<graph name>)",
    )


def _add_grid_options(parser: argparse.ArgumentParser) -> None:
    """The schemes, their grid and the study's settings."""
    parser.add_argument(
        "--schemes",
        nargs="+",
        metavar="SCHEME",
        help="schemes to run, or 'all' (default: the paper's study, family uncertainty; the "
        "edge-DP schemes run only when named or with --family dp)",
    )
    parser.add_argument(
        "--family",
        nargs="+",
        choices=registry.FAMILIES,
        help="run every scheme of these families (with --schemes: both)",
    )
    parser.add_argument(
        "--grid",
        action="append",
        metavar="SCHEME=V1,V2",
        help="grid values of one scheme, e.g. maxvar=0.19,0.57 (repeatable)",
    )
    parser.add_argument(
        "--samples", type=int, default=20, help="possible worlds per grid point (default 20)"
    )
    # A fixed default (StudyConfig's): the study's tables repeat run after run.
    add_seed_argument(parser, "the study (its master seed)", default=StudyConfig.seed, secret=False)
    parser.add_argument(
        "--distance-sources",
        type=int,
        default=DISTANCE_SOURCES,
        metavar="N",
        help=f"BFS sources of the distance statistics above 10,000 nodes (default "
        f"{DISTANCE_SOURCES}; error ~ 1/sqrt(N), time ~ N)",
    )
    parser.add_argument(
        "--k", type=int, nargs="+", default=[30, 50, 100], help="k of the eps columns"
    )
    parser.add_argument(
        "--maxvar-parts",
        type=int,
        metavar="N",
        help="MaxVar's parts (default: the paper's count for its datasets, 20 for com-dblp and "
        "com-amazon and 60 for com-youtube; max(1, round(n / 16000)) for any other graph)",
    )
    parser.add_argument(
        "--partitioner",
        choices=partitioners.names(),
        default=partitioners.DEFAULT,
        help=f"what splits G0 into MaxVar's parts (default {partitioners.DEFAULT})",
    )


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """How the study runs (threads, resume, a cluster) and what it writes."""
    add_threads_argument(parser, "--jobs")
    parser.add_argument(
        "--no-resume", action="store_true", help="recompute points already recorded in --out"
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="let --out hold another graph's study: its tables, figures and points are removed "
        "first (without it such a folder is refused)",
    )
    parser.add_argument(
        ALLOW_IDENTITY,
        action="store_true",
        help="run grid values that leave G0 unchanged or publish only true edges, and measure "
        "a point whose release is G0 itself (baseline rows; without it such a point is not "
        "applicable)",
    )
    parser.add_argument(
        "--no-figures", action="store_true", help="write tables only (no matplotlib needed)"
    )
    parser.add_argument(
        "--no-attacks",
        action="store_true",
        help="skip the link-inference and propagation attacks on each release",
    )
    parser.add_argument(
        "--analyst",
        action="store_true",
        help="also measure the analyst statistics (communities, central nodes, spread, PGB's "
        "queries) on G0 and every sample: their own table and mean error, and the win counts "
        'in study.md (costly on large graphs; undirected only; pip install "graphveil[analyst]")',
    )
    add_scoring_argument(parser, study=True)
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address, or local:N for N local workers "
        '(needs pip install "graphveil[dask]")',
    )
    add_json_argument(parser, "the study")
    add_verbosity(parser)


def _parse_grid(items: list[str] | None) -> dict[str, list[float]]:
    grid: dict[str, list[float]] = {}
    for item in items or []:
        scheme, sep, values = item.partition("=")
        if not sep or not values.strip():
            raise ValueError(f"--grid wants SCHEME=V1,V2,..., got {item!r}")
        try:
            grid[scheme.strip()] = [float(v) for v in values.split(",")]
        except ValueError:
            raise ValueError(
                f"--grid {item!r}: values must be numbers separated by commas"
            ) from None
    return grid


def _schemes(named: list[str] | None, families: list[str] | None) -> list[str] | None:
    """The schemes ``--schemes`` (``all``: every one) and ``--family`` ask for; None: the default."""
    if named is None and families is None:
        return None
    chosen = list(registry.names()) if named is not None and "all" in named else list(named or [])
    for family in families or []:
        chosen += registry.names(family=family)
    return list(dict.fromkeys(chosen))


def run_reproduce(args: argparse.Namespace) -> int:
    """Run the study the arguments describe; print its comparison table."""
    from graphveil import datasets

    check_outputs(args.json, inputs=graph_inputs(args))
    grid = _parse_grid(args.grid)
    schemes = _schemes(args.schemes, args.family)
    _refuse_no_op(ex.paper_grid(schemes, grid), args.allow_identity)
    needs = {} if args.no_figures else {"matplotlib": "figures (leave them out with --no-figures)"}
    if args.scheduler:
        needs["distributed"] = "--scheduler"
    require_extras(needs)
    if args.graph is not None:
        name = Path(args.graph).name.split(".")[0]
    else:
        args.dataset = name = args.dataset or datasets.DEFAULT
    graph = load_graph(args)
    if args.graph is None and args.maxvar_parts is None:  # the paper's count for its graphs
        args.maxvar_parts = datasets.info(args.dataset).maxvar_parts
    folder = f"{name}-directed" if args.directed else name  # beside the undirected study
    out = Path(args.output) if args.output else Path("graphveil-out") / folder
    with _executor(args.scheduler) as pool:
        study = _run(args, graph, name, schemes, grid, out, pool)
    write_json(args.json, study.to_json())
    if json_to_stdout(args):
        return 0
    print(study.to_markdown())
    print(f"tables and figures in {out}/ ({study.timings['total_s']:.1f} s)")
    return 0


def _refuse_no_op(points: list[ex.GridPoint], allowed: bool) -> None:
    """Refuse grid values that publish G0 unchanged or only true edges, unless ``--allow-identity``.

    The rule is the scheme's registry record's; the study would report such a row as an
    anonymization.
    """
    if allowed:
        return
    for point in points:
        record = registry.scheme(point.scheme)
        reason = record.no_op_reason({record.grid_parameter: point.value})
        if reason is not None:
            raise ValueError(
                f"--grid {point.scheme}={format_value(point.value)}: {reason}; drop the value, "
                f"or add {ALLOW_IDENTITY} to run it as a baseline row"
            )


def _executor(scheduler: str | None) -> Any:
    import contextlib

    from graphveil.cluster import executor_for

    if not scheduler:
        return contextlib.nullcontext()
    return executor_for(scheduler)  # Dask checked before any work (require_extras)


def _run(args: Any, graph: Any, name: str, schemes: Any, grid: Any, out: Path, pool: Any) -> Any:
    try:
        return _study(args, graph, name, schemes, grid, out, pool)
    except ValueError as err:  # the API's words for the folder check, in the command's
        text = str(err).replace(
            "a new folder, or overwrite=True", "a new folder (-o), or --overwrite"
        )
        raise ValueError(text) from None


def _study(args: Any, graph: Any, name: str, schemes: Any, grid: Any, out: Path, pool: Any) -> Any:
    config = StudyConfig(
        samples=args.samples,
        seed=args.seed,
        k=args.k,
        threads=args.threads,
        maxvar_parts=args.maxvar_parts,
        partitioner=args.partitioner,
        attacks=not args.no_attacks,
        distance_sources=args.distance_sources,
        scoring=args.scoring,
        allow_identity=args.allow_identity,
        analyst=args.analyst,
    )
    return ex.reproduce(
        graph,
        config,
        graph_name=name,
        schemes=schemes,
        grid=grid,
        out_dir=out,
        resume=not args.no_resume,
        overwrite=args.overwrite,
        executor=pool,
        progress=not args.quiet,
        figures=not args.no_figures,
    )
