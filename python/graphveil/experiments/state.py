"""A study's folder and resume state, :class:`StudyState`: every finished point recorded at once, reused on resume.

A recorded point is reused only under the same graph, config, package version and
:data:`STATE_VERSION` (its fingerprint); a folder holding another graph's study is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._common import (
    PACKAGE_VERSION,
    atomic_path,
    check_output_path,
    clean_stale_temporaries,
)
from graphveil._json import dumps
from graphveil.experiments.config import GridPoint, StudyConfig, prepare_key
from graphveil.graph import Graph

#: Version of the per-point record format in ``out_dir/points`` (4: NS's eccentricity and the
#: accuracy / coverage / twin columns of the attack; 5: MaxVar's one partition per study; 6: the
#: edge attack, the de-anonymization suite, the strongest re-identification ``reid`` and
#: ``reid_attack``, no re-identification of a release without node identity, the analyst
#: statistics): an older folder's points are recomputed, never mixed with new rows.
STATE_VERSION = 6


def graph_digest(graph: Graph) -> str:
    """SHA-256 of a graph's node count and edges: the same digest only for the same graph.

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("karate_club")
    >>> graph_digest(g) == graph_digest(g) != graph_digest(gv.Graph.from_edges([0], [1]))
    True
    """
    h = hashlib.sha256()
    _hash_graph(h, graph)
    return h.hexdigest()


def _hash_graph(h: Any, graph: Graph) -> None:
    u, v = graph.edges()
    if graph.directed:  # its arcs may read as an undirected graph's edges: tell them apart
        h.update(b"directed")
    h.update(np.int64(graph.n).tobytes())
    h.update(np.ascontiguousarray(u, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(v, dtype=np.int64).tobytes())


class StudyState:
    """The recorded points of one study: the one home of resume.

    Made before any work: it refuses (or, with ``overwrite``, clears) an ``out_dir`` that holds
    another graph's study, and makes ``out_dir/points`` (private, like a run record: each point
    holds its seed). Every finished point is saved there at once by :meth:`record`, so an
    interrupted run keeps it; with ``resume`` a point saved under this study's fingerprint
    (graph, config, package version and :data:`STATE_VERSION`) is reused, never recomputed.
    Without ``out_dir`` nothing is saved or reused.

    Parameters
    ----------
    graph : Graph
        G0.
    config : StudyConfig
        The study's config (:meth:`StudyConfig.for_graph`).
    out_dir : path, optional
        The study's folder.
    resume : bool
        Reuse the points recorded there.
    overwrite : bool
        Let ``out_dir`` hold another graph's study: its tables, figures and points are removed.

    Raises
    ------
    ValueError
        ``out_dir`` holds another graph's study and not ``overwrite``.
    """

    def __init__(
        self,
        graph: Graph,
        config: StudyConfig,
        out_dir: str | Path | None = None,
        *,
        resume: bool = True,
        overwrite: bool = False,
    ) -> None:
        h = hashlib.sha256()  # G0 hashed once: its digest, then the config's for the fingerprint
        _hash_graph(h, graph)
        #: :func:`graph_digest` of G0, for ``study.json``.
        self.digest = h.hexdigest()
        #: What a point is reused under: :func:`fingerprint` of the graph and config.
        self.fingerprint = _add_config(h, config, PACKAGE_VERSION).hexdigest()
        _claim_folder(out_dir, graph, self.digest, overwrite)
        #: ``out_dir/points``, or None without ``out_dir``.
        self.folder = _state_dir(out_dir)
        self.resume = resume
        #: The rows of the grid points by key: reused (:meth:`pending`) or recorded.
        self.rows: dict[str, dict[str, Any]] = {}
        #: Per scheme with a once-per-study preparation: its ``seed`` and ``time_s``.
        self.preparations: dict[str, dict[str, Any]] = {}

    def load(self, key: str) -> dict[str, Any] | None:
        """The row recorded under ``key`` for this study, or None (also without resume)."""
        if self.folder is None or not self.resume:
            return None
        try:
            record = json.loads(_state_file(self.folder, key).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        if record.get("fingerprint") != self.fingerprint or record.get("key") != key:
            return None
        row: dict[str, Any] = record["row"]
        return row

    def save(self, key: str, row: dict[str, Any]) -> None:
        """Record ``row`` under ``key`` (atomically, private; nothing without ``out_dir``)."""
        if self.folder is None:
            return
        record = {"key": key, "fingerprint": self.fingerprint, "row": row}
        write_text(_state_file(self.folder, key), dumps(record), private=True)

    def original(self, measure: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """G0's own row: the recorded one, else ``measure()``, recorded."""
        row = self.load("original")
        if row is None:
            row = measure()
            self.save("original", row)
        return row

    def pending(
        self, points: Sequence[GridPoint], say: Callable[[str], None]
    ) -> list[tuple[int, GridPoint]]:
        """The ``(index in the grid, point)`` of every point not recorded, in grid order.

        The recorded points' rows go to :attr:`rows` and their schemes' preparations to
        :attr:`preparations`; ``say`` is told of each point reused.
        """
        for name in dict.fromkeys(p.scheme for p in points):
            recorded = self.load(prepare_key(name))
            if recorded is not None:
                self.preparations[name] = recorded
        pending: list[tuple[int, GridPoint]] = []
        for i, point in enumerate(points, 1):
            cached = self.load(point.key)
            if cached is not None:
                say(f"[{i}/{len(points)}] {point.key}: recorded, reused")
                self.rows[point.key] = cached
            else:
                pending.append((i, point))
        return pending

    def record(self, point: GridPoint, row: dict[str, Any]) -> None:
        """Save a finished point's row at once, and keep it in :attr:`rows`."""
        self.save(point.key, row)
        self.rows[point.key] = row

    def record_preparations(self, preparations: Mapping[str, dict[str, Any]]) -> None:
        """Save the preparations made in this run, and keep them in :attr:`preparations`."""
        for name, info in preparations.items():
            self.save(prepare_key(name), info)
        self.preparations.update(preparations)


