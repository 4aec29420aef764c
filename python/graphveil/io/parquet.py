"""Parquet tables of graphs and uncertain graphs (``pip install "graphveil[parquet]"``).

An uncertain graph's table is a release (written by :func:`graphveil.io.write_release`): columns
``u``, ``v`` (int32 or int64) and ``p`` (float64); the schema metadata holds one key,
``graphveil``, a JSON object of the release header, version
:data:`~graphveil.io.layout.FORMAT_VERSION`. A graph's table has no ``p``, the format tag
``"graphveil.graph"`` (version 2), ``n``, ``labels`` (what ``u``, ``v`` hold: ``"int"`` or
``"str"`` labels, or ``"positions"`` ``0..n-1``) and ``isolated`` (the isolated nodes' labels),
so labels and isolated nodes survive. :func:`read_parquet` reads either kind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads
from graphveil._common import PACKAGE_VERSION, atomic_path, check_output_path
from graphveil._json import load_json
from graphveil._seeds import SeedLike
from graphveil.graph import Graph
from graphveil.interop import require
from graphveil.io.edgelist import written_digest, written_ids
from graphveil.io.layout import (
    FORMAT_TAG,
    FORMAT_VERSION,
    GRAPH_TABLE_VERSION,
    GRAPH_TAG,
    Release,
    header_keys,
    json_dumps,
    public_of,
    uncertain_of,
    written_version,
)
from graphveil.io.safety import checked_release
from graphveil.record import RunRecord
from graphveil.uncertain import UncertainGraph

__all__ = ["parquet_contents", "read_parquet", "write_parquet"]

PathLike = str | os.PathLike[str]

#: What a parquet file starts with.
MAGIC = b"PAR1"
#: The schema-metadata key of graphveil's header.
_KEY = b"graphveil"


def write_parquet(
    graph: Graph | UncertainGraph,
    path: PathLike,
    *,
    keep_ids: bool = False,
    seed: SeedLike = None,
) -> RunRecord | None:
    """Write a graph or an uncertain graph as a parquet table (columns ``u``, ``v`` [, ``p``]).

    An :class:`~graphveil.UncertainGraph` is a release, written by :func:`write_release`
    exactly as ``UncertainGraph.save(path, format="parquet")``: node ids randomly permuted
    unless ``keep_ids=True`` (the same draw as ``save`` for the same ``seed``), only the public
    header (the scalar keys of :data:`RELEASE_KEYS`) in the schema metadata, secret
    parameters refused. A :class:`~graphveil.Graph` is written under the ids
    :func:`write_edgelist` writes (:func:`written_ids`, the one rule): its integer or string
    labels as they are, else ``0..n-1`` randomly permuted unless ``keep_ids=True``; the
    metadata holds ``n``, what the ids are (``labels``: ``"int"``, ``"str"`` or
    ``"positions"``) and the isolated nodes' labels, so :func:`graphveil.read_parquet` gives
    the labelled graph back with every node (numbered in ascending label order, as
    :func:`read_edgelist` numbers them). The write is atomic.

    Parameters
    ----------
    graph : Graph or UncertainGraph
        What to write.
    path : str or os.PathLike
        Destination.
    keep_ids : bool, default False
        Write node ids as they are (for a graph: ``0..n-1`` of an unlabelled graph).
    seed : int, numpy.random.Generator or None
        Randomness of the permutation (None, fresh entropy, for anything published).

    Returns
    -------
    RunRecord or None
        The private :class:`~graphveil.record.RunRecord`, as every writer that produces one
        (:func:`write_edgelist` too): node ``i`` is written as ``record.permutation[i]``
        (``permutation`` None when the ids were written as they are); None only for an
        uncertain graph whose ids were kept. ``UncertainGraph.save(path, format="parquet",
        record=...)`` also writes the record.

    Raises
    ------
    ImportError
        If pyarrow is missing: ``pip install "graphveil[parquet]"``.
    TypeError
        If ``graph`` is neither a Graph nor an UncertainGraph.
    ValueError
        If the public parameters of an uncertain graph name a secret (``seed``, ...), or a
        graph's labels are not distinct.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphveil import UncertainGraph
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "release.parquet"
    >>> ug = UncertainGraph(4, [0, 1], [1, 2], [0.5, 0.25], meta={"scheme": "maxvar", "seed": 7})
    >>> record = write_parquet(ug, path, seed=1)
    >>> from graphveil import read_parquet
    >>> back = read_parquet(path)
    >>> sorted(back.p.tolist()), back.n, back.ids_permuted, "seed" in back.meta
    ([0.25, 0.5], 4, True, False)
    """
    if not isinstance(graph, Graph):
        if not hasattr(graph, "with_permuted_ids"):
            raise TypeError(
                f"expected a graphveil Graph or UncertainGraph, got {type(graph).__name__}"
            )
        # the release path stands above the format table, which holds this module: looked up
        # at call time
        from graphveil.io.releases import write_release

        return write_release(graph, path, format="parquet", keep_ids=keep_ids, seed=seed)
    require("pyarrow")
    target = check_output_path(path)
    ids, perm, kind = written_ids(graph, keep_ids, seed, text=False)
    fields = {
        "format": GRAPH_TAG,
        "format_version": written_version(GRAPH_TABLE_VERSION, graph.directed),
        "graphveil_version": PACKAGE_VERSION,
        "n": int(graph.n),
        "relaxed": False,
        **({"directed": True} if graph.directed else {}),  # only a directed graph says it
        "ids_permuted": perm is not None,
        "labels": kind,
        "isolated": [] if kind == "positions" else ids[graph.degrees == 0].tolist(),
    }
    u, v = graph.edges()
    _write_table(target, fields, {"u": ids[u], "v": ids[v]})
    digest = written_digest(graph, ids, kind)  # over the ids as read back
    return RunRecord(perm, {}, [{"file": target.name, "digest": digest}])


def parquet_contents(path: PathLike, *, threads: int | None = None) -> Graph | Release:
    """What a parquet file holds: a :class:`~graphveil.Graph`, or an uncertain graph's columns.

    The reading half of :func:`graphveil.read_parquet`, which builds the
    :class:`~graphveil.UncertainGraph` from the :class:`Release` (this module sits below the
    uncertain-graph model, so it returns the columns and header, not the object).

    Raises
    ------
    FileNotFoundError, ValueError, ImportError
        As :func:`graphveil.read_parquet`.
    """
    source = Path(os.fspath(path))
    table, fields = _read_table(source)
    if fields is None and "p" not in table.column_names:
        _columns(source, table, ["u", "v"])
        return Graph.from_arrow(table, "u", "v", threads=threads)
    if fields is not None and fields["format"] == GRAPH_TAG:
        cols = _columns(source, table, ["u", "v"])
        try:
            return _graph_table(cols["u"], cols["v"], fields, check_threads(threads))
        except (TypeError, ValueError, KeyError) as err:
            raise ValueError(f"{source}: invalid graph: {err}") from None
    return checked_release(source, *_uncertain_table(source, table, fields))


def read_parquet(
    path: str | os.PathLike[str], *, threads: int | None = None
) -> Graph | UncertainGraph:
    """Read a parquet file written by :func:`write_parquet`, or a plain edge table.

    With graphveil's metadata, the format tag says which kind comes back, ``n`` restores
    isolated nodes, and an uncertain graph is read as :meth:`UncertainGraph.load` reads a
    release: its ``meta`` holds the released ``scheme`` and ``params`` plus what the file said
    about itself under ``meta["file"]``, and :attr:`UncertainGraph.ids_permuted` tells whether
    its ids are a release's permutation. Without it: a table with columns ``u``, ``v``, ``p`` is
    an uncertain graph on ``max id + 1`` nodes (whether its ids were permuted is unknown: None);
    a table with ``u``, ``v`` only is read as :meth:`Graph.from_arrow` reads it (ids of any
    kind, kept as labels).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file is not parquet, lacks a column, was written by a newer format version, or
        holds an invalid graph; the message names the file.
    ImportError
        If pyarrow is missing: ``pip install "graphveil[parquet]"``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.parquet"
    >>> from graphveil.io import write_parquet
    >>> write_parquet(Graph.from_edges([0], [1], 3, labels=["a", "b", "c"]), path).permutation is None
    True
    >>> back = read_parquet(path)
    >>> back, back.labels.tolist()
    (Graph(n=3, m=1), ['a', 'b', 'c'])
    """
    contents = parquet_contents(path, threads=threads)
    if isinstance(contents, Graph):
        return contents
    return uncertain_of(path, contents)


def write(target: Path, header: dict[str, Any], graph: Any, compress: bool) -> None:
    """Write the release ``graph`` with ``header`` as a parquet table, atomically."""
    _write_table(target, header, {"u": graph.u, "v": graph.v, "p": graph.p})


def read(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """The header and arrays of an uncertain graph's parquet table."""
    return _uncertain_table(path, *_read_table(path))


