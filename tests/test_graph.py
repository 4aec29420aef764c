import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphveil as gv


def test_zoo_matches_networkx(zoo_graph):
    g = zoo_graph
    ref = g.to_networkx()
    assert ref.number_of_nodes() == g.n
    assert ref.number_of_edges() == g.m
    assert [d for _, d in sorted(ref.degree())] == g.degrees.tolist()
    for node in range(g.n):
        assert sorted(ref.neighbors(node)) == g.neighbors(node).tolist()
    u, v = g.edges()
    assert np.all(u < v)
    assert sorted(zip(u.tolist(), v.tolist())) == sorted(tuple(sorted(e)) for e in ref.edges())


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("array", [True, False])
def test_scipy_round_trip(zoo_graph, fmt, array):
    a = zoo_graph.to_scipy(array=array).asformat(fmt)
    assert gv.Graph.from_scipy(a) == zoo_graph


def test_networkx_round_trip(zoo_graph):
    assert gv.Graph.from_networkx(zoo_graph.to_networkx()) == zoo_graph


def test_self_loops_and_duplicates_counted():
    g = gv.Graph.from_edges([0, 1, 1, 2, 3], [1, 0, 1, 3, 2], n=4)
    assert g.m == 2
    assert g.build_counts == gv.graph.BuildCounts(self_loops=1, duplicates=2)
    assert g.degrees.tolist() == [1, 1, 1, 1]


def test_networkx_labels_kept():
    ref = nx.Graph([("a", "b"), ("b", "c")])
    g = gv.Graph.from_networkx(ref)
    assert g.labels.tolist() == ["a", "b", "c"]
    assert set(g.to_networkx(use_labels=True).edges()) == {("a", "b"), ("b", "c")}


def test_directed_inputs_directed_unless_asked():
    d = nx.DiGraph([(0, 1), (1, 2), (2, 1)])
    g = gv.Graph.from_networkx(d)
    assert g.directed and g.m == 3
    assert not gv.Graph.from_networkx(d, as_undirected=True).directed
    assert gv.Graph.from_networkx(d, as_undirected=True).m == 2
    a = sp.csr_array(np.array([[0, 1], [0, 0]]))
    with pytest.raises(ValueError, match="not symmetric"):
        gv.Graph.from_scipy(a)
    assert gv.Graph.from_scipy(a, as_undirected=True).m == 1


@pytest.mark.parametrize(
    ("u", "v", "n", "err", "msg"),
    [
        ([0, 1], [1], None, ValueError, "same length"),
        ([0, -1], [1, 2], None, ValueError, "non-negative"),
        ([0, 5], [1, 2], 3, ValueError, "out of range"),
        ([0.5], [1.0], None, TypeError, "integer"),
    ],
)
def test_bad_edge_arrays(u, v, n, err, msg):
    with pytest.raises(err, match=msg):
        gv.Graph.from_edges(u, v, n)


def test_arrays_are_read_only():
    g = gv.Graph.from_edges([0], [1])
    with pytest.raises(ValueError):
        g.indices[0] = 1


def test_subgraph_matches_networkx():
    ref = nx.karate_club_graph()
    g = gv.Graph.from_networkx(ref)
    nodes = [0, 1, 2, 3, 7, 13, 33]
    sub = g.subgraph(nodes)
    expected = nx.convert_node_labels_to_integers(ref.subgraph(nodes), ordering="sorted")
    assert sub.m == expected.number_of_edges()
    assert sub.to_networkx().edges() == expected.edges()


def test_large_ids_use_int32_indices():
    g = gv.Graph.from_edges(np.arange(1000), np.arange(1, 1001))
    assert g.indices.dtype == np.int32 and g.indptr.dtype == np.int64


def test_csr_constructor_validates():
    g = gv.Graph.from_edges([0, 1], [1, 2])
    assert gv.Graph(g.indptr, g.indices) == g
    with pytest.raises(ValueError, match="twice"):
        gv.Graph(np.array([0, 1, 1]), np.array([1]))
    with pytest.raises(ValueError, match="symmetric"):
        gv.Graph(np.array([0, 2, 2, 2]), np.array([1, 2]))
    with pytest.raises(ValueError, match="repeat"):
        gv.Graph(np.array([0, 2, 4]), np.array([1, 1, 0, 0]))
    with pytest.raises(ValueError, match="self-loops"):
        gv.Graph(np.array([0, 2, 2]), np.array([0, 1]))


def test_pickle_keeps_the_graph_and_drops_the_edge_cache():
    import pickle

    g = gv.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], 5, labels=["a", "b", "c", "d", "e"])
    fresh = len(pickle.dumps(g))
    u, v = g.edges()  # fills the cache
    back = pickle.loads(pickle.dumps(g))
    assert len(pickle.dumps(g)) == fresh  # the cache does not travel
    assert back == g and back.labels.tolist() == g.labels.tolist()
    bu, bv = back.edges()
    assert np.array_equal(bu, u) and np.array_equal(bv, v)


def test_unpickled_at_odd_offsets_the_arrays_are_aligned_copies():
    """Dask can rebuild arrays at odd offsets of one received buffer: the graph, the uncertain
    graph and G0's signature index come back with aligned arrays and equal contents."""
    import pickle

    from graphveil.measure.privacy import signature_index

    g = gv.Graph.from_edges([0, 1, 2, 0, 3], [1, 2, 3, 3, 4], 6)
    ug = gv.UncertainGraph(6, [0, 1, 2], [1, 2, 5], [0.25, 1.0, 0.5])
    index = signature_index(g, "h2_open")
    for obj in (g, ug, index):
        buffers: list[pickle.PickleBuffer] = []
        data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
        odd = [np.frombuffer(b"\0" + bytes(b.raw()), dtype=np.uint8)[1:] for b in buffers]
        assert odd and any(
            not np.frombuffer(o, np.int64, 1).flags.aligned for o in odd if o.size >= 8
        )
        back = pickle.loads(data, buffers=odd)
        arrays = [getattr(back, name) for name in dir(back) if not name.startswith("__")]
        arrays = [a for a in arrays if isinstance(a, np.ndarray)]
        assert arrays and all(a.flags.aligned for a in arrays)
        if isinstance(obj, gv.UncertainGraph):
            assert back == obj
        elif isinstance(obj, gv.Graph):
            assert back == obj and back.degrees.tolist() == obj.degrees.tolist()
        else:
            for name in ("classes", "keys", "rep_ptr", "rep_values"):
                assert np.array_equal(getattr(back, name), getattr(obj, name))
