"""The private report of a publication, as text (:meth:`Publication.report <graphveil.publishing.Publication.report>`)."""

from __future__ import annotations

from typing import Any

from graphveil._seeds import derived_seed
from graphveil.anonymize import registry
from graphveil.evaluation import evaluate
from graphveil.graph import Graph
from graphveil.measure.original import Original
from graphveil.uncertain import UncertainGraph

__all__ = ["DESTROYED", "report_lines", "utility_lost"]

#: A rel.err of the release from which the report says the target destroyed its utility.
DESTROYED = 0.5


def report_lines(audit: dict[str, Any]) -> list[str]:
    """The lines of the private report of a search's ``audit``."""
    win = audit["winner"]
    record = registry.scheme(win["scheme"])
    lines = [
        "PRIVATE: measured on the true graph; never publish this report.",
        f"target: {', '.join(audit['target'])} (each score's mean over {audit['repeats']} "
        f"releases at its {audit['confidence']:.0%} one-sided confidence bound)",
        f"chosen: {record.title} {record.grid_parameter}={win['value']:.4g}",
        f"why: {audit['why']}",
        "margin: " + ", ".join(f"{k} {v:+.4g}" for k, v in audit["margins"].items()),
        f"utility: rel.err {audit['rel_err']:.4g}"
        + ("" if audit["analyst_err"] is None else f", analyst error {audit['analyst_err']:.4g}"),
    ]
    for name in ("rel_err_terms", "analyst_err_terms"):
        terms = sorted(audit[name].items(), key=lambda x: -x[1] if x[1] == x[1] else 0)
        if terms:
            worst = ", ".join(f"{k} {v:.3g}" for k, v in terms[:5])
            lines.append(f"  worst {name.replace('_err_terms', '')} terms: {worst}")
    if audit["destroyed"]:
        lines.append(
            f"the target is met only by destroying utility: rel.err {audit['rel_err']:.3g} "
            f"(at least {DESTROYED:g})"
        )
    lines += [f"note: {n}" for n in audit["notes"]]
    screened = audit.get("screened", [])
    if screened:
        lines.append(f"least private values, utility alone ({len(screened)}):")
        for c in screened:
            title = registry.scheme(c["scheme"])
            head = f"  {title.title} {title.grid_parameter}={c['value']:.4g}"
            lines.append(
                f"{head}: not applicable: {c['reason']}"
                if c["reason"]
                else f"{head}: {audit['objective']} {c['utility_mean']:.4g}; {c['seconds']:.1f} s"
            )
    lines.append(f"candidates ({len(audit['candidates'])}, {audit['seconds']:.1f} s in all):")
    for c in audit["candidates"]:
        title = registry.scheme(c["scheme"])
        head = f"  {title.title} {title.grid_parameter}={c['value']:.4g} [{c['step']}]"
        if c["reason"]:
            lines.append(f"{head}: not applicable: {c['reason']}")
            continue
        scores = ", ".join(f"{k} {m:.4g} (bound {u:.4g})" for k, (m, u) in c["interval"].items())
        verdict = "meets" if c["meets"] else "fails"
        if c.get("stopped"):
            verdict += f" (clearly: stopped after {len(c['seeds'])} releases)"
        lines.append(
            f"{head}: {verdict}; {scores}; {audit['objective']} {c['utility_mean']:.4g}; "
            f"{c['seconds']:.1f} s"
        )
    return lines


def utility_lost(
    graph: Graph,
    original: Original,
    release: UncertainGraph,
    samples: int,
    root: int,
    threads: int | None,
) -> dict[str, Any]:
    """The release's rel.err terms and, when igraph is there, the analyst statistics' errors."""
    seed = derived_seed(root, "utility")
    analyst = original.analyst
    if not analyst:
        try:
            import igraph  # noqa: F401  # the analyst extra
        except ImportError:
            analyst = False
        else:
            analyst = True
    if analyst and not original.analyst:
        original = Original(
            graph, original.k, statistics_seed=original.statistics_seed,
            threads=threads, analyst=True,
        )  # fmt: skip
    report = evaluate(
        graph, release, samples, seed=seed, k=original.k, threads=threads,
        original=original, analyst=analyst,
    )  # fmt: skip
    lost: dict[str, Any] = {
        "rel_err": float(report.rel_err),
        "rel_err_terms": {k: float(v) for k, v in report.rel_err_terms.items()},
        "analyst_err": float(report.analyst_err) if analyst else None,
        "analyst_err_terms": {k: float(v) for k, v in report.analyst_err_terms.items()},
    }
    lost["destroyed"] = bool(report.rel_err >= DESTROYED)
    return lost
