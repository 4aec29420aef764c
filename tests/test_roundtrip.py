"""Every file format round-trips what its object holds: labels, string ids, isolated nodes.

Formats x kinds x label types. A Graph keeps its labels (int or str) in edge lists and parquet;
an unlabelled one is written under permuted positions the record maps back, or as it is with
``keep_ids``. An UncertainGraph holds no labels: a release keeps n (isolated nodes), the pairs
and their exact probabilities, and never the names of the graph it came from.
"""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

import graphveil as gv
from graphveil import _core
from graphveil.io import FORMATS, release_format

nx = pytest.importorskip("networkx")

#: Labels of the 7 nodes of the test graph; node 5 and node 6 are isolated. Deliberately not in
#: ascending order: files number nodes by ascending label, so the graph comes back relabelled.
LABELS = {
    "int": [40, -3, 17, 2**40, 9, 0, 123],
    "str": ["zoe", "ann", "héloïse", "bob", "x_1", "e.f", "0042"],
    "none": None,
}
U, V = [0, 0, 1, 2, 3], [1, 2, 2, 4, 4]
GRAPH_FORMATS = ["txt", "txt.gz", "parquet"]
#: Every release format by its usual suffix, and one compressed text release.
RELEASE_FORMATS = [*(FORMATS[name].suffixes[0][1:] for name in gv.io.RELEASE_FORMATS), "tsv.xz"]


def _graph(kind: str) -> gv.Graph:
    return gv.Graph.from_edges(U, V, 7, labels=LABELS[kind])


def _labelled_edges(g: gv.Graph) -> set[frozenset]:
    u, v = g.edges()
    lab = g.labels.tolist()
    return {frozenset((lab[a], lab[b])) for a, b in zip(u.tolist(), v.tolist())}


def _write_graph(g: gv.Graph, path, **kw):
    writer = gv.write_parquet if path.name.endswith(".parquet") else gv.write_edgelist
    return writer(g, path, **kw).permutation


def _read_graph(path) -> gv.Graph:
    return gv.read_parquet(path) if path.name.endswith(".parquet") else gv.read_edgelist(path)


@pytest.mark.parametrize("fmt", GRAPH_FORMATS)
@pytest.mark.parametrize("kind", ["int", "str", "none"])
def test_graph_round_trip(tmp_path, fmt, kind):
    g = _graph(kind)
    path = tmp_path / f"g.{fmt}"
    perm = _write_graph(g, path, seed=5)
    back = _read_graph(path)
    assert back.n == 7 and back.m == g.m
    if kind == "none":
        # positions, permuted: the record's permutation maps the file back to g
        assert perm is not None and back.labels.tolist() == list(range(7))
        assert back == gv.Graph.from_edges(perm[g.edges()[0]], perm[g.edges()[1]], 7)
        _write_graph(g, path, keep_ids=True)
        assert _read_graph(path) == g
        return
    assert perm is None  # labels are written as they are
    assert back.labels.tolist() == sorted(LABELS[kind])  # every node, isolated ones too
    assert back.labels.dtype.kind == ("i" if kind == "int" else "U")
    assert _labelled_edges(back) == _labelled_edges(g)
    # ascending labels: the very same graph
    order = np.argsort(np.asarray(LABELS[kind]), kind="stable")
    rank = np.empty(7, dtype=np.int64)
    rank[order] = np.arange(7)
    same = gv.Graph.from_edges(rank[U], rank[V], 7, labels=np.asarray(LABELS[kind])[order])
    _write_graph(same, path)
    again = _read_graph(path)
    assert again == same and again.labels.tolist() == same.labels.tolist()


