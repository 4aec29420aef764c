"""The package layout: subpackages reachable from ``import graphveil``, no module shadowed by a function."""

import importlib
import inspect
import pickle
import subprocess
import sys
import types

import graphveil.anonymize as anonymize
from graphveil.generators import powerlaw_cluster

SCHEME_MODULES = ["maxvar", "mixture", "obfuscation", "partition", "randwalk"]


def test_subpackages_reachable_without_importing_them():
    # A fresh interpreter: nothing imported by hand but graphveil itself.
    code = (
        "import graphveil as gv; "
        "print(gv.anonymize.maxvar.__name__, gv.measure.evaluate.__name__, "
        "gv.experiments.reproduce.__name__, gv.attack.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        "graphveil.anonymize.maxvar",
        "evaluate",
        "reproduce",
        "graphveil.attack",
    ]


def test_no_module_is_shadowed_by_a_function():
    for name in SCHEME_MODULES:
        module = importlib.import_module(f"graphveil.anonymize.{name}")
        assert isinstance(getattr(anonymize, name), types.ModuleType)
        assert getattr(anonymize, name) is module
        exec(f"import graphveil.anonymize.{name} as m", globals())
        assert m is module  # noqa: F821 - bound by exec
    for name, value in vars(anonymize).items():
        if isinstance(value, types.FunctionType):
            assert f"graphveil.anonymize.{name}" not in sys.modules, name


def test_scheme_modules_still_call_as_the_scheme():
    g = powerlaw_cluster(40, 2, 0.3, seed=3)
    from graphveil.anonymize.randwalk import randwalk as function

    via_module, _ = anonymize.randwalk(g, t=2, seed=5)
    via_function, _ = function(g, t=2, seed=5)
    assert via_module.n == via_function.n
    assert (via_module.p == via_function.p).all()
    assert inspect.signature(anonymize.maxvar) == inspect.signature(anonymize.maxvar.maxvar)
    assert pickle.loads(pickle.dumps(anonymize.obfuscation)) is anonymize.obfuscation
