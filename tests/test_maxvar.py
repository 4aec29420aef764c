"""MaxVar (Section 4): METIS parts, friend-of-friend proposals, the per-part QP and its two backends."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ZOO, shared_graph_path

import graphveil as gv
from graphveil.anonymize._partition import metis_parts


def _read_shared(name: str) -> gv.Graph:
    """A real graph from ../shared/data (plain numpy reader until graphveil.io lands)."""
    path = shared_graph_path(name)
    pairs = np.loadtxt(path, dtype=np.int64, comments=["#", "%"], usecols=(0, 1), ndmin=2)
    ids, inverse = np.unique(pairs, return_inverse=True)
    inverse = inverse.reshape(pairs.shape)
    return gv.Graph.from_edges(inverse[:, 0], inverse[:, 1], ids.size)


# ---------------------------------------------------------------------------------- partition
class TestMetisParts:
    def test_labels_cover_range_and_balance(self):
        g = _read_shared("ca-GrQc")
        labels = metis_parts(g, 8, seed=3)
        assert labels.dtype == np.int64 and labels.shape == (g.n,)
        counts = np.bincount(labels, minlength=8)
        assert counts.size == 8 and counts.min() > 0
        # METIS's default imbalance tolerance is 3% on vertex counts
        assert counts.max() <= 1.03 * g.n / 8 + 1

    def test_matches_pymetis_called_directly(self):
        import pymetis

        g = _read_shared("karate_club")
        adjacency = [g.neighbors(i).tolist() for i in range(g.n)]
        opts = pymetis.Options(seed=5)
        _, expected = pymetis.part_graph(3, adjacency=adjacency, options=opts, recursive=False)
        np.testing.assert_array_equal(metis_parts(g, 3, seed=5), expected)

    def test_cut_is_small_on_two_cliques(self):
        cliques = [(i, j) for base in (0, 6) for i in range(base, base + 6) for j in range(i + 1, base + 6)]
        u, v = np.array(cliques + [(0, 6)]).T
        g = gv.Graph.from_edges(u, v)
        labels = metis_parts(g, 2, seed=0)
        gu, gv_ = g.edges()
        assert int(np.sum(labels[gu] != labels[gv_])) == 1

    def test_same_seed_same_labels(self):
        g = _read_shared("ca-GrQc")
        np.testing.assert_array_equal(metis_parts(g, 5, seed=11), metis_parts(g, 5, seed=11))
        np.testing.assert_array_equal(metis_parts(g, 5), metis_parts(g, 5))

    def test_one_part_is_all_zeros(self, zoo_graph):
        if zoo_graph.n == 0:
            with pytest.raises(ValueError, match="exceeds the number of nodes"):
                metis_parts(zoo_graph, 1)
            return
        labels = metis_parts(zoo_graph, 1)
        np.testing.assert_array_equal(labels, np.zeros(zoo_graph.n, dtype=np.int64))

    @pytest.mark.parametrize("name", ["path5", "star6", "two_components", "with_isolated", "isolated3"])
    def test_every_zoo_graph_up_to_n_parts(self, name):
        g = ZOO[name]
        for parts in range(1, g.n + 1):
            labels = metis_parts(g, parts, seed=1)
            assert labels.shape == (g.n,)
            assert labels.min() >= 0 and labels.max() < parts

    def test_bad_input(self):
        g = ZOO["path5"]
        with pytest.raises(ValueError, match="exceeds the number of nodes"):
            metis_parts(g, 6)
        with pytest.raises(ValueError, match="at least 1"):
            metis_parts(g, 0)
        with pytest.raises(TypeError):
            metis_parts(g, 2.0)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            metis_parts(np.zeros((3, 3)), 2)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="non-negative"):
            metis_parts(g, 2, seed=-1)

    def test_generator_seed(self):
        g = _read_shared("karate_club")
        a = metis_parts(g, 4, seed=np.random.default_rng(7))
        b = metis_parts(g, 4, seed=np.random.default_rng(7))
        np.testing.assert_array_equal(a, b)
