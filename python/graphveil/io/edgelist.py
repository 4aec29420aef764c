"""Graphs as text edge lists (SNAP style), plain or compressed, and the ids a graph is written under.

The edge-list format read: one edge per line, two integer node ids separated by spaces, tabs or
a comma; further columns (weights, timestamps) are ignored; lines whose first non-blank
character is ``#`` or ``%`` are comments; blank lines and CRLF line ends are fine. A file may be
plain or gzip, bzip2 or xz compressed (recognised by its magic bytes, whatever its suffix).
Files written by :func:`write_edgelist` start with graphveil's own header line,
``# graphveil edgelist n=<nodes> m=<edges> labels=<yes|str|no>`` (and `` directed=yes`` for a
directed graph: its lines are arcs ``tail head``, ``m`` counts arcs; `` multigraph=yes`` for a
:class:`~graphveil.multigraph.Multigraph`: ``m`` counts its lines, every copy and loop), which records the node count
so that isolated nodes survive a round trip (``# graphveil isolated ...`` lines list a labelled
graph's isolated nodes). Only those lines are interpreted; every other comment is ignored. With
``labels=str`` the ids are string labels (one token each), which :func:`read_edgelist` reads back
as strings; without that header every id must be an integer.

:func:`written_ids` is the one rule for the ids a graph is written under, in any file format
(the parquet table of a graph too).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads
from graphveil._common import atomic_group, atomic_path, check_output_path
from graphveil._seeds import SeedLike, seed_to_u64
from graphveil.graph import Graph, build_counted, check_graph
from graphveil.io.compression import compressor, decompress
from graphveil.io.layout import UTF8_BOM, check_record_path
from graphveil.multigraph import Multigraph
from graphveil.record import RunRecord, release_digest

__all__ = ["read_edgelist", "write_edgelist", "written_ids"]

PathLike = str | os.PathLike[str]

#: gzip level of a compressed edge list.
GZIP_LEVEL = 6
_HEADER = re.compile(
    rb"# graphveil edgelist n=(\d+) m=(\d+) labels=(yes|str|no)( directed=yes)?"
    rb"( multigraph=yes)?[ \t\r]*"
)
_ISOLATED_PREFIX = b"# graphveil isolated "
_ISOLATED_PER_LINE = 32
_DELIMITERS = ("\t", " ", ",")


def read_edgelist(
    path: PathLike,
    *,
    header: bool = False,
    threads: int | None = None,
    directed: bool | None = None,
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
    directed : bool, optional
        Read every line ``u v`` as the arc ``u -> v`` (SNAP's directed graphs, e.g.
        soc-Epinions1): a directed :class:`~graphveil.Graph` in which a line and its reverse are
        two arcs; self-loops are dropped and exact repeats merged, both counted
        (``reversed_pairs`` is 0). None (the default): what graphveil's header says
        (``directed=yes``: arcs), else undirected. A value the header contradicts is a
        ValueError.

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
        corrupt compressed data; on a graphveil header that disagrees with the edges below it
        or with ``directed``.

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
    Nguyen, Imine, Rusinowitch (ASIACCS 2015), Section VII (Evaluation): the paper's graphs
    (dblp, amazon, youtube) are SNAP edge lists in this format, http://snap.stanford.edu/data/
    """
    nthreads = check_threads(threads)
    source = Path(os.fspath(path))
    text = decompress(source, _read_bytes(source))
    text = text.removeprefix(UTF8_BOM)  # some Windows tools write one; not part of line 1
    body: bytes | memoryview = text
    skipped = 0
    if header:
        end = text.find(b"\n")
        # a view, not a copy: the parser reads the rest of the buffer in place
        body = memoryview(text)[len(text) if end < 0 else end + 1 :]
        skipped = 1
    own = _read_header(source, text)  # a skipped first line may be graphveil's own header
    directed = _direction(source, own, directed)
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
    lines_read = int(u.size)
    graph = build_counted(u, v, labels, nthreads, directed=directed)
    held = lines_read if own is not None and own.multigraph else graph.m
    if own is not None and held != own.m:
        raise ValueError(
            f"{source}: the graphveil header says m={own.m:,} but the file holds {held:,} edges "
            "(edited or truncated?); delete the header line to read it as a plain edge list"
        )
    return graph


