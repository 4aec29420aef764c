"""Sphinx configuration of the graphveil documentation (``sphinx-build -W -b html docs docs/_build/html``).

The API pages are built from the installed package's numpy-style docstrings (numpydoc); the
package must be importable (``pip install ".[docs]"``). Warnings are errors in CI.
"""

from __future__ import annotations

import os
from pathlib import Path

import graphveil

project = "graphveil"
author = "graphveil developers"
copyright = "graphveil developers"
version = release = graphveil.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",  # CHANGELOG.md, included from the project root
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

# autodoc: members in source order; a module's __all__ decides what is public.
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the numpydoc Parameters sections carry the types
autodoc_default_options = {"members": True, "show-inheritance": True}

# numpydoc: class members are documented by autodoc (:members:), not as numpydoc tables.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# No intersphinx: CI builds offline, and a failed inventory fetch is a warning (an error here).

# nitpicky: every cross-reference must resolve (CI builds with -W, so a dangling one fails).
nitpicky = True
# External, no intersphinx offline: the third-party and standard-library targets the docstrings
# name. Only such names belong here; a graphveil name that does not resolve needs its page.
nitpick_ignore = [
    # standard library
    ("py:class", "collections.abc.Callable"),  # the "alias of" line of a Callable type alias
    ("py:class", "concurrent.futures.Executor"),
    ("py:class", "concurrent.futures._base.Executor"),  # DaskExecutor's base, as autodoc shows it
    ("py:class", "pathlib.Path"),
    # numpy
    ("py:class", "numpy.ndarray"),
    ("py:mod", "numpy.lib.format"),
    # networkx
    ("py:func", "networkx.powerlaw_cluster_graph"),
    # pymetis
    ("py:class", "pymetis.Options"),
]

html_theme = "pydata_sphinx_theme"
html_title = f"graphveil {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}


def _lookup(dotted: str) -> object | None:
    """The object named ``dotted`` (a module, then attributes), or None."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return None
        return obj
    return None


def _resolve_reexport(app, env, node, contnode):  # type: ignore[no-untyped-def]
    """Resolve a Python reference the domain missed: a short name inside graphveil, or a name
    re-exported by a package (``graphveil.RunRecord`` is documented as ``graphveil.record.RunRecord``).
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    domain = env.get_domain("py")
    candidates = [f"graphveil.{target}"]
    if node.get("py:module"):
        candidates.append(f"{node['py:module']}.{target}")
    if node.get("py:class"):  # an attribute named inside its class's docstring
        candidates.append(f"graphveil.{node['py:class']}.{target}")
    for name in list(candidates) + [target]:
        obj = _lookup(name) if name.startswith("graphveil") else None
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if module and qualname:
            candidates.append(f"{module}.{qualname}")
    for name in candidates:
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, "obj", name, node, contnode
        )
        if found is not None:
            return found
    # A re-export documented at its public path (``graphveil.measure.utility.STATISTICS`` is on the
    # page as ``graphveil.measure.STATISTICS``'s home or the other way round): the documented name
    # with the same last component that is the very same object. Data have no ``__module__``, so
    # identity is the only sure test; the name must match too (equal small ints are one object).
    for name in [target] + candidates:
        if not name.startswith("graphveil."):
            continue
        obj = _lookup(name)
        if obj is None:
            continue
        last = name.rsplit(".", 1)[-1]
        for documented in _documented(domain).get(last, ()):
            if documented != name and _lookup(documented) is obj:
                return domain.resolve_xref(
                    env, node["refdoc"], app.builder, "obj", documented, node, contnode
                )
    return None


def _documented(domain):  # type: ignore[no-untyped-def]
    """The py domain's documented graphveil names, by their last dotted component."""
    by_last: dict[str, list[str]] = {}
    for name in domain.objects:
        if name.startswith("graphveil."):
            by_last.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    return by_last


# The shipped studies' pages (docs/studies/<graph>.md, listed by docs/study.md's toctree): written
# at each build from benchmarks/results/, never edited or committed, so regenerating the results
# (a new graph, table or figure included) regenerates the docs with no edit.
RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
STUDY_PAGES = "studies"
FIGURE_CAPTIONS = {
    "tradeoff": "The privacy-utility tradeoff: H2_open against rel.err for every scheme (the "
    "paper's Figs. 7-9).",
    "attack": "What an attacker recovers: the propagation attack's re-identification rate "
    "against rel.err.",
    "maxvar": "MaxVar: H1, H2_open and rel.err against the ratio of replaced edges (the paper's "
    "Figs. 3-5).",
    "total_variance": "The total variance of the uncertain releases, divided by m (the paper's "
    "Fig. 10).",
}


def study_page(graph_dir: Path, docs_dir: Path) -> str:
    """The MyST page of the shipped study in ``graph_dir``: its ``study.md`` (the report and every
    table) included as written, then every figure of the folder (the known ones first)."""
    rel = Path(os.path.relpath(graph_dir, docs_dir / STUDY_PAGES)).as_posix()
    order = list(FIGURE_CAPTIONS)
    figures = sorted(
        graph_dir.glob("*.png"),
        key=lambda f: (order.index(f.stem) if f.stem in order else len(order), f.name),
    )
    lines = [
        f"% Written by docs/conf.py from benchmarks/results/{graph_dir.name}/ at each build: do not edit.",
        "",
        f"```{{include}} {rel}/study.md",
        "```",
        "",
        "## Figures",
        "",
    ]
    for figure in figures:
        caption = FIGURE_CAPTIONS.get(figure.stem, figure.stem.replace("_", " "))
        lines += [f"```{{figure}} {rel}/{figure.name}", f":alt: {figure.stem} on {graph_dir.name}"]
        lines += ["", caption, "```", ""]
    lines.append(
        f"The tables as CSV (full precision) are beside `study.md` in "
        f"`benchmarks/results/{graph_dir.name}/`."
    )
    return "\n".join(lines) + "\n"


def write_study_pages(app) -> None:  # type: ignore[no-untyped-def]
    """Write one page per shipped study into docs/studies/, and remove pages of studies gone."""
    docs_dir = Path(app.srcdir)
    out = docs_dir / STUDY_PAGES
    out.mkdir(exist_ok=True)
    graphs = sorted(d for d in RESULTS.iterdir() if (d / "study.md").is_file())
    for graph_dir in graphs:
        page, text = out / f"{graph_dir.name}.md", study_page(graph_dir, docs_dir)
        if not page.is_file() or page.read_text() != text:  # unchanged: incremental builds skip it
            page.write_text(text)
    for page in out.glob("*.md"):
        if page.stem not in {d.name for d in graphs}:
            page.unlink()


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("builder-inited", write_study_pages)
    app.connect("missing-reference", _resolve_reexport)
