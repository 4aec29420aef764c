"""What every command shares: graph arguments, output checks, JSON output, errors and signals."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

import graphveil
from graphveil._common import check_output_path
from graphveil._json import dumps
from graphveil.anonymize.partitioners import PARTITIONERS
from graphveil.measure.scoring import DEFAULT as DEFAULT_SCORING
from graphveil.measure.scoring import SCORINGS

#: Exceptions that mean "the user asked for something that cannot be done" (exit 2).
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError, KeyError, OSError)


class Terminated(BaseException):
    """Raised in the main thread on SIGTERM, so that every writer cleans up as on Ctrl-C."""


def on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def install_handler(signum: int, handler: Any) -> Any:
    """Set a signal handler where Python allows it (the main thread); the previous one, or None."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread (e.g. main() called from a worker)
        return None


#: The pip extra (pyproject.toml's ``[project.optional-dependencies]``) of each optional library
#: a command may need: figures, ``.parquet`` files, ``--scheduler``.
EXTRAS = {
    "matplotlib": "plot",
    "pyarrow": "parquet",
    "distributed": "dask",
    "dask": "dask",
    "osqp": "osqp",
    # the partitioners' own (KaMinPar's), read from their registry
    **{p.module: p.extra for p in PARTITIONERS.values() if p.module and p.extra},
}


def missing_extra(module: str, what: str) -> str:
    """One line: ``what`` needs ``module``, and the pip install that brings it."""
    return (
        f'{what} needs {module}, which is not installed: pip install "graphveil[{EXTRAS[module]}]"'
    )


def require_extras(needs: dict[str, str]) -> None:
    """Fail before any work if an optional library is missing (``needs``: module -> what needs it).

    Raises ValueError (exit 2, one line naming the pip extra), so that a run does not do its
    work and then fail to write its output.
    """
    for module, what in needs.items():
        try:
            importlib.import_module(module)
        except ImportError:
            raise ValueError(missing_extra(module, what)) from None


def missing_module(exc: ImportError) -> str | None:
    """The optional library of :data:`EXTRAS` whose absence raised ``exc``, or None (a bug)."""
    for err in (exc, exc.__cause__):
        name = getattr(err, "name", None)
        if isinstance(err, ImportError) and name and name.split(".")[0] in EXTRAS:
            return name.split(".")[0]
    return None


def check_outputs(
    *paths: str | os.PathLike[str] | None,
    inputs: Sequence[str | os.PathLike[str] | None] = (),
) -> None:
    """Fail before any work if an output cannot be written or names an input; errors name the path.

    ``inputs`` are the files the command reads (the edge list, the release and its sidecar, the
    record): an output naming one of them (the same path, a symlink or a hard link to it) would
    destroy it, so it is refused.
    """
    given_paths = [p for p in paths if p is not None and str(p) != "-"]  # "-": stdout
    given = [os.path.realpath(p) for p in given_paths]
    if len(set(given)) != len(given):
        raise ValueError("two outputs name the same file; give each its own path")
    read = [p for p in inputs if p is not None and os.path.exists(p)]
    for path in given_paths:
        for source in read:
            if os.path.realpath(path) == os.path.realpath(source) or (
                os.path.exists(path) and os.path.samefile(path, source)
            ):
                raise ValueError(
                    f"the output {os.fspath(path)} is the input {os.fspath(source)}: writing it "
                    "would destroy what is read; give the output another path"
                )
        check_output_path(path)


