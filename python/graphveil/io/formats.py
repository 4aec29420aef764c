"""The format table: every file format graphveil writes or reads, one entry each.

:data:`FORMATS` maps a format's name to its :class:`Format`: what it holds (an uncertain graph's
release, a graph, or both), the suffixes that name it, whether a text format may be compressed
(:data:`~graphveil.io.compression.COMPRESSIONS`), its magic bytes, the layout version it
writes, its gzip level, its sidecar, the extra it needs, and the functions that write and read
it. The release path (:func:`~graphveil.io.write_release`, :func:`~graphveil.io.read_release`),
the graph path and the command line read this table and nothing else, as python-igraph's
``_format_mapping`` serves ``Graph.Read``/``Graph.write``.

Adding a format: one module (``graphveil/io/<name>.py`` with ``write(target, header, graph,
compress)`` and, if graphveil reads it back, ``read(path) -> (header, u, v, p)``; for a graph
format, the public writer and reader) and one entry in :data:`FORMATS`.

Examples
--------
>>> FORMATS["npz"].holds, FORMATS["edgelist"].holds
(('uncertain',), ('graph',))
>>> FORMATS["tsv"].all_suffixes()[:4]
('.tsv', '.tsv.gz', '.tsv.bz2', '.tsv.xz')
>>> release_format("pub.tsv.gz"), release_format("x.bin", "npz")
('tsv', 'npz')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graphveil.io import edgelist, graphml, npz, parquet, tsv
from graphveil.io.compression import COMPRESSED_SUFFIXES
from graphveil.io.layout import FORMAT_VERSION, GRAPH_TABLE_VERSION, UNCERTAIN_FORMAT_VERSION

__all__ = ["FORMATS", "Format"]  # release_format, RELEASE_FORMATS: documented in graphveil.io

PathLike = str | os.PathLike[str]
#: ``(target, header, graph as written, compress) -> None``: writes a release atomically.
ReleaseWriter = Callable[[Path, dict[str, Any], Any, bool], None]
#: ``path -> (header, u, v, p)``: reads a release, validated.
ReleaseReader = Callable[[Path], tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Format:
    """One file format: what it holds, how it is named and told, and who writes and reads it."""

    #: The name (``format=`` of :func:`~graphveil.io.write_release`, the key in :data:`FORMATS`).
    name: str
    #: Its name in messages (``"GraphML"``).
    title: str
    #: What a file of it holds: ``"uncertain"`` (a release), ``"graph"``, or both.
    holds: tuple[str, ...]
    #: The suffixes that name it (lower case), the first the usual one.
    suffixes: tuple[str, ...]
    #: A text format: its suffixes may be followed by ``.gz``, ``.bz2`` or ``.xz``.
    compressible: bool = False
    #: The bytes a file starts with, when they tell the format; None for text.
    magic: bytes | None = None
    #: Layout version of a release written in it (``format_version`` of its header).
    version: int | None = None
    #: Layout version of a graph written in it.
    graph_version: int | None = None
    #: gzip level of a compressed file.
    gzip_level: int | None = None
    #: Writes a release (:data:`ReleaseWriter`); None for a graph-only format.
    write_release: ReleaseWriter | None = None
    #: Reads a release (:data:`ReleaseReader`); None when graphveil does not read it back.
    read_release: ReleaseReader | None = None
    #: The public writer of a graph (``(graph, path, *, keep_ids, seed) -> RunRecord``).
    write_graph: Callable[..., Any] | None = None
    #: The public reader of a graph (``(path, *, threads) -> Graph``).
    read_graph: Callable[..., Any] | None = None
    #: Where a file's header lives beside it (TSV: ``path + ".json"``), else None.
    sidecar: Callable[[PathLike], Path] | None = None
    #: The module it needs beyond graphveil's own (``pip install "graphveil[<extra>]"``).
    requires: str | None = None

    def __post_init__(self) -> None:
        # A record that would break the release or graph path is refused here, naming the format.
        problems = []
        if not (self.name.isidentifier() and self.name == self.name.lower() and self.title):
            problems.append("it needs a lower-case name (format=) and a title")
        if not self.holds or not set(self.holds) <= {"uncertain", "graph"}:
            problems.append(f"holds {self.holds!r}: 'uncertain', 'graph' or both")
        if not self.suffixes or any(not x.startswith(".") or x != x.lower() for x in self.suffixes):
            problems.append(f"suffixes {self.suffixes!r}: lower case, each starting with '.'")
        if "uncertain" in self.holds and (self.write_release is None or self.version is None):
            problems.append("a release format has a write_release and its layout version")
        if "graph" in self.holds and (self.write_graph is None or self.read_graph is None):
            problems.append("a graph format has a write_graph and a read_graph")
        if self.read_release is not None and self.write_release is None:
            problems.append("a release format read back is written too")
        if self.compressible and (self.gzip_level is None or self.magic is not None):
            problems.append("a compressible (text) format has a gzip level and no magic bytes")
        if problems:
            raise ValueError(f"format {self.name!r}: {'; '.join(problems)}")

    def all_suffixes(self) -> tuple[str, ...]:
        """Every file-name ending that names it, compressed ones included."""
        if not self.compressible:
            return self.suffixes
        return tuple(s + c for s in self.suffixes for c in ("", *COMPRESSED_SUFFIXES))

    def files(self, path: PathLike) -> list[Path]:
        """The files a file of it at ``path`` consists of: itself and its sidecar, if any."""
        target = Path(path)
        return [target] if self.sidecar is None else [target, self.sidecar(target)]


def _by_name(*formats: Format) -> dict[str, Format]:
    """The formats keyed by name, refusing a name, magic or suffix of one kind two of them share."""
    owner: dict[Any, str] = {}
    for fmt in formats:
        claims = [("name", fmt.name), ("magic bytes", fmt.magic)]
        claims += [(f"{kind} suffix", x) for kind in fmt.holds for x in fmt.suffixes]
        for what, value in claims:
            if value is not None and (what, value) in owner:
                raise ValueError(
                    f"format {fmt.name!r}: its {what} {value!r} is already format "
                    f"{owner[what, value]!r}'s: choose another"
                )
            owner[what, value] = fmt.name
    return {fmt.name: fmt for fmt in formats}


#: Every format, by name: the one table the release path, the graph path and the CLI read.
FORMATS: dict[str, Format] = _by_name(
    Format(
        "npz",
        "npz",
        holds=("uncertain",),
        suffixes=(".npz",),
        magic=npz.MAGIC,
        version=UNCERTAIN_FORMAT_VERSION,
        write_release=npz.write,
        read_release=npz.read,
    ),
    Format(
        "tsv",
        "TSV",
        holds=("uncertain",),
        suffixes=(".tsv", ".txt", ".tab"),
        compressible=True,
        version=UNCERTAIN_FORMAT_VERSION,
        gzip_level=tsv.GZIP_LEVEL,
        write_release=tsv.write,
        read_release=tsv.read,
        sidecar=tsv.sidecar_path,
    ),
    Format(
        "parquet",
        "parquet",
        holds=("uncertain", "graph"),
        suffixes=(".parquet",),
        magic=parquet.MAGIC,
        version=FORMAT_VERSION,
        graph_version=GRAPH_TABLE_VERSION,
        write_release=parquet.write,
        read_release=parquet.read,
        write_graph=parquet.write_parquet,
        read_graph=parquet.read_parquet,
        requires="pyarrow",
    ),
    Format(
        "graphml",
        "GraphML",
        holds=("uncertain",),
        suffixes=(".graphml",),
        compressible=True,
        version=FORMAT_VERSION,
        gzip_level=graphml.GZIP_LEVEL,
        write_release=graphml.write,
    ),
    Format(
        "edgelist",
        "edge list",
        holds=("graph",),
        suffixes=(".txt",),
        compressible=True,
        gzip_level=edgelist.GZIP_LEVEL,
        write_graph=edgelist.write_edgelist,
        read_graph=edgelist.read_edgelist,
    ),
)
#: The formats a release is written in (:func:`~graphveil.io.write_release`); GraphML is write only.
RELEASE_FORMATS = tuple(name for name, f in FORMATS.items() if f.write_release is not None)


def named(path: PathLike, holds: str) -> Format | None:
    """The format holding ``holds`` (``"uncertain"`` or ``"graph"``) that ``path``'s name says."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in COMPRESSED_SUFFIXES:
        suffixes, compressed = suffixes[:-1], True
    else:
        compressed = False
    last = suffixes[-1] if suffixes else ""
    for fmt in FORMATS.values():
        if holds in fmt.holds and last in fmt.suffixes and (fmt.compressible or not compressed):
            return fmt
    return None


