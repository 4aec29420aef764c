"""Every parameter a user can set has a bound (issue 31, item 9).

Each bound lives in one home (the walks' in ``anonymize/_randwalk.py``, EdgeSwitch's in
``_switching.py``, ``local:N``'s in :mod:`graphveil.cluster`, memory in ``_checks``), and the
study's grid reads the same one through the registry.
"""

from __future__ import annotations

import contextlib
import io
import signal
import zipfile

import numpy as np
import pytest

import graphveil as gv
from graphveil import _checks
from graphveil.anonymize import _randwalk, _switching, registry
from graphveil.cli import main
from graphveil.cluster import max_local_workers
from graphveil.experiments import paper_grid
from graphveil.experiments.config import GridPoint


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("graphveil: error: "), err
    return err


# ------------------------------------------------------------------ outputs never inputs
@pytest.mark.parametrize("suffix", [".npz", ".tsv"])
def test_mixture_output_cannot_name_its_anonymized_input(tmp_path, capsys, suffix):
    release = tmp_path / f"x{suffix}"
    argv = ["anonymize", "randwalk", "--dataset", "karate_club", "-t", "2", "--keep-ids", "-q"]
    assert main([*argv, "--seed", "1", "-o", str(release)]) == 0
    files = sorted(tmp_path.iterdir())
    before = {path: path.read_bytes() for path in files}
    mixture = ["anonymize", "mixture", "--dataset", "karate_club", "-p", "0.5"]
    mixture += ["--anonymized", str(release), "-q"]
    # the release itself, and (a TSV's) its sidecar named as the record
    for target in files:
        output = ["-o", str(target)] if target == release else ["-o", str(tmp_path / "y.npz")]
        record = [] if target == release else ["--record", str(target)]
        assert main([*mixture, *output, *record]) == 2
        assert f"is the input {target}" in _error(capsys)
    assert {path: path.read_bytes() for path in sorted(tmp_path.iterdir())} == before


def test_reproduce_json_cannot_name_its_input_graph(tmp_path, capsys):
    graph = tmp_path / "k.txt"
    gv.io.write_edgelist(gv.datasets.load("karate_club"), graph, keep_ids=True)
    before = graph.read_bytes()
    argv = ["reproduce", str(graph), "--json", str(graph), "--schemes", "edge_switch"]
    assert main([*argv, "--samples", "1", "--no-figures", "-o", str(tmp_path / "s")]) == 2
    assert f"the output {graph} is the input" in _error(capsys)
    assert graph.read_bytes() == before and not (tmp_path / "s").exists()


# ------------------------------------------------------------------------------ memory
@pytest.fixture
def huge_release(tmp_path, monkeypatch):
    """A release claiming n = 2**31 - 1 nodes (the cap the reader takes), on a 16 GiB machine."""
    monkeypatch.setattr(_checks, "physical_memory", lambda: 16 * 2**30)
    small, path = tmp_path / "small.npz", tmp_path / "huge.npz"
    gv.UncertainGraph(2, [0], [1], [0.5]).save(small, keep_ids=True)
    with zipfile.ZipFile(small) as source, zipfile.ZipFile(path, "w") as crafted:
        for name in source.namelist():
            data = source.read(name)
            if name == "n.npy":
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.asarray(np.int64(2**31 - 1)))
                data = buf.getvalue()
            crafted.writestr(name, data)
    return path


def test_sampling_a_release_too_large_for_memory_is_refused(huge_release, tmp_path, capsys):
    ug = gv.load_uncertain(huge_release)
    with pytest.raises(ValueError, match="needs about 48.0 GiB of memory, more than this machine"):
        ug.sample(seed=1)
    out = tmp_path / "worlds" / "deep"
    for extra in ([], ["--keep-ids"]):
        assert main(["sample", str(huge_release), "-o", str(out), *extra]) == 2
        assert "2,147,483,647 nodes needs about" in _error(capsys)
        assert not (tmp_path / "worlds").exists()


def test_sample_removes_the_folder_it_made_when_it_fails(tmp_path, capsys, monkeypatch):
    release = tmp_path / "r.npz"
    gv.UncertainGraph.from_graph(gv.datasets.load("karate_club")).save(release, keep_ids=True)

    def broken(*args, **kwargs):
        raise OSError("disk gone")

    monkeypatch.setattr(gv.UncertainGraph, "sample", broken)
    out = tmp_path / "worlds" / "deep"
    assert main(["sample", str(release), "-o", str(out)]) == 2
    assert "disk gone" in _error(capsys)
    assert not (tmp_path / "worlds").exists()
    (tmp_path / "kept").mkdir()  # a folder that was there stays
    assert main(["sample", str(release), "-o", str(tmp_path / "kept")]) == 2
    assert (tmp_path / "kept").is_dir()


