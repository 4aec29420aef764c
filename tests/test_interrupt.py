"""Long kernels stop on a signal: Ctrl-C and SIGTERM in the CLI, a stop request from Python.

Each C++ kernel polls for a stop every few milliseconds of work (cpp/include/graphveil/
interrupt.hpp). The kernel called directly would run for hours; the commands run EdgeSwitch at
its bound (100 switches per edge) on a million edges, tens of seconds. The timeouts only keep a
broken build from hanging the suite, they are not timing claims.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import graphveil as gv
from graphveil import _core

#: Far more than any test waits: a kernel that ignores the stop would run for hours.
_HOURS = 10**12


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> tuple[str, int]:
    """An edge list of a million edges and the most switches EdgeSwitch takes on it."""
    from graphveil.anonymize._switching import MAX_SWITCHES_PER_EDGE

    g = gv.generators.powerlaw_cluster(200_000, 5, 0.1, seed=1)
    path = tmp_path_factory.mktemp("big") / "big.txt"
    gv.io.write_edgelist(g, path, keep_ids=True)
    return str(path), MAX_SWITCHES_PER_EDGE * g.m


def _start(args: list[str], tmp_path) -> subprocess.Popen[str]:
    env = dict(os.environ, GRAPHVEIL_DATA_DIR=str(tmp_path / "cache"))
    return subprocess.Popen(
        [sys.executable, "-m", "graphveil", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )


def _signal_once_running(proc: subprocess.Popen[str], marker: str, signum: int) -> str:
    """Send ``signum`` once stderr shows ``marker`` (the kernel is about to start); stderr."""
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if marker in line:
            break
    else:
        pytest.fail(f"the command ended before {marker!r}: {''.join(seen)}")
    time.sleep(0.5)  # inside the kernel by now
    proc.send_signal(signum)
    try:
        rest = proc.communicate(timeout=120)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running 120 s after signal {signum}")
    return "".join(seen) + rest


@pytest.mark.parametrize(
    ("signum", "word"), [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated")]
)
def test_edge_switch_stops_on_a_signal(tmp_path, big, signum, word):
    out = tmp_path / "x.npz"
    graph, most = big
    args = ["anonymize", "edge_switch", graph, "-s", str(most)]
    proc = _start([*args, "-o", str(out)], tmp_path)
    err = _signal_once_running(proc, "EdgeSwitch on", signum)
    assert proc.returncode == 128 + signum, err
    assert err.strip().splitlines()[-1] == f"graphveil: {word}; no partial output was left"
    assert "Traceback" not in err
    assert not out.exists()


def test_a_study_stops_its_running_kernels_on_ctrl_c(tmp_path, big):
    # The study runs kernels on pool threads; Ctrl-C reaches the main thread, which stops them.
    from graphveil.anonymize._switching import MAX_SWITCHES_PER_EDGE

    proc = _start(
        [
            "reproduce",
            big[0],
            "--schemes",
            "edge_switch",
            "--grid",
            f"edge_switch={MAX_SWITCHES_PER_EDGE}",
            "--samples",
            "1",
            "--k",
            "5",
            "--no-figures",
            "--no-attacks",
            "-o",
            str(tmp_path / "study"),
        ],
        tmp_path,
    )
    err = _signal_once_running(proc, "anonymizing", signal.SIGINT)
    assert proc.returncode == 130, err
    assert "Traceback" not in err


def test_stop_kernels_stops_a_kernel_on_another_thread():
    g = gv.datasets.load("karate_club")
    caught: list[BaseException] = []

    def run() -> None:
        try:
            _core.edge_switch(g.indptr, g.indices, _HOURS, False, 1)
        except BaseException as exc:  # noqa: BLE001 -- what the kernel raised is the result
            caught.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.2)
    _core.stop_kernels()
    worker.join(timeout=120)
    assert not worker.is_alive()
    assert len(caught) == 1 and isinstance(caught[0], KeyboardInterrupt)
    # a kernel started after the request runs to its end, with the usual output
    u, _v, performed = _core.edge_switch(g.indptr, g.indices, 1000, False, 1)
    assert u.size == g.m and 0 < performed <= 1000
