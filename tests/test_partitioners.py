"""The partitioner registry: every record's labels on the zoo, METIS as before, KaMinPar's file."""

from __future__ import annotations

import re
import sys
import warnings

import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph, load_shared

import graphveil as gv
from graphveil.anonymize import maxvar, partition, partitioners
from graphveil.anonymize.partitioners import METIS_OPTIONS, PARTITIONERS, Partitioner, get, names
from graphveil.anonymize.parts import metis_parts
from graphveil.cli import main

HAS_KAMINPAR = PARTITIONERS["kaminpar"].available()
needs_kaminpar = pytest.mark.skipif(not HAS_KAMINPAR, reason="kaminpar is not installed")


def _records() -> list:
    """Every registered partitioner; one whose extra is missing is skipped."""
    return [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                not record.available(), reason=f"{record.module} is not installed"
            ),
        )
        for name, record in PARTITIONERS.items()
    ]


def _cut(graph: gv.Graph, labels: np.ndarray) -> int:
    u, v = graph.edges()
    return int(np.count_nonzero(labels[u] != labels[v]))


# ------------------------------------------------------------------------- every partitioner
@pytest.mark.parametrize("name", _records())
@pytest.mark.parametrize("graph_name", [g for g in ZOO if ZOO[g].n > 0])
def test_every_partitioner_labels_every_zoo_graph(name, graph_name):
    graph, record = ZOO[graph_name], get(name)
    for parts in sorted({1, 2, 3, graph.n}):
        if parts > graph.n:
            continue
        labels = record.labels(graph, parts, seed=5)
        assert labels.dtype == np.int64 and labels.shape == (graph.n,)
        assert labels.min() >= 0 and labels.max() < parts
        # every part has a node (n >= parts): a part a partitioner left empty was filled
        assert np.bincount(labels, minlength=parts).min() >= 1, (graph_name, parts)


@pytest.mark.parametrize("name", _records())
def test_a_seed_gives_the_same_labels_whatever_the_threads(name):
    g = load_shared("ca-GrQc")
    record = get(name)
    first = record.labels(g, 8, seed=11, threads=1)
    assert np.array_equal(first, record.labels(g, 8, seed=11, threads=2))
    assert np.array_equal(first, record.labels(g, 8, seed=11))
    assert np.bincount(first, minlength=8).min() > 0
    # a cut far below a random split's (7/8 of the edges)
    assert _cut(g, first) < 0.2 * g.m


@pytest.mark.parametrize("name", _records())
def test_the_record_reduces_the_seed_to_its_range(name):
    record, g = get(name), karate_graph()
    big = 2**63 + 12345
    assert record.seed(big) == big % (record.seed_max + 1) <= record.seed_max
    assert np.array_equal(
        record.labels(g, 3, seed=big), record.labels(g, 3, seed=big % (record.seed_max + 1))
    )


def test_every_part_empty_part_is_filled_from_the_largest():
    from graphveil.anonymize.partitioners import _fill_empty

    # path 0-1-2-3-4 all in part 0: parts 1 and 2 take its least-degree nodes (0, then 4)
    degrees = np.array([1, 2, 2, 2, 1])
    labels = _fill_empty(np.zeros(5, dtype=np.int64), 3, degrees)
    assert labels.tolist() == [1, 0, 0, 0, 2]
    kept = np.array([0, 1, 1, 0])
    assert _fill_empty(kept, 2, np.ones(4)) is kept  # nothing empty: as it was


# ------------------------------------------------------------------------- METIS, as before
class TestMetisAsBefore:
    def test_the_metis_record_is_metis_parts_with_the_old_seed_and_options(self):
        g = load_shared("ca-GrQc")
        for seed, parts in ((2**40 + 7, 4), (3, 20), (2**64 - 1, 7)):
            before = metis_parts(g, parts, seed=seed % 2**31, options=METIS_OPTIONS)
            assert np.array_equal(get("metis").labels(g, parts, seed=seed), before)

    def test_options_merge_over_the_defaults(self):
        record = get("metis")
        assert record.defaults == METIS_OPTIONS == {"niter": 2}
        assert record.options(None) == {"niter": 2}
        assert record.options({"ncuts": 2}) == {"niter": 2, "ncuts": 2}
        assert record.options({"niter": 10}) == {"niter": 10}
        g = load_shared("ca-GrQc")
        assert np.array_equal(
            record.labels(g, 6, seed=2, options={"niter": 10}), metis_parts(g, 6, seed=2)
        )

    def test_maxvar_through_the_registry_is_maxvar_on_those_labels(self):
        g = load_shared("ca-GrQc")
        ug, report = maxvar(g, n_potential=2000, parts=5, seed=9)
        labels = metis_parts(g, 5, seed=9, options=METIS_OPTIONS)
        given, _ = maxvar(g, n_potential=2000, parts=5, seed=9, labels=labels)
        assert np.array_equal(report["labels"], labels)
        assert np.array_equal(ug.p, given.p) and np.array_equal(ug.u, given.u)
        assert report["params"]["partitioner"] == "metis"
        assert report["params"]["partitioner_options"] == {"niter": 2}
        assert "seed" not in ug.meta["params"]  # the seed is private, the partitioner public


