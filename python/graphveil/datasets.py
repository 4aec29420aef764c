"""Graphs to work on: one embedded in the package, a registry of public ones, synthetic ones.

The embedded default is SNAP's ca-GrQc (arXiv GR-QC co-authorship, 5,242 nodes, 14,484 edges
without its 12 self-loops; Leskovec, Kleinberg, Faloutsos, ACM TKDD 2007). The copy shipped in
``graphveil/data/ca-GrQc.txt.gz`` (sha256 ``a4bf0906...8dc43``) holds SNAP's 28,980 data lines
verbatim, in SNAP order, taken from GitHub ``qasimy00/Graph-study-of-CA-GrQc-dataset`` (commit
``0bbb5e0f``, file ``CA-GrQc.txt``) with a non-SNAP count line removed; ``graphveil/data/README.md``
gives the full provenance. Zachary's karate club (34 nodes, 78 edges) is embedded as well.

Every other real graph is registered with its source URL, expected node and edge counts, the
sha256 of the download where known, and the paper to cite. Counts follow one rule: lines
starting with ``#`` or ``%`` are comments, the first two integers of a line form an edge,
self-loops are dropped (their node is kept) and ``{u, v}`` pairs are merged as undirected edges.

:func:`fetch` downloads a graph into the cache directory (``$GRAPHVEIL_DATA_DIR``, by default
``~/.cache/graphveil``) as ``<name>.txt.gz``; :func:`load` reads it from there, from the
package, or from any folder given as ``data_dir``. Names starting with ``synthetic-`` are
generated on load (:mod:`graphveil.generators`): graphs the size of the paper's graphs, not
real data.

Examples
--------
>>> from graphveil import datasets
>>> g = datasets.load("ca-GrQc")
>>> g.n, g.m
(5242, 14484)
"""

from __future__ import annotations

import builtins
import contextlib
import gzip
import hashlib
import http.client
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graphveil._common import atomic_path
from graphveil._seeds import SeedLike

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.graph import Graph

# ``list`` is left out of ``__all__`` on purpose: ``from graphveil.datasets import *`` must not
# shadow the builtin. Call it as ``graphveil.datasets.list()``.
__all__ = [
    "DEFAULT",
    "EMBEDDED_DIR",
    "ChecksumError",
    "Dataset",
    "DownloadError",
    "cache_dir",
    "fetch",
    "info",
    "load",
    "locate",
]

PathLike = str | os.PathLike[str]
DataDir = PathLike | Iterable[PathLike] | None

#: The graph :func:`load` reads when no name is given (embedded in the package).
DEFAULT = "ca-GrQc"

#: The folder of the graphs shipped inside the package.
EMBEDDED_DIR = Path(__file__).resolve().parent / "data"
_SNAP = "https://snap.stanford.edu/data/"
_RAW = "https://raw.githubusercontent.com/"


class DownloadError(OSError):
    """A download failed: no network, an HTTP error, or the connection dropped."""


class ChecksumError(ValueError):
    """A downloaded file is not the one registered (sha256 or node/edge counts differ)."""


@dataclass(frozen=True)
class Dataset:
    """One registered graph."""

    name: str
    """Registry name; also the file name ``<name>.txt.gz`` in a data folder."""
    description: str
    nodes: int
    """Expected node count (ids appearing in any edge line, self-loops included)."""
    edges: int
    """Expected undirected edge count, self-loops dropped, duplicate pairs merged."""
    citation: str
    url: str | None = None
    """Where :func:`fetch` downloads it from (None: embedded or synthetic)."""
    sha256: str | None = None
    """sha256 of the download at :attr:`url`, where known; otherwise the counts are checked."""
    compressed: bool = True
    """Whether the download is gzip; plain text is gzipped into the cache."""
    header_lines: int = 0
    """Leading non-comment lines of the download (a CSV header) turned into ``#`` comments."""
    embedded: bool = False
    """Shipped inside the package."""
    synthetic: bool = False
    """Generated on load by :mod:`graphveil.generators`; not real data."""
    maxvar_parts: int | None = None
    """The paper's number of MaxVar parts for this graph, which ``graphveil reproduce --dataset``
    uses (None: the study's rule, :func:`graphveil.anonymize.registry.maxvar_parts`)."""
    arcs: int | None = None
    """A directed graph's expected arc count read with ``directed=True`` (self-loops dropped,
    repeated arcs merged); None: the graph is undirected, ``load(directed=True)`` refuses it."""

    @property
    def filename(self) -> str:
        """The file name of the cached copy."""
        return f"{self.name}.txt.gz"


