"""Shared plumbing of the schemes: argument checks and the report every scheme returns."""

from __future__ import annotations

import copy
import functools
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from graphveil.graph import Graph
from graphveil.uncertain import Anonymized, UncertainGraph

F = TypeVar("F", bound=Callable[..., Any])

#: Old keyword names of a scheme's input graph, accepted with a warning for one release.
OLD_GRAPH_NAMES = ("g", "g0")


def graph_first(
    *legacy: str, extra: Callable[[dict[str, Any], tuple[Any, ...]], None] | None = None
) -> Callable[[F], F]:
    """Accept, with a DeprecationWarning, a scheme's old call forms (one release, then removed).

    Every scheme is ``scheme(graph, *, option=...)``: the graph first and positional, the rest
    keyword-only. The old forms this keeps working: the graph passed as ``g=`` or ``g0=``, and
    positional arguments in the old order ``legacy`` (the names, ``"graph"`` among them: for
    Partition the old order began with the scheme). Positional arguments beyond ``legacy`` go
    to ``extra(kwargs, rest)`` if given (Partition's arguments of its inner scheme), else are a
    TypeError. The decorated function keeps its own signature (``inspect.signature`` follows
    ``__wrapped__``), so the command line still builds its options from it; ``legacy`` is kept
    as the function's ``legacy_positional`` attribute.
    """

    def decorate(function: F) -> F:
        name = function.__name__

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            for old in OLD_GRAPH_NAMES:
                if old in kwargs:
                    positional = len(args) > legacy.index("graph") or (
                        bool(args) and isinstance(args[0], Graph)
                    )
                    if "graph" in kwargs or positional:
                        raise TypeError(f"{name}() got the graph twice: as graph= and as {old}=")
                    kwargs["graph"] = kwargs.pop(old)
                    _deprecated(
                        f"{name}({old}=...) is deprecated; pass the graph first: {name}(graph, ...)"
                    )
            new_form = not args or (
                len(args) == 1 and (legacy[0] == "graph" or isinstance(args[0], Graph))
            )
            if new_form:
                return function(*args, **kwargs)
            if len(args) > len(legacy) and extra is None:
                raise TypeError(
                    f"{name}() takes the graph and keyword arguments; got {len(args)} positional"
                )
            named = dict(zip(legacy, args))
            twice = sorted(named.keys() & kwargs.keys())
            if twice:
                raise TypeError(f"{name}() got multiple values for {', '.join(twice)}")
            kwargs.update(named)
            if len(args) > len(legacy) and extra is not None:
                extra(kwargs, args[len(legacy) :])
            spelled = ", ".join(f"{key}=..." for key in named if key != "graph")
            _deprecated(
                f"positional arguments of {name}() are deprecated; call {name}(graph, {spelled})"
            )
            return function(**kwargs)

        call.legacy_positional = legacy  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate


def renamed_option(
    old: str, new: Callable[[Any], dict[str, Any]], spelled: str
) -> Callable[[F], F]:
    """Accept a keyword that was replaced, with a DeprecationWarning (one release, then removed).

    ``old=value`` becomes the keywords ``new(value)`` (e.g. MaxVar's ``metis_options=X`` is
    ``partitioner="metis", partitioner_options=X``); ``spelled`` is the new form, for the
    warning. Passing the old keyword with one of the new ones is a TypeError. Goes under
    :func:`graph_first`, so that an old positional call reaches it by name; the function keeps
    its own signature.
    """

    def decorate(function: F) -> F:
        name = function.__name__

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            if old in kwargs:
                replacement = new(kwargs.pop(old))
                twice = sorted(replacement.keys() & kwargs.keys())
                if twice:
                    raise TypeError(
                        f"{name}() got {old}= and {', '.join(twice)}=: pass only the latter"
                    )
                kwargs.update(replacement)
                warnings.warn(
                    f"{name}({old}=...) is deprecated; pass {spelled} (the old form goes in the "
                    "next release)",
                    DeprecationWarning,
                    stacklevel=3,  # the caller's line, through graph_first's wrapper
                )
            return function(*args, **kwargs)

        return call  # type: ignore[return-value]

    return decorate


def _deprecated(message: str) -> None:
    # As the registry's old scheme names: a DeprecationWarning attributed to the caller's line
    # (stacklevel), so Python shows it when that line is in a script or a notebook.
    warnings.warn(
        message + " (the old form goes in the next release)", DeprecationWarning, stacklevel=3
    )


def sorted_pairs(n: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs as ``(min, max)`` sorted by one int64 key.

    A single sort, cheaper than the lexsort the UncertainGraph constructor would otherwise run on unsorted input (it is then nearly free).
    """
    keys = np.sort(np.minimum(u, v).astype(np.int64) * n + np.maximum(u, v))
    if n == 0:
        return keys, keys
    return np.divmod(keys, n)


class Timer:
    """Collects wall-clock seconds per named phase."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - start


def finish(
    n: int,
    u: np.ndarray,
    v: np.ndarray,
    p: np.ndarray,
    *,
    scheme: str,
    params: dict[str, Any],
    seed: int | None,
    timer: Timer,
    relaxed: bool = False,
    directed: bool = False,
    **extra: Any,
) -> Anonymized:
    """Wrap pair arrays and a report into the :class:`Anonymized` every scheme returns."""
    with timer.phase("build"):
        graph = UncertainGraph(n, u, v, p, relaxed=relaxed, directed=directed)
    return finish_graph(graph, scheme=scheme, params=params, seed=seed, timer=timer, **extra)


def finish_graph(
    graph: UncertainGraph,
    *,
    scheme: str,
    params: dict[str, Any],
    seed: int | None,
    timer: Timer,
    **extra: Any,
) -> Anonymized:
    """As :func:`finish` for an uncertain graph already built (its meta is updated in place)."""
    n = graph.n
    report: dict[str, Any] = {
        "scheme": scheme,
        "params": dict(params),
        "seed": seed,
        "timings": timer.timings,
        "n": int(n),
        "pairs": graph.num_pairs,
        **extra,
    }
    report["timings"]["total"] = sum(v for k, v in timer.timings.items() if k != "total")
    graph.meta.update(copy.deepcopy(report))
    return Anonymized(graph, report)
