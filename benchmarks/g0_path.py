"""The modules G0 crosses from ``graphveil reproduce`` to the tables (run as a script).

python benchmarks/g0_path.py [SCHEME VALUE] [--no-attacks] [-v]: runs ``graphveil reproduce``
in-process on karate for one grid point (default ``maxvar 0.19``, a sampled point; one sample)
and follows G0 with a profile hook on every thread. A call is on G0's path when one of its
arguments other than ``self`` is G0 (the Graph the CLI's ``load_graph`` returned) or holds it as
``.graph`` (the study's :class:`~graphveil.measure.original.Original`); a method of G0 itself
passes nothing on. The path is the modules of those calls in call order, consecutive calls in one
module taken as one stretch. Prints the modules on the path and the returns (stretches in a
module the path had already left), for every module of graphveil and for the study's own
(``graphveil.experiments`` and ``graphveil.cli``); ``-v`` prints the stretches. The samples run
on pool threads, so the count may vary by one or two from run to run (issue 36).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import threading
from types import FrameType
from typing import Any

import graphveil
from graphveil.cli import main

ROOT = os.path.dirname(graphveil.__file__)
VARARGS, VARKEYWORDS = 0x04, 0x08  # code.co_flags


def module_of(filename: str) -> str | None:
    """The graphveil module of a source file, or None."""
    if not filename.startswith(ROOT):
        return None
    name = os.path.relpath(filename, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
    return name.removesuffix(".__init__")


class Follow:
    """A profile hook recording the calls that take G0 (or what holds it) as an argument."""

    def __init__(self) -> None:
        self.g0: Any = None
        self.calls: list[tuple[str, str]] = []

    def holds(self, value: Any) -> bool:
        return value is self.g0 or (
            not isinstance(value, type) and getattr(value, "graph", None) is self.g0
        )

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "return" and self.g0 is None and code.co_name == "load_graph":
            if module_of(code.co_filename) == "graphveil.cli._common":
                self.g0 = arg
            return
        module = module_of(code.co_filename)
        if event != "call" or self.g0 is None or module is None:
            return
        count = code.co_argcount + code.co_kwonlyargcount
        names = list(code.co_varnames[:count])
        extra = code.co_varnames[count:]
        if code.co_flags & VARARGS:
            names.append(extra[0])
        if code.co_flags & VARKEYWORDS:
            names.append(extra[1 if code.co_flags & VARARGS else 0])
        for name in names:
            if name in ("self", "cls"):
                continue
            value = frame.f_locals.get(name)
            items = value if isinstance(value, tuple) else (value,)
            if isinstance(value, dict) and name not in code.co_varnames[:count]:
                items = tuple(value.values())
            if any(self.holds(x) for x in items):
                self.calls.append((module, code.co_name))
                return


def stretches(calls: list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """Consecutive calls in one module as one stretch: (module, its functions)."""
    out: list[tuple[str, list[str]]] = []
    for module, function in calls:
        if not out or out[-1][0] != module:
            out.append((module, [function]))
        elif function not in out[-1][1]:
            out[-1][1].append(function)
    return out


def report(what: str, path: list[tuple[str, list[str]]]) -> None:
    modules = list(dict.fromkeys(m for m, _ in path))
    print(f"{what}: {len(modules)} modules on G0's path, {len(path) - len(modules)} returns")


def run() -> None:
    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    scheme, value = (words + ["maxvar", "0.19"][len(words) :])[:2]
    options = [a for a in sys.argv[1:] if a.startswith("--")]
    out = tempfile.mkdtemp()
    follow = Follow()
    threading.setprofile(follow)
    sys.setprofile(follow)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the study's tables: not wanted here
            status = main(
                ["reproduce", "--dataset", "karate_club", "--schemes", scheme, "--grid",
                 f"{scheme}={value}", "--samples", "1", "--no-figures", "-q", "-o", out, *options]
            )  # fmt: skip
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    assert status == 0, status
    path = stretches(follow.calls)
    if "-v" in sys.argv:
        for module, functions in path:
            print(f"  {module}: {', '.join(functions[:6])}{' ...' if len(functions) > 6 else ''}")
    report(f"{scheme}={value}{' ' + ' '.join(options) if options else ''}: graphveil", path)
    own = stretches(
        [c for c in follow.calls if c[0].startswith(("graphveil.experiments", "graphveil.cli"))]
    )
    report("the study's own modules (experiments, cli)", own)
    print("  " + " > ".join(m.rsplit(".", 1)[1] for m, _ in own))


if __name__ == "__main__":
    run()