def _snap(
    name: str,
    description: str,
    nodes: int,
    edges: int,
    citation: str,
    *,
    file: str | None = None,
    sha256: str | None = None,
    embedded: bool = False,
    maxvar_parts: int | None = None,
    arcs: int | None = None,
) -> Dataset:
    url = _SNAP + (file or f"{name}.txt.gz")
    return Dataset(
        name,
        description,
        nodes,
        edges,
        citation,
        url,
        sha256,
        embedded=embedded,
        maxvar_parts=maxvar_parts,
        arcs=arcs,
    )


_LESKOVEC_2007 = (
    "J. Leskovec, J. Kleinberg, C. Faloutsos. Graph Evolution: Densification and Shrinking Diameters. "
    "ACM Transactions on Knowledge Discovery from Data 1(1), 2007."
)
_LESKOVEC_2009 = (
    "J. Leskovec, K. Lang, A. Dasgupta, M. Mahoney. Community Structure in Large Networks: Natural "
    "Cluster Sizes and the Absence of Large Well-Defined Clusters. Internet Mathematics 6(1), 2009."
)
_YANG_2012 = (
    "J. Yang, J. Leskovec. Defining and Evaluating Network Communities based on Ground-truth. "
    "ICDM 2012."
)

_REAL: tuple[Dataset, ...] = (
    # The paper's graphs (Nguyen et al., Section VII). SNAP's checksums are not known here: a
    # download is verified by its node and edge counts. The paper partitioned dblp and amazon
    # into 20 MaxVar parts and youtube into 60.
    _snap(
        "com-dblp",
        "DBLP co-authorship (SNAP com-DBLP); a graph of the paper",
        317_080,
        1_049_866,
        _YANG_2012,
        file="bigdata/communities/com-dblp.ungraph.txt.gz",
        maxvar_parts=20,
    ),
    _snap(
        "com-amazon",
        "Amazon co-purchasing (SNAP com-Amazon); a graph of the paper",
        334_863,
        925_872,
        _YANG_2012,
        file="bigdata/communities/com-amazon.ungraph.txt.gz",
        maxvar_parts=20,
    ),
    _snap(
        "com-youtube",
        "YouTube friendships (SNAP com-Youtube); a graph of the paper",
        1_134_890,
        2_987_624,
        _YANG_2012,
        file="bigdata/communities/com-youtube.ungraph.txt.gz",
        maxvar_parts=60,
    ),
    # Byte-for-byte SNAP copies were checked against these checksums.
    _snap(
        "facebook_combined",
        "Facebook ego networks, combined (SNAP ego-Facebook)",
        4_039,
        88_234,
        "J. McAuley, J. Leskovec. Learning to Discover Social Circles in Ego Networks. NIPS 2012.",
        sha256="125e84db872eeba443d270c70315c256b0af43a502fcfe51f50621166ad035d7",
    ),
    _snap(
        "soc-Slashdot0902",
        "Slashdot Zoo friend/foe links, Feb 2009 (SNAP, directed, read as undirected)",
        82_168,
        504_230,
        _LESKOVEC_2009,
        sha256="65072f0a2d98a444967bf3b8379a87e03292f2f9f8924f4fe470ddd047c95553",
        arcs=870_161,
    ),
    _snap(
        "soc-Epinions1",
        "Epinions who-trusts-whom (SNAP, directed, read as undirected)",
        75_879,
        405_740,
        "M. Richardson, R. Agrawal, P. Domingos. Trust Management for the Semantic Web. ISWC 2003.",
        sha256="69a2dab71fa5e3a0715487599fc16ca17ddc847379325a6c765bbad6e3e36938",
        arcs=508_837,
    ),
    _snap(
        "web-NotreDame",
        "Notre Dame web graph (SNAP, directed, read as undirected); dblp-scale stand-in",
        325_729,
        1_090_108,
        "R. Albert, H. Jeong, A.-L. Barabasi. Diameter of the World-Wide Web. Nature 401, 1999.",
        sha256="d4f4916db2b45060d4dde21fca2d6d757f245f4397528f72230eff3bb57e499e",
        arcs=1_469_679,
    ),
    # SNAP graphs whose local copies were re-compressed or re-headed: counts only.
    _snap(
        "ca-GrQc",
        "arXiv GR-QC co-authorship (SNAP); the embedded default",
        5_242,
        14_484,
        _LESKOVEC_2007,
        embedded=True,
    ),
    _snap("ca-HepTh", "arXiv HEP-TH co-authorship (SNAP)", 9_877, 25_973, _LESKOVEC_2007),
    _snap("ca-AstroPh", "arXiv astro-ph co-authorship (SNAP)", 18_772, 198_050, _LESKOVEC_2007),
    _snap(
        "email-Enron",
        "Enron e-mail communication (SNAP)",
        36_692,
        183_831,
        _LESKOVEC_2009 + " B. Klimt, Y. Yang. Introducing the Enron Corpus. CEAS 2004.",
    ),
    # Not on SNAP as plain edge lists: pinned GitHub copies, checksums of those files.
    Dataset(
        "BlogCatalog3",
        "BlogCatalog blogger friendships (ASU Social Computing Data Repository)",
        10_312,
        333_983,
        "R. Zafarani, H. Liu. Social Computing Data Repository at ASU, 2009. "
        "L. Tang, H. Liu. Relational Learning via Latent Social Dimensions. KDD 2009.",
        url=_RAW + "premolab/GraphEmbeddings/885f8233fe8ce662861d9abd4c5a1b9c1af64a76/"
        "BlogCatalog-dataset/data/edges.csv",
        sha256="a3ac1f134b88829e6520bba2822c6e8f44487caa296a37951a6c161894f2e3ef",
        compressed=False,
    ),
    Dataset(
        "musae-github",
        "GitHub developers' mutual follows (SNAP musae-github)",
        37_700,
        289_003,
        "B. Rozemberczki, C. Allen, R. Sarkar. Multi-scale Attributed Node Embedding. "
        "Journal of Complex Networks 9(2), 2021.",
        url=_RAW
        + "benedekrozemberczki/datasets/3be0c070b1c39fe100ab7b998c5391480f9683c8/git_web_ml/git_edges.csv",
        sha256="34c57382246949d1b3b7fa641a8532672001ecae8e9558f0b3c113cc035bd781",
        compressed=False,
        header_lines=1,
    ),
    Dataset(
        "facebook100-MIT8",
        "Facebook friendships among MIT users, Sept 2005 (Facebook100)",
        6_440,
        251_252,
        "A. L. Traud, P. J. Mucha, M. A. Porter. Social Structure of Facebook Networks. Physica A 391(16), 2012.",
        url=_RAW
        + "networkit/networkit/ee76da936f05bb107f6ceabff36a610cd9a8fffd/input/MIT8.edgelist",
        sha256="11e4ca6f2c2c925e03ecaf1df00484fc76fe9f2b5ac4a297be9112c96f907a0f",
        compressed=False,
    ),
    Dataset(
        "karate_club",
        "Zachary's karate club (as networkx.karate_club_graph)",
        34,
        78,
        "W. W. Zachary. An Information Flow Model for Conflict and Fission in Small Groups. "
        "Journal of Anthropological Research 33(4), 1977.",
        embedded=True,
    ),
)


