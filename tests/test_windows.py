"""Process and permission code on Windows, run here by mocking the platform and the Win32 API."""

from __future__ import annotations

import os
import sys

import pytest

from graphveil import _common


class FakeKernel32:
    """OpenProcess / GetExitCodeProcess / CloseHandle over a table of pids."""

    def __init__(self, processes: dict[int, int | None]):
        self.processes = processes  # pid -> exit code (259: still active); None: access denied
        self.closed: list[int] = []
        self.last_error = 0

    def OpenProcess(self, access, inherit, pid):  # noqa: N802 (the Win32 name)
        assert access == _common._PROCESS_QUERY_LIMITED_INFORMATION and not inherit
        if pid not in self.processes:
            self.last_error = _common._ERROR_INVALID_PARAMETER
            return 0
        if self.processes[pid] is None:
            self.last_error = 5  # ERROR_ACCESS_DENIED
            return 0
        return 1000 + pid

    def GetExitCodeProcess(self, handle, code_ref):  # noqa: N802
        code_ref._obj.value = self.processes[handle - 1000]
        return 1

    def CloseHandle(self, handle):  # noqa: N802
        self.closed.append(handle)
        return 1


@pytest.fixture
def windows(monkeypatch):
    """Pretend to be on Windows: sys.platform, a fake kernel32, and os.kill that must not be called.

    (os.name stays: pathlib picks its flavour from it, and pytest's own paths must still work.)
    """
    import ctypes

    kernel = FakeKernel32({11: 259, 12: 0, 13: None})
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(ctypes, "WinDLL", lambda name, use_last_error: kernel, raising=False)
    monkeypatch.setattr(ctypes, "get_last_error", lambda: kernel.last_error, raising=False)

    def no_kill(pid, sig):
        raise AssertionError("os.kill(pid, 0) sends Ctrl-C on Windows: it must not be called")

    monkeypatch.setattr(os, "kill", no_kill)
    return kernel


def test_alive_on_windows_asks_the_process_table(windows):
    assert _common._alive(11) is True  # STILL_ACTIVE
    assert _common._alive(12) is False  # exited
    assert _common._alive(13) is True  # another user's: cannot open, assumed alive
    assert _common._alive(99) is False  # no such process
    assert _common._alive(os.getpid()) is True
    assert windows.closed == [1011, 1012]  # every handle opened is closed


def test_alive_on_windows_without_kernel32_keeps_the_file(monkeypatch, windows):
    import ctypes

    def missing(*args, **kwargs):
        raise OSError("no kernel32")

    monkeypatch.setattr(ctypes, "WinDLL", missing, raising=False)
    assert _common._alive(12) is True


def test_stale_temporaries_on_windows(tmp_path, windows):
    tmp_dir = tmp_path / _common.TMP_DIR_NAME
    tmp_dir.mkdir()
    for pid in (11, 12, 99):
        (tmp_dir / f"{pid}.abc.x.npz").write_bytes(b"")
    assert _common.clean_stale_temporaries(tmp_path) == 2
    assert [p.name for p in tmp_dir.iterdir()] == ["11.abc.x.npz"]


def test_alive_on_posix_catches_every_os_error(monkeypatch):
    def kill(pid, sig):
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr(os, "kill", kill)
    assert _common._alive(123456) is True  # unsure: the temporary is kept
    monkeypatch.setattr(os, "kill", lambda pid, sig: (_ for _ in ()).throw(ProcessLookupError()))
    assert _common._alive(123456) is False


def test_the_record_docs_say_0600_is_posix_only():
    from graphveil import record

    assert "Windows" in (record.__doc__ or "") and "POSIX" in (record.__doc__ or "")
    assert "Windows" in (record.RunRecord.save.__doc__ or "")
