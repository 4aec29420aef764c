"""The CLI refuses what would mislead: abbreviated options, no-op schemes, missing extras, bad seeds."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest
from graph_zoo import cli_parsers

from graphveil.anonymize import registry
from graphveil.cli import build_parser, main
from graphveil.cli._common import Parser


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


def _minimal_argv(parser: argparse.ArgumentParser) -> list[str]:
    """Arguments that satisfy ``parser``'s required options and positionals (parsing only)."""
    argv: list[str] = []
    groups = [g for g in parser._mutually_exclusive_groups if g.required]
    grouped = {id(a) for g in groups for a in g._group_actions}
    for group in groups:  # the first member of a required either-or
        action = group._group_actions[0]
        argv += [action.option_strings[0], "x"] if action.option_strings else ["x"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):  # its first command, complete
            name, sub = next(iter(action.choices.items()))
            return [*argv, name, *_minimal_argv(sub)]
        if id(action) in grouped:
            continue
        if action.option_strings and action.required:
            value = str(action.choices[0]) if action.choices else "1"
            argv += [action.option_strings[0], value]
        elif not action.option_strings and action.nargs in (None, "+"):
            argv.append("x")
    return argv


def _rejects(parser: argparse.ArgumentParser, argv: list[str], arg: str) -> bool:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        parser.parse_args(argv)
    return exit_.value.code == 2 and f"unrecognized arguments: {arg}" in err.getvalue()


def test_every_parser_refuses_abbreviations():
    for path, parser in cli_parsers(build_parser()):
        assert isinstance(parser, Parser) and not parser.allow_abbrev, path


def test_no_prefix_of_a_long_option_is_taken_for_it():
    """Every proper prefix of every long option of every command is refused (exit 2), bare or
    with ``=value``, unless the prefix is itself an option of that command."""
    tried = 0
    for path, parser in cli_parsers(build_parser()):
        argv = _minimal_argv(parser)
        parser.parse_args(argv)  # the base line parses: a refusal below is the prefix's
        # A parent's own options go before its command; a command's after its arguments.
        nested = any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)
        options = set(parser._option_string_actions)
        for option in options:
            if not option.startswith("--"):
                continue
            for end in range(3, len(option)):
                prefix = option[:end]
                if prefix in options:
                    continue
                for arg in (prefix, f"{prefix}=1"):
                    tried += 1
                    line = [arg, *argv] if nested else [*argv, arg]
                    assert _rejects(parser, line, arg), (path, arg)
    # The count of prefixes tried, for the report: every command's every long option.
    print(f"prefixes tried: {tried}")
    assert tried > 1000


def test_the_reported_prefix_of_keep_ids_is_refused(tmp_path, capsys):
    out = tmp_path / "y.npz"
    with pytest.raises(SystemExit) as exit_:
        main(
            [
                "anonymize",
                "maxvar",
                "--dataset",
                "karate_club",
                "--n-potential",
                "20",
                "--parts",
                "1",
                "--allow-fewer",
                "-o",
                str(out),
                "--k",
            ]
        )
    assert exit_.value.code == 2
    assert "unrecognized arguments: --k" in capsys.readouterr().err
    assert not out.exists()


# ---------------------------------------------------------------------------- no-op schemes
_NO_OPS = [
    (["maxvar", "--n-potential", "0", "--parts", "1"], "MaxVar with no potential edge"),
    (["edge_switch", "-s", "0"], "EdgeSwitch with 0 switches"),
    (["randwalk", "-t", "1"], "RandWalk with t=1"),
    (["randwalk_mod", "-t", "1"], "RandWalk-mod with t=1"),
    (["randwalk_mod", "-t", "1", "--uncertain"], "RandWalk-mod with t=1"),
    (
        ["partition", "--scheme", "edge_switch", "--parts", "2", "--params", '{"switches": 0}'],
        "EdgeSwitch with 0 switches",
    ),
]


@pytest.mark.parametrize(("argv", "reason"), _NO_OPS)
def test_a_no_op_scheme_is_refused_unless_allowed(argv, reason, tmp_path, capsys):
    out = tmp_path / "pub.npz"
    line = ["anonymize", *argv, "--dataset", "karate_club", "-o", str(out), "--seed", "3"]
    assert main(line) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err and "--allow-identity" in err
    assert not out.exists()
    assert main([*line, "--allow-identity", "-q"]) == 0
    assert out.exists()


