"""``graphveil anonymize <scheme>``: the schemes on the command line, generated.

:func:`add_anonymize` creates the ``anonymize`` command and one subcommand per scheme of
:data:`graphveil.anonymize.registry.REGISTRY`, then ``partition``. Each subcommand is built by
:func:`add_command` from the scheme's function: one option per keyword parameter, its type from
the annotation (a ``Literal`` gives the choices), its default from the signature, its help from
the numpydoc Parameters section; the record's :class:`~graphveil.anonymize.registry.Cli` adds
only what a signature cannot say (short options, progress, an alternative function). Nothing
here names a scheme: adding one touches its module, its kernel, its tests and the registry.

Common options of every scheme: the input graph (edge-list path or ``--dataset``), ``--seed``,
``-o/--output`` (``.npz`` or ``.tsv[.gz]``: the release, node ids randomly permuted unless
``--keep-ids``), ``--record`` (the private run record: seed, permutation, report; mode 0600,
never to be published), ``--threads``, ``-q/--quiet`` and ``-v/--verbose`` (the level of the
``graphveil`` logger, which carries the progress lines), ``--json`` (the report as one JSON
object). The report is printed on stdout without the seed; progress goes to stderr. Output
paths are checked before the graph is read.
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import re
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphveil._seeds import permutation_seed
from graphveil.anonymize import registry
from graphveil.anonymize._result import Anonymized
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
    release_inputs,
    require_extras,
    show_progress,
    write_json,
)
from graphveil.io.formats import usual_suffixes


def _load(args: argparse.Namespace, read: list[str]) -> Any:
    """Check the outputs (before any work), then read the input graph.

    ``read`` are the other files the command reads (a scheme option's, e.g. Mixture's
    ``--anonymized``): no output may name one of them, or its sidecar.
    """
    from graphveil.io import FORMATS, release_format

    fmt = FORMATS[release_format(args.output)] if args.output else None
    if fmt is not None and fmt.requires is not None:
        require_extras({fmt.requires: f"-o {args.output}"})
    if args.record and not args.output:
        raise ValueError("--record FILE keeps the private side of a release: give -o/--output too")
    outputs = [args.output, args.record, args.json]
    if fmt is not None:
        outputs += fmt.files(args.output)[1:]  # its sidecar is written too
    inputs = [*graph_inputs(args), *(f for path in read for f in release_inputs(path))]
    check_outputs(*outputs, inputs=inputs)
    return load_graph(args)


#: ``--seed`` of a scheme without randomness of its own: it still draws the id permutation.

#: The flag that lets a scheme publish G0 unchanged, or only true edges (a baseline).
ALLOW_IDENTITY = "--allow-identity"

#: How a refusal of a release that hides nothing ends: what to change.
_BASELINE = (
    "permuting the ids alone does not stop re-identification: change the parameters, or add "
    f"{ALLOW_IDENTITY} to publish it anyway as a baseline"
)


def _common(parser: argparse.ArgumentParser, *, seeded: bool = True, threaded: bool = True) -> None:
    add_graph_argument(parser)
    # Every command writes a release whose ids are permuted: --seed fixes at least that.
    add_seed_argument(parser, "the scheme's noise" if seeded else "the id permutation of -o")
    if threaded:
        add_threads_argument(parser)
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help=f"write the uncertain graph ({usual_suffixes('uncertain')})",
    )
    parser.add_argument(
        "--keep-ids",
        action="store_true",
        help="write the true node ids (default: a random permutation, kept in --record)",
    )
    add_record_argument(parser)
    add_verbosity(parser)
    add_json_argument(parser, "the report")


#: API keywords that scheme messages suggest, and the options that set them on the command line.
CLI_OPTIONS = {
    "allow_fewer=True": "--allow-fewer",
    "n_potential": "--n-potential",
    "keep_ids=True": "--keep-ids",
    "use q=1": "use --white-noise 1",
    "routing='fixed'": "--routing fixed",
    "use routing='random' on a directed graph": "drop --routing fixed with --directed",
    "nearby=True": "--nearby",
    "use nearby=False for a directed graph": "drop --nearby with --directed",
    "Graph.to_undirected() drops the arc directions": (
        "--directed reads both edge lists as arcs; a release's header says its direction"
    ),
}


def cli_words(message: str) -> str:
    """A scheme's message with every API keyword it suggests replaced by its CLI option."""
    for keyword, option in CLI_OPTIONS.items():
        message = message.replace(keyword, option)
    return message


