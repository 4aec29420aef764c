"""Shared input handling: seeds, thread counts, index dtypes, atomic writes."""

from __future__ import annotations

import contextlib
import numbers
import os
import secrets
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from graphveil import _core

SeedLike = int | np.integer | np.random.Generator | None

try:
    #: The installed package's version (``graphveil.__version__``), written into every file.
    PACKAGE_VERSION = version("graphveil")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    PACKAGE_VERSION = "0.0.0+unknown"


class NotApplicable(ValueError):
    """The graph cannot take this scheme, attack or setting (too few nodes, pairs or edges).

    Not a bug: the study records the point as "not applicable: <reason>" and goes on, and the
    command line prints the one-line reason and exits 2. Raised by schemes and attacks where a
    graph, not a mistake in the code, stops them; any other exception is a bug and surfaces.
    """


#: Node ids are stored as int32 while n < 2**31, int64 above.
INT32_LIMIT = 2**31 - 1


def aligned(value: Any) -> Any:
    """``value``, or a copy if it is a numpy array not aligned for its type.

    For unpickling: Dask can rebuild an array at an odd offset of one received buffer (seen
    on a process worker for email-Enron's CSR row pointers and a MaxVar release's
    probabilities), and the kernels and numpy expect aligned data. A copy keeps the array's read-only flag.

    Examples
    --------
    >>> raw = np.zeros(17, dtype=np.uint8)
    >>> odd = raw[1:].view(np.int64)
    >>> odd.flags.aligned, aligned(odd).flags.aligned
    (False, True)
    """
    if isinstance(value, np.ndarray) and not value.flags.aligned:
        copy = value.copy()
        copy.flags.writeable = value.flags.writeable
        return copy
    return value


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


def pool_workers(threads: int | None) -> int:
    """Workers of a graphveil thread pool: ``threads`` if positive, else :func:`default_threads`."""
    return check_threads(threads) or default_threads()


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


#: Hidden folder (mode 0700) beside an output where its temporary file is written: a temporary
#: left by a killed run is unreadable to others and removed by the next write into that folder.
TMP_DIR_NAME = ".graphveil-tmp"


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, private: bool = False) -> Iterator[Path]:
    """Yield a temporary path for ``path``; rename it over ``path`` only on success.

    An interrupted writer therefore never leaves a half-written file under the final name. The
    temporary file lives in :data:`TMP_DIR_NAME` (mode 0700) inside the target's folder, so it
    can be renamed into place and, should the process be killed (SIGKILL) before it can remove
    it, nobody else can read it; the next write into that folder removes such leftovers (their
    process is gone). It is created with mode 0666 less the umask (0644 under umask 022), or
    0600 when ``private``; the rename keeps that mode. Its name ends with the suffix of
    ``path``, so tools choosing a format by extension still work. Errors name ``path``.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    check_output_path(target)
    tmp = _create_temporary(target, directory, 0o600 if private else 0o666)
    try:
        yield tmp
        try:
            os.replace(tmp, target)
        except PermissionError:
            raise PermissionError(f"cannot write {target}: permission denied") from None
        except IsADirectoryError:
            raise IsADirectoryError(f"cannot write {target}: it is a directory") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        with contextlib.suppress(OSError):  # other writers may still use it
            tmp.parent.rmdir()


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """Fail early, naming ``path``, if a file cannot be written there; returns it as a Path.

    Called by every writer, and by the command line for every output before any work starts.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(f"cannot write {target}: directory {directory} does not exist")
    if target.is_dir():
        raise IsADirectoryError(f"cannot write {target}: it is a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {target}: permission denied on {directory}")
    return target


def clean_stale_temporaries(directory: str | os.PathLike[str]) -> int:
    """Remove temporary files in ``directory``'s :data:`TMP_DIR_NAME` left by dead processes.

    Returns how many were removed. A file whose writer is still running is kept.
    """
    tmp_dir = Path(directory) / TMP_DIR_NAME
    removed = 0
    try:
        entries = list(tmp_dir.iterdir())
    except OSError:
        return 0
    for entry in entries:
        pid_text = entry.name.split(".", 1)[0]
        if pid_text.isdigit() and _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            entry.unlink()
            removed += 1
    with contextlib.suppress(OSError):
        tmp_dir.rmdir()
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def _create_temporary(target: Path, directory: Path, mode: int) -> Path:
    tmp_dir = directory / TMP_DIR_NAME
    clean_stale_temporaries(directory)
    for _ in range(100):
        try:
            tmp_dir.mkdir(mode=0o700, exist_ok=True)
            name = f"{os.getpid()}.{secrets.token_hex(6)}.{target.name}"
            fd = os.open(tmp_dir / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            continue
        except FileNotFoundError:  # another writer removed the empty folder meanwhile
            continue
        except PermissionError:
            raise PermissionError(
                f"cannot write {target}: permission denied on {directory}"
            ) from None
        os.close(fd)
        return tmp_dir / name
    raise FileExistsError(f"cannot write {target}: no free temporary name in {tmp_dir}")


def in_sorted(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Which of ``keys`` occur in ``sorted_keys`` (ascending): one binary search per key.

    For pair keys against a sorted edge list; ``np.isin`` would hash or sort both arrays again
    (Mixture on synthetic-youtube, 3M pairs: 6.9 s in ``np.isin``).
    """
    if sorted_keys.size == 0:
        return np.zeros(np.shape(keys), dtype=bool)
    pos = np.searchsorted(sorted_keys, keys)
    pos[pos == sorted_keys.size] = 0
    return np.asarray(sorted_keys[pos] == keys)


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
