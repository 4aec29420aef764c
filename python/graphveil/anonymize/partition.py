"""Partition (Section 3.6): any scheme run on the METIS parts of a graph, cut edges kept at p = 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from graphveil._common import SeedLike, seed_to_u64
from graphveil.anonymize._partition import metis_parts
from graphveil.anonymize._report import Timer, check_graph, check_int, finish
from graphveil.anonymize._result import Anonymized
from graphveil.graph import Graph

__all__ = ["SCHEMES", "partition"]


def _schemes() -> dict[str, Callable[..., Anonymized]]:
    from graphveil.anonymize.obfuscation import obfuscation
    from graphveil.anonymize.randwalk import randwalk, randwalk_mod
    from graphveil.anonymize.switching import edge_switch

    return {
        "obfuscation": obfuscation,
        "randwalk": randwalk,
        "randwalk-mod": randwalk_mod,
        "switch": edge_switch,
    }


#: The scheme names :func:`partition` accepts (any callable returning Anonymized works too).
SCHEMES = ("obfuscation", "randwalk", "randwalk-mod", "switch")


def partition(
    scheme: str | Callable[..., Anonymized],
    graph: Graph,
    parts: int,
    *args: Any,
    seed: SeedLike = None,
    **kwargs: Any,
) -> Anonymized:
    """Partition(scheme, G0, parts): split G0 with METIS, anonymize every induced part, copy the cut.

    Each part ``V_i`` is the induced subgraph ``G0[V_i]`` (nodes relabelled ``0..|V_i|-1``); the
    scheme runs on it with ``*args`` and ``**kwargs`` (so ``switches=s`` means s switches *per
    part*) and its own seed derived from ``seed`` and the part number; its pairs are mapped
    back to the original ids. Edges between parts enter no scheme and are copied with p = 1,
    so a degree-preserving scheme stays degree-preserving.

    Parameters
    ----------
    scheme : str or callable
        One of ``"obfuscation"``, ``"randwalk"``, ``"randwalk-mod"``, ``"switch"``, or a
        function ``f(graph, *args, seed=..., **kwargs) -> Anonymized``.
    graph : Graph
        The true graph G0.
    parts : int
        Number of METIS parts (1 <= parts <= n).
    *args, **kwargs
        Passed to the scheme for every part (e.g. ``t`` for RandWalk, ``k, eps`` for
        obfuscation).
    seed : int, numpy.random.Generator or None
        Seeds METIS and, through one derived stream per part, the scheme. ``None`` (the default) draws fresh OS entropy. A seed is for reproducible experiments only:
        anyone who learns it can regenerate the noise and undo the anonymization.

    Returns
    -------
    Anonymized
        Relaxed if any part is; the report has ``cut_edges``, ``part_sizes`` and
        ``part_reports`` (each part's own report).

    Raises
    ------
    ValueError
        If the scheme name is unknown or ``parts`` is out of range; a part's scheme errors
        (e.g. :class:`~graphveil.anonymize.obfuscation.ObfuscationError`) propagate with the
        part number added to the message.

    References
    ----------
    The paper, Section 3.6 (Partition approach) and Section 4.2 (METIS).
    """
    check_graph(graph)
    parts = check_int(parts, "parts", 1, " (the number of METIS parts)")
    if isinstance(scheme, str):
        table = _schemes()
        if scheme not in table:
            raise ValueError(
                f"unknown scheme {scheme!r}; choose one of {', '.join(SCHEMES)} or pass a function"
            )
        run, name = table[scheme], scheme
    elif callable(scheme):
        run, name = scheme, getattr(scheme, "__name__", "custom")
    else:
        raise TypeError(f"scheme must be a name or a function, not {type(scheme).__name__}")
    seed64 = seed_to_u64(seed)
    timer = Timer()
    with timer.phase("partition"):
        labels = metis_parts(graph, parts, seed=seed64 % 2**31)
    us: list[np.ndarray] = []
    vs: list[np.ndarray] = []
    ps: list[np.ndarray] = []
    relaxed = False
    reports: list[dict[str, Any]] = []
    sizes: list[int] = []
    with timer.phase("parts"):
        order = np.argsort(labels, kind="stable")
        bounds = np.searchsorted(labels[order], np.arange(parts + 1))
        for i in range(parts):
            nodes = order[bounds[i] : bounds[i + 1]]
            sizes.append(int(nodes.size))
            if nodes.size == 0:
                continue
            sub = graph.subgraph(nodes)
            part_seed = np.random.default_rng(np.random.SeedSequence([seed64, i]))
            try:
                ug, rep = run(sub, *args, seed=part_seed, **kwargs)
            except Exception as err:
                err.args = (
                    f"part {i} ({nodes.size} nodes, {sub.m} edges): {err.args[0] if err.args else err}",
                )
                raise
            relaxed |= ug.relaxed
            us.append(nodes[ug.u])
            vs.append(nodes[ug.v])
            ps.append(ug.p)
            reports.append(rep)
    with timer.phase("cut"):
        eu, ev = graph.edges()
        cut = labels[eu] != labels[ev]
        us.append(eu[cut].astype(np.int64))
        vs.append(ev[cut].astype(np.int64))
        ps.append(np.ones(int(cut.sum())))
    return finish(
        graph.n,
        np.concatenate(us),
        np.concatenate(vs),
        np.concatenate(ps),
        relaxed=relaxed,
        scheme="partition",
        params={"scheme": name, "parts": parts, "args": list(args), "kwargs": dict(kwargs)},
        seed=seed64,
        timer=timer,
        cut_edges=int(cut.sum()),
        part_sizes=sizes,
        part_reports=reports,
    )
