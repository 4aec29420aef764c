"""Partition (Section IV-F): any scheme run on the parts of a graph, cut edges kept at p = 1."""

from __future__ import annotations

import contextlib
import inspect
import warnings
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import numpy as np

from graphveil._checks import check_int, check_threads, require_undirected
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil._threads import map_ordered
from graphveil.anonymize import registry
from graphveil.anonymize._report import Timer, finish, graph_first
from graphveil.anonymize.partitioners import get as get_partitioner
from graphveil.anonymize.parts import PartLayout, part_seed, split_parts
from graphveil.graph import Graph, check_graph
from graphveil.uncertain import Anonymized

__all__ = ["partition"]  # SCHEMES: module __getattr__, read from the registry


def __getattr__(name: str) -> Any:
    # SCHEMES is read from the registry on each access, so a scheme added there appears here.
    if name == "SCHEMES":
        return registry.partitionable()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run_part(
    run: Callable[..., Anonymized],
    part: int,
    sub: Graph,
    seed: int,
    kwargs: dict[str, Any],
) -> Anonymized:
    """One part's scheme; a module-level function so that process pools can pickle it."""
    try:
        return run(sub, seed=seed, **kwargs)
    except Exception as err:
        err.args = (
            f"part {part} ({sub.n} nodes, {sub.m} edges): {err.args[0] if err.args else err}",
        )
        raise


def _takes_threads(run: Callable[..., Any]) -> bool:
    try:
        return "threads" in inspect.signature(run).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return False


def _inner_positional(kwargs: dict[str, Any], values: tuple[Any, ...]) -> None:
    """The old form's positional arguments of the inner scheme, named for it (one warning)."""
    scheme = kwargs.get("scheme")
    if isinstance(scheme, str):
        with contextlib.suppress(ValueError):  # an unknown name: partition() says so
            scheme = registry.resolve(scheme)[0].function
    names: tuple[str, ...] = getattr(scheme, "legacy_positional", ())[1:]
    if not names and callable(scheme):
        with contextlib.suppress(TypeError, ValueError):
            params = list(inspect.signature(scheme).parameters.values())[1:]
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            names = tuple(p.name for p in params if p.kind in kinds)
    if len(values) > len(names):
        raise TypeError(
            "pass the inner scheme's arguments to partition() as keywords, e.g. "
            "partition(graph, scheme='randwalk', parts=4, t=3)"
        )
    twice = sorted(set(names[: len(values)]) & kwargs.keys())
    if twice:
        raise TypeError(f"partition() got multiple values for {', '.join(twice)}")
    kwargs.update(zip(names, values))


@graph_first("scheme", "graph", "parts", extra=_inner_positional)
def partition(
    graph: Graph,
    *,
    scheme: str | Callable[..., Anonymized],
    parts: int,
    seed: SeedLike = None,
    threads: int | None = None,
    executor: Executor | None = None,
    partitioner: str = "metis",
    partitioner_options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Anonymized:
    """Partition(scheme, G0, parts): split G0 (METIS), anonymize every induced part, copy the cut.

    Each part ``V_i`` is the induced subgraph ``G0[V_i]`` (nodes relabelled ``0..|V_i|-1`` in
    ascending id order); the scheme runs on it with ``**kwargs`` (so ``switches=s``
    means s switches *per part*) and its own seed, :func:`~graphveil.anonymize.parts.part_seed`
    of ``seed`` and the part number; its pairs are mapped back to the original ids. Edges
    between parts enter no scheme and are copied with p = 1, so a degree-preserving scheme stays
    degree-preserving.

    Directed ``graph``: METIS splits its underlying undirected graph, the scheme runs on every
    induced directed part (a registered scheme must have a directed form: its record's
    ``directed``), and the arcs between parts are copied with p = 1; the scheme's degree
    promise (in- and out-degrees for EdgeSwitch, out-degrees for RandWalk) carries over.

    Parameters
    ----------
    graph : Graph
        The true graph G0.
    scheme : str or callable
        A registered scheme that Partition can run (one of
        :func:`graphveil.anonymize.registry.partitionable`, e.g. ``"randwalk"`` or
        ``"edge_switch"``), or a function ``f(graph, seed=..., **kwargs) -> Anonymized``.
    parts : int
        Number of parts (1 <= parts <= n).
    **kwargs
        Passed to the scheme for every part (e.g. ``t`` for RandWalk, ``k`` and ``eps`` for
        obfuscation).
    seed : int, numpy.random.Generator or None
        Seeds the partitioner and, through one derived stream per part, the scheme. ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.
    threads : int, optional
        Parts run concurrently on this many threads (``None`` or 0: every core); a scheme that
        takes ``threads`` runs each part on one thread unless ``threads`` is in ``kwargs``.
        The result is the same for any value.
    executor : concurrent.futures.Executor, optional
        Runs the parts instead of an own thread pool (e.g. a process pool or a Dask client's
        executor; the scheme must then be picklable). The result is the same as without.
    partitioner : str
        The partitioner that splits G0, a name from :mod:`graphveil.anonymize.partitioners`
        (:func:`~graphveil.anonymize.partitioners.names`): ``"metis"`` (the default, built in),
        ``"kaminpar"`` (the ``kaminpar`` extra), ...
    partitioner_options : dict, optional
        The partitioner's options by name, over its defaults (METIS: ``{"niter": 2}``).

    Returns
    -------
    Anonymized
        Relaxed if any part is; the report has ``cut_edges``, ``part_sizes`` and
        ``part_reports`` (each non-empty part's own report, in part order).

    Raises
    ------
    ValueError
        If the scheme name is unknown or ``parts`` is out of range; a directed graph with a
        registered scheme that has no directed form; a part's scheme errors
        (e.g. :class:`~graphveil.anonymize.ObfuscationError`) propagate with the
        part number added to the message.
    TypeError
        If ``executor`` is not a :class:`concurrent.futures.Executor`.

    References
    ----------
    The paper, Section IV-F (Partition approach) and Section V-B (METIS).

    Examples
    --------
    >>> import graphveil as gv
    >>> from graphveil.anonymize import partition, randwalk_mod
    >>> g = gv.datasets.load("karate_club")
    >>> ug, report = partition(g, scheme=randwalk_mod, parts=2, t=2, seed=1)
    >>> ug.n, len(report["part_sizes"]), sum(report["part_sizes"])
    (34, 2, 34)
    """
    check_graph(graph, what="partition", directed=True)
    parts = check_int(parts, "parts", 1, " (the number of parts)")
    nthreads = check_threads(threads)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor, not {type(executor).__name__}"
        )
    run, name = _resolve_scheme(scheme)
    if graph.directed and isinstance(scheme, str) and not registry.scheme(name).directed:
        require_undirected(graph, f"partition with {name}")
    splitter = get_partitioner(partitioner)
    split_options = splitter.options(partitioner_options)
    splitter.require()  # an optional extra: fail before any work
    seed64 = seed_to_u64(seed)
    part_kwargs = dict(kwargs)
    if "threads" not in part_kwargs and _takes_threads(run):
        part_kwargs["threads"] = 1  # the parallelism is over parts
    timer = Timer()
    with timer.phase("partition"):
        labels = splitter.labels(graph, parts, seed=seed64, threads=nthreads, options=split_options)
    with timer.phase("parts"):
        layout = split_parts(graph, labels, parts, threads=nthreads)
        busy = [i for i in range(parts) if layout.sizes()[i] > 0]
        results = _run_parts(run, layout, busy, part_kwargs, seed64, nthreads, executor)
    split = {"partitioner": splitter.name, "partitioner_options": split_options}
    return _assemble(graph, layout, busy, results, timer, seed64, name, parts, kwargs, split)


