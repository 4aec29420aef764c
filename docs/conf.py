"""Sphinx configuration of the graphveil documentation (``sphinx-build -W -b html docs docs/_build/html``).

The API pages are built from the installed package's numpy-style docstrings (numpydoc); the
package must be importable (``pip install ".[docs]"``). Warnings are errors in CI.
"""

from __future__ import annotations

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

html_theme = "pydata_sphinx_theme"
html_title = f"graphveil {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
