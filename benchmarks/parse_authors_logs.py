"""The authors' logged rows behind the paper's Tables 3, 4, 6 and 7 (run as a script).

python benchmarks/parse_authors_logs.py [--repo GIT_DIR] [--tex PAPER.tex] [--out CSV]

reads the console logs of the authors' runs (``hiepbkhn/itce2011``, ``graph-dp/console/``: each run
``<name>`` has ``<name>-PRIV.txt``, the privacy scores, edge differences and eps, and
``<name>-UTIL.txt``, the ten statistics) from a bare git copy of their repository (default: the
project's mirror, ``/work/.mirror/hiepbkhn+itce2011/repo``, read with ``git show``), reads the
same cells from the paper's source (default ``../shared/paper/uncertainty-semantics.tex`` beside
the project), and writes one CSV row per cell of the four tables, G0's rows included
(:data:`OUT`, ``benchmarks/paper_logs.csv``), with its provenance:

``table``, ``tex_label``
    The paper's table, numbered as the project's docs number it (Table 3 = (k,eps)-obf, 4 =
    RandWalk, 6 = MaxVar, 7 = the comparison; the shipped source, an IEEEtran file with four tables
    before them, would print them as TABLE V to VIII), and the ``\\label`` of its ``table*``.
``graph``, ``case``, ``column``
    The paper's graph, graphveil's name of the row (``G0``, ``obfuscation sigma=0.001``,
    ``randwalk t=2``, ``randwalk_mod t=2``, ``maxvar n_p=200000``) and of the column.
``paper``
    The cell as printed in the source.
``log``
    The authors' logged figure: a mean over their 20 runs or samples as their scripts printed it;
    the edge differences are the mean of the 20 per-sample counts their script prints; rel.err
    and tradeoff, which no log prints, are computed from the logged statistics (``derived``).
``relation``
    How the printed cell follows from the log, the first that holds to the printed digits (to
    one unit of the last digit for the derived rel.err and tradeoff, see :data:`DERIVED`):
    ``rounded`` (the log itself), ``log / 4`` (RandWalk-mod's H1 and H2_open), ``log / 2``
    (RandWalk-mod's tradeoff, the square root of that H2_open times rel.err), ``printed G0``
    (rel.err and tradeoff computed against the paper's printed G0 row, which departs from the
    logged one in three cells), ``log / 2, printed G0`` (both), or ``differs`` (none: the paper
    departs from its logs).
``run``, ``log_file``, ``log_figure``
    The authors' run, the log file(s) in their repository and the line the figure is read from.

The parser is graphveil's own (their scripts only wrote these logs). It refuses a log whose
figure is missing or printed twice. ``benchmarks/bench_paper_numbers.py`` reads the CSV.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The CSV this script writes and the check reads.
OUT = HERE / "paper_logs.csv"
MIRROR = Path("/work/.mirror/hiepbkhn+itce2011/repo")
CONSOLE = "graph-dp/console"
FIELDS = (
    "table",
    "tex_label",
    "graph",
    "case",
    "column",
    "paper",
    "log",
    "relation",
    "run",
    "log_file",
    "log_figure",
)

#: The statistics of Tables 3, 4 and 6 (the paper's S_ED is S_EDiam), in their order.
STATISTICS = (
    "S_NE",
    "S_AD",
    "S_MD",
    "S_DV",
    "S_CC",
    "S_PL",
    "S_APD",
    "S_EDiam",
    "S_CL",
    "S_Diam",
)
SCHEME_COLUMNS = ("H1", "H2_open", *STATISTICS, "rel_err")
COMPARE_COLUMNS = (
    "H1",
    "H2_open",
    "removed_edges",
    "added_edges",
    "eps_k30",
    "eps_k50",
    "eps_k100",
    "rel_err",
    "tradeoff",
)
#: Printed order of each table's columns (the paper's S_PL comes after S_CC).
PRINTED = {
    "scheme": ("H1", "H2_open", *STATISTICS[:5], "S_PL", *STATISTICS[6:], "rel_err"),
    "compare": COMPARE_COLUMNS,
}
#: The k of the authors' eps_arr (their call: k_arr=[30, 50, 100]).
EPS_K = (30, 50, 100)

GRAPHS = ("dblp", "amazon", "youtube")
SIGMAS = {"0.001": "0001", "0.01": "001", "0.1": "01"}  # the runs' spelling of sigma
TS = (2, 3, 5, 10)
N_P = {
    "dblp": (200_000, 400_000, 600_000, 800_000, 1_000_000),
    "amazon": (200_000, 400_000, 600_000, 800_000, 1_000_000),
    "youtube": (600_000, 1_200_000, 1_800_000, 2_400_000, 3_000_000),
}
PARTS = {"dblp": 20, "amazon": 20, "youtube": 60}


@dataclass(frozen=True)
class Table:
    number: str
    label: str
    kind: str  # "scheme" (Tables 3, 4, 6) or "compare" (Table 7)


TABLES = (
    Table("3", "tab:k-obfuscation", "scheme"),
    Table("4", "tab:randwalk", "scheme"),
    Table("6", "tab:effectiveness", "scheme"),
    Table("7", "tab:compare", "compare"),
)


def run_name(graph: str, case: str) -> str:
    """The authors' run behind a row: ``com_<graph>_ungraph[_...]``."""
    base = f"com_{graph}_ungraph"
    if case == "G0":
        return base
    scheme, _, value = case.partition(" ")
    value = value.split("=", 1)[1]
    if scheme == "obfuscation":  # entropy_obfuscation.py: sigma, c = 2, q = 0.01
        return f"{base}_entropy_{SIGMAS[value]}_2_001"
    if scheme == "randwalk":  # random_walk_transform(G, t, M=10)
        return f"{base}_randwalk_{value}_10"
    if scheme == "randwalk_mod":  # random_walk_transform_multigraph(G, t, alpha=0.5)
        return f"{base}_randwalk_keep_{value}_0.5"
    if scheme == "maxvar":  # the friend-of-friend ("nb") potential edges
        return f"{base}_cvxopt_{value}_{PARTS[graph]}_nb_missing"
    raise ValueError(f"no authors' run for {case!r}")


