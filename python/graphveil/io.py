"""Reading and writing graphs as text edge lists (SNAP style), plain or compressed.

The format read: one edge per line, two integer node ids separated by spaces, tabs or a comma;
further columns (weights, timestamps) are ignored; lines whose first non-blank character is
``#`` or ``%`` are comments; blank lines and CRLF line ends are fine. A file may be plain or
gzip, bzip2 or xz compressed (recognised by its magic bytes, whatever its suffix).

Files written by :func:`write_edgelist` start with graphveil's own header line,
``# graphveil edgelist n=<nodes> m=<edges> labels=<yes|no>``, which records the node count so that
isolated nodes survive a round trip. Only that exact first line is interpreted; every other
comment is ignored.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import os
import re
import zlib
from pathlib import Path
from typing import IO, Any, NamedTuple

import numpy as np

from graphveil import _core
from graphveil._common import atomic_path, check_threads, index_dtype
from graphveil.graph import BuildCounts, Graph

__all__ = ["read_edgelist", "write_edgelist"]

PathLike = str | os.PathLike[str]

_HEADER = re.compile(rb"# graphveil edgelist n=(\d+) m=(\d+) labels=(yes|no)[ \t\r]*")
_ISOLATED_PREFIX = b"# graphveil isolated "
_ISOLATED_PER_LINE = 32
_DELIMITERS = ("\t", " ", ",")
_UTF8_BOM = b"\xef\xbb\xbf"


def read_edgelist(path: PathLike, *, threads: int | None = None) -> Graph:
    """Read an undirected graph from a SNAP-style text edge list.

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
    >>> _ = p.write_text("# toy\\n10 20\\n20 10\\n20 30\\n7 7\\n")
    >>> g = read_edgelist(p)
    >>> g.n, g.m, g.labels.tolist()
    (4, 2, [7, 10, 20, 30])
    >>> c = g.build_counts
    >>> c.lines, c.self_loops, c.reversed_pairs, c.exact_repeats
    (4, 1, 1, 0)

    References
    ----------
    Nguyen, Imine, Rusinowitch (ASIACCS 2015), Section 7 (Evaluation): the paper's graphs
    (dblp, amazon, youtube) are SNAP edge lists in this format, http://snap.stanford.edu/data/
    """
    nthreads = check_threads(threads)
    source = Path(os.fspath(path))
    text = _decompress(source, _read_bytes(source))
    text = text.removeprefix(_UTF8_BOM)  # some Windows tools write one; not part of line 1
    try:
        u, v, lines = _core.parse_edgelist(text, nthreads)
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None
    header = _read_header(source, text)
    del text  # the pairs are parsed; free the text before building
    if u.size == 0 and header is None:
        what = (
            "the file is empty" if lines == 0 else f"its {lines:,} lines are all blank or comments"
        )
        raise ValueError(
            f"{source}: no edges found ({what}); an edge line holds two integer node ids"
        )

    extra = np.zeros(0, dtype=np.int64)
    if header is not None:
        extra = np.arange(header.n, dtype=np.int64) if not header.labelled else header.isolated
    labels = _core.relabel_ascending(u, v, extra, nthreads)
    n = int(labels.size)
    if header is not None:
        _check_header(source, header, labels)
    directed = _core.count_directed_pairs(n, u, v, nthreads)
    indptr, indices, loops, dups = _core.build_csr(n, u, v, index_dtype(n), nthreads)
    pairs = int(u.size)
    del u, v
    m = indices.size // 2
    counts = BuildCounts(
        self_loops=int(loops),
        duplicates=int(dups),
        lines=pairs,
        exact_repeats=pairs - int(loops) - int(directed),
        reversed_pairs=int(directed) - m,
    )
    graph = Graph(indptr, indices, labels, counts, validate=False)
    if header is not None and graph.m != header.m:
        raise ValueError(
            f"{source}: the graphveil header says m={header.m:,} but the file holds {graph.m:,} edges "
            "(edited or truncated?); delete the header line to read it as a plain edge list"
        )
    return graph


def write_edgelist(
    graph: Graph,
    path: PathLike,
    *,
    use_labels: bool = False,
    delimiter: str = "\t",
    header: bool = True,
    threads: int | None = None,
) -> None:
    """Write a graph as a text edge list, one ``u<delimiter>v`` line per edge (``u < v``).

    Node ids ``0..n-1`` are written unless ``use_labels=True``: the original ids
    (``graph.labels``) are written only when asked for, since they may identify people.
    The file is compressed when ``path`` ends in ``.gz``, ``.bz2`` or ``.xz``, and written
    atomically (to a temporary file renamed on success).

    With ``header=True`` (the default) the first line is graphveil's header,
    ``# graphveil edgelist n=<n> m=<m> labels=<yes|no>``; with labels, every isolated node's
    label follows on ``# graphveil isolated ...`` lines. :func:`read_edgelist` uses them to
    restore isolated nodes, so ``read_edgelist(write_edgelist(g))`` gives back ``g`` (node
    order included when the labels are ascending, as in any graph read from a file). Other
    tools see only comments. Without the header, isolated nodes are lost.

    Parameters
    ----------
    graph : Graph
        The graph to write.
    path : str or os.PathLike
        Destination; its suffix picks the compression (``.gz``, ``.bz2``, ``.xz``, else none).
    use_labels : bool, default False
        Write ``graph.labels`` (which must be integers) instead of ``0..n-1``.
    delimiter : {"\\t", " ", ","}
        Column separator.
    header : bool, default True
        Write the graphveil header line(s).
    threads : int, optional
        Worker threads for formatting (None or 0: all cores).

    Raises
    ------
    TypeError
        If ``graph`` is not a Graph, or ``use_labels=True`` and the labels are not integers.
    ValueError
        If ``delimiter`` is not one of the three above.
    FileNotFoundError
        If the destination directory does not exist.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.txt.gz"
    >>> g = Graph.from_edges([0, 1], [1, 2], 4)
    >>> write_edgelist(g, p)
    >>> read_edgelist(p) == g
    True
    """
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, not {type(graph).__name__}")
    if delimiter not in _DELIMITERS:
        raise ValueError(
            f"delimiter must be one of {_DELIMITERS!r} (what read_edgelist reads), got {delimiter!r}"
        )
    nthreads = check_threads(threads)
    eu, ev = graph.edges()
    if use_labels:
        ids = _integer_labels(graph)
        u, v = ids[eu], ids[ev]
    else:
        u, v = eu.astype(np.int64), ev.astype(np.int64)
    body = _core.format_edgelist(u, v, delimiter, nthreads)
    del u, v
    head = b""
    if header:
        flag = "yes" if use_labels else "no"
        head = f"# graphveil edgelist n={graph.n} m={graph.m} labels={flag}\n".encode()
        if use_labels:
            isolated = ids[graph.degrees == 0]
            for start in range(0, isolated.size, _ISOLATED_PER_LINE):
                chunk = " ".join(map(str, isolated[start : start + _ISOLATED_PER_LINE].tolist()))
                head += _ISOLATED_PREFIX + chunk.encode() + b"\n"
    target = Path(os.fspath(path))
    with atomic_path(target) as tmp, tmp.open("wb") as raw, _compressor(target, raw) as out:
        out.write(head)
        out.write(body.data)


# ---------------------------------------------------------------------- helpers


class _Header(NamedTuple):
    n: int
    m: int
    labelled: bool
    isolated: np.ndarray


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
    """graphveil's own header, if the first line is exactly that; None otherwise."""
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


def _integer_labels(graph: Graph) -> np.ndarray:
    labels = graph.labels
    if labels.dtype.kind not in "iu":
        raise TypeError(
            f"use_labels=True writes the original ids, which must be integers to be read back; these "
            f"labels have dtype {labels.dtype}. Write 0..n-1 ids (use_labels=False) and keep the labels apart"
        )
    if labels.dtype == np.uint64 and labels.size and labels.max() > np.iinfo(np.int64).max:
        raise ValueError(
            "use_labels=True: some labels exceed 2**63-1, which read_edgelist cannot read back"
        )
    if np.unique(labels).size != labels.size:
        raise ValueError(
            "use_labels=True: the labels are not distinct, so nodes would merge when read back; "
            "write 0..n-1 ids (use_labels=False) instead"
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
