"""The Examples sections of the public docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import graphveil

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(graphveil.__path__, "graphveil.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_examples_exist():
    attempted = sum(
        doctest.testmod(importlib.import_module(n), report=False).attempted for n in MODULES
    )
    assert attempted >= 50


@pytest.mark.parametrize(
    "name",
    [
        "graphveil.anonymize._maxvar.maxvar",
        "graphveil.anonymize._obfuscation.obfuscation",
        "graphveil.anonymize._randwalk.randwalk",
        "graphveil.anonymize._randwalk.randwalk_mod",
        "graphveil.anonymize._switching.edge_switch",
        "graphveil.anonymize._mixture.mixture",
        "graphveil.anonymize._partition.partition",
        "graphveil.evaluation.evaluate",
        "graphveil.experiments.reproduce",
    ],
)
def test_schemes_and_entry_points_show_an_example(name):
    module, _, attr = name.rpartition(".")
    function = getattr(importlib.import_module(module), attr)
    examples = doctest.DocTestFinder(recurse=False).find(function, attr)
    assert "\n    Examples\n    --------\n" in function.__doc__
    assert sum(len(t.examples) for t in examples) >= 3