class Parser(argparse.ArgumentParser):
    """An argument parser that takes no abbreviation of an option: ``--k`` is not ``--keep-ids``.

    argparse accepts any unambiguous prefix of a long option by default, so a typo or a short
    spelling can silently turn on a flag of another meaning (a release with its true node ids).
    Subparsers are built with the class of their parent, so every command inherits this.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def graph_inputs(args: argparse.Namespace) -> list[str | os.PathLike[str] | None]:
    """The file the graph of :func:`add_graph_argument` is read from (a dataset's, if found)."""
    if getattr(args, "dataset", None) is None:
        return [getattr(args, "graph", None)]
    from graphveil import datasets

    try:
        return [datasets.locate(args.dataset, data_dir=getattr(args, "data_dir", None))]
    except (ValueError, KeyError):  # an unknown name: load_graph says so
        return []


def release_inputs(path: str | os.PathLike[str]) -> list[str | os.PathLike[str]]:
    """The files a release at ``path`` is read from: itself and, for a TSV, its sidecar."""
    from graphveil.io import sidecar_path

    return [path, sidecar_path(path)]


def load_release(path: str, record: str | None) -> Any:
    """The release at ``path`` for measuring against the true graph, carrying its run record.

    The record is exact or refused (:meth:`graphveil.record.RunRecord.of_release`, the one
    place that maps a release's ids back); a release whose id status is unknown (a TSV without
    its sidecar) or that is permuted and comes without ``--record`` is refused. Each message is
    one line naming the file and what to do.
    """
    from graphveil.io.formats import named
    from graphveil.record import RunRecord
    from graphveil.uncertain import UncertainGraph

    ug = UncertainGraph.load(path)
    fmt = named(path, "uncertain")
    if ug.ids_permuted is None and fmt is not None and fmt.sidecar is not None:
        if not fmt.sidecar(path).exists():
            raise ValueError(
                f"{path}: its sidecar {fmt.sidecar(path)} is missing, so whether its ids are permuted "
                "is unknown and it cannot be measured: put the sidecar back beside it (it is "
                "written and published with the TSV), or measure the .npz/.parquet release"
            )
    ug._record = RunRecord.of_release(ug, record, path)
    return ug


# ---------------------------------------------------------------------------- helpers
def one_line(exc: BaseException) -> str:
    # KeyError's str() is the repr of its argument; show the message itself. A raw OS error
    # ("[Errno 1] Operation not permitted: 'out/points'") names its file and what to do.
    from graphveil._common import os_message

    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    if isinstance(exc, OSError):
        text = os_message(exc)
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
    add_directed_argument(parser)


#: What ``--directed`` does, for every command that reads an edge list (:func:`add_directed_argument`).
DIRECTED_HELP = (
    "read {reads} as arcs u -> v: a directed graph (default: undirected edges, an arc and its "
    "reverse merged)"
)


def add_directed_argument(
    parser: argparse.ArgumentParser,
    reads: str = "GRAPH's lines (or the --dataset's)",
    also: str = "",
) -> None:
    """``--directed``: read the edge list ``reads`` as arcs (:func:`load_graph` honours it).

    The one home of the flag: every command that reads an edge list (``stats``, ``anonymize``,
    ``evaluate``, ``attack``, ``sample``, ``reproduce``) adds it here. ``also``: what it means
    beyond that for the command, appended to the help.
    """
    text = DIRECTED_HELP.format(reads=reads)
    parser.add_argument("--directed", action="store_true", help=f"{text}{also}")


def check_direction(args: argparse.Namespace, published: Any, name: str) -> None:
    """Refuse, in one line saying what to type, a release of the other kind than the true graph.

    The true graph is read as arcs with ``--directed`` (``args.directed``), from ``args.graph``
    or ``--dataset``; ``published`` is the release read from ``name``.
    """
    graph = args.graph if args.graph is not None else f"the dataset {args.dataset}"
    if published.directed and not args.directed:
        raise ValueError(
            f"{name} is a directed release, and {graph} was read as undirected edges: add "
            "--directed to read its lines as arcs u -> v"
        )
    if args.directed and not published.directed:
        raise ValueError(
            f"{name} is an undirected release, and --directed read {graph} as arcs: drop "
            "--directed to read its lines as undirected edges"
        )


def read_published(path: str, directed: bool) -> Any:
    """The uncertain graph at ``path`` (``sample``'s PUBLISHED), of the direction asked.

    A release says in its header whether it is directed, and is read so; ``--directed`` with a
    release whose header says undirected is refused in one line. A plain ``u v p`` TSV without
    header or sidecar says nothing: ``--directed`` reads its lines as arcs.
    """
    from graphveil.io import read_release
    from graphveil.io.layout import uncertain_of
    from graphveil.uncertain import UncertainGraph

    if not directed:
        return UncertainGraph.load(path)
    release = read_release(path)
    if release.header["ids_permuted"] is None:  # a plain u v p TSV: no header says anything
        release.header["directed"] = True
    elif not release.header.get("directed", False):
        raise ValueError(
            f"{path}: its header says it is an undirected release; drop --directed (a release's "
            "header decides its direction)"
        )
    return uncertain_of(path, release)


def add_header_argument(parser: argparse.ArgumentParser) -> None:
    """``--header``: skip the first line of the GRAPH file (read by :func:`load_graph`)."""
    parser.add_argument(
        "--header", action="store_true", help="skip the first line of GRAPH (a CSV header)"
    )


def load_graph(args: argparse.Namespace) -> graphveil.Graph:
    """The graph named by the arguments of :func:`add_graph_argument`."""
    from graphveil import datasets

    directed = getattr(args, "directed", False)  # --directed (add_directed_argument)
    if args.dataset is not None:
        if args.header:
            raise ValueError("--header applies to a GRAPH file; drop it with --dataset")
        if directed:
            return datasets.load(args.dataset, data_dir=args.data_dir, directed=True)
        return datasets.load(args.dataset, data_dir=args.data_dir)
    from graphveil.io import read_edgelist

    if directed:
        return read_edgelist(args.graph, header=args.header, directed=True)
    return read_edgelist(args.graph, header=args.header)


# ---------------------------------------------------------------------------- manners
def deprecated_spellings(argv: list[str]) -> list[str]:
    """``argv`` with a scheme's former spelling replaced, saying so on stderr."""
    from graphveil.anonymize import registry

    if len(argv) >= 2 and argv[0] == "anonymize":
        try:
            record, deprecated = registry.resolve(argv[1])
        except ValueError:
            return argv
        if deprecated:
            print(
                f"graphveil: warning: `anonymize {argv[1]}` is deprecated and goes in the next "
                f"release; use `anonymize {record.name}`",
                file=sys.stderr,
            )
            return [argv[0], record.name, *argv[2:]]
    return argv


def add_verbosity(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``-v/--verbose``, counted; they set the ``graphveil`` logger's level."""
    parser.add_argument(
        "-q", "--quiet", action="count", default=0, help="less on stderr: no progress (repeatable)"
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more on stderr: debug messages"
    )


class _Prefix(logging.Formatter):
    """``graphveil: message``; a command's own lines ``graphveil <command>: message``.

    A command logs through ``graphveil.cli.<command>`` (``graphveil anonymize: wrote ...``), the
    library through its module's logger (``graphveil: obfuscation: sigma=...``).
    """

    def format(self, record: logging.LogRecord) -> str:
        parts = record.name.split(".")
        prefix = (
            f"graphveil {parts[2]}"
            if parts[:2] == ["graphveil", "cli"] and len(parts) > 2
            else "graphveil"
        )
        return f"{prefix}: {record.getMessage()}"


def setup_logging(level: int) -> logging.Handler:
    """Send the ``graphveil`` logger to stderr: INFO by default, one step per -v/-q.

    Returns the handler, for :func:`graphveil.cli.main` to remove when the command ends.
    """
    logger = logging.getLogger("graphveil")
    logger.setLevel(max(logging.DEBUG, min(logging.CRITICAL, logging.INFO - 10 * level)))
    for old in [h for h in logger.handlers if getattr(h, "_graphveil_cli", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)  # stderr as it is now (tests swap it)
    handler.setFormatter(_Prefix())
    handler._graphveil_cli = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    return handler


def show_progress(args: argparse.Namespace) -> bool:
    """Progress bars: only when not quiet and stderr is a terminal (never in log files)."""
    return not getattr(args, "quiet", 0) and sys.stderr.isatty()


def add_json_argument(parser: argparse.ArgumentParser, what: str = "the result") -> None:
    """``--json [FILE]``: ``what`` as JSON, to FILE or to stdout (no FILE, or ``-``)."""
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help=f"write {what} as JSON to FILE (`-` or no FILE: stdout, instead of the table)",
    )


def write_json(target: str | None, payload: Any) -> None:
    """Write ``payload`` as JSON to ``target`` (a path, atomically) or stdout (``-``)."""
    if target is None:
        return
    text = dumps(payload, nan="null", lenient=True)
    if target == "-":
        print(text)
        return
    from graphveil._common import atomic_path

    with atomic_path(target) as tmp:
        tmp.write_text(text)


def json_to_stdout(args: argparse.Namespace) -> bool:
    """Whether ``--json`` goes to stdout, so the table is left out."""
    return getattr(args, "json", None) == "-"


def seed_value(text: str) -> int:
    """``--seed``'s type: an integer in ``[0, 2**64)``, checked as the API checks a seed."""
    from graphveil._seeds import seed_to_u64

    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    try:
        return seed_to_u64(seed)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def threads_value(text: str) -> int:
    """``--threads``' type: 0 (all cores) or a positive count, checked as the API checks it."""
    from graphveil._checks import MAX_THREADS, check_threads

    try:
        return check_threads(int(text))
    except ValueError as err:
        raise argparse.ArgumentTypeError(
            f"not a thread count: {text!r} (0: all cores, or a count up to {MAX_THREADS})"
        ) from err


#: Why ``--seed`` is a secret wherever the output is published or drawn from a release.
SEED_SECRET = (
    "Anyone who learns the seed can redo the draws (the noise, the id permutation) and undo the "
    "anonymization: never use a guessable or published seed for a release"
)


def add_seed_argument(
    parser: argparse.ArgumentParser,
    of: str = "the random draws",
    *,
    default: int | None = None,
    secret: bool = True,
) -> None:
    """``--seed``, the one seed option: the seed of ``of``, read by :func:`seed_value`.

    ``default`` None draws fresh entropy: the default of every command whose output is a
    release or drawn from one, since the seed is the one secret of its noise (``secret``
    adds that warning). A fixed default is for a measurement meant to repeat (``measure
    stats``: 0; ``reproduce``: the study's master seed, :class:`StudyConfig`'s).
    """
    when = "fresh entropy" if default is None else str(default)
    text = f"seed of {of}, an integer in [0, 2**64) (default: {when}); for reproducible runs"
    parser.add_argument(
        "--seed",
        type=seed_value,
        default=default,
        help=f"{text}. {SEED_SECRET}" if secret else text,
    )


def add_threads_argument(parser: argparse.ArgumentParser, *aliases: str) -> None:
    """``--threads`` (and ``aliases``), the one thread option: 0 (the default) is all cores."""
    parser.add_argument(
        "--threads",
        *aliases,
        dest="threads",
        type=threads_value,
        default=0,
        metavar="THREADS",
        help="worker threads (0, the default: all cores); the output does not depend on it",
    )


def add_scoring_argument(parser: argparse.ArgumentParser, *, study: bool = False) -> None:
    """``--scoring``: graphveil's corrected measures (the default) or the authors' own."""
    obf = " and runs (k,eps)-obf with their |H| = ceil(eps n) and 3 tries" if study else ""
    parser.add_argument(
        "--scoring",
        choices=list(SCORINGS),
        default=DEFAULT_SCORING,
        help=f"how H2_open, eps and S_PL are scored (default {DEFAULT_SCORING}: graphveil's "
        "corrected measures); authors: exactly as the authors' scripts computed them "
        f"(H2_open on their neighbour-degree lists, their eps rule, S_PL on the pooled degrees){obf}",
    )


def add_record_argument(parser: argparse.ArgumentParser, reads: str | None = None) -> None:
    """``--record FILE``: the private run record a command writes, or (``reads``) the one it reads.

    ``reads`` names the argument whose record it is (e.g. ``"PUBLISHED"``).
    """
    if reads is None:
        text = (
            "also write the private run record (seed, id permutation, search history, timings) "
            "to FILE, mode 0600; needed to evaluate the release or map its ids back. NEVER "
            "publish it"
        )
    else:
        text = (
            f"the private run record written with {reads} (--record of graphveil anonymize or "
            "sample, save(record=...)): maps its permuted ids back to the true graph's; needed "
            "unless it was written with --keep-ids"
        )
    parser.add_argument("--record", metavar="FILE", help=text)
