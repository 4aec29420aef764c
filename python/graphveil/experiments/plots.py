"""Figures of a :class:`graphveil.experiments.Study` (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphveil._common import atomic_path
from graphveil.anonymize import registry
from graphveil.experiments.config import STRONGEST
from graphveil.measure.scores import H1, H2_OPEN

if TYPE_CHECKING:  # pragma: no cover
    from graphveil.experiments.tables import Study

#: The keys of the model's privacy scores in a row (:mod:`graphveil.measure.scores`).
_H1, _H2 = H1.name, H2_OPEN.name


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "figures need matplotlib: pip install 'graphveil[plot]' (or pass figures=False / --no-figures)"
        ) from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=120, bbox_inches="tight", format="png")
    return path


def study_figures(study: Study, out_dir: str | Path) -> list[Path]:
    """Write every figure of the study that its rows allow; return the paths written."""
    plt = _pyplot()
    out = Path(out_dir)
    written = []
    try:
        for record in registry.REGISTRY.values():
            if record.figures and study.scheme_rows(record.name):
                written.append(scheme_figure(study, record, out / f"{record.name}.png", plt))
        written.append(tradeoff_figure(study, out / "tradeoff.png", plt))
        if any(r.get(STRONGEST[0].name) is not None for r in study.rows):
            written.append(attack_figure(study, out / "attack.png", plt))
        written.append(total_variance_figure(study, out / "total_variance.png", plt))
    finally:
        plt.close("all")
    return written


def scheme_figure(study: Study, record: registry.Scheme, path: Path, plt: Any) -> Path:
    """A scheme's H1, H2_open and rel.err against the ratio of replaced edges.

    The paper's figures of one scheme (:attr:`~graphveil.anonymize.registry.Scheme.figures`:
    MaxVar's Figs. 3-5).
    """
    rows = sorted(study.scheme_rows(record.name), key=lambda r: r["removed_edges"])
    ratio = [r["removed_edges"] / study.m for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), layout="constrained")
    for ax, key, title in zip(
        axes, (_H1, _H2, "rel_err"), (H1.title, H2_OPEN.title, "rel.err"), strict=True
    ):
        values = [r[key] for r in rows]
        ax.errorbar(ratio, values, yerr=_spread(rows, key), marker="o", capsize=3)
        _label_points(ax, ratio, values, rows)
        ax.margins(x=0.15, y=0.12)  # room for the labels of the last points
        ax.set_xlabel("ratio of replaced edges |E_G0 \\ E_G| / |E_G0|")
        ax.set_ylabel(title)
        ax.grid(alpha=0.3)
    fig.suptitle(
        f"{record.title} on {study.graph_name} (n={study.n:,}, m={study.m:,}; "
        f"{study.config.samples} samples; bars: one standard deviation over them)"
    )
    return _save(fig, path)


def _spread(rows: list[dict[str, Any]], key: str, floor: float | None = None) -> Any:
    """Error bars of ``key``: its per-sample standard deviation as recorded in each row.

    None where no row records one (rel.err is one number per grid point). With ``floor`` (a log
    axis) the lower bar stops at it.
    """
    stds = [(r.get("std") or {}).get(key, r.get(f"{key}_std")) for r in rows]
    if all(s is None for s in stds):
        return None
    hi = [0.0 if s is None else float(s) for s in stds]
    if floor is None:
        return hi
    lo = [min(h, max(r[key] - floor, 0.0)) for h, r in zip(hi, rows)]
    return [lo, hi]


def _label_points(
    ax: Any, xs: list[float], ys: list[float], rows: list[dict[str, Any]], below: bool = False
) -> None:
    """Each point's grid value (the row's label, e.g. ``t=2``) beside it, above or ``below``."""
    offset, va = ((4, -4), "top") if below else ((4, 4), "bottom")
    for r, x, y in zip(rows, xs, ys):
        ax.annotate(
            r["label"], (x, y), fontsize=6, textcoords="offset points", xytext=offset, va=va
        )


def _legend_outside(ax: Any) -> None:
    """The legend to the right of the axes, clear of the data (none if nothing is named)."""
    if not ax.get_legend_handles_labels()[0]:
        return
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)


#: Line style of each family: the edge-DP schemes dashed beside the uncertainty schemes.
_LINESTYLE = {"uncertainty": "-", "dp": "--"}


def _label(record: registry.Scheme) -> str:
    return f"{record.title} (edge DP)" if record.family == "dp" else record.title


def tradeoff_figure(study: Study, path: Path, plt: Any) -> Path:
    """Privacy (H2_open) against utility loss (rel.err) for every scheme (Figs. 7-9 of the paper)."""
    fig, ax = plt.subplots(figsize=(8.5, 5), layout="constrained")
    floor = 1e-3  # a score of 0 (nobody re-identified) drawn at the bottom of the log axis
    for record in registry.REGISTRY.values():
        rows = study.scheme_rows(record.name)
        if not rows:
            continue
        rows = sorted(rows, key=lambda r: r["rel_err"])
        xs, ys = [r["rel_err"] for r in rows], [max(r[_H2], floor) for r in rows]
        ax.errorbar(
            xs, ys, yerr=_spread(rows, _H2, floor), marker=record.marker, label=_label(record),
            linestyle=_LINESTYLE[record.family], capsize=2,
        )  # fmt: skip
        _label_points(ax, xs, ys, rows)
    ax.axhline(
        study.original[_H2],
        color="grey",
        linestyle="--",
        label=f"{study.graph_name} (no anonymization)",
    )
    ax.set_yscale("log")
    ax.margins(x=0.08)
    ax.set_xlabel(
        f"rel.err (mean relative error of the {len(study.statistics)} utility statistics)"
    )
    ax.set_ylabel("H2_open re-identification score (log scale)")
    ax.set_title(
        f"Privacy-utility tradeoff on {study.graph_name} (lower-left is better; "
        "bars: one standard deviation over the samples)",
        fontsize=10,
    )
    ax.grid(alpha=0.3, which="both")
    _legend_outside(ax)
    return _save(fig, path)


def attack_figure(study: Study, path: Path, plt: Any) -> Path:
    """The strongest re-identification against rel.err for every scheme (next to the tradeoff).

    The attacker's view of the tradeoff figure: the fraction of G0's core nodes (degree >= 5, in
    the largest component) that the strongest attack re-identifies in a sampled world (``reid``
    of the privacy-score table, :func:`graphveil.scores.strongest_reidentification`: the
    largest rate of the attacks that re-identify nodes), with the un-anonymized control as a
    line. A scheme without node identity has no such rate and no line.
    """
    column = STRONGEST[0]
    metric = column.name
    fig, ax = plt.subplots(figsize=(8.5, 5), layout="constrained")
    drawn = 0
    for scheme in registry.names():
        record = registry.scheme(scheme)
        rows = [r for r in study.scheme_rows(scheme) if r.get(metric) is not None]
        if not rows:
            continue
        drawn += 1
        rows = sorted(rows, key=lambda r: r["rel_err"])
        xs, ys = [r["rel_err"] for r in rows], [r[metric] for r in rows]
        ax.errorbar(
            xs, ys, yerr=_spread(rows, metric, 0.0), marker=record.marker, label=_label(record),
            linestyle=_LINESTYLE[record.family], capsize=2,
        )  # fmt: skip
        _label_points(ax, xs, ys, rows, below=drawn % 2 == 0)
    control = study.original.get(metric)
    if control is not None:
        ax.axhline(
            control, color="grey", linestyle="--", label=f"{study.graph_name} (no anonymization)"
        )
    ax.margins(x=0.08)
    ax.set_ylim(bottom=-0.05 * ax.get_ylim()[1])  # room for the labels of the points at 0
    ax.set_xlabel(
        f"rel.err (mean relative error of the {len(study.statistics)} utility statistics)"
    )
    ax.set_ylabel(column.title)
    ax.set_title(
        f"Attack against utility on {study.graph_name} (lower-left is better; "
        "bars: one standard deviation over the attacked worlds)",
        fontsize=10,
    )
    ax.grid(alpha=0.3)
    _legend_outside(ax)
    return _save(fig, path)


def total_variance_figure(study: Study, path: Path, plt: Any) -> Path:
    """Total degree variance of each scheme's uncertain model divided by ``|E_G0|`` (Fig. 10 of the paper).

    RandWalk, RandWalk-mod samples and EdgeSwitch publish deterministic graphs; RandWalk-mod's bar is
    the TV of its uncertain form (n/a where too large to build: a scheme's
    :attr:`~graphveil.anonymize.registry.Scheme.model_tv`), RandWalk's and EdgeSwitch's are 0.
    """
    fig, ax = plt.subplots(figsize=(9.5, 4.2), layout="constrained")
    x = 0
    ticks, labels, groups = [], [], {}
    for record in registry.REGISTRY.values():
        rows = study.scheme_rows(record.name)
        if not rows:
            continue
        xs = list(range(x, x + len(rows)))
        values = [r.get("tv_model_normalized", r["tv_normalized"]) for r in rows]
        visible = any(v for v in values)  # an all-zero scheme has no bar to name in the legend
        se = [r.get("tv_model_se") or 0.0 for r in rows]
        ax.bar(
            xs, [0.0 if v is None else v for v in values], label=record.title if visible else None,
            yerr=[e / study.m for e in se] if any(se) else None, capsize=2,
        )  # fmt: skip
        for xi, v in zip(xs, values):
            if v is None:
                ax.annotate("n/a", (xi, 0), ha="center", va="bottom", fontsize=6, rotation=90)
        ticks += xs
        labels += [r["label"] for r in rows]
        groups[(xs[0] + xs[-1]) / 2] = record.title
        x += len(rows) + 1
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    top = ax.secondary_xaxis("top")  # every scheme named over its bars, zero or not
    top.set_xticks(list(groups), list(groups.values()), fontsize=7)
    top.tick_params(length=0)
    ax.set_ylabel("TV / |E_G0| (normalised total degree variance)")
    zero = [
        record.title
        for record in registry.REGISTRY.values()
        if record.deterministic and record.model_tv is None and study.scheme_rows(record.name)
    ]
    if zero:
        ax.text(
            0.99,
            0.97,
            f"{', '.join(zero)}: deterministic (TV = 0)",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7,
        )
    ax.set_xlabel("scheme and grid point")
    ax.set_title(f"Normalised total variance on {study.graph_name}")
    ax.grid(alpha=0.3, axis="y")
    _legend_outside(ax)
    return _save(fig, path)
