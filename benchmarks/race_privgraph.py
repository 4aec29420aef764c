"""graphveil's PrivGraph against the authors' code (Privacy-Graph/PrivGraph) at epsilon = 1.5.

A benchmark script, not a test. The authors' ``main.main_func`` runs unchanged from a checkout
of their repository (``--authors DIR``; it needs python-louvain, networkx, pandas and
scikit-learn) on the same edge list, with two shims that change no result: pandas >= 2 lost
``DataFrame.append`` (given back as ``pd.concat``), and the module's ``nx`` is wrapped to note
when each release is turned into a graph, which times their generation alone (community
initialisation to the synthetic adjacency matrix). Their script prints, per release, the NMI of
python-louvain's communities on G0 and on the release and the overlap of the top-1% nodes by
eigenvector centrality; graphveil's releases are scored here by the same definitions
(python-louvain ``best_partition``, scikit-learn's NMI, networkx's ``eigenvector_centrality``
with ``max_iter=10000``, top ``int(0.01 n)`` nodes).

Run::

    git --git-dir=<mirror of Privacy-Graph/PrivGraph> archive HEAD | tar -x -C /tmp/pg
    python benchmarks/race_privgraph.py --authors /tmp/pg --runs 5
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import os
import re
import sys
import time
import types
from pathlib import Path

import numpy as np

import graphveil as gv
from graphveil.anonymize import privgraph

EPSILON = 1.5
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "facebook_combined.txt.gz"


def scores(g0, release, partition0, top0: list[int]) -> tuple[float, float]:
    """(NMI of python-louvain's communities, top-1% eigenvector overlap), as the authors define."""
    import community
    import networkx as nx
    from sklearn import metrics

    graph = nx.Graph()
    graph.add_nodes_from(range(g0.number_of_nodes()))
    graph.add_edges_from(zip(release.u.tolist(), release.v.tolist(), strict=True))
    partition = community.best_partition(graph)
    nodes = sorted(graph.nodes())
    nmi = metrics.normalized_mutual_info_score(
        [partition0[v] for v in nodes], [partition[v] for v in nodes]
    )
    centrality = nx.eigenvector_centrality(graph, max_iter=10000)
    top = sorted(centrality, key=centrality.get, reverse=True)[: len(top0)]
    return float(nmi), len(set(top) & set(top0)) / len(top0)


def graphveil_runs(path: Path, runs: int) -> list[tuple[float, float, float]]:
    import community
    import networkx as nx

    g = gv.read_edgelist(path)
    g0 = g.to_networkx()
    partition0 = community.best_partition(g0)
    centrality = nx.eigenvector_centrality(g0, max_iter=10000)
    top0 = sorted(centrality, key=centrality.get, reverse=True)[: int(0.01 * g.n)]
    out = []
    for seed in range(runs):
        start = time.perf_counter()
        release = privgraph(g, epsilon=EPSILON, seed=seed).graph
        seconds = time.perf_counter() - start
        nmi, overlap = scores(g0, release, partition0, top0)
        out.append((nmi, overlap, seconds))
        print(f"graphveil  run {seed}: nmi {nmi:.4f} overlap {overlap:.4f} time {seconds:.2f} s")
    return out


def authors_runs(checkout: Path, path: Path, runs: int) -> list[tuple[float, float, float]]:
    """Their main_func on the same graph, their own printed NMI and overlap, their time."""
    import networkx
    import pandas as pd

    if not hasattr(pd.DataFrame, "append"):  # removed in pandas 2.0; their script calls it
        pd.DataFrame.append = lambda self, other: pd.concat([self, other])  # type: ignore[attr-defined]
    data = checkout / "data" / "race_facebook.txt"
    with gzip.open(path, "rt") as src:
        data.write_text("".join(line for line in src if not line.startswith("#")))
    sys.path.insert(0, str(checkout))
    os.chdir(checkout)
    import main  # the authors' main.py

    marks: list[float] = []
    original_init = main.community_init

    def timed_init(*args, **kwargs):
        marks.append(time.perf_counter())
        return original_init(*args, **kwargs)

    def from_numpy_array(matrix, *args, **kwargs):
        marks.append(time.perf_counter())
        return networkx.from_numpy_array(matrix, *args, **kwargs)

    main.community_init = timed_init
    main.nx = types.SimpleNamespace(
        **{k: getattr(networkx, k) for k in dir(networkx) if not k.startswith("__")}
    )
    main.nx.from_numpy_array = from_numpy_array
    np.random.seed(1)
    __import__("random").seed(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main.main_func(dataset_name="race_facebook", eps=[EPSILON], exp_num=runs)
    text = printed.getvalue()
    figures = re.findall(r"nmi=([0-9.]+).*?evc_overlap=([0-9.]+)", text)
    # marks: G0's graph, then per run: community_init, the release's graph
    times = [marks[2 + 2 * r] - marks[1 + 2 * r] for r in range(runs)]
    out = []
    for r, ((nmi, overlap), seconds) in enumerate(zip(figures, times, strict=True)):
        out.append((float(nmi), float(overlap), seconds))
        print(
            f"authors    run {r}: nmi {float(nmi):.4f} overlap {float(overlap):.4f} time {seconds:.2f} s"
        )
    return out


def main_cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors", type=Path, help="a checkout of Privacy-Graph/PrivGraph")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = {"graphveil": graphveil_runs(args.data, args.runs)}
    if args.authors is not None:
        rows["authors"] = authors_runs(args.authors.resolve(), args.data.resolve(), args.runs)
    print(f"\nfacebook_combined, epsilon = {EPSILON}, {args.runs} releases each (mean, sd)")
    for name, values in rows.items():
        a = np.array(values)
        mean, sd = a.mean(axis=0), a.std(axis=0, ddof=1) if len(a) > 1 else np.zeros(3)
        print(
            f"{name:10s} NMI {mean[0]:.3f} ({sd[0]:.3f})  top-1% eigenvector overlap "
            f"{mean[1]:.3f} ({sd[1]:.3f})  generation {mean[2]:.2f} s ({sd[2]:.2f})"
        )


if __name__ == "__main__":
    main_cli()
