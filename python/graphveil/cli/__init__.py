# PYTHON_ARGCOMPLETE_OK
"""The ``graphveil`` command line: a thin shell over the Python API.

One module per command family: :mod:`.measure` (``stats``, ``evaluate``), :mod:`.anonymize`
(one subcommand per scheme of :mod:`graphveil.anonymize.registry`), :mod:`.sample`,
:mod:`.attack`, :mod:`.scores`, :mod:`.publish`, :mod:`.reproduce`, :mod:`.datasets`; :mod:`._common` holds what they share.
Each module has ``add_<command>(subparsers)``, which sets ``run`` to a function
``(args) -> int`` returning the exit status.

Manners, the same for every command:

- user mistakes (``ValueError``, ``TypeError``, ``KeyError``, ``OSError``) print one line
  ``graphveil: error: ...`` on stderr and exit 2, as an argparse usage error; anything else is
  a bug and keeps its traceback;
- options are spelled in full: no prefix of a long option is taken for it (``--k`` is not
  ``--keep-ids``), through :class:`~graphveil.cli._common.Parser`, the class of every parser;
- an optional library an output or option needs (matplotlib for figures, pyarrow for
  ``.parquet``, Dask for ``--scheduler``) is checked before any work: one line naming the pip
  extra, exit 2;
- SIGINT and SIGTERM remove temporary files, print one line and exit 130 or 143;
- a closed stdout (``graphveil datasets list | head -1``) ends the command quietly with status
  141 (128 + SIGPIPE), what a shell reports for ``cat`` or ``ls`` killed by SIGPIPE;
- ``--json [FILE]`` writes the result as JSON to FILE, or to stdout when FILE is ``-`` or left
  out; ``-q/--quiet`` and ``-v/--verbose`` set the level of the ``graphveil`` logger; progress
  bars appear only when stderr is a terminal;
- shell completion comes from argcomplete when it is installed (``graphveil[completion]``;
  then ``eval "$(register-python-argcomplete graphveil)"``).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Sequence

import graphveil
from graphveil.cli import anonymize, attack, datasets, measure, publish, reproduce, sample, scores
from graphveil.cli._common import (
    USER_ERRORS,
    Parser,
    Terminated,
    deprecated_spellings,
    install_handler,
    missing_extra,
    missing_module,
    on_sigterm,
    one_line,
    setup_logging,
)

__all__ = ["build_parser", "main"]

#: The command families, in the order ``graphveil --help`` lists them.
_COMMANDS = (
    measure.add_stats,
    anonymize.add_anonymize,
    measure.add_evaluate,
    sample.add_sample,
    attack.add_attack,
    scores.add_scores,
    publish.add_publish,
    reproduce.add_reproduce,
    datasets.add_datasets,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user error, 130/143 interrupted)."""
    parser = build_parser()
    try:
        import argcomplete  # the optional `completion` extra
    except ImportError:
        pass
    else:
        argcomplete.autocomplete(parser)
    argv = deprecated_spellings(list(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    handler = setup_logging(getattr(args, "verbose", 0) - getattr(args, "quiet", 0))
    previous = install_handler(signal.SIGTERM, on_sigterm)
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly. Point stdout at /dev/null so that
        # flushing at exit does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a real file (e.g. captured in tests)
            pass
        return 128 + 13  # SIGPIPE
    except USER_ERRORS as exc:
        print(f"{parser.prog}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except ImportError as exc:
        # Commands check their optional libraries before any work (require_extras); this
        # catches one imported later all the same. Any other ImportError is a bug.
        module = missing_module(exc)
        if module is None:
            raise
        print(f"{parser.prog}: error: {missing_extra(module, 'this')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted; no partial output was left", file=sys.stderr)
        return 128 + signal.SIGINT
    except Terminated:
        print(f"{parser.prog}: terminated; no partial output was left", file=sys.stderr)
        return 128 + signal.SIGTERM
    finally:
        logging.getLogger("graphveil").removeHandler(handler)
        if previous is not None:
            install_handler(signal.SIGTERM, previous)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = Parser(
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
