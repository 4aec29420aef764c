"""graphveil against the authors' logged runs and the paper's Tables 3, 4, 6 and 7 (dblp, amazon, youtube).

The reference is ``benchmarks/paper_logs.csv`` (written by ``benchmarks/parse_authors_logs.py``
from the authors' console logs, ``hiepbkhn/itce2011``, ``graph-dp/console/``): every cell of the
four tables, 990 in all, with the authors' logged figure, the printed cell and how one follows
from the other (:class:`Cell`). :func:`measure` runs graphveil's study
(:func:`graphveil.experiments.reproduce`) on the paper's grid: (k,eps)-obf at sigma = 0.001,
0.01, 0.1, RandWalk and RandWalk-mod at t = 2, 3, 5, 10, MaxVar at the paper's n_p with its 20
or 60 parts. :func:`compare` checks every measured cell **against the log first** (within
:data:`G0_TOLERANCE` or :data:`RUN_TOLERANCE`), then **against the paper** in the paper's terms:
RandWalk-mod's H1 and H2_open divided by 4 and its tradeoff by 2 (:data:`PAPER_SCALE`: the paper
printed its logged scores divided by 4), to the same tolerance plus the printed rounding. A cell
where the paper departs from its own log (``relation`` ``differs`` or ``printed G0`` in the CSV)
is excused against the paper, with the reason; the log still binds.

The SNAP files are large and not shipped: the check runs on ``com-dblp``, ``com-amazon`` and
``com-youtube`` where :func:`graphveil.datasets.locate` finds them (``$GRAPHVEIL_PAPER_DATA``,
then ``$GRAPHVEIL_DATA_DIR`` or ``~/.cache/graphveil``, where ``graphveil datasets fetch
com-dblp`` puts them) and is skipped, naming the missing file, elsewhere. Runs per point:
``$GRAPHVEIL_PAPER_RUNS`` (default 5; the paper averaged 20). youtube takes hours on 2 cores.
The comparison itself is tested on karate against a made-up reference and on the logged rows
themselves, so it runs in CI.

Run: GRAPHVEIL_PAPER_DATA=/path/to/snap python -m pytest benchmarks/bench_paper_numbers.py -s
"""

from __future__ import annotations

import csv
import importlib.util
import math
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

import graphveil as gv
from graphveil import datasets
from graphveil.experiments import StudyConfig, reproduce
from graphveil.measure.utility import statistic_names

#: The statistics of Tables 3, 4 and 6 (the paper's S_ED is S_EDiam): the statistics table's
#: paper rows, in the tables' order (tests/test_statistics_table.py checks them against the paper).
STATISTICS = statistic_names()
#: Every column of the four tables, as graphveil names them.
COLUMNS = (
    "H1",
    "H2_open",
    *STATISTICS,
    "rel_err",
    "removed_edges",
    "added_edges",
    "eps_k30",
    "eps_k50",
    "eps_k100",
    "tradeoff",
)
#: The paper's graph names and graphveil's datasets.
GRAPHS = {"dblp": "com-dblp", "amazon": "com-amazon", "youtube": "com-youtube"}
TABLES = ("3", "4", "6", "7")

#: The authors' logged rows: ``benchmarks/parse_authors_logs.py`` writes it.
LOGS = Path(__file__).with_name("paper_logs.csv")

#: The paper printed RandWalk-mod's logged H1 and H2_open divided by 4 (all 24 cells of Table 4
#: and the 12 of Table 7; e.g. dblp t = 2: ``score_H1 = 47.156462808``, ``score_H2 =
#: 17.9092894575`` in ``graph-dp/console/com_dblp_ungraph_randwalk_keep_2_0.5-PRIV.txt``,
#: printed 11.8 and 4.5), so its tradeoff, ``sqrt(H2_open) x rel.err``, by 2; the same logs' eps
#: and edge counts are printed unscaled. graphveil's values compare with the paper after this.
PAPER_SCALE: dict[tuple[str, str], float] = {
    ("randwalk_mod", "H1"): 0.25,
    ("randwalk_mod", "H2_open"): 0.25,
    ("randwalk_mod", "tradeoff"): 0.5,
}