def _uncertain_table(
    path: Path, table: Any, fields: dict[str, Any] | None
) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """Header and arrays of an uncertain graph's parquet table (``fields``: its metadata)."""
    if fields is not None and fields["format"] != FORMAT_TAG:
        raise ValueError(
            f"{path}: holds a graph, not an uncertain graph; read it with graphveil.read_parquet"
        )
    cols = _columns(path, table, ["u", "v", "p"])
    u, v, p = cols["u"], cols["v"], cols["p"]
    if fields is None:  # a plain table: n from the ids; the model and the ids' origin unknown
        n = int(max(u.max(initial=-1), v.max(initial=-1))) + 1
        plain = {"format_version": None, "graphveil_version": None, "n": n, "relaxed": False}
        plain["directed"] = False
        return {**plain, "ids_permuted": None, "meta": {}}, u, v, p
    directed = fields.get("directed", False)  # version 2 on: only a directed release says it
    missing = [k for k in header_keys(directed is True)[:-2] if k not in fields]
    if missing:
        raise ValueError(f"{path}: invalid graph: the graphveil metadata lacks {missing}")
    if not isinstance(directed, bool):
        raise ValueError(f"{path}: 'directed' must be true or false")  # noqa: TRY004 (bad file content)
    header = {k: fields[k] for k in ("format_version", "graphveil_version", "n", "relaxed")}
    header["directed"] = directed
    header.update(ids_permuted=fields["ids_permuted"], meta=public_of(fields, path))
    return header, u, v, p