def test_parquet_graph_table_is_the_labelled_edge_table(tmp_path):
    pa = pytest.importorskip("pyarrow.parquet")
    g = _graph("str")
    gv.write_parquet(g, tmp_path / "g.parquet")
    table = pa.read_table(tmp_path / "g.parquet")
    pairs = set(map(frozenset, zip(table["u"].to_pylist(), table["v"].to_pylist())))
    assert pairs == _labelled_edges(g)  # another tool reads the names, not positions
    fields = json.loads(table.schema.metadata[b"graphveil"])
    assert fields["labels"] == "str" and sorted(fields["isolated"]) == ["0042", "e.f"]


def test_string_labels_that_are_not_one_token_are_refused(tmp_path):
    g = gv.Graph.from_edges([0], [1], labels=["a b", "c"])
    with pytest.raises(ValueError, match="one token"):
        gv.write_edgelist(g, tmp_path / "g.txt")
    gv.write_parquet(g, tmp_path / "g.parquet")  # parquet keeps any string
    assert gv.read_parquet(tmp_path / "g.parquet").labels.tolist() == ["a b", "c"]


# ---------------------------------------------------------------------- releases
def _uncertain(kind: str) -> tuple[gv.UncertainGraph, list]:
    """An uncertain graph built from a networkx graph whose nodes carry ``kind`` names."""
    names = LABELS[kind] or list(range(7))
    src = nx.Graph()
    src.add_nodes_from(names)
    for a, b, q in zip(U, V, [0.1, 1 / 3, 1.0, 0.0, 2.0**-40]):
        src.add_edge(names[a], names[b], p=q)
    return gv.UncertainGraph.from_networkx(src), names


@pytest.mark.parametrize("fmt", RELEASE_FORMATS)
@pytest.mark.parametrize("kind", ["int", "str", "none"])
def test_release_round_trip(tmp_path, fmt, kind):
    ug, names = _uncertain(kind)
    assert ug.n == 7 and ug.num_pairs == 5
    path = tmp_path / f"pub.{fmt}"
    rec = ug.save(path, seed=3)
    assert rec.permutation is not None  # a release's ids are permuted by default
    written = FORMATS[release_format(path)]
    text = path.read_bytes() if written.magic is None and fmt.count(".") == 0 else b""
    if kind == "str":
        assert not any(name.encode() in text for name in names)  # names never published
    if written.read_release is None:  # write only: GraphML is read by networkx
        if written.name == "graphml":
            back_nx = nx.read_graphml(path)
            assert back_nx.number_of_nodes() == 7  # the isolated nodes too
            got = sorted(d["p"] for _, _, d in back_nx.edges(data=True))
            assert got == sorted(ug.p.tolist())
        return
    back = gv.load_uncertain(path)
    assert back.ids_permuted is True
    perm = rec.permutation
    assert back == gv.UncertainGraph(ug.n, perm[ug.u], perm[ug.v], ug.p)  # p bit for bit
    ug.save(path, keep_ids=True)
    kept = gv.load_uncertain(path)
    assert kept == ug and kept.ids_permuted is False


@pytest.mark.parametrize("kind", ["int", "str", "none"])
def test_uncertain_in_memory_bridges_round_trip(kind):
    ig = pytest.importorskip("igraph")
    ug, _ = _uncertain(kind)
    assert gv.UncertainGraph.from_networkx(ug.to_networkx()) == ug
    assert gv.UncertainGraph.from_igraph(ug.to_igraph()) == ug
    g = ig.Graph(n=3, edges=[(0, 1), (1, 2)], edge_attrs={"q": [0.5, 0.75]})
    assert gv.UncertainGraph.from_igraph(g, p="q").p.tolist() == [0.5, 0.75]


