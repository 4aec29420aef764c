"""A study's folder and resume state: every finished point recorded at once, reused on resume.

A recorded point is reused only under the same graph, config, package version and
:data:`STATE_VERSION` (its fingerprint); a folder holding another graph's study is refused.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._common import atomic_path, check_output_path, clean_stale_temporaries
from graphveil._json import dumps
from graphveil.experiments.config import StudyConfig
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


def _fingerprint(graph: Graph, config: StudyConfig, version: str) -> str:
    h = hashlib.sha256()
    _hash_graph(h, graph)
    h.update(
        json.dumps(
            {**config.to_dict(), "version": version, "state": STATE_VERSION}, sort_keys=True
        ).encode()
    )
    return h.hexdigest()


def _state_file(state_dir: Path, key: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)
    return state_dir / f"{safe}.json"


def _load_point(state_dir: Path | None, key: str, fingerprint: str) -> dict[str, Any] | None:
    if state_dir is None:
        return None
    path = _state_file(state_dir, key)
    try:
        record = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    if record.get("fingerprint") != fingerprint or record.get("key") != key:
        return None
    return record["row"]


def _save_point(state_dir: Path | None, key: str, fingerprint: str, row: dict[str, Any]) -> None:
    if state_dir is None:
        return
    record = {"key": key, "fingerprint": fingerprint, "row": row}
    text = dumps(record)
    _write_text(_state_file(state_dir, key), text, private=True)


def _write_text(path: Path, text: str, *, private: bool = False) -> Path:
    with atomic_path(path, private=private) as tmp:
        tmp.write_text(text)
    return path
