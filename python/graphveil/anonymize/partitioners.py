"""The partitioner registry: one record per graph partitioner that MaxVar and Partition can use.

Each :class:`Partitioner` holds what the rest of the package needs to know about a partitioner:
its name (the ``partitioner=`` of :func:`~graphveil.anonymize.maxvar` and
:func:`~graphveil.anonymize.partition`, the CLI's ``--partitioner``, the report's
``params["partitioner"]``), its function, its option names and defaults, the largest seed it
reads (the record reduces the run's 64-bit seed once, no caller does), the extra it needs and a
one-line summary. :meth:`Partitioner.labels` is the one call path: it checks the arguments,
merges the options over the defaults, reduces the seed, runs the function and checks its labels.

METIS is the default (the design card) and built in; KaMinPar is the optional ``kaminpar``
extra. Adding a partitioner is a function ``f(graph, parts, *, seed, threads, options) ->
labels`` and one record in :data:`PARTITIONERS`.

Examples
--------
>>> import graphveil as gv
>>> from graphveil.anonymize.partitioners import get, names
>>> names()[0], "kaminpar" in names()  # the default first
('metis', True)
>>> labels = get("metis").labels(gv.datasets.load("karate_club"), 2, seed=1)
>>> labels.shape, sorted(set(labels.tolist()))
((34,), [0, 1])
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import tempfile
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from graphveil import _core
from graphveil._checks import check_int, check_real, check_threads
from graphveil._seeds import SeedLike, reduced_seed, seed_to_u64
from graphveil.anonymize.parts import metis_parts
from graphveil.graph import Graph, check_graph

__all__ = [
    "DEFAULT",
    "METIS_OPTIONS",
    "PARTITIONERS",
    "Partitioner",
    "get",
    "names",
    "write_parhip",
]

#: ``function(graph, parts, *, seed, threads, options) -> labels``: ``seed`` already reduced to
#: ``0..seed_max``, ``threads`` checked (0: every core), ``options`` every option of the record
#: (the defaults overridden by the caller's); int64 labels ``0..parts-1``, one per node. Called
#: with ``2 <= parts <= graph.n`` only (one part needs no partitioner).
PartitionFunction = Callable[..., np.ndarray]

#: The partitioner MaxVar and Partition use unless told otherwise (the design card's).
DEFAULT = "metis"

#: METIS options MaxVar and Partition use unless told otherwise: 2 refinement iterations instead
#: of METIS's 10. Measured: on a youtube-size Holme-Kim graph (60 parts) METIS takes 11.4 s of
#: CPU instead of 30.8 s for a 1.1% larger cut; on web-NotreDame (20 parts) 0.48 s instead of
#: 0.54 s, cut +0.6%. The ``metis`` record's defaults.
METIS_OPTIONS = {"niter": 2}


@dataclass(frozen=True)
class Partitioner:
    """One partitioner: its function, options, seed range and what it needs installed."""

    #: Its one name: ``partitioner=`` of the API, ``--partitioner`` of the CLI, the report's.
    name: str
    #: ``function(graph, parts, *, seed, threads, options) -> labels`` (:data:`PartitionFunction`).
    function: PartitionFunction
    #: One line: what it is and what it costs.
    summary: str
    #: The option names it takes (``options`` of :meth:`labels`).
    option_names: tuple[str, ...]
    #: The options it runs with unless told otherwise (a subset of :attr:`option_names`).
    defaults: Mapping[str, Any] = field(default_factory=dict)
    #: The largest seed it reads: the run's seed is reduced modulo ``seed_max + 1`` here, once.
    seed_max: int = 2**64 - 1
    #: The module it imports and the extra that installs it (None: built in).
    module: str | None = None
    extra: str | None = None

    def __post_init__(self) -> None:
        problems = []
        if not (self.name.isidentifier() and self.summary and callable(self.function)):
            problems.append("it needs a name (an identifier), a function and a summary")
        unknown = [name for name in self.defaults if name not in self.option_names]
        if unknown:
            problems.append(f"defaults name {', '.join(unknown)}, none of its option_names")
        if (self.module is None) != (self.extra is None):
            problems.append("an optional library names both its module and the extra installing it")
        if not 0 < self.seed_max < 2**64:
            problems.append(f"seed_max {self.seed_max} is not in 1..2**64 - 1")
        if problems:
            raise ValueError(f"partitioner {self.name!r}: {'; '.join(problems)}")

    def options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The options a run uses: :attr:`defaults` overridden by ``given``.

        Raises
        ------
        TypeError
            ``given`` is not a dict.
        ValueError
            An option name the partitioner does not take; the message lists its names.
        """
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise TypeError(
                f"partitioner_options must be a dict of {self.name} option names to values, "
                f"not {type(given).__name__}"
            )
        unknown = [name for name in given if name not in self.option_names]
        if unknown:
            raise ValueError(
                f"not a {self.name} option: {', '.join(map(str, unknown))}; the options are "
                + ", ".join(self.option_names)
            )
        return {**self.defaults, **given}

    def seed(self, seed: int) -> int:
        """The run's 64-bit seed as this partitioner reads it: ``seed % (seed_max + 1)``."""
        return reduced_seed(seed, self.seed_max)

    def available(self) -> bool:
        """Whether its module is installed (always True for a built-in partitioner)."""
        return self.module is None or importlib.util.find_spec(self.module) is not None

    def require(self) -> ModuleType | None:
        """Import its module, or raise an ImportError naming the extra that installs it."""
        if self.module is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return importlib.import_module(self.module)
        except ImportError as err:
            raise ImportError(
                f"partitioner {self.name!r} needs {self.module}, which is not installed: "
                f'pip install "graphveil[{self.extra}]" (or choose partitioner="{DEFAULT}")'
            ) from err

    def labels(
        self,
        graph: Graph,
        parts: int,
        *,
        seed: SeedLike = None,
        threads: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> np.ndarray:
        """Split ``graph`` into ``parts`` parts: the part label ``0..parts-1`` of every node.

        ``seed`` is read once (``seed_to_u64``) and reduced to the
        partitioner's range (:meth:`seed`); ``options`` are merged over the defaults
        (:meth:`options`). ``parts=1`` puts every node in part 0 without running the
        partitioner. A partitioner balances the part sizes; where it leaves a part empty (a
        tiny graph), that part takes the least-degree node of the largest part, so every
        part has a node.

        Raises
        ------
        TypeError
            ``graph`` is not a :class:`~graphveil.Graph`, ``parts`` not an integer, bad options.
        ValueError
            ``parts`` outside ``1..graph.n``; an unknown option or a bad option value.
        ImportError
            The partitioner's extra is not installed.
        """
        check_graph(graph, what=None)
        parts = check_int(parts, "parts", low=1)
        if parts > graph.n:
            raise ValueError(
                f"parts={parts} exceeds the number of nodes ({graph.n}); ask for at most "
                f"{graph.n} parts"
            )
        run_seed = self.seed(seed_to_u64(seed))
        nthreads = check_threads(threads)
        merged = self.options(options)
        self.require()
        if parts == 1:
            return np.zeros(graph.n, dtype=np.int64)
        # a directed graph is split by its underlying undirected graph: partitioners read a
        # symmetric CSR, and the parts are sets of nodes whatever the arcs' directions
        simple = graph.to_undirected() if graph.directed else graph
        labels = np.asarray(
            self.function(simple, parts, seed=run_seed, threads=nthreads, options=merged),
            dtype=np.int64,
        )
        if labels.shape != (graph.n,) or (labels.min() < 0 or labels.max() >= parts):
            raise RuntimeError(  # pragma: no cover - a partitioner's bug
                f"{self.name} returned labels of shape {labels.shape} outside 0..{parts - 1}"
            )
        return _fill_empty(labels, parts, simple.degrees)


def _fill_empty(labels: np.ndarray, parts: int, degrees: np.ndarray) -> np.ndarray:
    """Every part non-empty: each empty part, in label order, takes one node of the largest part.

    METIS and KaMinPar may leave a part empty on a tiny graph (a triangle in 2 parts); with
    ``parts <= n`` a part of two or more nodes then exists. The node moved is the largest
    part's (lowest label among equals) node of least degree (lowest id among equals), so the
    cut grows by at most that degree. Labels with no empty part are returned as they are.
    """
    sizes = np.bincount(labels, minlength=parts)
    empty = np.flatnonzero(sizes == 0)
    if empty.size == 0:
        return labels
    labels = labels.copy()
    for part in empty.tolist():
        big = int(np.argmax(sizes))
        members = np.flatnonzero(labels == big)
        node = members[np.argmin(degrees[members])]
        labels[node] = part
        sizes[big] -= 1
        sizes[part] += 1
    return labels


def _metis(
    graph: Graph, parts: int, *, seed: int, threads: int, options: dict[str, Any]
) -> np.ndarray:
    """METIS k-way through :func:`~graphveil.anonymize.parts.metis_parts` (one thread)."""
    return metis_parts(graph, parts, seed=seed, options=options)


# ---------------------------------------------------------------------------------- KaMinPar
#: KaMinPar keeps its seed in one process-wide variable: a reseed and the run it seeds go together.
_KAMINPAR_LOCK = threading.Lock()

#: ParHIP header flags (KaMinPar's binary format, ``kaminpar-io/parhip_parser.cc``): a set bit
#: says "absent" or "32-bit". No edge weights (bit 0), no node weights (1), 64-bit edge offsets
#: (bit 2 clear), 32-bit node ids (3), 32-bit node weights (4), 32-bit edge weights (5).
_PARHIP_VERSION = 0b111011


def write_parhip(graph: Graph, path: str | os.PathLike[str]) -> None:
    """Write ``graph``'s CSR in the ParHIP binary format KaMinPar reads (no text round trip).

    A 3-word header (version flags, n, number of directed edges ``2m``), the ``n + 1`` uint64
    byte offsets of every node's neighbours in the file, then the neighbours as uint32: three
    ``tofile`` writes of the arrays ``graph`` already holds.
    """
    n, nnz = graph.n, int(graph.indices.size)
    if n >= 2**32:
        raise ValueError(f"KaMinPar's file takes 32-bit node ids; the graph has {n:,} nodes")
    header = np.array([_PARHIP_VERSION, n, nnz], dtype=np.uint64)
    base = header.nbytes + (n + 1) * 8  # where the neighbours start
    offsets = base + graph.indptr.astype(np.uint64) * np.uint64(4)
    with open(path, "wb") as out:
        header.tofile(out)
        offsets.tofile(out)
        graph.indices.astype(np.uint32, copy=False).tofile(out)


def _kaminpar(
    graph: Graph, parts: int, *, seed: int, threads: int, options: dict[str, Any]
) -> np.ndarray:
    """KaMinPar on ``options["threads"]`` threads (not the caller's: see the record)."""
    kaminpar = importlib.import_module("kaminpar")
    preset = options["preset"]
    if preset not in kaminpar.context_names():
        raise ValueError(
            f"not a KaMinPar preset: {preset!r}; the presets are "
            + ", ".join(sorted(kaminpar.context_names()))
        )
    eps = check_real(
        options["eps"], "KaMinPar option eps (the allowed imbalance)", 0, 1, open_low=True
    )
    workers = check_int(options["threads"], "KaMinPar option threads", low=1)
    with tempfile.TemporaryDirectory(prefix="graphveil-kaminpar-") as folder:
        path = os.path.join(folder, "graph.parhip")
        write_parhip(graph, path)
        kgraph = kaminpar.load_graph(path, kaminpar.GraphFileFormat.PARHIP)
    with _KAMINPAR_LOCK:
        kaminpar.reseed(seed)
        solver = kaminpar.KaMinPar(workers, kaminpar.context_by_name(preset))
        labels = solver.compute_partition(kgraph, parts, eps)
    return np.asarray(labels, dtype=np.int64)


def _by_name(*records: Partitioner) -> dict[str, Partitioner]:
    """The records keyed by name, the default first; a name two of them share is refused."""
    table: dict[str, Partitioner] = {}
    for record in records:
        if record.name in table:
            raise ValueError(f"partitioner {record.name!r}: another has that name: choose another")
        table[record.name] = record
    if next(iter(table), None) != DEFAULT:
        raise ValueError(f"the default partitioner {DEFAULT!r} must be the first record")
    return table


#: Every partitioner, the default first.
PARTITIONERS: dict[str, Partitioner] = _by_name(
    *(
        Partitioner(
            name="metis",
            function=_metis,
            summary="METIS 5.1.0 k-way, built in (one thread; options: METIS_OPTION_* in "
            "lower case)",
            option_names=tuple(_core.metis_option_names),
            defaults=METIS_OPTIONS,
            seed_max=2**31 - 1,  # METIS reads its seed as a C int
        ),
        Partitioner(
            name="kaminpar",
            function=_kaminpar,
            # Measured: its labels for a seed vary from run to run on 2 threads (and differ
            # between 1 and 2 threads); on 1 thread they are the same every run.
            summary="KaMinPar (shared-memory multilevel): faster than METIS on large graphs; "
            "deterministic on its default 1 thread only (options threads, preset, eps)",
            option_names=("preset", "eps", "threads"),
            defaults={"preset": "default", "eps": 0.03, "threads": 1},
            seed_max=2**31 - 1,  # kaminpar.reseed takes a C int
            module="kaminpar",
            extra="kaminpar",
        ),
    )
)


def names() -> tuple[str, ...]:
    """The registered partitioner names, the default first."""
    return tuple(PARTITIONERS)


def get(name: str) -> Partitioner:
    """The partitioner registered under ``name``.

    Raises
    ------
    TypeError
        ``name`` is not a string.
    ValueError
        No partitioner has that name; the message lists the names.
    """
    if not isinstance(name, str):
        raise TypeError(f"partitioner must be a name, one of {', '.join(PARTITIONERS)}")
    try:
        return PARTITIONERS[name]
    except KeyError:
        raise ValueError(
            f"unknown partitioner {name!r}; choose one of {', '.join(PARTITIONERS)}"
        ) from None
