"""The study's result, :class:`Study`: its rows, and its tables as data, Markdown and CSV.

The tables are the paper's (Tables 3, 4, 6 per scheme and Table 7, the comparison); ``study.md``
adds the paper's claims checked on the rows (:mod:`graphveil.experiments.findings`) and
graphveil's own checks (:mod:`graphveil.experiments.checks`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graphveil._json import dumps
from graphveil.anonymize import registry
from graphveil.attack.propagation import DEFAULT_DEGREE_RATIO
from graphveil.attack.scores import ATTACK_SAMPLES, ATTACK_SEEDS
from graphveil.experiments.checks import attack_disagreements, fit_warnings
from graphveil.experiments.config import ATTACK_COLUMNS, STRONGEST_COLUMNS, StudyConfig
from graphveil.experiments.families import NO_NODE_IDENTITY, family_markdown
from graphveil.experiments.findings import claims_markdown, paper_claims
from graphveil.experiments.further_claims import further_claims
from graphveil.experiments.state import write_text
from graphveil.measure.scores import EPS, MODEL_SCORES, sample_score_names
from graphveil.measure.scoring import scoring
from graphveil.measure.utility import (
    DIAMETER_MAX_BFS,
    EXACT_THRESHOLD,
    analyst_names,
    statistic_names,
)


@dataclass
class Study:
    """The result of :func:`~graphveil.experiments.reproduce`: one row per grid point plus the true graph's own row."""

    graph_name: str
    n: int
    m: int
    config: StudyConfig
    original: dict[str, Any]
    #: One row per grid point, a plain dict: ``scheme``, ``value``, ``label`` and the point's scores.
    rows: list[dict[str, Any]]
    version: str
    timings: dict[str, float] = field(default_factory=dict)
    #: Grid points the scheme cannot run on this graph: ``scheme``, ``value``, ``label``, ``reason``.
    not_applicable: list[dict[str, Any]] = field(default_factory=list)
    #: How ``S_Diam`` was found for G0 and every sample
    #: (:func:`~graphveil.measure.utility.diameter_choice`).
    diameter_method: str = "ifub"
    #: :func:`graph_digest` of G0, in ``study.json``: a folder holding another graph's study is
    #: told apart before a run writes beside its tables.
    graph_digest: str = ""
    #: Per scheme with a :attr:`~graphveil.anonymize.registry.Scheme.prepare` (MaxVar's one
    #: partition of G0): its ``seed`` and ``time_s``. Private, like every seed of the study.
    preparations: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def statistics(self) -> tuple[str, ...]:
        """The utility statistics of the tables: the directed ones for a directed G0."""
        return statistic_names(self.config.directed)

    def scheme_rows(self, scheme: str) -> list[dict[str, Any]]:
        """The study's rows of one scheme."""
        return [r for r in self.rows if r["scheme"] == scheme]

    # -------------------------------------------------------------- tables as data
    def scheme_table(self, scheme: str) -> list[dict[str, Any]]:
        """The paper's per-scheme table (Tables 3, 4, 6): H1, H2_open, the utility statistics, rel.err."""
        record = registry.scheme(scheme)
        header = record.grid_parameter
        rows = self.scheme_rows(scheme)
        # rows that name the value found (MaxVar's n_p / m): the request shows where one fell short
        found = record.found
        short = found is not None and any(found.short(r) for r in rows)

        def requested(value: Any) -> dict[str, Any]:
            return {"requested": value} if short else {}

        table = [
            {
                header: self.graph_name,
                **requested(None),
                **_pick(self.original, (*sample_score_names(), *self.statistics)),
                "rel_err": None,
            }
        ]
        for row in rows:
            table.append(
                {
                    header: row.get("found", row["value"]),
                    **requested(row["value"]),
                    **_pick(row, (*sample_score_names(), *self.statistics, "rel_err")),
                }
            )
        return table

    def comparison_table(self) -> list[dict[str, Any]]:
        """The paper's Table 7: privacy (H1, H2_open, edge differences, eps for each k) and utility."""
        eps_cols = [EPS.key(k) for k in self.config.k]
        cols = (
            *sample_score_names(),
            "removed_edges",
            "added_edges",
            *eps_cols,
            "rel_err",
            *(("analyst_err",) if self.config.analyst else ()),
            "tradeoff",
        )
        if self.config.attacks:
            cols += (*STRONGEST_COLUMNS, *ATTACK_COLUMNS)
        table = [{"case": self.graph_name, **{c: self.original.get(c) for c in cols}}]
        for row in self.rows:
            table.append(
                {
                    "case": f"{registry.scheme(row['scheme']).title} {row['label']}",
                    **_pick(row, cols),
                }
            )
        return table

    def analyst_table(self) -> list[dict[str, Any]]:
        """The analyst statistics' column group: G0's values, each row's means and analyst.err.

        Empty unless the study measured them (:attr:`StudyConfig.analyst`).
        """
        if not self.config.analyst:
            return []
        cols = analyst_names()
        table = [{"case": self.graph_name, **_pick(self.original, cols), "analyst_err": None}]
        for row in self.rows:
            table.append(
                {
                    "case": f"{registry.scheme(row['scheme']).title} {row['label']}",
                    **_pick(row, (*cols, "analyst_err")),
                }
            )
        return table

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        """The study's tables by name (``analyst`` when the study measured them)."""
        out = {
            scheme: self.scheme_table(scheme)
            for scheme in registry.names()
            if self.scheme_rows(scheme)
        }
        out["comparison"] = self.comparison_table()
        if self.config.analyst:
            out["analyst"] = self.analyst_table()
        return out

    def to_json(self) -> dict[str, Any]:
        """The study as a JSON-ready dict."""
        return {
            "graph": self.graph_name,
            "n": self.n,
            "m": self.m,
            "graphveil_version": self.version,
            "config": self.config.to_dict(),
            "original": self.original,
            "rows": self.rows,
            "tables": self.tables(),
            "not_applicable": self.not_applicable,
            "diameter_method": self.diameter_method,
            "graph_digest": self.graph_digest,
            "timings": self.timings,
            "preparations": self.preparations,
        }

    def to_markdown(self) -> str:
        """The study's tables as Markdown."""
        parts = [f"# graphveil study of {self.graph_name} (n={self.n:,}, m={self.m:,})", ""]
        header = (
            f"{self.config.samples} samples per case, seed {self.config.seed}, graphveil {self.version}. "
            f"Lower {', '.join(_lower_is_better())}, rel.err and tradeoff are better. "
            f"Scored with {scoring(self.config.scoring).title}."
        )
        if self.config.directed:
            header += (
                " G0 is directed: the statistics are the directed ones (reciprocity, in/out "
                "degrees, Fagiolo clustering, components, distances along arcs), the edge counts "
                "are arcs, eps is on the joint (in, out) degree, only the schemes with a "
                "directed form run, and every attack reads the arcs' directions, in- and "
                "out-neighbours apart (docs/directed.rst)."
            )
        if self.config.attacks:
            header += " " + _ATTACK_LEGEND + _identity_legend(self.rows)
        if self.diameter_method == "lower_bound":  # diameter_choice's reason, by kind of G0
            why = (
                f"iFUB bounds undirected distances only and G0 has more than {EXACT_THRESHOLD:,} "
                "nodes (the all-pairs limit)"
                if self.config.directed
                else f"iFUB does not prove G0's diameter within {DIAMETER_MAX_BFS} BFS"
            )
            along = "along arcs " if self.config.directed else ""
            header += (
                f" S_Diam is the longest distance {along}from {self.config.distance_sources:,} "
                f"random BFS sources (the paper's bound), as {why}."
            )
        parts.append(header)
        warnings = fit_warnings(
            self.rows, self.original, self.config.directed, lambda s: registry.scheme(s).title
        )
        if warnings:  # before the tables: a term of every row's rel.err is at stake
            parts += ["", "## Warning: an unstable power-law fit", ""]
            parts += [*warnings, "", "See docs/directed.rst, 'An unstable power-law fit'."]
        for name, table in self.tables().items():
            title = _TABLE_TITLES.get(name) or registry.scheme(name).title
            parts += ["", f"## {title}", "", _markdown_table(table)]
            if name not in _TABLE_TITLES:
                parts += self._authors_run(name)
                record = registry.scheme(name)
                if record.paper_departs and not self.config.directed:
                    parts += ["", f"{record.paper_departs}."]
        parts += ["", *self._findings_markdown()]
        control = self.original.get("attack_not_applicable")
        if self.not_applicable or control:
            parts += ["", "## Not applicable", ""]
            if control:
                parts.append(f"- {self.graph_name} as published (the control): attack: {control}")
            parts += [
                f"- {registry.scheme(r['scheme']).title} {r['label']}: {r['reason']}"
                for r in self.not_applicable
            ]
        return "\n".join(parts) + "\n"

    def _authors_run(self, scheme: str) -> list[str]:
        """The sentence naming the authors' run a scheme's rows reproduce (none if directed)."""
        run = registry.scheme(scheme).authors_run
        if not run:
            return []
        if self.config.directed:  # the paper's tables, and the runs behind them, are undirected
            title = registry.scheme(scheme).title
            return [
                "",
                f"These rows reproduce no run of the paper: G0 is directed, and the authors' run "
                f"behind the paper's {title} rows is undirected ({run}).",
            ]
        return ["", f"The authors' run these rows reproduce: {run}."]

    def _findings_markdown(self) -> list[str]:
        """The paper's claims checked on these rows, and where the attacks disagree with the scores."""
        claims = paper_claims(
            self.rows,
            self.config.k,
            original=self.original,
            graph=self.graph_name,
            directed=self.config.directed,
        )
        claims += further_claims(
            self.rows,
            original=self.original,
            preparations=self.preparations,
            directed=self.config.directed,
        )
        lines = claims_markdown(claims)
        sentences = attack_disagreements(self.rows, lambda s: registry.scheme(s).title)
        if sentences:
            lines += [
                "",
                "## The attacks against the scores",
                "",
                (
                    "graphveil's own check, not the paper's. Re-identified: the fraction of G0's "
                    "core nodes (degree >= 5, largest component) that the strongest attack "
                    "(reid: the largest rate of the attacks that re-identify nodes) "
                    "re-identifies in a sampled world; a pair of rows disagrees when H1 or "
                    "H2_open orders it one way and the attack the other. A release without "
                    f"node identity is left out ({NO_NODE_IDENTITY})."
                ),
                "",
                *(f"- {s}" for s in sentences),
            ]
        families = family_markdown(
            self.rows, self.graph_name, self.original, analyst=self.config.analyst
        )
        return lines + ["", *families] if families else lines

    def write(self, out_dir: str | Path, *, figures: bool = True) -> list[Path]:
        """Write every table as Markdown, CSV and JSON (and the figures as PNG) into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for name, table in self.tables().items():
            written.append(write_text(out / f"table_{name}.csv", _csv_table(table)))
            written.append(write_text(out / f"table_{name}.md", _markdown_table(table) + "\n"))
        written.append(
            write_text(
                out / "study.json",
                dumps(self.to_json(), indent=2),
                private=True,  # per-point seeds and scheme reports: like a run record
            )
        )
        written.append(write_text(out / "study.md", self.to_markdown()))
        if figures:
            from graphveil.experiments import plots

            written += plots.study_figures(self, out)
        return written


#: The titles of the tables that are no scheme's.
_TABLE_TITLES = {
    "comparison": "Comparison (the paper's Table 7)",
    "analyst": "Analyst statistics (their own column group; analyst_err their mean error)",
}

#: What the comparison table's attack columns measure (study.md's header).
_ATTACK_LEGEND = (
    "The attack columns: link_auc and precision_at_m rank the published pairs by p (a graph's "
    "pairs all tie: no AUC, and precision_at_m is the share of its pairs that are edges); "
    "reid_rate is the share of G0's core (degree >= 5, largest component) that graphveil's "
    f"propagation attack re-identifies in a sampled world (mean of {ATTACK_SAMPLES}), with "
    f"{ATTACK_SEEDS} known hub seeds and candidates only within a factor "
    f"{DEFAULT_DEGREE_RATIO:g} of a node's degree: seed-and-extend after Narayanan and "
    "Shmatikov, not their 2009 attack as published (docs/faithfulness.rst); reid_accuracy and "
    "reid_coverage split it (right among the mapped, mapped at all), and reid_twin_share is the "
    "share of the core with a structural twin, which no structural attack tells apart. "
    "edge_auc ranks the published pairs by p and plausibility (Zhang et al., NDSS 2020); "
    "edge_loss is ln(TPR/FPR) of 'the pair is published', edge_eps_lower a 95% lower bound of "
    "the edge epsilon the release exhibits (at most epsilon for an edge-DP row) and "
    "edge_inference_lower that of the plausibility attack, which edge DP does not bound "
    "(graphveil.attack.edges). percolation_rate, reconciliation_rate and seedless_rate are "
    "the de-anonymization suite's (percolation with ExpandWhenStuck and Korula-Lattanzi "
    "reconciliation from the same hub seeds, Narayanan-Shmatikov's seedless attack; one "
    "sampled world each), and reid the strongest re-identification, the largest rate of the "
    "attacks that re-identify nodes, reid_attack the attack that gave it "
    "(graphveil.attack.deanonymization)."
)


def _identity_legend(rows: list[dict[str, Any]]) -> str:
    """The sentence on the blank re-identification columns of the rows without node identity."""
    ran = dict.fromkeys(r["scheme"] for r in rows)
    without = [registry.scheme(s).title for s in ran if not registry.scheme(s).node_identity]
    if not without:
        return ""
    return (
        f" The re-identification columns of {' and '.join(without)} are blank: they deal "
        f"synthetic edges to the nodes, so {NO_NODE_IDENTITY} (their privacy is read on the "
        "edge axes of 'Uncertainty against edge DP')."
    )


def _lower_is_better() -> list[str]:
    """The model's privacy scores of which lower is more private (H1, H2_open, eps)."""
    return [s.name for s in MODEL_SCORES if s.more_private == "lower"]


def _pick(row: dict[str, Any], cols: Iterable[str]) -> dict[str, Any]:
    return {c: row.get(c) for c in cols}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if value == 0 or 1e-3 <= abs(value) < 1e7:
            return f"{value:.4g}" if abs(value) < 1 else f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{value:.3e}"
    return str(value)


def _markdown_table(table: list[dict[str, Any]]) -> str:
    cols = list(table[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(_cell(r.get(c)) for c in cols) + " |" for r in table]
    return "\n".join(lines)


def _csv_table(table: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(table[0]), lineterminator="\n")
    writer.writeheader()
    for row in table:
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buf.getvalue()
