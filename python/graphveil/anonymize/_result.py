"""What every anonymization scheme returns."""

from __future__ import annotations

from typing import Any, NamedTuple

from graphveil.uncertain import UncertainGraph


class Anonymized(NamedTuple):
    """The output of a scheme: the uncertain graph and a report of how it was made.

    Unpacks as ``ug, report = scheme(...)``. ``report`` is a plain dict (JSON-serialisable):
    ``scheme``, ``params``, ``seed``, ``timings`` (seconds per phase) and scheme-specific
    entries. The same dict (without bulky arrays) is stored in ``graph.meta`` for the caller.
    :meth:`UncertainGraph.save` publishes only ``scheme`` and ``params`` (the parameters the
    user chose); the rest, the seed first, goes to the private run record (``record=``), never
    into the release.
    """

    graph: UncertainGraph
    report: dict[str, Any]
