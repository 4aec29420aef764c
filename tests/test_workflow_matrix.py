"""Every default workflow, right or refused (issue 31, Deliver 2): one test id per cell.

The matrix, read from the registries (never from copied lists):

- every registered scheme (:mod:`graphveil.anonymize.registry`);
- undirected (karate) and directed (karate's edges as arcs, a third of them both ways);
- every release format (:data:`graphveil.io.FORMATS` entries that write a release);
- kept ids (``keep_ids=True``) and permuted ids with the private run record;
- each step of the default workflow: read the release back, ``graphveil evaluate``, every
  registered attack (``graphveil attack NAME``), ``graphveil sample``.

Each cell either gives the numbers of the in-memory workflow (the scheme's release measured
before it was written) or is refused with one line that names the reason. Which cells are refused
is decided here from the registries, before anything runs: a directed graph for a scheme whose
``Scheme.directed`` is False, and a format graphveil does not read back (``Format.read_release``
None). Every other cell must work.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest

import graphveil as gv
import graphveil.cli as graphveil_cli
from graphveil import evaluate
from graphveil._json import dumps
from graphveil.anonymize import mixture, randwalk, registry
from graphveil.attack import registry as attacks
from graphveil.cli import build_parser, main
from graphveil.experiments import StudyConfig
from graphveil.record import RunRecord, true_ids

SCHEMES = registry.names()
DIRECTIONS = ("undirected", "directed")
RELEASE_FORMATS = tuple(name for name, f in gv.io.FORMATS.items() if f.write_release is not None)
IDS = ("kept", "permuted")
STEPS = ("read", "evaluate", *(f"attack-{name}" for name in attacks.names()), "sample")

#: Few samples, one k: the matrix runs in seconds.
SAMPLES, SEED, K = 2, 5, 2
#: Each scheme at its first grid value, as tests/test_api.py runs it.
CONFIG = StudyConfig(samples=SAMPLES, obf_k=3, maxvar_parts=1, attacks=False)
#: Options of an attack for a 34-node graph: propagation's default 50 known seed pairs exceed it.
ATTACK_OPTIONS = {"propagation": {"seeds": 5}}
#: The reasons a cell may be refused for, as its one line names them.
NO_DIRECTED_FORM = "has no directed form"
NOT_READ_BACK = "not read back"


def expected_refusal(scheme: str, direction: str, fmt: str) -> str | None:
    """What the cell must be refused for (from the registries), or None: it must work."""
    if direction == "directed" and not registry.scheme(scheme).directed:
        return NO_DIRECTED_FORM
    if gv.io.FORMATS[fmt].read_release is None:
        return NOT_READ_BACK
    return None


# ---------------------------------------------------------------------- the graphs and releases
@cache
def true_graph(direction: str) -> gv.Graph:
    karate = gv.datasets.load("karate_club")
    if direction == "undirected":
        return karate
    u, v = karate.edges()
    both = np.arange(u.size) % 3 == 0  # an arc and its reverse, as every real digraph has
    return gv.Graph.from_edges(np.r_[u, v[both]], np.r_[v, u[both]], karate.n, directed=True)


def _directed_mixture(g: gv.Graph) -> gv.UncertainGraph:
    # the study mixes with RandWalk-mod, which has no directed form; mix with directed RandWalk
    return mixture(g, anonymized=randwalk(g, t=2, seed=1).graph, p=0.5).graph


#: A scheme whose study run has no directed form though the scheme has one: its directed run.
DIRECTED_RUNS = {"mixture": _directed_mixture}


@cache
def anonymized(scheme: str, direction: str) -> gv.UncertainGraph | str:
    """The scheme's release of the graph (in true ids), or the refusal's message."""
    record = registry.scheme(scheme)
    g = true_graph(direction)
    try:
        if direction == "directed" and scheme in DIRECTED_RUNS:
            return DIRECTED_RUNS[scheme](g)
        extra = {"prepared": record.prepare(g, CONFIG, 1)} if record.prepare else {}
        return record.study(g, record.default_grid[0], CONFIG, 1, **extra).graph
    except ValueError as err:
        return str(err)


@pytest.fixture(autouse=True)
def _one_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the matrix parsed by one parser, built once (argparse parsers are reusable)."""
    monkeypatch.setattr(graphveil_cli, "build_parser", _parser)


