"""The default thread count follows the CPUs the process was given (issue 13, item 2)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest
from graph_zoo import karate_graph

import graphveil as gv
from graphveil.anonymize import maxvar

ENV = "GRAPHVEIL_NUM_THREADS"
PRINT_DEFAULT = "import graphveil; print(graphveil.default_threads())"


def _default_in_subprocess(prefix: list[str], env: dict[str, str] | None = None) -> int:
    child_env = {k: v for k, v in os.environ.items() if k not in (ENV, "OMP_NUM_THREADS")}
    child_env.update(env or {})
    out = subprocess.run(
        [*prefix, sys.executable, "-c", PRINT_DEFAULT],
        env=child_env,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


@pytest.fixture(autouse=True)
def _no_override(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)  # a runner's limit would win too


def test_default_is_positive_and_within_affinity():
    n = gv.default_threads()
    assert n >= 1
    if hasattr(os, "sched_getaffinity"):
        assert n <= len(os.sched_getaffinity(0))
    else:
        assert n <= (os.cpu_count() or 1)


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) not installed")
def test_taskset_one_cpu_gives_one_thread():
    assert _default_in_subprocess(["taskset", "-c", "0"]) == 1


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) not installed")
def test_override_beats_affinity():
    assert _default_in_subprocess(["taskset", "-c", "0"], {ENV: "3"}) == 3


@pytest.mark.parametrize("value, expected", [("3", 3), (" 7 ", 7), ("1", 1), ("65536", 65536)])
def test_override(monkeypatch, value, expected):
    monkeypatch.setenv(ENV, value)
    assert gv.default_threads() == expected


def test_empty_override_is_unset(monkeypatch):
    expected = gv.default_threads()
    monkeypatch.setenv(ENV, "  ")
    assert gv.default_threads() == expected


@pytest.mark.parametrize("value", ["0", "-2", "1.5", "four", "65537", "99999999999", "3 4"])
def test_bad_override_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv(ENV, value)
    with pytest.raises(
        ValueError, match=rf"GRAPHVEIL_NUM_THREADS must be a whole number .*got '{value}'"
    ):
        gv.default_threads()


def test_kernels_consult_the_override_only_for_the_default(monkeypatch, tmp_path):
    path = tmp_path / "edges.txt"
    path.write_text("0 1\n1 2\n")
    monkeypatch.setenv(ENV, "zero")
    with pytest.raises(ValueError, match="GRAPHVEIL_NUM_THREADS"):
        gv.read_edgelist(path)
    assert gv.read_edgelist(path, threads=2).m == 2


def test_maxvar_pool_and_kernels_give_the_same_result_for_any_default(monkeypatch):
    g = karate_graph()
    runs = []
    for count in ("1", "3"):
        monkeypatch.setenv(ENV, count)
        ug = maxvar(g, n_potential=40, parts=2, seed=11, allow_fewer=True).graph
        runs.append((ug.u, ug.v, ug.p))
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


CGROUP_V1_CPU = Path("/sys/fs/cgroup/cpu")


@pytest.mark.skipif(
    not (sys.platform.startswith("linux") and os.access(CGROUP_V1_CPU, os.W_OK)),
    reason="needs a writable cgroup v1 cpu hierarchy (root on a v1 or hybrid host)",
)
def test_cgroup_v1_quota_caps_the_default():
    # A child cgroup with half a CPU of quota: the default rounds it up to one thread.
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU already: a quota of one would not be seen")
    group = CGROUP_V1_CPU / f"graphveil-test-{uuid.uuid4().hex[:8]}"
    try:
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text("100000")
        (group / "cpu.cfs_quota_us").write_text("50000")
    except OSError as error:
        pytest.skip(f"cannot make a cgroup here: {error}")
    try:
        procs = group / "cgroup.procs"
        assert _default_in_subprocess(["sh", "-c", f'echo $$ > {procs} && exec "$0" "$@"']) == 1
    finally:
        group.rmdir()
