"""The README's result tables are the shipped tables (benchmarks/results/), cell for cell.

Every number the README prints in a table must be true of the tables a user regenerates with the
commands it gives; this test fails when the shipped tables are regenerated and the README is not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "results"

pytestmark = pytest.mark.skipif(
    not (README.is_file() and RESULTS.is_dir()), reason="needs the source tree (README, results)"
)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table of ``text`` whose header starts with ``case``, as rows of cells."""
    tables, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        if lines[i].startswith("| case"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            tables.append([_cells(line) for k, line in enumerate(lines[i:j]) if k != 1])
            i = j
        else:
            i += 1
    return tables


def _shipped(graph: str) -> list[list[str]]:
    (table,) = _tables((RESULTS / graph / "table_comparison.md").read_text())
    return table


def _readme_table(first_case: str) -> list[list[list[str]]]:
    return [t for t in _tables(README.read_text()) if len(t) > 1 and t[1][0] == first_case]


@pytest.mark.parametrize("graph", ["ca-GrQc", "email-Enron"])
def test_the_readme_comparison_table_is_the_shipped_one(graph):
    full = [t for t in _readme_table(graph) if t[0] == _shipped(graph)[0]]
    assert full, f"the README has no full comparison table of {graph}"
    assert full[0] == _shipped(graph)


def test_the_readme_attack_table_is_a_projection_of_the_shipped_one():
    shipped = _shipped("ca-GrQc")
    partial = [t for t in _readme_table("ca-GrQc") if t[0] != shipped[0]]
    assert partial, "the README has no attack table of ca-GrQc"
    for table in partial:
        columns = [shipped[0].index(name) for name in table[0]]
        expected = [[row[c] or "-" for c in columns] for row in shipped[1:]]
        assert table[1:] == expected