#: The command's progress lines: INFO on the ``graphveil`` logger, shown as
#: ``graphveil anonymize: ...`` (see :func:`graphveil.cli._common.setup_logging`); ``-q`` hides them.
log = logging.getLogger("graphveil.cli.anonymize")


def _progress(args: argparse.Namespace, text: str) -> None:
    log.info(text)


def _finish(args: argparse.Namespace, name: str, result: Anonymized) -> int:
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
    # The print policy (registry.public_report): public parameters and what the release or
    # DP-noised values give; the rest (seed, true edges kept, searches on G0) is the record's.
    shown = registry.public_report(name, report)
    write_json(args.json, shown)
    if not json_to_stdout(args):
        _print_report(shown)
        private = [key.replace("_", " ") for key in report if key not in shown and key != "seed"]
        if private:
            where = f"in {args.record}" if args.record else "give --record FILE to keep them"
            _progress(args, f"private, not shown: {', '.join(private)} ({where})")
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


# ---------------------------------------------------------------------------- the generator
@dataclass(frozen=True)
class Option:
    """One keyword parameter of a scheme as a command-line option."""

    name: str
    #: The option as the progress line names it: its long spelling without dashes.
    label: str
    #: Its default (``inspect.Parameter.empty`` if required): the progress line shows other values.
    default: Any
    #: Reads the option's text after the graph is loaded (a file; given ``--directed``), or None.
    read: Callable[[str, bool], Any] | None = None


@dataclass(frozen=True)
class Command:
    """A generated subcommand: the function it runs and what its options are."""

    name: str
    title: str
    function: Callable[..., Anonymized]
    cli: registry.Cli
    graph: str
    options: tuple[Option, ...]
    params: bool  # ``**kwargs``: given as ``--params JSON``
    #: Whether the function takes ``seed`` (else ``--seed`` seeds the id permutation only).
    seeded: bool = True
    #: The scheme's no-op rule (:attr:`~graphveil.anonymize.registry.Scheme.no_op`), or None.
    no_op: Callable[[dict[str, Any]], str | None] | None = None


def add_command(
    sub: Any,
    name: str,
    function: Callable[..., Anonymized],
    *,
    title: str,
    summary: str,
    cli: registry.Cli,
    no_op: Callable[[dict[str, Any]], str | None] | None = None,
) -> argparse.ArgumentParser:
    """Add ``graphveil anonymize <name>``, its options generated from ``function``'s signature.

    ``name: int = 3`` becomes ``--name N`` of type int with default 3 (``-n`` if the name has
    one letter); a parameter without a default is a required option; a ``bool`` with default
    False is a flag; a ``Literal`` annotation (or ``cli.choices``) gives the choices; the help
    is the parameter's text in the docstring's Parameters section. ``**kwargs`` becomes
    ``--params JSON``. Parameters of types a command line cannot give (an executor, a dict of
    options) are left off when they have a default. Every command gets ``--allow-identity``:
    without it, a release that is G0 itself is refused (the rule on the output,
    :func:`~graphveil.anonymize.registry.identity_reason`), and so are, before any work,
    parameters that publish G0 unchanged or only true edges (the ``no_op`` rule, or the inner
    scheme's).
    """
    registry.check_cli(name, function, cli)  # a scheme's record did at its definition
    signature = inspect.signature(function)
    docs = parameter_docs(function)
    namespace = getattr(inspect.unwrap(function), "__globals__", {})
    graph = registry.graph_parameter(function)
    p = sub.add_parser(name, help=summary, description=cli.description or summary)
    _common(p, seeded="seed" in signature.parameters, threaded="threads" in signature.parameters)
    options: list[Option] = []
    params = False
    for param in signature.parameters.values():
        handled = param.name in registry.HANDLED_PARAMETERS
        if handled or param.name == graph or param.kind is param.VAR_POSITIONAL:
            continue
        if param.kind is param.VAR_KEYWORD:
            params = True
            p.add_argument(
                "--params",
                default="{}",
                metavar="JSON",
                help="keyword arguments of the scheme, as a JSON object, e.g. '{\"t\": 5}' or "
                '\'{"k": 20, "eps": 0.1, "sigma": 0.01}\'',
            )
            continue
        option = _add_option(p, param, docs.get(param.name, param.name), cli, namespace)
        if option is not None:
            options.append(option)
    if cli.alternative is not None:
        p.add_argument(cli.alternative.flag, action="store_true", help=cli.alternative.help)
    p.add_argument(
        ALLOW_IDENTITY,
        action="store_true",
        help="publish even when the release is G0 itself or the parameters publish only true "
        "edges (a baseline: permuting the ids alone does not stop re-identification)",
    )
    seeded = "seed" in signature.parameters
    command = Command(name, title, function, cli, graph, tuple(options), params, seeded, no_op)
    p.set_defaults(run=lambda args: _run(args, command))
    return p


