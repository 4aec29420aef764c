"""The release layout: versions, format tags, the whitelist of published keys, the public meta.

One home for what every release format writes in its header (:data:`RELEASE_KEYS`) and how
``meta`` is split into the published part (``scheme`` and ``params``, secret names refused) and
the private rest (the run record's). The format modules (:mod:`graphveil.io.npz`,
:mod:`~graphveil.io.tsv`, :mod:`~graphveil.io.parquet`, :mod:`~graphveil.io.graphml`) lay these
keys out; :func:`graphveil.io.write_release` fills them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from graphveil._common import check_output_path
from graphveil._json import dumps
from graphveil.record import PUBLIC_META
from graphveil.uncertain import UncertainGraph

__all__ = [
    "FILE_INFO_KEY",
    "FORMAT_VERSION",
    "PUBLIC_META",
    "RELEASE_KEYS",
    "UNCERTAIN_FORMAT_VERSION",
    "Release",
]

#: Version of the parquet layout and of the GraphML header (a directed release: version 2, see
#: :func:`written_version`). Readers refuse newer.
FORMAT_VERSION = 1
#: Version of a graph's parquet table. Version 2 added ``labels`` (``"int"``, ``"str"`` or
#: ``"positions"``: what ``u`` and ``v`` hold) and ``isolated`` (the isolated nodes' labels);
#: a directed graph's table is version 3, which adds ``directed`` (see :func:`written_version`).
GRAPH_TABLE_VERSION = 2
#: Version of the .npz and TSV uncertain-graph layout. Readers refuse newer versions.
#: Version 1 also stored the scheme's seed and whole report; version 2 is the safe release;
#: a directed release is version 3, which adds ``directed`` (see :func:`written_version`).
UNCERTAIN_FORMAT_VERSION = 2
#: The ``format`` tag of an uncertain graph's header, and of a graph's parquet table.
FORMAT_TAG = "graphveil.uncertain"
GRAPH_TAG = "graphveil.graph"
#: Every entry of a published file, and nothing else (the release whitelist): the format, n, the
#: pairs and their p, the scheme's name and the parameters its user chose, whether the ids were
#: permuted, the package version; ``directed`` (public, like ``relaxed``: whether the pairs are
#: arcs) only in a directed release (:func:`release_keys`). Seeds, permutations and reports go to
#: the private RunRecord.
RELEASE_KEYS = (
    "format",
    "format_version",
    "graphveil_version",
    "n",
    "relaxed",
    "directed",
    "ids_permuted",
    "scheme",
    "params",
    "u",
    "v",
    "p",
)
#: The scalar keys: the header of every format (the arrays are its body).
HEADER_KEYS = RELEASE_KEYS[:-3]
#: Names that must never appear in a release, at any depth of ``meta["params"]``: they are derived
#: from the true graph or from randomness (a write refuses them before anything is written).
SECRET_PARAMS = frozenset({"seed", "permutation", "perm", "timings", "history"})
#: Key under which a reader records what the file said about itself.
FILE_INFO_KEY = "file"
#: Entries of a version-1 file beyond the release's: read (to find scheme and params), never kept.
V1_KEYS = ("seed", "meta")
#: Header entries stored as JSON text.
JSON_KEYS = ("scheme", "params", "seed", "meta")
#: Pairs (and GraphML nodes) are formatted as text this many at a time.
TEXT_CHUNK = 1 << 16
UTF8_BOM = b"\xef\xbb\xbf"


class Release(NamedTuple):
    """An uncertain-graph release as read from a file: its header and its arrays.

    ``header`` holds ``format_version``, ``graphveil_version``, ``n``, ``relaxed``, ``directed``,
    ``ids_permuted`` (None when the file did not say) and ``meta`` (the published ``scheme`` and
    ``params`` only). :meth:`UncertainGraph.load <graphveil.UncertainGraph.load>` builds the graph.
    """

    header: dict[str, Any]
    u: np.ndarray
    v: np.ndarray
    p: np.ndarray


def release_keys(directed: bool) -> tuple[str, ...]:
    """The entries of a release, in order: :data:`RELEASE_KEYS`, ``directed`` only if directed.

    An undirected release holds exactly what it held before graphs had a direction (same bytes,
    readable by every earlier graphveil).
    """
    return RELEASE_KEYS if directed else tuple(k for k in RELEASE_KEYS if k != "directed")


def header_keys(directed: bool) -> tuple[str, ...]:
    """The scalar keys of :func:`release_keys`: the header of every format."""
    return release_keys(directed)[:-3]


def written_version(version: int, directed: bool) -> int:
    """The layout version a release (or graph table) is written in; ``version`` is its format's.

    An undirected one is written in ``version``, byte-identical to what graphveil wrote before
    graphs had a direction; a directed one in ``version + 1``, the first holding ``directed``, so
    that an earlier graphveil refuses it (newer than it reads) instead of reading its arcs as
    edges. Readers read up to ``written_version(version, True)``.
    """
    return version + 1 if directed else version


def keys_of_version(version: int, directed: bool = False) -> tuple[str, ...]:
    """The entries a release of layout ``version`` (npz and TSV numbering) holds."""
    if version == 1:
        return tuple(k for k in release_keys(False) if k not in PUBLIC_META) + V1_KEYS
    return release_keys(directed and version > UNCERTAIN_FORMAT_VERSION)


def pair_chunks(graph: Any) -> Any:
    """The pairs of an uncertain graph as Python lists ``(u, v, p)``, a bounded chunk at a time."""
    u, v, p = graph.u, graph.v, graph.p
    for start in range(0, graph.num_pairs, TEXT_CHUNK):
        stop = start + TEXT_CHUNK
        yield u[start:stop].tolist(), v[start:stop].tolist(), p[start:stop].tolist()


def json_dumps(value: Any) -> str:
    """``value`` as the JSON text every header holds (sorted keys, numpy values as Python's)."""
    return dumps(value, sort_keys=True)


def public_meta(meta: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
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
        params = json.loads(json_dumps(params))
    except (TypeError, ValueError) as err:
        raise TypeError(f"meta['params'] must be JSON-serialisable to be saved: {err}") from None
    return scheme, params


def _secret_key(value: Any) -> str | None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SECRET_PARAMS:
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


def meta_json(meta: dict[str, Any]) -> str:
    """The whole ``meta`` (but what a reader added under :data:`FILE_INFO_KEY`) as JSON."""
    clean = {k: val for k, val in meta.items() if k != FILE_INFO_KEY}
    try:
        return json_dumps(clean)
    except (TypeError, ValueError) as err:
        raise TypeError(f"meta must be JSON-serialisable to be saved: {err}") from None


def public_of(texts: dict[str, Any], path: Path) -> dict[str, Any]:
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


def check_record_path(record: str | os.PathLike[str], *files: Path) -> None:
    """Refuse a run record path that names one of the release's own files."""
    check_output_path(record)
    if Path(record).resolve() in {f.resolve() for f in files}:
        raise ValueError(f"the run record {os.fspath(record)} must not overwrite the release")


def uncertain_of(path: str | os.PathLike[str], release: Release) -> UncertainGraph:
    """The uncertain graph of a release read from ``path`` (validated as any input is).

    Its ``meta`` holds the published ``scheme`` and ``params``, and under :data:`FILE_INFO_KEY`
    what the file said about itself; :attr:`~graphveil.UncertainGraph.ids_permuted` is the file's.
    """
    header = release.header
    try:
        graph = UncertainGraph(
            header["n"],
            release.u,
            release.v,
            release.p,
            relaxed=header["relaxed"],
            directed=header.get("directed", False),
            meta=header["meta"],
        )
    except (TypeError, ValueError) as err:
        raise ValueError(f"{path}: invalid graph: {err}") from None
    graph._ids_permuted = header["ids_permuted"]
    graph.meta[FILE_INFO_KEY] = {
        "format_version": header["format_version"],
        "graphveil_version": header["graphveil_version"],
        "ids_permuted": header["ids_permuted"],
    }
    return graph