def _synthetic(key: str) -> Dataset:
    from graphveil.generators import LIKE_P, SIZES

    nodes, edges = SIZES[key]
    return Dataset(
        f"synthetic-{key}",
        f"SYNTHETIC Holme-Kim graph (p={LIKE_P}) the size of com-{key}; not real data",
        nodes,
        edges,
        "P. Holme, B. J. Kim. Growing Scale-Free Networks with Tunable Clustering. "
        "Physical Review E 65, 026107, 2002.",
        synthetic=True,
    )


_REGISTRY: dict[str, Dataset] = {d.name: d for d in _REAL}
_REGISTRY.update({d.name: d for d in map(_synthetic, ("youtube", "dblp", "amazon"))})


# ---------------------------------------------------------------------------- public API
def list() -> builtins.list[Dataset]:
    """Every registered graph, real ones first, each group sorted by name.

    Returns
    -------
    list of Dataset
    """
    return sorted(_REGISTRY.values(), key=lambda d: (d.synthetic, d.name.lower()))


def info(name: str) -> Dataset:
    """The registry entry of ``name`` (case-insensitive).

    Raises
    ------
    KeyError
        If no graph of that name is registered.
    """
    if not isinstance(name, str):
        raise TypeError(f"dataset name must be a str, got {type(name).__name__}")
    if name in _REGISTRY:
        return _REGISTRY[name]
    folded = {key.lower(): d for key, d in _REGISTRY.items()}
    if name.lower() in folded:
        return folded[name.lower()]
    known = ", ".join(d.name for d in list())
    raise KeyError(f"unknown dataset {name!r}; known datasets: {known}")


