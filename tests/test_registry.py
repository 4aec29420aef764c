"""The scheme registry: complete records, one spelling, and every layer reading it."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json

import numpy as np
import pytest

import graphveil as gv
from graphveil import datasets
from graphveil import experiments as ex
from graphveil.anonymize import registry
from graphveil.anonymize.registry import REGISTRY, Scheme
from graphveil.cli import build_parser, main

partition_module = importlib.import_module("graphveil.anonymize._partition")


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_record_is_complete(name):
    record = REGISTRY[name]
    assert record.name == name == record.function.__name__  # the one spelling is the function's
    assert record.title and record.summary and record.requirement and record.grid_parameter
    assert record.marker and isinstance(record.partitionable, bool)
    assert isinstance(record.deterministic, bool)
    assert record.default_grid and all(record.check_value(v) is None for v in record.default_grid)
    assert record.check_value(float("nan")) == record.requirement
    assert record.check_value(-1.0) == record.requirement  # every grid value here is >= 0
    first = next(iter(inspect.signature(record.function).parameters.values()))
    assert first.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD  # the true graph comes first
    for alias in record.aliases:
        assert registry.resolve(alias) == (record, True)


def test_names_are_unique_across_names_and_aliases():
    spellings = [s for r in REGISTRY.values() for s in (r.name, *r.aliases)]
    assert len(spellings) == len(set(spellings))


def test_markers_are_distinct():
    markers = [r.marker for r in REGISTRY.values()]
    assert len(markers) == len(set(markers))


@pytest.mark.parametrize("name", list(REGISTRY))
def test_deterministic_flag_matches_the_output(name):
    g = datasets.load("karate_club")
    record = REGISTRY[name]
    config = ex.StudyConfig(samples=1, seed=1)
    ug, report = record.study(g, record.default_grid[0], config, 7)
    only_zero_one = bool(np.all((ug.p == 0) | (ug.p == 1)))
    assert only_zero_one == record.deterministic
    # the report's scheme is the registry's spelling
    assert report["scheme"] == name


def test_unknown_and_old_spellings():
    with pytest.raises(ValueError, match="choose from obfuscation, randwalk"):
        registry.scheme("nope")
    with pytest.raises(ValueError, match="now spelled 'edge_switch'"):
        registry.scheme("switch")


def test_partition_lists_the_registry_and_warns_on_old_spellings():
    assert partition_module.SCHEMES == tuple(
        n for n in registry.names() if registry.scheme(n).partitionable
    )
    assert "maxvar" not in partition_module.SCHEMES  # MaxVar partitions by itself
    g = datasets.load("karate_club")
    with pytest.warns(DeprecationWarning, match="now spelled 'edge_switch'"):
        _, old = gv.anonymize.partition(g, scheme="switch", parts=2, switches=10, seed=1)
    _, new = gv.anonymize.partition(g, scheme="edge_switch", parts=2, switches=10, seed=1)
    assert old["params"]["scheme"] == new["params"]["scheme"] == "edge_switch"
    with pytest.raises(ValueError, match="Partition cannot run maxvar"):
        gv.anonymize.partition(g, scheme="maxvar", parts=2, n_potential=10)


def _double_switch(graph, switches, *, seed=None):
    """A fake scheme: EdgeSwitch run twice as long."""
    return gv.anonymize.edge_switch(graph, switches=2 * switches, seed=seed)


@pytest.fixture
def fake_scheme(monkeypatch):
    record = Scheme(
        name="double_switch",
        function=_double_switch,
        title="DoubleSwitch",
        summary="EdgeSwitch, twice",
        grid_parameter="s/m",
        default_grid=(0.05,),
        valid=lambda v: v >= 0,
        requirement="s/m must be >= 0",
        study=lambda graph, v, config, seed: _double_switch(graph, round(v * graph.m), seed=seed),
        marker="8",
        partitionable=True,
        deterministic=True,
        public_report=("attempted",),  # printed; "performed" (G0's) stays in the record
        cli=registry.Cli(example=("--switches", "5")),
    )
    monkeypatch.setitem(REGISTRY, record.name, record)
    return record


def test_a_new_scheme_appears_in_the_cli(fake_scheme, capsys, tmp_path):
    parser = build_parser()
    anonymize = _subparsers(parser)["anonymize"]
    assert "double_switch" in _subparsers(anonymize)
    g = datasets.load("karate_club")
    path = tmp_path / "karate.txt"
    u, v = g.edges()
    path.write_text("".join(f"{a} {b}\n" for a, b in zip(u.tolist(), v.tolist())))
    code = main(
        ["anonymize", "double_switch", str(path), "--switches", "5", "--seed", "1", "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["attempted"] == 10 and "performed" not in json.loads(out)
    code = main(
        [
            "anonymize",
            "partition",
            str(path),
            "--parts",
            "2",
            "--scheme",
            "double_switch",
            "--params",
            '{"switches": 3}',
            "--seed",
            "1",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["params"]["scheme"] == "double_switch"


def test_a_new_scheme_appears_in_the_study(fake_scheme, tmp_path):
    g = datasets.load("karate_club")
    study = ex.reproduce(
        g,
        ex.StudyConfig(samples=1, seed=1),
        schemes=["double_switch", "randwalk"],
        grid={"randwalk": [2]},
        out_dir=tmp_path,
        figures=False,
    )
    assert (tmp_path / "table_double_switch.md").exists()
    assert "## DoubleSwitch" in study.to_markdown()
    assert [row["case"] for row in study.comparison_table()][1:] == [
        "DoubleSwitch s/m=0.05",
        "RandWalk t=2",
    ]
    with pytest.raises(
        ValueError, match="invalid grid value -1 for double_switch: s/m must be >= 0"
    ):
        ex.paper_grid(["double_switch"], {"double_switch": [-1]})


def test_a_new_scheme_appears_in_the_figures(fake_scheme, tmp_path):
    pytest.importorskip("matplotlib")
    g = datasets.load("karate_club")
    ex.reproduce(
        g,
        ex.StudyConfig(samples=1, seed=1),
        schemes=["double_switch"],
        out_dir=tmp_path,
        figures=True,
    )
    assert (tmp_path / "tradeoff.png").stat().st_size > 0


def _subparsers(parser):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def test_a_record_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        REGISTRY["maxvar"].marker = "+"  # type: ignore[misc]


#: Fake schemes whose keyword would take a common option (-o is every command's --output).
_LETTERS = {
    "q": lambda graph, *, q=1.0, seed=None: None,
    "v": lambda graph, *, v=1.0, seed=None: None,
    "o": lambda graph, *, o=1.0, seed=None: None,
    "h": lambda graph, *, h=1.0, seed=None: None,
}


def _record(**changes):
    fields = {f.name: getattr(REGISTRY["edge_switch"], f.name) for f in dataclasses.fields(Scheme)}
    return Scheme(**{**fields, "name": "fake", "aliases": (), **changes})


@pytest.mark.parametrize("letter", list(_LETTERS))
def test_a_keyword_taking_a_common_option_is_refused_naming_the_scheme(letter):
    # It broke the whole CLI with an argparse conflict that named no scheme.
    function = _LETTERS[letter]
    message = rf"^scheme 'fake': keyword '{letter}' would be the option -{letter}, which every"
    with pytest.raises(ValueError, match=message):
        _record(function=function, cli=registry.Cli())
    # Its own option strings in the record fix it, and the command is built.
    fixed = _record(function=function, cli=registry.Cli(flags={letter: ("--long",)}))
    assert fixed.cli.flags_of(letter) == ("--long",)


@pytest.mark.parametrize(
    ("function", "cli", "message"),
    [
        (lambda graph, *, output=1: None, registry.Cli(flags={"output": ("--out",)}),
         "keyword 'output' would overwrite the value of a common option"),
        (lambda graph, *, a=1, b=2: None, registry.Cli(flags={"b": ("-a",)}),
         "keywords 'a' and 'b' would both be the option -a"),
        (lambda graph, *, a=1: None, registry.Cli(flags={"tries": ("-t",)}),
         r"Cli\(flags=...\) names tries, which <lambda> has no keyword of \(it has: a\)"),
        (lambda graph, *, a=1: None, registry.Cli(alternative=registry.Alternative(
            "--json", "", lambda graph: None)), "its alternative's flag --json is already"),
        (lambda graph, *, a: None, registry.Cli(),
         r"keyword 'a' has no default: give its option -a a value in Cli\(example=...\)"),
        (lambda graph, *, a=1: None, registry.Cli(example=("-a", "2", "--seed", "1")),
         r"Cli\(example=...\) gives --seed, not an option of its own"),
        (lambda graph, *, a=1: None, registry.Cli(example=("-b", "2")),
         r"Cli\(example=...\) gives -b, not an option of its own"),
    ],
)  # fmt: skip
def test_other_clashes_of_a_record_are_refused(function, cli, message):
    with pytest.raises(ValueError, match="^scheme 'fake': " + message):
        _record(function=function, cli=cli)


def test_a_name_two_records_share_is_refused():
    with pytest.raises(ValueError, match="^scheme 'partition': graphveil anonymize partition is"):
        _record(name="partition")
    with pytest.raises(ValueError, match="^scheme 'fake': the spelling 'switch' is already"):
        registry._by_name(REGISTRY["edge_switch"], _record(aliases=("switch",)))
    with pytest.raises(ValueError, match="^scheme 'edge_switch': the spelling 'edge_switch'"):
        registry._by_name(REGISTRY["edge_switch"], REGISTRY["edge_switch"])
    # a figure's line and a table's section name one scheme
    switch = REGISTRY["edge_switch"]
    with pytest.raises(ValueError, match="^scheme 'fake': its marker 'x' is already scheme 'edge"):
        registry._by_name(switch, _record(title="Fake"))
    with pytest.raises(ValueError, match="^scheme 'fake': its title 'EdgeSwitch' is already"):
        registry._by_name(switch, _record(marker="8"))
    assert list(registry._by_name(switch, _record(title="Fake", marker="8"))) == [
        "edge_switch",
        "fake",
    ]


def test_every_example_and_the_partition_command_are_checked():
    # the examples run in tests/test_tiny_graphs.py; partition's is checked when its command is made
    for record in REGISTRY.values():
        registry.check_cli(record.name, record.function, record.cli)
    registry.check_cli("partition", gv.anonymize.partition, registry.PARTITION_CLI)
    with pytest.raises(ValueError, match="^scheme 'partition': keyword 'scheme' has no default"):
        registry.check_cli("partition", gv.anonymize.partition, registry.Cli())


def test_the_cli_adds_no_option_beside_the_reserved_ones():
    # RESERVED_FLAGS is what check_cli guards: every option of every generated command that is
    # not one of its function's keywords must be in it (an alternative's flag is its record's).
    import argparse

    anonymize = _subparsers(build_parser())["anonymize"]
    records = {n: (r.function, r.cli) for n, r in REGISTRY.items()}
    records["partition"] = (gv.anonymize.partition, registry.PARTITION_CLI)
    for name, command in _subparsers(anonymize).items():
        function, cli = records[name]
        keywords = set(inspect.signature(function).parameters) - registry.HANDLED_PARAMETERS
        own = {f for k in keywords - {registry.graph_parameter(function)} for f in cli.flags_of(k)}
        if cli.alternative is not None:
            own.add(cli.alternative.flag)
        flags = {f for a in command._actions if not isinstance(a, argparse._SubParsersAction)
                 for f in a.option_strings}  # fmt: skip
        extra = sorted(flags - own - registry.RESERVED_FLAGS)
        assert not extra, f"{name}: the CLI adds {extra}: add them to registry.RESERVED_FLAGS"
        assert len(flags - own) >= 10, name  # the common options are there to be checked
