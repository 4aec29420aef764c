"""Tables, parquet, GraphML and the bridges to networkx, igraph, networkit, pandas, pyarrow, scipy.

Every round trip is checked against the other library's own reading of the data (its edge
list, degrees, attributes), not against graphveil alone.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter

import igraph as ig
import networkx as nx
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
from graph_zoo import ZOO

import graphveil as gv
from graphveil.cli import main
from graphveil.interop import _factorize


def _random_uncertain(seed: int, n: int = 30, pairs: int = 60, relaxed: bool = False):
    rng = np.random.default_rng(seed)
    if relaxed:
        u = rng.integers(0, n, pairs)
        v = rng.integers(0, n, pairs)
    else:
        keys = rng.choice(n * (n - 1) // 2, size=pairs, replace=False)
        iu, iv = np.triu_indices(n, 1)
        u, v = iu[keys], iv[keys]
    p = rng.random(pairs)
    p[:3] = [0.0, 1.0, 0.5]
    return gv.UncertainGraph(n, u, v, p, relaxed=relaxed)


def _brute_counts(pairs):
    """Self-loops, exact repeats, reversed pairs and the edge set, counted by hand."""
    seen, loops, exact, reverse = set(), 0, 0, 0
    for a, b in pairs:
        if a == b:
            loops += 1
        elif (a, b) in seen:
            exact += 1
        elif (b, a) in seen:
            reverse += 1
        else:
            pass
        seen.add((a, b))
    edges = {frozenset(e) for e in pairs if e[0] != e[1]}
    return loops, exact, reverse, edges


# ---------------------------------------------------------------------- pandas / arrow -> Graph
STRING_PAIRS = [
    ("bob", "ann"),
    ("ann", "bob"),  # reversed
    ("ann", "cy"),
    ("ann", "cy"),  # exact repeat
    ("dee", "dee"),  # self-loop: dee stays, isolated
    ("cy", "eve"),
    ("eve", "ann"),
]


def _check_against_brute(g: gv.Graph, pairs) -> None:
    loops, exact, reverse, edges = _brute_counts(pairs)
    labels = g.labels.tolist()
    assert labels == sorted({x for e in pairs for x in e})
    u, v = g.edges()
    assert {frozenset((labels[a], labels[b])) for a, b in zip(u.tolist(), v.tolist())} == edges
    c = g.build_counts
    assert (c.lines, c.self_loops, c.exact_repeats, c.reversed_pairs) == (
        len(pairs),
        loops,
        exact,
        reverse,
    )
    assert c.duplicates == exact + reverse


def test_from_pandas_string_ids_counted_like_a_file():
    df = pd.DataFrame(STRING_PAIRS, columns=["source", "target"])
    g = gv.Graph.from_pandas(df)
    _check_against_brute(g, STRING_PAIRS)
    assert g.n == 5 and g.degrees[g.labels.tolist().index("dee")] == 0


def test_from_arrow_equals_from_pandas():
    df = pd.DataFrame(STRING_PAIRS, columns=["s", "t"])
    table = pa.Table.from_pandas(df)
    for obj in (table, table.to_batches()[0]):
        g = gv.Graph.from_arrow(obj, "s", "t")
        _check_against_brute(g, STRING_PAIRS)
        assert g == gv.Graph.from_pandas(df, "s", "t")
    encoded = pa.table({"s": pa.array(df["s"]).dictionary_encode(), "t": df["t"]})
    assert gv.Graph.from_arrow(encoded, "s", "t").labels.tolist() == [
        "ann",
        "bob",
        "cy",
        "dee",
        "eve",
    ]


def test_integer_tables_match_read_edgelist_with_header(tmp_path):
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"from": rng.integers(-50, 400, 500), "to": rng.integers(-50, 400, 500)})
    path = tmp_path / "edges.csv"
    df.to_csv(path, index=False)  # a header line "from,to", comma-separated
    ref = gv.read_edgelist(path, header=True)
    for g in (
        gv.Graph.from_pandas(pd.read_csv(path), "from", "to"),
        gv.Graph.from_arrow(pa.Table.from_pandas(df), "from", "to"),
    ):
        assert g == ref
        assert np.array_equal(g.labels, ref.labels) and g.labels.dtype == np.int64
        assert g.build_counts == ref.build_counts
    _check_against_brute(ref, list(zip(df["from"].tolist(), df["to"].tolist())))


def test_integer_like_columns_of_other_dtypes():
    df = pd.DataFrame(
        {
            "source": pd.array([5, 7, 9], dtype="Int64"),
            "target": np.array([7, 9, 11], dtype=np.uint16),
        }
    )
    g = gv.Graph.from_pandas(df)
    assert g.labels.tolist() == [5, 7, 9, 11] and g.m == 3


def test_unorderable_ids_keep_first_appearance_order():
    df = pd.DataFrame({"source": ["a", 3, "a"], "target": [3, (1, 2), "b"]})
    g = gv.Graph.from_pandas(df)
    assert g.labels.tolist() == ["a", 3, (1, 2), "b"]  # sources first, then targets
    # the mixed labels stay what they were: 3 is not turned into "3"
    assert 3 in g.labels.tolist() and "3" not in g.labels.tolist()
    assert g.m == 3


@pytest.mark.parametrize(
    ("df", "match"),
    [
        (pd.DataFrame({"source": [1, 2], "dst": [2, 3]}), r"no column 'target'.*pass target="),
        (
            pd.DataFrame({"source": [1.0, np.nan], "target": [2, 3]}),
            r"'source' has 1 missing.*row 1",
        ),
        (pd.DataFrame({"source": ["a", "b"], "target": ["b", None]}), r"'target' has 1 missing"),
        (
            pd.DataFrame({"source": pd.array([1, None], dtype="Int64"), "target": [2, 3]}),
            "missing",
        ),
    ],
)
def test_from_pandas_bad_input(df, match):
    with pytest.raises(ValueError, match=match):
        gv.Graph.from_pandas(df)


def test_from_arrow_bad_input():
    with pytest.raises(ValueError, match=r"'u' has 1 missing.*row 0"):
        gv.Graph.from_arrow(pa.table({"u": [None, 2], "v": [2, 3]}), "u", "v")
    with pytest.raises(ValueError, match=r"'v' has 1 missing"):  # NaN is not null in arrow
        gv.Graph.from_arrow(pa.table({"u": [1.0, 2.0], "v": [2.0, np.nan]}), "u", "v")
    with pytest.raises(ValueError, match="no column 'x'"):
        gv.Graph.from_arrow(pa.table({"u": [1], "v": [2]}), "x", "v")
    with pytest.raises(TypeError, match="pyarrow.Table"):
        gv.Graph.from_arrow(pd.DataFrame({"u": [1], "v": [2]}), "u", "v")
    with pytest.raises(TypeError, match="pandas.DataFrame"):
        gv.Graph.from_pandas(pa.table({"u": [1], "v": [2]}), "u", "v")


# ---------------------------------------------------------------------- header lines
def test_read_edgelist_header(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text("src,dst\n1,2\n2,3\n")
    with pytest.raises(ValueError, match="line 1"):
        gv.read_edgelist(path)
    g = gv.read_edgelist(path, header=True)
    assert g.labels.tolist() == [1, 2, 3] and g.m == 2 and g.build_counts.lines == 2
    path.write_text("src,dst\n1,2\n2,x\n")
    with pytest.raises(ValueError, match="line 3"):  # the skipped header still counts
        gv.read_edgelist(path, header=True)
    path.write_text("src dst\n")
    with pytest.raises(ValueError, match="no edges found.*header=True"):
        gv.read_edgelist(path, header=True)
    # a graphveil file read with header=True keeps its isolated nodes (its header is a comment)
    gv.write_edgelist(gv.Graph.from_edges([0], [1], 4), path)
    assert gv.read_edgelist(path, header=True).n == 4


def test_cli_header_flag(tmp_path, capsys):
    path = tmp_path / "g.csv"
    path.write_text("source,target\n10,20\n20,30\n30,10\n")
    assert main(["stats", str(path), "--header", "--basic", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["nodes"] == 3 and stats["edges"] == 3
    assert main(["stats", str(path), "--basic"]) == 2
    assert "line 1" in capsys.readouterr().err


# ---------------------------------------------------------------------- parquet
def test_parquet_graph_round_trip_keeps_isolated_nodes(tmp_path):
    for name, g in ZOO.items():
        path = tmp_path / f"{name}.parquet"
        # positions 0..n-1 are written as they are only when asked (else permuted, as
        # write_edgelist does): test_roundtrip.py covers the default
        assert gv.write_parquet(g, path, keep_ids=True).permutation is None
        back = gv.read_parquet(path)
        assert isinstance(back, gv.Graph) and back == g
        table = pq.read_table(path)  # pyarrow's own reading
        u, v = g.edges()
        assert table.column_names == ["u", "v"]
        assert np.array_equal(table["u"].to_numpy(), u) and np.array_equal(table["v"].to_numpy(), v)
        fields = json.loads(table.schema.metadata[b"graphveil"])
        assert fields["n"] == g.n and fields["format"] == "graphveil.graph"
        assert fields["format_version"] == gv.io.layout.GRAPH_TABLE_VERSION
        assert fields["labels"] == "positions" and fields["ids_permuted"] is False


@pytest.mark.parametrize("relaxed", [False, True])
def test_parquet_uncertain_round_trip(tmp_path, relaxed):
    ug = _random_uncertain(5, relaxed=relaxed)
    path = tmp_path / "ug.parquet"
    assert gv.write_parquet(ug, path, keep_ids=True).permutation is None
    back = gv.read_parquet(path)
    assert back == ug and back.relaxed == relaxed
    assert back.meta["file"]["ids_permuted"] is False
    df = pd.read_parquet(path)  # pandas reads the same columns
    assert list(df.columns) == ["u", "v", "p"] and np.array_equal(df["p"].to_numpy(), ug.p)


def test_parquet_permutes_ids_like_save(tmp_path):
    ug = _random_uncertain(6)
    perm = gv.write_parquet(ug, tmp_path / "a.parquet", seed=11).permutation
    saved = ug.save(tmp_path / "a.npz", seed=11).permutation
    assert np.array_equal(perm, saved)  # the same draw as UncertainGraph.save
    assert not np.array_equal(perm, np.arange(ug.n))
    back = gv.read_parquet(tmp_path / "a.parquet")
    assert back == gv.UncertainGraph(ug.n, perm[ug.u], perm[ug.v], ug.p)
    assert back.meta["file"]["ids_permuted"] is True


def test_parquet_metadata_is_a_whitelist(tmp_path):
    ug = _random_uncertain(7)
    ug.meta.update(
        scheme="maxvar",
        params={"parts": 4, "inner": {"depth": 2}},
        seed=123456789,
        timings={"total": 1.5},
        history=[{"sigma": 0.1}],
        cut_edges=17,
    )
    path = tmp_path / "r.parquet"
    gv.write_parquet(ug, path)
    raw = pq.read_schema(path).metadata
    assert set(raw) == {b"graphveil"}
    fields = json.loads(raw[b"graphveil"])
    assert set(fields) == {
        "format",
        "format_version",
        "graphveil_version",
        "n",
        "relaxed",
        "ids_permuted",
        "scheme",
        "params",
    }
    assert fields["params"] == {"parts": 4, "inner": {"depth": 2}}
    assert b"123456789" not in raw[b"graphveil"] and b"history" not in raw[b"graphveil"]
    assert gv.read_parquet(path).meta["scheme"] == "maxvar"
    # a secret inside the parameters is refused, as by UncertainGraph.save: nothing is written
    for params in ({"parts": 4, "seed": 99}, {"inner": {"history": [1, 2]}}):
        ug.meta["params"] = params
        with pytest.raises(ValueError, match="must never be published"):
            gv.write_parquet(ug, tmp_path / "s.parquet")
        assert not (tmp_path / "s.parquet").exists()


def test_plain_parquet_tables(tmp_path):
    path = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"u": ["x", "y"], "v": ["y", "z"]}), path)
    g = gv.read_parquet(path)
    assert isinstance(g, gv.Graph) and g.labels.tolist() == ["x", "y", "z"]
    pq.write_table(pa.table({"u": [0, 2], "v": [1, 3], "p": [0.5, 0.25]}), path)
    ug = gv.read_parquet(path)
    assert isinstance(ug, gv.UncertainGraph) and ug.n == 4 and ug.p.tolist() == [0.5, 0.25]


def test_parquet_bad_files(tmp_path):
    path = tmp_path / "bad.parquet"
    with pytest.raises(FileNotFoundError):
        gv.read_parquet(path)
    path.write_text("not parquet")
    with pytest.raises(ValueError, match="not a readable parquet file"):
        gv.read_parquet(path)
    pq.write_table(pa.table({"a": [0], "b": [1]}), path)
    with pytest.raises(ValueError, match=r"no column\(s\) \['u', 'v'\]"):
        gv.read_parquet(path)
    gv.write_parquet(_random_uncertain(1), path)
    table = pq.read_table(path)
    fields = json.loads(table.schema.metadata[b"graphveil"])
    fields["format_version"] = gv.io.layout.written_version(gv.io.FORMAT_VERSION, True) + 1
    pq.write_table(table.replace_schema_metadata({b"graphveil": json.dumps(fields)}), path)
    with pytest.raises(ValueError, match="newer.*upgrade graphveil"):
        gv.read_parquet(path)
    pq.write_table(table.set_column(2, "p", pa.array(np.full(table.num_rows, 1.5))), path)
    with pytest.raises(ValueError, match=r"invalid graph.*\[0, 1\]"):
        gv.read_parquet(path)


def test_parquet_without_pyarrow_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # makes `import pyarrow` fail
    with pytest.raises(ImportError, match=r'pip install "graphveil\[parquet\]"'):
        gv.write_parquet(ZOO["path5"], tmp_path / "x.parquet")


# ---------------------------------------------------------------------- UncertainGraph out
def test_to_pandas():
    ug = _random_uncertain(2)
    df = ug.to_pandas()
    assert list(df.columns) == ["u", "v", "p"] and len(df) == ug.num_pairs
    assert np.array_equal(df["u"], ug.u) and np.array_equal(df["v"], ug.v)
    assert np.array_equal(df["p"], ug.p)


def test_uncertain_to_networkx_and_igraph():
    ug = _random_uncertain(4)
    expected = {
        frozenset((a, b)): p for a, b, p in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist())
    }
    g = ug.to_networkx()
    assert type(g) is nx.Graph and g.number_of_nodes() == ug.n
    assert {frozenset(e[:2]): e[2] for e in g.edges(data="p")} == expected
    h = ug.to_igraph()
    assert not h.is_directed() and h.vcount() == ug.n
    assert {frozenset(e.tuple): e["p"] for e in h.es} == expected
    # both libraries' degree sums give the expected degrees
    assert np.allclose([d for _, d in sorted(g.degree(weight="p"))], ug.expected_degrees())
    assert np.allclose(h.strength(weights="p"), ug.expected_degrees())


def test_relaxed_uncertain_keeps_loops_and_multi_edges():
    ug = gv.UncertainGraph(3, [0, 0, 1], [1, 1, 1], [0.5, 0.25, 0.75], relaxed=True)
    g = ug.to_networkx()
    assert isinstance(g, nx.MultiGraph) and g.number_of_edges() == 3
    assert sorted(p for *_, p in g.edges(data="p")) == [0.25, 0.5, 0.75]
    h = ug.to_igraph()
    assert h.ecount() == 3 and h.count_multiple([0, 1]) == [2, 2]


def test_graphml_read_by_networkx_and_igraph(tmp_path):
    ug = _random_uncertain(8)
    path = tmp_path / "ug.graphml"
    assert ug.to_graphml(path, keep_ids=True).permutation is None
    g = nx.read_graphml(path, node_type=int)
    assert sorted(g.nodes) == list(range(ug.n))
    back = gv.UncertainGraph(
        ug.n, *zip(*[(a, b, p) for a, b, p in g.edges(data="p")])
    )  # networkx's reading, built back
    assert back == ug
    h = ig.Graph.Read_GraphML(str(path))
    assert h.vcount() == ug.n
    ids = [int(x) for x in h.vs["id"]]
    pairs = {frozenset((ids[e.source], ids[e.target])): e["p"] for e in h.es}
    assert pairs == {
        frozenset((a, b)): p for a, b, p in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist())
    }
    info = json.loads(g.graph["graphveil"])
    assert info["n"] == ug.n and info["ids_permuted"] is False


def test_graphml_is_a_release(tmp_path):
    ug = _random_uncertain(9)
    ug.meta.update(scheme="randwalk", params={"t": 2}, seed=424242, timings={"total": 3.0})
    path = tmp_path / "ug.graphml.gz"
    perm = ug.to_graphml(path, seed=5).permutation
    assert np.array_equal(perm, ug.save(tmp_path / "x.npz", seed=5).permutation)
    text = gzip.decompress(path.read_bytes()).decode()
    assert "424242" not in text and "timings" not in text
    g = nx.read_graphml(path, node_type=int)
    assert json.loads(g.graph["graphveil"])["ids_permuted"] is True
    got = {frozenset((a, b)): p for a, b, p in g.edges(data="p")}
    assert got == {
        frozenset((int(perm[a]), int(perm[b]))): p
        for a, b, p in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist())
    }


# ---------------------------------------------------------------------- scipy -> UncertainGraph
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
def test_uncertain_from_scipy_round_trip(fmt):
    ug = _random_uncertain(10)
    assert gv.UncertainGraph.from_scipy(ug.to_scipy().asformat(fmt)) == ug  # p = 0 pairs too
    assert gv.UncertainGraph.from_scipy(ug.to_scipy(array=False)) == ug
    dense = ug.to_scipy().toarray()  # an independent reference: the dense upper triangle
    iu, iv = np.nonzero(np.triu(dense))
    nonzero = ug.p > 0
    assert np.array_equal(iu, ug.u[nonzero]) and np.array_equal(dense[iu, iv], ug.p[nonzero])


def test_uncertain_from_scipy_relaxed_diagonal():
    m = sp.csr_array(np.array([[0.5, 0.25], [0.25, 0.0]]))
    with pytest.raises(ValueError, match=r"diagonal entry \(0, 0\).*relaxed=True"):
        gv.UncertainGraph.from_scipy(m)
    ug = gv.UncertainGraph.from_scipy(m, relaxed=True)
    assert ug.u.tolist() == [0, 0] and ug.v.tolist() == [0, 1]
    assert ug.p.tolist() == [0.25, 0.25]  # a loop adds 2p to the diagonal
    assert np.allclose(ug.expected_degrees(), m.sum(axis=1))
    assert gv.UncertainGraph.from_scipy(ug.to_scipy(), relaxed=True) == ug


@pytest.mark.parametrize(
    ("dense", "match"),
    [
        ([[0, 0.5], [0.25, 0]], r"not symmetric: entries \(0, 1\) and \(1, 0\) differ by 0.25"),
        ([[0, 0.5], [0, 0]], "not symmetric"),
        ([[0, 1.5], [1.5, 0]], r"\[0, 1\].*entry \(0, 1\) is 1.5"),
        ([[0, -0.1], [-0.1, 0]], r"\[0, 1\]"),
        ([[0, np.nan], [np.nan, 0]], r"\[0, 1\].*nan"),
    ],
)
def test_uncertain_from_scipy_bad_matrices(dense, match):
    with pytest.raises(ValueError, match=match):
        gv.UncertainGraph.from_scipy(sp.csr_array(np.array(dense, dtype=float)))


def test_uncertain_from_scipy_refuses_non_matrices():
    with pytest.raises(TypeError, match="scipy.sparse"):
        gv.UncertainGraph.from_scipy(np.eye(2))
    with pytest.raises(ValueError, match="square"):
        gv.UncertainGraph.from_scipy(sp.csr_array((2, 3)))


# ---------------------------------------------------------------------- igraph, networkit
@pytest.mark.parametrize("name", sorted(ZOO))
def test_igraph_round_trip(name):
    g = ZOO[name]
    h = g.to_igraph()
    u, v = g.edges()
    assert h.vcount() == g.n and sorted(h.get_edgelist()) == list(zip(u.tolist(), v.tolist()))
    assert h.degree() == g.degrees.tolist()
    assert gv.Graph.from_igraph(h) == g


def test_igraph_labels_and_cleaning():
    h = ig.Graph(n=3, edges=[(0, 1), (1, 0), (1, 1), (1, 2)], directed=False)
    h.vs["name"] = ["a", "b", "c"]
    g = gv.Graph.from_igraph(h)
    assert g.labels.tolist() == ["a", "b", "c"] and g.m == 2
    assert (g.build_counts.self_loops, g.build_counts.duplicates) == (1, 1)
    assert g.to_igraph(use_labels=True).vs["name"] == ["a", "b", "c"]
    d = ig.Graph(n=2, edges=[(0, 1), (1, 0)], directed=True)
    assert gv.Graph.from_igraph(d).directed and gv.Graph.from_igraph(d).m == 2
    assert gv.Graph.from_igraph(d, as_undirected=True).m == 1
    with pytest.raises(TypeError, match="igraph.Graph"):
        gv.Graph.from_igraph(nx.path_graph(3))


@pytest.mark.parametrize("name", sorted(ZOO))
def test_networkit_conversion(name):
    g = ZOO[name]
    k = g.to_networkit()
    assert k.numberOfNodes() == g.n and k.numberOfEdges() == g.m
    assert not k.isDirected() and not k.isWeighted()
    assert [k.degree(i) for i in range(g.n)] == g.degrees.tolist()
    got = sorted(tuple(sorted(e)) for e in k.iterEdges())
    u, v = g.edges()
    assert got == list(zip(u.tolist(), v.tolist()))


def test_networkx_round_trip_with_string_labels():
    df = pd.DataFrame(STRING_PAIRS, columns=["source", "target"])
    g = gv.Graph.from_pandas(df)
    ref = nx.from_pandas_edgelist(df)  # networkx's own reading of the table
    ref.remove_edges_from(nx.selfloop_edges(ref))
    mine = g.to_networkx(use_labels=True)
    assert set(mine.nodes) == set(ref.nodes)
    assert {frozenset(e) for e in mine.edges} == {frozenset(e) for e in ref.edges}
    assert Counter(dict(mine.degree()).values()) == Counter(dict(ref.degree()).values())


def test_from_networkx_keeps_mixed_labels_as_they_are():
    # numpy alone would turn 3 into "3" (and True into 1): the labels must stay the caller's ids
    g = gv.Graph.from_networkx(nx.Graph([("a", 3), (3, True)]))
    assert g.labels.tolist() == ["a", 3, True] and g.labels.dtype == object
    assert gv.Graph.from_networkx(nx.path_graph(3)).labels.dtype == np.int64


def test_ids_hash_alike_without_pandas(monkeypatch):
    table = pa.table({"s": [a for a, _ in STRING_PAIRS], "t": [b for _, b in STRING_PAIRS]})
    expected = gv.Graph.from_arrow(table, "s", "t")
    mixed = np.empty(5, dtype=object)
    mixed[:] = ["b", 3, "b", (1, 2), 3]  # unorderable: first-appearance order
    codes, labels = _factorize(mixed)
    monkeypatch.setitem(sys.modules, "pandas", None)  # the dict fallback of the hashing
    g = gv.Graph.from_arrow(table, "s", "t")
    assert g == expected and g.labels.tolist() == expected.labels.tolist()
    _check_against_brute(g, STRING_PAIRS)
    codes2, labels2 = _factorize(mixed)
    assert codes.tolist() == codes2.tolist() == [0, 1, 0, 2, 1]
    assert labels.tolist() == labels2.tolist() == ["b", 3, (1, 2)]


@pytest.mark.parametrize("suffix", [".tsv", ".tsv.gz"])
def test_tsv_read_by_igraph_and_networkx_as_it_is(tmp_path, suffix):
    ug = _random_uncertain(7)
    path = tmp_path / f"g{suffix}"
    rec = ug.save(path, seed=4)
    released = gv.load_uncertain(path)  # the ids as written
    assert released.n == ug.n and released.ids_permuted and rec.permutation is not None
    expected = {(int(a), int(b)): float(c) for a, b, c in zip(released.u, released.v, released.p)}
    plain = path
    if suffix == ".tsv.gz":  # Read_Ncol takes a plain file: decompress it as a user would
        plain = tmp_path / "plain.tsv"
        plain.write_bytes(gzip.decompress(path.read_bytes()))
    g_ig = ig.Graph.Read_Ncol(str(plain), names=True, weights=True, directed=False)
    got_ig = {
        tuple(sorted((int(g_ig.vs[e.source]["name"]), int(g_ig.vs[e.target]["name"])))): e["weight"]
        for e in g_ig.es
    }
    assert got_ig == expected
    g_nx = nx.read_weighted_edgelist(path, nodetype=int)  # networkx opens .gz itself
    got_nx = {(min(a, b), max(a, b)): w for a, b, w in g_nx.edges(data="weight")}
    assert got_nx == expected


def test_parquet_and_graphml_never_permute_a_release_twice(tmp_path):
    # A loaded release already carries the permuted ids: written again, its ids stay as they are
    # (as UncertainGraph.save does), so its run record still maps them back.
    ug = _random_uncertain(7)
    ug.save(tmp_path / "pub.npz", seed=3)
    pub = gv.load_uncertain(tmp_path / "pub.npz")
    assert pub.ids_permuted
    assert gv.write_parquet(pub, tmp_path / "again.parquet", seed=9).permutation is None
    back = gv.read_parquet(tmp_path / "again.parquet")
    assert back == gv.UncertainGraph(pub.n, pub.u, pub.v, pub.p)
    assert back.meta["file"]["ids_permuted"] is True
    assert pub.to_graphml(tmp_path / "again.graphml", seed=9).permutation is None