def sniffed(magic: bytes) -> Format | None:
    """The readable release format a file starting with ``magic`` is in, if its bytes tell."""
    for fmt in FORMATS.values():
        if fmt.read_release is not None and fmt.magic is not None and magic.startswith(fmt.magic):
            return fmt
    return None


def release_format(path: PathLike, format: str | None = None) -> str:
    """The release format of ``path``: ``format`` if given, else told from the suffix.

    The suffixes of :data:`FORMATS` (``.npz``; ``.tsv``, ``.txt``, ``.tab``; ``.parquet``;
    ``.graphml``); a text format may end in ``.gz``, ``.bz2`` or ``.xz``.

    Raises
    ------
    ValueError
        If ``format`` is not one of :data:`RELEASE_FORMATS`, or no suffix tells the format.
    """
    writable = [name for name, f in FORMATS.items() if f.write_release is not None]
    names = ", ".join(map(repr, writable))
    if format is not None:
        if format not in writable:
            raise ValueError(f"format must be one of {names}, got {format!r}")
        return format
    found = named(path, "uncertain")
    if found is not None and found.write_release is not None:
        return found.name
    usual = [FORMATS[name].suffixes[0] for name in writable]
    raise ValueError(
        f"cannot tell the format of {os.fspath(path)!r} from its suffix; use "
        f"{', '.join(usual[:-1])} or {usual[-1]} (the text formats optionally "
        f"{'/'.join(COMPRESSED_SUFFIXES)}), or pass format= one of {names}"
    )


def usual_suffixes(holds: str, *, readable: bool = False) -> str:
    """The usual suffixes of the formats holding ``holds``, for help texts and messages.

    ``readable``: only formats graphveil reads back.

    Examples
    --------
    >>> usual_suffixes("uncertain")
    '.npz, .tsv, ... (text formats optionally .gz/.bz2/.xz)'
    """
    found = [f for f in FORMATS.values() if holds in f.holds]
    if readable:
        found = [f for f in found if (f.read_graph, f.read_release)[holds == "uncertain"]]
    text = ", ".join(f.suffixes[0] for f in found)
    if any(f.compressible for f in found):
        text += f" (text formats optionally {'/'.join(COMPRESSED_SUFFIXES)})"
    return text
