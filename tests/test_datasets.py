"""Datasets: the embedded graphs, the registry against ../shared/data, load's search path, and
fetch against a local HTTP server on loopback (success, checksum mismatch, no network)."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import socket
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from graph_zoo import real_graph_files, shared_graph_path

from graphveil import datasets
from graphveil.datasets import ChecksumError, DownloadError

# The real graphs on this machine, and the embedded ones everywhere.
SHARED_NAMES = sorted({*real_graph_files(), "ca-GrQc", "karate_club"})
SNAP_COPIES = ["facebook_combined", "soc-Slashdot0902", "soc-Epinions1", "web-NotreDame"]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Never touch the user's ~/.cache: every test gets its own cache directory."""
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------- registry
def test_registry_has_the_papers_graphs_and_the_shared_ones():
    names = {d.name for d in datasets.list()}
    assert {"com-dblp", "com-amazon", "com-youtube", "ca-GrQc"} <= names
    assert set(SHARED_NAMES) <= names
    assert {"synthetic-youtube", "synthetic-dblp", "synthetic-amazon"} <= names
    for d in datasets.list():
        assert d.nodes > 0 and d.edges > 0 and d.citation and d.description
        assert d.synthetic == d.name.startswith("synthetic-")
        if d.synthetic:
            assert "SYNTHETIC" in d.description and d.url is None
        else:
            assert d.url is not None or d.embedded
        if d.url is not None:
            assert d.url.startswith("https://")
        if d.sha256 is not None:
            assert len(d.sha256) == 64 and int(d.sha256, 16) >= 0
    youtube = datasets.info("com-youtube")
    assert (
        youtube.url
        == "https://snap.stanford.edu/data/bigdata/communities/com-youtube.ungraph.txt.gz"
    )
    assert (youtube.nodes, youtube.edges) == (1_134_890, 2_987_624)
    # Real graphs first, then the synthetic ones.
    flags = [d.synthetic for d in datasets.list()]
    assert flags == sorted(flags)


def test_info_is_case_insensitive_and_unknown_names_raise_key_error():
    assert datasets.info("CA-grqc").name == "ca-GrQc"
    with pytest.raises(KeyError, match="unknown dataset 'nope'.*com-dblp"):
        datasets.info("nope")
    with pytest.raises(TypeError):
        datasets.info(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", SNAP_COPIES)
def test_registered_checksums_are_those_of_the_byte_for_byte_snap_copies(name):
    entry = datasets.info(name)
    assert entry.url == f"https://snap.stanford.edu/data/{name}.txt.gz"
    assert entry.sha256 == _sha256(shared_graph_path(name))


@pytest.mark.parametrize("name", SHARED_NAMES)
def test_every_shared_graph_loads_with_the_registered_counts(name):
    path = shared_graph_path(name)
    g = datasets.load(name, data_dir=path.parent)  # load itself checks the counts
    entry = datasets.info(name)
    assert (g.n, g.m) == (entry.nodes, entry.edges)
    if name in ("ca-GrQc", "karate_club"):
        assert datasets.locate(name, path.parent) == path


# ---------------------------------------------------------------------------- embedded
def test_embedded_default_is_ca_grqc_with_its_self_loops():
    path = datasets.locate("ca-GrQc")
    assert path == datasets.EMBEDDED_DIR / "ca-GrQc.txt.gz"
    assert _sha256(path) == "a4bf090665898fc7bea32c0115e5ada131cc7efd021971b00e6c6f0707f8dc43"
    g = datasets.load()
    assert (g.n, g.m) == (5_242, 14_484)
    assert g.build_counts.self_loops == 12
    assert g.labels.min() >= 0  # original SNAP ids are kept as labels
    assert (datasets.EMBEDDED_DIR / "README.md").is_file()


def test_embedded_copy_is_the_shared_copy():
    assert _sha256(datasets.locate("ca-GrQc")) == _sha256(shared_graph_path("ca-GrQc"))


def test_embedded_karate_club_is_networkx_karate_club():
    g = datasets.load("karate_club")
    ref = nx.karate_club_graph()
    ours = {
        frozenset(e) for e in zip(g.labels[g.edges()[0]].tolist(), g.labels[g.edges()[1]].tolist())
    }
    assert ours == {frozenset(e) for e in ref.edges()}


def test_embedded_graphs_are_found_by_load_without_network_or_cache(tmp_path):
    assert not (tmp_path / "cache").exists()
    assert datasets.fetch("ca-GrQc") == datasets.EMBEDDED_DIR / "ca-GrQc.txt.gz"


# ---------------------------------------------------------------------------- search path
def test_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    assert datasets.cache_dir() == tmp_path / "cache"
    monkeypatch.delenv("GRAPHVEIL_DATA_DIR")
    assert datasets.cache_dir() == Path.home() / ".cache" / "graphveil"


def test_missing_graph_says_how_to_get_it():
    assert datasets.locate("com-dblp") is None
    with pytest.raises(FileNotFoundError, match="graphveil datasets fetch com-dblp"):
        datasets.load("com-dblp")


def test_data_dir_is_searched_first_then_the_cache(tmp_path):
    src = shared_graph_path("karate_club")
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (second / "ca-HepTh.txt.gz").write_bytes(shared_graph_path("ca-HepTh").read_bytes())
    assert datasets.locate("ca-HepTh", [first, second]) == second / "ca-HepTh.txt.gz"
    assert datasets.locate("ca-HepTh", str(first)) is None
    cache = datasets.cache_dir()
    cache.mkdir()
    (cache / "ca-HepTh.txt.gz").write_bytes(src.read_bytes())
    assert datasets.locate("ca-HepTh", first) == cache / "ca-HepTh.txt.gz"


def test_a_file_with_the_wrong_counts_is_refused(tmp_path):
    (tmp_path / "ca-HepTh.txt.gz").write_bytes(shared_graph_path("karate_club").read_bytes())
    with pytest.raises(ChecksumError, match="34 nodes and 78 edges, but ca-HepTh has 9,877 nodes"):
        datasets.load("ca-HepTh", data_dir=tmp_path)


def test_synthetic_graphs_are_generated_and_seeded():
    g = datasets.load("synthetic-amazon")
    assert (g.n, g.m) == (334_863, 925_872)
    assert datasets.locate("synthetic-amazon") is None
    with pytest.raises(ValueError, match="synthetic"):
        datasets.fetch("synthetic-amazon")


# ---------------------------------------------------------------------------- fetch over HTTP
@pytest.fixture
def server(tmp_path):
    """A static HTTP server on 127.0.0.1 serving tmp_path/www; yields (folder, base URL, hits)."""
    root = tmp_path / "www"
    root.mkdir()
    hits: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def do_GET(self):
            hits.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{httpd.server_address[1]}/", hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def _register(monkeypatch, name: str, **changes) -> datasets.Dataset:
    entry = dataclasses.replace(datasets.info(name), **changes)
    monkeypatch.setitem(datasets._REGISTRY, name, entry)
    return entry


def test_fetch_downloads_verifies_and_renames(server, monkeypatch, tmp_path, capsys):
    root, base, hits = server
    payload = shared_graph_path("karate_club").read_bytes()
    (root / "karate.txt.gz").write_bytes(payload)
    _register(
        monkeypatch,
        "facebook_combined",
        url=base + "karate.txt.gz",
        sha256=hashlib.sha256(payload).hexdigest(),
        nodes=34,
        edges=78,
    )
    path = datasets.fetch("facebook_combined")
    assert path == datasets.cache_dir() / "facebook_combined.txt.gz"
    assert path.read_bytes() == payload
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "facebook_combined.txt.gz"
    ]  # no temp left
    assert "facebook_combined" in capsys.readouterr().err  # the progress bar
    g = datasets.load("facebook_combined")
    assert (g.n, g.m) == (34, 78)
    # Present already: no second download.
    assert datasets.fetch("facebook_combined") == path
    assert len(hits) == 1
    datasets.fetch("facebook_combined", force=True, progress=False)
    assert len(hits) == 2


