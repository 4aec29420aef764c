"""The package layout: subpackages reachable from ``import graphveil``, no module shadowed by a function."""

import importlib
import pickle
import subprocess
import sys
import types

import pytest

import graphveil.anonymize as anonymize
from graphveil.generators import powerlaw_cluster

SCHEME_FUNCTIONS = [
    "edge_switch",
    "maxvar",
    "mixture",
    "obfuscation",
    "partition",
    "randwalk",
    "randwalk_mod",
]


def test_subpackages_reachable_without_importing_them():
    # A fresh interpreter: nothing imported by hand but graphveil itself.
    code = (
        "import graphveil as gv; "
        "print(gv.anonymize.maxvar.__name__, gv.measure.Report.__name__, gv.evaluate.__name__, "
        "gv.experiments.reproduce.__name__, gv.attack.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        "maxvar",
        "Report",
        "evaluate",
        "reproduce",
        "graphveil.attack",
    ]


def test_no_module_is_shadowed_by_a_function():
    # The schemes are plain functions; their code lives in private modules of other names.
    for name in SCHEME_FUNCTIONS:
        assert isinstance(getattr(anonymize, name), types.FunctionType), name
    for package in (anonymize, importlib.import_module("graphveil.measure")):
        for name, value in vars(package).items():
            if callable(value) and not isinstance(value, types.ModuleType):
                assert f"{package.__name__}.{name}" not in sys.modules, name
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("graphveil.anonymize.maxvar")


def test_scheme_functions_are_the_modules_functions():
    from graphveil.anonymize import randwalk as function

    assert anonymize.randwalk is function
    assert anonymize.maxvar.__module__ == "graphveil.anonymize._maxvar"
    g = powerlaw_cluster(40, 2, 0.3, seed=3)
    ug, _ = anonymize.randwalk(g, t=2, seed=5)
    assert ug.n == g.n
    assert pickle.loads(pickle.dumps(anonymize.obfuscation)) is anonymize.obfuscation
