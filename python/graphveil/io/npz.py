"""The ``npz`` release: a numpy archive, one ``.npy`` entry per key of the release whitelist.

Version :data:`~graphveil.io.layout.UNCERTAIN_FORMAT_VERSION`: ``format`` (the tag),
``format_version``, ``graphveil_version``, ``n``, ``relaxed`` (``directed`` in a directed release,
version 3) and ``ids_permuted`` as 0-d arrays,
``scheme`` and ``params`` as JSON text, ``u``, ``v``, ``p`` as arrays, in the order of
:data:`~graphveil.io.layout.RELEASE_KEYS`. Every entry carries a fixed timestamp, so equal
graphs give equal bytes. Reading checks each ``.npy`` header against its entry before numpy
allocates anything (:func:`graphveil.io.safety.check_npy_sizes`).
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._common import atomic_path
from graphveil._json import load_json
from graphveil.io.layout import (
    FORMAT_TAG,
    JSON_KEYS,
    RELEASE_KEYS,
    V1_KEYS,
    json_dumps,
    keys_of_version,
    public_of,
    release_keys,
)
from graphveil.io.safety import check_npy_sizes, check_version, scalar_bool, scalar_int

__all__: list[str] = []

#: What an npz file starts with (a zip archive).
MAGIC = b"PK\x03\x04"
#: Zip entries of a release get this fixed timestamp: equal graphs give equal bytes.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def write(target: Path, header: dict[str, Any], graph: Any, compress: bool) -> None:
    """Write the release ``graph`` (ids as written) with ``header`` to ``target``, atomically.

    ``compress`` deflates the entries (else they are stored).
    """
    arrays: dict[str, np.ndarray] = {
        "format": np.array(header["format"]),
        "format_version": np.array(header["format_version"], dtype=np.int64),
        "graphveil_version": np.array(header["graphveil_version"]),
        "n": np.array(header["n"], dtype=np.int64),
        "relaxed": np.array(header["relaxed"]),
        **({"directed": np.array(True)} if header.get("directed") else {}),
        "ids_permuted": np.array(header["ids_permuted"]),
        "scheme": np.array(json_dumps(header["scheme"])),
        "params": np.array(json_dumps(header["params"])),
        "u": graph.u,
        "v": graph.v,
        "p": graph.p,
    }
    assert tuple(arrays) == release_keys(
        "directed" in arrays
    )  # the whitelist is the one home of the layout
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    # np.savez stamps every entry with the wall clock; a fixed date makes equal graphs equal bytes
    with atomic_path(target) as tmp, zipfile.ZipFile(tmp, "w", method, allowZip64=True) as zf:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=True) as fh:
                np.lib.format.write_array(fh, np.asanyarray(arr), allow_pickle=False)


def read(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """The header and arrays of an npz release, validated (ValueError naming the file)."""

    def bad(what: str) -> ValueError:
        return ValueError(f"{path}: not a readable graphveil uncertain-graph .npz file ({what})")

    try:
        # our own handle: np.load leaks the file it opened when the archive is truncated
        with open(path, "rb") as fh:
            check_npy_sizes(fh, path)  # before np.load allocates what a header claims
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as data:
                files = list(data.files)
                wanted = (*RELEASE_KEYS, *V1_KEYS)
                arrays = {k: data[k] for k in wanted if k in files}
    except (zipfile.BadZipFile, OSError, EOFError, KeyError, ValueError, zlib.error) as err:
        raise bad(f"{type(err).__name__}: {err}") from None
    if "format" not in arrays or "format_version" not in arrays:
        raise bad(f"no format tag; entries found: {sorted(files)}")
    if str(arrays["format"]) != FORMAT_TAG:
        raise bad(f"format tag is {str(arrays['format'])!r}, expected {FORMAT_TAG!r}")
    version = scalar_int(arrays["format_version"], "format_version", path)
    check_version(version, path)
    keys = keys_of_version(version, "directed" in arrays)
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise bad(f"missing entries {missing}")
    texts = {k: load_json(str(arrays[k]), f"{path}: entry {k!r}") for k in keys if k in JSON_KEYS}
    header = {
        "format_version": version,
        "graphveil_version": str(arrays["graphveil_version"]),
        "n": scalar_int(arrays["n"], "n", path),
        "relaxed": scalar_bool(arrays["relaxed"], "relaxed", path),
        "directed": "directed" in keys and scalar_bool(arrays["directed"], "directed", path),
        "ids_permuted": scalar_bool(arrays["ids_permuted"], "ids_permuted", path),
        "meta": public_of(texts, path),
    }
    u, v, p = arrays["u"], arrays["v"], arrays["p"]
    problem = _array_problem(u, v, p)
    if problem is not None:
        raise bad(problem)
    return header, u, v, p


def _array_problem(u: np.ndarray, v: np.ndarray, p: np.ndarray) -> str | None:
    """What is wrong with the shapes and dtypes of the pair arrays, or None."""
    for name, arr in (("u", u), ("v", v), ("p", p)):
        if arr.ndim != 1:
            return f"{name} must be 1-d, has shape {arr.shape}"
    if not (u.size == v.size == p.size):
        return f"u, v and p differ in length: {u.size}, {v.size}, {p.size}"
    if not (np.issubdtype(u.dtype, np.integer) and np.issubdtype(v.dtype, np.integer)):
        return f"u and v must be integer arrays, got {u.dtype} and {v.dtype}"
    if not np.issubdtype(p.dtype, np.floating):
        return f"p must be a float array, got {p.dtype}"
    return None
