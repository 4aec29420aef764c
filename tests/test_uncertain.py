"""UncertainGraph: the model against brute force over possible worlds, sampling against its
probabilities, thread-count independence, and save/load round trips and failures."""

from __future__ import annotations

import bz2
import gzip
import importlib.util
import itertools
import json
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import graphveil as gv
from graphveil import _core
from graphveil.io import UNCERTAIN_FORMAT_VERSION as FORMAT_VERSION
from graphveil.io import sidecar_path
from graphveil.io.layout import release_keys, written_version

# ---------------------------------------------------------------------- brute force helpers


def random_strict(rng: np.random.Generator, n: int, k: int) -> gv.UncertainGraph:
    all_pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    chosen = rng.choice(len(all_pairs), size=k, replace=False)
    u = np.array([all_pairs[i][0] for i in chosen])
    v = np.array([all_pairs[i][1] for i in chosen])
    p = rng.choice([0.0, 1.0, 0.5, 0.1, 0.93, 0.37], size=k) * rng.uniform(0.8, 1.0, size=k)
    p[rng.random(k) < 0.15] = 1.0
    return gv.UncertainGraph(n, u, v, p)


def random_relaxed(rng: np.random.Generator, n: int, k: int) -> gv.UncertainGraph:
    u = rng.integers(0, n, size=k)
    v = rng.integers(0, n, size=k)
    v[: k // 4] = u[: k // 4]  # self-loops
    u[k // 4 : k // 2] = u[0] if u[0] != v[k // 4] else (u[0] + 1) % n  # some repeats
    p = rng.uniform(0, 1, size=k)
    p[rng.random(k) < 0.1] = 1.0
    return gv.UncertainGraph(n, u, v, p, relaxed=True)


def worlds(ug: gv.UncertainGraph):
    """Every possible world: (probability, kept-pair mask)."""
    p = ug.p
    for bits in itertools.product([False, True], repeat=ug.num_pairs):
        mask = np.array(bits, dtype=bool)
        yield float(np.prod(np.where(mask, p, 1.0 - p))), mask


def simple_edges(ug: gv.UncertainGraph, mask: np.ndarray) -> set[tuple[int, int]]:
    return {(a, b) for a, b in zip(ug.u[mask].tolist(), ug.v[mask].tolist()) if a != b}


def model_degrees(ug: gv.UncertainGraph, mask: np.ndarray) -> np.ndarray:
    """Degrees of one world of the relaxed model: a self-loop adds 2 (Theorem 3.1's matrix)."""
    deg = np.zeros(ug.n)
    for a, b in zip(ug.u[mask].tolist(), ug.v[mask].tolist()):
        deg[a] += 1
        deg[b] += 1
    return deg


def graph_of(n: int, edges) -> gv.Graph:
    edges = list(edges)
    return gv.Graph.from_edges([a for a, _ in edges], [b for _, b in edges], n)


# ---------------------------------------------------------------------- the zoo


def test_zoo_deterministic(zoo_graph, tmp_path):
    g = zoo_graph
    ug = gv.UncertainGraph.from_graph(g)
    assert ug.n == g.n and ug.num_pairs == g.m
    np.testing.assert_array_equal(ug.expected_degrees(), g.degrees)
    assert ug.total_variance() == 0.0
    assert ug.expected_num_edges() == g.m
    assert ug.expected_edit_distance(g) == 0.0
    assert ug.edit_distance_variance(g) == 0.0
    assert ug.sample(seed=1) == g
    assert all(s == g for s in ug.sample(3, seed=2, threads=2))
    assert (ug.to_scipy() != g.to_scipy()).nnz == 0
    ug.save(tmp_path / "g.npz", keep_ids=True)
    assert gv.load_uncertain(tmp_path / "g.npz") == ug
    perm = ug.save(tmp_path / "g.tsv", seed=3).permutation
    back = gv.load_uncertain(tmp_path / "g.tsv")
    assert sorted(back.expected_degrees()) == sorted(g.degrees)
    assert back == gv.UncertainGraph(g.n, perm[ug.u], perm[ug.v], ug.p)


def test_zoo_half_probabilities(zoo_graph):
    g = zoo_graph
    u, v = g.edges()
    ug = gv.UncertainGraph(g.n, u, v, np.full(g.m, 0.5))
    assert ug.expected_edit_distance(g) == pytest.approx(0.5 * g.m)
    assert ug.edit_distance_variance(g) == pytest.approx(0.25 * g.m)
    assert ug.expected_edit_distance(gv.Graph.from_edges([], [], g.n)) == pytest.approx(0.5 * g.m)
    np.testing.assert_allclose(ug.expected_degrees(), g.degrees / 2)
    np.testing.assert_allclose(ug.degree_variance(), g.degrees / 4)


# ---------------------------------------------------------------------- Theorem 4.1 by enumeration


@pytest.mark.parametrize("trial", range(6))
@pytest.mark.parametrize("relaxed", [False, True])
def test_theorem_4_1_enumerated(trial, relaxed):
    rng = np.random.default_rng(100 + trial)
    n = 6
    k = int(rng.integers(1, 13))
    ug = random_relaxed(rng, n, k) if relaxed else random_strict(rng, n, k)
    all_worlds = list(worlds(ug))
    assert sum(w for w, _ in all_worlds) == pytest.approx(1.0)
    candidates = [
        simple_edges(ug, rng.random(ug.num_pairs) < 0.5),  # a possible world (G in the theorem)
        {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.4},  # any graph
        set(),
    ]
    for edges in candidates:
        g = graph_of(n, edges)
        dist = np.array(
            [len(simple_edges(ug, mask) ^ edges) for _, mask in all_worlds], dtype=float
        )
        prob = np.array([w for w, _ in all_worlds])
        mean = float(prob @ dist)
        var = float(prob @ (dist - mean) ** 2)
        assert ug.expected_edit_distance(g) == pytest.approx(mean, abs=1e-12)
        assert ug.edit_distance_variance(g) == pytest.approx(var, abs=1e-12)
        if not relaxed:  # the theorem's statement: the variance is TV, whatever G is
            assert ug.total_variance() == pytest.approx(var, abs=1e-12)


@pytest.mark.parametrize("relaxed", [False, True])
def test_degrees_and_variance_enumerated(relaxed):
    rng = np.random.default_rng(7)
    for _ in range(4):
        ug = random_relaxed(rng, 5, 11) if relaxed else random_strict(rng, 6, 11)
        prob = []
        degs = []
        edges = []
        for w, mask in worlds(ug):
            prob.append(w)
            degs.append(model_degrees(ug, mask))
            edges.append(mask.sum())
        prob_a = np.array(prob)
        deg = np.array(degs)
        mean = prob_a @ deg
        np.testing.assert_allclose(ug.expected_degrees(), mean, atol=1e-12)
        np.testing.assert_allclose(ug.degree_variance(), prob_a @ (deg - mean) ** 2, atol=1e-12)
        assert ug.expected_num_edges() == pytest.approx(prob_a @ np.array(edges))
        np.testing.assert_allclose(np.asarray(ug.to_scipy().sum(axis=1)).ravel(), mean, atol=1e-12)
        if not relaxed:
            assert ug.total_variance() == pytest.approx(ug.degree_variance().sum() / 2)


def test_simplified_is_the_law_of_simplified_samples():
    rng = np.random.default_rng(3)
    ug = random_relaxed(rng, 4, 10)
    simple = ug.simplified()
    assert not simple.relaxed and np.all(simple.u < simple.v)
    law: dict[frozenset, float] = {}
    for w, mask in worlds(ug):
        key = frozenset(simple_edges(ug, mask))
        law[key] = law.get(key, 0.0) + w
    for w, mask in worlds(simple):
        key = frozenset(simple_edges(simple, mask))
        assert law.pop(key) == pytest.approx(w, abs=1e-12)
    assert all(w == pytest.approx(0.0, abs=1e-12) for w in law.values())


def test_paper_edit_distance_formula_on_possible_world():
    # E[D] = sum over E_G of (1 - p) + sum over the other pairs of p (Section V-A)
    ug = gv.UncertainGraph(4, [0, 0, 1, 2], [1, 2, 2, 3], [0.9, 0.2, 0.6, 1.0])
    g = graph_of(4, [(0, 1), (2, 3)])
    assert ug.expected_edit_distance(g) == pytest.approx(0.1 + 0.2 + 0.6 + 0.0)
    assert ug.edit_distance_variance(g) == pytest.approx(0.09 + 0.16 + 0.24)
    with pytest.raises(ValueError, match="nodes"):
        ug.expected_edit_distance(graph_of(5, []))
    with pytest.raises(TypeError, match="Graph"):
        ug.expected_edit_distance(ug)


# ---------------------------------------------------------------------- sampling


def frequency_check(ug: gv.UncertainGraph, counts: np.ndarray, trials: int) -> None:
    """Per-pair binomial z-scores below 5 and an overall chi-square p-value above 1e-6."""
    p = ug.p
    assert np.all(counts[p == 0.0] == 0)
    assert np.all(counts[p == 1.0] == trials)
    mid = (p > 0) & (p < 1)
    expected = trials * p[mid]
    z = (counts[mid] - expected) / np.sqrt(expected * (1 - p[mid]))
    assert np.abs(z).max() < 5, np.abs(z).max()
    assert stats.chi2.sf(np.sum(z**2), df=int(mid.sum())) > 1e-6


def count_pairs(ug: gv.UncertainGraph, edge_sets) -> np.ndarray:
    keys = ug.u.astype(np.int64) * ug.n + ug.v
    counts = np.zeros(ug.num_pairs, dtype=np.int64)
    for su, sv in edge_sets:
        pos = np.searchsorted(keys, su.astype(np.int64) * ug.n + sv)
        assert np.array_equal(keys[pos], su.astype(np.int64) * ug.n + sv)  # only pairs of the graph
        counts += np.bincount(pos, minlength=ug.num_pairs)
    return counts


def test_sample_frequencies_match_p():
    rng = np.random.default_rng(11)
    n = 60
    pairs = rng.choice(n * n, size=400, replace=False)
    u, v = pairs // n, pairs % n
    keep = u != v
    u, v = u[keep], v[keep]
    u, v = np.minimum(u, v), np.maximum(u, v)
    _, first = np.unique(u * n + v, return_index=True)
    u, v = u[first], v[first]
    p = rng.choice([0.0, 1.0, 0.01, 0.2, 0.5, 0.8, 0.99], size=u.size) + 0.0
    p[p == 0.5] = rng.uniform(0.3, 0.7, size=int((p == 0.5).sum()))
    ug = gv.UncertainGraph(n, u, v, p)
    trials = 3000
    samples = ug.sample(trials, seed=12345)
    counts = count_pairs(ug, (s.edges() for s in samples))
    frequency_check(ug, counts, trials)
    m = np.array([s.m for s in samples])
    assert abs(m.mean() - ug.expected_num_edges()) < 5 * np.sqrt(ug.total_variance() / trials)


def test_relaxed_sample_frequencies_match_simplified():
    ug = gv.UncertainGraph(
        5,
        [0, 0, 0, 1, 1, 2, 3, 3],
        [1, 1, 1, 1, 2, 2, 4, 4],
        [0.3, 0.3, 0.5, 0.9, 0.4, 1.0, 0.25, 0.0],
        relaxed=True,
    )
    simple = ug.simplified()
    assert list(zip(simple.u.tolist(), simple.v.tolist())) == [(0, 1), (1, 2), (3, 4)]
    np.testing.assert_allclose(simple.p, [1 - 0.7 * 0.7 * 0.5, 0.4, 0.25])
    trials = 4000
    counts = count_pairs(simple, (ug.sample_edges(seed=5, index=k) for k in range(trials)))
    frequency_check(simple, counts, trials)
    for s in ug.sample(20, seed=6):
        assert not any(s.neighbors(i).tolist().count(i) for i in range(s.n))  # no self-loops


@pytest.fixture(scope="module")
def multi_block() -> gv.UncertainGraph:
    """200k pairs: several 65,536-pair random blocks."""
    rng = np.random.default_rng(5)
    n = 20_000
    a, b = rng.integers(0, n, size=(2, 230_000))
    keys = np.unique(np.minimum(a, b) * n + np.maximum(a, b))
    u, v = keys // n, keys % n
    keep = u < v
    u, v = u[keep][:200_000], v[keep][:200_000]
    return gv.UncertainGraph(n, u, v, rng.random(u.size))


def test_threads_do_not_change_samples(multi_block):
    ug = multi_block
    assert ug.num_pairs > 3 * 65_536
    ref = ug.sample(3, seed=99, threads=1)
    for threads in (2, 3, 8, 0, None):
        assert ug.sample(3, seed=99, threads=threads) == ref
        assert ug.sample(seed=99, threads=threads) == ref[0]
        e = ug.sample_edges(seed=99, index=2, threads=threads)
        assert np.array_equal(e[0], ref[2].edges()[0]) and np.array_equal(e[1], ref[2].edges()[1])
    # sample k does not depend on how many are drawn
    assert ug.sample(5, seed=99, threads=2)[:3] == ref


def test_sample_csr_is_valid_and_plausible(multi_block):
    ug = multi_block
    for k, s in enumerate(ug.sample(2, seed=4)):
        # the direct CSR equals the general builder's on the kept pairs
        assert s == gv.Graph.from_edges(*ug.sample_edges(seed=4, index=k), ug.n)
        a = s.to_scipy()
        assert a.has_sorted_indices and (a != a.T).nnz == 0 and not a.diagonal().any()
        assert abs(s.m - ug.expected_num_edges()) < 6 * np.sqrt(ug.total_variance())


def test_int64_kernel_matches_int32(multi_block):
    ug = multi_block
    assert ug.u.dtype == np.int32
    a = _core.sample_csr(ug.n, ug.u, ug.v, ug.p, 17, 3, 2, 2)
    b = _core.sample_csr(ug.n, ug.u.astype(np.int64), ug.v.astype(np.int64), ug.p, 17, 3, 2, 1)
    for (ip32, ix32), (ip64, ix64) in zip(a, b):
        assert ix32.dtype == np.int32 and ix64.dtype == np.int64
        assert np.array_equal(ip32, ip64) and np.array_equal(ix32, ix64)
    e32 = _core.sample_edges(ug.n, ug.u, ug.v, ug.p, 17, 4)
    e64 = _core.sample_edges(ug.n, ug.u.astype(np.int64), ug.v.astype(np.int64), ug.p, 17, 4)
    assert np.array_equal(e32[0], e64[0]) and np.array_equal(e32[1], e64[1])
    with pytest.raises(TypeError):  # mixed widths match neither overload: no silent conversion
        _core.sample_edges(ug.n, ug.u.astype(np.int64), ug.v, ug.p, 1, 0)


def test_seeds(multi_block):
    ug = multi_block
    assert ug.sample(seed=1) == ug.sample(seed=1)
    assert ug.sample(seed=1) != ug.sample(seed=2)
    assert ug.sample(seed=np.random.default_rng(8)) == ug.sample(seed=np.random.default_rng(8))
    first, second = ug.sample(2, seed=1)
    assert first != second
    assert ug.sample(None) != ug.sample(None)


def test_sample_arguments():
    ug = gv.UncertainGraph(3, [0], [1], [0.5])
    assert ug.sample(0, seed=1) == []
    assert isinstance(ug.sample(1, seed=1), list)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="count"):
            ug.sample(bad, seed=1)
    with pytest.raises(ValueError, match="threads"):
        ug.sample(seed=1, threads=-2)
    with pytest.raises(TypeError, match="seed"):
        ug.sample(seed="x")
    with pytest.raises(ValueError, match="index"):
        ug.sample_edges(seed=1, index=-1)
    empty = gv.UncertainGraph(0, [], [], [])
    assert empty.sample(seed=1).n == 0
    assert [a.size for a in empty.sample_edges(seed=1)] == [0, 0]


# ---------------------------------------------------------------------- construction


def test_canonical_form_and_frozen_arrays():
    p_in = np.array([0.1, 0.2, 0.3])
    ug = gv.UncertainGraph(4, [3, 0, 2], [1, 2, 1], p_in)
    assert (
        ug.u.tolist() == [0, 1, 1]
        and ug.v.tolist() == [2, 2, 3]
        and ug.p.tolist() == [0.2, 0.3, 0.1]
    )
    assert ug.u.dtype == np.int32 and ug.p.dtype == np.float64
    with pytest.raises(ValueError):
        ug.p[0] = 1.0
    p_in[0] = 0.9  # the caller's array is not shared
    assert ug.p.tolist() == [0.2, 0.3, 0.1]
    sorted_p = np.array([0.2, 0.3, 0.1])
    gv.UncertainGraph(4, ug.u, ug.v, sorted_p)
    assert sorted_p.flags.writeable


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((3, [0], [1], [1.5]), {}, ValueError, r"\[0, 1\].*p=1.5"),
        ((3, [0], [1], [-0.1]), {}, ValueError, r"\[0, 1\]"),
        ((3, [0, 1], [1, 2], [0.5, np.nan]), {}, ValueError, "nan"),
        ((3, [0, 1], [1, 2], [0.5]), {}, ValueError, "one length"),
        ((3, [[0, 1]], [[1, 2]], [[0.5, 0.5]]), {}, ValueError, "1-d"),
        ((3, [0.0], [1.0], [0.5]), {}, TypeError, "integers"),
        ((3, [0], [3], [0.5]), {}, ValueError, "0..2"),
        ((3, [-1], [1], [0.5]), {}, ValueError, "0..2"),
        ((3, [1], [1], [0.5]), {}, ValueError, "relaxed=True"),
        ((3, [0, 1], [1, 0], [0.5, 0.5]), {}, ValueError, "more than once"),
        ((-1, [], [], []), {}, ValueError, "n must be >= 0"),
        ((2.5, [], [], []), {}, TypeError, "integer"),
        ((3, [0], [1], ["a"]), {}, TypeError, "real numbers"),
    ],
)
def test_bad_construction(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        gv.UncertainGraph(*args, **kwargs)


def test_mixed_id_dtypes():
    big = np.array([2**40], dtype=np.uint64)
    ug = gv.UncertainGraph(2**40 + 1, big, np.array([0], dtype=np.int64), [0.5])
    assert ug.u.dtype == np.int64 and ug.u.tolist() == [0] and ug.v.tolist() == [2**40]


def test_relaxed_model_semantics():
    ug = gv.UncertainGraph(3, [0, 1, 1, 2], [0, 0, 0, 1], [0.5, 0.4, 0.8, 0.3], relaxed=True)
    assert ug.u.tolist() == [0, 0, 0, 1] and ug.v.tolist() == [0, 1, 1, 2]
    # a self-loop adds 2 to its node's degree and to the diagonal
    np.testing.assert_allclose(ug.expected_degrees(), [2 * 0.5 + 1.2, 1.2 + 0.3, 0.3])
    a = ug.to_scipy().toarray()
    np.testing.assert_allclose(a, [[1.0, 1.2, 0], [1.2, 0, 0.3], [0, 0.3, 0]])
    np.testing.assert_allclose(
        ug.degree_variance(), [4 * 0.25 + 0.24 + 0.16, 0.24 + 0.16 + 0.21, 0.21]
    )
    assert ug.expected_num_edges() == pytest.approx(2.0)
    assert ug.simplified().expected_num_edges() == pytest.approx(1 - 0.6 * 0.2 + 0.3)


# ---------------------------------------------------------------------- save / load


@pytest.fixture
def published() -> gv.UncertainGraph:
    rng = np.random.default_rng(21)
    ug = random_strict(rng, 40, 200)
    return gv.UncertainGraph(
        ug.n, ug.u, ug.v, ug.p, meta={"scheme": "maxvar", "params": {"n_p": 20}, "seed": 42}
    )


@pytest.mark.parametrize("name", ["g.npz", "g.tsv", "g.tsv.gz", "g.txt.bz2", "g.tsv.xz"])
def test_round_trip_keep_ids(published, tmp_path, name):
    record = published.save(tmp_path / name, keep_ids=True)
    assert record.permutation is None and record.report["seed"] == 42
    back = gv.load_uncertain(tmp_path / name)
    assert back == published and back.ids_permuted is False
    # the release keeps the scheme and its parameters, never the seed
    assert back.meta == {
        "scheme": "maxvar",
        "params": {"n_p": 20},
        "file": {
            "format_version": FORMAT_VERSION,
            "graphveil_version": gv.__version__,
            "ids_permuted": False,
        },
    }
    # re-saving a loaded graph does not nest the file record
    back.save(tmp_path / ("again_" + name), keep_ids=True)
    assert "file" not in gv.load_uncertain(tmp_path / ("again_" + name)).meta["file"]


@pytest.mark.parametrize("name", ["g.npz", "g.tsv.gz"])
def test_round_trip_permuted(published, tmp_path, name):
    perm = published.save(tmp_path / name, seed=7).permutation
    back = gv.load_uncertain(tmp_path / name)
    assert back.meta["file"]["ids_permuted"] is True
    assert sorted(perm.tolist()) == list(range(published.n))
    assert not np.array_equal(perm, np.arange(published.n))
    # isomorphic: the same graph under perm
    np.testing.assert_array_equal(np.sort(back.p), np.sort(published.p))
    np.testing.assert_allclose(
        np.sort(back.expected_degrees()), np.sort(published.expected_degrees())
    )
    assert back == gv.UncertainGraph(published.n, perm[published.u], perm[published.v], published.p)
    np.testing.assert_allclose(back.expected_degrees()[perm], published.expected_degrees())
    # ... and the ids differ
    assert not (np.array_equal(back.u, published.u) and np.array_equal(back.v, published.v))
    # the permutation depends on the seed and is not in the file
    assert not np.array_equal(published.save(tmp_path / name, seed=8).permutation, perm)
    if name.endswith(".npz"):
        with np.load(tmp_path / name) as data:
            assert data.files == list(release_keys(False))


def test_round_trip_relaxed_and_empty(tmp_path):
    ug = gv.UncertainGraph(4, [0, 0, 2, 2], [0, 1, 1, 1], [0.5, 0.25, 1.0, 1e-300], relaxed=True)
    for name in ("r.npz", "r.tsv"):
        ug.save(tmp_path / name, keep_ids=True)
        back = gv.load_uncertain(tmp_path / name)
        assert back == ug and back.relaxed
        perm = ug.save(tmp_path / name, seed=1).permutation
        assert gv.load_uncertain(tmp_path / name) == gv.UncertainGraph(
            4, perm[ug.u], perm[ug.v], ug.p, relaxed=True
        )
    empty = gv.UncertainGraph(7, [], [], [])
    for name in ("e.npz", "e.tsv"):
        empty.save(tmp_path / name)
        back = gv.load_uncertain(tmp_path / name)
        assert back.n == 7 and back.num_pairs == 0


def test_format_choice(published, tmp_path):
    published.save(tmp_path / "g.data", format="tsv", keep_ids=True)
    assert gv.UncertainGraph.load(tmp_path / "g.data", format="tsv") == published
    published.save(tmp_path / "g.bin", format="npz", keep_ids=True)
    assert gv.UncertainGraph.load(tmp_path / "g.bin") == published  # sniffed as a zip archive
    assert not (tmp_path / "g.bin.npz").exists()
    with pytest.raises(ValueError, match="suffix"):
        published.save(tmp_path / "g.dat")
    with pytest.raises(ValueError, match="format"):
        published.save(tmp_path / "g.npz", format="csv")


def test_plain_tsv_without_header(tmp_path):
    path = tmp_path / "plain.tsv"
    path.write_text("% other tools\n# u v p\n0 3 0.5\n1\t2\t1\n")
    ug = gv.load_uncertain(path)
    assert ug.n == 4 and ug.u.tolist() == [0, 1] and ug.p.tolist() == [0.5, 1.0]
    assert ug.meta["file"]["ids_permuted"] is None


def test_a_refused_save_opens_no_file(published, tmp_path):
    path = tmp_path / "g.npz"
    published.save(path, keep_ids=True)
    before = path.read_bytes()
    bad = gv.UncertainGraph(
        published.n, published.u, published.v, published.p, meta={"x": object()}
    )
    with pytest.raises(TypeError, match="JSON"):
        bad.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.npz"]
    with pytest.raises(FileNotFoundError, match="does not exist"):
        published.save(tmp_path / "missing" / "g.npz")


def test_an_interrupt_midway_through_a_write_leaves_the_old_file(published, tmp_path, monkeypatch):
    # Ctrl-C after the arrays u and v are in the temporary, before p: the half-written archive
    # is there at that moment, and afterwards only the old file is.
    from graphveil._common import TMP_DIR_NAME

    path = tmp_path / "g.npz"
    published.save(path, keep_ids=True)
    before = path.read_bytes()
    real = np.lib.format.write_array
    seen: list[int] = []

    def write_array(fh, array, **kwargs):
        if array is bigger.p:
            (half,) = (tmp_path / TMP_DIR_NAME).iterdir()
            seen.append(half.stat().st_size)
            raise KeyboardInterrupt
        return real(fh, array, **kwargs)

    bigger = random_strict(np.random.default_rng(3), 300, 20_000)
    monkeypatch.setattr(np.lib.format, "write_array", write_array)
    with pytest.raises(KeyboardInterrupt):
        bigger.save(path, keep_ids=True, record=tmp_path / "rec.json")
    assert seen and seen[0] > bigger.u.nbytes + bigger.v.nbytes  # u and v were in it
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.npz"]


def test_write_is_atomic(published, tmp_path):
    # The operating system stops every write past a file-size limit (EFBIG), midway through the
    # release of each format, its sidecar or its record: the old files stay, nothing else does.
    pytest.importorskip("resource")  # POSIX
    from graphveil.io import FORMATS

    names = [f"g{f.suffixes[0]}" for f in FORMATS.values() if "uncertain" in f.holds]
    names.append("g.tsv.gz")
    if importlib.util.find_spec("pyarrow") is None:
        names.remove("g.parquet")
    limit = 50_000
    bigger = random_strict(np.random.default_rng(3), 400, 30_000)
    published.save(tmp_path / "old.npz", keep_ids=True)
    bigger.save(tmp_path / "new.npz", keep_ids=True)
    script = f"""
import json, os, resource, sys
import graphveil as gv
old, new = gv.load_uncertain("old.npz"), gv.load_uncertain("new.npz")
os.mkdir("out")
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
result = {{}}
for name in {names!r}:
    for record in (None, "out/" + name + ".rec.json"):
        path = "out/" + name
        old.save(path, keep_ids=record is None, record=record)
        files = sorted(os.listdir("out"))
        before = {{f: open("out/" + f, "rb").read().hex() for f in files}}
        try:
            new.save(path, keep_ids=record is None, record=record)
            error = None
        except OSError as err:
            error = str(err)
        after = {{f: open("out/" + f, "rb").read().hex() for f in sorted(os.listdir("out"))}}
        result[path + (" with its record" if record else "")] = [error, before == after]
        for f in files:
            os.remove("out/" + f)
json.dump(result, sys.stdout)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert len(result) == 2 * len(names)
    for case, (error, unchanged) in result.items():
        assert error is not None and "larger than the file-size limit" in error, case
        assert unchanged, case  # the old release (and sidecar, record) byte for byte, no more
    for name in names:  # each new release is larger than the limit: its write stopped midway
        bigger.save(tmp_path / name, keep_ids=True)
        assert (tmp_path / name).stat().st_size > limit > 0, name


def rewrite_npz(src, dst, **changes):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del arrays[key]
    np.savez(dst, **arrays)


def test_load_rejects_bad_files(published, tmp_path):
    good = tmp_path / "good.npz"
    published.save(good, keep_ids=True)
    raw = good.read_bytes()

    (tmp_path / "noise.npz").write_bytes(bytes(range(256)) * 10)
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    (tmp_path / "empty.npz").write_bytes(b"")
    rewrite_npz(
        good,
        tmp_path / "future.npz",
        format_version=np.array(written_version(FORMAT_VERSION, True) + 1),
    )
    rewrite_npz(good, tmp_path / "other.npz", format=np.array("something.else"))
    rewrite_npz(good, tmp_path / "nop.npz", p=None)
    rewrite_npz(good, tmp_path / "shape.npz", p=published.p[:-1])
    rewrite_npz(good, tmp_path / "prob.npz", p=np.where(published.p > 0.5, 1.5, published.p))
    rewrite_npz(good, tmp_path / "nan.npz", p=np.full(published.num_pairs, np.nan))
    rewrite_npz(good, tmp_path / "ids.npz", n=np.array(3))
    rewrite_npz(good, tmp_path / "meta.npz", params=np.array("{not json"))
    np.savez(tmp_path / "foreign.npz", x=np.arange(3))
    cases = {
        "noise.npz": "not a readable",
        "cut.npz": "not a readable",
        "empty.npz": "not a readable",
        "future.npz": "newer",
        "other.npz": "format tag",
        "nop.npz": "missing entries",
        "shape.npz": "differ in length",
        "prob.npz": r"\[0, 1\]",
        "nan.npz": r"\[0, 1\]",
        "ids.npz": "0..2",
        "meta.npz": "JSON",
        "foreign.npz": "no format tag",
    }
    for name, match in cases.items():
        with pytest.raises(ValueError, match=match) as info:
            gv.load_uncertain(tmp_path / name)
        assert name in str(info.value), name
    with pytest.raises(FileNotFoundError):
        gv.load_uncertain(tmp_path / "absent.npz")


def test_load_rejects_bad_tsv(published, tmp_path):
    good = tmp_path / "good.tsv"
    published.save(good, keep_ids=True)
    text = good.read_text()
    side = json.loads(sidecar_path(good).read_text())
    assert "\t1.0\n" in text and side["n"] == 40 and not text.startswith("#")
    # (body, sidecar header or None, expected message)
    cases = {
        "letters.tsv": (text + "1\tx\t0.5\n", side, "u v p"),
        "short.tsv": (text + "1\t2\n", side, "u v p"),
        "prob.tsv": (text.replace("\t1.0\n", "\t1.5\n", 1), side, r"\[0, 1\]"),
        "future.tsv": (
            text,
            {**side, "format_version": written_version(FORMAT_VERSION, True) + 1},
            "newer",
        ),
        "n.tsv": (text, {**side, "n": 2}, "0..1"),
        "header.tsv": (text, {**side, "relaxed": "maybe"}, "header"),
        "tag.tsv": (text, {**side, "format": "other"}, "format"),
    }
    for name, (content, header, match) in cases.items():
        (tmp_path / name).write_text(content)
        sidecar_path(tmp_path / name).write_text(json.dumps(header))
        with pytest.raises(ValueError, match=match) as info:
            gv.load_uncertain(tmp_path / name)
        assert name in str(info.value), name
    (tmp_path / "broken.tsv").write_text(text)
    sidecar_path(tmp_path / "broken.tsv").write_text("{not json")
    with pytest.raises(ValueError, match=r"broken\.tsv\.json"):
        gv.load_uncertain(tmp_path / "broken.tsv")
    (tmp_path / "bad.tsv.gz").write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="bad.tsv.gz"):
        gv.load_uncertain(tmp_path / "bad.tsv.gz")
    (tmp_path / "cut.tsv.bz2").write_bytes(bz2.compress(text.encode())[:50])
    with pytest.raises(ValueError, match="cut.tsv.bz2"):
        gv.load_uncertain(tmp_path / "cut.tsv.bz2")
    with gzip.open(tmp_path / "ok.tsv.gz", "wt") as fh:
        fh.write(text)
    sidecar_path(tmp_path / "ok.tsv.gz").write_text(json.dumps(side))
    assert gv.load_uncertain(tmp_path / "ok.tsv.gz") == published


def test_tsv_header_lines_of_older_releases_still_read(published, tmp_path):
    path = tmp_path / "old.tsv"
    published.save(path, keep_ids=True)
    side = json.loads(sidecar_path(path).read_text())
    sidecar_path(path).unlink()
    lines = [f"# {k}: {v if k == 'format' else json.dumps(v)}" for k, v in side.items()]
    path.write_text("\n".join(lines) + "\n# columns: u v p\n" + path.read_text())
    assert gv.load_uncertain(path) == published


def test_tsv_without_sidecar_falls_back(published, tmp_path):
    path = tmp_path / "g.tsv"
    published.save(path, keep_ids=True)
    sidecar_path(path).unlink()
    back = gv.load_uncertain(path)
    assert back.n == published.n == int(max(published.u.max(), published.v.max())) + 1
    assert (back.u == published.u).all() and (back.p == published.p).all()
    assert back.meta["file"]["ids_permuted"] is None and "scheme" not in back.meta
    loops = tmp_path / "loops.tsv"
    loops.write_text("0\t0\t0.5\n0\t2\t1.0\n")
    assert gv.load_uncertain(loops).relaxed


def test_meta_json_with_numpy_values(tmp_path):
    ug = gv.UncertainGraph(
        3, [0], [1], [0.5], meta={"sigma": np.float64(0.1), "sizes": np.arange(3), "seed": 2**63}
    )
    record = ug.save(tmp_path / "m.npz", record=tmp_path / "m.json")
    # numpy values are kept in the private record (the release publishes none of them)
    back = gv.load_record(tmp_path / "m.json")
    assert back.report == {"sigma": 0.1, "sizes": [0, 1, 2], "seed": 2**63} == record.report
    assert "sigma" not in gv.load_uncertain(tmp_path / "m.npz").meta


def test_to_scipy_matrix_class():
    ug = gv.UncertainGraph(3, [0], [1], [0.5])
    assert isinstance(ug.to_scipy(), sp.csr_array)
    assert isinstance(ug.to_scipy(array=False), sp.csr_matrix)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    n=st.integers(2, 12),
    data=st.data(),
    relaxed=st.booleans(),
)
def test_round_trip_property(tmp_path, n, data, relaxed):
    """Any graph, any floats in [0, 1] (subnormals, 1 - ulp): both formats are exact."""
    if relaxed:
        pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        pairs = data.draw(st.lists(pair, max_size=30))
    else:
        pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
            lambda t: t[0] != t[1]
        )
        pairs = data.draw(st.lists(pair, max_size=30, unique_by=lambda t: (min(t), max(t))))
    probs = data.draw(st.lists(st.floats(0.0, 1.0), min_size=len(pairs), max_size=len(pairs)))
    u = np.array([a for a, _ in pairs], dtype=np.int64)
    v = np.array([b for _, b in pairs], dtype=np.int64)
    ug = gv.UncertainGraph(n, u, v, probs, relaxed=relaxed)
    for name in ("h.npz", "h.tsv"):
        perm = ug.save(tmp_path / name, seed=data.draw(st.integers(0, 2**64 - 1))).permutation
        back = gv.load_uncertain(tmp_path / name)
        assert back == gv.UncertainGraph(n, perm[ug.u], perm[ug.v], ug.p, relaxed=relaxed)
        assert back.expected_edit_distance(gv.Graph.from_edges([], [], n)) == pytest.approx(
            ug.expected_edit_distance(gv.Graph.from_edges([], [], n))
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-50, 50), max_size=40),
    st.lists(st.integers(-50, 50), max_size=40),
)
def test_in_sorted_is_isin(keys, haystack):
    """The sorted-key membership of Mixture, edit distances and edge differences against
    numpy's isin, on any keys (repeats, negatives, empty lists)."""
    from graphveil._common import in_sorted

    keys_a = np.array(keys, dtype=np.int64)
    sorted_a = np.unique(np.array(haystack, dtype=np.int64))
    np.testing.assert_array_equal(in_sorted(keys_a, sorted_a), np.isin(keys_a, sorted_a))