def test_mixture_with_p_zero_is_refused(tmp_path, capsys):
    g = tmp_path / "g.npz"
    assert main(["anonymize", "randwalk", "--dataset", "karate_club", "-t", "2", "--keep-ids",
                 "-o", str(g), "-q"]) == 0  # fmt: skip
    line = ["anonymize", "mixture", "--dataset", "karate_club", "--anonymized", str(g)]
    assert main([*line, "-p", "0", "-o", str(tmp_path / "m.npz")]) == 2
    assert "Mixture with p=0" in capsys.readouterr().err
    # --seed (the id permutation's) makes the bytes reproducible; a scheme run is not refused
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    for out in (first, second):
        assert main([*line, "-p", "0.5", "-o", str(out), "--seed", "4", "-q"]) == 0
    assert first.read_bytes() == second.read_bytes()


def test_the_no_op_rules_match_what_the_schemes_publish():
    """Each registry rule against the API's output: G0 unchanged, or every pair a true edge."""
    import graphveil as gv
    from graphveil.anonymize import edge_switch, maxvar, mixture, randwalk, randwalk_mod, registry

    g = gv.datasets.load("karate_club")
    edges = {(min(a, b), max(a, b)) for a, b in zip(*(x.tolist() for x in g.edges()))}

    def pairs(ug):
        return {(min(a, b), max(a, b)) for a, b in zip(ug.u.tolist(), ug.v.tolist())}

    runs = {
        "maxvar": (maxvar(g, n_potential=0, parts=1, seed=1), {"n_potential": 0}),
        "edge_switch": (edge_switch(g, switches=0, seed=1), {"switches": 0}),
        "mixture": (mixture(g, anonymized=g, p=0.0), {"p": 0.0}),
        "randwalk": (randwalk(g, t=1, seed=1), {"t": 1}),
        "randwalk_mod": (randwalk_mod(g, t=1, seed=1), {"t": 1}),
    }
    for name, ((ug, _), params) in runs.items():
        record = registry.scheme(name)
        assert record.no_op_reason(params) is not None, name
        assert pairs(ug) <= edges, name  # only true edges
        if "G0 unchanged" in record.no_op_reason(params):
            assert pairs(ug) == edges and set(ug.p.tolist()) == {1.0}, name
    # and the grid parameter's spelling, as the study's --grid gives it
    assert registry.scheme("edge_switch").no_op_reason({"s/m": 0.0}) is not None
    assert registry.scheme("randwalk").no_op_reason({"t": 2.0}) is None
    assert registry.scheme("obfuscation").no_op_reason({"sigma": 0.1}) is None