@cache
def _parser() -> Any:
    return build_parser()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("matrix")
    # a SNAP-style file: no graphveil header, so only --directed makes its lines arcs
    gv.write_edgelist(true_graph("directed"), path / "digraph.txt", keep_ids=True, header=False)
    return path


@cache
def published(folder: Path, scheme: str, direction: str, fmt: str, ids: str) -> tuple[Path, Path]:
    """The release written the default way (``save``, the one release path) and its record."""
    ug = anonymized(scheme, direction)
    assert isinstance(ug, gv.UncertainGraph), ug
    stem = folder / f"{scheme}-{direction}-{ids}"
    path = Path(f"{stem}{gv.io.FORMATS[fmt].suffixes[0]}")
    record = Path(f"{stem}-{fmt}.record.json")
    ug.save(path, keep_ids=ids == "kept", seed=1, format=fmt, record=record)
    return path, record


def graph_args(folder: Path, direction: str) -> list[str]:
    """The true graph on the command line: the embedded karate, or the digraph's file."""
    if direction == "undirected":
        return ["--dataset", "karate_club"]
    return ["--directed", os.fspath(folder / "digraph.txt")]


def _plain(value: Any) -> Any:
    """A result as the command line's --json writes it (nan as null), read back."""
    return json.loads(dumps(value, nan="null", lenient=True))


