"""``graphveil anonymize <scheme>``: the schemes on the command line.

Kept apart from :mod:`graphveil.cli` so each scheme's pair of functions (``_add_<scheme>``,
``_run_<scheme>``) can be added without touching the others. :func:`add_anonymize` creates the
``anonymize`` command; every function in :data:`SCHEME_COMMANDS` adds one scheme under it
(MaxVar appends its own).

Common options of every scheme: the input graph (edge-list path or ``--dataset``), ``--seed``,
``-o/--output`` (``.npz`` or ``.tsv[.gz]``: the release, node ids randomly permuted unless
``--keep-ids``), ``--record`` (the private run record: seed, permutation, report; mode 0600,
never to be published), ``--threads``, ``--quiet`` (no progress), ``--json`` (the report as one
JSON object). The report is printed on stdout without the seed; progress goes to stderr. Output
paths are checked before the graph is read.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from graphveil.anonymize import registry
from graphveil.anonymize._result import Anonymized
from graphveil.cli._common import (
    RECORD_HELP,
    SEED_HELP,
    add_graph_argument,
    add_json_argument,
    add_verbosity,
    check_outputs,
    finite,
    json_to_stdout,
    load_graph,
    show_progress,
    write_json,
)


def _load(args: argparse.Namespace) -> Any:
    """Check the outputs (before any work), then read the input graph."""
    from graphveil.uncertain import _format_of

    if args.output:
        _format_of(args.output, None)
    if args.record and not args.output:
        raise ValueError("--record FILE keeps the private side of a release: give -o/--output too")
    check_outputs(args.output, args.record, args.json)
    return load_graph(args)


def _common(parser: argparse.ArgumentParser, *, seeded: bool = True, threaded: bool = True) -> None:
    add_graph_argument(parser)
    if seeded:
        parser.add_argument("--seed", type=int, default=None, help=SEED_HELP)
    if threaded:
        parser.add_argument(
            "--threads",
            type=int,
            default=0,
            help="worker threads (0: all cores); output does not depend on it",
        )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write the uncertain graph (.npz, .tsv, .tsv.gz)"
    )
    parser.add_argument(
        "--keep-ids",
        action="store_true",
        help="write the true node ids (default: a random permutation, kept in --record)",
    )
    parser.add_argument("--record", metavar="FILE", help=RECORD_HELP)
    add_verbosity(parser)
    add_json_argument(parser, "the report")


#: API keywords that scheme messages suggest, and the options that set them on the command line.
CLI_OPTIONS = {
    "allow_fewer=True": "--allow-fewer",
    "n_potential": "--n-potential",
    "keep_ids=True": "--keep-ids",
}


def permutation_seed(seed: int | None) -> int | None:
    """The id permutation's seed for a command run with ``--seed``: its own stream of that seed.

    The same command and seed then write the same bytes; without ``--seed`` both the scheme and
    the permutation draw fresh entropy.
    """
    if seed is None:
        return None
    return int(np.random.SeedSequence([seed, 0x9E_17]).generate_state(1, dtype=np.uint64)[0])


def cli_words(message: str) -> str:
    """A scheme's message with every API keyword it suggests replaced by its CLI option."""
    for keyword, option in CLI_OPTIONS.items():
        message = message.replace(keyword, option)
    return message


