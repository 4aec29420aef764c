"""The ``tsv`` release: ``u<TAB>v<TAB>p`` lines and nothing else, the header in a JSON sidecar.

The body is a plain weighted edge list (read as it is by igraph's ``Graph.Read_Ncol``,
networkx's ``read_weighted_edgelist``, pandas or awk); the release header (the scalar keys of
:data:`~graphveil.io.layout.RELEASE_KEYS`, version
:data:`~graphveil.io.layout.UNCERTAIN_FORMAT_VERSION`) is the JSON sidecar
:func:`sidecar_path`. ``.gz``, ``.bz2`` and ``.xz`` names compress the body. Releases written
before the sidecar held the header as ``# key: value`` lines at the top; they are still read,
and so is a plain ``u v p`` file without any header.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_threads
from graphveil._common import atomic_path
from graphveil._json import load_json
from graphveil.io.compression import compressor, decompress
from graphveil.io.layout import (
    FORMAT_TAG,
    JSON_KEYS,
    UTF8_BOM,
    json_dumps,
    pair_chunks,
    public_of,
)
from graphveil.io.safety import check_version

__all__ = ["sidecar_path"]

#: gzip level of a compressed TSV: on 2.2M pairs ~5x faster than level 6 for a file ~15% larger
#: (random p values barely compress).
GZIP_LEVEL = 1


def sidecar_path(path: str | os.PathLike[str]) -> Path:
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


def write(target: Path, header: dict[str, Any], graph: Any, compress: bool) -> None:
    """Write the body to ``target`` and the header to its sidecar, atomically.

    ``compress`` is ignored: the suffix decides for text formats.
    """
    # Why a sidecar and not '#' lines: igraph's Read_Ncol has no comment syntax and fails on a
    # header, and any header inside the body makes the file one more dialect to explain. The
    # body stays a plain weighted edge list; the sidecar JSON holds exactly the header keys of
    # RELEASE_KEYS (nothing else is public), so a reader without it still gets every pair.
    with (
        atomic_path(target) as tmp,
        tmp.open("wb") as raw,
        compressor(target, raw, GZIP_LEVEL) as packed,
        # text through a TextIOWrapper: its chunking is part of the compressed bytes
        io.TextIOWrapper(packed, encoding="utf-8") as fh,
    ):
        for a, b, c in pair_chunks(graph):
            fh.write("".join(f"{x}\t{y}\t{q!r}\n" for x, y, q in zip(a, b, c)))
    with atomic_path(sidecar_path(target)) as tmp:
        # keys in RELEASE_KEYS order (like the npz entries); values as the npz writes them
        text = json.dumps({k: json.loads(json_dumps(v)) for k, v in header.items()}, indent=1)
        tmp.write_text(text + "\n", encoding="utf-8")


def read(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """The header (sidecar, else ``#`` lines, else told from the pairs) and arrays of a TSV."""
    try:
        raw = decompress(path, path.read_bytes())
    except OSError as err:
        raise ValueError(f"{path}: cannot read as text: {type(err).__name__}: {err}") from None
    raw = raw.removeprefix(UTF8_BOM)
    if b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"):
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # CR-only lines are lines
    fields = _comment_fields(path, raw)
    fields.update(_sidecar_fields(path))
    header = _header(path, fields)
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


def _header(path: Path, fields: dict[str, str]) -> dict[str, Any]:
    """The release header of a TSV from its header fields (text), checked."""

    def loads(key: str) -> Any:
        return load_json(fields[key], key) if key in fields else None

    try:
        version = int(fields.get("format_version", "1"))
        texts = {k: loads(k) for k in JSON_KEYS if k in fields}
        header: dict[str, Any] = {
            "format_version": version,
            "graphveil_version": loads("graphveil_version"),
            "n": loads("n"),
            "relaxed": loads("relaxed"),
            "directed": loads("directed") if "directed" in fields else False,
            "ids_permuted": loads("ids_permuted"),
        }
    except ValueError as err:
        raise ValueError(f"{path}: malformed header line: {err}") from None
    if fields.get("format", FORMAT_TAG) != FORMAT_TAG:
        raise ValueError(
            f"{path}: header names format {fields['format']!r}, expected {FORMAT_TAG!r}"
        )
    check_version(version, path)
    if not isinstance(header["relaxed"], (bool, type(None))):
        raise ValueError(f"{path}: header 'relaxed' must be true or false")  # noqa: TRY004 (bad file content)
    if not isinstance(header["directed"], bool):
        raise ValueError(f"{path}: header 'directed' must be true or false")  # noqa: TRY004 (bad file content)
    header["meta"] = public_of(texts, path)
    return header


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
        str(k): (value if k == "format" and isinstance(value, str) else json_dumps(value))
        for k, value in data.items()
    }