def _add_option(
    p: argparse.ArgumentParser,
    param: inspect.Parameter,
    text: str,
    cli: registry.Cli,
    namespace: dict[str, Any],
) -> Option | None:
    name = param.name
    flags = cli.flags_of(name)
    kind, choices = _annotation_type(param, namespace)
    choices = cli.choices.get(name, choices)
    required = param.default is param.empty
    help_text = text.replace("%", "%%")
    label, default = flags[-1].lstrip("-"), param.default
    if name == cli.inner_scheme:
        names = ", ".join(registry.partitionable())
        p.add_argument(*flags, dest=name, required=True, metavar="SCHEME", help=f"one of {names}")
        return Option(name, label, default)
    read = _READERS.get(_annotation_text(param).replace(" ", ""))
    if read is not None:
        p.add_argument(
            *flags, dest=name, required=required, metavar="FILE", help=help_text + _READ_HELP
        )
        return Option(name, label, default, read)
    if kind is None:
        if required:
            raise TypeError(f"parameter {name}: no command-line type for {param.annotation!r}")
        return None  # API only (e.g. a dict of solver options)
    metavar = cli.metavar.get(name)
    if kind is bool:
        if required or param.default:
            raise TypeError(f"parameter {name}: a bool option must default to False")
        p.add_argument(*flags, dest=name, action="store_true", help=help_text)
        return Option(name, label, default)
    if not required and param.default is not None:
        help_text += f" (default {param.default})"
    p.add_argument(
        *flags,
        dest=name,
        type=kind,
        choices=choices,
        required=required,
        default=None if required else param.default,
        metavar=metavar,
        help=help_text,
    )
    return Option(name, label, default)


def _annotation_text(param: inspect.Parameter) -> str:
    annotation = param.annotation
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")


def _annotation_type(
    param: inspect.Parameter, namespace: dict[str, Any]
) -> tuple[Callable[[str], Any] | None, tuple[Any, ...] | None]:
    """The option type of a parameter and its choices, read from its annotation.

    ``int``, ``float``, ``str``, ``bool`` and ``X | None`` of them; a ``Literal`` gives its
    values as the choices; no annotation reads a number or else the text. Anything else (or a
    name only the type checker sees): ``None``.
    String annotations are evaluated in ``namespace``, the function's module.
    """
    annotation = param.annotation
    if isinstance(annotation, str):  # ``from __future__ import annotations``
        try:
            annotation = eval(annotation, namespace)  # noqa: S307 - the package's own annotations
        except Exception:  # noqa: BLE001 - a name only the type checker imports
            return None, None
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if typing.get_origin(annotation) is typing.Literal:
        values = typing.get_args(annotation)
        return type(values[0]), values
    if annotation in (int, float, str, bool):
        return annotation, None
    if annotation is param.empty:
        return _number_or_text, None
    return None, None


def parameter_docs(function: Callable[..., Any]) -> dict[str, str]:
    """Each parameter's help: the first paragraph of its entry in the numpydoc Parameters section.

    ``a, b : float`` entries give both names the text; reST markup is reduced to plain text.

    Examples
    --------
    >>> def f(graph, k, *, tol=0.1):
    ...     \"\"\"Do f.
    ...
    ...     Parameters
    ...     ----------
    ...     graph : Graph
    ...         The graph.
    ...     k, tol : float
    ...         A ``number``,
    ...         see :func:`~graphveil.anonymize.maxvar`.
    ...
    ...         Not this paragraph.
    ...     \"\"\"
    >>> parameter_docs(f)["tol"]
    'A number, see maxvar.'
    """
    doc = inspect.getdoc(function) or ""
    match = re.search(r"^Parameters\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", doc, re.M | re.S)
    out: dict[str, str] = {}
    if match is None:
        return out
    names: list[str] = []
    lines: list[str] = []

    def flush() -> None:
        text = " ".join(" ".join(lines).split())
        for name in names:
            out[name] = _plain(text)

    for line in match.group(1).splitlines():
        if line and not line[0].isspace():  # "name : type" or "a, b"
            flush()
            names = [n.strip().lstrip("*") for n in line.split(" : ")[0].split(",")]
            lines = []
        elif not line.strip():
            if lines:
                lines.append("\0")  # a paragraph ends: keep only the first
        elif "\0" not in lines:
            lines.append(line.strip())
    flush()
    return {k: v.split("\0")[0].strip() for k, v in out.items()}