@dataclass(frozen=True)
class Cell:
    """One printed cell of the paper with the authors' logged figure behind it."""

    table: str
    graph: str
    case: str
    column: str
    paper: str  # as printed
    log: float
    relation: str
    run: str
    log_file: str
    log_figure: str

    @property
    def scheme(self) -> str:
        return self.case.split(" ")[0]

    @property
    def paper_value(self) -> float:
        return float(self.paper)

    @property
    def printed_unit(self) -> float:
        """One unit of the last printed digit."""
        return 10.0 ** -(len(self.paper.split(".")[1]) if "." in self.paper else 0)

    @property
    def paper_departs(self) -> bool:
        """The paper's cell does not follow from the log (``differs``) or from its G0 row only."""
        return self.relation == "differs" or "printed G0" in self.relation


def load_logs(path: Path = LOGS) -> list[Cell]:
    """The cells of ``paper_logs.csv``."""
    with path.open(newline="") as f:
        return [
            Cell(
                r["table"],
                r["graph"],
                r["case"],
                r["column"],
                r["paper"],
                float(r["log"]),
                r["relation"],
                r["run"],
                r["log_file"],
                r["log_figure"],
            )
            for r in csv.DictReader(f)
        ]


@dataclass(frozen=True)
class Tolerance:
    """Allowed ``|measured - reference|``: ``max(abs, rel |reference|) + se x`` the measured standard error."""

    rel: float = 0.0
    abs: float = 0.0
    se: float = 3.0

    def allowed(self, reference: float, standard_error: float) -> float:
        """The largest difference accepted for a reference value and a measured standard error."""
        return max(self.abs, self.rel * abs(reference)) + self.se * standard_error


#: eps: graphveil counts every node that fails k-obfuscation; the authors' compute_eps skipped
#: zero-entropy degrees and degrees above the output's maximum, so theirs is lower: by 4-20% at
#: k = 30 on ca-GrQc's RandWalk-mod worlds (issue 32). 0.25 of the log admits 20% lower.
EPS_TOLERANCE = Tolerance(rel=0.25)

#: G0 (deterministic), against the log. Counts are exact; S_AD, S_DV, S_CC as printed (rounding);
#: S_PL depends on the fitting method (powerlaw's KS x_min both, on different code); the
#: distances were ANF estimates in the logs and come from 1,000 BFS sources here, S_Diam a lower
#: bound there. H2_open: the authors' lists of neighbour degrees keep a duplicate degree (their
#: loop never merges the last pair), so they count more distinct signatures than graphveil's true
#: sets: 3.1% more on ca-GrQc (2,145 against 2,080, 3.0% of theirs;
#: ``test_the_h2_open_tolerance_covers_the_authors_lists`` measures it), 2.4% on ca-HepTh and at
#: most 0.5% on ca-AstroPh, email-Enron, facebook_combined, musae-github and soc-Epinions1
#: (``python benchmarks/bench_paper_numbers.py ca-HepTh ...`` prints them). dblp is a
#: co-authorship graph like the first two: 5%, not the 2% that ca-GrQc's gap alone exceeds.
G0_TOLERANCE: dict[str, Tolerance] = {
    "H1": Tolerance(),
    "H2_open": Tolerance(rel=0.05),
    "S_NE": Tolerance(),
    "S_AD": Tolerance(abs=0.006),
    "S_MD": Tolerance(),
    "S_DV": Tolerance(rel=0.002, abs=0.006),
    "S_CC": Tolerance(rel=0.002, abs=0.0006),
    "S_PL": Tolerance(abs=0.1),
    "S_APD": Tolerance(rel=0.05),
    "S_EDiam": Tolerance(abs=1.0),
    "S_CL": Tolerance(rel=0.05),
    "S_Diam": Tolerance(abs=2.0),
    "eps_k30": EPS_TOLERANCE,
    "eps_k50": EPS_TOLERANCE,
    "eps_k100": EPS_TOLERANCE,
}

