"""Compression of the text formats: told by the suffix when writing, by the content when reading.

A text format (edge list, TSV, GraphML) is compressed when the file name ends in a suffix of
:data:`COMPRESSIONS` (``.gz``, ``.bz2``, ``.xz``). Each format sets its own gzip level (its
``gzip_level`` in :data:`graphveil.io.FORMATS`); bzip2 and xz use their library defaults. A reader
detects the compression from the magic bytes, whatever the suffix.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["COMPRESSIONS", "Compression"]


@dataclass(frozen=True)
class Compression:
    """One compression of the text formats: its suffix, magic bytes, writer and reader."""

    #: The file-name suffix that asks for it (lower case, with the dot).
    suffix: str
    #: The bytes a compressed file starts with (how a reader tells it).
    magic: bytes
    #: ``(raw binary file, gzip level) ->`` a writable file object compressing into it.
    open: Callable[[IO[bytes], int], Any]
    #: The bytes -> the decompressed bytes.
    decompress: Callable[[bytes], bytes]


def _gzip(raw: IO[bytes], level: int) -> Any:
    # mtime=0 and no file name in the gzip header: the same graph gives the same bytes.
    return gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=level, mtime=0)


#: The compressions, by name: what a text format's file name may end in.
COMPRESSIONS: dict[str, Compression] = {
    "gzip": Compression(".gz", b"\x1f\x8b", _gzip, gzip.decompress),
    "bzip2": Compression(".bz2", b"BZh", lambda raw, _: bz2.BZ2File(raw, "wb"), bz2.decompress),
    "xz": Compression(
        ".xz", b"\xfd7zXZ\x00", lambda raw, _: lzma.LZMAFile(raw, "wb"), lzma.decompress
    ),
}
#: The suffixes of :data:`COMPRESSIONS`.
COMPRESSED_SUFFIXES = tuple(c.suffix for c in COMPRESSIONS.values())


def compression_of(path: Path | str) -> Compression | None:
    """The compression the name of ``path`` asks for, or None."""
    suffix = Path(path).suffix.lower()
    return next((c for c in COMPRESSIONS.values() if c.suffix == suffix), None)


def compressor(target: Path, raw: IO[bytes], level: int) -> Any:
    """A writer over ``raw`` compressing as ``target``'s suffix says (gzip at ``level``)."""
    found = compression_of(target)
    return contextlib.nullcontext(raw) if found is None else found.open(raw, level)


def decompress(path: Path, raw: bytes) -> bytes:
    """Plain bytes of a file that may be gzip, bzip2 or xz compressed (sniffed, not by suffix)."""
    found = next((c for c in COMPRESSIONS.values() if raw.startswith(c.magic)), None)
    if found is None:
        return raw
    try:
        return found.decompress(raw)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
        raise ValueError(f"{path}: corrupt or truncated compressed data ({exc})") from None