def _plain(text: str) -> str:
    text = re.sub(r":\w+:`~?(?:[\w.]*\.)?([^`]+)`", r"\1", text)  # :func:`~a.b` -> b
    return text.replace("``", "")


def _read_graph_or_uncertain(path: str, directed: bool = False) -> Any:
    """A file option's graph: a release (its header says its direction) or an edge list.

    An edge list is read as arcs with ``--directed``, as the input graph is.
    """
    from graphveil.io import read_edgelist
    from graphveil.io.formats import named
    from graphveil.uncertain import UncertainGraph

    fmt = named(path, "uncertain")
    # a name a graph format claims too (.txt, .parquet) is read as a graph, as before
    if fmt is not None and fmt.read_release is not None and named(path, "graph") is None:
        g = UncertainGraph.load(path)
        if g.ids_permuted:
            raise ValueError(
                f"{path} was written with permuted node ids; write it again with --keep-ids"
            )
        return g
    return read_edgelist(path, directed=True) if directed else read_edgelist(path)


#: Parameters read from a file after the input graph, by their annotation (spaces removed).
_READERS: dict[str, Callable[[str, bool], Any]] = {"Graph|UncertainGraph": _read_graph_or_uncertain}
_READ_HELP = " (FILE: a .npz/.tsv uncertain graph written with --keep-ids, or an edge list)"


def _run(args: argparse.Namespace, command: Command) -> int:
    cli = command.cli
    kwargs: dict[str, Any] = {}
    if command.params:
        try:
            params = json.loads(args.params)
        except json.JSONDecodeError as err:
            raise ValueError(f"--params must be a JSON object: {err}") from None
        if not isinstance(params, dict):
            raise ValueError("--params must be a JSON object of keyword arguments")  # noqa: TRY004
        for name in ("seed", "threads"):
            if name in params:
                raise ValueError(f"give {name} with --{name}, not in --params")
        kwargs.update(params)
    if cli.inner_scheme:
        kwargs[cli.inner_scheme] = _inner_scheme(getattr(args, cli.inner_scheme), cli.inner_scheme)
    given = {o.name: getattr(args, o.name) for o in command.options}
    _refuse_directed(args, command, kwargs)
    _refuse_no_op(args, command, {**kwargs, **given})
    _check_epsilon(command, given)
    g = _load(args, [getattr(args, o.name) for o in command.options if o.read is not None])
    shown = []  # the options given, in the command line's spelling
    for option in command.options:
        if option.name == cli.inner_scheme:
            shown.append(f"{option.label}={kwargs[option.name]}")
            continue
        value = getattr(args, option.name)
        if value != option.default:
            shown.append(f"{option.label}={value}")
        kwargs[option.name] = option.read(value, args.directed) if option.read else value
    if command.seeded:
        kwargs["seed"] = args.seed
    if hasattr(args, "threads"):
        kwargs["threads"] = args.threads
    if cli.progress:
        kwargs["progress"] = show_progress(args) if cli.progress == "bars" else True
    function = command.function
    if cli.alternative is not None and getattr(args, _dest(cli.alternative.flag)):
        function = cli.alternative.function
        accepted = inspect.signature(function).parameters
        kwargs = {k: v for k, v in kwargs.items() if k in accepted}
    # n is public (the release holds it); G0's edge count is not printed (print policy)
    _progress(args, f"{command.title} on {g.n:,} nodes: {', '.join(shown)}")
    log.debug(
        "calling %s.%s with %s",
        function.__module__,
        function.__name__,
        ", ".join(f"{k}={v!r}" for k, v in kwargs.items() if k != "seed"),  # never log a seed
    )
    try:
        result = function(**{command.graph: g}, **kwargs)
    except cli.user_errors as err:
        raise ValueError(str(err)) from None
    except ValueError as err:
        raise ValueError(f"{command.title}: {cli_words(str(err))}") from None
    log.debug("timings (s): %s", result.report.get("timings"))
    _refuse_identity(args, command, g, result.graph)
    return _finish(args, command.name, result)