#: The schemes' rows: the logged 20-run means against ours, each with sampling error (3 of our
#: standard errors where the study keeps one), plus what the estimators and the schemes' details
#: may shift. Edge differences: 5% for the details no log shows ((k,eps)-obf's excluded set H,
#: the walks' retry rule), the counts' own sampling error being far smaller. rel.err and tradeoff
#: have no tolerance of their own: :func:`derived_allowed` propagates the statistics'.
RUN_TOLERANCE: dict[str, Tolerance] = {
    "H1": Tolerance(rel=0.25, abs=2.0),
    "H2_open": Tolerance(rel=0.4, abs=3.0),
    "S_NE": Tolerance(rel=0.01),
    "S_AD": Tolerance(rel=0.01, abs=0.006),
    "S_MD": Tolerance(rel=0.1),
    "S_DV": Tolerance(rel=0.05),
    "S_CC": Tolerance(rel=0.15, abs=0.003),
    "S_PL": Tolerance(abs=0.1),
    "S_APD": Tolerance(rel=0.05),
    "S_EDiam": Tolerance(abs=1.0),
    "S_CL": Tolerance(rel=0.05),
    "S_Diam": Tolerance(abs=3.0),
    "removed_edges": Tolerance(rel=0.05),
    "added_edges": Tolerance(rel=0.05),
    "eps_k30": EPS_TOLERANCE,
    "eps_k50": EPS_TOLERANCE,
    "eps_k100": EPS_TOLERANCE,
}

#: ``{(graph, case): {column: (mean, standard error)}}``, as :func:`measure` returns.
Measured = Mapping[tuple[str, str], Mapping[str, tuple[float, float]]]


def derived_allowed(
    column: str,
    row: Mapping[str, float],
    g0: Mapping[str, float],
    errors: Mapping[str, float],
    tolerances: Mapping[str, Tolerance],
) -> float:
    """The allowed difference of rel.err or tradeoff when each statistic and H2_open keep theirs.

    ``row`` and ``g0`` hold the reference's statistics (and H2_open), ``errors`` the measured
    standard errors. rel.err moves by at most ``b``, the mean of the statistics' allowed
    differences over G0's values; tradeoff = sqrt(H2_open) x rel.err by at most
    ``sqrt(H2_open + a) (rel.err + b) - sqrt(H2_open) rel.err``, ``a`` H2_open's allowed difference.
    """
    rel_allowed = math.fsum(
        tolerances[s].allowed(row[s], errors.get(s, 0.0)) / abs(g0[s]) for s in STATISTICS
    ) / len(STATISTICS)
    if column == "rel_err":
        return rel_allowed
    rel = math.fsum(abs(row[s] - g0[s]) / abs(g0[s]) for s in STATISTICS) / len(STATISTICS)
    h2 = row["H2_open"]
    h2_allowed = tolerances["H2_open"].allowed(h2, errors.get("H2_open", 0.0))
    return math.sqrt(h2 + h2_allowed) * (rel + rel_allowed) - math.sqrt(h2) * rel


@dataclass(frozen=True)
class Outcome:
    """One cell compared: graphveil's value against the log, then (scaled) against the paper."""

    cell: Cell
    measured: float
    log_allowed: float
    paper_allowed: float

    @property
    def scale(self) -> float:
        return PAPER_SCALE.get((self.cell.scheme, self.cell.column), 1.0)

    @property
    def log_ok(self) -> bool:
        return (
            math.isfinite(self.measured) and abs(self.measured - self.cell.log) <= self.log_allowed
        )

    @property
    def paper_ok(self) -> bool:
        value = self.measured * self.scale
        return math.isfinite(value) and abs(value - self.cell.paper_value) <= self.paper_allowed

    @property
    def excuse(self) -> str:
        """Why a cell that misses the paper is not a failure ("" when it is, or when it matches)."""
        if self.paper_ok or not self.cell.paper_departs:
            return ""
        if self.cell.relation == "differs":
            return f"the paper departs from the authors' log ({self.cell.log_file})"
        return "the paper's rel.err is against its printed G0 row, not the logged one"

    def __str__(self) -> str:
        c = self.cell
        scaled = f" (x {self.scale:g} for the paper)" if self.scale != 1 else ""
        text = (
            f"Table {c.table} {c.graph} {c.case} {c.column}: graphveil {self.measured:.6g}{scaled}, "
            f"log {c.log:.6g} (allowed {self.log_allowed:.4g}, {'ok' if self.log_ok else 'MISSED'}), "
            f"paper {c.paper} (allowed {self.paper_allowed:.4g}, "
            f"{'ok' if self.paper_ok else 'missed'})"
        )
        return text + (f" [{self.excuse}]" if self.excuse else "")


