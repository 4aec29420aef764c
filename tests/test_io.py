"""read_edgelist / write_edgelist: formats, errors, counts, round trips, and the real graphs'
published node and edge counts (../shared/data/SOURCES.md)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
from pathlib import Path

import numpy as np
import pytest
from graph_zoo import ZOO, shared_graph_path
from hypothesis import given, settings
from hypothesis import strategies as st

import graphveil as gv
from graphveil import _core

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def write(tmp_path: Path, text: str | bytes, name: str = "g.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def reference(lines: list[tuple[int, int]], extra_nodes: tuple[int, ...] = ()):
    """Pure-Python reading of (u, v) pairs: sorted distinct ids, canonical edge set, counts."""
    nodes = sorted({x for pair in lines for x in pair} | set(extra_nodes))
    edges = {(min(a, b), max(a, b)) for a, b in lines if a != b}
    loops = sum(a == b for a, b in lines)
    directed = {(a, b) for a, b in lines if a != b}
    return nodes, edges, loops, directed


def edge_set(graph: gv.Graph, *, labels: bool = True) -> set[tuple[int, int]]:
    u, v = graph.edges()
    lab = graph.labels if labels else np.arange(graph.n)
    return {(min(a, b), max(a, b)) for a, b in zip(lab[u].tolist(), lab[v].tolist())}


# ---------------------------------------------------------------------- the format read


def test_snap_style_with_everything(tmp_path):
    text = (
        "# Directed graph: toy\r\n"
        "% another comment style\n"
        "\n"
        "   # indented comment\n"
        "10\t20\r\n"
        "20 10\n"  # reversed pair
        "10,  20, 0.5\n"  # exact repeat, comma separated, a weight column
        "  30 , 40\tignored extra\n"
        "7 7\n"  # self-loop: node 7 stays, isolated
        "-5 +40\n"
        "40 30"  # no final newline, reversed pair of 30-40
    )
    g = gv.read_edgelist(write(tmp_path, text))
    assert g.labels.tolist() == [-5, 7, 10, 20, 30, 40]
    assert g.labels.dtype == np.int64
    assert edge_set(g) == {(10, 20), (30, 40), (-5, 40)}
    assert g.degrees[1] == 0  # node 7
    c = g.build_counts
    assert (c.lines, c.self_loops, c.duplicates, c.exact_repeats, c.reversed_pairs) == (
        7,
        1,
        3,
        1,
        2,
    )


def test_ids_map_in_ascending_order_of_the_original_id(tmp_path):
    g = gv.read_edgelist(write(tmp_path, "300 100\n200 300\n"))
    assert g.labels.tolist() == [100, 200, 300]
    assert sorted(zip(*[a.tolist() for a in g.edges()])) == [(0, 2), (1, 2)]


def test_extreme_and_sparse_ids(tmp_path):
    # The span of ids exceeds any dense table: the sort-based relabelling runs.
    pairs = [(INT64_MIN, INT64_MAX), (0, INT64_MAX), (-1, 1), (INT64_MIN, INT64_MIN)]
    text = "".join(f"{a} {b}\n" for a, b in pairs)
    g = gv.read_edgelist(write(tmp_path, text))
    nodes, edges, loops, _ = reference(pairs)
    assert g.labels.tolist() == nodes
    assert edge_set(g) == edges
    assert g.build_counts.self_loops == loops


@pytest.mark.parametrize(
    "family", ["dense", "offset", "spread", "two_clusters", "powers_of_two", "extremes"]
)
def test_relabel_matches_numpy_unique(family):
    rng = np.random.default_rng(7)
    base = {
        "dense": np.arange(5000),
        "offset": np.arange(5000) - 10**15,
        "spread": rng.choice(2**40, size=5000, replace=False),
        "two_clusters": np.concatenate([np.arange(2500), 2**62 + np.arange(2500)]),
        "powers_of_two": np.arange(5000) << 40,
        "extremes": np.concatenate([[INT64_MIN, INT64_MAX], rng.integers(-100, 100, 4998)]),
    }[family].astype(np.int64)
    u = base[rng.integers(0, base.size, 30_000)]
    v = base[rng.integers(0, base.size, 30_000)]
    extra = base[:3].copy()
    for threads in (1, 2):
        uu, vv = u.copy(), v.copy()
        labels = _core.relabel_ascending(uu, vv, extra, threads)
        assert np.array_equal(labels, np.unique(np.concatenate([u, v, extra])))
        assert np.array_equal(labels[uu], u) and np.array_equal(labels[vv], v)


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(-50, 50), st.integers(-50, 50))
        | st.tuples(st.integers(INT64_MIN, INT64_MAX), st.integers(INT64_MIN, INT64_MAX)),
        min_size=1,
        max_size=60,
    ),
    sep=st.sampled_from(["\t", " ", ",", " , ", "  \t"]),
    eol=st.sampled_from(["\n", "\r\n"]),
)
def test_matches_a_pure_python_reading(tmp_path_factory, pairs, sep, eol):
    path = tmp_path_factory.mktemp("h") / "g.txt"
    path.write_text(
        "# hypothesis" + eol + "".join(f"{a}{sep}{b}{eol}" for a, b in pairs), newline=""
    )
    g = gv.read_edgelist(path)
    nodes, edges, loops, directed = reference(pairs)
    assert g.labels.tolist() == nodes
    assert edge_set(g) == edges
    c = g.build_counts
    assert c.lines == len(pairs) and c.self_loops == loops
    assert c.exact_repeats == len(pairs) - loops - len(directed)
    assert c.reversed_pairs == len(directed) - len(edges)
    assert c.duplicates == c.exact_repeats + c.reversed_pairs


def test_multi_chunk_file_same_for_any_thread_count(tmp_path):
    rng = np.random.default_rng(5)
    u = rng.integers(0, 20_000, size=300_000)
    v = rng.integers(0, 20_000, size=300_000)
    text = [f"{a}\t{b}" for a, b in zip(u.tolist(), v.tolist())]
    text[1000] = "# a comment in the first chunk"
    text[250_000] = ""  # a blank line in a later chunk
    path = write(tmp_path, "\n".join(text) + "\n")
    assert path.stat().st_size > 3 * 2**20  # several parse chunks
    graphs = [gv.read_edgelist(path, threads=t) for t in (1, 2, 3)]
    assert graphs[0] == graphs[1] == graphs[2]
    assert graphs[0].build_counts == graphs[1].build_counts == graphs[2].build_counts
    keep = np.ones(u.size, dtype=bool)
    keep[[1000, 250_000]] = False
    u, v = u[keep], v[keep]
    loop = u == v
    lo, hi = np.minimum(u, v)[~loop], np.maximum(u, v)[~loop]
    assert graphs[0].labels.tolist() == np.unique(np.concatenate([u, v])).tolist()
    assert graphs[0].m == np.unique(lo * 20_000 + hi).size
    assert graphs[0].build_counts.self_loops == int(loop.sum())
    assert (
        graphs[0].build_counts.exact_repeats
        == int((~loop).sum()) - np.unique(u[~loop] * 20_000 + v[~loop]).size
    )


def test_parse_keeps_file_order():
    u, v, lines = _core.parse_edgelist(b"5 1\n# c\n3 4\n\n1 5\n", 1)
    assert u.tolist() == [5, 3, 1] and v.tolist() == [1, 4, 5] and lines == 5


# ---------------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("1 2\n3 x\n", 2, "non-integer token 'x'"),
        ("1 2\n1.5 2\n", 2, "non-integer token '1.5'"),
        ("1 2\n3 4abc\n", 2, "non-integer token '4abc'"),
        ("id_1,id_2\n1,2\n", 1, "non-integer token 'id_1'"),
        ("# c\n\n1 2\n7\n", 4, "only one column"),
        ("1 2\n7,\n", 2, "only one column"),
        ("1 2\n3\t\r\n", 2, "only one column"),
        ("1,,2\n", 1, "empty second column"),
        (",1,2\n", 1, "starts with ','"),
        ("1 2\n3 99999999999999999999\n", 2, "beyond the signed 64-bit"),
        ("1 2\n-9223372036854775809 1\n", 2, "beyond the signed 64-bit"),
        ("1 2\n- 1\n", 2, "non-integer token '-'"),
    ],
)
def test_malformed_line_names_file_line_and_problem(tmp_path, text, line, what):
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as info:
        gv.read_edgelist(path)
    message = str(info.value)
    assert str(path) in message
    assert f"line {line}:" in message
    assert what in message


def test_first_error_in_file_order_across_chunks(tmp_path):
    lines = [f"{i} {i + 1}" for i in range(300_000)]
    lines[250_000] = "oops 1"
    lines[10] = "5"
    path = write(tmp_path, "\n".join(lines), "g.txt.gz")
    path.write_bytes(gzip.compress(path.read_bytes()))
    for threads in (1, 2):
        with pytest.raises(ValueError, match=r"g\.txt\.gz: line 11: only one column"):
            gv.read_edgelist(path, threads=threads)
    lines[10] = "5 6"
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    with pytest.raises(ValueError, match="line 250001: non-integer token 'oops'"):
        gv.read_edgelist(path)


def test_binary_garbage_is_quoted_printably(tmp_path):
    with pytest.raises(ValueError, match=r"line 1: non-integer token '\?\?'"):
        gv.read_edgelist(write(tmp_path, b"\xff\xfe 1\n"))


@pytest.mark.parametrize(
    ("text", "what"),
    [("", "the file is empty"), ("# only\n% comments\n\n", "3 lines are all blank or comments")],
)
def test_no_edges_is_an_error(tmp_path, text, what):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match="no edges found") as info:
        gv.read_edgelist(path)
    assert what in str(info.value) and str(path) in str(info.value)


def test_empty_compressed_file_is_an_error(tmp_path):
    path = write(tmp_path, gzip.compress(b""), "e.txt.gz")
    with pytest.raises(ValueError, match="no edges found"):
        gv.read_edgelist(path)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        gv.read_edgelist(tmp_path / "nope.txt")


def test_directory(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a directory"):
        gv.read_edgelist(tmp_path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path):
    path = write(tmp_path, "1 2\n")
    path.chmod(0)
    with pytest.raises(PermissionError, match="permission denied"):
        gv.read_edgelist(path)


@pytest.mark.parametrize("codec", ["gz", "bz2", "xz"])
def test_corrupt_and_truncated_compressed_data(tmp_path, codec):
    compress = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[codec]
    blob = compress(b"".join(b"%d %d\n" % (i, i + 1) for i in range(5000)))
    path = write(tmp_path, blob[: len(blob) // 2], f"t.txt.{codec}")
    with pytest.raises(ValueError, match="corrupt or truncated compressed data") as info:
        gv.read_edgelist(path)
    assert str(path) in str(info.value)


def test_bad_threads(tmp_path):
    with pytest.raises(ValueError, match="threads"):
        gv.read_edgelist(write(tmp_path, "1 2\n"), threads=-1)


# ---------------------------------------------------------------------- compression


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".txt"])
def test_compressed_formats_round_trip(tmp_path, suffix):
    g = gv.Graph.from_edges([0, 0, 1, 5], [1, 2, 2, 6], 9)
    path = tmp_path / f"g{suffix}"
    gv.write_edgelist(g, path, keep_ids=True)
    magic = {".gz": b"\x1f\x8b", ".bz2": b"BZh", ".xz": b"\xfd7zXZ\x00", ".txt": b"# graphveil"}[
        suffix
    ]
    assert path.read_bytes().startswith(magic)
    back = gv.read_edgelist(path)
    assert back == g and back.labels.tolist() == list(range(9))


def test_compression_is_sniffed_not_guessed_from_the_suffix(tmp_path):
    data = b"1 2\n2 3\n"
    for name, blob in [
        ("a.txt", gzip.compress(data)),
        ("b.gz", data),
        ("c.dat", lzma.compress(data)),
    ]:
        assert gv.read_edgelist(write(tmp_path, blob, name)).m == 2


def test_gzip_output_is_reproducible(tmp_path):
    g = ZOO["clique5"]
    gv.write_edgelist(g, tmp_path / "a.gz", keep_ids=True)
    gv.write_edgelist(g, tmp_path / "b.gz", keep_ids=True)
    assert (tmp_path / "a.gz").read_bytes() == (tmp_path / "b.gz").read_bytes()
    # a permuted write is reproducible from its seed alone, whatever the thread count
    gv.write_edgelist(g, tmp_path / "c.gz", seed=5, threads=1)
    gv.write_edgelist(g, tmp_path / "d.gz", seed=5, threads=3)
    assert (tmp_path / "c.gz").read_bytes() == (tmp_path / "d.gz").read_bytes()


def test_multi_member_gzip(tmp_path):
    path = write(tmp_path, gzip.compress(b"1 2\n") + gzip.compress(b"2 3\n"), "m.gz")
    assert gv.read_edgelist(path).m == 2


# ---------------------------------------------------------------------- writing and round trips


def test_zoo_round_trip(tmp_path, zoo_graph):
    first = tmp_path / "first.txt"
    gv.write_edgelist(zoo_graph, first, keep_ids=True)
    back = gv.read_edgelist(first)
    assert back == zoo_graph
    assert back.labels.tolist() == list(range(zoo_graph.n))
    # the graph read back has labels (0..n-1): written under them, read back exactly
    second = tmp_path / "second.txt"
    gv.write_edgelist(back, second)
    again = gv.read_edgelist(second)
    assert again == zoo_graph and again.labels.tolist() == list(range(zoo_graph.n))
    third = tmp_path / "third.txt"
    gv.write_edgelist(again, third)
    assert third.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("delimiter", ["\t", " ", ","])
def test_file_graph_file_graph_is_identity_with_labels(tmp_path, delimiter):
    text = "# from somewhere\n100 -3\n-3 100\n7 7\n55 100\n1000000000000 55\n"
    g = gv.read_edgelist(write(tmp_path, text))
    out = tmp_path / "out.txt.gz"
    assert gv.write_edgelist(g, out, delimiter=delimiter).permutation is None
    back = gv.read_edgelist(out)
    assert back == g
    assert back.labels.tolist() == g.labels.tolist() == [-3, 7, 55, 100, 10**12]
    assert back.degrees[1] == 0  # the self-loop-only node survived through the isolated list
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert lines[0] == "# graphveil edgelist n=5 m=3 labels=yes"
    assert lines[1] == "# graphveil isolated 7"
    assert f"-3{delimiter}100" in lines


def test_many_isolated_labels_span_several_header_lines(tmp_path):
    labels = np.arange(100, dtype=np.int64) * 10 - 7
    g = gv.Graph.from_edges([0], [1], 100, labels=labels)
    path = tmp_path / "g.txt"
    gv.write_edgelist(g, path)
    back = gv.read_edgelist(path)
    assert back == g and back.labels.tolist() == labels.tolist()


def test_a_labelled_graph_is_written_under_its_labels(tmp_path):
    g = gv.read_edgelist(write(tmp_path, "1000 2000\n2000 3000\n"))
    path = tmp_path / "g.txt"
    gv.write_edgelist(g, path)
    assert path.read_text().splitlines() == [
        "# graphveil edgelist n=3 m=2 labels=yes",
        "1000\t2000",
        "2000\t3000",
    ]


def test_an_unlabelled_sample_is_written_under_permuted_ids(tmp_path):
    # A sample's ids 0..n-1 follow the true graph's order (read_edgelist sorts the true ids), so
    # the public id list of the true graph would map them straight back: they are permuted.
    g0 = gv.read_edgelist(write(tmp_path, "".join(f"{i} {i + 1}\n" for i in range(40))))
    world = gv.UncertainGraph.from_graph(g0).sample(seed=1)
    assert not world.has_labels
    path = tmp_path / "world.txt"
    record = gv.write_edgelist(world, path, record=tmp_path / "private.json")
    perm = record.permutation
    assert sorted(perm.tolist()) == list(range(41)) and not np.array_equal(perm, np.arange(41))
    back = gv.read_edgelist(path)
    u, v = world.edges()
    assert back == gv.Graph.from_edges(perm[u], perm[v], 41)
    assert np.array_equal(gv.load_record(tmp_path / "private.json").permutation, perm)
    # two writes draw two permutations (fresh entropy): nothing in the file fixes them
    assert not np.array_equal(gv.write_edgelist(world, path).permutation, perm)
    # keep_ids=True is the only way to keep them
    assert gv.write_edgelist(world, path, keep_ids=True).permutation is None
    assert path.read_text().splitlines()[1:3] == ["0\t1", "1\t2"]


def test_without_header_isolated_nodes_are_lost(tmp_path):
    g = ZOO["with_isolated"]
    path = tmp_path / "g.txt"
    gv.write_edgelist(g, path, header=False)
    assert not path.read_text().startswith("#")
    back = gv.read_edgelist(path)
    assert back.n == 4 and back.m == g.m


def test_networkx_labels_that_are_not_integers(tmp_path):
    nx = pytest.importorskip("networkx")
    g = gv.Graph.from_networkx(nx.path_graph(["a", "b", "c"]))
    # string names are written as they are (the header says labels=str) and read back
    assert gv.write_edgelist(g, tmp_path / "g.txt").permutation is None
    back = gv.read_edgelist(tmp_path / "g.txt")
    assert back == g and back.labels.tolist() == ["a", "b", "c"]
    # names that are no ids and no strings cannot be written: positions, permuted unless kept
    grid = gv.Graph.from_networkx(nx.grid_2d_graph(2, 2))
    assert gv.write_edgelist(grid, tmp_path / "g.txt").permutation is not None
    gv.write_edgelist(grid, tmp_path / "g.txt", keep_ids=True)
    assert gv.read_edgelist(tmp_path / "g.txt") == grid


def test_duplicate_labels_are_refused(tmp_path):
    g = gv.Graph.from_edges([0], [1], 3, labels=np.array([5, 5, 6]))
    with pytest.raises(ValueError, match="not distinct"):
        gv.write_edgelist(g, tmp_path / "g.txt")


def test_utf8_byte_order_mark_is_skipped(tmp_path):
    g = gv.read_edgelist(write(tmp_path, b"\xef\xbb\xbf1 2\n2 3\n"))
    assert g.labels.tolist() == [1, 2, 3]
    head = b"\xef\xbb\xbf# graphveil edgelist n=4 m=1 labels=no\n0 1\n"
    assert gv.read_edgelist(write(tmp_path, head)).n == 4


def test_write_argument_errors(tmp_path):
    g = ZOO["triangle"]
    with pytest.raises(ValueError, match="delimiter"):
        gv.write_edgelist(g, tmp_path / "g.txt", delimiter=";")
    with pytest.raises(TypeError, match="graphveil.Graph"):
        gv.write_edgelist([(0, 1)], tmp_path / "g.txt")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="does not exist"):
        gv.write_edgelist(g, tmp_path / "missing" / "g.txt")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_atomic_write_leaves_no_file_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "g.txt"
    gv.write_edgelist(ZOO["path5"], path)
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(_core, "format_edgelist", boom)
    with pytest.raises(RuntimeError):
        gv.write_edgelist(ZOO["clique5"], path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.txt"]


# ---------------------------------------------------------------------- the graphveil header


def test_only_graphveils_own_header_is_honoured(tmp_path):
    assert gv.read_edgelist(write(tmp_path, "# graphveil edgelist n=5 m=1 labels=no\n0 1\n")).n == 5
    # Look-alikes are plain comments.
    for head in [
        "# Nodes: 5 Edges: 1",
        "#graphveil edgelist n=5 m=1 labels=no",
        "# graphveil edgelist n=5",
    ]:
        assert gv.read_edgelist(write(tmp_path, f"{head}\n0 1\n")).n == 2
    # Only on the first line.
    assert (
        gv.read_edgelist(write(tmp_path, "# x\n# graphveil edgelist n=5 m=1 labels=no\n0 1\n")).n
        == 2
    )


def test_header_only_file_is_a_graph_without_edges(tmp_path):
    g = gv.read_edgelist(write(tmp_path, "# graphveil edgelist n=3 m=0 labels=no\n"))
    assert (g.n, g.m) == (3, 0)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (
            "# graphveil edgelist n=2 m=1 labels=no\n0 5\n",
            "n=2 but the file holds node ids outside 0..1",
        ),
        ("# graphveil edgelist n=3 m=2 labels=no\n0 1\n", "m=2 but the file holds 1 edges"),
        (
            "# graphveil edgelist n=3 m=1 labels=yes\n10 20\n",
            "n=3 but the file holds 2 distinct node ids",
        ),
    ],
)
def test_header_disagreeing_with_the_edges(tmp_path, text, what):
    with pytest.raises(ValueError, match="delete the header line") as info:
        gv.read_edgelist(write(tmp_path, text))
    assert what in str(info.value)


# ---------------------------------------------------------------------- references


def test_networkx_reference_on_ca_grqc():
    nx = pytest.importorskip("networkx")
    path = shared_graph_path("ca-GrQc")
    g = gv.read_edgelist(path)
    ref = nx.read_edgelist(path, nodetype=int, create_using=nx.Graph)
    loops = list(nx.selfloop_edges(ref))
    ref.remove_edges_from(loops)
    assert sorted(ref.nodes()) == g.labels.tolist()
    assert {(min(a, b), max(a, b)) for a, b in ref.edges()} == edge_set(g)
    assert g.build_counts.self_loops == len(loops) == 12


# Node count, undirected edges without self-loops, self-loop lines, edge lines (SOURCES.md).
SOURCES = {
    "facebook_combined": (4_039, 88_234, 0, 88_234),
    "email-Enron": (36_692, 183_831, 0, 367_662),
    "ca-GrQc": (5_242, 14_484, 12, 28_980),
    "ca-HepTh": (9_877, 25_973, 25, 51_971),
    "karate_club": (34, 78, 0, 78),
    "soc-Slashdot0902": (82_168, 504_230, 78_303, 948_464),
    "soc-Epinions1": (75_879, 405_740, 0, 508_837),
    "BlogCatalog3": (10_312, 333_983, 0, 333_983),
    "musae-github": (37_700, 289_003, 0, 289_003),
    "facebook100-MIT8": (6_440, 251_252, 0, 251_252),
    "ca-AstroPh": (18_772, 198_050, 60, 198_110),
    "web-NotreDame": (325_729, 1_090_108, 27_455, 1_497_134),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_shared_graphs_match_sources_md(name):
    n, m, loops, lines = SOURCES[name]
    g = gv.read_edgelist(shared_graph_path(name))
    assert (g.n, g.m) == (n, m)
    c = g.build_counts
    assert (c.self_loops, c.lines) == (loops, lines)
    assert c.duplicates == lines - loops - m == c.exact_repeats + c.reversed_pairs
    assert g.labels.dtype == np.int64 and np.all(np.diff(g.labels) > 0)