def write_edgelist(
    graph: Graph | Multigraph,
    path: PathLike,
    *,
    keep_ids: bool = False,
    seed: SeedLike = None,
    record: PathLike | None = None,
    delimiter: str = "\t",
    header: bool = True,
    threads: int | None = None,
) -> RunRecord:
    r"""Write a graph as a text edge list, one ``u<delimiter>v`` line per edge or arc.

    An edge is written ``u < v``; an arc ``u -> v`` of a directed graph as ``u v``. A
    :class:`~graphveil.multigraph.Multigraph` (a world of a relaxed release,
    :meth:`UncertainGraph.sample_multigraph <graphveil.UncertainGraph.sample_multigraph>`) is
    written one line per edge, every parallel copy and every loop (``u u``) kept, with
    `` multigraph=yes`` in the header (``m`` counting every line): networkx's
    ``read_edgelist(path, create_using=networkx.MultiGraph, nodetype=int)`` reads it back as that
    multigraph (igraph's ``Read_Edgelist`` once the ``#`` lines are dropped), and
    :func:`read_edgelist` as its simple graph (loops dropped, copies merged, both counted in
    ``build_counts``).

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
    ``# graphveil edgelist n=<n> m=<m> labels=<yes|str|no>`` (`` directed=yes`` appended for a
    directed graph, whose lines are its arcs ``tail head``); with labels, every isolated node's
    label follows on ``# graphveil isolated ...`` lines. :func:`read_edgelist` uses them to
    restore isolated nodes. Other tools see only comments. Without the header, isolated nodes
    are lost.

    Parameters
    ----------
    graph : Graph or Multigraph
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
    if not isinstance(graph, Multigraph):
        check_graph(graph, what=None)
    if delimiter not in _DELIMITERS:
        raise ValueError(
            f"delimiter must be one of {_DELIMITERS!r} (what read_edgelist reads), got {delimiter!r}"
        )
    nthreads = check_threads(threads)
    target = check_output_path(path)
    if record is not None:
        check_record_path(record, target)
    ids, perm, kind = written_ids(graph, keep_ids, seed, text=True)
    digest = written_digest(graph, ids, kind)
    body = _body(graph, ids, kind, delimiter, nthreads)
    head = _head(graph, ids, kind) if header else b""
    result = RunRecord(perm, {}, [{"file": target.name, "digest": digest}])
    with atomic_group():  # the edge list and its record: both in place, or neither
        with (
            atomic_path(target) as tmp,
            tmp.open("wb") as raw,
            compressor(target, raw, GZIP_LEVEL) as out,
        ):
            out.write(head)
            out.write(body)
        if record is not None:
            result.save(record)
    return result


def _body(
    graph: Graph | Multigraph, ids: np.ndarray, kind: str, delimiter: str, nthreads: int
) -> bytes | memoryview:
    """The edge lines of ``graph`` under ``ids``."""
    eu, ev = graph.edges()
    u, v = ids[eu], ids[ev]
    if kind == "str":  # string labels: formatted here (C++ formats integers)
        return memoryview(
            "".join(f"{a}{delimiter}{b}\n" for a, b in zip(u.tolist(), v.tolist())).encode()
        )
    return _core.format_edgelist(u, v, delimiter, nthreads).data


def _head(graph: Graph | Multigraph, ids: np.ndarray, kind: str) -> bytes:
    """Graphveil's header line, and the isolated nodes' labels for a labelled graph."""
    flag = {"int": "yes", "str": "str", "positions": "no"}[kind]
    arcs = " directed=yes" if getattr(graph, "directed", False) else ""
    arcs += " multigraph=yes" if isinstance(graph, Multigraph) else ""
    head = f"# graphveil edgelist n={graph.n} m={graph.m} labels={flag}{arcs}\n".encode()
    if flag != "no":
        isolated = ids[graph.degrees == 0].tolist()
        for start in range(0, len(isolated), _ISOLATED_PER_LINE):
            chunk = " ".join(map(str, isolated[start : start + _ISOLATED_PER_LINE]))
            head += _ISOLATED_PREFIX + chunk.encode() + b"\n"
    return head


def _canonical(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges as sorted ``(min, max)`` pairs: the content a digest is taken over."""
    a, b = np.minimum(u, v), np.maximum(u, v)
    order = np.lexsort((b, a))
    return a[order], b[order]


def written_digest(graph: Graph | Multigraph, ids: np.ndarray, kind: str) -> str:
    """The digest of ``graph`` written under ``ids``: over the ids as a reader numbers them.

    String labels are read back numbered in ascending order, so their digest is over those ranks.
    """
    u, v = graph.edges()
    if kind == "str":
        rank = np.empty(graph.n, dtype=np.int64)
        rank[np.argsort(ids, kind="stable")] = np.arange(graph.n, dtype=np.int64)
        return release_digest(graph.n, *_canonical(rank[u], rank[v]))
    return release_digest(graph.n, *_canonical(ids[u], ids[v]))


def written_ids(
    graph: Graph | Multigraph, keep_ids: bool, seed: SeedLike, *, text: bool
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


def _written_labels(graph: Graph | Multigraph, text: bool) -> tuple[str, np.ndarray | None]:
    """``("int", int64 labels)``, ``("str", str labels)``, or ``("positions", None)``."""
    if isinstance(graph, Multigraph) or not graph.has_labels:  # a Multigraph has no labels
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


class _Header(NamedTuple):
    n: int
    m: int
    kind: str  # labels=: "yes" (integer labels), "str" (string labels) or "no"
    isolated: list[str]  # the labels of the isolated nodes, as written
    directed: bool = False  # directed=yes: the lines are arcs
    multigraph: bool = False  # multigraph=yes: m counts the lines, every copy and loop


def _direction(path: Path, own: _Header | None, directed: bool | None) -> bool:
    """Whether to read arcs: ``directed`` if given, else what graphveil's header says."""
    if own is None or directed is None:
        return bool(own.directed) if directed is None and own is not None else bool(directed)
    if directed != own.directed:
        said = "a directed graph's arcs" if own.directed else "an undirected graph's edges"
        raise ValueError(
            f"{path}: the graphveil header says the file holds {said}, but directed={directed} "
            f"was asked; pass directed={own.directed} (or leave it out: the header decides), "
            "and convert afterwards (Graph.to_undirected) if needed"
        )
    return directed


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
    return _Header(
        int(match[1]), int(match[2]), match[3].decode(), isolated, bool(match[4]), bool(match[5])
    )


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
