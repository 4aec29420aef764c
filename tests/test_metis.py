"""The built-in METIS (cpp/third_party/metis) against pymetis, and the packaging it makes possible."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph, load_shared

import graphveil as gv
from graphveil import _core
from graphveil.anonymize.parts import metis_parts

ROOT = Path(__file__).resolve().parents[1]


def _pymetis_labels(g: gv.Graph, parts: int, **options: int) -> np.ndarray:
    """What pymetis.part_graph gives, called directly (the independent reference)."""
    pymetis = pytest.importorskip("pymetis")
    adjacency = pymetis.CSRAdjacency(adj_starts=g.indptr, adjacent=g.indices.astype(np.int64))
    _, labels = pymetis.part_graph(
        parts, adjacency=adjacency, options=pymetis.Options(**options), recursive=False
    )
    return np.asarray(labels, dtype=np.int64)


def _random_graph(n: int, m: int, seed: int) -> gv.Graph:
    u, v = np.random.default_rng(seed).integers(0, n, size=(2, m))
    keep = u != v
    return gv.Graph.from_edges(u[keep], v[keep])


class TestSameAsPymetis:
    @pytest.mark.parametrize("parts", [2, 3, 4, 8, 20])
    @pytest.mark.parametrize("seed", [None, 0, 11, 2**31 - 1])
    def test_ca_grqc(self, parts, seed):
        g = load_shared("ca-GrQc")
        options = {} if seed is None else {"seed": seed}
        np.testing.assert_array_equal(
            metis_parts(g, parts, seed=seed), _pymetis_labels(g, parts, **options)
        )

    @pytest.mark.parametrize("parts", [2, 3, 5, 7])
    def test_karate(self, parts):
        g = karate_graph()
        for seed in range(5):
            np.testing.assert_array_equal(
                metis_parts(g, parts, seed=seed), _pymetis_labels(g, parts, seed=seed)
            )

    @pytest.mark.parametrize("name", ["path5", "star6", "two_components", "with_isolated"])
    def test_zoo_up_to_n_parts(self, name):
        g = ZOO[name]
        for parts in range(2, g.n + 1):
            np.testing.assert_array_equal(
                metis_parts(g, parts, seed=3), _pymetis_labels(g, parts, seed=3)
            )

    @pytest.mark.parametrize("graph_seed", [1, 2])
    def test_random_graphs_int32_and_int64_ids(self, graph_seed):
        g = _random_graph(600, 3000, graph_seed)
        assert g.indices.dtype == np.int32  # the widening path; int64 is the zero-copy one
        expected = _pymetis_labels(g, 6, seed=9)
        np.testing.assert_array_equal(metis_parts(g, 6, seed=9), expected)
        wide = _core.metis_part_kway(g.indptr, g.indices.astype(np.int64), 6, {"seed": 9})
        np.testing.assert_array_equal(wide, expected)

    @pytest.mark.parametrize(
        "options",
        [{"niter": 1}, {"ufactor": 100}, {"ncuts": 3}, {"minconn": 1}, {"ctype": 0}, {"no2hop": 1}],
    )
    def test_options(self, options):
        g = load_shared("ca-GrQc")
        np.testing.assert_array_equal(
            metis_parts(g, 6, seed=2, options=options), _pymetis_labels(g, 6, seed=2, **options)
        )

    def test_contiguous_parts(self):
        g = karate_graph()  # connected: METIS refuses contig=1 on a disconnected graph
        np.testing.assert_array_equal(
            metis_parts(g, 4, seed=1, options={"contig": 1}),
            _pymetis_labels(g, 4, seed=1, contig=1),
        )
        with pytest.raises(RuntimeError, match="METIS_PartGraphKway failed"):
            metis_parts(ZOO["two_components"], 2, options={"contig": 1})

    @pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
    def test_a_failed_call_leaves_the_signal_mask_as_it_was(self):
        # METIS fails by raising SIGTERM at itself and longjmp-ing out of the handler, which
        # left SIGTERM blocked in the calling thread (and in every process it then spawned)
        before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        with pytest.raises(RuntimeError, match="METIS_PartGraphKway failed"):
            metis_parts(ZOO["two_components"], 2, options={"contig": 1})
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
        assert signal.SIGTERM not in before


class TestWithoutPymetis:
    def test_built_in_path_needs_no_pymetis(self, monkeypatch):
        g = load_shared("ca-GrQc")
        expected = metis_parts(g, 5, seed=4)
        monkeypatch.setitem(sys.modules, "pymetis", None)  # `import pymetis` now raises
        with pytest.raises(ImportError):
            import pymetis  # noqa: F401
        labels = metis_parts(g, 5, seed=4)
        np.testing.assert_array_equal(labels, expected)
        counts = np.bincount(labels, minlength=5)
        assert counts.min() > 0 and counts.max() <= 1.03 * g.n / 5 + 1

    def test_maxvar_runs_without_pymetis(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "pymetis", None)
        ug, report = gv.anonymize.maxvar(karate_graph(), n_potential=20, parts=2, seed=1)
        assert ug.n == 34 and np.bincount(report["labels"]).size == 2

    def test_the_module_exports_no_metis_symbol(self):
        # Hidden visibility: a process that also loads pymetis's METIS keeps the two apart.
        if not sys.platform.startswith("linux"):
            pytest.skip("nm -D reads ELF")
        nm = subprocess.run(
            ["nm", "-D", "--defined-only", _core.__file__], capture_output=True, text=True
        )
        if nm.returncode != 0:
            pytest.skip("nm is not available")
        assert "METIS_" not in nm.stdout and "libmetis__" not in nm.stdout


class TestOptionsChecked:
    def test_unknown_and_bad_values(self):
        g = ZOO["path5"]
        with pytest.raises(ValueError, match="not a METIS option: bogus=1; the options are ptype"):
            metis_parts(g, 2, options={"bogus": 1})
        with pytest.raises(ValueError, match="METIS option niter must be an integer"):
            metis_parts(g, 2, options={"niter": "many"})
        with pytest.raises(ValueError, match="does not fit"):
            metis_parts(g, 2, options={"niter": 2**70})
        with pytest.raises(ValueError, match="numbering must be 0"):
            metis_parts(g, 2, options={"numbering": 1})

    def test_binding_refuses_wrong_dtypes_and_names(self):
        g = ZOO["path5"]
        with pytest.raises(TypeError):
            _core.metis_part_kway(g.indptr, g.indices.astype(np.int32), 2, {})
        with pytest.raises(ValueError, match="not a METIS option: nope"):
            _core.metis_part_kway(g.indptr, g.indices.astype(np.int64), 2, {"nope": 1})
        with pytest.raises(ValueError, match="indptr"):
            _core.metis_part_kway(g.indptr[:-1], g.indices.astype(np.int64), 2, {})

    def test_option_names_are_pymetis_names(self):
        pymetis = pytest.importorskip("pymetis")
        for name in _core.metis_option_names:
            assert isinstance(getattr(pymetis.Options(), name), int), name


class TestOsqpIsOptional:
    def test_missing_osqp_says_which_extra(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "osqp", None)
        with pytest.raises(ImportError, match=r'pip install "graphveil\[osqp\]"'):
            gv.anonymize.maxvar(karate_graph(), n_potential=20, parts=2, seed=1, solver="osqp")
        ug, _ = gv.anonymize.maxvar(
            karate_graph(), n_potential=20, parts=2, seed=1
        )  # the default needs none
        assert ug.n == 34

    def test_cli_says_it_in_one_line(self, monkeypatch, tmp_path, capsys):
        from graphveil.cli import main

        monkeypatch.setitem(sys.modules, "osqp", None)
        argv = ["anonymize", "maxvar", "--dataset", "karate_club", "--n-potential", "20"]
        argv += ["--parts", "2", "--solver", "osqp", "--seed", "1", "-o", str(tmp_path / "o.npz")]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1] == (
            'graphveil: error: this needs osqp, which is not installed: pip install "graphveil[osqp]"'
        ), err
        assert not (tmp_path / "o.npz").exists()


class TestWheelsWorkflow:
    def test_workflow_is_valid_yaml_with_the_matrix(self):
        yaml = pytest.importorskip("yaml")
        workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text())
        jobs = workflow["jobs"]
        assert {"build_wheels", "build_sdist", "publish"} <= set(jobs)
        runners = {entry["os"] for entry in jobs["build_wheels"]["strategy"]["matrix"]["include"]}
        assert len(runners) == 5  # Linux x86_64 + aarch64, macOS x86_64 + arm64, Windows AMD64
        assert jobs["publish"]["permissions"]["id-token"] == "write"  # trusted publishing
        # YAML 1.1 reads the key `on` as True
        assert "tags" in str(workflow.get("on", workflow.get(True)))
