"""Shared input handling: seeds, thread counts, index dtypes, atomic writes."""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import secrets
import signal
import sys
import threading
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

try:
    #: The installed package's version (``graphveil.__version__``), written into every file.
    PACKAGE_VERSION = version("graphveil")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    PACKAGE_VERSION = "0.0.0+unknown"


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


def index_dtype(n: int) -> np.dtype:
    """The node-id dtype for a graph on n nodes."""
    return np.dtype(np.int32) if n <= INT32_LIMIT else np.dtype(np.int64)


#: Hidden folder (mode 0700) beside an output where its temporary file is written: a temporary
#: left by a killed run is unreadable to others and removed by the next write into that folder.
TMP_DIR_NAME = ".graphveil-tmp"


#: The files of the atomic group being written (:func:`atomic_group`), or None outside one.
_GROUP: contextvars.ContextVar[list[tuple[Path, Path]] | None] = contextvars.ContextVar(
    "graphveil_atomic_group", default=None
)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, private: bool = False) -> Iterator[Path]:
    """Yield a temporary path for ``path``; rename it over ``path`` only on success.

    An interrupted writer therefore never leaves a half-written file under the final name. The
    temporary file lives in :data:`TMP_DIR_NAME` (mode 0700) inside the target's folder, so it
    can be renamed into place and, should the process be killed (SIGKILL) before it can remove
    it, nobody else can read it; the next write into that folder removes such leftovers (their
    process is gone). It is created with mode 0666 less the umask (0644 under umask 022), or
    0600 when ``private``; the rename keeps that mode. The modes are POSIX's: on Windows they
    are ignored (but for read-only) and the file takes the access rules (ACL) of its folder. Its name ends with the suffix of
    ``path``, so tools choosing a format by extension still work. Errors name ``path``.

    Inside :func:`atomic_group` the rename waits for the group: every file of the group is
    renamed into place together, or none is.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    check_output_path(target)
    tmp = _create_temporary(target, directory, 0o600 if private else 0o666)
    group = _GROUP.get()
    try:
        try:
            yield tmp
        except OSError as err:  # e.g. a full disk: one line naming the file
            raise os_error(err, target) from None
        if group is not None:
            group.append((tmp, target))
            return  # the group renames it, or removes it
        with deferred_signals():
            _replace(tmp, target)
            _remove_temporary(tmp)
    except BaseException:
        with deferred_signals():
            _remove_temporary(tmp)
        raise


@contextlib.contextmanager
def atomic_group() -> Iterator[None]:
    """Commit every file written through :func:`atomic_path` inside the block as one unit.

    A release, its TSV sidecar and its run record are one unit: either all of them are in
    place or none is. Every file is first written in full to its temporary; only when the
    block ends without error are they renamed into place, in the order written. SIGINT and
    SIGTERM are deferred (not lost) while the renames and the cleanup run, and are delivered
    once they are done; should a rename still fail (a full disk, a file system error, an
    exception injected in a test), the files already renamed are removed again and the
    temporaries too, so nothing of the unit is left. (A file that an earlier run had left under
    one of the names is then gone too: the group never leaves a mix of old and new files.)
    """
    if _GROUP.get() is not None:  # nested: the outer group commits
        yield
        return
    pending: list[tuple[Path, Path]] = []
    token = _GROUP.set(pending)
    done: list[Path] = []
    try:
        try:
            yield
        finally:
            _GROUP.reset(token)
        with deferred_signals():
            try:
                for tmp, target in pending:
                    _replace(tmp, target)
                    done.append(target)
            except BaseException:
                for target in done:
                    with contextlib.suppress(OSError):
                        target.unlink()
                raise
            finally:
                for tmp, _ in pending:
                    _remove_temporary(tmp)
    except BaseException:
        with deferred_signals():
            for tmp, _ in pending:
                _remove_temporary(tmp)
        raise


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back during the block, then deliver what arrived.

    Python-level handlers are swapped for one that only notes the signal (in the main thread;
    elsewhere Python runs no handlers, so there is nothing to hold back), and the previous
    handlers are put back and the noted signals raised again when the block ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[signum] = signal.signal(signum, lambda s, f: caught.append(s))
        except (ValueError, OSError):  # pragma: no cover - no signals here
            pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(caught):
            signal.raise_signal(number)


def _replace(tmp: Path, target: Path) -> None:
    try:
        os.replace(tmp, target)
    except IsADirectoryError:
        raise IsADirectoryError(f"cannot write {target}: it is a directory") from None
    except OSError as err:
        raise os_error(err, target) from None


def _remove_temporary(tmp: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    with contextlib.suppress(OSError):  # other writers may still use it
        tmp.parent.rmdir()


#: What to do about an OS error met while writing a file, by errno.
_OS_ADVICE = {
    errno.EFBIG: "the file is larger than the file-size limit (ulimit -f); raise the limit",
    errno.ENOSPC: "no space left on the device; free some space or write elsewhere",
    errno.EDQUOT: "the disk quota is exceeded; free some space or write elsewhere",
    errno.EACCES: "permission denied; write into a folder of yours",
    errno.EPERM: "operation not permitted; write into a folder of yours",
    errno.EROFS: "the file system is read-only; write elsewhere",
}


def os_error(err: OSError, path: str | os.PathLike[str] | None = None) -> OSError:
    """``err`` as one line naming the file and what to do (same class, for ``except`` clauses).

    >>> print(os_error(OSError(27, "File too large"), "out/rec.json"))
    cannot write out/rec.json: the file is larger than the file-size limit (ulimit -f); raise the limit
    """
    name = os.fspath(path) if path is not None else err.filename
    if name is None or err.errno not in _OS_ADVICE:
        return err
    out = type(err)(f"cannot write {name}: {_OS_ADVICE[err.errno]}")
    out.errno = err.errno
    return out


def os_message(err: OSError) -> str:
    """The one-line text of an OS error for the command line."""
    if err.errno is not None and err.strerror is not None and str(err).startswith("["):
        name = err.filename
        advice = _OS_ADVICE.get(err.errno, err.strerror)
        return f"{name}: {advice}" if name is not None else advice
    return str(err)


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
    """Whether process ``pid`` may still be running (then its temporaries are kept).

    POSIX: signal 0 tests the process without touching it. Windows has no such test: there
    ``0`` is ``signal.CTRL_C_EVENT`` and ``os.kill(pid, 0)`` *sends Ctrl-C* to the process group,
    so the process is opened and its exit code read through the Win32 API
    (:func:`_alive_windows`). When the answer cannot be had, the process counts as alive: a
    temporary wrongly kept costs disk, one wrongly removed breaks a running write.
    """
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        return _alive_windows(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's live process; anything else: unsure
        return True
    return True


#: Win32 constants of :func:`_alive_windows` (winnt.h, winerror.h, minwinbase.h).
_PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
_ERROR_INVALID_PARAMETER = 87  # OpenProcess on a pid no process has
_STILL_ACTIVE = 259


def _alive_windows(pid: int) -> bool:
    """:func:`_alive` on Windows: ``OpenProcess`` then ``GetExitCodeProcess`` (no signal sent)."""
    import ctypes
    from ctypes import wintypes

    try:
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        handle = kernel32.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
        if not handle:
            # no such process; any other failure (access denied: another user's) is alive
            return ctypes.get_last_error() != _ERROR_INVALID_PARAMETER  # type: ignore[attr-defined]
        try:
            code = wintypes.DWORD()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == _STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    except (AttributeError, OSError):  # no kernel32 to ask: keep the file
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
