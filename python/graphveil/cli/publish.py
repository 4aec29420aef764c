"""``graphveil publish``: the release that meets a privacy target with the least utility loss.

A thin shell over :func:`graphveil.publish`: the graph and the target in, the release
(``-o``) and, on request, the private run record with the search's audit (``--record``) and the
private report (``--report``) out. The terminal shows only what the release shows (the scheme,
its parameters, n and the published pairs); progress lines name the values tried, never a
measured score (the print policy). A target no allowed scheme reaches exits 2 and writes no
release.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from graphveil.cli._common import (
    add_graph_argument,
    add_json_argument,
    add_record_argument,
    add_seed_argument,
    add_threads_argument,
    add_verbosity,
    check_outputs,
    graph_inputs,
    json_to_stdout,
    load_graph,
    write_json,
)
from graphveil.io.formats import usual_suffixes


def add_publish(subparsers: Any) -> None:
    """Register ``graphveil publish``."""
    parser = subparsers.add_parser(
        "publish",
        help="publish a graph at a privacy target: the release with the least utility loss",
        description=(
            "Search the allowed schemes' knobs for the release that meets every bound of --target "
            "(bounds on the privacy scores of `graphveil scores`, e.g. reid<=0.05,edge_eps<=2), "
            "each score read at its one-sided confidence bound over --repeats releases, and "
            "publish the one with the least utility loss (--objective). Writes the release (-o) "
            "and, on request, the private run record with the audit (--record) and the private "
            "report (--report). Exit status 2 and nothing written when no allowed scheme reaches "
            "the target. See docs/publish.rst."
        ),
    )
    add_graph_argument(parser)
    parser.add_argument(
        "--target", required=True, metavar="BOUNDS", help="bounds joined by commas: reid<=0.05"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", required=True,
        help=f"the release ({usual_suffixes('uncertain')})",
    )  # fmt: skip
    add_record_argument(parser)
    parser.add_argument(
        "--report", metavar="FILE",
        help="write the private report (every value tried, scores, why the winner won), mode 0600",
    )  # fmt: skip
    parser.add_argument(
        "--objective", default="rel_err",
        help="utility loss to minimise: rel_err (default), analyst, or one statistic's name",
    )  # fmt: skip
    parser.add_argument(
        "--schemes", metavar="NAMES",
        help="comma-separated schemes allowed (default: every scheme with a knob)",
    )  # fmt: skip
    parser.add_argument("--confidence", type=float, default=0.95, help="default 0.95")
    parser.add_argument("--repeats", type=int, default=3, help="releases per value (default 3)")
    parser.add_argument("--samples", type=int, default=3, help="worlds per release (default 3)")
    parser.add_argument("--steps", type=int, default=4, help="bisection steps (default 4)")
    parser.add_argument("--max-minutes", type=float, help="time budget of the search")
    parser.add_argument(
        "--keep-ids", action="store_true",
        help="write the true node ids (default: a random permutation, kept in --record)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-identity", action="store_true",
        help="also consider values that publish G0 unchanged",
    )  # fmt: skip
    add_seed_argument(parser, "the search and the release")
    add_threads_argument(parser)
    add_verbosity(parser)
    add_json_argument(parser, "the public summary")
    parser.set_defaults(run=_run_publish)


def _run_publish(args: argparse.Namespace) -> int:
    from graphveil.io import FORMATS, release_format
    from graphveil.publishing import Unreachable, parse_target, publish

    bounds = parse_target(args.target)  # one line before any work
    fmt = FORMATS[release_format(args.output)]
    outputs = [args.output, *fmt.files(args.output)[1:], args.record, args.report, args.json]
    check_outputs(*outputs, inputs=graph_inputs(args))
    graph = load_graph(args)
    schemes = None if args.schemes is None else [s.strip() for s in args.schemes.split(",")]
    terminal = not args.quiet and sys.stderr.isatty()
    try:
        pub = publish(
            graph, [str(b).replace(" ", "") for b in bounds], objective=args.objective,
            schemes=schemes, confidence=args.confidence, repeats=args.repeats,
            samples=args.samples, steps=args.steps, seed=args.seed, threads=args.threads,
            max_minutes=args.max_minutes, allow_identity=args.allow_identity,
            progress=_progress if terminal else None,
        )  # fmt: skip
    except Unreachable as err:
        if args.report:
            _write_private(args.report, _failed_report(err))
        raise ValueError(str(err)) from None
    pub.save(args.output, record=args.record, keep_ids=args.keep_ids)
    if args.report:
        _write_private(args.report, pub.report() + "\n")
    shown = {
        "scheme": pub.release.meta["scheme"],
        "params": pub.release.meta["params"],
        "n": pub.release.n,
        "pairs": pub.release.num_pairs,
        "target": [str(b) for b in bounds],
    }
    write_json(args.json, shown)
    if not json_to_stdout(args):
        print(
            f"published {shown['scheme']} to {args.output}: {shown['pairs']:,} pairs on {shown['n']:,} nodes"
        )
        print("params: " + ", ".join(f"{k}={v}" for k, v in shown["params"].items()))
        print(f"meets: {', '.join(shown['target'])}")
        where = [f for f in (args.record, args.report) if f]
        print(
            "private, not shown: the candidates, their measured scores, the margin and the "
            + (
                f"seeds (in {' and '.join(where)}: never publish them)"
                if where
                else "seeds (give --record / --report FILE to keep them)"
            )
        )
    return 0


def _progress(line: str) -> None:
    """A progress line on the terminal: the value tried and its time, never a score."""
    print(f"graphveil publish: {line}", file=sys.stderr, flush=True)


def _failed_report(err: Any) -> str:
    from graphveil.publishing import Candidate

    lines = ["PRIVATE: measured on the true graph; never publish this report.", str(err)]
    for c in err.candidates:
        assert isinstance(c, Candidate)
        if c.reason:
            lines.append(f"  {c.label}: not applicable: {c.reason}")
            continue
        scores = ", ".join(f"{k} {m:.4g} (bound {u:.4g})" for k, (m, u) in c.interval.items())
        lines.append(f"  {c.label}: {scores}; utility {c.utility_mean:.4g}; {c.seconds:.1f} s")
    return "\n".join(lines) + "\n"


def _write_private(path: str, text: str) -> None:
    from graphveil._common import atomic_path

    with atomic_path(path, private=True) as tmp:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
