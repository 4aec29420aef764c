"""The README and the docs quote the shipped results (benchmarks/results/) truly, and stay current.

Every number the README prints in a table must be true of the tables a user regenerates with the
commands it gives: this test fails when the shipped tables are regenerated and the README is not.
The docs' study pages include the shipped report, tables and figures themselves, so they cannot
drift; this test fails when a page stops including one. The README's commands are the ones CI runs,
and its code seeds no release.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "results"
DOCS = ROOT / "docs"
GRAPHS = sorted(p.name for p in RESULTS.iterdir() if p.is_dir()) if RESULTS.is_dir() else []
#: The paper's studies (a folder named as its graph), each quoted by the README; the others (such as
#: ca-GrQc-all, every scheme with the analyst statistics) are documented pages, quoted or not.
PAPER_STUDIES = [g for g in GRAPHS if (RESULTS / g / "study.md").read_text().startswith(
    f"# graphveil study of {g} ")]  # fmt: skip

pytestmark = pytest.mark.skipif(
    not (README.is_file() and GRAPHS and DOCS.is_dir()),
    reason="needs the source tree (README, results, docs)",
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


def _readme_tables(graph: str) -> list[list[list[str]]]:
    """The README's tables of ``graph``: those whose first row is the graph's own (G0's) row."""
    return [t for t in _tables(README.read_text()) if len(t) > 1 and t[1][0] == graph]


def _code_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_every_readme_table_names_a_shipped_graph():
    names = {t[1][0] for t in _tables(README.read_text()) if len(t) > 1 and t[0][0] == "case"}
    assert names and names <= set(PAPER_STUDIES), f"README tables of {names - set(PAPER_STUDIES)}"


@pytest.mark.parametrize("graph", PAPER_STUDIES)
def test_every_readme_table_is_a_projection_of_the_shipped_one(graph):
    """Each row of a README table is the shipped row of the same case, in the README's columns."""
    tables = _readme_tables(graph)
    assert tables, f"the README quotes no table of {graph}"
    shipped = _shipped(graph)
    by_case = {row[0]: row for row in shipped[1:]}
    for table in tables:
        header = table[0]
        assert set(header) <= set(shipped[0]), f"columns not in the shipped table: {header}"
        columns = [shipped[0].index(name) for name in header]
        for row in table[1:]:
            assert row[0] in by_case, f"{graph}: the README's case {row[0]!r} is not shipped"
            assert row == [by_case[row[0]][c] or "-" for c in columns], f"{graph}: {row[0]}"


def test_the_readme_commands_are_the_ones_ci_runs():
    readme = README.read_text()
    ci = (ROOT / ".ci" / "run").read_text().split("\n")
    (marker,) = [i for i, line in enumerate(ci) if "The README's test command, verbatim" in line]
    test_command = ci[marker + 1].strip()
    shell = "\n".join(_code_blocks(readme, "bash"))
    assert test_command in shell.split("\n")
    assert 'pip install ".[plot]" && graphveil reproduce' in shell.split("\n")
    assert "pip install graphveil" in shell


def test_the_readme_seeds_no_release_and_stays_short():
    readme = README.read_text()
    for block in _code_blocks(readme, "python"):
        assert "seed=" not in block.replace("no seed", "")
    for block in _code_blocks(readme, "bash"):
        assert "--seed" not in block
    assert readme.index("safely") < readme.index("## Which scheme")  # on the first screen
    assert len(readme.split("\n")) <= 160


def _docs_conf():
    """docs/conf.py as a module (it writes the study pages at each build)."""
    spec = importlib.util.spec_from_file_location("graphveil_docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("graph", GRAPHS)
def test_the_docs_include_the_shipped_tables_and_figures(graph):
    """The docs' page of each shipped study includes its report (or tables) and every figure, and
    docs/study.md lists the pages: regenerating the results regenerates the docs."""
    conf = _docs_conf()
    assert conf.RESULTS == RESULTS
    folder = RESULTS / graph
    text = conf.study_page(folder, DOCS)
    pages = DOCS / conf.STUDY_PAGES
    included = {(pages / path).resolve() for path in re.findall(r"```\{include\} (\S+)", text)}
    study = (folder / "study.md").resolve()
    for table in sorted(folder.glob("table_*.md")):
        direct = table.resolve() in included
        via_report = study in included and table.read_text().strip() in study.read_text()
        assert direct or via_report, f"the page of {graph} does not include {table.name}"
    figures = {(pages / p).resolve() for p in re.findall(r"```\{figure\} (\S+)", text)}
    assert figures == {png.resolve() for png in folder.glob("*.png")}
    assert f"\n{conf.STUDY_PAGES}/*\n" in (DOCS / "study.md").read_text()
