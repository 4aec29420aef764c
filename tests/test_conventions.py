"""The conventions users bring from networkx, numpy and scikit-learn (issue 25, docs/conventions.rst)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from graph_zoo import karate_graph

import graphveil as gv
from graphveil import anonymize, datasets
from graphveil import experiments as ex
from graphveil._seeds import seed_to_u64
from graphveil.anonymize import registry
from graphveil.measure import eps

#: Every registered scheme and Partition (read from the registry: a new scheme is checked too).
SCHEMES = (*registry.names(), "partition")


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return karate_graph()


# ------------------------------------------------------------------------- the graph as a container
def test_len_iter_and_contains_follow_networkx(karate):
    reference = nx.karate_club_graph()
    assert len(karate) == karate.n == len(reference)
    assert list(karate) == list(range(karate.n)) == list(reference)
    assert all(type(node) is int for node in karate)
    for node in (0, 33, np.int32(5), np.int64(33), np.uint8(1)):
        assert node in karate
    for other in (-1, 34, 1.0, "0", None, (0, 1), True, np.bool_(False)):
        assert other not in karate


def test_contains_means_ids_not_labels():
    g = gv.Graph.from_edges([0, 1], [1, 2], labels=np.array(["ann", "bob", "cy"]))
    assert 2 in g and "ann" not in g
    assert "ann" in set(g.labels.tolist())  # the documented way to test a label


def test_empty_graph_is_falsy_as_in_networkx():
    assert not gv.Graph.from_edges([], [], 0)
    assert gv.Graph.from_edges([], [], 1)
    assert bool(nx.Graph()) is False


def test_edges_called_gives_the_cached_arrays(karate):
    u, v = karate.edges()
    assert u is karate.edges()[0] and v is karate.edges()[1]  # computed once
    assert not u.flags.writeable
    assert np.all(u < v)
    keys = u.astype(np.int64) * karate.n + v
    assert np.all(np.diff(keys) > 0)


def test_edges_iterated_gives_pairs_as_networkx(karate):
    pairs = list(karate.edges)
    assert all(type(a) is int and type(b) is int for a, b in pairs)
    u, v = karate.edges()
    assert pairs == list(zip(u.tolist(), v.tolist()))
    reference = {tuple(sorted(e)) for e in nx.karate_club_graph().edges()}
    assert set(pairs) == reference and len(pairs) == len(karate.edges) == karate.m
    for a, b in karate.edges:  # the networkx loop
        assert (a, b) in karate.edges and (b, a) in karate.edges
    assert (0, 9) not in karate.edges  # karate has no edge 0-9
    for bad in ((0,), (0, 1, 2), (0, 99), ("a", "b"), 5, None):
        assert bad not in karate.edges


def test_edges_iteration_crosses_blocks():
    n = 70_000  # more than one block of 65,536 pairs
    g = gv.Graph.from_edges(np.arange(n - 1), np.arange(1, n))
    pairs = list(g.edges)
    assert len(pairs) == n - 1 and pairs[-1] == (n - 2, n - 1) and pairs[65_536] == (65_536, 65_537)


def test_edges_on_the_empty_graph():
    g = gv.Graph.from_edges([], [], 3)
    assert list(g.edges) == [] and len(g.edges) == 0
    u, v = g.edges()
    assert u.size == v.size == 0


# ----------------------------------------------------------------------------------------- seeds
def test_seed_forms():
    assert seed_to_u64(0) == 0 and seed_to_u64(2**64 - 1) == 2**64 - 1
    assert seed_to_u64(np.int64(5)) == 5 and seed_to_u64(np.uint64(2**63)) == 2**63
    assert seed_to_u64(None) != seed_to_u64(None)  # fresh entropy
    state = np.random.SeedSequence(12).generate_state(1, dtype=np.uint64)[0]
    seq = np.random.SeedSequence(12)
    assert seed_to_u64(seq) == seed_to_u64(seq) == int(state)  # fixed, not advanced


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.random.default_rng(3),
        lambda: np.random.PCG64(3),
        lambda: np.random.RandomState(3),
    ],
    ids=["Generator", "BitGenerator", "RandomState"],
)
def test_generators_advance_and_reproduce(make):
    a, b = make(), make()
    first = [seed_to_u64(a) for _ in range(3)]
    assert first == [seed_to_u64(b) for _ in range(3)]  # same generator state, same seeds
    assert len(set(first)) == 3  # the generator advances
    assert all(0 <= s < 2**64 for s in first)


@pytest.mark.parametrize("bad", [1.5, "3", True, np.bool_(True), [1], object()])
def test_seed_refuses_other_types(bad):
    with pytest.raises(TypeError, match="seed must be an int, None, a numpy.random.Generator"):
        seed_to_u64(bad)


@pytest.mark.parametrize("bad", [-1, 2**64, -(2**70)])
def test_seed_refuses_integers_outside_64_bits(bad):
    with pytest.raises(ValueError, match=r"seed must lie in \[0, 2\*\*64\)"):
        seed_to_u64(bad)


def test_every_seed_form_reaches_the_schemes(karate):
    expected, _ = anonymize.randwalk(karate, t=2, seed=seed_to_u64(np.random.RandomState(4)))
    got, report = anonymize.randwalk(karate, t=2, seed=np.random.RandomState(4))
    assert got == expected and report["seed"] == seed_to_u64(np.random.RandomState(4))
    seq, _ = anonymize.randwalk(karate, t=2, seed=np.random.SeedSequence(4))
    assert seq == anonymize.randwalk(karate, t=2, seed=np.random.SeedSequence(4))[0]


# ---------------------------------------------------------------------- scheme signatures
@pytest.mark.parametrize("name", SCHEMES)
def test_schemes_take_graph_first_then_keywords(name):
    parameters = list(inspect.signature(getattr(anonymize, name)).parameters.values())
    assert parameters[0].name == "graph"
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    kinds = {p.kind for p in parameters[1:]}
    assert kinds <= {inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD}


def test_registered_schemes_follow_the_same_rule():
    for record in registry.REGISTRY.values():
        parameters = list(inspect.signature(record.function).parameters.values())
        assert parameters[0].name == "graph", record.name
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[1:]), record.name


@pytest.mark.parametrize("name", list(registry.REGISTRY))
def test_every_scheme_returns_a_result_that_reads_as_its_uncertain_graph(name, karate):
    # ug = maxvar(...); ug.directed raised AttributeError: the result is a (graph, report) tuple.
    import copy
    import pickle

    record = registry.REGISTRY[name]
    result = record.study(karate, record.default_grid[0], ex.StudyConfig(samples=1, seed=1), 3)
    assert isinstance(result, gv.anonymize.Anonymized)
    ug, report = result  # the tuple as before
    assert ug is result.graph and report is result.report and len(result) == 2
    assert isinstance(ug, gv.UncertainGraph) and report["scheme"] == name
    assert (result.directed, result.n, result.num_pairs) == (ug.directed, ug.n, ug.num_pairs)
    assert result.p is ug.p and result.meta is ug.meta
    assert result.expected_degrees().tolist() == ug.expected_degrees().tolist()
    for other in (pickle.loads(pickle.dumps(result)), copy.copy(result), copy.deepcopy(result)):
        assert other.graph == ug and other.report.keys() == report.keys()
    with pytest.raises(AttributeError, match=r"the uncertain graph is \.graph .* no 'nodes'"):
        result.nodes  # noqa: B018
    with pytest.raises(AttributeError, match="^'Anonymized' object has no attribute '_n'$"):
        result._n  # noqa: B018


def _same(a, b):
    (ua, ra), (ub, rb) = a, b
    assert ua == ub
    assert ra["params"] == rb["params"] and ra.get("seed") == rb.get("seed")


def _old(call):
    with pytest.warns(DeprecationWarning, match="deprecated") as caught:
        result = call()
    assert len(caught) == 1
    assert caught[0].filename == __file__  # attributed to the caller's line
    return result


def test_old_forms_warn_and_give_the_same_result(karate):
    g = karate
    rw, _ = anonymize.randwalk_mod(g, t=2, seed=5)
    cases = [
        (
            lambda: anonymize.maxvar(g, 20, 1, seed=1),
            lambda: anonymize.maxvar(g, n_potential=20, parts=1, seed=1),
        ),
        (
            lambda: anonymize.maxvar(g=g, n_potential=20, parts=1, seed=1),
            lambda: anonymize.maxvar(g, n_potential=20, parts=1, seed=1),
        ),
        (
            lambda: anonymize.obfuscation(g, 2, 0.5, sigma=0.3, attempts=1, seed=2),
            lambda: anonymize.obfuscation(g, k=2, eps=0.5, sigma=0.3, attempts=1, seed=2),
        ),
        (lambda: anonymize.randwalk(g, 2, seed=3), lambda: anonymize.randwalk(g, t=2, seed=3)),
        (
            lambda: anonymize.randwalk_mod(g, 2, seed=3),
            lambda: anonymize.randwalk_mod(g, t=2, seed=3),
        ),
        (
            lambda: anonymize.edge_switch(g, 30, seed=4),
            lambda: anonymize.edge_switch(g, switches=30, seed=4),
        ),
        (
            lambda: anonymize.mixture(g, rw, 0.5),
            lambda: anonymize.mixture(g, anonymized=rw, p=0.5),
        ),
        (
            lambda: anonymize.mixture(g0=g, anonymized=rw, p=0.5),
            lambda: anonymize.mixture(g, anonymized=rw, p=0.5),
        ),
        (
            lambda: anonymize.partition("randwalk", g, 2, 3, seed=6),
            lambda: anonymize.partition(g, scheme="randwalk", parts=2, t=3, seed=6),
        ),
        (
            lambda: anonymize.partition("obfuscation", g, 2, 2, 0.5, sigma=0.3, seed=6),
            lambda: anonymize.partition(
                g, scheme="obfuscation", parts=2, k=2, eps=0.5, sigma=0.3, seed=6
            ),
        ),
        (
            lambda: anonymize.partition("edge_switch", graph=g, parts=2, switches=5, seed=6),
            lambda: anonymize.partition(g, scheme="edge_switch", parts=2, switches=5, seed=6),
        ),
    ]
    for old, new in cases:
        _same(_old(old), new())


def test_old_form_with_a_function_as_inner_scheme(karate):
    def switch(graph, switches, *, seed=None):
        return anonymize.edge_switch(graph, switches=switches, seed=seed)

    old = _old(lambda: anonymize.partition(switch, karate, 2, 7, seed=1))
    _same(old, anonymize.partition(karate, scheme=switch, parts=2, switches=7, seed=1))


def test_old_forms_that_cannot_be_read_are_errors(karate):
    with pytest.raises(TypeError, match="got the graph twice"):
        anonymize.randwalk(karate, g=karate, t=2)
    with pytest.raises(TypeError, match="multiple values for t"):
        anonymize.randwalk(karate, 2, t=2)
    with pytest.raises(TypeError, match="takes the graph and keyword arguments"):
        anonymize.randwalk(karate, 2, 3)
    with pytest.raises(TypeError, match="pass the inner scheme's arguments"):
        anonymize.partition("randwalk", karate, 2, 3, 4)
    with pytest.raises(TypeError):  # keyword-only now, and no old form names it
        anonymize.tmf(karate, 1.0)


def test_the_command_line_still_reads_the_signatures(tmp_path):
    out = tmp_path / "rw.npz"
    done = subprocess.run(
        [sys.executable, "-m", "graphveil", "anonymize", "randwalk", "--dataset", "karate_club"]
        + ["-o", str(out), "-t", "2", "--seed", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    assert done.returncode == 0, done.stderr
    assert gv.load_uncertain(out).n == 34


# ----------------------------------------------------------------------------------- return types
def test_eps_type_follows_its_argument(karate):
    ug, _ = anonymize.randwalk(karate, t=2, seed=1)
    one = eps(karate, ug, 3)
    many = eps(karate, ug, [3, 5])
    assert type(one) is float
    assert isinstance(many, dict) and list(many) == [3, 5] and many[3] == one
    assert eps(karate, ug, np.int64(3)) == one
    assert eps(karate, ug, (3,)) == {3: one}


def test_writers_return_the_record_or_none(tmp_path, karate):
    ug, _ = anonymize.randwalk(karate, t=2, seed=1)
    pytest.importorskip("pyarrow")
    for record in (
        ug.save(tmp_path / "a.npz", seed=1),
        ug.to_graphml(tmp_path / "a.graphml", seed=1),
        gv.write_parquet(ug, tmp_path / "a.parquet", seed=1),
        gv.write_edgelist(ug.sample(1, seed=2)[0], tmp_path / "w.txt", seed=1),
    ):
        assert isinstance(record, gv.RunRecord) and record.permutation is not None
    # the same draw for the same seed, whichever release writer
    assert np.array_equal(
        ug.to_graphml(tmp_path / "b.graphml", seed=1).permutation,
        ug.save(tmp_path / "b.npz", seed=1).permutation,
    )
    kept = ug.save(tmp_path / "k.npz", keep_ids=True)
    assert isinstance(kept, gv.RunRecord) and kept.permutation is None
    graph_record = gv.write_parquet(karate, tmp_path / "g.parquet")
    # karate carries labels, written as they are: a record without a permutation
    assert isinstance(graph_record, gv.RunRecord) and graph_record.permutation is None
    assert kept.save(tmp_path / "k.json") is None


# ----------------------------------------------------------------------------------------- imports
def test_star_import_of_datasets_does_not_shadow_list():
    namespace: dict = {}
    exec("from graphveil.datasets import *", namespace)
    assert "list" not in namespace and "load" in namespace
    assert all(hasattr(datasets, name) for name in datasets.__all__)
    assert callable(datasets.list) and datasets.list()


def test_import_does_not_load_csgraph():
    code = "import sys, graphveil; print('scipy.sparse.csgraph' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------------------------- threads
def _default_threads(env: dict[str, str]) -> int:
    child = {
        k: v for k, v in os.environ.items() if k not in ("GRAPHVEIL_NUM_THREADS", "OMP_NUM_THREADS")
    }
    child.update(env)
    out = subprocess.run(
        [sys.executable, "-c", "import graphveil; print(graphveil.default_threads())"],
        env=child,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def test_omp_num_threads_is_honoured_after_graphveil_num_threads(monkeypatch):
    monkeypatch.delenv("GRAPHVEIL_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    machine = gv.default_threads()
    for value, expected in [("3", 3), (" 2 ", 2), ("5,2", 5), ("1", 1)]:
        monkeypatch.setenv("OMP_NUM_THREADS", value)
        assert gv.default_threads() == expected, value
    for ignored in ("", "0", "-2", "abc", "2.5", ",3"):  # as OpenMP runtimes ignore them
        monkeypatch.setenv("OMP_NUM_THREADS", ignored)
        assert gv.default_threads() == machine, ignored
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("GRAPHVEIL_NUM_THREADS", "4")
    assert gv.default_threads() == 4  # graphveil's own variable wins


def test_a_dask_worker_limit_reaches_a_fresh_process():
    # Dask's nanny starts its workers with OMP_NUM_THREADS=1 (distributed.nanny.pre-spawn-environ)
    assert _default_threads({"OMP_NUM_THREADS": "1"}) == 1
    assert _default_threads({"OMP_NUM_THREADS": "1", "GRAPHVEIL_NUM_THREADS": "2"}) == 2
