"""Shared test data: a zoo of tiny hand-built graphs and paths to the real graphs.

The real graphs are searched in $GRAPHVEIL_DATA_DIR, ../shared/data beside the checkout, then
~/.cache/graphveil (:data:`DATA_DIRS`); a test whose graph is in none of them is skipped, saying
which and what to do, and conftest.py counts such skips at the end of the run.

Imported as ``from graph_zoo import ...`` (a module name of its own: ``conftest`` is ambiguous when
pytest collects tests/ and benchmarks/ in one run).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import graphveil as gv

#: The environment variable naming a folder of real graphs, ``<name>.txt.gz`` as SNAP and
#: ``graphveil datasets fetch NAME`` write them: the package's own download folder
#: (:func:`graphveil.datasets.cache_dir`), searched first by the tests.
DATA_ENV = "GRAPHVEIL_DATA_DIR"

#: The start of every skip for a missing real graph; conftest.py counts them in the summary.
MISSING_GRAPH = "real graph not found:"


def _shared_data() -> Path:
    # The project sits beside ../shared (in /work/main and in a helper's /work/wt/<name> alike).
    here = Path(__file__).resolve()
    for parent in here.parents[1:]:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return here.parents[1].parent / "shared" / "data"


def _data_dirs() -> tuple[Path, ...]:
    """The folders of real graphs, in search order: $GRAPHVEIL_DATA_DIR, ../shared/data beside the
    checkout, then ~/.cache/graphveil when the variable is unset (where ``fetch`` puts them).

    Read once, as the tests start: some tests point the variable at an empty cache of their own.
    """
    env = os.environ.get(DATA_ENV)
    folders = [Path(env).expanduser()] if env else []
    folders.append(_shared_data())
    if not env:
        folders.append(gv.datasets.cache_dir())
    return tuple(dict.fromkeys(folders))


DATA_DIRS = _data_dirs()


def real_graph_files() -> dict[str, Path]:
    """Every real graph file ``<name>.txt.gz`` of :data:`DATA_DIRS`, by name (the first folder's)."""
    found: dict[str, Path] = {}
    for folder in reversed(DATA_DIRS):
        found.update({p.name.removesuffix(".txt.gz"): p for p in folder.glob("*.txt.gz")})
    return dict(sorted(found.items()))


def missing_graph(name: str) -> str:
    """Why a test of real graph ``name`` is skipped, and what to do about it."""
    where = ", ".join(f"{d}{'' if d.is_dir() else ' (absent)'}" for d in DATA_DIRS)
    return (
        f"{MISSING_GRAPH} no {name}.txt.gz in {where}: set {DATA_ENV} to a folder holding it, "
        f"or fetch it there with `graphveil datasets fetch {name}`"
    )


def _zoo() -> dict[str, gv.Graph]:
    def g(edges, n):
        u = np.array([a for a, _ in edges], dtype=np.int64)
        v = np.array([b for _, b in edges], dtype=np.int64)
        return gv.Graph.from_edges(u, v, n)

    return {
        "empty": g([], 0),
        "one_node": g([], 1),
        "isolated3": g([], 3),
        "single_edge": g([(0, 1)], 2),
        "path5": g([(i, i + 1) for i in range(4)], 5),
        "star6": g([(0, i) for i in range(1, 7)], 7),
        "triangle": g([(0, 1), (1, 2), (0, 2)], 3),
        "clique5": g([(i, j) for i in range(5) for j in range(i + 1, 5)], 5),
        "two_components": g([(0, 1), (1, 2), (0, 2), (3, 4), (4, 5)], 6),
        "with_isolated": g([(0, 1), (1, 2), (2, 3), (3, 0)], 6),
        "paper_example": g([(0, 1), (0, 2), (0, 3), (1, 2)], 4),
    }


ZOO = _zoo()


def shared_graph_path(name: str) -> Path:
    """The file of a real graph: the first of :data:`DATA_DIRS` holding it, or the package's own
    copy of an embedded one; skips the test (:func:`missing_graph`) if there is none.

    ca-GrQc and karate_club ship inside the package (byte-identical to ../shared/data's), so
    the tests that read them run on a machine without the data folder (CI on a fresh clone).
    """
    for folder in DATA_DIRS:
        path = folder / f"{name}.txt.gz"
        if path.is_file():
            return path
    embedded = gv.datasets.EMBEDDED_DIR / f"{name}.txt.gz"
    if embedded.exists():
        return embedded
    pytest.skip(missing_graph(name))


def load_shared(name: str) -> gv.Graph:
    """A real graph (:func:`shared_graph_path`), read with graphveil.read_edgelist (skips if absent)."""
    return gv.read_edgelist(shared_graph_path(name))


def karate_graph() -> gv.Graph:
    """Zachary's karate club (34 nodes, 78 edges), as networkx ships it."""
    import networkx as nx

    return gv.Graph.from_networkx(nx.karate_club_graph())


def oriented_digraph(n: int, k: int, seed: int, mutual: float = 0.3) -> gv.Graph:
    """A clustered digraph: powerlaw_cluster's edges, each oriented at random, a share mutual."""
    g = gv.generators.powerlaw_cluster(n, k, 0.5, seed=seed)
    rng = np.random.default_rng(seed)
    u, v = g.edges()
    flip = rng.random(u.size) < 0.5
    a, b = np.where(flip, v, u), np.where(flip, u, v)
    both = rng.random(u.size) < mutual
    return gv.Graph.from_edges(np.r_[a, b[both]], np.r_[b, a[both]], n, directed=True)


def authors_random_walk_transform(
    g: gv.Graph,
    t: int,
    max_tries: int,
    alpha: float,
    rng: np.random.Generator,
    degree_one: float = 0.5,
):
    """A plain-Python transcription of the authors' random_walk_transform(G, t, M, alpha).

    The reference for RandWalk / RandWalk-mod (tests and benchmarks): one output graph filled in
    node order; a walk is repeated while its end is u or already linked to u (either direction),
    at most max_tries walks (the authors' counter allowed M - 1; NOTES.md says M). Returns the
    edge set {(a, b): a < b}, the failed walks and their summed acceptance probabilities.
    ``degree_one`` is the keep probability of a degree-1 node's walk: 0.5 in the authors' code,
    1 in the printed Algorithm 1.
    """
    nbrs = [g.neighbors(u).tolist() for u in range(g.n)]
    out: set[tuple[int, int]] = set()
    failed, lost = 0, 0.0
    for u in range(g.n):
        d = len(nbrs[u])
        for k, v in enumerate(nbrs[u]):
            q = degree_one if d == 1 else (alpha if k == 0 else (0.5 * d - alpha) / (d - 1))
            z, tries = u, 0
            while (z == u or (u, z) in out) and tries < max_tries:
                z = v
                for _ in range(t - 1):
                    z = nbrs[z][int(rng.integers(len(nbrs[z])))]
                tries += 1
            if z == u or (u, z) in out:
                failed += 1
                lost += q
                continue
            if rng.random() < q:
                out.add((u, z))
                out.add((z, u))
    return {(a, b) for a, b in out if a < b}, failed, lost


def cli_parsers(parser, path=()):
    """Every (command path, parser) reachable from the CLI's ``parser`` (its subcommands too)."""
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from cli_parsers(sub, (*path, name))
