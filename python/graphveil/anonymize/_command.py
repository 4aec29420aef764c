"""The command line of a scheme's record, checked when the record is defined.

``graphveil anonymize <scheme>`` has one option per keyword of the scheme's function
(:meth:`~graphveil.anonymize.registry.Cli.flags_of`) beside the options every such command has
(``RESERVED_FLAGS``). :func:`check_cli` refuses, naming the scheme, a record whose options
would clash (an argparse conflict names no scheme and breaks every command); every
:class:`~graphveil.anonymize.registry.Scheme` runs it when it is made. The registry re-exports
these names.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from graphveil.graph import Graph

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.anonymize.registry import Cli

__all__ = ["HANDLED_PARAMETERS", "RESERVED_FLAGS", "RESERVED_NAMES", "check_cli", "graph_parameter"]

#: The options every ``graphveil anonymize <scheme>`` command has beside those of its function's
#: keywords (the input graph, seed, threads, output, record, verbosity, JSON, ``--params`` of a
#: ``**kwargs``, ``--allow-identity``): no keyword's option may take one (:func:`check_cli`).
#: tests/test_registry.py checks that the CLI adds no other.
RESERVED_FLAGS: frozenset[str] = frozenset(
    (
        "-h", "--help", "--dataset", "--data-dir", "--header", "--directed", "--seed",
        "--threads", "-o", "--output", "--keep-ids", "--record", "-q", "--quiet", "-v",
        "--verbose", "--json", "--params", "--allow-identity",
    )
)  # fmt: skip

#: Keywords a command fills itself (from ``--seed``, ``--threads``, its progress setting) or that
#: a command line cannot give: they get no option of their own.
HANDLED_PARAMETERS: frozenset[str] = frozenset(("seed", "threads", "progress", "executor"))

#: Command names beside the schemes' under ``graphveil anonymize``: no scheme may take one.
RESERVED_NAMES: tuple[str, ...] = ("partition",)


def graph_parameter(function: Callable[..., Any]) -> str:
    """The parameter of ``function`` taking the input graph: annotated ``Graph``, else the first."""
    params = list(inspect.signature(function).parameters.values())
    annotated = (p.name for p in params if p.annotation in ("Graph", Graph))
    return next(annotated, params[0].name)


def check_cli(name: str, function: Callable[..., Any], cli: Cli) -> None:
    """Refuse a command line that would clash, naming the scheme: its options are checked here.

    Each keyword of ``function`` becomes an option (:meth:`Cli.flags_of`): none may take one of
    ``RESERVED_FLAGS`` (``-q`` is ``--quiet`` on every command), two may not take the same,
    none may be named like a common option's value (``output``), and :class:`Cli`'s fields may
    name only keywords of ``function``.

    Raises
    ------
    ValueError
        Naming the scheme, the keyword and what to change.

    Examples
    --------
    >>> from graphveil.anonymize.registry import Cli
    >>> def fake(graph, *, o=1.0): ...
    >>> check_cli("fake", fake, Cli())
    Traceback (most recent call last):
    ...
    ValueError: scheme 'fake': keyword 'o' would be the option -o, which every graphveil anonymize command has: give it other option strings in its record, Cli(flags={'o': ('--long-name',)})
    """
    graph = graph_parameter(function)
    keywords = [
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.name not in HANDLED_PARAMETERS and p.name != graph
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    fields: dict[str, Mapping[str, Any]] = {
        "flags": cli.flags,
        "metavar": cli.metavar,
        "choices": cli.choices,
    }
    for field_name, values in fields.items():
        unknown = [key for key in values if key not in keywords]
        if unknown:
            raise ValueError(
                f"scheme {name!r}: Cli({field_name}=...) names {', '.join(unknown)}, which "
                f"{getattr(function, '__name__', 'its function')} has no keyword of "
                f"(it has: {', '.join(keywords)})"
            )
    # argparse keeps an option's value under its long name: ``--keep-ids`` in ``keep_ids``.
    reserved_values = {f[2:].replace("-", "_") for f in RESERVED_FLAGS if f.startswith("--")}
    reserved_values |= {"graph", "run"}  # the positional GRAPH, the command's function
    taken: dict[str, str] = {}
    for keyword in keywords:
        if keyword in reserved_values:
            raise ValueError(
                f"scheme {name!r}: keyword {keyword!r} would overwrite the value of a common "
                f"option of every graphveil anonymize command: rename the keyword"
            )
        for flag in cli.flags_of(keyword):
            if flag in RESERVED_FLAGS:
                raise ValueError(
                    f"scheme {name!r}: keyword {keyword!r} would be the option {flag}, which every "
                    f"graphveil anonymize command has: give it other option strings in its "
                    f"record, Cli(flags={{{keyword!r}: ('--long-name',)}})"
                )
            if flag in taken:
                raise ValueError(
                    f"scheme {name!r}: keywords {taken[flag]!r} and {keyword!r} would both be the "
                    f"option {flag}: give one of them other option strings in Cli(flags=...)"
                )
            taken[flag] = keyword
    if cli.alternative is not None and cli.alternative.flag in (*RESERVED_FLAGS, *taken):
        raise ValueError(
            f"scheme {name!r}: its alternative's flag {cli.alternative.flag} is already an "
            "option of its command: choose another"
        )