def _refuse_no_op(args: argparse.Namespace, command: Command, params: dict[str, Any]) -> None:
    """Refuse, before any work, parameters that publish G0 unchanged or only true edges.

    The rule is the scheme's registry record's (the inner scheme's for Partition); the API runs
    such parameters (research, baselines), a command that writes a release does not without
    ``--allow-identity``.
    """
    rule = command.no_op
    if command.cli.inner_scheme:
        rule = registry.resolve(params[command.cli.inner_scheme])[0].no_op  # an old spelling too
    reason = rule(params) if rule is not None else None
    if reason is not None and not getattr(args, _dest(ALLOW_IDENTITY)):
        raise ValueError(f"{reason}; {_BASELINE}")


def _refuse_identity(args: argparse.Namespace, command: Command, graph: Any, release: Any) -> None:
    """Refuse a release that is G0 itself, whatever the parameters, unless ``--allow-identity``.

    The rule on the output (:func:`~graphveil.anonymize.registry.identity_reason`), checked
    before anything is written or printed; its message says only that the release is G0.
    """
    if getattr(args, _dest(ALLOW_IDENTITY)):
        return
    reason = registry.identity_reason(graph, release)
    if reason is not None:
        raise ValueError(f"{command.title}: {reason}; {_BASELINE}")


def _refuse_directed(args: argparse.Namespace, command: Command, kwargs: dict[str, Any]) -> None:
    """Refuse ``--directed``, before the graph is read, for a scheme with no directed form.

    Whether a scheme has one is its registry record's :attr:`~graphveil.anonymize.registry.Scheme.directed`
    (the inner scheme's for Partition); such a scheme never runs a directed graph as undirected.
    """
    if not args.directed:
        return
    inner = command.cli.inner_scheme
    record = registry.REGISTRY.get(kwargs[inner] if inner else command.name)
    if record is None or record.directed:
        return
    what = f"{command.name} with {record.name}" if inner else record.name
    others = ", ".join(n for n in registry.names() if registry.scheme(n).directed)
    raise ValueError(
        f"{what} has no directed form (the scheme registry's Scheme.directed is False), so it "
        f"cannot anonymize arcs: drop --directed to anonymize the graph as undirected edges, or "
        f"use a scheme with a directed form ({others})"
    )


def _check_epsilon(command: Command, given: dict[str, Any]) -> None:
    """Refuse a DP scheme's epsilon outside its bounds before the graph is read."""
    record = registry.REGISTRY.get(command.name)
    if record is not None and record.family == "dp" and "epsilon" in given:
        problem = record.check_value(given["epsilon"])
        if problem is not None:
            raise ValueError(f"{command.title}: {problem}, got {given['epsilon']!r}")


def _number_or_text(text: str) -> Any:
    """An unannotated option's value: an int if it reads as one, else a float, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _dest(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


def _inner_scheme(name: str, option: str) -> str:
    """The one spelling of an inner scheme (``--scheme``), saying so on stderr if it was an old one."""
    record, deprecated = registry.resolve(name)  # partition() says what it cannot run
    if deprecated:
        flag = "--" + option.replace("_", "-")
        print(
            f"graphveil: warning: {flag} {name} is deprecated; use {flag} {record.name}",
            file=sys.stderr,
        )
    return record.name


def add_anonymize(subparsers: Any) -> None:
    """The ``anonymize`` command: one subcommand per registered scheme, then ``partition``."""
    from graphveil.anonymize import partition

    parser = subparsers.add_parser(
        "anonymize",
        help="turn a graph into an uncertain graph with one of the schemes",
        description="Anonymize a graph. Run `graphveil anonymize SCHEME --help` for a scheme's options.",
    )
    sub = parser.add_subparsers(title="schemes", metavar="SCHEME", required=True)
    for record in registry.REGISTRY.values():
        add_command(
            sub,
            record.name,
            record.function,
            title=record.title,
            summary=record.summary,
            cli=record.cli,
            no_op=record.no_op,
        )
    add_command(
        sub,
        "partition",
        partition,
        title="Partition",
        summary="any scheme on METIS parts, cut edges kept",
        cli=registry.PARTITION_CLI,
    )