def test_the_memory_check_names_what_it_needs(monkeypatch):
    total = _checks.physical_memory()
    assert total is not None and total > 2**26  # this machine's, in bytes
    monkeypatch.setattr(_checks, "physical_memory", lambda: 2**30)
    _checks.check_memory(2**30, "this")  # what the machine has passes
    with pytest.raises(
        ValueError, match="this needs about 1024.0 GiB of memory, more than this machine's 1.0 GiB"
    ):
        _checks.check_memory(2**40, "this")
    monkeypatch.setattr(_checks, "physical_memory", lambda: None)
    _checks.check_memory(2**70, "this")  # unknown: no check


# ------------------------------------------------------------------------------- walks
_LONGEST = _randwalk.MAX_WALK_LENGTH


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["randwalk", "-t", str(_LONGEST + 1)], f"t must lie in 1..{_LONGEST}"),
        (["randwalk_mod", "-t", "100000"], f"t must lie in 1..{_LONGEST}"),
        (["randwalk_mod", "-t", "100000", "--uncertain"], "t must lie in 1..30"),
        (
            ["randwalk_mod", "-t", str(_randwalk.MAX_EXACT_WALK_LENGTH + 1), "--uncertain"],
            f"t must lie in 1..{_randwalk.MAX_EXACT_WALK_LENGTH}",
        ),
        (["randwalk", "-t", "2", "-M", str(_randwalk.MAX_TRIES + 1)], "max_tries must lie in"),
        (
            ["randwalk_mod", "-t", "2", "--variant", "retry", "-M", str(10**9)],
            "max_tries must lie in",
        ),
        (["edge_switch", "-s", str(10**18)], "switches must lie in 0..7,800 (100 per edge)"),
        (
            ["partition", "--scheme", "randwalk", "--parts", "2", "--params", '{"t": 100000}'],
            f"t must lie in 1..{_LONGEST}",
        ),
    ],
)
def test_walks_and_switches_are_bounded(argv, message, tmp_path, capsys):
    line = ["anonymize", *argv, "--dataset", "karate_club", "--seed", "1"]
    assert main([*line, "-o", str(tmp_path / "o.npz"), "-q"]) == 2
    assert message in _error(capsys)
    assert not (tmp_path / "o.npz").exists()


def test_the_walk_bound_has_one_home_read_by_the_grid():
    for name in ("randwalk", "randwalk_mod"):
        record = registry.scheme(name)
        assert record.check_value(_LONGEST) is None
        assert str(_LONGEST) in record.check_value(_LONGEST + 1)
        with pytest.raises(ValueError, match=str(_LONGEST)):
            paper_grid([name], {name: [_LONGEST + 1]})
    switch = registry.scheme("edge_switch")
    most = _switching.MAX_SWITCHES_PER_EDGE
    assert switch.check_value(most) is None and switch.check_value(most + 1) is not None
    g = gv.datasets.load("karate_club")
    with pytest.raises(ValueError, match="100 per edge"):
        gv.anonymize.edge_switch(g, switches=most * g.m + 1, seed=1)
    with pytest.raises(ValueError, match="max_tries must lie in 1..1000"):
        gv.anonymize.randwalk(g, t=2, max_tries=10**6, seed=1)


# ------------------------------------------------------------------------- the study
def test_a_grid_value_has_its_parameters_bounds_and_a_short_key(tmp_path, capsys):
    # the DP grids read check_epsilon itself, whatever bounds it holds
    for name in registry.names(family="dp"):
        record = registry.scheme(name)
        assert record.check is not None
        for bad in (0.0, -1.0, float("nan"), float("inf")):
            assert record.check_value(bad) is not None
    for value in (1e300, 1e15, 123456789012345.0, 2.5e-300):
        assert len(GridPoint("dp_dk", value).key) <= len("dp_dk=") + 15
    argv = ["reproduce", "--dataset", "karate_club", "--schemes", "dp_dk", "--grid", "dp_dk=1e300"]
    code = main([*argv, "--samples", "1", "--k", "2", "--no-figures", "--no-attacks", "-q",
                 "-o", str(tmp_path / "s")])  # fmt: skip
    out = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in out.err
    assert code == 2 or (tmp_path / "s" / "points" / "dp_dk_1e_300.json").exists()