class TestDeprecatedMetisOptions:
    def test_metis_options_warns_and_works(self):
        g = karate_graph()
        new, report = maxvar(g, n_potential=10, parts=2, seed=4, partitioner_options={"niter": 5})
        with pytest.warns(
            DeprecationWarning, match=r"maxvar\(metis_options=\.\.\.\) is deprecated"
        ):
            old, old_report = maxvar(g, n_potential=10, parts=2, seed=4, metis_options={"niter": 5})
        assert np.array_equal(new.p, old.p) and old_report["params"] == report["params"]

    def test_the_warning_points_at_the_callers_line(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            maxvar(karate_graph(), n_potential=10, parts=2, seed=4, metis_options={})
        assert [w.filename for w in caught] == [__file__]

    def test_the_old_and_the_new_keyword_together_are_refused(self):
        with pytest.raises(TypeError, match="metis_options= and partitioner_options="):
            maxvar(
                karate_graph(),
                n_potential=10,
                metis_options={},
                partitioner_options={},
            )


# -------------------------------------------------------------------------------- refusals
def test_bad_names_and_options_are_refused_with_the_choices():
    g = karate_graph()
    with pytest.raises(
        ValueError, match=f"unknown partitioner 'scotch'; choose one of {', '.join(names())}$"
    ):
        maxvar(g, n_potential=10, parts=2, partitioner="scotch")
    with pytest.raises(ValueError, match="unknown partitioner"):
        partition(g, scheme="edge_switch", parts=2, switches=3, partitioner="scotch")
    with pytest.raises(TypeError, match="partitioner must be a name"):
        get(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a metis option: bogus; the options are ptype"):
        maxvar(g, n_potential=10, parts=2, partitioner_options={"bogus": 1})
    with pytest.raises(TypeError, match="partitioner_options must be a dict"):
        maxvar(g, n_potential=10, parts=2, partitioner_options=[("niter", 2)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"parts=35 exceeds the number of nodes \(34\)"):
        get("metis").labels(g, 35)
    with pytest.raises(ValueError, match="parts must be >= 1"):
        get("metis").labels(g, 0)
    with pytest.raises(TypeError, match="graph must be a graphveil.Graph"):
        get("metis").labels(np.zeros((2, 2)), 1)  # type: ignore[arg-type]


def test_a_record_is_checked_when_defined():
    metis = get("metis")
    cases = [
        ({"defaults": {"bogus": 1}}, "defaults name bogus, none of its option_names"),
        ({"module": "x"}, "an optional library names both its module and the extra"),
        ({"seed_max": 0}, "seed_max 0 is not in 1..2**64 - 1"),
        ({"summary": ""}, "it needs a name (an identifier), a function and a summary"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=f"^partitioner 'metis': .*{re.escape(message)}"):
            Partitioner(**{**metis.__dict__, **change})
    with pytest.raises(ValueError, match="^partitioner 'metis': another has that name"):
        partitioners._by_name(metis, metis)
    with pytest.raises(ValueError, match="the default partitioner 'metis' must be the first"):
        partitioners._by_name(get("kaminpar"), metis)


def test_a_missing_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "kaminpar", None)  # `import kaminpar` now raises
    g = karate_graph()
    message = r'partitioner .kaminpar. needs kaminpar.*pip install "graphveil\[kaminpar\]"'
    with pytest.raises(ImportError, match=message):
        get("kaminpar").labels(g, 2)
    with pytest.raises(ImportError, match=message):
        maxvar(g, n_potential=10, parts=2, partitioner="kaminpar")
    with pytest.raises(ImportError, match=message):
        partition(g, scheme="edge_switch", parts=2, switches=3, partitioner="kaminpar")
    # with given labels MaxVar runs no partitioner, and needs none
    maxvar(g, n_potential=10, parts=2, partitioner="kaminpar", labels=np.arange(34) % 2)


def test_the_cli_names_the_missing_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "kaminpar", None)
    argv = ["anonymize", "maxvar", "--dataset", "karate_club", "--n-potential", "10"]
    assert main([*argv, "--parts", "2", "--partitioner", "kaminpar", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'pip install "graphveil[kaminpar]"' in err


# ------------------------------------------------------------------------------------ CLI
@pytest.mark.parametrize(
    "argv",
    [
        ["anonymize", "maxvar", "--dataset", "karate_club", "--n-potential", "10", "--parts", "2"],
        ["anonymize", "partition", "--dataset", "karate_club", "--scheme", "edge_switch"]
        + ["--parts", "2", "--params", '{"switches": 3}'],
    ],
)
def test_the_cli_takes_a_partitioner_from_the_registry(argv, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--partitioner", "scotch"])
    assert exit_.value.code == 2
    assert f"choose from {', '.join(map(repr, names()))}" in capsys.readouterr().err
    out = tmp_path / "out.npz"
    assert main([*argv, "--partitioner", "metis", "--seed", "1", "-o", str(out), "-q"]) == 0
    release = gv.load_uncertain(out)
    assert release.meta["params"]["partitioner"] == "metis"


def test_reproduce_takes_a_partitioner_from_the_registry():
    with pytest.raises(SystemExit) as exit_:
        main(["reproduce", "--dataset", "karate_club", "--partitioner", "scotch"])
    assert exit_.value.code == 2


# ------------------------------------------------------------------------------- KaMinPar
@needs_kaminpar
class TestKaMinPar:
    def test_its_file_holds_the_graph(self, tmp_path):
        import kaminpar

        for g in (karate_graph(), load_shared("ca-GrQc"), ZOO["with_isolated"]):
            path = tmp_path / "g.parhip"
            partitioners.write_parhip(g, path)
            kg = kaminpar.load_graph(str(path), kaminpar.GraphFileFormat.PARHIP)
            assert (kg.n(), kg.m()) == (g.n, 2 * g.m)
            for node in range(0, g.n, max(1, g.n // 50)):
                neighbours = sorted(v for v, _ in kg.neighbors(node))
                assert neighbours == g.indices[g.indptr[node] : g.indptr[node + 1]].tolist()
            labels = get("kaminpar").labels(g, 2, seed=1)
            assert kaminpar.edge_cut(kg, labels.tolist()) == _cut(g, labels)

    def test_maxvar_and_partition_on_kaminpar_parts(self):
        g = load_shared("ca-GrQc")
        options = {"preset": "fast"}
        ug, report = maxvar(
            g, n_potential=2000, parts=4, seed=3, partitioner="kaminpar",
            partitioner_options=options,
        )  # fmt: skip
        expected = get("kaminpar").labels(g, 4, seed=3, options=options)
        assert np.array_equal(report["labels"], expected)
        assert report["params"]["partitioner"] == "kaminpar"
        assert report["params"]["partitioner_options"] == {
            "preset": "fast", "eps": 0.03, "threads": 1,
        }  # fmt: skip
        assert report["cut_edges"] == _cut(g, expected)
        again, _ = maxvar(
            g, n_potential=2000, parts=4, seed=3, threads=2, partitioner="kaminpar",
            partitioner_options=options,
        )  # fmt: skip
        assert np.array_equal(ug.p, again.p)
        _, rep = partition(
            g, scheme="edge_switch", parts=3, seed=1, switches=50, partitioner="kaminpar"
        )
        assert rep["params"]["partitioner"] == "kaminpar" and rep["cut_edges"] == _cut(
            g, get("kaminpar").labels(g, 3, seed=1)
        )

    def test_bad_options_are_refused(self):
        g = karate_graph()
        with pytest.raises(ValueError, match="not a KaMinPar preset: 'quick'; the presets are"):
            get("kaminpar").labels(g, 2, options={"preset": "quick"})
        with pytest.raises(ValueError, match="eps"):
            get("kaminpar").labels(g, 2, options={"eps": 0})
        with pytest.raises(ValueError, match="threads must be >= 1"):
            get("kaminpar").labels(g, 2, options={"threads": 0})
        with pytest.raises(ValueError, match="not a kaminpar option: niter"):
            get("kaminpar").labels(g, 2, options={"niter": 2})

    def test_the_study_runs_maxvar_on_its_parts(self):
        from graphveil.experiments import StudyConfig, reproduce

        g = load_shared("ca-GrQc")
        grid = {"maxvar": [0.1]}
        study = reproduce(
            g,
            StudyConfig(samples=1, k=(5,), attacks=False, maxvar_parts=3, partitioner="kaminpar"),
            schemes=grid,
            grid=grid,
            figures=False,
        )
        assert study.config.to_dict()["partitioner"] == "kaminpar"
        labels = get("kaminpar").labels(g, 3, seed=study.preparations["maxvar"]["seed"])
        assert study.rows[0]["scheme_report"]["cut_edges"] == _cut(g, labels)