# ---------------------------------------------------------------------- the TSV reader
def test_tsv_reader_gives_the_floats_numpy_and_python_give(tmp_path):
    rng = np.random.default_rng(7)
    x = rng.random(5000)
    tokens = [repr(float(a)) for a in x]
    tokens += [f"{a:.6f}" for a in x[:300]] + [f"{a:.3e}" for a in x[:300]]
    tokens += ["0", "1", "0.1", "1.0", "+0.5", ".5", "1E-5", "4.9e-324", "2.2250738585072014e-308"]
    tokens += ["1e-400", "0.99999999999999999999", "1.0000000000000002e-1"]
    lines = "".join(f"{i}\t{i + 1}\t{t}\n" for i, t in enumerate(tokens))
    path = tmp_path / "plain.tsv"
    path.write_text("# a comment\n% another\n\n" + lines.replace("\n", "\r\n", 3))
    ug = gv.load_uncertain(path)
    expected = np.array([float(t) for t in tokens])
    reference = np.loadtxt(io.StringIO(lines))[:, 2]
    assert np.array_equal(reference.view(np.uint64), expected.view(np.uint64))
    assert np.array_equal(ug.p.view(np.uint64), expected.view(np.uint64))
    assert ug.n == len(tokens) + 1 and ug.ids_permuted is None


@pytest.mark.parametrize(
    ("body", "what"),
    [
        ("0\t1\n", "line 1: no third column"),
        ("0\t1\t0.5\n1\t2\tx\n", "line 2: non-numeric probability 'x'"),
        ("0\t1\t0.5\t9\n", "line 1: more than three columns"),
        ("0\tb\t0.5\n", "line 1: non-integer token 'b'"),
        ("0\t1\tnan\n", "probabilities must lie in"),
        ("0\t1\t1.5\n", "probabilities must lie in"),
    ],
)
def test_tsv_reader_refuses_malformed_lines(tmp_path, body, what):
    path = tmp_path / "bad.tsv"
    path.write_text(body)
    with pytest.raises(ValueError, match=what):
        gv.load_uncertain(path)


def test_weighted_parser_is_thread_independent():
    lines = "".join(f"{i}\t{i * 7 % 1000}\t{i / 3e5!r}\n" for i in range(300_000)).encode()
    one = _core.parse_weighted_edgelist(lines, 1)
    two = _core.parse_weighted_edgelist(lines, 2)
    assert all(np.array_equal(a, b) for a, b in zip(one[:3], two[:3])) and one[3] == 300_000


def test_documented_recipes_keep_isolated_nodes(tmp_path):
    """docs/formats.rst: reading a TSV release with networkx or igraph, n from the sidecar."""
    ig = pytest.importorskip("igraph")
    pd = pytest.importorskip("pandas")
    ug = gv.UncertainGraph(6, [0, 1], [1, 2], [0.25, 0.5])  # nodes 3, 4, 5 isolated
    ug.save(tmp_path / "pub.tsv", keep_ids=True)
    # --- the recipe, as written in docs/formats.rst
    n = json.loads((tmp_path / "pub.tsv.json").read_text())["n"]
    g = nx.read_edgelist(tmp_path / "pub.tsv", nodetype=int, data=[("p", float)])
    g.add_nodes_from(range(n))
    df = pd.read_csv(tmp_path / "pub.tsv", sep="\t", names=["u", "v", "p"], comment="#")
    h = ig.Graph(n=n, edges=df[["u", "v"]].to_numpy(), edge_attrs={"p": df["p"].to_list()})
    # ---
    assert g.number_of_nodes() == 6 and h.vcount() == 6
    assert gv.UncertainGraph.from_networkx(g).n == 6
    assert gv.UncertainGraph.from_igraph(h) == ug