def _logged_rows(cells: Iterable[Cell]) -> dict[tuple[str, str], dict[str, float]]:
    rows: dict[tuple[str, str], dict[str, float]] = {}
    for c in cells:
        rows.setdefault((c.graph, c.case), {})[c.column] = c.log
    return rows


def compare(
    measured: Measured,
    cells: Sequence[Cell] | None = None,
    *,
    g0_tolerance: Mapping[str, Tolerance] = G0_TOLERANCE,
    run_tolerance: Mapping[str, Tolerance] = RUN_TOLERANCE,
) -> list[Outcome]:
    """Every logged cell of a measured row, against the log and against the paper.

    Raises
    ------
    KeyError
        A measured row the logs do not have, or a row without a column the logs print for it.
    """
    cells = load_logs() if cells is None else cells
    logged = _logged_rows(cells)
    for key in measured:
        if key not in logged:
            raise KeyError(f"the logs have no row {key[1]!r} for {key[0]!r}")
    out = []
    for cell in cells:
        row = measured.get((cell.graph, cell.case))
        if row is None:
            continue
        mean, se = row[cell.column]
        tolerances = g0_tolerance if cell.case == "G0" else run_tolerance
        scale = PAPER_SCALE.get((cell.scheme, cell.column), 1.0)
        if cell.column in ("rel_err", "tradeoff"):
            errors = {c: e for c, (_, e) in row.items()}
            ref, g0 = logged[cell.graph, cell.case], logged[cell.graph, "G0"]
            log_allowed = derived_allowed(cell.column, ref, g0, errors, tolerances)
            paper_allowed = log_allowed * scale + cell.printed_unit
        else:
            tolerance = tolerances[cell.column]
            log_allowed = tolerance.allowed(cell.log, se)
            paper_allowed = tolerance.allowed(cell.paper_value, se * scale) + cell.printed_unit / 2
        out.append(Outcome(cell, mean, log_allowed, paper_allowed))
    return out


