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
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, key, title in zip(
        axes, (_H1, _H2, "rel_err"), (H1.title, H2_OPEN.title, "rel.err"), strict=True
    ):
        ax.plot(ratio, [r[key] for r in rows], marker="o", label=record.title)
        for r, x in zip(rows, ratio):
            ax.annotate(
                r["label"], (x, r[key]), fontsize=7, textcoords="offset points", xytext=(3, 3)
            )
        ax.set_xlabel("ratio of replaced edges |E_G0 \\ E_G| / |E_G0|")
        ax.set_ylabel(title)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(
        f"{record.title} on {study.graph_name} (n={study.n:,}, m={study.m:,}; {study.config.samples} samples)"
    )
    return _save(fig, path)


#: Line style of each family: the edge-DP schemes dashed beside the uncertainty schemes.
_LINESTYLE = {"uncertainty": "-", "dp": "--"}


def _label(record: registry.Scheme) -> str:
    return f"{record.title} (edge DP)" if record.family == "dp" else record.title


def tradeoff_figure(study: Study, path: Path, plt: Any) -> Path:
    """Privacy (H2_open) against utility loss (rel.err) for every scheme (Figs. 7-9 of the paper)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for record in registry.REGISTRY.values():
        rows = study.scheme_rows(record.name)
        if not rows:
            continue
        rows = sorted(rows, key=lambda r: r["rel_err"])
        ax.plot(
            [r["rel_err"] for r in rows],
            [max(r[_H2], 1e-3) for r in rows],
            marker=record.marker,
            label=_label(record),
            linestyle=_LINESTYLE[record.family],
        )
    ax.axhline(
        study.original[_H2],
        color="grey",
        linestyle="--",
        label=f"{study.graph_name} (no anonymization)",
    )
    ax.set_yscale("log")
    ax.set_xlabel(
        f"rel.err (mean relative error of the {len(study.statistics)} utility statistics)"
    )
    ax.set_ylabel("H2_open re-identification score (log scale)")
    ax.set_title(f"Privacy-utility tradeoff on {study.graph_name} (lower-left is better)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
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
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for scheme in registry.names():
        record = registry.scheme(scheme)
        rows = [r for r in study.scheme_rows(scheme) if r.get(metric) is not None]
        if not rows:
            continue
        rows = sorted(rows, key=lambda r: r["rel_err"])
        ax.plot(
            [r["rel_err"] for r in rows],
            [r[metric] for r in rows],
            marker=record.marker,
            label=_label(record),
            linestyle=_LINESTYLE[record.family],
        )
    control = study.original.get(metric)
    if control is not None:
        ax.axhline(
            control, color="grey", linestyle="--", label=f"{study.graph_name} (no anonymization)"
        )
    ax.set_ylim(bottom=0)
    ax.set_xlabel(
        f"rel.err (mean relative error of the {len(study.statistics)} utility statistics)"
    )
    ax.set_ylabel(column.title)
    ax.set_title(f"Attack against utility on {study.graph_name} (lower-left is better)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)


def total_variance_figure(study: Study, path: Path, plt: Any) -> Path:
    """Total degree variance of each scheme's uncertain model divided by ``|E_G0|`` (Fig. 10 of the paper).

    RandWalk, RandWalk-mod samples and EdgeSwitch publish deterministic graphs; RandWalk-mod's bar is
    the TV of its uncertain form (n/a where too large to build: a scheme's
    :attr:`~graphveil.anonymize.registry.Scheme.model_tv`), RandWalk's and EdgeSwitch's are 0.
    """
    fig, ax = plt.subplots(figsize=(8, 4))
    x = 0
    ticks, labels = [], []
    for record in registry.REGISTRY.values():
        rows = study.scheme_rows(record.name)
        if not rows:
            continue
        xs = list(range(x, x + len(rows)))
        values = [r.get("tv_model_normalized", r["tv_normalized"]) for r in rows]
        ax.bar(xs, [0.0 if v is None else v for v in values], label=record.title)
        for xi, v in zip(xs, values):
            if v is None:
                ax.annotate("n/a", (xi, 0), ha="center", va="bottom", fontsize=6, rotation=90)
        ticks += xs
        labels += [r["label"] for r in rows]
        x += len(rows) + 1
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
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
    ax.legend(fontsize=8)
    return _save(fig, path)