def test_fetch_gzips_plain_text_and_comments_out_a_csv_header(server, monkeypatch, tmp_path):
    root, base, _ = server
    text = "id_1,id_2\n0,1\n1,2\n2,0\n2,3\n3,3\n1,0\n"
    (root / "edges.csv").write_text(text)
    _register(
        monkeypatch,
        "musae-github",
        url=base + "edges.csv",
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        nodes=4,
        edges=4,
    )
    target = tmp_path / "mine"
    path = datasets.fetch("musae-github", data_dir=target, progress=False)
    assert path == target / "musae-github.txt.gz"
    assert gzip.decompress(path.read_bytes()).decode() == "# " + text
    g = datasets.load("musae-github", data_dir=target)
    assert (g.n, g.m) == (4, 4)
    assert g.build_counts.self_loops == 1 and g.build_counts.duplicates == 1
    assert np.array_equal(np.sort(g.labels), [0, 1, 2, 3])


def test_checksum_mismatch_removes_the_file(server, monkeypatch):
    root, base, _ = server
    (root / "karate.txt.gz").write_bytes(shared_graph_path("karate_club").read_bytes())
    _register(monkeypatch, "facebook_combined", url=base + "karate.txt.gz", sha256="0" * 64)
    with pytest.raises(ChecksumError, match=r"sha256 .* expected 0{64}; the file was removed"):
        datasets.fetch("facebook_combined", progress=False)
    assert list(datasets.cache_dir().iterdir()) == []


def test_count_mismatch_without_checksum_removes_the_file(server, monkeypatch):
    root, base, _ = server
    (root / "karate.txt.gz").write_bytes(shared_graph_path("karate_club").read_bytes())
    _register(monkeypatch, "com-dblp", url=base + "karate.txt.gz")  # no sha256, counts of dblp
    with pytest.raises(
        ChecksumError, match="34 nodes and 78 edges, but com-dblp has 317,080.*removed"
    ):
        datasets.fetch("com-dblp", progress=False)
    assert list(datasets.cache_dir().iterdir()) == []


def test_no_network_gives_one_clear_line(monkeypatch):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    _register(monkeypatch, "com-dblp", url=f"http://127.0.0.1:{port}/com-dblp.ungraph.txt.gz")
    with pytest.raises(
        DownloadError, match="cannot download com-dblp from http://127.0.0.1"
    ) as info:
        datasets.fetch("com-dblp", progress=False, timeout=5)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, OSError)
    assert list(datasets.cache_dir().iterdir()) == []


def test_http_error_is_reported(server, monkeypatch):
    _, base, _ = server
    _register(monkeypatch, "com-dblp", url=base + "missing.txt.gz")
    with pytest.raises(DownloadError, match="HTTP 404"):
        datasets.fetch("com-dblp", progress=False)
    assert list(datasets.cache_dir().iterdir()) == []
