"""The command line of a scheme's record (:class:`Cli`), checked when the record is defined.

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
from dataclasses import dataclass, field
from typing import Any

from graphveil.graph import Graph
from graphveil.uncertain import Anonymized

__all__ = [
    "HANDLED_PARAMETERS",
    "RESERVED_FLAGS",
    "RESERVED_NAMES",
    "Alternative",
    "Cli",
    "check_cli",
    "graph_parameter",
]

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


@dataclass(frozen=True)
class Alternative:
    """A flag of a scheme's command that runs another function on the same options."""

    #: The flag, e.g. ``"--uncertain"``.
    flag: str
    #: Its help text.
    help: str
    #: ``function(graph, ...) -> Anonymized``, given the options its signature names.
    function: Callable[..., Anonymized]


@dataclass(frozen=True)
class Cli:
    """What a scheme's command line needs beyond its function's signature and docstring.

    ``graphveil anonymize <name>`` has one option per keyword parameter of the function: its
    type from the annotation, its default from the signature, its help from the numpydoc
    Parameters section, its choices from a ``Literal`` annotation. Only what a signature cannot
    say is written here; every field is optional.
    """

    #: Longer text of ``graphveil anonymize <name> --help`` (default: the summary).
    description: str = ""
    #: Option strings of a parameter when not the derived ``-x`` (one letter) or ``--long-name``.
    flags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Metavariable of a parameter's option in the help.
    metavar: dict[str, str] = field(default_factory=dict)
    #: Choices of a parameter that no ``Literal`` annotation gives.
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: What the function's ``progress`` parameter shows: ``"bars"`` (only on a terminal) or
    #: ``"log"`` (lines on the ``graphveil`` logger, silenced by ``-q``); ``""``: none.
    progress: str = ""
    #: A flag running another function instead (RandWalk-mod's exact uncertain matrix).
    alternative: Alternative | None = None
    #: The parameter naming an inner scheme, resolved through the registry (Partition's).
    inner_scheme: str = ""
    #: Exceptions that mean the input cannot be anonymized as asked: exit status 2, one line.
    user_errors: tuple[type[Exception], ...] = ()
    #: The options of a quick, mild run of the command on a small graph (karate club's 34 nodes),
    #: written after the input graph: every keyword without a default has a value here.
    #: ``{release}`` stands for a release of the same graph written with ``--keep-ids``. The
    #: tests run every command with it (tiny graphs, the print policy, absurd values, the
    #: identity rule). Checked when the record is defined (:func:`check_cli`).
    example: tuple[str, ...] = ()

    def flags_of(self, name: str) -> tuple[str, ...]:
        """The option strings of keyword ``name``: its :attr:`flags`, else ``-x``/``--long-name``.

        Examples
        --------
        >>> Cli(flags={"q": ("--white-noise",)}).flags_of("q"), Cli().flags_of("max_tries")
        (('--white-noise',), ('--max-tries',))
        """
        derived = f"-{name}" if len(name) == 1 else f"--{name.replace('_', '-')}"
        return self.flags.get(name) or (derived,)


def graph_parameter(function: Callable[..., Any]) -> str:
    """The parameter of ``function`` taking the input graph: annotated ``Graph``, else the first."""
    params = list(inspect.signature(function).parameters.values())
    annotated = (p.name for p in params if p.annotation in ("Graph", Graph))
    return next(annotated, params[0].name)


def check_cli(name: str, function: Callable[..., Any], cli: Cli) -> None:
    """Refuse a command line that would clash, naming the scheme: its options are checked here.

    Each keyword of ``function`` becomes an option (:meth:`Cli.flags_of`): none may take one of
    ``RESERVED_FLAGS`` (``-q`` is ``--quiet`` on every command), two may not take the same,
    none may be named like a common option's value (``output``), :class:`Cli`'s fields may
    name only keywords of ``function``, and its ``example`` gives only the command's own options,
    a value to every keyword without a default among them.

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
    _check_example(name, function, cli, taken)


def _check_example(
    name: str, function: Callable[..., Any], cli: Cli, taken: dict[str, str]
) -> None:
    """Refuse an example that names another command's option or leaves a keyword without value."""
    params = inspect.signature(function).parameters.values()
    own = set(taken)
    if cli.alternative is not None:
        own.add(cli.alternative.flag)
    if any(p.kind is p.VAR_KEYWORD for p in params):
        own.add("--params")
    given = {token for token in cli.example if token.startswith("-") and not _number(token)}
    foreign = sorted(given - own)
    if foreign:
        raise ValueError(
            f"scheme {name!r}: Cli(example=...) gives {', '.join(foreign)}, not an option of its "
            "own: the example holds the command's own options only (the tests add the graph, "
            "--seed and -o)"
        )
    graph = graph_parameter(function)
    for p in params:
        required = p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        if required and p.name != graph and p.name not in HANDLED_PARAMETERS:
            if not given & set(cli.flags_of(p.name)):
                raise ValueError(
                    f"scheme {name!r}: keyword {p.name!r} has no default: give its option "
                    f"{cli.flags_of(p.name)[0]} a value in Cli(example=...), the arguments of a "
                    "quick run of the command"
                )


def _number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