# ------------------------------------------------------------------------------ the logs
@dataclass
class Log:
    """The figures of one log file: ``name = number`` lines, ``name = [numbers]`` and bare lists."""

    path: str
    values: dict[str, list[float]]
    lists: list[list[float]]  # the unnamed integer lists, in order

    def figure(self, name: str) -> float:
        found = self.values.get(name, [])
        if len(found) != 1:
            raise ValueError(f"{self.path}: {name!r} printed {len(found)} times, not once")
        return found[0]


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NAMED = re.compile(rf"^(?P<name>[A-Za-z_][\w ()#.]*?) = (?P<value>{_NUMBER})$")
_NAMED_LIST = re.compile(r"^(?P<name>\w+) = \[(?P<items>[^\]]*)\]$")
_BARE_INT_LIST = re.compile(r"^\[\d+(?:, \d+)*\]$")


def parse_log(path: str, text: str) -> Log:
    """Every figure a log prints (a name printed twice keeps both, so :meth:`Log.figure` refuses it)."""
    values: dict[str, list[float]] = {}
    lists: list[list[float]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if match := _NAMED.match(line):
            values.setdefault(match["name"], []).append(float(match["value"]))
        elif match := _NAMED_LIST.match(line):
            for i, item in enumerate(match["items"].split(",")):
                values.setdefault(f"{match['name']}[{i}]", []).append(float(item))
        elif _BARE_INT_LIST.match(line):
            lists.append([float(x) for x in line[1:-1].split(",")])
    return Log(path, values, lists)


class Mirror:
    """The authors' repository, read with ``git show`` (each log read once)."""

    def __init__(self, git_dir: Path):
        self.git_dir = git_dir
        self._cache: dict[str, Log] = {}

    def log(self, run: str, kind: str) -> Log:
        path = f"{CONSOLE}/{run}-{kind}.txt"
        if path not in self._cache:
            text = subprocess.run(
                ["git", f"--git-dir={self.git_dir}", "show", f"HEAD:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            self._cache[path] = parse_log(path, text)
        return self._cache[path]


@dataclass(frozen=True)
class Figure:
    value: float
    log_file: str
    log_figure: str


def _statistics(mirror: Mirror, run: str) -> dict[str, Figure]:
    util = mirror.log(run, "UTIL")
    return {s: Figure(util.figure(f"s_{s[2:]}"), util.path, f"s_{s[2:]}") for s in STATISTICS}


def run_figures(mirror: Mirror, graph: str, case: str) -> dict[str, Figure]:
    """Every logged figure of a row, keyed by graphveil's column names (rel_err, tradeoff derived)."""
    run = run_name(graph, case)
    priv = mirror.log(run, "PRIV")
    out = _statistics(mirror, run)
    if case == "G0":  # G0 scored against itself: its number of distinct signatures
        h1, h2 = "sum_re_prob H1", "sum_re_prob H2 (open)"
    else:
        h1, h2 = "score_H1", "score_H2"
    out["H1"] = Figure(priv.figure(h1), priv.path, h1)
    out["H2_open"] = Figure(priv.figure(h2), priv.path, h2)
    for i, k in enumerate(EPS_K):
        name = f"eps_arr[{i}]"
        out[f"eps_k{k}"] = Figure(priv.figure(name), priv.path, f"{name} (k = {k})")
    if case != "G0":
        if len(priv.lists) != 2:
            raise ValueError(f"{priv.path}: {len(priv.lists)} per-sample lists, expected 2")
        for name, values, said in zip(
            ("removed_edges", "added_edges"),
            priv.lists,
            ("|E_G0 \\ E_G| per sample", "|E_G \\ E_G0| per sample"),
            strict=True,
        ):
            mean = math.fsum(values) / len(values)
            out[name] = Figure(mean, priv.path, f"mean of the first/second list: {said}")
        g0 = _statistics(mirror, run_name(graph, "G0"))
        rel = math.fsum(abs(out[s].value - g0[s].value) / g0[s].value for s in STATISTICS) / len(
            STATISTICS
        )
        both = f"{out['S_NE'].log_file}; {g0['S_NE'].log_file}"
        out["rel_err"] = Figure(
            rel, both, "derived: mean over s_NE..s_Diam, s_PL of |s - s(G0)| / s(G0)"
        )
        out["tradeoff"] = Figure(
            math.sqrt(out["H2_open"].value) * rel,
            f"{priv.path}; {both}",
            "derived: sqrt(score_H2) x rel.err",
        )
    return out


# ------------------------------------------------------------------------------ the paper
def _case_of(table: Table, head: str, graph: str) -> str:
    """graphveil's name of a row from the row's head cell in the source (and the last scheme seen)."""
    head = head.replace("$", "").replace(" ", "")
    if re.fullmatch(r"\\texttt\{\w+\}", head):
        return "G0"
    if table.number == "3":
        return f"obfuscation sigma={head}"
    if table.number == "6":
        return f"maxvar n_p={int(head.removesuffix('k')) * 1000}"
    if table.number == "7":
        if m := re.fullmatch(r"\\sigma=([\d.]+)", head):
            return f"obfuscation sigma={m[1]}"
        if m := re.fullmatch(r"\(MV\)n_p=(\d+)k", head):
            return f"maxvar n_p={int(m[1]) * 1000}"
        if m := re.fullmatch(r"\((RW|RW-mod)\)t=(\d+)", head):
            return f"{'randwalk' if m[1] == 'RW' else 'randwalk_mod'} t={m[2]}"
    raise ValueError(f"Table {table.number}: row head {head!r} not understood ({graph})")


def paper_cells(tex: str) -> Iterator[tuple[Table, str, str, str, str]]:
    """``(table, graph, case, column, printed)`` for every non-empty cell of the four tables."""
    for table in TABLES:
        start = tex.index(f"\\label{{{table.label}}}")
        block = tex[start : tex.index("\\end{tabular}", start)]
        graph = scheme = ""
        for line in block.splitlines():
            if "&" not in line or "multicolumn" in line or line.strip().startswith("graph &"):
                continue
            if line.strip().startswith(("$\\sigma$ &", "$t$ &", "$n_p$ &")):
                continue
            head, *cells = line.split(r"\\")[0].split("&")
            if m := re.search(r"\\texttt\{(\w+)\}", head):
                graph = m[1]
            if table.number == "4":
                m = re.fullmatch(r"\s*(?:\((RW|RW-mod)\))?\s*(\d+)\s*", head)
                if m and m[1]:
                    scheme = "randwalk" if m[1] == "RW" else "randwalk_mod"
                case = "G0" if "texttt" in head else f"{scheme} t={m[2] if m else '?'}"
            else:
                case = _case_of(table, head.strip(), graph)
            columns = PRINTED[table.kind]
            if len(cells) != len(columns):
                raise ValueError(f"Table {table.number}, {graph} {case}: {len(cells)} cells")
            for column, cell in zip(columns, cells, strict=True):
                printed = re.sub(r"\\textbf\{([^}]*)\}", r"\1", cell).strip()
                if printed:
                    yield table, graph, case, column, printed


# ------------------------------------------------------------------------------ the relation
def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def half_unit(printed: str) -> float:
    """Half a unit of the cell's last printed digit (and a little more, for float noise)."""
    return 0.5 * 10.0 ** -_decimals(printed) * (1 + 1e-6)


#: Columns no log prints: the paper computed them, and printed some truncated rather than
#: rounded (youtube MaxVar n_p = 1200k: rel.err 0.04283 printed 0.042), so they are read to one
#: unit of the last printed digit.
DERIVED = ("rel_err", "tradeoff")


def relation(
    column: str, printed: str, logged: float, alternatives: list[tuple[str, float]]
) -> str:
    """How the printed cell follows from the log: the first of ``rounded`` and the alternatives."""
    allowed = half_unit(printed) * (2 if column in DERIVED else 1)
    for name, value in [("rounded", logged), *alternatives]:
        if abs(value - float(printed)) <= allowed:
            return name
    return "differs"


def _rel_err(statistics: dict[str, float], g0: dict[str, float]) -> float:
    return math.fsum(abs(statistics[s] - g0[s]) / g0[s] for s in STATISTICS) / len(STATISTICS)


def alternatives(
    case: str, column: str, figures: dict[str, Figure], printed_g0: dict[str, float]
) -> list[tuple[str, float]]:
    """The readings of the log the paper may have printed besides the log itself.

    RandWalk-mod's H1 and H2_open divided by 4 (and so its tradeoff halved), and rel.err (and
    tradeoff) against the paper's printed G0 row instead of the logged one.
    """
    walk_mod = case.startswith("randwalk_mod")
    if column in ("H1", "H2_open") and walk_mod:
        return [("log / 4", figures[column].value / 4)]
    if column not in ("rel_err", "tradeoff"):
        return []
    printed = _rel_err({s: figures[s].value for s in STATISTICS}, printed_g0)
    if column == "rel_err":
        return [("printed G0", printed)]
    root = math.sqrt(figures["H2_open"].value)
    if walk_mod:
        return [("log / 2", figures[column].value / 2), ("log / 2, printed G0", root / 2 * printed)]
    return [("printed G0", root * printed)]


def rows(mirror: Mirror, tex: str) -> list[dict[str, str]]:
    """One CSV row per printed cell."""
    cells = list(paper_cells(tex))
    g0_rows = {
        (graph, column): float(printed)
        for table, graph, case, column, printed in cells
        if case == "G0" and column in STATISTICS
    }
    out = []
    for table, graph, case, column, printed in cells:
        figures = run_figures(mirror, graph, case)
        figure = figures[column]
        printed_g0 = {s: g0_rows[graph, s] for s in STATISTICS}
        out.append(
            {
                "table": table.number,
                "tex_label": table.label,
                "graph": graph,
                "case": case,
                "column": column,
                "paper": printed,
                "log": repr(figure.value),
                "relation": relation(
                    column, printed, figure.value, alternatives(case, column, figures, printed_g0)
                ),
                "run": run_name(graph, case),
                "log_file": figure.log_file,
                "log_figure": figure.log_figure,
            }
        )
    return out


def _default_tex() -> Path:
    for parent in HERE.parents:
        candidate = parent / "shared" / "paper" / "uncertainty-semantics.tex"
        if candidate.is_file():
            return candidate
    return HERE.parent.parent / "shared" / "paper" / "uncertainty-semantics.tex"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", type=Path, default=MIRROR, help="bare git dir of hiepbkhn/itce2011"
    )
    parser.add_argument("--tex", type=Path, default=_default_tex(), help="the paper's source")
    parser.add_argument("--out", type=Path, default=OUT, help="the CSV to write")
    args = parser.parse_args(argv)
    for path, what in ((args.repo, "the authors' repository"), (args.tex, "the paper's source")):
        if not path.exists():
            print(f"{what} is not at {path}: pass its path", file=sys.stderr)
            return 2
    found = rows(Mirror(args.repo), args.tex.read_text())
    tmp = args.out.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(found)
    tmp.replace(args.out)
    counts: dict[tuple[str, str], int] = {}
    for row in found:
        key = (row["table"], row["relation"])
        counts[key] = counts.get(key, 0) + 1
    print(f"{args.out}: {len(found)} cells")
    for (table, rel), n in sorted(counts.items()):
        print(f"  Table {table}: {n} {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