# ---------------------------------------------------------------------------- optional libraries
@pytest.mark.parametrize(
    ("module", "argv", "extra"),
    [
        ("matplotlib", ["reproduce", "missing-graph.txt"], "graphveil[plot]"),
        (
            "distributed",
            ["reproduce", "missing-graph.txt", "--no-figures", "--scheduler", "local:1"],
            "graphveil[dask]",
        ),
        (
            "pyarrow",
            ["anonymize", "randwalk", "missing-graph.txt", "-t", "2", "-o", "OUT/x.parquet"],
            "graphveil[parquet]",
        ),
    ],
)
def test_a_missing_library_fails_before_any_work(
    module, argv, extra, tmp_path, monkeypatch, capsys
):
    monkeypatch.setitem(__import__("sys").modules, module, None)  # `import module` fails
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("OUT", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    # one line, naming the extra; the missing graph was never read
    assert err.count("\n") == 1 and f'pip install "{extra}"' in err and "missing-graph" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_late_missing_library_is_one_line(monkeypatch, capsys):
    """A library imported after the checks all the same: one line too; other ImportErrors are bugs."""

    def fail(args):
        raise ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")

    monkeypatch.setattr("graphveil.cli.datasets._run_datasets_list", fail)
    assert main(["datasets", "list"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'pip install "graphveil[parquet]"' in err

    def bug(args):
        raise ImportError("cannot import name 'x' from 'graphveil'", name="graphveil")

    monkeypatch.setattr("graphveil.cli.datasets._run_datasets_list", bug)
    with pytest.raises(ImportError):
        main(["datasets", "list"])


# ---------------------------------------------------------------------------- smaller refusals
def test_seeds_outside_64_bits_are_refused_alike_by_api_and_cli(capsys):
    import graphveil as gv
    from graphveil._seeds import seed_to_u64
    from graphveil.anonymize.parts import metis_parts

    assert seed_to_u64(2**64 - 1) == 2**64 - 1
    for bad in (2**64, 10**23, -1):
        with pytest.raises(ValueError, match=r"seed must lie in \[0, 2\*\*64\)"):
            seed_to_u64(bad)
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        metis_parts(gv.datasets.load("karate_club"), 2, seed=2**64)
    for argv in (
        ["anonymize", "randwalk", "--dataset", "karate_club", "-t", "2"],
        ["reproduce", "--dataset", "karate_club"],
        ["sample", "x.npz", "-o", "w"],
        ["stats", "--dataset", "karate_club"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main([*argv, "--seed", str(10**23)])
        assert exit_.value.code == 2
        assert "seed must lie in [0, 2**64)" in capsys.readouterr().err


def test_partition_params_cannot_carry_the_seed(capsys):
    argv = ["anonymize", "partition", "--dataset", "karate_club", "--scheme", "edge_switch"]
    assert main([*argv, "--parts", "2", "--params", '{"switches": 3, "seed": 5}']) == 2
    assert "give seed with --seed, not in --params" in capsys.readouterr().err


def test_reproduce_refuses_a_grid_it_would_ignore_or_a_no_op_value(tmp_path, capsys):
    out = str(tmp_path / "out")
    assert main(["reproduce", "--schemes", "randwalk", "--grid", "maxvar=0.19", "-o", out]) == 2
    assert "grid is given for maxvar, which is not among the schemes run" in capsys.readouterr().err
    for grid in ("edge_switch=0.1,0", "randwalk=1", "mixture=0"):
        scheme = grid.split("=")[0]
        assert main(["reproduce", "--schemes", scheme, "--grid", grid, "-o", out]) == 2
        assert "--allow-identity" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _study(argv, out):
    line = ["reproduce", *argv, "--schemes", "randwalk", "--grid", "randwalk=2", "--samples", "1"]
    return main([*line, "--no-attacks", "--no-figures", "-q", "--json", "-", "-o", str(out)])


def test_reproduce_reads_a_header_and_refuses_another_graphs_folder(tmp_path, capsys):
    import json

    path = tmp_path / "g.csv"
    path.write_text("source,target\n0,1\n1,2\n2,3\n3,0\n0,2\n3,4\n4,5\n5,0\n1,5\n2,6\n6,7\n7,3\n")
    out = tmp_path / "out"
    assert _study(["--dataset", "karate_club"], out) == 0
    karate = json.loads(capsys.readouterr().out)
    assert karate["n"] == 34 and karate["graph_digest"]
    (out / "table_maxvar.md").write_text("karate's")  # a table this graph's study would not write
    assert _study([str(path)], out) == 2  # no --header: "source,target" is no edge
    capsys.readouterr()
    assert _study([str(path), "--header"], out) == 2
    err = capsys.readouterr().err
    assert "holds the study of another graph (karate_club, n=34, m=78)" in err
    assert "--overwrite" in err and "-o" in err
    assert _study([str(path), "--header", "--overwrite"], out) == 0
    study = json.loads(capsys.readouterr().out)
    assert (study["n"], study["m"]) == (8, 12)
    assert not (out / "table_maxvar.md").exists()
    assert json.loads((out / "study.json").read_text())["graph_digest"] == study["graph_digest"]
    assert _study([str(path), "--header"], out) == 0  # the same graph again: resumed


def test_sample_creates_no_folder_before_its_input_is_read(tmp_path, capsys):
    out = tmp_path / "worlds" / "deep"
    assert main(["sample", str(tmp_path / "missing.npz"), "-o", str(out)]) == 2
    assert not (tmp_path / "worlds").exists()
    (tmp_path / "file").write_text("")
    assert main(["sample", str(tmp_path / "missing.npz"), "-o", str(tmp_path / "file" / "w")]) == 2
    assert "is not a folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("sigma", "message"),
    [
        ("inf", "sigma must lie in (0, inf), got inf"),
        ("0", "sigma must lie in (0, inf), got 0.0"),
        ("1e-300", "sigma=1e-300 is too small"),
        ("1e300", "sigma=1e+300 is too large"),
        ("1e20", "reach 1e+20, above 1e+09"),
    ],
)
def test_obfuscation_sigma_messages_are_true_of_their_input(sigma, message, capsys):
    argv = ["anonymize", "obfuscation", "--dataset", "karate_club", "-k", "5", "--eps", "0.1"]
    assert main([*argv, "--sigma", sigma, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and "nan" not in err


def test_the_study_api_refuses_a_grid_for_a_scheme_it_does_not_run():
    from graphveil import experiments as ex

    with pytest.raises(ValueError, match="not among the schemes run"):
        ex.paper_grid(["randwalk"], {"maxvar": [0.19]})
    assert [p.scheme for p in ex.paper_grid(["maxvar"], {"maxvar": [0.19]})] == ["maxvar"]


# ---------------------------------------------------------------------- --directed (issue 31, 2)
def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {flag: action for action in parser._actions for flag in action.option_strings}


def test_every_command_that_reads_an_edge_list_takes_directed():
    """A command reading a GRAPH edge list (it has --header) or a release (sample) has --directed,
    from its one home (its help is cli._common.DIRECTED_HELP's)."""
    from graphveil.cli._common import DIRECTED_HELP

    readers = []
    for path, parser in cli_parsers(build_parser()):
        options = _options(parser)
        if "--header" in options or path == ("sample",):
            readers.append(" ".join(path))
            assert "--directed" in options, path
            stem = DIRECTED_HELP.split("{reads}")[0]
            assert options["--directed"].help.startswith(stem), path
    assert {"stats", "evaluate", "sample", "attack link", "reproduce"} <= set(readers)
    assert {"anonymize maxvar", "anonymize tmf", "anonymize partition"} <= set(readers)


def _dg(tmp_path):
    path = tmp_path / "dg.txt"
    path.write_text("0 1\n1 0\n1 2\n2 3\n3 1\n4 5\n5 4\n5 6\n6 7\n7 0\n2 5\n6 2\n")
    return path


@pytest.mark.parametrize("name", registry.names())
def test_directed_is_refused_for_a_scheme_without_a_directed_form(name, tmp_path, capsys):
    """The refusal follows the registry's Scheme.directed, before the graph is read."""
    parsers = dict(cli_parsers(build_parser()))
    argv = ["anonymize", name, *_minimal_argv(parsers[("anonymize", name)]), "--directed"]
    with contextlib.chdir(tmp_path):  # GRAPH "x" does not exist
        code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    if registry.scheme(name).directed:  # gets past the check, to the missing file
        assert "directed form" not in err, err
    else:
        assert (
            f"{name} has no directed form (the scheme registry's Scheme.directed is False)" in err
        )
        assert "drop --directed" in err


def test_partition_refuses_directed_for_an_inner_scheme_without_a_directed_form(capsys):
    code = main(["anonymize", "partition", "--directed", "--dataset", "karate_club",
                 "--scheme", "randwalk_mod", "--parts", "2"])  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "partition with randwalk_mod has no directed form" in err


def test_evaluate_and_attack_name_the_flag_for_a_release_of_the_other_kind(tmp_path, capsys):
    g = _dg(tmp_path)
    assert main(["anonymize", "randwalk", "--directed", str(g), "-t", "2", "--seed", "1",
                 "-o", str(tmp_path / "d.npz"), "--record", str(tmp_path / "d.json")]) == 0  # fmt: skip
    assert main(["anonymize", "randwalk", str(g), "-t", "2", "--seed", "1",
                 "-o", str(tmp_path / "u.npz"), "--record", str(tmp_path / "u.json")]) == 0  # fmt: skip
    capsys.readouterr()
    for command in (["evaluate"], ["attack", "link"]):
        for flag, release, fix in (
            ([], "d", "add --directed"),
            (["--directed"], "u", "drop --directed"),
        ):
            code = main([*command, *flag, str(g), str(tmp_path / f"{release}.npz"),
                         "--record", str(tmp_path / f"{release}.json")])  # fmt: skip
            err = capsys.readouterr().err.strip()
            assert code == 2 and len(err.splitlines()) == 1, err
            assert fix in err and "to_undirected" not in err, err


def test_sample_reads_a_plain_tsv_as_arcs_with_directed(tmp_path, capsys):
    plain = tmp_path / "plain.tsv"
    plain.write_text("1\t0\t1.0\n0\t2\t1.0\n")  # no header, no sidecar
    assert main(["sample", "--directed", str(plain), "-o", str(tmp_path / "w"), "--seed", "1",
                 "--keep-ids"]) == 0  # fmt: skip
    text = (tmp_path / "w" / "world-0.txt").read_text()
    assert "directed=yes" in text.splitlines()[0]
    assert sorted(text.splitlines()[1:]) == ["0\t2", "1\t0"]
    ug = gv_uncertain(tmp_path)
    code = main(["sample", "--directed", str(ug), "-o", str(tmp_path / "w2")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "undirected release; drop --directed" in err
    assert len(err.splitlines()) == 1


def gv_uncertain(tmp_path):
    from graphveil import UncertainGraph

    path = tmp_path / "u.npz"
    UncertainGraph(3, [0], [1], [0.5]).save(path)
    return path


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["randwalk", "-t", "2", "--routing", "fixed"], "--routing fixed"),
        (["edge_switch", "--switches", "3", "--nearby"], "--nearby"),
    ],
)
def test_an_option_without_a_directed_form_is_named_as_typed(argv, flag, tmp_path, capsys):
    code = main(["anonymize", argv[0], "--directed", str(_dg(tmp_path)), "-q", *argv[1:]])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"{flag} has no directed form" in err and f"drop {flag} with --directed" in err
    assert "=" not in err.split("error: ", 1)[1], err  # no Python keyword
