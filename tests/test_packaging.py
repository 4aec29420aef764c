"""What the distribution declares (pyproject.toml): the licences it ships and the test extra's markers.

The built wheel itself is checked by .ci/run's dist step (``check_wheel_licences``: both licence
files under ``*.dist-info/licenses/``, ``License-Expression`` as pyproject.toml states it).
"""

from __future__ import annotations

import fnmatch
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"

pytestmark = pytest.mark.skipif(not PYPROJECT.is_file(), reason="needs the source checkout")


@pytest.fixture(scope="module")
def project() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with PYPROJECT.open("rb") as file:
        return tomllib.load(file)


# ------------------------------------------------------------------------------ licences
#: Each SPDX identifier of the expression, and a sentence only its licence text holds.
_LICENCE_MARKS = {
    "BSD-3-Clause": "Neither the name of the copyright holder nor the names of its",
    "Apache-2.0": "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
    "LGPL-2.1-or-later": "GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 2.1, February 1999",
}


def _licence_files(project: dict) -> list[Path]:
    matched = []
    for pattern in project["project"]["license-files"]:
        found = sorted(ROOT.glob(pattern))
        assert found, f"license-files pattern {pattern!r} matches no file"
        matched += found
    return matched


def test_the_expression_names_graphveil_and_the_bundled_metis(project):
    assert project["project"]["license"] == "BSD-3-Clause AND Apache-2.0 AND LGPL-2.1-or-later"
    assert set(project["project"]["license"].split(" AND ")) == set(_LICENCE_MARKS)


def test_every_bundled_source_under_the_lgpl_is_covered(project):
    # METIS's GKlib carries glibc's qsort (gk_mksort.h, compiled into _core) under the LGPL: a
    # bundled file naming another licence than Apache-2.0 must be in the expression and the files.
    lgpl = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "cpp" / "third_party").rglob("*")
        if p.is_file()
        and p.suffix in {".c", ".h"}
        and "GNU Lesser General Public" in p.read_text(encoding="utf-8", errors="replace")
    )
    assert "cpp/third_party/metis/GKlib/gk_mksort.h" in lgpl
    assert "LGPL-2.1-or-later" in project["project"]["license"].split(" AND ")
    notice = (ROOT / "cpp/third_party/metis/LICENSE-LGPL-2.1.txt").read_text(encoding="utf-8")
    for path in lgpl:
        assert path.removeprefix("cpp/third_party/metis/") in notice, path


def test_every_licence_file_pattern_matches_and_each_licence_has_its_text(project):
    files = _licence_files(project)
    assert [f.relative_to(ROOT).as_posix() for f in files] == [
        "LICENSE",
        "cpp/third_party/metis/LICENSE.txt",
        "cpp/third_party/metis/LICENSE-LGPL-2.1.txt",
    ]
    texts = [f.read_text(encoding="utf-8") for f in files]
    for spdx, mark in _LICENCE_MARKS.items():
        assert any(mark in text for text in texts), f"no licence file holds the {spdx} text"


def test_the_metis_file_is_the_full_apache_text_with_metis_notice():
    text = (ROOT / "cpp/third_party/metis/LICENSE.txt").read_text(encoding="utf-8")
    assert "Copyright 1995-2013, Regents of the University of Minnesota" in text
    # The full licence, not the short notice: its nine sections and its end.
    sections = [
        "1. Definitions.",
        "2. Grant of Copyright License.",
        "3. Grant of Patent License.",
        "4. Redistribution.",
        "5. Submission of Contributions.",
        "6. Trademarks.",
        "7. Disclaimer of Warranty.",
        "8. Limitation of Liability.",
        "9. Accepting Warranty or Additional Liability.",
        "END OF TERMS AND CONDITIONS",
    ]
    positions = [text.index(section) for section in sections]
    assert positions == sorted(positions)


def test_the_sdist_keeps_the_licence_files(project):
    excluded = project["tool"]["scikit-build"]["sdist"]["exclude"]
    for path in _licence_files(project):
        relative = path.relative_to(ROOT).as_posix()
        parents = [relative, *(p.as_posix() for p in Path(relative).parents if p != Path("."))]
        hits = [pat for pat in excluded for part in parents if fnmatch.fnmatch(part, pat)]
        assert not hits, f"sdist.exclude {hits} drops {relative}"


# ---------------------------------------------------------------------- kaminpar marker
#: Where kaminpar 3.7.3 (the newest, 2026-11-27) publishes wheels, read from
#: `pip download -v --no-deps --only-binary=:all: --python-version V --platform P kaminpar`:
#: CPython and PyPy 3.9 to 3.13, manylinux_2_17 x86_64 and aarch64, macosx_11_0 arm64. None for
#: 3.14, musllinux, macOS x86_64 or Windows.
_KAMINPAR_WHEELS = {("linux", "x86_64"), ("linux", "aarch64"), ("darwin", "arm64")}
_KAMINPAR_PYTHONS = {"3.10", "3.11", "3.12", "3.13"}

#: The platforms graphveil builds wheels for ([tool.cibuildwheel]), as marker values.
_GRAPHVEIL_PLATFORMS = [
    ("linux", "Linux", "x86_64"),
    ("linux", "Linux", "aarch64"),
    ("darwin", "Darwin", "x86_64"),
    ("darwin", "Darwin", "arm64"),
    ("win32", "Windows", "AMD64"),
]


def test_the_kaminpar_marker_names_exactly_where_it_has_wheels(project):
    markers = pytest.importorskip("packaging.requirements")
    extras = project["project"]["optional-dependencies"]
    (self_reference,) = [r for r in extras["test"] if r.startswith("graphveil[")]
    assert "kaminpar" in self_reference[len("graphveil[") : -1].split(",")
    (spec,) = extras["kaminpar"]
    requirement = markers.Requirement(spec)
    assert requirement.name == "kaminpar" and requirement.marker is not None
    pythons = [f"3.{minor}" for minor in range(10, 15)]  # requires-python >= 3.10; cibuildwheel
    for python, (sys_platform, system, machine) in itertools.product(pythons, _GRAPHVEIL_PLATFORMS):
        env = {
            "python_version": python,
            "python_full_version": f"{python}.0",
            "sys_platform": sys_platform,
            "platform_system": system,
            "platform_machine": machine,
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "os_name": "nt" if system == "Windows" else "posix",
        }
        expected = python in _KAMINPAR_PYTHONS and (sys_platform, machine) in _KAMINPAR_WHEELS
        assert requirement.marker.evaluate(env) == expected, (python, sys_platform, machine)