def cache_dir() -> Path:
    """Where :func:`fetch` stores downloads: ``$GRAPHVEIL_DATA_DIR`` or ``~/.cache/graphveil``."""
    env = os.environ.get("GRAPHVEIL_DATA_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "graphveil"


def locate(name: str, data_dir: DataDir = None) -> Path | None:
    """The file holding ``name``, or None if it is not on this machine.

    Searched in order: the folders of ``data_dir``, the package's embedded data, then
    :func:`cache_dir`. A folder holds graph ``name`` as ``<name>.txt.gz`` (or ``<name>.txt``).

    Raises
    ------
    KeyError
        If ``name`` is not registered.
    """
    entry = info(name)
    if entry.synthetic:
        return None
    for folder in _search_path(entry, data_dir):
        for candidate in (folder / entry.filename, folder / f"{entry.name}.txt"):
            if candidate.is_file():
                return candidate
    return None


def load(
    name: str = DEFAULT,
    *,
    data_dir: DataDir = None,
    download: bool = False,
    seed: SeedLike = 0,
    directed: bool = False,
) -> Graph:
    """Read a registered graph (or generate a ``synthetic-*`` one).

    Parameters
    ----------
    name : str
        A name from :func:`list` (case-insensitive); default the embedded ca-GrQc.
    data_dir : path or list of paths, optional
        Folders searched before the package and the cache directory (see :func:`locate`).
    download : bool
        If the graph is not on this machine, :func:`fetch` it first (default: raise).
    seed : int, numpy.random.Generator or None
        Seed of a synthetic graph (default 0: the same graph every time); ignored otherwise.
    directed : bool
        Read a directed graph's arcs as arcs (a directed :class:`Graph`, its arc count
        :attr:`Dataset.arcs` checked) instead of as undirected edges; only for the graphs
        that are directed (``arcs`` registered), a ValueError for the others.

    Returns
    -------
    Graph
        Node ids ``0..n-1``; the file's original ids are in ``Graph.labels``.

    Raises
    ------
    KeyError
        If ``name`` is not registered.
    FileNotFoundError
        If the graph is not on this machine and ``download`` is False.
    ChecksumError
        If the file found does not have the registered node and edge counts.
    """
    entry = info(name)
    if directed and entry.arcs is None:
        known = ", ".join(d.name for d in _REGISTRY.values() if d.arcs is not None)
        raise ValueError(
            f"{entry.name} is undirected: directed=True (--directed) reads a directed graph's "
            f"arcs; the directed datasets are {known}"
        )
    if entry.synthetic:
        from graphveil.generators import like

        return like(entry.name.removeprefix("synthetic-"), seed=seed)
    path = locate(entry.name, data_dir)
    if path is None:
        if not download:
            folders = ", ".join(str(p) for p in _search_path(entry, data_dir))
            raise FileNotFoundError(
                f"dataset {entry.name!r} is not on this machine (looked for {entry.filename} in {folders}); "
                f"run `graphveil datasets fetch {entry.name}` or pass download=True"
            )
        path = fetch(entry.name)
    if directed:
        graph = _read(path, directed=True)
        _check_counts(entry, graph, path, directed=True)
        return graph
    graph = _read(path)
    _check_counts(entry, graph, path)
    return graph


def fetch(
    name: str,
    *,
    data_dir: PathLike | None = None,
    force: bool = False,
    progress: bool = True,
    timeout: float = 60.0,
) -> Path:
    """Download a registered graph into a data folder, verified, and return its path.

    The download goes to a temporary file beside the target; its sha256 is checked where the
    registry knows it, a plain-text download is gzipped, the result is read and its node and
    edge counts checked, and only then is it renamed to ``<name>.txt.gz``. An interrupted or
    failed fetch leaves nothing under that name. A graph already present is not downloaded
    again unless ``force``; an embedded graph is never downloaded.

    Parameters
    ----------
    name : str
        A registered real graph.
    data_dir : path, optional
        Target folder (created if missing); default :func:`cache_dir`.
    force : bool
        Download even if the file is already there.
    progress : bool
        Show a progress bar on stderr.
    timeout : float
        Seconds to wait for the server before giving up.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    KeyError
        If ``name`` is not registered.
    ValueError
        If ``name`` is synthetic (generated by :func:`load`, nothing to download).
    DownloadError
        If the server cannot be reached (no network) or answers with an error.
    ChecksumError
        If the download's sha256 or its node/edge counts differ from the registry
        (the file is removed).
    """
    entry = info(name)
    if entry.synthetic:
        raise ValueError(
            f"{entry.name} is synthetic: it is generated by load(), there is nothing to fetch"
        )
    if entry.embedded and data_dir is None and not force:
        return EMBEDDED_DIR / entry.filename
    if entry.url is None:
        raise ValueError(f"{entry.name} has no download URL")
    folder = Path(data_dir).expanduser() if data_dir is not None else cache_dir()
    target = folder / entry.filename
    if target.is_file() and not force:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    fd, raw_name = tempfile.mkstemp(dir=folder, prefix=f".{entry.name}.", suffix=".download")
    os.close(fd)
    raw = Path(raw_name)
    try:
        digest = _download(entry, raw, progress=progress, timeout=timeout)
        if entry.sha256 is not None and digest != entry.sha256:
            raise ChecksumError(
                f"{entry.name}: the download from {entry.url} has sha256 {digest}, expected {entry.sha256}; "
                "the file was removed (a changed or corrupted source: try again, or report it)"
            )
        with atomic_path(target) as tmp:
            if entry.compressed and entry.header_lines == 0:
                shutil.copyfile(raw, tmp)
            else:
                _to_gzip_text(
                    raw, tmp, compressed=entry.compressed, header_lines=entry.header_lines
                )
            _check_counts(entry, _read(tmp), target, removed=True)
    finally:
        with contextlib.suppress(FileNotFoundError):
            raw.unlink()
    return target


# ---------------------------------------------------------------------------- internals
def _search_path(entry: Dataset, data_dir: DataDir) -> builtins.list[Path]:
    folders: builtins.list[Path] = []
    if data_dir is not None:
        if isinstance(data_dir, (str, os.PathLike)):
            folders.append(Path(data_dir).expanduser())
        else:
            folders.extend(Path(d).expanduser() for d in data_dir)
    if entry.embedded:
        folders.append(EMBEDDED_DIR)
    folders.append(cache_dir())
    return folders


def _read(path: Path, *, directed: bool = False) -> Graph:
    from graphveil.io import read_edgelist

    return read_edgelist(path, directed=directed) if directed else read_edgelist(path)


def _check_counts(
    entry: Dataset, graph: Graph, path: Path, *, removed: bool = False, directed: bool = False
) -> None:
    if (graph.n, graph.m) == (entry.nodes, entry.arcs if directed else entry.edges):
        return
    if directed:
        raise ChecksumError(
            f"{path} holds {graph.n:,} nodes and {graph.m:,} arcs, but {entry.name} has "
            f"{entry.nodes:,} nodes and {entry.arcs:,} arcs; delete it and fetch it again"
        )
    where = f"the download of {path.name}" if removed else str(path)
    what = "the file was removed" if removed else "delete it and fetch it again"
    raise ChecksumError(
        f"{where} holds {graph.n:,} nodes and {graph.m:,} edges, but {entry.name} has "
        f"{entry.nodes:,} nodes and {entry.edges:,} edges; {what}"
    )


def _download(entry: Dataset, dest: Path, *, progress: bool, timeout: float) -> str:
    """Stream entry.url into dest with a progress bar; return the sha256 of the bytes."""
    from tqdm import tqdm

    assert entry.url is not None
    digest = hashlib.sha256()
    request = urllib.request.Request(entry.url, headers={"User-Agent": "graphveil"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, open(dest, "wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            with tqdm(
                total=total,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc=entry.name,
                disable=not progress,
                file=sys.stderr,
                leave=False,
            ) as bar:
                while chunk := response.read(1 << 20):
                    out.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
    except urllib.error.HTTPError as exc:
        raise DownloadError(
            f"cannot download {entry.name} from {entry.url}: HTTP {exc.code} {exc.reason}"
        ) from None
    except urllib.error.URLError as exc:
        raise DownloadError(
            f"cannot download {entry.name} from {entry.url}: {exc.reason} (no network? fetch it on a "
            f"connected machine and copy {entry.filename} into {cache_dir()} or a data_dir)"
        ) from None
    except (OSError, http.client.HTTPException) as exc:  # timeouts, resets, truncated bodies
        raise DownloadError(f"download of {entry.name} from {entry.url} failed: {exc}") from None
    return digest.hexdigest()


def _to_gzip_text(src: Path, dest: Path, *, compressed: bool, header_lines: int) -> None:
    """Copy src into a gzip file, turning the first header_lines lines into comments."""
    opener = gzip.open if compressed else open
    with opener(src, "rb") as fin, gzip.GzipFile(dest, "wb", compresslevel=6, mtime=0) as fout:
        for _ in range(header_lines):
            line = fin.readline()
            if line:
                fout.write(b"# " + line)
        shutil.copyfileobj(fin, fout, 1 << 20)