# ---------------------------------------------------------------------- missing libraries
BRIDGES = [
    ("networkx", lambda: _graph("none").to_networkx(), "pip install networkx"),
    ("pandas", lambda: _graph("none").to_pandas(), "pip install pandas"),
    ("igraph", lambda: _graph("none").to_igraph(), "pip install igraph"),
    ("networkit", lambda: _graph("none").to_networkit(), 'pip install "networkit>=11"'),
    ("networkit", lambda: gv.Graph.from_networkit(object()), 'pip install "networkit>=11"'),
    ("igraph", lambda: gv.Graph.from_igraph(object()), "pip install igraph"),
    ("igraph", lambda: gv.UncertainGraph.from_igraph(object()), "pip install igraph"),
    ("pandas", lambda: gv.Graph.from_pandas(object()), "pip install pandas"),
    ("pyarrow", lambda: gv.Graph.from_arrow(object()), 'pip install "graphveil[parquet]"'),
    ("networkx", lambda: _uncertain("none")[0].to_networkx(), "pip install networkx"),
    ("igraph", lambda: _uncertain("none")[0].to_igraph(), "pip install igraph"),
    ("pandas", lambda: _uncertain("none")[0].to_pandas(), "pip install pandas"),
]


@pytest.mark.parametrize(("module", "call", "hint"), BRIDGES)
def test_a_missing_library_raises_one_clear_import_error(monkeypatch, module, call, hint):
    monkeypatch.setitem(__import__("sys").modules, module, None)  # `import module` fails
    with pytest.raises(ImportError, match=f"needs {module}.*{re.escape(hint)}") as info:
        call()
    assert not isinstance(info.value, ModuleNotFoundError) or "pip install" in str(info.value)


def test_networkit_older_than_11_is_named(monkeypatch):
    nk = pytest.importorskip("networkit")

    class OldGraph:  # networkit 10: no addEdges
        def __init__(self, *args, **kwargs):
            pass

    monkeypatch.setattr(nk, "Graph", OldGraph)
    with pytest.raises(ImportError, match=r"networkit 11 or newer"):
        _graph("none").to_networkit()


def test_networkit_round_trip_with_deleted_nodes():
    nk = pytest.importorskip("networkit")
    g = _graph("none")
    assert gv.Graph.from_networkit(g.to_networkit()) == g
    h = g.to_networkit()
    h.removeNode(3)  # ids with a gap: the present nodes keep their ids as labels
    back = gv.Graph.from_networkit(h)
    assert back.n == 6 and back.labels.tolist() == [0, 1, 2, 4, 5, 6]
    assert _labelled_edges(back) == {frozenset(e) for e in [(0, 1), (0, 2), (1, 2), (2, 4)]}
    directed = nk.Graph(2, directed=True)
    directed.addEdge(0, 1)
    directed.addEdge(1, 0)
    assert gv.Graph.from_networkit(directed).directed
    assert gv.Graph.from_networkit(directed).m == 2
    assert gv.Graph.from_networkit(directed, as_undirected=True).m == 1


def test_graph_to_pandas_round_trips_through_from_pandas():
    g = gv.Graph.from_edges(U, V, 5, labels=["e", "d", "c", "b", "a"])
    df = g.to_pandas(use_labels=True)
    assert list(df.columns) == ["source", "target"]
    assert _labelled_edges(gv.Graph.from_pandas(df)) == _labelled_edges(g)
    assert gv.Graph.from_pandas(_graph("none").to_pandas()).m == len(U)


def test_uncertain_from_networkx_refusals():
    g = nx.Graph()
    g.add_edge(0, 1, weight=0.5)
    with pytest.raises(ValueError, match="no attribute 'p'.*pass p="):
        gv.UncertainGraph.from_networkx(g)
    assert gv.UncertainGraph.from_networkx(g, p="weight").p.tolist() == [0.5]
    assert gv.UncertainGraph.from_networkx(nx.DiGraph([(0, 1, {"p": 0.5})])).directed
    multi = nx.MultiGraph([(0, 1, {"p": 0.5}), (0, 1, {"p": 0.25})])
    with pytest.raises(ValueError, match="relaxed=True"):
        gv.UncertainGraph.from_networkx(multi)
    assert gv.UncertainGraph.from_networkx(multi, relaxed=True).num_pairs == 2
    g.add_edge(1, 2, weight="high")
    with pytest.raises(TypeError, match="must hold numbers, found 'high'"):
        gv.UncertainGraph.from_networkx(g, p="weight")
