"""Every registered thing over every graph of the zoo, checked against what its record promises.

Read from the registries, never from copied lists: every scheme (:mod:`graphveil.anonymize.registry`,
all families), every statistic (:data:`graphveil.measure.utility.STATISTIC_TABLE`), every attack
(:mod:`graphveil.attack.registry`) and every release format (:func:`release_formats`). A thing
added to its registry is tested here with no edit. A scheme or attack may refuse a graph it
cannot take, with a ValueError that says why; what it returns must keep its promises.
"""

from __future__ import annotations

import inspect
import math
import re
from functools import cache

import numpy as np
import pytest
from graph_zoo import ZOO, karate_graph

import graphveil as gv
from graphveil.anonymize import registry as schemes
from graphveil.attack import attack_scores
from graphveil.attack import registry as attacks
from graphveil.experiments import StudyConfig
from graphveil.measure.analyst import analyst_reference
from graphveil.measure.utility import STATISTIC_TABLE, utility_statistics

#: The zoo and one real graph (where every scheme applies).
GRAPHS = {**ZOO, "karate": karate_graph()}

#: Small settings of the study's entry points: each scheme runs at its first grid value.
CONFIG = StudyConfig(samples=2, obf_k=3, maxvar_parts=1, attacks=False)


def release_formats() -> tuple[str, ...]:
    """The release formats to round-trip: the one place to point at the io format table."""
    return tuple(name for name, fmt in gv.io.FORMATS.items() if "uncertain" in fmt.holds)


@cache
def release(scheme: str, graph: str) -> gv.UncertainGraph | str:
    """The scheme's release of the graph at its first grid value, or the refusal's message."""
    record = schemes.scheme(scheme)
    g = GRAPHS[graph]
    try:
        extra = {"prepared": record.prepare(g, CONFIG, 1)} if record.prepare else {}
        return record.study(g, record.default_grid[0], CONFIG, 1, **extra).graph
    except ValueError as err:  # NotApplicable and the schemes' own refusals
        assert str(err), f"{scheme} refused {graph} without a message"
        return str(err)


def _applied(scheme: str, graph: str) -> gv.UncertainGraph:
    ug = release(scheme, graph)
    if isinstance(ug, str):
        pytest.skip(f"{scheme} does not apply to {graph}: {ug}")
    return ug


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("scheme", schemes.names())
def test_scheme_keeps_its_promises(scheme, graph):
    record = schemes.scheme(scheme)
    g = GRAPHS[graph]
    ug = _applied(scheme, graph)
    assert isinstance(ug, gv.UncertainGraph) and ug.n == g.n
    assert np.all((ug.p >= 0.0) & (ug.p <= 1.0))
    assert np.all(ug.u != ug.v) or ug.relaxed  # loops only in a relaxed (multigraph) model
    if record.deterministic:
        assert np.all((ug.p == 0.0) | (ug.p == 1.0))
    if record.expected_degrees:
        np.testing.assert_allclose(ug.expected_degrees(), g.degrees, atol=1e-6)


def test_every_scheme_applies_to_the_real_graph():
    refused = {s: release(s, "karate") for s in schemes.names()}
    assert not [s for s, r in refused.items() if isinstance(r, str)], refused


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_every_statistic_is_finite_or_documented_nan(graph, directed):
    g = GRAPHS[graph]
    if directed:  # each edge an arc, the lower id first
        g = gv.Graph.from_edges(*g.edges(), g.n, directed=True)
    reference = None if directed else analyst_reference(g, seed=1, threads=1)
    values = utility_statistics(g, seed=1, threads=1, analyst=reference)
    rows = [s for s in STATISTIC_TABLE if s.measures(g.directed) and (reference or not s.analyst)]
    names = {name for s in rows for name in s.compute(g, _options(reference)).keys()}
    assert set(values) == names
    for row in rows:
        value = values[row.name]
        if math.isnan(value):  # where its record says it may be (Statistic.undefined)
            assert _may_be_nan(row.undefined, g), (row.name, graph, row.undefined)
        elif not row.analyst:  # counts, means, shares and exponents (an assortativity may be < 0)
            assert math.isfinite(value) and value >= 0.0, (row.name, value)


def _options(reference=None):
    from graphveil.measure.utility import StatisticOptions

    return StatisticOptions(10_000, 1000, 1, 1, "auto", analyst=reference)


