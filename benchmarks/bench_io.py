"""Edge-list reading: graphveil.read_edgelist raced against networkx.read_edgelist and
numpy.loadtxt on web-NotreDame (1.5M lines), and the peak memory of reading a 3M-edge graph.

Targets (issue 2): read_edgelist(web-NotreDame.txt.gz) <= 1.0 s on a 2-core machine; reading and
holding a 3M-edge graph < 300 MB peak RSS above the interpreter with graphveil imported.

Run:  python -m pytest benchmarks/bench_io.py --benchmark-only
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import graphveil as gv
from graphveil import _core

# web-NotreDame read as undirected (SOURCES.md).
ND_NODES, ND_EDGES, ND_LOOPS, ND_LINES = 325_729, 1_090_108, 27_455, 1_497_134

MEMORY_EDGES = 3_000_000
MEMORY_LIMIT_MB = 300.0


@pytest.fixture(scope="module")
def notre_dame_plain(notre_dame_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("io") / "web-NotreDame.txt"
    path.write_bytes(gzip.decompress(notre_dame_path.read_bytes()))
    return path


def check_notre_dame(graph: gv.Graph) -> None:
    assert (graph.n, graph.m) == (ND_NODES, ND_EDGES)
    assert graph.build_counts.self_loops == ND_LOOPS


@pytest.mark.benchmark(group="read_edgelist web-NotreDame")
def test_graphveil_gz(benchmark, notre_dame_path):
    check_notre_dame(benchmark(gv.read_edgelist, notre_dame_path))


@pytest.mark.benchmark(group="read_edgelist web-NotreDame")
def test_graphveil_plain(benchmark, notre_dame_plain):
    check_notre_dame(benchmark(gv.read_edgelist, notre_dame_plain))


@pytest.mark.benchmark(group="read_edgelist web-NotreDame")
def test_graphveil_plain_one_thread(benchmark, notre_dame_plain):
    check_notre_dame(benchmark(gv.read_edgelist, notre_dame_plain, threads=1))


@pytest.mark.benchmark(group="read_edgelist web-NotreDame")
def test_numpy_loadtxt(benchmark, notre_dame_plain):
    # Only the int64 pair array: no relabelling, no deduplication, no graph.
    pairs = benchmark.pedantic(
        np.loadtxt, args=(notre_dame_plain,), kwargs={"dtype": np.int64}, rounds=2
    )
    assert pairs.shape == (ND_LINES, 2)


@pytest.mark.benchmark(group="read_edgelist web-NotreDame")
def test_networkx_read_edgelist(benchmark, notre_dame_plain):
    nx = pytest.importorskip("networkx")
    graph = benchmark.pedantic(
        nx.read_edgelist, args=(notre_dame_plain,), kwargs={"nodetype": int}, rounds=1
    )
    graph.remove_edges_from(list(nx.selfloop_edges(graph)))
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (ND_NODES, ND_EDGES)


# ---------------------------------------------------------------------- peak memory

# Peak RSS of a fresh interpreter: VmHWM from /proc where there is one. ru_maxrss is the fallback
# only, because Linux carries the parent's high-water mark over fork + exec into the child's
# ru_maxrss (a benchmark process holding big graphs would mask the child's own peak).
_PROBE = """
import json, resource, sys

def peak_kb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    scale = 1 / 1024 if sys.platform == "darwin" else 1  # ru_maxrss: bytes on macOS, KiB on Linux
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale)