def run(capsys: pytest.CaptureFixture[str], *argv: Any) -> tuple[int, str, str]:
    """``graphveil ARGV`` (paths and numbers as text): exit status, stdout, stderr."""
    code = main([os.fspath(a) if isinstance(a, Path) else str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, reason: str) -> str:
    """The refusal: exactly one line, naming ``reason``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert reason in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------------- in-memory references
@cache
def reference_report(scheme: str, direction: str) -> Any:
    ug = anonymized(scheme, direction)
    g = true_graph(direction)
    return _plain(evaluate(g, ug, samples=SAMPLES, seed=SEED, k=[K], label="m").to_dict())


def attack_keywords(name: str) -> dict[str, Any]:
    """The attack's keywords as its command passes them with the defaults (and the matrix's)."""
    record = attacks.attack(name)
    out = {}
    for option in record.options:
        value = {"seed": SEED, "threads": None}.get(option.keyword, option.default)
        value = ATTACK_OPTIONS.get(name, {}).get(option.keyword, value)
        out[option.keyword] = value if option.convert is None else option.convert(value)
    return out


def attack_argv(name: str) -> list[str]:
    record = attacks.attack(name)
    argv = []
    for option in record.options:
        if option.keyword == "seed":
            argv += ["--seed", str(SEED)]
        elif option.keyword in ATTACK_OPTIONS.get(name, {}):
            argv += [option.flag, str(ATTACK_OPTIONS[name][option.keyword])]
    return argv


@cache
def reference_attack(scheme: str, direction: str, name: str) -> Any:
    ug = anonymized(scheme, direction)
    result = attacks.attack(name).function(true_graph(direction), ug, **attack_keywords(name))
    return _plain(result.as_dict())


# ---------------------------------------------------------------------- the steps
def record_args(ids: str, record: Path) -> list[str]:
    return ["--record", os.fspath(record)] if ids == "permuted" else []


def step_read(ug, folder, scheme, direction, fmt, ids, capsys) -> None:
    path, record = published(folder, scheme, direction, fmt, ids)
    back = gv.load_uncertain(path)
    assert back.ids_permuted is (ids == "permuted") and back.directed is ug.directed
    assert true_ids(back, RunRecord.load(record)) == ug  # the same pairs, p, model, direction
    carried = gv.load_uncertain(path, record=record)
    assert true_ids(carried) == ug


def step_evaluate(ug, folder, scheme, direction, fmt, ids, capsys) -> None:
    path, record = published(folder, scheme, direction, fmt, ids)
    want = reference_report(scheme, direction)
    api = evaluate(
        true_graph(direction),
        gv.load_uncertain(path),
        samples=SAMPLES,
        seed=SEED,
        k=[K],
        label="m",
        record=RunRecord.load(record),
    )
    assert _plain(api.to_dict()) == want
    code, out, err = run(
        capsys, "evaluate", *graph_args(folder, direction), path, *record_args(ids, record),
        "--samples", SAMPLES, "--seed", SEED, "--k", K, "--label", "m", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == want


def step_attack(name: str):
    def step(ug, folder, scheme, direction, fmt, ids, capsys) -> None:
        path, record = published(folder, scheme, direction, fmt, ids)
        code, out, err = run(
            capsys, "attack", name, *graph_args(folder, direction), path,
            *record_args(ids, record), *attack_argv(name), "--json",
        )  # fmt: skip
        assert code == 0, err
        assert json.loads(out) == reference_attack(scheme, direction, name)

    return step


def _edges(pairs: tuple[np.ndarray, np.ndarray], directed: bool) -> list[tuple[int, int]]:
    """Edges as sorted tuples (an undirected edge as (low, high)); copies kept."""
    u, v = (np.asarray(a, dtype=np.int64) for a in pairs)
    if not directed:
        u, v = np.minimum(u, v), np.maximum(u, v)
    return sorted(zip(u.tolist(), v.tolist()))


def step_sample(ug, folder, scheme, direction, fmt, ids, capsys) -> None:
    path, record = published(folder, scheme, direction, fmt, ids)
    out = folder / f"worlds-{scheme}-{direction}-{fmt}-{ids}"
    own = folder / f"worlds-{scheme}-{direction}-{fmt}-{ids}.record.json"
    directed = ["--directed"] if direction == "directed" else []
    code, stdout, err = run(
        capsys, "sample", path, *directed, "-o", out, "-n", SAMPLES, "--seed", SEED,
        "--record", own, "--json",
    )  # fmt: skip
    assert code == 0, err
    info = json.loads(stdout)
    release = gv.load_uncertain(path)
    multigraph = release.relaxed and not release.directed
    assert info["multigraph"] is multigraph and info["ids_permuted"] is True
    # the graph sampled: the release, under the sample's own permutation if its ids were true
    perm = RunRecord.load(own).permutation
    assert (perm is None) is (ids == "permuted")
    drawn = release
    if perm is not None:  # as UncertainGraph.with_permuted_ids builds it
        drawn = gv.UncertainGraph(
            release.n, perm[release.u], perm[release.v], release.p,
            relaxed=release.relaxed, directed=release.directed,
        )  # fmt: skip
    to_true = RunRecord.load(own).to_original  # file ids -> release ids
    to_true_release = RunRecord.load(record).to_original  # release ids -> true ids
    pairs = {(int(a), int(b)) for a, b, q in zip(ug.u, ug.v, ug.p) if q > 0}
    if not ug.directed:
        pairs |= {(b, a) for a, b in pairs}
    for i, world in enumerate(info["worlds"]):
        if multigraph:
            expected = drawn.sample_multigraph(SEED, index=i).edges()
            read = nx.read_edgelist(world, create_using=nx.MultiGraph, nodetype=int)
            got = tuple(np.array(x, dtype=np.int64) for x in zip(*read.edges())) or ([], [])
        else:
            sampled = drawn.sample(SAMPLES, SEED)[i]
            expected = sampled.edges()
            g = gv.read_edgelist(world)
            got = tuple(g.labels[x] for x in g.edges())
        assert _edges(got, ug.directed) == _edges(expected, ug.directed), world
        # in true ids, through both records, every world edge is a published pair
        tu, tv = (to_true_release(to_true(np.asarray(x, dtype=np.int64))) for x in got)
        assert all((a, b) in pairs for a, b in zip(tu.tolist(), tv.tolist())), world
        if np.all((ug.p == 0) | (ug.p == 1)):  # one possible world: the release's sure pairs
            sure = ug.p == 1
            if multigraph:
                assert _edges((tu, tv), False) == _edges((ug.u[sure], ug.v[sure]), False)
            else:
                world_true = gv.Graph.from_edges(tu, tv, ug.n, directed=ug.directed)
                assert world_true == ug.sample(seed=SEED)


STEP_CHECKS = {
    "read": step_read,
    "evaluate": step_evaluate,
    **{f"attack-{name}": step_attack(name) for name in attacks.names()},
    "sample": step_sample,
}


# ---------------------------------------------------------------------- refusals
def _required_options(command: tuple[str, ...]) -> list[str]:
    """Values for the required options of ``command``'s parser (parsing only)."""
    parser = _parser()
    for name in command:
        action = next(
            a for a in parser._actions if getattr(a, "choices", None) and name in a.choices
        )
        parser = action.choices[name]
    argv: list[str] = []
    for action in parser._actions:
        if action.option_strings and action.required:
            argv += [action.option_strings[0], str(action.choices[0]) if action.choices else "1"]
    return argv


