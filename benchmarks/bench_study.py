"""The whole study at scale: locally, through a 2-worker Dask LocalCluster, and its memory.

Minutes each, so they run only with --benchmark-only:
python -m pytest benchmarks/bench_study.py --benchmark-only
Budgets (issue 13, on a quiet 2-core machine): web-NotreDame full faithful study <= 5 min and
< 1 GB peak; the same through the cluster no slower and with identical tables; synthetic
youtube with 5 samples <= 8 min, <= 3 GB; one evaluate with 20 samples holds G0 plus about one
sample (benchmarks/study_memory.py prints the figures).
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from graph_zoo import load_shared

from graphveil import experiments as ex
from graphveil.cluster import executor_for


def _big(request) -> None:
    if request.config.getoption("benchmark_disable"):
        pytest.skip("minutes: --benchmark-only runs it")


def _tables(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("table_*"))}


@pytest.mark.benchmark(group="study web-NotreDame")
def test_study_notredame_local(benchmark, request, tmp_path):
    _big(request)
    g0 = load_shared("web-NotreDame")
    benchmark.pedantic(
        lambda: ex.reproduce(
            g0, graph_name="web-NotreDame", out_dir=tmp_path / "local", figures=False
        ),
        rounds=1,
        iterations=1,
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    benchmark.extra_info.update(peak_rss_mb=peak_mb)


@pytest.mark.benchmark(group="study web-NotreDame")
def test_study_notredame_two_dask_workers(benchmark, request, tmp_path):
    _big(request)
    pytest.importorskip("distributed")
    g0 = load_shared("web-NotreDame")
    local = tmp_path / "local"
    ex.reproduce(
        g0, ex.StudyConfig(samples=2), graph_name="web-NotreDame", out_dir=local, figures=False
    )
    with executor_for("local:2") as cluster:  # what --scheduler local:2 starts
        benchmark.pedantic(
            lambda: ex.reproduce(
                g0,
                ex.StudyConfig(samples=2),
                graph_name="web-NotreDame",
                out_dir=tmp_path / "dask",
                figures=False,
                executor=cluster,
            ),
            rounds=1,
            iterations=1,
        )
    assert _tables(local) == _tables(tmp_path / "dask")


def test_evaluate_holds_one_sample(request):
    _big(request)
    script = Path(__file__).with_name("study_memory.py")
    out = subprocess.run(
        [sys.executable, str(script), "web-NotreDame", "20"],
        capture_output=True,
        text=True,
        check=True,
    )
    print(out.stdout)