import graphveil as gv
base = peak_kb()
g = gv.read_edgelist(sys.argv[1])
print(json.dumps({"n": g.n, "m": g.m, "base_kb": base, "peak_kb": peak_kb()}))
"""


@pytest.fixture(scope="module")
def edge_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """MEMORY_EDGES distinct random edges (random direction), as dense 0..1e6 ids in plain text
    and gzip, and as sparse 40-bit ids (the sort-based relabelling path); name -> (path, n)."""
    directory = tmp_path_factory.mktemp("io-memory")
    rng = np.random.default_rng(2015)
    nodes = 1_000_000
    draw = int(MEMORY_EDGES * 1.01)
    a, b = rng.integers(0, nodes, size=draw), rng.integers(0, nodes, size=draw)
    keys = np.unique(np.minimum(a, b) * nodes + np.maximum(a, b))
    keys = keys[(keys // nodes) != (keys % nodes)]
    drop = rng.choice(keys.size, size=keys.size - MEMORY_EDGES, replace=False)
    keys = np.delete(keys, drop)
    flip = rng.random(keys.size) < 0.5
    u = np.where(flip, keys % nodes, keys // nodes)
    v = np.where(flip, keys // nodes, keys % nodes)
    n = int(np.count_nonzero(np.bincount(np.concatenate([u, v]), minlength=nodes)))
    dense = _core.format_edgelist(u, v, "\t", 0).tobytes()
    ids = np.sort(rng.choice(2**40, size=nodes, replace=False)).astype(np.int64)
    sparse = _core.format_edgelist(ids[u], ids[v], "\t", 0).tobytes()
    files = {"dense-plain": dense, "dense-gz": gzip.compress(dense, 1), "sparse-plain": sparse}
    out = {}
    for name, blob in files.items():
        path = directory / (name + (".txt.gz" if name.endswith("gz") else ".txt"))
        path.write_bytes(blob)
        out[name] = (path, n)
    return out


@pytest.mark.benchmark(group="read_edgelist peak memory 3M edges")
@pytest.mark.parametrize("kind", ["dense-plain", "dense-gz", "sparse-plain"])
def test_peak_memory_3m_edges(benchmark, edge_files, kind):
    path, n = edge_files[kind]
    m = MEMORY_EDGES

    def probe() -> dict:
        out = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path)], check=True, capture_output=True, text=True
        )
        # The last line: an editable dev install may print its rebuild log first.
        return json.loads(out.stdout.strip().splitlines()[-1])

    result = benchmark.pedantic(probe, rounds=1)
    assert (result["n"], result["m"]) == (n, m)
    extra_mb = (result["peak_kb"] - result["base_kb"]) / 1024
    benchmark.extra_info.update(
        peak_rss_above_import_mb=round(extra_mb, 1),
        file_mb=round(path.stat().st_size / 2**20, 1),
        nodes=n,
        edges=m,
    )
    print(f"\n{path.name}: peak RSS {extra_mb:.1f} MB above import")
    assert extra_mb < MEMORY_LIMIT_MB  # a memory bound, not a timing


# ---------------------------------------------------------------------- TSV releases
# A release the size of an anonymized web-NotreDame (2.2M pairs on 325,729 nodes), synthesized
# (seeded) rather than anonymized: the reader's cost depends on the lines, not on the scheme.
RELEASE_PAIRS = 2_200_000


@pytest.fixture(scope="module")
def release_tsv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, gv.UncertainGraph]:
    rng = np.random.default_rng(25)
    a, b = rng.integers(0, ND_NODES, (2, 2 * RELEASE_PAIRS))
    keys = np.unique(np.minimum(a, b) * ND_NODES + np.maximum(a, b))
    keys = rng.permutation(keys[keys // ND_NODES != keys % ND_NODES])[:RELEASE_PAIRS]
    u, v = keys // ND_NODES, keys % ND_NODES
    ug = gv.UncertainGraph(ND_NODES, u, v, rng.random(RELEASE_PAIRS))
    path = tmp_path_factory.mktemp("release") / "web-NotreDame-release.tsv"
    ug.save(path, keep_ids=True)
    return path, ug


@pytest.mark.benchmark(group="read TSV release 2.2M pairs")
def test_graphveil_load_tsv_release(benchmark, release_tsv):
    path, ug = release_tsv
    back = benchmark(gv.load_uncertain, path)
    assert back == ug  # exact: the same float64 p as float() gives for every line


@pytest.mark.benchmark(group="read TSV release 2.2M pairs")
def test_pandas_read_csv_tsv_release(benchmark, release_tsv):
    pd = pytest.importorskip("pandas")
    path, ug = release_tsv

    def read() -> object:
        return pd.read_csv(path, sep="\t", header=None, names=["u", "v", "p"])

    df = benchmark(read)
    assert np.array_equal(df["u"].to_numpy(), ug.u) and np.array_equal(df["v"].to_numpy(), ug.v)
    # pandas' default float parser is not always correctly rounded: within one ulp
    assert np.allclose(df["p"].to_numpy(), ug.p, rtol=1e-15, atol=0)
