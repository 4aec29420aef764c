"""Reading and writing graphs and uncertain graphs: every file format graphveil knows.

The formats stand above the model: :mod:`graphveil.uncertain` defines the uncertain graph and
imports no format; this package implements its file methods (:meth:`UncertainGraph.save
<graphveil.UncertainGraph.save>`, :meth:`~graphveil.UncertainGraph.load`,
:meth:`~graphveil.UncertainGraph.to_graphml`), which import :mod:`graphveil.io.releases` when
called (a lazy import declared in the structure check).

One table, :data:`FORMATS` (:mod:`graphveil.io.formats`), names every format: what it holds,
its suffixes (compressed ones too), magic bytes, layout version, gzip level, sidecar, and its
writer and reader. The release path, the graph path and the command line read it.

Graphs: text edge lists (:func:`read_edgelist`, :func:`write_edgelist`, SNAP style, plain or
compressed; :mod:`graphveil.io.edgelist` describes the format) and parquet
(:func:`write_parquet`; :func:`read_parquet` reads either kind, built on
:func:`parquet_contents`; :mod:`graphveil.io.parquet`).

Uncertain graphs are written as *releases*, all through one path, :func:`write_release`: the
same whitelist of public fields (:data:`~graphveil.io.layout.RELEASE_KEYS`), secret parameters
refused, node ids permuted by the same draw, an atomic write, and the private
:class:`~graphveil.record.RunRecord` returned, for each of the four formats
(:data:`RELEASE_FORMATS`):

- ``npz`` (:mod:`graphveil.io.npz`): a numpy archive, one entry per key of ``RELEASE_KEYS``
  (``scheme``, ``params`` as JSON), version
  :data:`~graphveil.io.layout.UNCERTAIN_FORMAT_VERSION`;
- ``tsv`` (:mod:`graphveil.io.tsv`): one ``u<TAB>v<TAB>p`` line per pair and nothing else, the
  header (the scalar keys of ``RELEASE_KEYS``) in the JSON sidecar :func:`sidecar_path`, version
  ``UNCERTAIN_FORMAT_VERSION``;
- ``parquet`` (:mod:`graphveil.io.parquet`, ``pip install "graphveil[parquet]"``): columns
  ``u``, ``v``, ``p``; the schema metadata holds the same header, version
  :data:`~graphveil.io.layout.FORMAT_VERSION`;
- ``graphml`` (:mod:`graphveil.io.graphml`, write only): nodes ``0..n-1``, the edge attribute
  ``p``, the same header as JSON in the graph attribute ``graphveil``, version
  ``FORMAT_VERSION``.

Text formats (edge lists, TSV, GraphML) are compressed when the name ends in ``.gz``, ``.bz2`` or
``.xz`` (:mod:`graphveil.io.compression`), with one setting per format, and readers detect the
compression from the content. Crafted files are refused before anything is allocated
(:mod:`graphveil.io.safety`).
"""

# ``X as X``: re-exported, importable from here (documented in their home modules).
from graphveil.io.edgelist import read_edgelist, write_edgelist, written_ids
from graphveil.io.formats import FORMATS as FORMATS
from graphveil.io.formats import RELEASE_FORMATS as RELEASE_FORMATS
from graphveil.io.formats import Format as Format
from graphveil.io.formats import release_format
from graphveil.io.layout import FILE_INFO_KEY as FILE_INFO_KEY
from graphveil.io.layout import FORMAT_VERSION as FORMAT_VERSION
from graphveil.io.layout import PUBLIC_META as PUBLIC_META
from graphveil.io.layout import RELEASE_KEYS as RELEASE_KEYS
from graphveil.io.layout import UNCERTAIN_FORMAT_VERSION as UNCERTAIN_FORMAT_VERSION
from graphveil.io.layout import Release
from graphveil.io.parquet import parquet_contents, read_parquet, write_parquet
from graphveil.io.releases import read_release, write_release
from graphveil.io.releases import release as release
from graphveil.io.safety import MAX_RELEASE_NODES as MAX_RELEASE_NODES
from graphveil.io.tsv import sidecar_path

__all__ = [
    "Release",
    "parquet_contents",
    "read_edgelist",
    "read_parquet",
    "read_release",
    "release_format",
    "sidecar_path",
    "write_edgelist",
    "write_parquet",
    "write_release",
    "written_ids",
]