@cache
def cli_refusal(folder: Path, scheme: str) -> tuple[int, str]:
    """``graphveil anonymize SCHEME --directed GRAPH``: its exit status and stderr."""
    command = ("anonymize", scheme)
    argv = [*command, "--directed", os.fspath(folder / "absent.txt"), *_required_options(command)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def refused_step(step: str, folder: Path, path: Path, direction: str) -> list[Any]:
    """The step's command on a release that cannot be read back."""
    if step == "evaluate":
        return ["evaluate", *graph_args(folder, direction), path, "--samples", SAMPLES]
    if step.startswith("attack-"):
        return ["attack", step.removeprefix("attack-"), *graph_args(folder, direction), path]
    return ["sample", path, "-o", folder / "never"]


# ---------------------------------------------------------------------- the matrix
@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("ids", IDS)
@pytest.mark.parametrize("fmt", RELEASE_FORMATS)
@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_workflow(scheme, direction, fmt, ids, step, folder, capsys):
    refusal = expected_refusal(scheme, direction, fmt)
    ug = anonymized(scheme, direction)
    if refusal == NO_DIRECTED_FORM:
        assert isinstance(ug, str), f"{scheme} ran on a directed graph: {ug!r}"
        one_line(ug, f"{scheme} {NO_DIRECTED_FORM}")
        # the command line refuses it too, by the registry, before the graph is read
        code, err = cli_refusal(folder, scheme)
        assert code == 2
        one_line(err, f"{scheme} {NO_DIRECTED_FORM} (the scheme registry's Scheme.directed")
        return
    assert isinstance(ug, gv.UncertainGraph), f"{scheme} refused a {direction} graph: {ug}"
    assert ug.directed is (direction == "directed")
    path, record = published(folder, scheme, direction, fmt, ids)
    if refusal == NOT_READ_BACK:
        if step == "read":
            with pytest.raises(ValueError) as caught:
                gv.load_uncertain(path)
            one_line(str(caught.value), NOT_READ_BACK)
        else:
            code, out, err = run(capsys, *refused_step(step, folder, path, direction))
            assert code == 2 and out == ""
            one_line(err, NOT_READ_BACK)
        return
    STEP_CHECKS[step](ug, folder, scheme, direction, fmt, ids, capsys)


def test_the_matrix_covers_every_registry_entry():
    """Every scheme, format and attack of the registries is a cell; the refusals are the two."""
    cells = [
        (s, d, f, i, st)
        for s in SCHEMES
        for d in DIRECTIONS
        for f in RELEASE_FORMATS
        for i in IDS
        for st in STEPS
    ]
    assert len(cells) == len(SCHEMES) * 2 * len(RELEASE_FORMATS) * 2 * (3 + len(attacks.names()))
    assert {"npz", "tsv", "parquet", "graphml"} <= set(RELEASE_FORMATS)
    refused = [c for c in cells if expected_refusal(*c[:3]) is not None]
    directed_schemes = [s for s in SCHEMES if registry.scheme(s).directed]
    assert 0 < len(directed_schemes) < len(SCHEMES)
    assert 0 < len(refused) < len(cells)
