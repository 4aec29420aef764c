"""The paper's study on any graph: every scheme over its grid, privacy and utility side by side.

:func:`reproduce` runs the grid of Section VII of the paper (Tables 3, 4, 6, 7), scaled to the
graph, evaluates every grid point on ``samples`` possible worlds and returns a :class:`Study`
whose tables and figures match the paper's: ``reproduce(graph, StudyConfig(samples=5))``. With
``out_dir`` every finished grid point is recorded there at once, so an interrupted run resumes
without redoing finished points.

The package's modules, which call each other by public names only (no underscore name crosses
a file: ``.ci/private_names.py``): :mod:`~graphveil.experiments.config` (the settings,
:class:`StudyConfig`, checked when made, and the grid), :mod:`~graphveil.experiments.schedule`
(the points as tasks), :mod:`~graphveil.experiments.tasks` and
:mod:`~graphveil.experiments.rows` (the work and the rows made of it),
:mod:`~graphveil.experiments.state` (:class:`~graphveil.experiments.state.StudyState`, the
recorded points of a resumable run: the one home of resume),
:mod:`~graphveil.experiments.tables` (:class:`Study` and its tables),
:mod:`~graphveil.experiments.findings` (the paper's claims checked on the rows),
:mod:`~graphveil.experiments.checks` (graphveil's own checks) and
:mod:`~graphveil.experiments.plots` (the figures). It names no scheme: what a scheme needs of
the study beyond its run (MaxVar's one partition and found n_p, RandWalk-mod's model TV) is a
hook on its :class:`~graphveil.anonymize.registry.Scheme` record.

References
----------
Nguyen, Imine, Rusinowitch, "Anonymizing Social Graphs via Uncertainty Semantics",
ASIACCS 2015, Section VII (Evaluation).
"""

from graphveil.experiments.config import (
    ATTACK_COLUMNS,
    GridPoint,
    StudyConfig,
    paper_grid,
    point_seed,
)
from graphveil.experiments.run import reproduce
from graphveil.experiments.state import STATE_VERSION, graph_digest
from graphveil.experiments.tables import Study

__all__ = [
    "ATTACK_COLUMNS",
    "STATE_VERSION",
    "GridPoint",
    "Study",
    "StudyConfig",
    "graph_digest",
    "paper_grid",
    "point_seed",
    "reproduce",
]
