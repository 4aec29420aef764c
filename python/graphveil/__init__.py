"""graphveil: anonymize social graphs via uncertainty semantics.

Implements Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics"
(ASIACCS 2015): the uncertain-graph model, the MaxVar scheme and its competitors, and the
privacy/utility quantifying framework.
"""

import importlib
from typing import TYPE_CHECKING, Any

from graphveil import attack, datasets, generators
from graphveil._checks import NotApplicable
from graphveil._common import PACKAGE_VERSION as __version__
from graphveil._threads import default_threads
from graphveil.evaluation import evaluate
from graphveil.graph import Graph
from graphveil.io import read_edgelist, read_parquet, write_edgelist, write_parquet
from graphveil.record import RunRecord, load_record
from graphveil.uncertain import UncertainGraph, load_uncertain

if TYPE_CHECKING:
    from graphveil import anonymize, experiments, measure
    from graphveil.publishing import publish

#: Subpackages loaded on first use (``gv.anonymize.maxvar(...)``): importing graphveil stays
#: cheap, and ``experiments`` (which pulls in every scheme and measure) is paid for only when used.
_LAZY = ("anonymize", "experiments", "measure")


def __getattr__(name: str) -> Any:
    if name == "publish":  # graphveil.publishing.publish, loaded on first use
        return importlib.import_module("graphveil.publishing").publish
    if name in _LAZY:
        return importlib.import_module(f"graphveil.{name}")
    raise AttributeError(f"module 'graphveil' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"publish"})


__all__ = [
    "Graph",
    "NotApplicable",
    "RunRecord",
    "UncertainGraph",
    "__version__",
    "anonymize",
    "attack",
    "datasets",
    "default_threads",
    "evaluate",
    "experiments",
    "generators",
    "load_record",
    "load_uncertain",
    "measure",
    "publish",
    "read_edgelist",
    "read_parquet",
    "write_edgelist",
    "write_parquet",
]
