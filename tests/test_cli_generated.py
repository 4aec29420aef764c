"""The generated scheme commands: options from the signatures, the old CLI kept, progress through logging."""

from __future__ import annotations

import argparse
import inspect
import logging
from typing import Literal

import pytest

import graphveil as gv
from graphveil import datasets
from graphveil.anonymize import registry
from graphveil.cli import build_parser, main
from graphveil.cli.anonymize import add_command, parameter_docs

#: The options of the hand-written parsers before they were generated, and their defaults:
#: every spelling must still parse, to the same value.
OLD_OPTIONS = {
    "obfuscation": (
        ["-k", "--eps", "--sigma", "-c", "--white-noise", "--attempts", "--tol", "--sigma-max"],
        # attempts: None is the variant's tries, 5 for the default variant (as before; issue 32)
        {"sigma": None, "c": 2.0, "q": 0.01, "attempts": None, "tol": 0.05, "sigma_max": 16.0},
    ),
    "randwalk": (["-t", "-M", "--max-tries", "--routing"], {"max_tries": 10, "routing": "random"}),
    "randwalk_mod": (
        ["-t", "--alpha", "--routing", "--variant", "-M", "--max-tries", "--uncertain"],
        {"alpha": 0.5, "routing": "random", "variant": "printed", "max_tries": None},
    ),
    "edge_switch": (["-s", "--switches", "--nearby"], {"nearby": False}),
    "mixture": (["--anonymized", "-p"], {}),
    "partition": (["--parts", "--scheme", "--params"], {"params": "{}"}),
    "maxvar": (
        ["--n-potential", "--parts", "--solver", "--allow-fewer"],
        # parts: None, the study's rule max(1, round(n / 16,000)) (it was 20, which a graph of
        # fewer than 20 nodes could not take: issue 24)
        {"parts": None, "solver": "dual", "allow_fewer": False},
    ),
}
COMMON = {"--seed", "-o", "--output", "--keep-ids", "--record", "-q", "-v", "--json", "--dataset"}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _schemes() -> dict[str, argparse.ArgumentParser]:
    return _subparsers(_subparsers(build_parser())["anonymize"])


def test_every_old_option_spelling_and_default_survives():
    parsers = _schemes()
    # one command per record; the schemes that came after the generated CLI (the edge-DP ones)
    # have no old spellings to keep
    assert set(OLD_OPTIONS) <= set(parsers) == {*registry.names(), "partition"}
    for name, (flags, defaults) in OLD_OPTIONS.items():
        parser = parsers[name]
        strings = {s for a in parser._actions for s in a.option_strings}
        assert set(flags) <= strings, (name, set(flags) - strings)
        if name != "mixture":
            assert COMMON <= strings, name
        for dest, value in defaults.items():
            assert parser.get_default(dest) == value, (name, dest)
    assert "--threads" not in {s for a in parsers["mixture"]._actions for s in a.option_strings}
    # Mixture draws nothing itself, but its release's id permutation takes --seed (issue 24).
    mixture = {a.dest: a for a in parsers["mixture"]._actions}
    assert "id permutation" in mixture["seed"].help


def test_choices_help_and_required_come_from_the_signature():
    parsers = _schemes()

    def action(name, dest):
        return next(a for a in parsers[name]._actions if a.dest == dest)

    assert action("randwalk", "routing").choices == ("random", "fixed")  # Literal annotation
    assert action("randwalk_mod", "variant").choices == ("printed", "retry")
    assert action("randwalk", "variant").choices == ("authors", "printed")
    assert tuple(action("maxvar", "solver").choices) == ("dual", "osqp")  # registry: the solvers
    assert action("randwalk", "t").required and not action("randwalk", "max_tries").required
    assert action("randwalk", "t").type is int and action("obfuscation", "eps").type is float
    assert action("edge_switch", "switches").help == "Number of attempted switches s, 0 to 100 m."
    assert action("maxvar", "allow_fewer").help.startswith("Accept fewer potential edges")
    # API-only parameters (an executor, dicts of options) are not options
    dests = {a.dest for a in parsers["maxvar"]._actions}
    assert not {"executor", "solver_options", "partitioner_options", "progress"} & dests


def test_parameter_docs_reads_the_numpydoc_section():
    docs = parameter_docs(gv.anonymize.obfuscation)
    assert docs["eps"] == "Tolerance in [0, 1]."
    assert docs["sigma_max"] == docs["sigma_min"]  # "sigma_max, sigma_min : float"
    assert docs["c"].startswith("|E_C| = round(c m) candidate pairs")  # markup reduced
    assert parameter_docs(lambda g: g) == {}