def _may_be_nan(undefined: str, g: gv.Graph) -> bool:
    """Whether a statistic whose record says ``undefined`` may be NaN on ``g``."""
    return {"": False, "no nodes": g.n == 0, "no edges": g.m == 0, "some graphs": True}[undefined]


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("scheme", ["control", *schemes.names()])
def test_attacks_columns_in_range(scheme, graph):
    g = GRAPHS[graph]
    published = g if scheme == "control" else _applied(scheme, graph)
    try:
        scores = attack_scores(g, published, samples=1, seed=1, threads=1)
    except gv.NotApplicable as err:
        assert str(err)
        pytest.skip(f"the attacks do not apply: {err}")
    columns = attacks.columns()
    assert list(scores) == [c.name for c in columns] + ["attack_samples", "attack_seeds"]
    deterministic = isinstance(published, gv.Graph) or bool(
        np.all((published.p == 0.0) | (published.p == 1.0))
    )
    for column in columns:
        value = scores[column.name]
        assert attacks.in_range(column, value), (column.name, value)
        if deterministic and not column.deterministic:
            assert value is None, column.name


@pytest.mark.parametrize("name", attacks.names())
def test_attack_records_are_whole(name):
    record = attacks.attack(name)
    assert record.headline in record.names()
    assert record.columns and len(set(record.names())) == len(record.names())
    keywords = inspect.signature(record.function).parameters
    for option in record.options:  # the command's options are the function's keywords
        assert option.keyword in keywords and option.flag.startswith("--")
    assert record.help and record.description


def test_an_attack_record_is_checked_when_defined():
    import dataclasses

    link = attacks.attack("link")
    cases = [
        ({"headline": "x"}, "its headline 'x' is none of its columns"),
        ({"options": (attacks.Option("--json", "seed", "x"),)}, "option --json is no long option"),
        ({"options": (attacks.Option("-x", "seed", "x"),)}, "option -x is no long option"),
        ({"options": (attacks.Option("--zz", "nope", "x"),)}, "passes 'nope', no keyword of it"),
        ({"columns": (*link.columns, link.columns[0])}, "share a name"),
        ({"help": ""}, "it needs a name (an identifier), a title, a help and a description"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=f"^attack 'link': .*{re.escape(message)}"):
            dataclasses.replace(link, **change)
    with pytest.raises(ValueError, match="^attack 'link': another attack has that name"):
        attacks._by_name(link, link)
    twin = dataclasses.replace(link, name="twin")  # the same columns under another name
    with pytest.raises(ValueError, match="^attack 'twin': its column 'link_auc' is already attack"):
        attacks._by_name(link, twin)


def test_the_attack_cli_adds_no_option_beside_the_reserved_ones():
    import argparse

    from graphveil.cli import build_parser

    def sub(parser):
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    commands = sub(sub(build_parser()).choices["attack"]).choices
    assert list(commands) == list(attacks.names())
    for name, command in commands.items():
        own = {o.flag for o in attacks.attack(name).options}
        flags = {f for a in command._actions for f in a.option_strings}
        assert own <= flags and flags - own == attacks.RESERVED_FLAGS, name


def test_attack_columns_are_unique_and_the_study_reads_them():
    from graphveil.experiments import ATTACK_COLUMNS

    names = [c.name for c in attacks.columns()]
    assert len(names) == len(set(names))
    assert ATTACK_COLUMNS == attacks.table_columns()
    assert attacks.reidentification_column().name in ATTACK_COLUMNS
    with pytest.raises(ValueError, match="unknown attack 'nope': one of link, propagation"):
        attacks.attack("nope")


def _same(a: gv.UncertainGraph, b: gv.UncertainGraph) -> bool:
    def pairs(ug):
        lo, hi = np.minimum(ug.u, ug.v), np.maximum(ug.u, ug.v)
        order = np.lexsort((ug.p, hi, lo))
        return lo[order], hi[order], ug.p[order]

    return a.n == b.n and all(np.array_equal(x, y) for x, y in zip(pairs(a), pairs(b)))


@pytest.mark.parametrize("fmt", release_formats())
@pytest.mark.parametrize("scheme", schemes.names())
def test_release_round_trip(tmp_path, scheme, fmt):
    ug = _applied(scheme, "karate")
    path = tmp_path / f"release.{fmt}"
    try:
        ug.save(path, keep_ids=True, format=fmt)
        back = gv.load_uncertain(path, format=fmt)
    except ValueError as err:  # a format that cannot carry this release says so
        assert str(err)
        pytest.skip(f"{fmt} does not carry {scheme}'s release: {err}")
    assert back.relaxed == ug.relaxed
    assert _same(back, ug)
