"""Releases: the one path every uncertain graph takes to a file, and back.

:func:`write_release` publishes an uncertain graph in any release format of
:data:`~graphveil.io.formats.FORMATS` (:meth:`UncertainGraph.save
<graphveil.UncertainGraph.save>`, :func:`~graphveil.io.write_parquet` and
:meth:`UncertainGraph.to_graphml <graphveil.UncertainGraph.to_graphml>` call it): the same
whitelist of public fields (:data:`~graphveil.io.layout.RELEASE_KEYS`), secret parameters
refused, node ids permuted by the same draw, an atomic write, and the private
:class:`~graphveil.record.RunRecord` returned. :func:`read_release` reads any readable release
format, told from the content, else from the suffix. :func:`read_uncertain` builds the graph;
:class:`~graphveil.UncertainGraph`'s file methods call both (imported when called).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from graphveil._common import PACKAGE_VERSION, atomic_group, check_output_path
from graphveil._seeds import SeedLike
from graphveil.interop import require
from graphveil.io.formats import FORMATS, release_format, sniffed
from graphveil.io.layout import (
    FORMAT_TAG,
    Release,
    check_record_path,
    header_keys,
    meta_json,
    public_meta,
    uncertain_of,
    written_version,
)
from graphveil.io.safety import checked_release, read_magic
from graphveil.record import RunRecord, release_digest
from graphveil.uncertain import UncertainGraph

__all__ = ["read_release", "read_uncertain", "release", "write_release"]

PathLike = str | os.PathLike[str]


def write_release(
    graph: UncertainGraph,
    path: PathLike,
    *,
    format: str | None = None,
    keep_ids: bool = False,
    seed: SeedLike = None,
    compress: bool = False,
    record: PathLike | None = None,
) -> RunRecord:
    """Publish an uncertain graph in any release format: the one path every release takes.

    In this order: the format is told (``format`` or the suffix, :func:`release_format`) and
    the destinations checked; the public part of ``graph.meta`` is taken (``scheme`` and
    ``params``, refusing any secret name in ``params``) and the rest kept for the record; the
    ids are permuted (:func:`~graphveil.io.releases.release`, the draw of :meth:`UncertainGraph.with_permuted_ids
    <graphveil.UncertainGraph.with_permuted_ids>`); the header (exactly the scalar keys of
    :data:`RELEASE_KEYS`) and the arrays are written atomically; the private
    :class:`~graphveil.record.RunRecord` is returned, and written to ``record`` (mode 0600)
    only when asked. :meth:`UncertainGraph.save <graphveil.UncertainGraph.save>` documents the
    parameters.

    Returns
    -------
    RunRecord
        ``permutation`` (None when the ids were written as they are), ``report`` (the whole
        ``meta``) and the release's digest.

    Raises
    ------
    ValueError
        If the format cannot be told, ``record`` would overwrite the release, or the public
        parameters name a secret (``seed``, ``permutation``, ``timings``, ``history``).
    TypeError
        If ``graph`` is not an uncertain graph or its ``meta`` is not JSON-serialisable.
    FileNotFoundError, PermissionError
        If a destination cannot be written (checked before anything is written).
    ImportError
        For parquet without pyarrow: ``pip install "graphveil[parquet]"``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphveil import UncertainGraph
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> ug = UncertainGraph(3, [0, 1], [1, 2], [0.5, 1.0], meta={"scheme": "toy", "seed": 7})
    >>> rec = write_release(ug, d / "pub.graphml", seed=1)
    >>> rec.report["seed"], sorted(rec.permutation.tolist())
    (7, [0, 1, 2])
    >>> write_release(UncertainGraph(2, [0], [1], [0.5], meta={"params": {"seed": 3}}), d / "x.npz")
    Traceback (most recent call last):
    ...
    ValueError: meta['params'] holds 'seed', which must never be published; keep it out of the parameters (the run record keeps the rest of meta)
    """
    fmt = FORMATS[release_format(path, format)]
    writer = fmt.write_release
    assert writer is not None  # release_format names only formats a release is written in
    if not hasattr(graph, "with_permuted_ids"):
        raise TypeError(f"expected a graphveil UncertainGraph, got {type(graph).__name__}")
    if fmt.requires is not None:
        require(fmt.requires)
    target = check_output_path(path)
    if record is not None:
        check_record_path(record, *fmt.files(target))
    scheme, params = public_meta(graph.meta)
    private = json.loads(meta_json(graph.meta))  # also checks meta is JSON-serialisable
    if record is not None and graph.run_record is None and graph.ids_permuted is not False:
        raise ValueError(_UNMAPPED.format(what=_ID_STATUS[graph.ids_permuted]))
    out, perm = release(graph, keep_ids, seed)
    mapping: np.ndarray | None = perm
    releases: list[dict[str, str]] = []
    if out is graph:  # written as it is: the true ids, or a release's ids already
        carried = graph.run_record
        if carried is not None:  # loaded with its record: write the original mapping through
            mapping, releases = carried.permutation, list(carried.releases)
            private = {**carried.report, **private}
        else:
            mapping = None
    directed = bool(getattr(out, "directed", False))
    assert fmt.version is not None  # every format a release is written in has a layout version
    header = {
        "format": FORMAT_TAG,
        "format_version": written_version(fmt.version, directed),
        "graphveil_version": PACKAGE_VERSION,
        "n": out.n,
        "relaxed": out.relaxed,
        **({"directed": True} if directed else {}),  # only a directed release says it
        "ids_permuted": bool(out.ids_permuted),
        "scheme": scheme,
        "params": params,
    }
    assert tuple(header) == header_keys(directed)  # the whitelist is the one home of the layout
    entry = {"file": target.name, "digest": release_digest(out.n, out.u, out.v, out.p)}
    result = RunRecord(mapping, private, [*(r for r in releases if r != entry), entry])
    with atomic_group():  # the release, its sidecar and its record: all in place, or none
        writer(target, header, out, compress)
        if record is not None:
            result.save(record)
    return result


#: Why a record cannot be written for a graph whose ids are already not the true ones.
_UNMAPPED = (
    "this graph's ids {what}, and it carries no run record, so a record written now could not "
    "map them back to the true ids; load the release with its original record "
    "(load_uncertain(PATH, record=RECORD)) to write the original mapping through, or save "
    "without record= (the original record still maps the file: same content, same digest)"
)
_ID_STATUS = {
    True: "are a release's permutation",
    None: "may be permuted (whether is unknown: a TSV read without its JSON sidecar?)",
}


def release(
    graph: UncertainGraph, keep_ids: bool, seed: SeedLike
) -> tuple[UncertainGraph, np.ndarray]:
    """The graph as written for others, and ``perm`` (node ``i`` is written as ``perm[i]``).

    :meth:`UncertainGraph.with_permuted_ids`, the draw :meth:`UncertainGraph.save` makes: the same
    seed gives the same permutation. A graph whose ids already are a release's permutation
    (:attr:`UncertainGraph.ids_permuted`) is written as it is, never permuted twice; so is a graph
    with ``keep_ids``.
    """
    if keep_ids or graph.ids_permuted:
        return graph, np.arange(graph.n, dtype=np.int64)
    return graph.with_permuted_ids(seed)


def read_release(path: PathLike, *, format: str | None = None) -> Release:
    """Read an uncertain-graph release (npz, TSV or parquet): its header and arrays, validated.

    The format is told from the content (a zip archive is npz, ``PAR1`` parquet), else from the
    suffix; ``format`` overrides. :meth:`UncertainGraph.load <graphveil.UncertainGraph.load>`
    documents what is read and checked; it builds the graph from what this returns.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file is corrupt, truncated, of another kind or written by a newer format version;
        the message names the file.
    """
    target = Path(path)
    if not target.exists():
        raise FileNotFoundError(f"no such file: {target}")
    fmt = sniffed(read_magic(target)) if format is None else None
    if fmt is None:
        fmt = FORMATS[release_format(target, format)]
    if fmt.read_release is None:
        readable = [f".{name}" for name, f in FORMATS.items() if f.read_release is not None]
        raise ValueError(
            f"{target}: {fmt.title} is written for other tools and not read back by graphveil; "
            f"keep the {', '.join(readable[:-1])} or {readable[-1]} release to load"
        )
    return checked_release(target, *fmt.read_release(target))


def read_uncertain(path: PathLike, *, format: str | None = None) -> UncertainGraph:
    """The uncertain graph of the release at ``path`` (:meth:`UncertainGraph.load`, no record).

    :meth:`UncertainGraph.load <graphveil.UncertainGraph.load>` documents what is read and checked.
    """
    return uncertain_of(path, read_release(path, format=format))