def _progress(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(f"graphveil anonymize: {text}", file=sys.stderr, flush=True)


def _finish(args: argparse.Namespace, result: Anonymized) -> int:
    ug, report = result
    if args.output:
        ug.save(
            args.output,
            keep_ids=args.keep_ids,
            seed=permutation_seed(getattr(args, "seed", None)),
            record=args.record,
        )
        _progress(args, f"wrote {ug.num_pairs:,} pairs to {args.output}")
        if args.record:
            _progress(args, f"wrote the private run record to {args.record}: never publish it")
    # The seed regenerates the noise: it goes to --record only, never to the terminal or logs.
    report = {k: v for k, v in report.items() if k != "seed"}
    write_json(args.json, finite(report))
    if not json_to_stdout(args):
        _print_report(report)
    return 0


def _print_report(report: dict[str, Any]) -> None:
    rows: list[tuple[str, str]] = []
    for key, value in report.items():
        if key == "history":
            for h in value:
                hats = ", ".join(f"{x:.4g}" for x in h["eps_hat"])
                rows.append(
                    (
                        "sigma tried",
                        f"{h['sigma']:.6g}  {'ok  ' if h['success'] else 'fail'}  eps-hat [{hats}]",
                    )
                )
        elif key == "part_reports":
            rows.append(("parts run", str(len(value))))
        elif key == "timings":
            rows.append(("timings (s)", ", ".join(f"{k} {v:.3f}" for k, v in value.items())))
        elif isinstance(value, dict):
            rows.append((key, ", ".join(f"{k}={v}" for k, v in value.items())))
        elif isinstance(value, float):
            rows.append((key, f"{value:.6g}"))
        elif isinstance(value, int) and not isinstance(value, bool):
            rows.append((key, f"{value:,}"))
        else:
            rows.append((key, str(value)))
    width = max((len(k) for k, _ in rows), default=0)
    for key, text in rows:
        print(f"{key.replace('_', ' '):<{width}}  {text}")


# ---------------------------------------------------------------------------- obfuscation
def _add_obfuscation(sub: Any) -> None:
    p = sub.add_parser(
        "obfuscation",
        help=registry.scheme("obfuscation").summary,
        description="(k, eps)-obfuscation: search the smallest sigma (or use --sigma) whose output "
        "k-obfuscates all but an eps fraction of the nodes. Fails with exit status 2 if none does.",
    )
    _common(p)
    p.add_argument(
        "-k", type=int, required=True, help="obfuscation level k >= 1 (the paper: 30, 50, 100)"
    )
    p.add_argument("--eps", type=float, required=True, help="tolerance in [0, 1] (the paper: 0.1)")
    p.add_argument(
        "--sigma",
        type=float,
        default=None,
        help="fixed sigma (the paper's tables: 0.1, 0.01, 0.001)",
    )
    p.add_argument("-c", type=float, default=2.0, help="candidate pairs |E_C| = c m (default 2)")
    p.add_argument(
        "--white-noise",
        dest="q",
        type=float,
        default=0.01,
        help="white-noise probability q (default 0.01; was -q, which now means --quiet)",
    )
    p.add_argument("--attempts", type=int, default=5, help="attempts per sigma, t (default 5)")
    p.add_argument(
        "--tol", type=float, default=0.05, help="relative bisection tolerance (default 0.05)"
    )
    p.add_argument(
        "--sigma-max", type=float, default=16.0, help="give up above this sigma (default 16)"
    )
    p.set_defaults(run=_run_obfuscation)


def _run_obfuscation(args: argparse.Namespace) -> int:
    from graphveil.anonymize import ObfuscationError, obfuscation

    g = _load(args)
    _progress(args, f"(k, eps)-obfuscation of {g.n:,} nodes, {g.m:,} edges")
    try:
        result = obfuscation(
            g,
            args.k,
            args.eps,
            sigma=args.sigma,
            c=args.c,
            q=args.q,
            attempts=args.attempts,
            tol=args.tol,
            sigma_max=args.sigma_max,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet,  # one line per sigma, fine in a log
        )
    except ObfuscationError as err:
        raise ValueError(str(err)) from None
    return _finish(args, result)


# ---------------------------------------------------------------------------- walks
def _add_randwalk(sub: Any) -> None:
    p = sub.add_parser(
        "randwalk",
        help=registry.scheme("randwalk").summary,
        description="RandWalk(G0, t, M).",
    )
    _common(p)
    p.add_argument(
        "-t", type=int, required=True, help="walk length t >= 1 (the paper: 2, 3, 5, 10)"
    )
    p.add_argument("-M", "--max-tries", type=int, default=10, help="retry bound M (default 10)")
    p.add_argument(
        "--routing",
        choices=("random", "fixed"),
        default="random",
        help="random or SybilGuard-style fixed routing",
    )
    p.set_defaults(run=_run_randwalk)


def _run_randwalk(args: argparse.Namespace) -> int:
    from graphveil.anonymize import randwalk

    g = _load(args)
    _progress(args, f"RandWalk t={args.t} on {g.n:,} nodes, {g.m:,} edges")
    return _finish(
        args,
        randwalk(
            g,
            args.t,
            max_tries=args.max_tries,
            routing=args.routing,
            seed=args.seed,
            threads=args.threads,
        ),
    )


def _add_randwalk_mod(sub: Any) -> None:
    p = sub.add_parser(
        "randwalk_mod",
        help=registry.scheme("randwalk_mod").summary,
        description="RandWalk-mod(G0, t, alpha): the authors' retrying walk (default: no self-loops "
        "or duplicates), --variant printed for Algorithm 2 as printed (self-loops and multi-edges "
        "kept), or with --uncertain the printed variant's exact uncertain adjacency matrix (small t).",
    )
    _common(p)
    p.add_argument("-t", type=int, required=True, help="walk length t >= 1")
    p.add_argument(
        "--alpha", type=float, default=0.5, help="in [0, 1]; 0.5 keeps expected degrees (default)"
    )
    p.add_argument(
        "--routing",
        choices=("random", "fixed"),
        default="random",
        help="random or SybilGuard-style fixed routing",
    )
    p.add_argument(
        "--variant",
        choices=("retry", "printed"),
        default="retry",
        help="retry: as the authors ran it (default); printed: Algorithm 2, no retries",
    )
    p.add_argument(
        "-M",
        "--max-tries",
        type=int,
        default=None,
        help="retry bound M of the retry variant (default 10)",
    )
    p.add_argument(
        "--uncertain",
        action="store_true",
        help="the exact matrix Q P^(t-1) + its transpose instead of a sample",
    )
    p.set_defaults(run=_run_randwalk_mod)


def _run_randwalk_mod(args: argparse.Namespace) -> int:
    from graphveil.anonymize import randwalk_mod, randwalk_mod_uncertain

    g = _load(args)
    _progress(args, f"RandWalk-mod t={args.t} alpha={args.alpha} on {g.n:,} nodes, {g.m:,} edges")
    if args.uncertain:
        return _finish(args, randwalk_mod_uncertain(g, args.t, alpha=args.alpha))
    return _finish(
        args,
        randwalk_mod(
            g,
            args.t,
            alpha=args.alpha,
            variant=args.variant,
            max_tries=args.max_tries,
            routing=args.routing,
            seed=args.seed,
            threads=args.threads,
        ),
    )


# ---------------------------------------------------------------------------- switch, mixture, partition
def _add_switch(sub: Any) -> None:
    p = sub.add_parser(
        "edge_switch",
        help=registry.scheme("edge_switch").summary,
        description="EdgeSwitch.",
    )
    _common(p, threaded=False)
    p.add_argument(
        "-s", "--switches", type=int, required=True, help="number of attempted switches s >= 0"
    )
    p.add_argument(
        "--nearby",
        action="store_true",
        help="switch along 3-paths: new edges join nodes at distance 2",
    )
    p.set_defaults(run=_run_switch)


def _run_switch(args: argparse.Namespace) -> int:
    from graphveil.anonymize import edge_switch

    g = _load(args)
    _progress(args, f"EdgeSwitch s={args.switches:,} on {g.n:,} nodes, {g.m:,} edges")
    return _finish(args, edge_switch(g, args.switches, nearby=args.nearby, seed=args.seed))


def _add_mixture(sub: Any) -> None:
    p = sub.add_parser(
        "mixture",
        help=registry.scheme("mixture").summary,
        description="Mixture of the true graph G0 and an anonymized G on the same node ids: an edge "
        "list, or an uncertain graph written with --keep-ids.",
    )
    _common(p, seeded=False, threaded=False)
    p.add_argument(
        "--anonymized",
        required=True,
        metavar="FILE",
        help="G: .npz/.tsv uncertain graph (same ids) or an edge list",
    )
    p.add_argument("-p", type=float, required=True, help="mixing weight in [0, 1]")
    p.set_defaults(run=_run_mixture)


def _run_mixture(args: argparse.Namespace) -> int:
    from graphveil.anonymize import mixture
    from graphveil.graph import Graph
    from graphveil.uncertain import UncertainGraph

    g0 = _load(args)
    path = args.anonymized
    g: UncertainGraph | Graph
    if path.endswith((".npz", ".tsv", ".tsv.gz", ".tsv.bz2", ".tsv.xz")):
        g = UncertainGraph.load(path)
        if g.ids_permuted:
            raise ValueError(
                f"{path} was written with permuted node ids; write it again with --keep-ids"
            )
    else:
        from graphveil.io import read_edgelist

        g = read_edgelist(path)
    return _finish(args, mixture(g0, g, args.p))


def _add_partition(sub: Any) -> None:
    p = sub.add_parser(
        "partition",
        help="any scheme on METIS parts, cut edges kept",
        description="Partition: split with METIS, run --scheme on every part with --params, copy cut edges at p = 1.",
    )
    _common(p, threaded=False)
    p.add_argument("--parts", type=int, required=True, help="number of METIS parts")
    p.add_argument(
        "--scheme",
        required=True,
        metavar="SCHEME",
        help=f"one of {', '.join(registry.partitionable())}",
    )
    p.add_argument(
        "--params",
        default="{}",
        metavar="JSON",
        help='keyword arguments of the scheme per part, e.g. \'{"t": 5}\' or \'{"k": 20, "eps": 0.1, "sigma": 0.01}\'',
    )
    p.set_defaults(run=_run_partition)


def _run_partition(args: argparse.Namespace) -> int:
    from graphveil.anonymize import partition

    try:
        params = json.loads(args.params)
    except json.JSONDecodeError as err:
        raise ValueError(f"--params must be a JSON object: {err}") from None
    if not isinstance(params, dict):
        raise ValueError("--params must be a JSON object of keyword arguments")  # noqa: TRY004
    record, deprecated = registry.resolve(args.scheme)
    if not record.partitionable:
        raise ValueError(
            f"Partition cannot run {record.name}; choose one of {', '.join(registry.partitionable())}"
        )
    if deprecated:
        print(
            f"graphveil: warning: --scheme {args.scheme} is deprecated; use --scheme {record.name}",
            file=sys.stderr,
        )
    args.scheme = record.name
    g = _load(args)
    _progress(args, f"Partition into {args.parts} parts, {args.scheme} on each")
    try:
        result = partition(args.scheme, g, args.parts, seed=args.seed, **params)
    except RuntimeError as err:  # ObfuscationError of a part
        raise ValueError(str(err)) from None
    return _finish(args, result)


#: One function per scheme, each adding its parser under ``graphveil anonymize``.


# ---------------------------------------------------------------------------- maxvar
def _add_maxvar(sub: Any) -> None:
    p = sub.add_parser(
        "maxvar",
        help=registry.scheme("maxvar").summary,
        description="MaxVar: METIS parts, friend-of-friend potential edges in every part, one quadratic "
        "program per part (minimise sum p^2 with every expected degree kept); cut edges keep p = 1. "
        "Shows a progress bar per phase on stderr and prints the report, with one line per part.",
    )
    _common(p)
    p.add_argument(
        "--n-potential",
        type=int,
        required=True,
        metavar="N_P",
        help="potential edges in total, n_p (the paper: 200000 ... 1000000; youtube 600000 ...)",
    )
    p.add_argument(
        "--parts",
        type=int,
        default=20,
        help="METIS parts (default 20; the paper: 20, youtube 60; 1 = whole graph)",
    )
    p.add_argument(
        "--solver",
        choices=("dual", "osqp"),
        default="dual",
        help="QP backend: the exact dual solver (default, fastest) or OSQP",
    )
    p.add_argument(
        "--allow-fewer",
        action="store_true",
        help="accept fewer potential edges when a part cannot supply its share",
    )
    p.set_defaults(run=_run_maxvar)


def _run_maxvar(args: argparse.Namespace) -> int:
    from graphveil.anonymize import maxvar

    g = _load(args)
    _progress(
        args,
        f"MaxVar on {g.n:,} nodes, {g.m:,} edges: n_p={args.n_potential:,}, {args.parts} parts, "
        f"{args.solver} solver",
    )
    try:
        ug, report = maxvar(
            g,
            args.n_potential,
            parts=args.parts,
            seed=args.seed,
            solver=args.solver,
            threads=args.threads,
            allow_fewer=args.allow_fewer,
            progress=show_progress(args),
        )
    except ValueError as err:
        raise ValueError("MaxVar: " + cli_words(str(err))) from None
    per_part = (
        "labels",
        "solver_stats",
        "potential_requested",
        "potential_proposed",
        "proposal_attempts",
        "potential_available",
    )
    if args.json is not None:
        return _finish(args, Anonymized(ug, {k: v for k, v in report.items() if k != "labels"}))
    _finish(args, Anonymized(ug, {k: v for k, v in report.items() if k not in per_part}))
    print()
    print(
        f"{'part':>5} {'nodes':>9} {'edges':>10} {'potential':>10} {'newton/iter':>11} {'eq resid':>9} "
        f"{'box':>4} {'objective':>13} {'seconds':>8}"
    )
    for s, proposed in zip(report["solver_stats"], report["potential_proposed"]):
        print(
            f"{s['part']:>5} {s['nodes']:>9,} {s['edges']:>10,} {proposed:>10,} {s['iterations']:>11,} "
            f"{s['eq_residual']:>9.1e} {s['box_residual']:>4.0g} {s['objective']:>13.6g} {s['seconds']:>8.3f}"
        )
    return 0


#: Hand-written parsers of the registered schemes, keeping their options' names and help; a
#: scheme not listed here gets one generated from its function's signature (:func:`_add_generated`).
CUSTOM: dict[str, Callable[[Any], None]] = {
    "maxvar": _add_maxvar,
    "obfuscation": _add_obfuscation,
    "randwalk": _add_randwalk,
    "randwalk_mod": _add_randwalk_mod,
    "edge_switch": _add_switch,
    "mixture": _add_mixture,
}

#: Parameters every generated scheme gets from :func:`_common`, or that make no sense on a CLI.
_HANDLED = {"seed", "threads", "progress", "executor"}


def _add_generated(sub: Any, record: registry.Scheme) -> None:
    """A subcommand built from the scheme's signature: one option per keyword parameter.

    ``name: int = 3`` becomes ``--name N`` of type int with default 3; a parameter without a
    default is a required option; a ``bool`` parameter with default False becomes a flag.
    """
    signature = inspect.signature(record.function)
    params = list(signature.parameters.values())[1:]  # the first is the graph
    p = sub.add_parser(record.name, help=record.summary, description=record.summary)
    _common(
        p,
        seeded="seed" in signature.parameters,
        threaded="threads" in signature.parameters,
    )
    names = []
    for param in params:
        if param.name in _HANDLED or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        names.append(param.name)
        flag = "--" + param.name.replace("_", "-")
        default = param.default
        if default is param.empty:
            kind = _annotation_type(param.annotation)
            p.add_argument(flag, dest=param.name, type=kind, required=True, help=param.name)
        elif isinstance(default, bool):
            p.add_argument(flag, dest=param.name, action="store_true", help=param.name)
        else:
            kind = type(default) if default is not None else _annotation_type(param.annotation)
            p.add_argument(
                flag,
                dest=param.name,
                type=kind,
                default=default,
                help=f"{param.name} (default {default})",
            )
    p.set_defaults(run=lambda args: _run_generated(args, record, names))


def _annotation_type(annotation: Any) -> Callable[[str], Any]:
    # Annotations are often strings (``from __future__ import annotations``): read the first type.
    text = getattr(annotation, "__name__", str(annotation)).split("|")[0].strip()
    return {"int": int, "float": float, "str": str}.get(text, _number_or_text)


def _number_or_text(text: str) -> Any:
    """An unannotated option's value: an int if it reads as one, else a float, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _run_generated(args: argparse.Namespace, record: registry.Scheme, names: list[str]) -> int:
    g = _load(args)
    _progress(args, f"{record.title} on {g.n:,} nodes, {g.m:,} edges")
    kwargs = {name: getattr(args, name) for name in names}
    for option in ("seed", "threads"):
        if hasattr(args, option):
            kwargs[option] = getattr(args, option)
    return _finish(args, record.function(g, **kwargs))


def add_anonymize(subparsers: Any) -> None:
    """The ``anonymize`` command: one subcommand per registered scheme, then ``partition``."""
    parser = subparsers.add_parser(
        "anonymize",
        help="turn a graph into an uncertain graph with one of the schemes",
        description="Anonymize a graph. Run `graphveil anonymize SCHEME --help` for a scheme's options.",
    )
    sub = parser.add_subparsers(title="schemes", metavar="SCHEME", required=True)
    for record in registry.REGISTRY.values():
        custom = CUSTOM.get(record.name)
        if custom is not None:
            custom(sub)
        else:
            _add_generated(sub, record)
    _add_partition(sub)
