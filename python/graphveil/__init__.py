"""graphveil: anonymize social graphs via uncertainty semantics.

Implements Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics"
(ASIACCS 2015): the uncertain-graph model, the MaxVar scheme and its competitors, and the
privacy/utility quantifying framework.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("graphveil")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"

from graphveil import attack, datasets, generators
from graphveil._common import default_threads
from graphveil.graph import Graph
from graphveil.io import read_edgelist, read_parquet, write_edgelist, write_parquet
from graphveil.record import RunRecord, load_record
from graphveil.uncertain import UncertainGraph, load_uncertain

__all__ = [
    "Graph",
    "RunRecord",
    "UncertainGraph",
    "__version__",
    "attack",
    "datasets",
    "default_threads",
    "generators",
    "load_record",
    "load_uncertain",
    "read_edgelist",
    "read_parquet",
    "write_edgelist",
    "write_parquet",
]
