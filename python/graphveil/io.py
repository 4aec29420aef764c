"""Reading and writing graphs and uncertain graphs: every file format graphveil knows.

Graphs: text edge lists (:func:`read_edgelist`, :func:`write_edgelist`, SNAP style, plain or
compressed) and parquet (:func:`write_parquet`; :func:`graphveil.read_parquet` reads either
kind, built on :func:`parquet_contents`).

The edge-list format read: one edge per line, two integer node ids separated by spaces, tabs or
a comma; further columns (weights, timestamps) are ignored; lines whose first non-blank
character is ``#`` or ``%`` are comments; blank lines and CRLF line ends are fine. A file may be
plain or gzip, bzip2 or xz compressed (recognised by its magic bytes, whatever its suffix).
Files written by :func:`write_edgelist` start with graphveil's own header line,
``# graphveil edgelist n=<nodes> m=<edges> labels=<yes|str|no>``, which records the node count so
that isolated nodes survive a round trip (``# graphveil isolated ...`` lines list a labelled
graph's isolated nodes). Only those lines are interpreted; every other comment is ignored. With
``labels=str`` the ids are string labels (one token each), which :func:`read_edgelist` reads back
as strings; without that header every id must be an integer.

Uncertain graphs are written as *releases*, all through one path, :func:`write_release`
(:meth:`UncertainGraph.save <graphveil.UncertainGraph.save>`, :func:`write_parquet` and
:meth:`UncertainGraph.to_graphml <graphveil.UncertainGraph.to_graphml>` call it): the same
whitelist of public fields (:data:`RELEASE_KEYS`), secret parameters refused, node ids permuted
by the same draw, an atomic write, and the private :class:`~graphveil.record.RunRecord` returned,
for each of the four formats (:data:`RELEASE_FORMATS`):

- ``npz``: a numpy archive, one entry per key of :data:`RELEASE_KEYS` (``scheme``, ``params`` as
  JSON), version :data:`UNCERTAIN_FORMAT_VERSION`;
- ``tsv``: one ``u<TAB>v<TAB>p`` line per pair and nothing else, the header (the scalar keys of
  :data:`RELEASE_KEYS`) in the JSON sidecar :func:`sidecar_path`, version
  :data:`UNCERTAIN_FORMAT_VERSION`;
- ``parquet`` (``pip install "graphveil[parquet]"``): columns ``u``, ``v`` (int32 or int64) and
  ``p`` (float64); the schema metadata holds one key, ``graphveil``, a JSON object of the same
  header, version :data:`FORMAT_VERSION`. A graph's table has no ``p``, the format tag
  ``"graphveil.graph"`` (version 2), ``n``, ``labels`` (what ``u``, ``v`` hold: ``"int"`` or
  ``"str"`` labels, or ``"positions"`` ``0..n-1``) and ``isolated`` (the isolated nodes' labels),
  so labels and isolated nodes survive;
- ``graphml`` (write only): nodes ``0..n-1``, the edge attribute ``p``, the same header as JSON in
  the graph attribute ``graphveil``, version :data:`FORMAT_VERSION`.

Text formats (edge lists, TSV, GraphML) are compressed when the name ends in ``.gz``, ``.bz2`` or
``.xz``, with one setting per format wherever it is written, and readers detect the compression
from the content.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import json
import lzma
import os
import re
import zipfile
import zlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple
from xml.sax.saxutils import escape

import numpy as np

from graphveil import _core
from graphveil._common import (
    INT32_LIMIT,
    PACKAGE_VERSION,
    SeedLike,
    atomic_group,
    atomic_path,
    check_output_path,
    check_threads,
    load_json,
    seed_to_u64,
)
from graphveil.graph import Graph, build_counted
from graphveil.interop import require
from graphveil.record import RunRecord, release_digest

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.uncertain import UncertainGraph

__all__ = [
    "Release",
    "read_edgelist",
    "parquet_contents",
    "read_release",
    "release_format",
    "sidecar_path",
    "write_edgelist",
    "write_parquet",
    "write_release",
    "written_ids",
]

PathLike = str | os.PathLike[str]

_HEADER = re.compile(rb"# graphveil edgelist n=(\d+) m=(\d+) labels=(yes|str|no)[ \t\r]*")
_ISOLATED_PREFIX = b"# graphveil isolated "
_ISOLATED_PER_LINE = 32
_DELIMITERS = ("\t", " ", ",")
_UTF8_BOM = b"\xef\xbb\xbf"

# ---------------------------------------------------------------------- release constants
#: Version of the parquet layout and of the GraphML header. Readers refuse newer.
FORMAT_VERSION = 1
#: Version of a graph's parquet table. Version 2 added ``labels`` (``"int"``, ``"str"`` or
#: ``"positions"``: what ``u`` and ``v`` hold) and ``isolated`` (the isolated nodes' labels).
_GRAPH_TABLE_VERSION = 2
#: Version of the .npz and TSV uncertain-graph layout. Readers refuse newer versions.
#: Version 1 also stored the scheme's seed and whole report; version 2 is the safe release.
UNCERTAIN_FORMAT_VERSION = 2
#: The formats a release is written in (:func:`write_release`); GraphML is write only.
RELEASE_FORMATS = ("npz", "tsv", "parquet", "graphml")
#: Layout version each release format writes.
_VERSION_OF = {
    "npz": UNCERTAIN_FORMAT_VERSION,
    "tsv": UNCERTAIN_FORMAT_VERSION,
    "parquet": FORMAT_VERSION,
    "graphml": FORMAT_VERSION,
}
_FORMAT_TAG = "graphveil.uncertain"
_GRAPH_TAG = "graphveil.graph"
_PARQUET_KEY = b"graphveil"
#: Every entry of a published file, and nothing else (the release whitelist): the format, n, the
#: pairs and their p, the scheme's name and the parameters its user chose, whether the ids were
#: permuted, the package version. Seeds, permutations and reports go to the private RunRecord.
RELEASE_KEYS = (
    "format",
    "format_version",
    "graphveil_version",
    "n",
    "relaxed",
    "ids_permuted",
    "scheme",
    "params",
    "u",
    "v",
    "p",
)
#: The scalar keys: the header of every format (the arrays are its body).
_HEADER_KEYS = RELEASE_KEYS[:-3]
#: Keys of ``meta`` that are published (the rest of ``meta`` goes to the run record).
PUBLIC_META = ("scheme", "params")
#: Names that must never appear in a release, at any depth of ``meta["params"]``: they are derived
#: from the true graph or from randomness (a write refuses them before anything is written).
_SECRET_PARAMS = frozenset({"seed", "permutation", "perm", "timings", "history"})
#: Zip entries of a release get this fixed timestamp: equal graphs give equal bytes.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: Key under which a reader records what the file said about itself.
FILE_INFO_KEY = "file"
#: gzip level of each text format, wherever it is written. TSV releases at 1: on 2.2M pairs ~5x
#: faster than level 6 for a file ~15% larger (random p values barely compress). bzip2 and xz
#: use their library defaults for every format.
_GZIP_LEVEL = {"edgelist": 6, "graphml": 6, "tsv": 1}
_COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
#: The most nodes a release read from a file may claim: a larger ``n`` is a crafted or corrupt
#: file (every measure allocates per node), refused before anything is allocated.
MAX_RELEASE_NODES = INT32_LIMIT
#: Deflate expands at most ~1032-fold: a zip entry claiming more is crafted.
_MAX_DEFLATE_RATIO = 1100
_TEXT_CHUNK = 1 << 16


def read_edgelist(
    path: PathLike, *, header: bool = False, threads: int | None = None, directed: bool = False
) -> Graph:
    r"""Read a graph from a SNAP-style text edge list (undirected unless ``directed=True``).

    Node ids may be any signed 64-bit integers. They are mapped to ``0..n-1`` in ascending
    order of the original id (the smallest id becomes node 0), and the original ids are kept as
    ``graph.labels`` (int64, ascending). The nodes are exactly the ids that occur on edge lines,
    self-loops included: a node that appears only in a self-loop stays, isolated. In a file
    written by :func:`write_edgelist`, the graphveil header line also restores isolated nodes,
    and ``labels=str`` in it says the ids are strings: they are then kept as ``str`` labels
    (ascending order), read by a plain Python tokenizer rather than the C++ parser.

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
    directed : bool, default False
        Read every line ``u v`` as the arc ``u -> v`` (SNAP's directed graphs, e.g.
        soc-Epinions1): a directed :class:`~graphveil.Graph` in which a line and its reverse are
        two arcs; self-loops are dropped and exact repeats merged, both counted
        (``reversed_pairs`` is 0).

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
    own = _read_header(source, text)  # a skipped first line may be graphveil's own header
    if own is not None and own.kind == "str":
        return _read_string_edgelist(source, text, own, nthreads, directed=directed)
    try:
        u, v, lines = _core.parse_edgelist(body, nthreads)
    except ValueError as exc:
        raise ValueError(f"{source}: {_shift_line(str(exc), skipped)}") from None
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
        extra = np.arange(own.n, dtype=np.int64) if own.kind == "no" else _int_tokens(source, own)
    labels = _core.relabel_ascending(u, v, extra, nthreads)
    if own is not None:
        _check_header(source, own, labels)
    graph = build_counted(u, v, labels, nthreads, directed=directed)
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

    - A graph with integer or string ``labels`` (read from a file, built with labels, from a
      networkx graph with named nodes, or sampled from a release whose ids are already
      permuted) is written under its labels, so ``read_edgelist`` gives it back exactly (nodes
      numbered in ascending label order). A string label must be one token: no blank or
      comma, not empty, no leading ``#`` or ``%`` (else ValueError; parquet keeps any string).
    - Any other graph (a sample of an anonymized graph, whose ids ``0..n-1`` follow the true
      graph's order) is written under a uniformly random permutation of ``0..n-1``, drawn from
      fresh entropy: node ``i`` becomes ``record.permutation[i]``. ``keep_ids=True`` writes
      ``0..n-1`` as they are; it is the only way to keep them.

    The file is compressed when ``path`` ends in ``.gz``, ``.bz2`` or ``.xz``, written
    atomically, and follows the umask. The returned :class:`~graphveil.RunRecord` holds the
    permutation; it is written to ``record`` (mode 0600) only when asked. Never publish it.

    With ``header=True`` (the default) the first line is graphveil's header,
    ``# graphveil edgelist n=<n> m=<m> labels=<yes|str|no>``; with labels, every isolated node's
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
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, not {type(graph).__name__}")
    if delimiter not in _DELIMITERS:
        raise ValueError(
            f"delimiter must be one of {_DELIMITERS!r} (what read_edgelist reads), got {delimiter!r}"
        )
    nthreads = check_threads(threads)
    target = check_output_path(path)
    if record is not None:
        _check_record_path(record, target)
    ids, perm, kind = written_ids(graph, keep_ids, seed, text=True)
    eu, ev = graph.edges()
    if kind == "str":  # string labels: formatted here (C++ formats integers)
        u, v = ids[eu], ids[ev]
        rank = np.empty(graph.n, dtype=np.int64)  # digest over the ids as read back: ranks
        rank[np.argsort(ids, kind="stable")] = np.arange(graph.n, dtype=np.int64)
        digest = release_digest(graph.n, *_canonical(rank[eu], rank[ev]))
        body = memoryview(
            "".join(f"{a}{delimiter}{b}\n" for a, b in zip(u.tolist(), v.tolist())).encode()
        )
    else:
        u, v = ids[eu], ids[ev]
        digest = release_digest(graph.n, *_canonical(u, v))
        body = _core.format_edgelist(u, v, delimiter, nthreads).data
    del u, v
    head = b""
    if header:
        flag = {"int": "yes", "str": "str", "positions": "no"}[kind]
        head = f"# graphveil edgelist n={graph.n} m={graph.m} labels={flag}\n".encode()
        if flag != "no":
            isolated = ids[graph.degrees == 0].tolist()
            for start in range(0, len(isolated), _ISOLATED_PER_LINE):
                chunk = " ".join(map(str, isolated[start : start + _ISOLATED_PER_LINE]))
                head += _ISOLATED_PREFIX + chunk.encode() + b"\n"
    result = RunRecord(perm, {}, [{"file": target.name, "digest": digest}])
    with atomic_group():  # the edge list and its record: both in place, or neither
        with (
            atomic_path(target) as tmp,
            tmp.open("wb") as raw,
            _compressor(target, raw, "edgelist") as out,
        ):
            out.write(head)
            out.write(body)
        if record is not None:
            result.save(record)
    return result


def _canonical(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges as sorted ``(min, max)`` pairs: the content a digest is taken over."""
    a, b = np.minimum(u, v), np.maximum(u, v)
    order = np.lexsort((b, a))
    return a[order], b[order]


# ---------------------------------------------------------------------- releases
class Release(NamedTuple):
    """An uncertain-graph release as read from a file: its header and its arrays.

    ``header`` holds ``format_version``, ``graphveil_version``, ``n``, ``relaxed``,
    ``ids_permuted`` (None when the file did not say) and ``meta`` (the published ``scheme`` and
    ``params`` only). :meth:`UncertainGraph.load <graphveil.UncertainGraph.load>` builds the graph.
    """

    header: dict[str, Any]
    u: np.ndarray
    v: np.ndarray
    p: np.ndarray


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
    ids are permuted (:func:`release`, the draw of :meth:`UncertainGraph.with_permuted_ids
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
    fmt = release_format(path, format)
    if not hasattr(graph, "with_permuted_ids"):
        raise TypeError(f"expected a graphveil UncertainGraph, got {type(graph).__name__}")
    if fmt == "parquet":
        require("pyarrow")
    target = check_output_path(path)
    if record is not None:
        _check_record_path(record, target, sidecar_path(target))
    scheme, params = _public_meta(graph.meta)
    private = json.loads(_meta_json(graph.meta))  # also checks meta is JSON-serialisable
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
    header = {
        "format": _FORMAT_TAG,
        "format_version": _VERSION_OF[fmt],
        "graphveil_version": PACKAGE_VERSION,
        "n": out.n,
        "relaxed": out.relaxed,
        "ids_permuted": bool(out.ids_permuted),
        "scheme": scheme,
        "params": params,
    }
    assert tuple(header) == _HEADER_KEYS  # the whitelist is the one home of the layout
    entry = {"file": target.name, "digest": release_digest(out.n, out.u, out.v, out.p)}
    result = RunRecord(mapping, private, [*(r for r in releases if r != entry), entry])
    with atomic_group():  # the release, its sidecar and its record: all in place, or none
        _WRITERS[fmt](target, header, out, compress)
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


def _check_record_path(record: PathLike, *files: Path) -> None:
    """Refuse a run record path that names one of the release's own files."""
    check_output_path(record)
    if Path(record).resolve() in {f.resolve() for f in files}:
        raise ValueError(f"the run record {os.fspath(record)} must not overwrite the release")


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


def release_format(path: PathLike, format: str | None = None) -> str:
    """The release format of ``path``: ``format`` if given, else told from the suffix.

    ``.npz``; ``.tsv``, ``.txt``, ``.tab``; ``.parquet``; ``.graphml``; a text format may end in
    ``.gz``, ``.bz2`` or ``.xz``.

    Raises
    ------
    ValueError
        If ``format`` is not one of :data:`RELEASE_FORMATS`, or no suffix tells the format.

    Examples
    --------
    >>> release_format("pub.tsv.gz"), release_format("x.bin", "npz")
    ('tsv', 'npz')
    """
    if format is not None:
        if format not in RELEASE_FORMATS:
            raise ValueError(
                f"format must be one of {', '.join(map(repr, RELEASE_FORMATS))}, got {format!r}"
            )
        return format
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in _COMPRESSED_SUFFIXES:
        suffixes = suffixes[:-1]
    last = suffixes[-1] if suffixes else ""
    found = {".npz": "npz", ".tsv": "tsv", ".txt": "tsv", ".tab": "tsv"}
    found.update({".parquet": "parquet", ".graphml": "graphml"})
    if last in found:
        return found[last]
    raise ValueError(
        f"cannot tell the format of {os.fspath(path)!r} from its suffix; use .npz, .parquet, "
        ".tsv or .graphml (the text formats optionally .gz/.bz2/.xz), or pass format= one of "
        f"{', '.join(map(repr, RELEASE_FORMATS))}"
    )


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
    if format is None:
        magic = _magic(target)
        fmt = (
            "npz"
            if magic.startswith(b"PK\x03\x04")
            else "parquet"
            if magic.startswith(b"PAR1")
            else release_format(target)
        )
    else:
        fmt = release_format(target, format)
    if fmt == "graphml":
        raise ValueError(
            f"{target}: GraphML is written for other tools and not read back by graphveil; "
            "keep the .npz, .tsv or .parquet release to load"
        )
    readers = {"npz": _read_npz, "tsv": _read_tsv, "parquet": _read_parquet_release}
    return _release(target, *readers[fmt](target))


def _release(
    path: Path, header: dict[str, Any], u: np.ndarray, v: np.ndarray, p: np.ndarray
) -> Release:
    """The release read, once its node count is known to be one a graph can have."""
    n = header["n"]
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{path}: 'n' must be a non-negative integer, got {n!r}")  # noqa: TRY004 (bad file content)
    if n > MAX_RELEASE_NODES:
        raise ValueError(
            f"{path}: claims n = {n:,} nodes, more than graphveil reads ({MAX_RELEASE_NODES:,}); "
            "a corrupt or crafted file"
        )
    if not isinstance(header["ids_permuted"], (bool, type(None))):
        raise ValueError(f"{path}: 'ids_permuted' must be true or false")  # noqa: TRY004 (bad file content)
    if not isinstance(header["relaxed"], bool):
        raise ValueError(f"{path}: 'relaxed' must be true or false")  # noqa: TRY004 (bad file content)
    return Release(header, u, v, p)


def sidecar_path(path: PathLike) -> Path:
    """Where the release header of TSV release ``path`` lives: ``path`` + ``.json``.

    ``g.tsv`` has its header in ``g.tsv.json`` (``g.tsv.gz`` in ``g.tsv.gz.json``), so the TSV
    body is nothing but ``u<TAB>v<TAB>p`` lines, read as it is by igraph's ``Graph.Read_Ncol``,
    networkx's ``read_weighted_edgelist``, pandas or awk.

    Examples
    --------
    >>> sidecar_path("pub.tsv.gz").name
    'pub.tsv.gz.json'
    """
    target = Path(path)
    return target.with_name(target.name + ".json")


# ---------------------------------------------------------------------- release writers
# Each takes (target, header, graph as written, compress) and writes atomically.


def _write_npz(target: Path, header: dict[str, Any], graph: UncertainGraph, compress: bool) -> None:
    arrays: dict[str, np.ndarray] = {
        "format": np.array(header["format"]),
        "format_version": np.array(header["format_version"], dtype=np.int64),
        "graphveil_version": np.array(header["graphveil_version"]),
        "n": np.array(header["n"], dtype=np.int64),
        "relaxed": np.array(header["relaxed"]),
        "ids_permuted": np.array(header["ids_permuted"]),
        "scheme": np.array(_json_dumps(header["scheme"])),
        "params": np.array(_json_dumps(header["params"])),
        "u": graph.u,
        "v": graph.v,
        "p": graph.p,
    }
    assert tuple(arrays) == RELEASE_KEYS  # the whitelist is the one home of the layout
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    # np.savez stamps every entry with the wall clock; a fixed date makes equal graphs equal bytes
    with atomic_path(target) as tmp, zipfile.ZipFile(tmp, "w", method, allowZip64=True) as zf:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=True) as fh:
                np.lib.format.write_array(fh, np.asanyarray(arr), allow_pickle=False)


def _write_tsv(target: Path, header: dict[str, Any], graph: UncertainGraph, compress: bool) -> None:
    # Why a sidecar and not '#' lines: igraph's Read_Ncol has no comment syntax and fails on a
    # header, and any header inside the body makes the file one more dialect to explain. The
    # body stays a plain weighted edge list; the sidecar JSON holds exactly the header keys of
    # RELEASE_KEYS (nothing else is public), so a reader without it still gets every pair.
    # (compress: the suffix decides for text formats.)
    with (
        atomic_path(target) as tmp,
        tmp.open("wb") as raw,
        _compressor(target, raw, "tsv") as packed,
        # text through a TextIOWrapper: its chunking is part of the compressed bytes
        io.TextIOWrapper(packed, encoding="utf-8") as fh,
    ):
        for a, b, c in _pair_chunks(graph):
            fh.write("".join(f"{x}\t{y}\t{q!r}\n" for x, y, q in zip(a, b, c)))
    with atomic_path(sidecar_path(target)) as tmp:
        # keys in RELEASE_KEYS order (like the npz entries); values as the npz writes them
        text = json.dumps({k: json.loads(_json_dumps(v)) for k, v in header.items()}, indent=1)
        tmp.write_text(text + "\n", encoding="utf-8")


def _write_parquet_release(
    target: Path, header: dict[str, Any], graph: UncertainGraph, compress: bool
) -> None:
    _write_parquet_table(target, header, {"u": graph.u, "v": graph.v, "p": graph.p})


_GRAPHML_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns \
http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
<key id="p" for="edge" attr.name="p" attr.type="double"/>
<key id="graphveil" for="graph" attr.name="graphveil" attr.type="string"/>
<graph id="G" edgedefault="undirected">
<data key="graphveil">{info}</data>
"""


def _write_graphml(
    target: Path, header: dict[str, Any], graph: UncertainGraph, compress: bool
) -> None:
    """A small streaming GraphML writer (no library needed)."""
    with (
        atomic_path(target) as tmp,
        tmp.open("wb") as raw,
        _compressor(target, raw, "graphml") as fh,
    ):
        fh.write(_GRAPHML_HEAD.format(info=escape(_json_dumps(header))).encode())
        for start in range(0, graph.n, _TEXT_CHUNK):
            ids = range(start, min(start + _TEXT_CHUNK, graph.n))
            fh.write("".join(f'<node id="{i}"/>\n' for i in ids).encode())
        for a, b, c in _pair_chunks(graph):
            fh.write(
                "".join(
                    f'<edge source="{x}" target="{y}"><data key="p">{q!r}</data></edge>\n'
                    for x, y, q in zip(a, b, c)
                ).encode()
            )
        fh.write(b"</graph>\n</graphml>\n")


_WRITERS = {
    "npz": _write_npz,
    "tsv": _write_tsv,
    "parquet": _write_parquet_release,
    "graphml": _write_graphml,
}


def _pair_chunks(graph: UncertainGraph) -> Any:
    """The pairs as Python lists ``(u, v, p)``, a bounded chunk at a time."""
    u, v, p = graph.u, graph.v, graph.p
    for start in range(0, graph.num_pairs, _TEXT_CHUNK):
        stop = start + _TEXT_CHUNK
        yield u[start:stop].tolist(), v[start:stop].tolist(), p[start:stop].tolist()


# ---------------------------------------------------------------------- release readers
def _read_npz(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    def bad(what: str) -> ValueError:
        return ValueError(f"{path}: not a readable graphveil uncertain-graph .npz file ({what})")

    try:
        # our own handle: np.load leaks the file it opened when the archive is truncated
        with open(path, "rb") as fh:
            _check_npy_sizes(fh, path)  # before np.load allocates what a header claims
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as data:
                files = list(data.files)
                wanted = (*RELEASE_KEYS, *_V1_KEYS)
                arrays = {k: data[k] for k in wanted if k in files}
    except (zipfile.BadZipFile, OSError, EOFError, KeyError, ValueError, zlib.error) as err:
        raise bad(f"{type(err).__name__}: {err}") from None
    if "format" not in arrays or "format_version" not in arrays:
        raise bad(f"no format tag; entries found: {sorted(files)}")
    if str(arrays["format"]) != _FORMAT_TAG:
        raise bad(f"format tag is {str(arrays['format'])!r}, expected {_FORMAT_TAG!r}")
    version = _scalar_int(arrays["format_version"], "format_version", path)
    _check_version(version, path)
    keys = _keys_of_version(version)
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise bad(f"missing entries {missing}")
    texts = {k: load_json(str(arrays[k]), f"{path}: entry {k!r}") for k in keys if k in _JSON_KEYS}
    header = {
        "format_version": version,
        "graphveil_version": str(arrays["graphveil_version"]),
        "n": _scalar_int(arrays["n"], "n", path),
        "relaxed": _scalar_bool(arrays["relaxed"], "relaxed", path),
        "ids_permuted": _scalar_bool(arrays["ids_permuted"], "ids_permuted", path),
        "meta": _public_of(texts, path),
    }
    u, v, p = arrays["u"], arrays["v"], arrays["p"]
    for name, arr in (("u", u), ("v", v), ("p", p)):
        if arr.ndim != 1:
            raise bad(f"{name} must be 1-d, has shape {arr.shape}")
    if not (u.size == v.size == p.size):
        raise bad(f"u, v and p differ in length: {u.size}, {v.size}, {p.size}")
    if not (np.issubdtype(u.dtype, np.integer) and np.issubdtype(v.dtype, np.integer)):
        raise bad(f"u and v must be integer arrays, got {u.dtype} and {v.dtype}")
    if not np.issubdtype(p.dtype, np.floating):
        raise bad(f"p must be a float array, got {p.dtype}")
    return header, u, v, p


def _check_npy_sizes(fh: IO[bytes], path: Path) -> None:
    """Refuse an entry whose ``.npy`` header claims more data than the archive holds.

    ``np.load`` allocates the whole array a header describes before reading it: a crafted
    ``p.npy`` claiming 10^12 elements asks for 7.28 TiB. Each header is read here first
    (:mod:`numpy.lib.format`) and its size checked against the entry's, and the entry's against
    what deflate can expand its stored bytes to.
    """
    readers = {
        (1, 0): np.lib.format.read_array_header_1_0,
        (2, 0): np.lib.format.read_array_header_2_0,
    }
    with zipfile.ZipFile(fh) as zf:
        for info in zf.infolist():
            if info.file_size > max(info.compress_size, 1) * _MAX_DEFLATE_RATIO:
                raise ValueError(f"entry {info.filename} claims {info.file_size:,} bytes")
            with zf.open(info) as member:
                version = np.lib.format.read_magic(member)
                if version not in readers:
                    raise ValueError(f"entry {info.filename}: .npy version {version} not read")
                shape, _, dtype = readers[version](member)
                need = int(np.prod(shape, dtype=object)) * dtype.itemsize
                if need > info.file_size:
                    raise ValueError(
                        f"entry {info.filename}: its header claims shape {shape} ({need:,} bytes), "
                        f"the entry holds {info.file_size:,}"
                    )


#: Entries of a version-1 file beyond the release's: read (to find scheme and params), never kept.
_V1_KEYS = ("seed", "meta")
_JSON_KEYS = ("scheme", "params", "seed", "meta")


def _keys_of_version(version: int) -> tuple[str, ...]:
    if version == 1:
        return tuple(k for k in RELEASE_KEYS if k not in PUBLIC_META) + _V1_KEYS
    return RELEASE_KEYS


def _read_tsv(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    try:
        raw = _decompress(path, path.read_bytes())
    except OSError as err:
        raise ValueError(f"{path}: cannot read as text: {type(err).__name__}: {err}") from None
    raw = raw.removeprefix(_UTF8_BOM)
    if b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"):
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # CR-only lines are lines
    fields = _comment_fields(path, raw)
    fields.update(_sidecar_fields(path))

    def loads(key: str) -> Any:
        return load_json(fields[key], key) if key in fields else None

    try:
        version = int(fields.get("format_version", "1"))
        texts = {k: loads(k) for k in _JSON_KEYS if k in fields}
        header: dict[str, Any] = {
            "format_version": version,
            "graphveil_version": loads("graphveil_version"),
            "n": loads("n"),
            "relaxed": loads("relaxed"),
            "ids_permuted": loads("ids_permuted"),
        }
    except ValueError as err:
        raise ValueError(f"{path}: malformed header line: {err}") from None
    if fields.get("format", _FORMAT_TAG) != _FORMAT_TAG:
        raise ValueError(
            f"{path}: header names format {fields['format']!r}, expected {_FORMAT_TAG!r}"
        )
    _check_version(version, path)
    if not isinstance(header["relaxed"], (bool, type(None))):
        raise ValueError(f"{path}: header 'relaxed' must be true or false")  # noqa: TRY004 (bad file content)
    header["meta"] = _public_of(texts, path)
    try:
        # the C++ reader: parallel, exact (p is the double float() gives for its text)
        u, v, p, _ = _core.parse_weighted_edgelist(raw, check_threads(None))
    except ValueError as err:
        raise ValueError(
            f"{path}: expected lines 'u v p' (two integer ids, one probability): {err}"
        ) from None
    del raw
    if header["n"] is None:
        header["n"] = int(max(u.max(initial=-1), v.max(initial=-1))) + 1
    if header["relaxed"] is None:  # no header: a self-loop can only come from a relaxed model
        header["relaxed"] = bool(np.any(u == v))
    if isinstance(header["n"], bool) or not isinstance(header["n"], int):
        raise ValueError(f"{path}: header 'n' must be an integer, got {header['n']!r}")  # noqa: TRY004 (bad file content)
    return header, u, v, p


def _comment_fields(path: Path, raw: bytes) -> dict[str, str]:
    """The ``# key: value`` lines at the top: the body header of releases before the sidecar."""
    fields: dict[str, str] = {}
    pos = 0
    while pos < len(raw):
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        line = raw[pos:end].strip()
        pos = end + 1
        if not line:
            continue
        if not line.startswith(b"#"):
            break
        try:
            text = line[1:].decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"{path}: cannot read as text: {type(err).__name__}: {err}") from None
        key, sep, value = text.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    return fields


