"""Checks against corrupt and crafted files: limits applied before anything is allocated.

A release read from a file may be corrupt or crafted: ``n`` claiming more nodes than any graph
(:data:`MAX_RELEASE_NODES`), an ``.npy`` header claiming more data than its zip entry holds, a
newer or invalid format version, wrong scalar types. JSON nesting is limited where JSON is read
(:data:`graphveil._json.MAX_JSON_DEPTH`).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import IO, Any

import numpy as np

from graphveil._common import INT32_LIMIT, PACKAGE_VERSION
from graphveil.io.layout import UNCERTAIN_FORMAT_VERSION, Release, written_version

__all__ = ["MAX_RELEASE_NODES"]

#: The most nodes a release read from a file may claim: a larger ``n`` is a crafted or corrupt
#: file (every measure allocates per node), refused before anything is allocated.
MAX_RELEASE_NODES = INT32_LIMIT
#: Deflate expands at most ~1032-fold: a zip entry claiming more is crafted.
MAX_DEFLATE_RATIO = 1100


def checked_release(
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
    if not isinstance(header.get("directed", False), bool):
        raise ValueError(f"{path}: 'directed' must be true or false")  # noqa: TRY004 (bad file content)
    return Release(header, u, v, p)


def check_npy_sizes(fh: IO[bytes], path: Path) -> None:
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
            if info.file_size > max(info.compress_size, 1) * MAX_DEFLATE_RATIO:
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


def scalar_int(arr: np.ndarray, name: str, path: Path) -> int:
    """The integer of a 0-d integer entry, else ValueError naming the file."""
    if arr.shape != () or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            f"{path}: entry {name!r} must be an integer scalar, got {arr.dtype} of shape {arr.shape}"
        )
    return int(arr)


def scalar_bool(arr: np.ndarray, name: str, path: Path) -> bool:
    """The bool of a 0-d boolean entry, else ValueError naming the file."""
    if arr.shape != () or arr.dtype != np.bool_:
        raise ValueError(
            f"{path}: entry {name!r} must be a boolean scalar, got {arr.dtype} of shape {arr.shape}"
        )
    return bool(arr)


def check_version(version: int, path: Path) -> None:
    """Refuse a .npz/TSV layout version this graphveil does not read."""
    newest = written_version(UNCERTAIN_FORMAT_VERSION, True)
    if version > newest:
        raise ValueError(
            f"{path}: written in format version {version}, newer than this graphveil "
            f"({PACKAGE_VERSION}) reads (up to {newest}); upgrade graphveil"
        )
    if version < 1:
        raise ValueError(f"{path}: invalid format version {version}")


def read_magic(path: Path, size: int = 8) -> bytes:
    """The first ``size`` bytes of a release file (a directory refused)."""
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; a release is a file")
    with open(path, "rb") as fh:
        return fh.read(size)