def test_local_workers_are_bounded(tmp_path, capsys):
    pytest.importorskip("distributed")
    most = max_local_workers()
    argv = ["reproduce", "--dataset", "karate_club", "--no-figures", "-q"]
    assert main([*argv, "--scheduler", f"local:{most + 1}", "-o", str(tmp_path / "s")]) == 2
    assert f"at most {most} workers" in _error(capsys)
    assert not (tmp_path / "s").exists()


# ----------------------------------------------------------------------- the audit
def _numeric_options():
    """(command path, option, absurd value) for every numeric option of every command."""
    import argparse

    from graph_zoo import cli_parsers

    from graphveil.cli import build_parser

    for path, parser in cli_parsers(build_parser()):
        if not path or any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
            continue
        for action in parser._actions:
            kind = getattr(action.type, "__name__", "")
            if not action.option_strings or kind not in ("int", "float", "threads_value"):
                continue
            for value in ("1e300", "-1e300") if kind == "float" else (str(10**18), "-1"):
                yield path, tuple(action.option_strings), value


def _base(path: tuple[str, ...], graph: str, release: str, out: str) -> list[str]:
    """A command line of ``path`` that runs on karate, fast."""
    if path[0] == "anonymize":  # the command's example, its record's
        cli = registry.PARTITION_CLI if path[1] == "partition" else registry.scheme(path[1]).cli
        args = [a.replace("{release}", release) for a in cli.example]
        return [*path, graph, *args, "--seed", "1", "-o", f"{out}.npz"]
    return {
        ("stats",): ["stats", graph],
        ("evaluate",): ["evaluate", graph, release, "--samples", "2", "--k", "2"],
        ("sample",): ["sample", release, "-o", out],
        ("attack", "link"): ["attack", "link", graph, release],
        ("attack", "propagation"): ["attack", "propagation", graph, release, "--seed", "1"],
        ("publish",): [
            *("publish", graph, "--target", "h2_open<=8", "--schemes", "maxvar"),
            *("--samples", "1", "--steps", "0", "--repeats", "2", "-o", f"{out}.npz"),
        ],
        ("reproduce",): [
            *("reproduce", graph, "--schemes", "edge_switch", "--grid", "edge_switch=0.1"),
            *("--samples", "1", "--k", "2", "--no-figures", "--no-attacks"),
            *("--distance-sources", "2", "-o", out),
        ],
    }.get(path, [])


class _Unbounded(BaseException):
    """A case still running at its deadline (no ``except Exception`` of the package stops it)."""


@contextlib.contextmanager
def _deadline(*case, seconds: int = 30):
    """Fail a case that runs for more than ``seconds`` (where SIGALRM exists)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(*_):
        raise _Unbounded(f"no bound: {case} still runs after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_an_absurd_value_of_every_numeric_option_runs_or_is_refused_in_one_line(tmp_path):
    """Every numeric option of every command at +-1e300 or +-10**18: exit 0, or exit 2 with one
    line; never a traceback, a hang or another status."""
    graph, release = str(tmp_path / "k.txt"), str(tmp_path / "r.npz")
    g = gv.datasets.load("karate_club")
    gv.io.write_edgelist(g, graph, keep_ids=True)
    gv.UncertainGraph.from_graph(g).save(release, keep_ids=True)
    tried = 0
    for i, (path, flags, value) in enumerate(_numeric_options()):
        base = _base(path, graph, release, str(tmp_path / f"o{i}"))
        if not base:
            continue
        at = next((j for j, a in enumerate(base) if a in flags), None)
        line = base[:at] + base[at + 2 :] if at is not None else base
        option = flags[-1]
        err = io.StringIO()
        with (
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(io.StringIO()),
            _deadline(path, option, value),
        ):
            try:
                code = main([*line, option, value, "-q"])
            except SystemExit as exit_:  # argparse's refusal of the value
                code = exit_.code
        text = err.getvalue().strip()
        assert code in (0, 2), (path, option, value, code, text)
        assert "Traceback" not in text and "incompatible function arguments" not in text
        # a refusal is one line (argparse's comes after its usage lines)
        assert code == 0 or " error: " in text.splitlines()[-1], (path, option, text)
        tried += 1
    print(f"absurd values tried: {tried}")
    assert tried > 100
