"""Reading and writing graphs: text edge lists (SNAP style, plain or compressed) and parquet.

The format read: one edge per line, two integer node ids separated by spaces, tabs or a comma;
further columns (weights, timestamps) are ignored; lines whose first non-blank character is
``#`` or ``%`` are comments; blank lines and CRLF line ends are fine. A file may be plain or
gzip, bzip2 or xz compressed (recognised by its magic bytes, whatever its suffix).

Files written by :func:`write_edgelist` start with graphveil's own header line,
``# graphveil edgelist n=<nodes> m=<edges> labels=<yes|no>``, which records the node count so that
isolated nodes survive a round trip. Only that exact first line is interpreted; every other
comment is ignored.

Parquet (:func:`write_parquet`, :func:`read_parquet`; ``pip install "graphveil[parquet]"``):
one row per edge or pair, columns ``u``, ``v`` (node ids, int32 or int64) and, for an uncertain
graph, ``p`` (float64). The schema metadata holds one key, ``graphveil``, a JSON object of
public fields only (:func:`release_fields`): ``format`` (``"graphveil.graph"`` or
``"graphveil.uncertain"``), ``format_version`` (:data:`FORMAT_VERSION`; readers refuse newer),
``graphveil_version``, ``n`` (so isolated nodes survive), ``relaxed``, ``ids_permuted``, and for
an uncertain graph the ``scheme`` name and its ``params`` when its ``meta`` has them. Never seeds,
timings, search histories or permutations.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import json
import lzma
import os
import re
import zlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

import numpy as np

from graphveil import _core
from graphveil._common import (
    SeedLike,
    atomic_path,
    check_output_path,
    check_threads,
    index_dtype,
    seed_to_u64,
)
from graphveil.graph import BuildCounts, Graph
from graphveil.uncertain import _SECRET_PARAMS, PUBLIC_META

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.record import RunRecord
    from graphveil.uncertain import UncertainGraph

__all__ = ["read_edgelist", "read_parquet", "write_edgelist", "write_parquet"]

#: Version of the parquet layout (and of the GraphML export's header). Readers refuse newer.
FORMAT_VERSION = 1
_GRAPH_TAG = "graphveil.graph"
_PARQUET_KEY = b"graphveil"
#: The only ``meta`` entries a released file carries: the scheme and its public parameters.
RELEASE_META_KEYS = PUBLIC_META
#: Never released, even nested inside ``params`` (derived from G0 or from randomness).
_PRIVATE_KEYS = _SECRET_PARAMS | {"timings", "history"}

PathLike = str | os.PathLike[str]

_HEADER = re.compile(rb"# graphveil edgelist n=(\d+) m=(\d+) labels=(yes|no)[ \t\r]*")
_ISOLATED_PREFIX = b"# graphveil isolated "
_ISOLATED_PER_LINE = 32
_DELIMITERS = ("\t", " ", ",")
_UTF8_BOM = b"\xef\xbb\xbf"


def read_edgelist(path: PathLike, *, header: bool = False, threads: int | None = None) -> Graph:
    r"""Read an undirected graph from a SNAP-style text edge list.

    Node ids may be any signed 64-bit integers. They are mapped to ``0..n-1`` in ascending
    order of the original id (the smallest id becomes node 0), and the original ids are kept as
    ``graph.labels`` (int64, ascending). The nodes are exactly the ids that occur on edge lines,
    self-loops included: a node that appears only in a self-loop stays, isolated. In a file
    written by :func:`write_edgelist`, the graphveil header line also restores isolated nodes.

    Self-loops are dropped and duplicate or reversed pairs merged; nothing is dropped silently:
    ``graph.build_counts`` reports the edge lines read, the self-loops dropped, and the merged
    duplicates split into exact repeats and reversed pairs.

    Parameters
    ----------
    path : str or os.PathLike
        The file, plain text or gzip/bzip2/xz compressed (detected from its content).
    header : bool, default False
        Skip the first line whatever it holds (a CSV header such as ``source,target``). Line
        numbers in error messages still count it.
    threads : int, optional
        Worker threads for parsing and building (None or 0: all cores). The result does not
        depend on it.

    Returns
    -------
    Graph
        With ``labels`` holding the original ids and ``build_counts`` filled in.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    IsADirectoryError, PermissionError
        If ``path`` is a directory or cannot be read.
    ValueError
        On malformed input, naming the file and the line: a non-integer token, a line with only
        one column, an id beyond the signed 64-bit range; on a file with no edge lines; on
        corrupt compressed data; on a graphveil header that disagrees with the edges below it.

    Notes
    -----
    The file is decompressed into memory with the standard library and parsed in C++ in
    parallel chunks cut at newlines, with the GIL released. Dense id ranges (the usual SNAP case)
    are relabelled through a bitmap in linear time, others by sorting.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "toy.txt"
    >>> _ = p.write_text("# toy\n10 20\n20 10\n20 30\n7 7\n")
    >>> g = read_edgelist(p)
    >>> g.n, g.m, g.labels.tolist()
    (4, 2, [7, 10, 20, 30])
    >>> c = g.build_counts
    >>> c.lines, c.self_loops, c.reversed_pairs, c.exact_repeats
    (4, 1, 1, 0)
    >>> _ = p.write_text("source,target\n10,20\n20,30\n")
    >>> read_edgelist(p, header=True).labels.tolist()
    [10, 20, 30]

    References
    ----------
    Nguyen, Imine, Rusinowitch (ASIACCS 2015), Section 7 (Evaluation): the paper's graphs
    (dblp, amazon, youtube) are SNAP edge lists in this format, http://snap.stanford.edu/data/
    """
    nthreads = check_threads(threads)
    source = Path(os.fspath(path))
    text = _decompress(source, _read_bytes(source))
    text = text.removeprefix(_UTF8_BOM)  # some Windows tools write one; not part of line 1
    body: bytes | memoryview = text
    skipped = 0
    if header:
        end = text.find(b"\n")
        # a view, not a copy: the parser reads the rest of the buffer in place
        body = memoryview(text)[len(text) if end < 0 else end + 1 :]
        skipped = 1
    try:
        u, v, lines = _core.parse_edgelist(body, nthreads)
    except ValueError as exc:
        raise ValueError(f"{source}: {_shift_line(str(exc), skipped)}") from None
    own = _read_header(source, text)  # a skipped first line may be graphveil's own header
    del text, body  # the pairs are parsed; free the text before building
    if u.size == 0 and own is None:
        lines += skipped
        what = (
            "the file is empty" if lines == 0 else f"its {lines:,} lines are all blank or comments"
        )
        if skipped:
            what += ", after the header line skipped by header=True"
        raise ValueError(
            f"{source}: no edges found ({what}); an edge line holds two integer node ids"
        )

    extra = np.zeros(0, dtype=np.int64)
    if own is not None:
        extra = np.arange(own.n, dtype=np.int64) if not own.labelled else own.isolated
    labels = _core.relabel_ascending(u, v, extra, nthreads)
    if own is not None:
        _check_header(source, own, labels)
    graph = build_counted(u, v, labels, nthreads)
    if own is not None and graph.m != own.m:
        raise ValueError(
            f"{source}: the graphveil header says m={own.m:,} but the file holds {graph.m:,} edges "
            "(edited or truncated?); delete the header line to read it as a plain edge list"
        )
    return graph


def write_edgelist(
    graph: Graph,
    path: PathLike,
    *,
    keep_ids: bool = False,
    seed: SeedLike = None,
    record: PathLike | None = None,
    delimiter: str = "\t",
    header: bool = True,
    threads: int | None = None,
) -> RunRecord:
    r"""Write a graph as a text edge list, one ``u<delimiter>v`` line per edge (``u < v``).

    Which ids are written:

    - A graph with integer ``labels`` (read from a file, built with labels, or sampled from a
      release whose ids are already permuted) is written under its labels, so
      ``read_edgelist`` gives it back exactly.
    - Any other graph (a sample of an anonymized graph, whose ids ``0..n-1`` follow the true
      graph's order) is written under a uniformly random permutation of ``0..n-1``, drawn from
      fresh entropy: node ``i`` becomes ``record.permutation[i]``. ``keep_ids=True`` writes
      ``0..n-1`` as they are; it is the only way to keep them.

    The file is compressed when ``path`` ends in ``.gz``, ``.bz2`` or ``.xz``, written
    atomically, and follows the umask. The returned :class:`~graphveil.RunRecord` holds the
    permutation; it is written to ``record`` (mode 0600) only when asked. Never publish it.

    With ``header=True`` (the default) the first line is graphveil's header,
    ``# graphveil edgelist n=<n> m=<m> labels=<yes|no>``; with labels, every isolated node's
    label follows on ``# graphveil isolated ...`` lines. :func:`read_edgelist` uses them to
    restore isolated nodes. Other tools see only comments. Without the header, isolated nodes
    are lost.

    Parameters
    ----------
    graph : Graph
        The graph to write.
    path : str or os.PathLike
        Destination; its suffix picks the compression (``.gz``, ``.bz2``, ``.xz``, else none).
    keep_ids : bool, default False
        Write ``0..n-1`` of an unlabelled graph as they are instead of permuting them.
    seed : int, numpy.random.Generator or None
        Randomness of the permutation. Leave it None for anything published: anyone who learns
        the seed redraws the permutation and maps the ids back.
    record : str or os.PathLike, optional
        Also write the private run record (the permutation) there, mode 0600.
    delimiter : {"\t", " ", ","}
        Column separator.
    header : bool, default True
        Write the graphveil header line(s).
    threads : int, optional
        Worker threads for formatting (None or 0: all cores).

    Returns
    -------
    RunRecord
        ``permutation`` is None when labels or ``0..n-1`` were written as they are.

    Raises
    ------
    TypeError
        If ``graph`` is not a Graph.
    ValueError
        If ``delimiter`` is not one of the three above, or integer labels are not distinct.
    FileNotFoundError, PermissionError
        If a destination cannot be written (checked before anything is written).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.txt.gz"
    >>> g = Graph.from_edges([0, 1], [1, 2], 4, labels=[10, 20, 30, 40])
    >>> write_edgelist(g, p).permutation is None
    True
    >>> back = read_edgelist(p)
    >>> back == g, back.labels.tolist()
    (True, [10, 20, 30, 40])
    >>> world = Graph.from_edges([0, 1], [1, 2], 4)   # no labels: ids are permuted
    >>> perm = write_edgelist(world, p).permutation
    >>> read_edgelist(p) == Graph.from_edges(perm[[0, 1]], perm[[1, 2]], 4)
    True
    """
    from graphveil.record import RunRecord, release_digest

    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, not {type(graph).__name__}")
    if delimiter not in _DELIMITERS:
        raise ValueError(
            f"delimiter must be one of {_DELIMITERS!r} (what read_edgelist reads), got {delimiter!r}"
        )
    nthreads = check_threads(threads)
    target = check_output_path(path)
    if record is not None:
        check_output_path(record)
    eu, ev = graph.edges()
    ids = _integer_labels(graph)
    use_labels = ids is not None
    perm: np.ndarray | None = None
    if ids is None and not keep_ids:
        perm = np.random.default_rng(seed_to_u64(seed)).permutation(graph.n).astype(np.int64)
        ids = perm
    if ids is not None:
        u, v = ids[eu], ids[ev]
    else:
        u, v = eu.astype(np.int64), ev.astype(np.int64)
    digest = release_digest(graph.n, *_canonical(u, v))
    body = _core.format_edgelist(u, v, delimiter, nthreads)
    del u, v
    head = b""
    if header:
        flag = "yes" if use_labels else "no"
        head = f"# graphveil edgelist n={graph.n} m={graph.m} labels={flag}\n".encode()
        if use_labels:
            assert ids is not None
            isolated = ids[graph.degrees == 0]
            for start in range(0, isolated.size, _ISOLATED_PER_LINE):
                chunk = " ".join(map(str, isolated[start : start + _ISOLATED_PER_LINE].tolist()))
                head += _ISOLATED_PREFIX + chunk.encode() + b"\n"
    with atomic_path(target) as tmp, tmp.open("wb") as raw, _compressor(target, raw) as out:
        out.write(head)
        out.write(body.data)
    result = RunRecord(perm, {}, [{"file": target.name, "digest": digest}])
    if record is not None:
        result.save(record)
    return result


def _canonical(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges as sorted ``(min, max)`` pairs: the content a digest is taken over."""
    a, b = np.minimum(u, v), np.maximum(u, v)
    order = np.lexsort((b, a))
    return a[order], b[order]


def build_counted(u: np.ndarray, v: np.ndarray, labels: Any, nthreads: int) -> Graph:
    """The graph on pairs already relabelled to ``0..len(labels)-1`` (int64 arrays).

    Every cleaning is counted: self-loops, exact repeats, reversed pairs (the one home of these counts,
    for files and tables alike). ``lines`` is the number of input pairs.
    """
    n = len(labels)
    directed = _core.count_directed_pairs(n, u, v, nthreads)
    indptr, indices, loops, dups = _core.build_csr(n, u, v, index_dtype(n), nthreads)
    pairs = int(u.size)
    m = indices.size // 2
    counts = BuildCounts(
        self_loops=int(loops),
        duplicates=int(dups),
        lines=pairs,
        exact_repeats=pairs - int(loops) - int(directed),
        reversed_pairs=int(directed) - m,
    )
    return Graph(indptr, indices, labels, counts, validate=False)


def release(
    graph: UncertainGraph, keep_ids: bool, seed: SeedLike
) -> tuple[UncertainGraph, np.ndarray]:
    """The graph as written for others, and ``perm`` (node ``i`` is written as ``perm[i]``).

    :meth:`UncertainGraph.with_permuted_ids`, the draw :meth:`UncertainGraph.save` makes: the same
    seed gives the same permutation. A graph whose ids already are a release's permutation
    (:attr:`UncertainGraph.ids_permuted`) is written as it is, as ``save`` does, never permuted twice.
    """
    if keep_ids or graph.ids_permuted:
        return graph, np.arange(graph.n, dtype=np.int64)
    return graph.with_permuted_ids(seed)


def release_fields(
    graph: Graph | UncertainGraph, *, ids_permuted: bool, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The public header of a released file: a whitelist, never the whole ``meta``.

    Format tag and version, package version, ``n``, the model, whether ids were permuted, and
    from ``meta`` only :data:`RELEASE_META_KEYS` (with any nested ``seed``, ``timings``,
    ``history`` or permutation entry removed).
    """
    from graphveil import __version__
    from graphveil.uncertain import _FORMAT_TAG

    uncertain = not isinstance(graph, Graph)
    fields: dict[str, Any] = {
        "format": _FORMAT_TAG if uncertain else _GRAPH_TAG,
        "format_version": FORMAT_VERSION,
        "graphveil_version": str(__version__),
        "n": int(graph.n),
        "relaxed": bool(getattr(graph, "relaxed", False)),
        "ids_permuted": bool(ids_permuted),
    }
    for key in RELEASE_META_KEYS:
        if meta and key in meta:
            fields[key] = _public(meta[key])
    return fields


def _public(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _public(v) for k, v in value.items() if k not in _PRIVATE_KEYS}
    if isinstance(value, (list, tuple)):
        return [_public(v) for v in value]
    return value


def write_parquet(
    graph: Graph | UncertainGraph,
    path: PathLike,
    *,
    keep_ids: bool = False,
    seed: SeedLike = None,
) -> np.ndarray | None:
    """Write a graph or an uncertain graph as a parquet table (columns ``u``, ``v`` [, ``p``]).

    An :class:`~graphveil.UncertainGraph` is a release: as in :meth:`UncertainGraph.save`,
    its node ids are randomly permuted unless ``keep_ids=True``, and the permutation is
    returned, never written. The schema metadata holds only public fields
    (:func:`release_fields`, described in the module docstring). A :class:`~graphveil.Graph`
    is written with ids ``0..n-1`` as :func:`write_edgelist` does (its labels never), ``n``
    in the metadata. The write is atomic.

    Parameters
    ----------
    graph : Graph or UncertainGraph
        What to write.
    path : str or os.PathLike
        Destination.
    keep_ids : bool, default False
        Uncertain graphs only: write node ids as they are.
    seed : int, numpy.random.Generator or None
        Uncertain graphs only: randomness of the permutation (None, fresh entropy, for
        anything published).

    Returns
    -------
    numpy.ndarray or None
        For an uncertain graph ``perm`` (node ``i`` is written as ``perm[i]``); None for a graph.

    Raises
    ------
    ImportError
        If pyarrow is missing: ``pip install "graphveil[parquet]"``.
    TypeError
        If ``graph`` is neither a Graph nor an UncertainGraph.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphveil import UncertainGraph
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "release.parquet"
    >>> ug = UncertainGraph(4, [0, 1], [1, 2], [0.5, 0.25], meta={"scheme": "maxvar", "seed": 7})
    >>> perm = write_parquet(ug, path, seed=1)
    >>> back = read_parquet(path)
    >>> sorted(back.p.tolist()), back.n, "seed" in back.meta
    ([0.25, 0.5], 4, False)
    """
    from graphveil.interop import require
    from graphveil.uncertain import UncertainGraph

    pa = require("pyarrow")
    import pyarrow.parquet as pq

    perm: np.ndarray | None = None
    if isinstance(graph, UncertainGraph):
        out, perm = release(graph, keep_ids, seed)
        fields = release_fields(out, ids_permuted=bool(out.ids_permuted), meta=graph.meta)
        columns = {"u": out.u, "v": out.v, "p": out.p}
    elif isinstance(graph, Graph):
        fields = release_fields(graph, ids_permuted=False)
        u, v = graph.edges()
        columns = {"u": u, "v": v}
    else:
        raise TypeError(f"expected a graphveil Graph or UncertainGraph, got {type(graph).__name__}")
    from graphveil.uncertain import _json_dumps

    table = pa.table(columns).replace_schema_metadata({_PARQUET_KEY: _json_dumps(fields)})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)
    return perm


def read_parquet(path: PathLike, *, threads: int | None = None) -> Graph | UncertainGraph:
    """Read a parquet file written by :func:`write_parquet`, or a plain edge table.

    With graphveil's metadata, the format tag says which kind comes back, ``n`` restores
    isolated nodes, and an uncertain graph's ``meta`` holds the released ``scheme`` and
    ``params`` plus what the file said about itself under ``meta["file"]`` (as
    :meth:`UncertainGraph.load`). Without it: a table with columns ``u``, ``v``, ``p`` is an
    uncertain graph on ``max id + 1`` nodes; a table with ``u``, ``v`` only is read as
    :meth:`Graph.from_arrow` reads it (ids of any kind, kept as labels).

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
    >>> write_parquet(Graph.from_edges([0], [1], 3), path)
    >>> read_parquet(path)
    Graph(n=3, m=1)
    """
    from graphveil.interop import require
    from graphveil.uncertain import _FORMAT_TAG, FILE_INFO_KEY, UncertainGraph

    require("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    source = Path(os.fspath(path))
    if not source.exists():
        raise FileNotFoundError(f"no such file: {source}")
    try:
        table = pq.read_table(source)
    except (pa.ArrowException, OSError) as err:
        raise ValueError(f"{source}: not a readable parquet file ({err})") from None
    raw = (table.schema.metadata or {}).get(_PARQUET_KEY)
    names = table.column_names
    want = ["u", "v", "p"] if raw is None and "p" in names else ["u", "v"]
    if raw is not None:
        try:
            fields = json.loads(raw)
        except json.JSONDecodeError as err:
            raise ValueError(f"{source}: graphveil metadata is not valid JSON ({err})") from None
        kind = fields.get("format") if isinstance(fields, dict) else None
        if kind not in (_GRAPH_TAG, _FORMAT_TAG):
            raise ValueError(f"{source}: unknown graphveil format {kind!r}")
        version = fields.get("format_version")
        if not isinstance(version, int) or version < 1:
            raise ValueError(f"{source}: invalid format version {version!r}")
        if version > FORMAT_VERSION:
            raise ValueError(
                f"{source}: written in parquet format version {version}, newer than this graphveil "
                f"reads (up to {FORMAT_VERSION}); upgrade graphveil"
            )
        want = ["u", "v", "p"] if kind == _FORMAT_TAG else ["u", "v"]
    missing = [c for c in want if c not in names]
    if missing:
        raise ValueError(f"{source}: no column(s) {missing} (columns: {names}); expected {want}")
    if raw is None and "p" not in names:
        return Graph.from_arrow(table, "u", "v", threads=threads)
    cols = {c: table.column(c).to_numpy(zero_copy_only=False) for c in want}
    try:
        if raw is None:
            n = int(max(cols["u"].max(initial=-1), cols["v"].max(initial=-1))) + 1
            return UncertainGraph(n, cols["u"], cols["v"], cols["p"])
        if kind == _GRAPH_TAG:
            return Graph.from_edges(cols["u"], cols["v"], fields["n"], threads=threads)
        meta = {k: fields[k] for k in RELEASE_META_KEYS if k in fields}
        ug = UncertainGraph(
            fields["n"], cols["u"], cols["v"], cols["p"], relaxed=fields["relaxed"], meta=meta
        )
    except (TypeError, ValueError, KeyError) as err:
        raise ValueError(f"{source}: invalid graph: {err}") from None
    ug.meta[FILE_INFO_KEY] = {
        k: fields.get(k) for k in ("format_version", "graphveil_version", "ids_permuted")
    }
    return ug


# ---------------------------------------------------------------------- helpers


class _Header(NamedTuple):
    n: int
    m: int
    labelled: bool
    isolated: np.ndarray


def _shift_line(message: str, skipped: int) -> str:
    """The parser numbers the lines of the buffer it saw; count the skipped header too."""
    if not skipped:
        return message
    return re.sub(r"^line (\d+)", lambda mt: f"line {int(mt[1]) + skipped}", message)


def _read_bytes(path: Path) -> bytes:
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; read_edgelist needs an edge list file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"edge list file {path} does not exist") from None
    except PermissionError:
        raise PermissionError(f"cannot read {path}: permission denied") from None


def _decompress(path: Path, raw: bytes) -> bytes:
    """Plain bytes of a file that may be gzip, bzip2 or xz compressed (sniffed, not by suffix)."""
    try:
        if raw[:2] == b"\x1f\x8b":
            return gzip.decompress(raw)
        if raw[:3] == b"BZh":
            return bz2.decompress(raw)
        if raw[:6] == b"\xfd7zXZ\x00":
            return lzma.decompress(raw)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
        raise ValueError(f"{path}: corrupt or truncated compressed data ({exc})") from None
    return raw


def _read_header(path: Path, text: bytes) -> _Header | None:
    """Graphveil's own header, if the first line is exactly that; None otherwise."""
    end = text.find(b"\n")
    first = text if end < 0 else text[:end]
    match = _HEADER.fullmatch(first)
    if match is None:
        return None
    isolated: list[int] = []
    pos = end + 1
    while end >= 0 and text.startswith(_ISOLATED_PREFIX, pos):
        end = text.find(b"\n", pos)
        line = text[pos + len(_ISOLATED_PREFIX) : None if end < 0 else end]
        try:
            isolated.extend(int(tok) for tok in line.split())
        except ValueError:
            raise ValueError(
                f"{path}: a '# graphveil isolated' header line holds a non-integer label"
            ) from None
        pos = end + 1
    try:
        iso = np.array(isolated, dtype=np.int64)
    except OverflowError:
        raise ValueError(
            f"{path}: a '# graphveil isolated' label is beyond the signed 64-bit range"
        ) from None
    return _Header(int(match[1]), int(match[2]), match[3] == b"yes", iso)


def _check_header(path: Path, header: _Header, labels: np.ndarray) -> None:
    if labels.size != header.n:
        what = (
            f"node ids outside 0..{header.n - 1}"
            if not header.labelled
            else f"{labels.size:,} distinct node ids"
        )
        raise ValueError(
            f"{path}: the graphveil header says n={header.n:,} but the file holds {what} "
            "(edited or truncated?); delete the header line to read it as a plain edge list"
        )


def _integer_labels(graph: Graph) -> np.ndarray | None:
    """The labels to write as ids, or None for a graph without integer labels."""
    if not graph.has_labels:
        return None
    labels = graph.labels
    if labels.dtype.kind not in "iu":
        return None  # e.g. the names of a networkx graph: written as (permuted) positions
    if labels.dtype == np.uint64 and labels.size and labels.max() > np.iinfo(np.int64).max:
        raise ValueError(
            "some labels exceed 2**63-1, which read_edgelist cannot read back; "
            "build the graph without labels to write (permuted) positions 0..n-1"
        )
    if np.unique(labels).size != labels.size:
        raise ValueError(
            "the labels are not distinct, so nodes would merge when read back; "
            "build the graph without labels to write (permuted) positions 0..n-1"
        )
    return labels.astype(np.int64, copy=False)


def _compressor(target: Path, raw: IO[bytes]) -> Any:
    suffix = target.suffix.lower()
    if suffix == ".gz":
        # mtime=0 and no file name in the gzip header: the same graph gives the same bytes.
        return gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=0)
    if suffix == ".bz2":
        return bz2.BZ2File(raw, "wb")
    if suffix == ".xz":
        return lzma.LZMAFile(raw, "wb")
    return contextlib.nullcontext(raw)