#: What :meth:`Study.write` and the recorded points leave in a study's folder (removed by
#: ``overwrite`` when the folder held another graph's study).
_STUDY_FILES = ("table_*.csv", "table_*.md", "study.json", "study.md", "*.png", "points/*.json")


def _claim_folder(out_dir: str | Path | None, graph: Graph, digest: str, overwrite: bool) -> None:
    """Refuse (or, with ``overwrite``, clear) a folder whose ``study.json`` is another graph's.

    A ``study.json`` written before the digest was recorded is told apart by n and m only.
    """
    if out_dir is None:
        return
    out = Path(out_dir)
    try:
        previous = json.loads((out / "study.json").read_text())
    except (FileNotFoundError, NotADirectoryError, json.JSONDecodeError):
        return
    if not isinstance(previous, dict):
        return
    recorded = previous.get("graph_digest")
    if recorded == digest or (
        not recorded and (previous.get("n"), previous.get("m")) == (graph.n, graph.m)
    ):
        return
    if not overwrite:
        name = previous.get("graph", "?")
        raise ValueError(
            f"{out} holds the study of another graph ({name}, n={previous.get('n')}, "
            f"m={previous.get('m')}): its tables would be left beside this graph's; give a new "
            "folder, or overwrite=True to remove that study first"
        )
    for pattern in _STUDY_FILES:
        for path in out.glob(pattern):
            path.unlink()


def _state_dir(out_dir: str | Path | None) -> Path | None:
    """``out_dir/points``, created, checked writable and cleared of a killed run's temporaries."""
    if out_dir is None:
        return None
    state_dir = Path(out_dir) / "points"
    # private like a run record (each point holds its seed): 0700, its files 0600
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    state_dir.chmod(0o700)
    # fail before any work if the outputs cannot be written; drop what a killed run left
    check_output_path(state_dir.parent / "study.json")
    check_output_path(state_dir / "original.json")
    clean_stale_temporaries(state_dir.parent)
    clean_stale_temporaries(state_dir)
    return state_dir


def fingerprint(graph: Graph, config: StudyConfig, version: str) -> str:
    """SHA-256 of the graph, the config, the package ``version`` and :data:`STATE_VERSION`.

    A recorded point is reused only under an equal fingerprint.
    """
    h = hashlib.sha256()
    _hash_graph(h, graph)
    return _add_config(h, config, version).hexdigest()


def _add_config(h: Any, config: StudyConfig, version: str) -> Any:
    """``h`` (a SHA-256 of the graph) updated with the config, ``version`` and the state's."""
    h.update(
        json.dumps(
            {**config.to_dict(), "version": version, "state": STATE_VERSION}, sort_keys=True
        ).encode()
    )
    return h


def _state_file(state_dir: Path, key: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)
    return state_dir / f"{safe}.json"


def write_text(path: Path, text: str, *, private: bool = False) -> Path:
    """Write ``text`` to ``path`` atomically (``private``: mode 0600); return ``path``."""
    with atomic_path(path, private=private) as tmp:
        tmp.write_text(text)
    return path
