"""Shared input handling: seeds, thread counts, index dtypes, atomic writes."""

from __future__ import annotations

import contextlib
import numbers
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Union

import numpy as np

from graphveil import _core

SeedLike = Union[int, np.integer, np.random.Generator, None]

#: Node ids are stored as int32 while n < 2**31, int64 above.
INT32_LIMIT = 2**31 - 1


def seed_to_u64(seed: SeedLike) -> int:
    """Reduce a user seed to the one 64-bit integer handed to the C++ kernels.

    ``None`` draws fresh entropy; a ``numpy.random.Generator`` is advanced by one draw.
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**64, dtype=np.uint64))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"seed must be an int, a numpy.random.Generator or None, not {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed) % 2**64


def default_threads() -> int:
    """The number of threads graphveil uses when ``threads`` is 0 or None.

    ``GRAPHVEIL_NUM_THREADS`` when it is set; otherwise the CPUs this process may run on: on
    Linux its affinity mask (``taskset``, a batch scheduler's pinning) capped by any cgroup v1
    or v2 CPU quota, rounded up; elsewhere the machine's logical CPU count. Never below 1. The
    compiled kernels and graphveil's own thread pools use this same count, and results never
    depend on it.

    Returns
    -------
    int
        A positive thread count.

    Raises
    ------
    ValueError
        If ``GRAPHVEIL_NUM_THREADS`` is set but is not a whole number from 1 to 65536.

    Examples
    --------
    >>> import graphveil
    >>> graphveil.default_threads() >= 1
    True
    """
    return int(_core.default_threads())


def check_threads(threads: int | None) -> int:
    """0 or None means the machine's share (:func:`default_threads`); otherwise a positive count."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 0:
        raise ValueError(
            f"threads must be a non-negative integer (0 = default_threads()), got {threads!r}"
        )
    return int(threads)


def index_dtype(n: int) -> np.dtype:
    """The node-id dtype for a graph on n nodes."""
    return np.dtype(np.int32) if n <= INT32_LIMIT else np.dtype(np.int64)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it over ``path`` only on success.

    An interrupted writer therefore never leaves a half-written file under the final name.
    The suffix of ``path`` is kept so that tools choosing a format by extension still work.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.exists():
        raise FileNotFoundError(f"cannot write {target}: directory {directory} does not exist")
    fd, tmp_name = tempfile.mkstemp(
        dir=directory, prefix=f".{target.name}.", suffix=".tmp" + target.suffix
    )
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


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
        raise ValueError(f"{name} must lie in {left}{low:g}, {high:g}], got {value!r}")
    return x