def _sidecar_fields(path: Path) -> dict[str, str]:
    side = sidecar_path(path)
    if not side.exists():
        return {}
    try:
        text = side.read_bytes()
    except OSError as err:
        raise ValueError(f"{side}: cannot read the release header: {err}") from None
    data = load_json(text, f"{side}: the release header")
    if not isinstance(data, dict):
        raise ValueError(f"{side}: the release header is not a JSON object")  # noqa: TRY004 (bad file content)
    # the same text form as the '# key: value' lines older versions wrote into the body
    return {
        str(k): (value if k == "format" and isinstance(value, str) else _json_dumps(value))
        for k, value in data.items()
    }


def _read_parquet_release(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    return _uncertain_table(path, *_read_parquet_table(path))


def _uncertain_table(
    path: Path, table: Any, fields: dict[str, Any] | None
) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """Header and arrays of an uncertain graph's parquet table (``fields``: its metadata)."""
    if fields is not None and fields["format"] != _FORMAT_TAG:
        raise ValueError(
            f"{path}: holds a graph, not an uncertain graph; read it with graphveil.read_parquet"
        )
    cols = _parquet_columns(path, table, ["u", "v", "p"])
    u, v, p = cols["u"], cols["v"], cols["p"]
    if fields is None:  # a plain table: n from the ids; the model and the ids' origin unknown
        n = int(max(u.max(initial=-1), v.max(initial=-1))) + 1
        plain = {"format_version": None, "graphveil_version": None, "n": n, "relaxed": False}
        return {**plain, "ids_permuted": None, "meta": {}}, u, v, p
    missing = [k for k in _HEADER_KEYS[:-2] if k not in fields]
    if missing:
        raise ValueError(f"{path}: invalid graph: the graphveil metadata lacks {missing}")
    header = {k: fields[k] for k in ("format_version", "graphveil_version", "n", "relaxed")}
    header.update(ids_permuted=fields["ids_permuted"], meta=_public_of(fields, path))
    return header, u, v, p


# ---------------------------------------------------------------------- parquet
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
        return write_release(graph, path, format="parquet", keep_ids=keep_ids, seed=seed)
    require("pyarrow")
    target = check_output_path(path)
    ids, perm, kind = written_ids(graph, keep_ids, seed, text=False)
    fields = {
        "format": _GRAPH_TAG,
        "format_version": _GRAPH_TABLE_VERSION,
        "graphveil_version": PACKAGE_VERSION,
        "n": int(graph.n),
        "relaxed": False,
        "ids_permuted": perm is not None,
        "labels": kind,
        "isolated": [] if kind == "positions" else ids[graph.degrees == 0].tolist(),
    }
    u, v = graph.edges()
    _write_parquet_table(target, fields, {"u": ids[u], "v": ids[v]})
    if kind == "str":  # the digest is over the ids as read back (ascending labels)
        rank = np.empty(graph.n, dtype=np.int64)
        rank[np.argsort(ids, kind="stable")] = np.arange(graph.n, dtype=np.int64)
        digest = release_digest(graph.n, *_canonical(rank[u], rank[v]))
    else:
        digest = release_digest(graph.n, *_canonical(ids[u], ids[v]))
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
    table, fields = _read_parquet_table(source)
    if fields is None and "p" not in table.column_names:
        _parquet_columns(source, table, ["u", "v"])
        return Graph.from_arrow(table, "u", "v", threads=threads)
    if fields is not None and fields["format"] == _GRAPH_TAG:
        cols = _parquet_columns(source, table, ["u", "v"])
        try:
            return _graph_table(cols["u"], cols["v"], fields, check_threads(threads))
        except (TypeError, ValueError, KeyError) as err:
            raise ValueError(f"{source}: invalid graph: {err}") from None
    return _release(source, *_uncertain_table(source, table, fields))


def _graph_table(u: np.ndarray, v: np.ndarray, fields: dict[str, Any], nthreads: int) -> Graph:
    """The graph of a graph table: ids ``0..n-1``, or labels (then numbered ascending)."""
    n, kind = fields["n"], fields.get("labels", "positions")
    if kind == "positions":
        return Graph.from_edges(u, v, n, threads=nthreads)
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
    return Graph.from_edges(a, b, n, labels=labels, threads=nthreads)


def _write_parquet_table(target: Path, fields: dict[str, Any], columns: dict[str, Any]) -> None:
    pa = require("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table(columns).replace_schema_metadata({_PARQUET_KEY: _json_dumps(fields)})
    with atomic_path(target) as tmp:
        pq.write_table(table, tmp)


def _read_parquet_table(source: Path) -> tuple[Any, dict[str, Any] | None]:
    """The table and its validated graphveil metadata (None for a plain table)."""
    pa = require("pyarrow")
    import pyarrow.parquet as pq

    if not source.exists():
        raise FileNotFoundError(f"no such file: {source}")
    try:
        table = pq.read_table(source)
    except (pa.ArrowException, OSError) as err:
        raise ValueError(f"{source}: not a readable parquet file ({err})") from None
    raw = (table.schema.metadata or {}).get(_PARQUET_KEY)
    if raw is None:
        return table, None
    fields = load_json(raw, f"{source}: graphveil metadata")
    kind = fields.get("format") if isinstance(fields, dict) else None
    if kind not in (_GRAPH_TAG, _FORMAT_TAG):
        raise ValueError(f"{source}: unknown graphveil format {kind!r}")
    version = fields.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"{source}: invalid format version {version!r}")
    newest = _GRAPH_TABLE_VERSION if kind == _GRAPH_TAG else FORMAT_VERSION
    if version > newest:
        raise ValueError(
            f"{source}: written in parquet format version {version}, newer than this graphveil "
            f"reads (up to {newest}); upgrade graphveil"
        )
    return table, fields


def _parquet_columns(source: Path, table: Any, want: list[str]) -> dict[str, np.ndarray]:
    names = table.column_names
    missing = [c for c in want if c not in names]
    if missing:
        raise ValueError(f"{source}: no column(s) {missing} (columns: {names}); expected {want}")
    return {c: table.column(c).to_numpy(zero_copy_only=False) for c in want}


# ---------------------------------------------------------------------- helpers


class _Header(NamedTuple):
    n: int
    m: int
    kind: str  # labels=: "yes" (integer labels), "str" (string labels) or "no"
    isolated: list[str]  # the labels of the isolated nodes, as written


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
    isolated: list[str] = []
    pos = end + 1
    while end >= 0 and text.startswith(_ISOLATED_PREFIX, pos):
        end = text.find(b"\n", pos)
        line = text[pos + len(_ISOLATED_PREFIX) : None if end < 0 else end]
        try:
            isolated.extend(line.decode("utf-8").split())
        except UnicodeDecodeError:
            raise ValueError(f"{path}: a '# graphveil isolated' header line is not UTF-8") from None
        pos = end + 1
    return _Header(int(match[1]), int(match[2]), match[3].decode(), isolated)


def _int_tokens(path: Path, header: _Header) -> np.ndarray:
    """The isolated nodes' integer labels of a ``labels=yes`` header."""
    try:
        return np.array([int(tok) for tok in header.isolated], dtype=np.int64)
    except ValueError:
        raise ValueError(
            f"{path}: a '# graphveil isolated' header line holds a non-integer label"
        ) from None
    except OverflowError:
        raise ValueError(
            f"{path}: a '# graphveil isolated' label is beyond the signed 64-bit range"
        ) from None


_TOKEN_SPLIT = re.compile(r"[ \t]*,[ \t]*|[ \t]+")


def _read_string_edgelist(
    path: Path, text: bytes, header: _Header, nthreads: int, *, directed: bool = False
) -> Graph:
    """An edge list written with string labels (``labels=str``): tokenised in Python."""
    try:
        lines = text.decode("utf-8").split("\n")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: string labels must be UTF-8 ({err})") from None
    src: list[str] = []
    dst: list[str] = []
    for number, line in enumerate(lines, 1):
        stripped = line.strip(" \t\r")
        if not stripped or stripped[0] in "#%":
            continue
        tokens = _TOKEN_SPLIT.split(stripped, maxsplit=2)
        if len(tokens) < 2 or not tokens[0] or not tokens[1]:
            raise ValueError(f"{path}: line {number}: an edge line needs two node labels")
        src.append(tokens[0])
        dst.append(tokens[1])
    names = np.array(src + dst + header.isolated, dtype=str)
    labels, codes = np.unique(names, return_inverse=True)
    k = len(src)
    u = np.ascontiguousarray(codes[:k], dtype=np.int64)
    v = np.ascontiguousarray(codes[k : 2 * k], dtype=np.int64)
    _check_header(path, header, labels)
    graph = build_counted(u, v, labels, nthreads, directed=directed)
    if graph.m != header.m:
        raise ValueError(
            f"{path}: the graphveil header says m={header.m:,} but the file holds {graph.m:,} edges "
            "(edited or truncated?)"
        )
    return graph


def _check_header(path: Path, header: _Header, labels: np.ndarray) -> None:
    if labels.size != header.n:
        what = (
            f"node ids outside 0..{header.n - 1}"
            if header.kind == "no"
            else f"{labels.size:,} distinct node ids"
        )
        raise ValueError(
            f"{path}: the graphveil header says n={header.n:,} but the file holds {what} "
            "(edited or truncated?); delete the header line to read it as a plain edge list"
        )


def written_ids(
    graph: Graph, keep_ids: bool, seed: SeedLike, *, text: bool
) -> tuple[np.ndarray, np.ndarray | None, str]:
    """The ids a graph is written under, in a file of any format: the one rule for graphs.

    Returns ``(ids, perm, kind)``: node ``i`` is written as ``ids[i]``. ``kind`` is ``"int"`` or
    ``"str"`` for a graph with integer or string labels (its labels, written as they are), else
    ``"positions"``: ``0..n-1`` under a uniformly random permutation ``perm`` (None with
    ``keep_ids``), since a sample of an anonymized graph has ids in the true graph's order.
    ``text``: the labels go into a delimited text file, so a string label must be one token.

    Raises
    ------
    ValueError
        If the labels are not distinct, exceed the int64 range, or (``text``) a string label
        is empty, holds a blank or comma, or starts with ``#`` or ``%``.
    """
    kind, ids = _written_labels(graph, text)
    if ids is not None:
        return ids, None, kind
    if keep_ids:
        return np.arange(graph.n, dtype=np.int64), None, kind
    perm = np.random.default_rng(seed_to_u64(seed)).permutation(graph.n).astype(np.int64)
    return perm, perm, kind


_UNSAFE_TOKEN = re.compile(r"[\s,]|^[#%]|^$")
_NO_LABELS = "build the graph without labels to write (permuted) positions 0..n-1"


def _written_labels(graph: Graph, text: bool) -> tuple[str, np.ndarray | None]:
    """``("int", int64 labels)``, ``("str", str labels)``, or ``("positions", None)``."""
    if not graph.has_labels:
        return "positions", None
    labels = graph.labels
    if labels.dtype.kind in "iu":
        if labels.dtype == np.uint64 and labels.size and labels.max() > np.iinfo(np.int64).max:
            raise ValueError(
                f"some labels exceed 2**63-1, which no reader can read back; {_NO_LABELS}"
            )
        kind, ids = "int", labels.astype(np.int64, copy=False)
    elif labels.dtype.kind == "U" or (
        labels.dtype.kind == "O" and all(type(x) is str for x in labels.tolist())
    ):
        kind, ids = "str", labels.astype(str)
        if text:
            bad = next((s for s in ids.tolist() if _UNSAFE_TOKEN.search(s)), None)
            if bad is not None:
                raise ValueError(
                    f"the label {bad!r} cannot be one token of a text edge list (empty, a blank "
                    "or comma inside, or a leading # or %); write parquet, which keeps any "
                    f"string, or {_NO_LABELS}"
                )
    else:  # e.g. tuples of a networkx grid graph: written as (permuted) positions
        return "positions", None
    if np.unique(ids).size != ids.size:
        raise ValueError(
            f"the labels are not distinct, so nodes would merge when read back; {_NO_LABELS}"
        )
    return kind, ids


def _magic(path: Path) -> bytes:
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; a release is a file")
    with open(path, "rb") as fh:
        return fh.read(4)


def _compressor(target: Path, raw: IO[bytes], fmt: str) -> Any:
    """A writer over ``raw`` compressing as ``target``'s suffix says, with ``fmt``'s settings."""
    suffix = target.suffix.lower()
    if suffix == ".gz":
        # mtime=0 and no file name in the gzip header: the same graph gives the same bytes.
        return gzip.GzipFile(
            filename="", mode="wb", fileobj=raw, compresslevel=_GZIP_LEVEL[fmt], mtime=0
        )
    if suffix == ".bz2":
        return bz2.BZ2File(raw, "wb")
    if suffix == ".xz":
        return lzma.LZMAFile(raw, "wb")
    return contextlib.nullcontext(raw)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (Path, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def _json_dumps(value: Any) -> str:
    return json.dumps(value, default=_json_default, sort_keys=True, allow_nan=True)


def _public_meta(meta: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The published part of ``meta``: the scheme's name and the parameters its user chose."""
    scheme = meta.get("scheme")
    params = meta.get("params") or {}
    if scheme is not None and not isinstance(scheme, str):
        raise TypeError(f"meta['scheme'] must be a string, got {type(scheme).__name__}")
    if not isinstance(params, dict):
        raise TypeError(f"meta['params'] must be a dict, got {type(params).__name__}")
    secret = _secret_key(params)
    if secret is not None:
        raise ValueError(
            f"meta['params'] holds {secret!r}, which must never be published; "
            "keep it out of the parameters (the run record keeps the rest of meta)"
        )
    try:
        params = json.loads(_json_dumps(params))
    except (TypeError, ValueError) as err:
        raise TypeError(f"meta['params'] must be JSON-serialisable to be saved: {err}") from None
    return scheme, params


def _secret_key(value: Any) -> str | None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _SECRET_PARAMS:
                return str(key)
            found = _secret_key(item)
            if found is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for item in value:
            found = _secret_key(item)
            if found is not None:
                return found
    return None


def _meta_json(meta: dict[str, Any]) -> str:
    clean = {k: val for k, val in meta.items() if k != FILE_INFO_KEY}
    try:
        return _json_dumps(clean)
    except (TypeError, ValueError) as err:
        raise TypeError(f"meta must be JSON-serialisable to be saved: {err}") from None


def _public_of(texts: dict[str, Any], path: Path) -> dict[str, Any]:
    """The graph's meta from a file's JSON entries: scheme and params only."""
    source = texts.get("meta", texts)  # version 1 kept both inside its whole-report meta
    if not isinstance(source, dict):
        raise ValueError(f"{path}: meta is not a JSON object")  # noqa: TRY004 (bad file content)
    meta = {k: source[k] for k in PUBLIC_META if source.get(k) is not None}
    if not isinstance(meta.get("scheme", ""), str):
        raise ValueError(f"{path}: scheme is not a string")  # noqa: TRY004 (bad file content)
    if not isinstance(meta.get("params", {}), dict):
        raise ValueError(f"{path}: params is not a JSON object")  # noqa: TRY004 (bad file content)
    return meta


def _scalar_int(arr: np.ndarray, name: str, path: Path) -> int:
    if arr.shape != () or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            f"{path}: entry {name!r} must be an integer scalar, got {arr.dtype} of shape {arr.shape}"
        )
    return int(arr)


def _scalar_bool(arr: np.ndarray, name: str, path: Path) -> bool:
    if arr.shape != () or arr.dtype != np.bool_:
        raise ValueError(
            f"{path}: entry {name!r} must be a boolean scalar, got {arr.dtype} of shape {arr.shape}"
        )
    return bool(arr)


def _check_version(version: int, path: Path) -> None:
    if version > UNCERTAIN_FORMAT_VERSION:
        raise ValueError(
            f"{path}: written in format version {version}, newer than this graphveil "
            f"({PACKAGE_VERSION}) reads (up to {UNCERTAIN_FORMAT_VERSION}); upgrade graphveil"
        )
    if version < 1:
        raise ValueError(f"{path}: invalid format version {version}")
