"""The file methods of :class:`~graphveil.uncertain.UncertainGraph`, installed from above the model.

:mod:`graphveil.uncertain` re-exports :class:`FileMethods` and :func:`install_files`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from graphveil.record import RunRecord

if TYPE_CHECKING:
    from graphveil.uncertain import UncertainGraph


class FileMethods(NamedTuple):
    """The file methods of :class:`UncertainGraph`, implemented above the model.

    The model imports no file format: :mod:`graphveil.io` implements these and installs them
    (:func:`install_files`) when it is imported, which ``import graphveil`` does. The methods
    (:meth:`UncertainGraph.save`, :meth:`~UncertainGraph.to_graphml`,
    :meth:`~UncertainGraph.load`) look them up at call time.
    """

    #: ``(graph, path, *, format, keep_ids, seed, compress, record) -> RunRecord``: publish.
    write: Callable[..., RunRecord]
    #: ``(path, *, format) -> UncertainGraph``: read a release.
    read: Callable[..., UncertainGraph]


_FILE_METHODS: list[FileMethods] = []


def install_files(methods: FileMethods) -> None:
    """Install the file methods :class:`UncertainGraph` calls (done by :mod:`graphveil.io`)."""
    _FILE_METHODS[:] = [methods]


def files() -> FileMethods:
    """The installed file methods (a RuntimeError if :mod:`graphveil.io` installed none)."""
    if not _FILE_METHODS:  # only if graphveil's own __init__ failed half-way
        raise RuntimeError("no file formats installed: import graphveil first")
    return _FILE_METHODS[0]
