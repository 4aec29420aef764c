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