def failures(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """Cells off their log, or off the paper where the paper follows its log."""
    return [o for o in outcomes if not o.log_ok or not (o.paper_ok or o.excuse)]


def tally(outcomes: Iterable[Outcome]) -> dict[str, tuple[int, int, int, int]]:
    """Per table: ``(cells, within the log's tolerance, within the paper's, excused)``."""
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        c = counts.setdefault(o.cell.table, [0, 0, 0, 0])
        c[0] += 1
        c[1] += o.log_ok
        c[2] += o.paper_ok
        c[3] += bool(o.excuse)
    return {table: (c[0], c[1], c[2], c[3]) for table, c in sorted(counts.items())}


# ------------------------------------------------------------------------------ measuring
def case_name(scheme: str, value: float, m: int) -> str:
    """The logs' name of a study row: ``obfuscation sigma=0.001``, ``maxvar n_p=200000``, ..."""
    if scheme == "obfuscation":
        return f"obfuscation sigma={value:g}"
    if scheme == "maxvar":  # the study's grid is n_p / m; the logs name n_p
        return f"maxvar n_p={round(value * m)}"
    return f"{scheme} t={int(value)}"


def paper_grid(cells: Iterable[Cell], graph: str, m: int) -> dict[str, list[float]]:
    """The study grid of the logged rows of one graph (MaxVar's n_p as n_p / m)."""
    grid: dict[str, list[float]] = {}
    for case in dict.fromkeys(c.case for c in cells if c.graph == graph and c.case != "G0"):
        scheme, value = case.split(" ")[0], float(case.split("=")[1])
        grid.setdefault(scheme, []).append(value / m if scheme == "maxvar" else value)
    return grid


def measure(
    graph: gv.Graph,
    name: str,
    *,
    runs: int,
    grid: Mapping[str, Sequence[float]],
    seed: int = 1,
    maxvar_parts: int | None = None,
    threads: int | None = None,
) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """G0's row and every grid point's (mean and standard error over ``runs``), as the study measures them."""
    study = reproduce(
        graph,
        StudyConfig(
            samples=runs, seed=seed, threads=threads, attacks=False, maxvar_parts=maxvar_parts
        ),
        graph_name=name,
        schemes=list(grid),
        grid=grid,
        figures=False,
    )
    g0 = study.original
    out = {(name, "G0"): {c: (float(g0[c]), 0.0) for c in COLUMNS if c in g0}}
    for row in study.rows:
        std = row["std"]
        out[name, case_name(row["scheme"], row["value"], graph.m)] = {
            c: (float(row[c]), std.get(c, 0.0) / math.sqrt(runs)) for c in COLUMNS
        }
    return out


def _paper_data() -> list[str | Path]:
    env = os.environ.get("GRAPHVEIL_PAPER_DATA")
    return [env] if env else []


# ------------------------------------------------------------------------------ the check
@pytest.mark.parametrize("graph", list(GRAPHS))
def test_graphveil_matches_the_logs_and_the_paper(graph: str) -> None:
    dataset = GRAPHS[graph]
    path = datasets.locate(dataset, _paper_data())
    if path is None:
        folders = [*map(str, _paper_data()), str(datasets.cache_dir())]
        pytest.skip(
            f"{dataset}.txt.gz is not in {' or '.join(folders)}: fetch it with "
            f"`graphveil datasets fetch {dataset}` or point GRAPHVEIL_PAPER_DATA at its folder"
        )
    g = datasets.load(dataset, data_dir=_paper_data())
    runs = int(os.environ.get("GRAPHVEIL_PAPER_RUNS", "5"))
    cells = load_logs()
    grid = paper_grid(cells, graph, g.m)
    parts = datasets.info(dataset).maxvar_parts
    outcomes = compare(measure(g, graph, runs=runs, grid=grid, maxvar_parts=parts), cells)
    for outcome in outcomes:
        if outcome.excuse:
            print(f"excused: {outcome}")
    print(tally(outcomes))
    assert not failures(outcomes), "\n".join(map(str, failures(outcomes)))


# ------------------------------------------------------------------------------ the reference
@pytest.fixture(scope="module")
def cells() -> list[Cell]:
    return load_logs()


def test_the_logs_cover_every_cell_of_the_four_tables(cells):
    counts = {t: sum(c.table == t for c in cells) for t in TABLES}
    # 3 graphs x (G0's 12 cells + 13 a row): 3, 4 and 8 rows; Table 7: G0's 5 + 9 rows of 9
    assert counts == {"3": 3 * (12 + 3 * 13), "4": 3 * (12 + 8 * 13), "6": 3 * (12 + 5 * 13)} | {
        "7": 3 * (5 + 9 * 9)
    }
    assert len({(c.table, c.graph, c.case, c.column) for c in cells}) == len(cells)
    # the study grid of the logged rows, and back to their names
    m = 2_987_624  # youtube's edges
    grid = paper_grid(cells, "youtube", m)
    assert grid == {
        "obfuscation": [0.001, 0.01, 0.1],
        "randwalk": [2.0, 3.0, 5.0, 10.0],
        "randwalk_mod": [2.0, 3.0, 5.0, 10.0],
        "maxvar": [n_p / m for n_p in (600_000, 1_200_000, 1_800_000, 2_400_000, 3_000_000)],
    }
    names = {case_name(s, v, m) for s, values in grid.items() for v in values}
    assert names == {c.case for c in cells if c.graph == "youtube"} - {"G0"}
    # a figure behind several tables is one logged value
    seen: dict[tuple[str, str, str], float] = {}
    for c in cells:
        assert seen.setdefault((c.graph, c.case, c.column), c.log) == c.log, c


def test_every_relation_holds(cells):
    """``relation`` recomputed from the CSV alone: the log, /4, or rel.err against the printed G0 row."""
    logged = _logged_rows(cells)
    printed_g0 = {(c.graph, c.column): c.paper_value for c in cells if c.case == "G0"}

    def rel_err(graph: str, case: str) -> float:
        row = logged[graph, case]
        g0 = {s: printed_g0[graph, s] for s in STATISTICS}
        return math.fsum(abs(row[s] - g0[s]) / g0[s] for s in STATISTICS) / len(STATISTICS)

    for c in cells:
        allowed = c.printed_unit * (1 if c.column in ("rel_err", "tradeoff") else 0.5) * (1 + 1e-6)
        root = math.sqrt(logged[c.graph, c.case].get("H2_open", 0.0))
        value = {
            "rounded": c.log,
            "log / 4": c.log / 4,
            "log / 2": c.log / 2,
            "printed G0": root * rel_err(c.graph, c.case)
            if c.column == "tradeoff"
            else rel_err(c.graph, c.case),
            "log / 2, printed G0": root / 2 * rel_err(c.graph, c.case),
        }.get(c.relation)
        if value is None:
            assert c.relation == "differs", c
            assert abs(c.log - c.paper_value) > allowed, c
        else:
            assert abs(value - c.paper_value) <= allowed, c


def test_the_paper_prints_randwalk_mod_privacy_divided_by_4(cells):
    """All 24 RandWalk-mod H1 and H2_open cells of Table 4 (and Table 7's 12) are the logs / 4."""
    scaled = [c for c in cells if (c.scheme, c.column) in PAPER_SCALE]
    quarter = [c for c in scaled if c.column != "tradeoff"]
    assert sum(c.table == "4" for c in quarter) == 24 and sum(c.table == "7" for c in quarter) == 12
    for c in quarter:
        assert c.relation == "log / 4", c
        assert round(c.log / 4, 1) == c.paper_value != round(c.log, 1), c
    # the same runs' eps, edge counts and statistics are printed as logged
    for c in cells:
        if c.scheme == "randwalk_mod" and (c.scheme, c.column) not in PAPER_SCALE:
            assert "/" not in c.relation, c
    evidence = {(c.graph, c.case, c.column): (c.log, c.paper) for c in quarter if c.table == "4"}
    assert evidence["dblp", "randwalk_mod t=2", "H1"] == (47.156462808, "11.8")
    assert evidence["dblp", "randwalk_mod t=2", "H2_open"] == (17.9092894575, "4.5")


def test_the_logged_rows_match_themselves_and_the_paper_where_it_follows_them(cells):
    """The check fed the authors' logged rows: every cell within the log's tolerance, and every
    cell that misses the paper one where the paper departs from its log."""
    fed = {key: {c: (v, 0.0) for c, v in row.items()} for key, row in _logged_rows(cells).items()}
    outcomes = compare(fed, cells)
    assert len(outcomes) == len(cells) == 990
    assert failures(outcomes) == []
    counts = tally(outcomes)
    print(counts)
    assert {t: c[:2] for t, c in counts.items()} == {
        "3": (153, 153),
        "4": (348, 348),
        "6": (231, 231),
        "7": (258, 258),
    }
    # against the paper, within the same tolerances plus the printed rounding: all but five cells
    # where the paper departs from its logs (youtube G0's S_CL 6.79, logged 5.95, in Tables 3,
    # 4 and 6; youtube RandWalk-mod t = 5's eps for k = 50 and 100 in Table 7), excused
    assert {t: c[2:] for t, c in counts.items()} == {
        "3": (152, 1),
        "4": (347, 1),
        "6": (230, 1),
        "7": (256, 2),
    }
    # RandWalk-mod's H1 and H2_open meet the paper only after the division by 4
    quartered = [o for o in outcomes if PAPER_SCALE.get((o.cell.scheme, o.cell.column)) == 0.25]
    assert len(quartered) == 36
    for o in quartered:
        assert o.paper_ok and abs(o.measured - o.cell.paper_value) > o.paper_allowed, o


# ------------------------------------------------------------------------------ the comparison itself
KARATE_GRID = {"obfuscation": [0.1], "randwalk": [2.0], "randwalk_mod": [2.0], "maxvar": [0.5]}


@pytest.fixture(scope="module")
def karate_rows() -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    return measure(datasets.load("karate_club"), "karate", runs=3, grid=KARATE_GRID, threads=1)


def _reference_of(measured: Measured, table: str = "7") -> list[Cell]:
    """A made-up log and paper holding exactly what was measured (RandWalk-mod's paper scaled)."""
    out = []
    for (graph, case), row in measured.items():
        for column, (mean, _) in row.items():
            scale = PAPER_SCALE.get((case.split(" ")[0], column), 1.0)
            printed = f"{mean * scale:.6f}"
            out.append(Cell(table, graph, case, column, printed, mean, "rounded", "", "", ""))
    return out


def test_the_rows_measured_are_the_study_s(karate_rows):
    g = datasets.load("karate_club")
    g0 = karate_rows["karate", "G0"]
    assert g0["S_NE"] == (g.m, 0.0) and g0["S_MD"][0] == g.degrees.max()
    assert set(karate_rows) == {
        ("karate", "G0"),
        ("karate", "obfuscation sigma=0.1"),
        ("karate", "randwalk t=2"),
        ("karate", "randwalk_mod t=2"),
        ("karate", f"maxvar n_p={round(0.5 * g.m)}"),
    }
    for key, row in karate_rows.items():
        wanted = set(COLUMNS) if key[1] != "G0" else {"H1", "H2_open", *STATISTICS, "eps_k30"}
        assert wanted <= set(row) and all(math.isfinite(m) for m, _ in row.values()), key


def test_a_reference_of_the_measured_numbers_matches(karate_rows):
    outcomes = compare(karate_rows, _reference_of(karate_rows))
    assert failures(outcomes) == [] and all(o.log_ok and o.paper_ok for o in outcomes)


def test_cells_outside_their_tolerance_are_reported(karate_rows):
    reference = {(c.case, c.column): c for c in _reference_of(karate_rows)}

    def shifted(case: str, column: str, log: float, paper: str | None = None, rel: str = "rounded"):
        c = reference[case, column]
        reference[case, column] = Cell(
            c.table, c.graph, c.case, c.column, paper or c.paper, log, rel, "", "", ""
        )

    g0_edges = reference["G0", "S_NE"].log
    shifted("G0", "S_NE", g0_edges + 1)  # an exact count: one edge off fails
    shifted("G0", "S_APD", reference["G0", "S_APD"].log * 1.04)  # 4% of a distance: accepted
    mean, se = karate_rows["karate", "randwalk t=2"]["S_DV"]
    far = mean + RUN_TOLERANCE["S_DV"].allowed(mean, se) * 1.5 + 1
    shifted("randwalk t=2", "S_DV", far, f"{far:.6f}")
    # the paper alone off: a failure where the paper follows its log, excused where it departs
    shifted("randwalk t=2", "S_NE", reference["randwalk t=2", "S_NE"].log, "1e9")
    shifted("randwalk_mod t=2", "S_NE", reference["randwalk_mod t=2", "S_NE"].log, "1e9", "differs")
    outcomes = compare(karate_rows, list(reference.values()))
    found = [(o.cell.case, o.cell.column, o.log_ok, o.paper_ok) for o in failures(outcomes)]
    assert found == [
        ("G0", "S_NE", False, True),  # the log binds even where the paper is met
        ("randwalk t=2", "S_NE", True, False),
        ("randwalk t=2", "S_DV", False, False),
    ]
    excused = [o for o in outcomes if o.excuse]
    assert [(o.cell.case, o.cell.column) for o in excused] == [("randwalk_mod t=2", "S_NE")]
    assert "departs from the authors' log" in str(excused[0])
    assert "MISSED" in str(failures(outcomes)[0])


def test_randwalk_mod_meets_the_paper_only_divided_by_4(karate_rows):
    reference = _reference_of(karate_rows)
    # a paper that printed the measured scores unscaled misses graphveil's RandWalk-mod by 4x
    unscaled = [
        Cell(c.table, c.graph, c.case, c.column, f"{c.log:.6f}", c.log, c.relation, "", "", "")
        if (c.scheme, c.column) == ("randwalk_mod", "H1")
        else c
        for c in reference
    ]
    exact = {**RUN_TOLERANCE, "H1": Tolerance(se=0.0)}  # karate's H1 is a few units
    missed = failures(compare(karate_rows, unscaled, run_tolerance=exact))
    assert [(o.cell.case, o.cell.column, o.log_ok) for o in missed] == [
        ("randwalk_mod t=2", "H1", True)
    ]
    assert "x 0.25 for the paper" in str(missed[0])


def test_a_row_the_logs_lack_is_an_error(karate_rows):
    with pytest.raises(KeyError, match="no row"):
        compare(karate_rows)  # the logs have no karate


def g0_signatures(g: gv.Graph) -> tuple[int, int]:
    """G0's H2_open (distinct signatures) with true sets of neighbour degrees, and with the authors' lists."""
    adjacency = g.to_scipy().tocsr()
    degrees = adjacency.indptr[1:] - adjacency.indptr[:-1]
    true_sets, lists = set(), set()
    for u in range(g.n):
        found = sorted(
            int(d)
            for d in degrees[adjacency.indices[adjacency.indptr[u] : adjacency.indptr[u + 1]]]
        )
        true_sets.add(frozenset(found))
        # their contraction: merge equal neighbours left to right, never the last pair
        i = 1
        while i < len(found) - 1:
            if found[i - 1] == found[i]:
                del found[i - 1]
            else:
                i += 1
        lists.add(tuple(found))
    return len(true_sets), len(lists)


def test_the_h2_open_tolerance_covers_the_authors_lists():
    """G0's H2_open with the authors' neighbour-degree lists against true sets, on ca-GrQc."""
    ours, theirs = g0_signatures(datasets.load("ca-GrQc"))
    assert (ours, theirs) == (2080, 2145)  # G0's H2_open in study.md, and the authors' count
    gap = (theirs - ours) / theirs
    assert 0.02 < gap <= G0_TOLERANCE["H2_open"].rel


# ------------------------------------------------------------------------------ against the source
def _paper_tex() -> Path | None:
    here = Path(__file__).resolve()
    for parent in here.parents[1:]:
        candidate = parent / "shared" / "paper" / "uncertainty-semantics.tex"
        if candidate.is_file():
            return candidate
    return None


def _tex_or_skip() -> str:
    tex = _paper_tex()
    if tex is None:
        pytest.skip(
            "the paper's source (shared/paper/uncertainty-semantics.tex) is not beside the project"
        )
    return tex.read_text()


_LABELS = {
    "3": "tab:k-obfuscation",
    "4": "tab:randwalk",
    "6": "tab:effectiveness",
    "7": "tab:compare",
}


def test_the_logged_file_names_the_paper_s_cells(cells):
    """Every printed cell of the four tables, read here on its own, is in the CSV as printed."""
    text = _tex_or_skip()
    for table, label in _LABELS.items():
        start = text.index(rf"\label{{{label}}}")
        block = text[start : text.index(r"\end{tabular}", start)]
        printed = []
        for line in block.splitlines():
            if r"\\" not in line or "multicolumn" in line or line.count("&") < 8:
                continue
            head, *row = line.split(r"\\")[0].split("&")
            if "H1" in line:  # the header row
                continue
            printed += [re.sub(r"\\textbf\{(.*)\}", r"\1", c).strip() for c in row]
        expected = [c.paper for c in cells if c.table == table]
        assert [p for p in printed if p] == expected, table


def test_the_logged_file_regenerates_from_the_mirror(cells):
    """``parse_authors_logs.py`` on the authors' repository and the source gives the CSV as shipped."""
    text = _tex_or_skip()
    spec = importlib.util.spec_from_file_location(
        "parse_authors_logs", Path(__file__).with_name("parse_authors_logs.py")
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # its dataclasses look their module up
    spec.loader.exec_module(script)
    if not script.MIRROR.exists():
        pytest.skip(f"the authors' repository is not at {script.MIRROR}")
    with LOGS.open(newline="") as f:
        shipped = list(csv.DictReader(f))
    assert script.rows(script.Mirror(script.MIRROR), text) == shipped


if __name__ == "__main__":  # the evidence of G0_TOLERANCE["H2_open"] on the shared graphs
    import sys

    for name in sys.argv[1:] or ["ca-GrQc"]:
        ours, theirs = g0_signatures(
            datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
        )
        print(
            f"{name}: true sets {ours:,}, the authors' lists {theirs:,} ({theirs / ours - 1:.1%} more)"
        )
