"""Argument checks: the one home of the checks every layer makes of its arguments.

One policy (STYLE.md): a value of the wrong type is a TypeError, a value of the right type out
of its range a ValueError, and every message names the argument, says what it must be and
shows what it got, so that the caller knows what to change. :class:`NotApplicable` (a
ValueError) is the graph, not the caller, stopping a scheme or measure.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np


class NotApplicable(ValueError):
    """The graph cannot take this scheme, attack or setting (too few nodes, pairs or edges).

    Not a bug: the study records the point as "not applicable: <reason>" and goes on, and the
    command line prints the one-line reason and exits 2. Raised by schemes and attacks where a
    graph, not a mistake in the code, stops them; any other exception is a bug and surfaces.
    """


def require_undirected(graph: Any, what: str) -> None:
    """Refuse a directed graph at the entry of ``what``, which has no directed form yet.

    ``graph`` is a :class:`~graphveil.Graph` or :class:`~graphveil.UncertainGraph` (directed
    when its ``directed`` is True). The one check of every scheme, measure and attack that assumes a symmetric CSR or unordered
    pairs: such code must refuse a directed graph rather than silently treat its arcs as edges.
    Raises :class:`NotApplicable` (a ValueError: the study records the point as not applicable,
    the command line prints the reason) whose message starts ``"<what> has no directed form
    yet"``. Anything else (an undirected graph, an object without ``directed``) passes.

    Examples
    --------
    >>> from graphveil import Graph
    >>> require_undirected(Graph.from_edges([0], [1], directed=True), "maxvar")
    Traceback (most recent call last):
    ...
    graphveil._checks.NotApplicable: maxvar has no directed form yet: ...
    """
    if getattr(graph, "directed", False) is True:
        raise NotApplicable(
            f"{what} has no directed form yet: it needs an undirected graph, got a directed one "
            f"({graph!r}); pass graph.to_undirected() to drop the arc directions"
        )


def check_int(value: Any, name: str, low: int | None = None, hint: str = "") -> int:
    """``value`` as an int: TypeError if it is not an integer (bools refused), ValueError below ``low``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}{hint}")
    return int(value)


def check_real(value: Any, name: str, low: float, high: float, *, open_low: bool = False) -> float:
    """``value`` as a finite float in ``[low, high]`` (``(low, high]`` with ``open_low``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    x = float(value)
    bad_low = x <= low if open_low else x < low
    if not np.isfinite(x) or bad_low or x > high:
        left = "(" if open_low else "["
        right = ")" if math.isinf(high) else "]"  # an infinite bound is never reached
        raise ValueError(f"{name} must lie in {left}{low:g}, {high:g}{right}, got {value!r}")
    return x


#: The most threads a call takes: results never depend on the count, and the kernels start up
#: to that many (a C int); more than a machine's CPUs only adds start-up and switching.
MAX_THREADS = 1024

#: The most possible worlds one call draws: ``evaluate``'s and the study's samples, ``sample -n``.
#: A mean over samples errs as 1 / sqrt(samples): 1,000 give 3% of one sample's spread, past
#: the precision of any table (the paper's: 20).
MAX_SAMPLES = 1000


def check_threads(threads: int | None) -> int:
    """``threads`` as an int: 0 or None the machine's share, else a count up to the bound.

    0 and None mean :func:`default_threads`; a count lies in ``1..MAX_THREADS``.
    """
    if threads is None:
        return 0
    if (
        isinstance(threads, bool)
        or not isinstance(threads, (int, np.integer))
        or not 0 <= threads <= MAX_THREADS
    ):
        raise ValueError(
            f"threads must be an integer in 0..{MAX_THREADS} (0 = default_threads()), "
            f"got {threads!r}"
        )
    return int(threads)


def check_samples(samples: Any, name: str = "samples") -> int:
    """``samples`` as an int in ``1..MAX_SAMPLES`` (TypeError, ValueError).

    >>> check_samples(10**18)
    Traceback (most recent call last):
    ...
    ValueError: samples must lie in 1..1000 (possible worlds drawn), got 1000000000000000000
    """
    samples = check_int(samples, name, 1)
    if samples > MAX_SAMPLES:
        raise ValueError(
            f"{name} must lie in 1..{MAX_SAMPLES} (possible worlds drawn), got {samples}"
        )
    return samples


def check_ints(value: Any, name: str, low: int) -> tuple[int, ...]:
    """``value`` (one integer or a non-empty iterable of them) as a tuple of integers >= ``low``.

    >>> check_ints(30, "k", 1), check_ints([30, 50], "k", 1)
    ((30,), (30, 50))
    """
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, bool):
        items: tuple[Any, ...] = (value,)
    elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        items = tuple(value)
    else:
        raise TypeError(f"{name} must be an int or a sequence of ints, got {value!r}")
    if not items:
        raise ValueError(f"{name} must be an int or a non-empty sequence of ints")
    for item in items:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Integral):
            raise TypeError(f"every {name} must be an integer >= {low}, got {item!r}")
        if item < low:
            raise ValueError(f"every {name} must be an integer >= {low}, got {item!r}")
    return tuple(int(item) for item in items)


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where the system does not say.

    ``sysconf`` on Linux and macOS, ``GlobalMemoryStatusEx`` on Windows.
    """
    try:
        import os

        if hasattr(os, "sysconf"):
            return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
        import ctypes

        class _MemoryStatus(ctypes.Structure):
            _fields_ = [  # noqa: RUF012 - ctypes' own declaration
                ("length", ctypes.c_ulong),
                ("load", ctypes.c_ulong),
                ("total_physical", ctypes.c_ulonglong),
                ("available_physical", ctypes.c_ulonglong),
                ("total_page_file", ctypes.c_ulonglong),
                ("available_page_file", ctypes.c_ulonglong),
                ("total_virtual", ctypes.c_ulonglong),
                ("available_virtual", ctypes.c_ulonglong),
                ("available_extended_virtual", ctypes.c_ulonglong),
            ]

        status = _MemoryStatus()
        status.length = ctypes.sizeof(_MemoryStatus)
        if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
            return None
        return int(status.total_physical)
    except (ValueError, OSError, AttributeError):  # a name the system does not define
        return None


def check_memory(nbytes: int, what: str) -> None:
    """Refuse, before anything is allocated, work that needs more than the machine's memory.

    ``nbytes`` is the work's estimate of its peak (its arrays); a ValueError says how much it
    needs and how much the machine has (:func:`physical_memory`; no check where unknown), so
    the command line refuses in one line instead of a ``std::bad_alloc`` traceback.

    Examples
    --------
    >>> check_memory(2**70, "a world of 2**67 nodes")
    Traceback (most recent call last):
    ...
    ValueError: a world of 2**67 nodes needs about 1099511627776.0 GiB of memory, more than ...
    """
    total = physical_memory()
    if total is not None and nbytes > total:
        raise ValueError(
            f"{what} needs about {nbytes / 2**30:.1f} GiB of memory, more than this machine's "
            f"{total / 2**30:.1f} GiB"
        )
