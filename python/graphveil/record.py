"""The private run record: what a release must not carry, kept apart for its author.

A published file (:meth:`UncertainGraph.save`, :func:`graphveil.write_edgelist`,
``graphveil sample``) holds only the anonymized graph and the public parameters of the scheme.
Everything derived from the true graph or from the randomness (the scheme's seed, the node-id
permutation, the sigma-search history, eps-hat, solver statistics, timings, the number of
potential edges actually found) goes into a :class:`RunRecord`: returned to the caller, and
written to disk only on request (``record=`` / ``--record FILE``), with mode 0600 on POSIX
systems (Linux, macOS): readable by its owner only.

On Windows file modes mean nothing (Python honours only the read-only bit): the record takes the
access rules (ACL) of the folder it is written to, which graphveil does not change. Write records
into a folder only you can read, such as one under your user profile (``%USERPROFILE%``, by
default not readable by other users), never into a shared or published folder.

**Never publish a run record.** The permutation maps the release back to the true ids and the
seed regenerates every random draw of the scheme; anyone holding either undoes the anonymization.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._common import PACKAGE_VERSION, atomic_path, check_output_path
from graphveil._json import dumps, load_json

__all__ = [
    "PUBLIC_META",
    "RunRecord",
    "check_record",
    "load_record",
    "permutation_digest",
    "release_digest",
    "true_ids",
]

_RECORD_TAG = "graphveil.run_record"
#: Keys of ``meta`` that are published (the rest of ``meta`` goes to the run record).
PUBLIC_META = ("scheme", "params")
#: How to get a TSV release's sidecar back, for every message about an unknown id status.
SIDECAR_HINT = (
    "a TSV release read without its JSON sidecar (<file>.json, written and published beside "
    "it)? put the sidecar back beside the TSV, or save the release again from its .npz or "
    ".parquet, which carry the header inside"
)
#: Version of the run record's JSON layout. Readers refuse newer versions. Version 2 added
#: ``permutation_digest`` (:func:`permutation_digest`); a version-1 record is read without it.
RECORD_VERSION = 2
_WARNING = (
    "PRIVATE: never publish this file. Its permutation maps the release back to the true node ids "
    "and its seed regenerates the scheme's random draws."
)


def release_digest(n: int, u: np.ndarray, v: np.ndarray, p: np.ndarray | None = None) -> str:
    """SHA-256 of a published graph's content (node count, pairs in file ids, probabilities).

    Ties a record to its release whatever the file format (.npz, TSV, edge list).
    """
    h = hashlib.sha256()
    h.update(np.int64(n).tobytes())
    h.update(np.ascontiguousarray(u, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(v, dtype=np.int64).tobytes())
    if p is not None:
        h.update(np.ascontiguousarray(p, dtype=np.float64).tobytes())
    return h.hexdigest()


def permutation_digest(permutation: np.ndarray | None, releases: list[dict[str, str]]) -> str:
    """SHA-256 of a record's permutation bound to the digests of the releases it maps.

    Written into every record (``permutation_digest``) and checked when it is read: a
    permutation swapped for another run's (same ``n``) or edited, or a ``releases`` list edited,
    no longer matches it, and the record is refused.
    """
    h = hashlib.sha256(b"graphveil.permutation\0")
    if permutation is None:
        h.update(b"none")
    else:
        h.update(np.int64(permutation.size).tobytes())
        h.update(np.ascontiguousarray(permutation, dtype=np.int64).tobytes())
    for entry in releases:
        h.update(b"\0" + str(entry.get("digest", "")).encode())
    return h.hexdigest()


@dataclass
class RunRecord:
    """How a release was made, for its author only: **never publish it**.

    Attributes
    ----------
    permutation : numpy.ndarray or None
        Node ``i`` of the graph that was written is node ``permutation[i]`` in the release;
        None when the ids were kept (``keep_ids=True``) or were already public.
    report : dict
        The scheme's report: seed, search history, eps-hat, solver statistics, timings, ...
    releases : list of dict
        The files this record belongs to: ``{"file": name, "digest": release_digest(...)}``.

    Examples
    --------
    >>> import numpy as np
    >>> rec = RunRecord(np.array([2, 0, 1]))
    >>> rec.to_release(np.array([0, 1, 2])).tolist(), rec.to_original(np.array([2, 0, 1])).tolist()
    ([2, 0, 1], [0, 1, 2])
    """

    permutation: np.ndarray | None = None
    report: dict[str, Any] = field(default_factory=dict)
    releases: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.permutation is not None:
            perm = np.asarray(self.permutation)
            if (
                perm.ndim != 1
                or not np.issubdtype(perm.dtype, np.integer)
                or not np.array_equal(np.sort(perm), np.arange(perm.size))
            ):
                raise ValueError("permutation must hold every id 0..n-1 exactly once")
            self.permutation = perm.astype(np.int64)

    def to_release(self, ids: np.ndarray) -> np.ndarray:
        """Original node ids -> ids in the release."""
        ids = np.asarray(ids, dtype=np.int64)
        return ids.copy() if self.permutation is None else self.permutation[ids]

    def to_original(self, ids: np.ndarray) -> np.ndarray:
        """Ids in the release -> original node ids."""
        ids = np.asarray(ids, dtype=np.int64)
        if self.permutation is None:
            return ids.copy()
        inverse = np.empty_like(self.permutation)
        inverse[self.permutation] = np.arange(self.permutation.size, dtype=np.int64)
        return inverse[ids]

    def unpermute(self, graph: Any) -> Any:
        """``graph`` (in release ids) under the original ids, of the same kind.

        ``graph`` is a :class:`~graphveil.Graph`, a :class:`~graphveil.multigraph.Multigraph`
        (every loop and copy of a pair kept) or an uncertain graph (its model, relaxed or
        strict, and its direction kept: an arc ``a -> b`` of the release is the arc
        ``to_original(a) -> to_original(b)``).

        Raises
        ------
        ValueError
            If the permutation and the graph differ in size.
        """
        if self.permutation is None:
            return graph
        if self.permutation.size != graph.n:
            raise ValueError(
                f"the permutation has {self.permutation.size} entries, the published graph "
                f"{graph.n} nodes"
            )
        if hasattr(graph, "p"):  # an uncertain graph
            return type(graph)(
                graph.n,
                self.to_original(graph.u),
                self.to_original(graph.v),
                graph.p,
                relaxed=graph.relaxed,
                directed=graph.directed,
                meta=graph.meta,
            )
        u, v = graph.edges()
        if not hasattr(graph, "directed"):  # a Multigraph: its loops and copies stay
            return type(graph)(graph.n, self.to_original(u), self.to_original(v))
        return type(graph).from_edges(
            self.to_original(u), self.to_original(v), graph.n, directed=graph.directed
        )

    def check(self, graph: Any, name: str = "the release") -> RunRecord:
        """Check that this record maps the ids of release ``graph`` exactly; return it.

        A record is exact or refused: it must be this release's own (:func:`release_digest`),
        the release must say whether its ids are permuted, and a permuted release needs the
        record's permutation (of ``graph.n`` entries). The messages name ``name``.
        """
        if graph.ids_permuted is None:
            raise ValueError(
                f"{name}: whether its ids are permuted is unknown, so no record can be matched to "
                f"it ({SIDECAR_HINT})"
            )
        if not self.matches(release_digest(graph.n, graph.u, graph.v, graph.p)):
            raise ValueError(
                f"{name}: the run record belongs to another release (its digest differs): pass "
                "the record written with this file"
            )
        if graph.ids_permuted and self.permutation is None:
            raise ValueError(
                f"{name}: its ids are permuted but the run record holds no permutation (a record "
                "written by re-saving a loaded release without its own record maps nothing): pass "
                "the record written when the release was first made"
            )
        if not graph.ids_permuted and self.permutation is not None:
            raise ValueError(
                f"{name}: its ids are the true ids (saved with keep_ids) but the run record holds "
                "a permutation: the record and the release disagree; pass the record written with it"
            )
        if self.permutation is not None and self.permutation.size != graph.n:
            raise ValueError(
                f"{name}: the run record's permutation has {self.permutation.size:,} entries, the "
                f"release {graph.n:,} nodes"
            )
        return self

    @classmethod
    def of_release(
        cls,
        graph: Any,
        record: RunRecord | np.ndarray | str | os.PathLike[str] | None = None,
        name: str = "the release",
    ) -> RunRecord | None:
        """The record that maps release ``graph``'s ids to the true ones (None: they are true).

        ``record`` is the one passed (a record, its path, or a bare permutation), else the one
        the graph was loaded with (``graph.run_record``). Refused with ValueError naming ``name``:
        a release whose id status is unknown, a permuted release without a record, a release in
        true ids with a permutation, a record of another release (:meth:`check`).
        """
        if graph.ids_permuted is None:
            raise ValueError(
                f"{name}: whether its ids are permuted is unknown, so its nodes cannot be "
                f"matched to the true graph's ({SIDECAR_HINT})"
            )
        carried = record is None and graph.run_record is not None
        if carried:
            record = graph.run_record  # checked when loaded
        if record is None:
            if graph.ids_permuted:
                raise ValueError(
                    f"{name} was saved with permuted node ids, so its nodes do not match the true "
                    "graph's: pass the private run record written with it (--record FILE of "
                    "graphveil anonymize, or save(..., record=PATH)), or save it with keep_ids "
                    "(--keep-ids)"
                )
            return None
        bare = isinstance(record, np.ndarray)  # a permutation alone: nothing to check it against
        if isinstance(record, np.ndarray):
            record = cls(record)
        elif not isinstance(record, RunRecord):
            record = load_record(record)
        if not graph.ids_permuted and record.permutation is not None:
            raise ValueError(
                f"{name}: the published graph's ids are not permuted (keep_ids, or not loaded "
                "from a release): a run record's permutation would scramble them; measure it "
                "without the record"
            )
        return record if carried or bare else record.check(graph, name)

    def matches(self, digest: str) -> bool:
        """Whether a release with this :func:`release_digest` is one of this record's files."""
        return any(r.get("digest") == digest for r in self.releases)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON (atomically): **never publish the file**.

        On POSIX the file gets mode 0600 (its owner only). On Windows modes are ignored: the
        file inherits the access rules of its folder, so write it into a folder only you can
        read (e.g. under your user profile), as the module documentation says.
        """
        target = check_output_path(path)
        body = {
            "format": _RECORD_TAG,
            "format_version": RECORD_VERSION,
            "warning": _WARNING,
            "graphveil_version": PACKAGE_VERSION,
            "permutation": None if self.permutation is None else self.permutation.tolist(),
            "permutation_digest": permutation_digest(self.permutation, self.releases),
            "releases": self.releases,
            "report": self.report,
        }
        text = dumps(body, sort_keys=True, lenient=True)
        with atomic_path(target, private=True) as tmp:
            tmp.write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> RunRecord:
        """Read a record written by :meth:`save`; ValueError (naming the file) if it is not one."""
        source = Path(path)
        try:
            text = source.read_bytes()
        except FileNotFoundError:
            raise FileNotFoundError(f"no such run record: {source}") from None
        except IsADirectoryError:
            raise IsADirectoryError(f"{source} is a directory, not a run record") from None
        body = load_json(text, f"{source}: not a graphveil run record")
        if not isinstance(body, dict) or body.get("format") != _RECORD_TAG:
            raise ValueError(
                f"{source}: not a graphveil run record (written by --record FILE / record=PATH)"
            )
        version = body.get("format_version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ValueError(f"{source}: corrupt run record: invalid format_version {version!r}")
        if version > RECORD_VERSION:
            raise ValueError(f"{source}: written by a newer graphveil; upgrade graphveil")
        perm, report, releases = (body.get(k) for k in ("permutation", "report", "releases"))
        problem = _field_problem(perm, report, releases)
        if problem is not None:
            raise ValueError(f"{source}: corrupt run record: {problem}")
        try:
            record = cls(
                None if perm is None else np.asarray(perm, dtype=np.int64),
                dict(report or {}),
                [dict(r) for r in releases or []],
            )
        except (TypeError, ValueError, OverflowError) as err:
            raise ValueError(f"{source}: corrupt run record: {err}") from None
        if version >= 2:  # a version-1 record has no digest of its permutation: read as it is
            digest = body.get("permutation_digest")
            if not isinstance(digest, str):
                raise ValueError(f"{source}: corrupt run record: no 'permutation_digest'")
            if digest != permutation_digest(record.permutation, record.releases):
                raise ValueError(
                    f"{source}: the run record's permutation (or its list of releases) is not the "
                    "one it was written with (its permutation_digest differs: swapped from another "
                    "run's record, or edited); pass the record written with the release"
                )
        return record


def _field_problem(perm: Any, report: Any, releases: Any) -> str | None:
    """What is wrong with a record's fields as read (types checked before use), or None."""
    if perm is not None and not (
        isinstance(perm, list) and all(type(i) is int for i in perm)  # noqa: E721 (no bools)
    ):
        return "'permutation' must be null or a list of integers"
    if report is not None and not isinstance(report, dict):
        return "'report' must be a JSON object"
    if releases is not None and not (
        isinstance(releases, list)
        and all(
            isinstance(r, dict)
            and isinstance(r.get("file"), str)
            and isinstance(r.get("digest"), str)
            for r in releases
        )
    ):
        return '\'releases\' must be a list of {"file": name, "digest": sha256} objects'
    return None


def load_record(path: str | os.PathLike[str]) -> RunRecord:
    """Read a private run record: :meth:`RunRecord.load`."""
    return RunRecord.load(path)


def check_record(
    graph: Any, record: RunRecord | str | os.PathLike[str], name: str = "the release"
) -> RunRecord:
    """``record`` (or the record at that path), checked to map ``graph``'s ids: :meth:`RunRecord.check`."""
    if not isinstance(record, RunRecord):
        record = load_record(record)
    return record.check(graph, name)


def true_ids(graph: Any, record: RunRecord | np.ndarray | None = None) -> Any:
    """``graph`` (a release, or a Graph in release ids) under the true graph's ids.

    An uncertain graph's record is the one passed, else the one it was loaded with; it is exact
    or refused (:meth:`RunRecord.of_release`). A :class:`~graphveil.Graph` is mapped through
    ``record`` when one is given (a record or a bare permutation).
    """
    if hasattr(graph, "ids_permuted"):
        found = RunRecord.of_release(graph, record)
    elif record is None:
        return graph
    else:
        found = record if isinstance(record, RunRecord) else RunRecord(np.asarray(record))
    return graph if found is None else found.unpermute(graph)