def _resolve_scheme(scheme: str | Callable[..., Anonymized]) -> tuple[Callable[..., Any], str]:
    """The function and the name of Partition's inner scheme (a registered name or a function)."""
    if isinstance(scheme, str):
        choices = ", ".join(registry.partitionable())
        try:
            record, deprecated = registry.resolve(scheme)
        except ValueError:
            raise ValueError(
                f"unknown scheme {scheme!r}; choose one of {choices} or pass a function"
            ) from None
        if not record.partitionable:
            raise ValueError(f"Partition cannot run {record.name}; choose one of {choices}")
        if deprecated:
            warnings.warn(
                f"scheme {scheme!r} is now spelled {record.name!r}; the old spelling goes in the "
                "next release",
                DeprecationWarning,
                stacklevel=3,
            )
        return record.function, record.name
    if callable(scheme):
        return scheme, getattr(scheme, "__name__", "custom")
    raise TypeError(f"scheme must be a name or a function, not {type(scheme).__name__}")


def _run_parts(
    run: Callable[..., Any],
    layout: PartLayout,
    busy: list[int],
    part_kwargs: dict[str, Any],
    seed64: int,
    nthreads: int,
    executor: Executor | None,
) -> list[Anonymized]:
    """The scheme on every non-empty part, on ``executor`` or an own pool, in part order."""
    calls = [(run, i, layout.subgraph(i), part_seed(seed64, i), part_kwargs) for i in busy]
    return map_ordered(executor, nthreads, _run_part, calls, star=True)


def _assemble(
    graph: Graph,
    layout: PartLayout,
    busy: list[int],
    results: list[Anonymized],
    timer: Timer,
    seed64: int,
    name: str,
    parts: int,
    kwargs: dict[str, Any],
    split: dict[str, Any],
) -> Anonymized:
    """The parts' pairs mapped back to original ids, plus the cut edges with p = 1."""
    relaxed = any(ug.relaxed for ug, _ in results)
    nodes = [layout.nodes(i) for i in busy]
    cut = int(layout.cut_u.size)
    return finish(
        graph.n,
        np.concatenate([ids[ug.u] for ids, (ug, _) in zip(nodes, results)] + [layout.cut_u]),
        np.concatenate([ids[ug.v] for ids, (ug, _) in zip(nodes, results)] + [layout.cut_v]),
        np.concatenate([ug.p for ug, _ in results] + [np.ones(cut)]),
        relaxed=relaxed,
        directed=graph.directed,
        scheme="partition",
        params={"scheme": name, "parts": parts, **split, "kwargs": dict(kwargs)},
        seed=seed64,
        timer=timer,
        cut_edges=cut,
        part_sizes=layout.sizes(),
        part_reports=[rep for _, rep in results],
    )