def _toy(graph: gv.Graph, level: int, *, mode: Literal["a", "b"] = "b", seed=None):
    """A toy scheme: EdgeSwitch with ``level`` switches.

    Parameters
    ----------
    graph : Graph
        The true graph.
    level : int
        How many switches (>= 0).
    mode : {"a", "b"}
        Ignored.
    seed : int or None
        The seed.
    """
    return gv.anonymize.edge_switch(graph, switches=level, seed=seed)


def test_a_toy_scheme_gets_typed_options_from_its_signature(capsys):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    cli = registry.Cli(example=("--level", "7"))
    p = add_command(sub, "toy", _toy, title="Toy", summary="a toy", cli=cli)
    level = next(a for a in p._actions if a.dest == "level")
    mode = next(a for a in p._actions if a.dest == "mode")
    assert level.option_strings == ["--level"] and level.type is int and level.required
    assert level.help == "How many switches (>= 0)."
    assert (
        mode.choices == ("a", "b") and mode.default == "b" and mode.help == "Ignored. (default b)"
    )
    args = parser.parse_args(
        ["toy", "--dataset", "karate_club", "--level", "7", "--seed", "1", "-q"]
    )
    assert args.run(args) == 0
    assert "attempted" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parser.parse_args(["toy", "--dataset", "karate_club", "--level", "7", "--mode", "c"])


def test_progress_lines_go_through_the_logger(capsys):
    argv = ["anonymize", "randwalk", "--dataset", "karate_club", "-t", "2", "--seed", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "graphveil anonymize: RandWalk on 34 nodes: t=2" in err  # G0's m is not printed
    assert "calling" not in err  # debug lines only with -v
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""
    assert main([*argv, "-v"]) == 0
    err = capsys.readouterr().err
    assert "graphveil anonymize: calling graphveil.anonymize._randwalk.randwalk with t=2" in err
    assert "seed=" not in err  # a seed is never logged
    assert "graphveil anonymize: timings (s): " in err
    # the handler goes when the command ends: a later library call prints nothing
    gv.anonymize.obfuscation(
        datasets.load("karate_club"), k=2, eps=0.5, sigma=0.5, seed=1, progress=True
    )
    assert capsys.readouterr().err == ""


def test_obfuscation_search_logs_instead_of_printing(capsys, caplog):
    g = datasets.load("karate_club")
    with caplog.at_level(logging.INFO, logger="graphveil"):
        gv.anonymize.obfuscation(g, k=3, eps=0.3, attempts=1, tol=0.3, seed=2, progress=True)
    assert capsys.readouterr().err == ""
    lines = [r.getMessage() for r in caplog.records if r.name == "graphveil.anonymize._obfuscation"]
    # the steps only: the sigmas tried and their eps-hat are private (the report's history)
    assert lines and all(line.startswith("obfuscation: sigma search, step") for line in lines)
    assert all(r.levelno == logging.INFO for r in caplog.records if r.message in lines)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="graphveil"):
        gv.anonymize.obfuscation(
            g, k=3, eps=0.3, attempts=1, tol=0.3, seed=2
        )  # progress off: DEBUG
    assert not [r for r in caplog.records if r.name == "graphveil.anonymize._obfuscation"]


def test_obfuscation_lines_follow_quiet_and_verbose(capsys):
    argv = ["anonymize", "obfuscation", "--dataset", "karate_club", "-k", "3", "--eps", "0.3"]
    argv += ["--attempts", "1", "--tol", "0.3", "--seed", "2"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert (
        "graphveil: obfuscation: sigma search, step 1 done" in err
        and "graphveil anonymize: (k,eps)-obf on" in err
    )
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_study_progress_goes_through_the_logger(caplog, tmp_path, capsys):
    g = datasets.load("karate_club")
    with caplog.at_level(logging.INFO, logger="graphveil"):
        gv.experiments.reproduce(
            g,
            gv.experiments.StudyConfig(samples=1, seed=1),
            schemes=["randwalk"],
            grid={"randwalk": [2]},
            progress=True,
        )
    assert capsys.readouterr().err == ""
    assert any(r.name == "graphveil.experiments" for r in caplog.records)


def test_signatures_have_docs_for_every_option():
    # A scheme's Parameters section is its --help: every generated option has its own text.
    for record in registry.REGISTRY.values():
        docs = parameter_docs(record.function)
        for param in list(inspect.signature(record.function).parameters)[1:]:
            assert param in docs, (record.name, param)


def test_a_part_that_cannot_be_obfuscated_is_a_user_error(capsys):
    params = '{"k": 30, "eps": 0.0, "sigma": 0.001, "attempts": 1}'
    argv = ["anonymize", "partition", "--dataset", "karate_club", "--parts", "2"]
    code = main([*argv, "--scheme", "obfuscation", "--params", params, "--seed", "1", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "no attempt at sigma" in err and "part " in err and "Traceback" not in err
    code = main([*argv, "--scheme", "maxvar", "--params", "{}", "-q"])
    assert code == 2 and "Partition cannot run maxvar" in capsys.readouterr().err