def _graph_table(u: np.ndarray, v: np.ndarray, fields: dict[str, Any], nthreads: int) -> Graph:
    """The graph of a graph table: ids ``0..n-1``, or labels (then numbered ascending)."""
    n, kind = fields["n"], fields.get("labels", "positions")
    directed = fields.get("directed", False)
    if not isinstance(directed, bool):
        raise ValueError(f"'directed' must be true or false, got {directed!r}")  # noqa: TRY004 (bad file content)
    if kind == "positions":
        return Graph.from_edges(u, v, n, threads=nthreads, directed=directed)
    isolated = fields.get("isolated")
    if kind not in ("int", "str") or not isinstance(isolated, list):
        raise ValueError(f"unknown labels {kind!r} or isolated nodes {type(isolated).__name__}")
    if kind == "int":
        a, b = np.array(u, dtype=np.int64), np.array(v, dtype=np.int64)
        extra = np.array(isolated, dtype=np.int64)
        labels = _core.relabel_ascending(a, b, extra, nthreads)
    else:
        names = np.concatenate([u.astype(str), v.astype(str), np.array(isolated, dtype=str)])
        labels, codes = np.unique(names, return_inverse=True)
        a, b = codes[: u.size].astype(np.int64), codes[u.size : 2 * u.size].astype(np.int64)
    if labels.size != n:
        raise ValueError(f"the metadata says n={n:,} but the table holds {labels.size:,} labels")
    return Graph.from_edges(a, b, n, labels=labels, threads=nthreads, directed=directed)


def _write_table(target: Path, fields: dict[str, Any], columns: dict[str, Any]) -> None:
    pa = require("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table(columns).replace_schema_metadata({_KEY: json_dumps(fields)})
    with atomic_path(target) as tmp:
        pq.write_table(table, tmp)


def _read_table(source: Path) -> tuple[Any, dict[str, Any] | None]:
    """The table and its validated graphveil metadata (None for a plain table)."""
    pa = require("pyarrow")
    import pyarrow.parquet as pq

    if not source.exists():
        raise FileNotFoundError(f"no such file: {source}")
    try:
        table = pq.read_table(source)
    except (pa.ArrowException, OSError) as err:
        raise ValueError(f"{source}: not a readable parquet file ({err})") from None
    raw = (table.schema.metadata or {}).get(_KEY)
    if raw is None:
        return table, None
    fields = load_json(raw, f"{source}: graphveil metadata")
    kind = fields.get("format") if isinstance(fields, dict) else None
    if kind not in (GRAPH_TAG, FORMAT_TAG):
        raise ValueError(f"{source}: unknown graphveil format {kind!r}")
    version = fields.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"{source}: invalid format version {version!r}")
    newest = written_version(GRAPH_TABLE_VERSION if kind == GRAPH_TAG else FORMAT_VERSION, True)
    if version > newest:
        raise ValueError(
            f"{source}: written in parquet format version {version}, newer than this graphveil "
            f"reads (up to {newest}); upgrade graphveil"
        )
    return table, fields


def _columns(source: Path, table: Any, want: list[str]) -> dict[str, np.ndarray]:
    names = table.column_names
    missing = [c for c in want if c not in names]
    if missing:
        raise ValueError(f"{source}: no column(s) {missing} (columns: {names}); expected {want}")
    return {c: table.column(c).to_numpy(zero_copy_only=False) for c in want}
