"""The study's settings and grid: :class:`StudyConfig`, :class:`GridPoint`, :func:`paper_grid`.

Also the derived seeds and keys of a study (:func:`point_seed`, :func:`prepare_key`) and the
columns of its attack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from graphveil._checks import check_int, check_ints, check_real, check_samples, check_threads
from graphveil._common import INT32_LIMIT
from graphveil._seeds import derived_seed as point_seed  # noqa: F401  (a grid point's seed)
from graphveil._seeds import seed_to_u64
from graphveil.anonymize import partitioners, registry
from graphveil.anonymize._randwalk import MAX_WALK_LENGTH
from graphveil.graph import Graph, check_graph
from graphveil.measure.original import DIRECTED_EPS_DEGREE
from graphveil.measure.scoring import DEFAULT as DEFAULT_SCORING
from graphveil.measure.scoring import check_scoring, scoring
from graphveil.measure.utility import DISTANCE_SOURCES
from graphveil.scores import PRIVACY_SCORE_TABLE, attack_rows

#: The attack columns of the comparison table (:func:`graphveil.attack.attack_scores`): the
#: attack scores of the privacy-score table shown there (:func:`graphveil.scores.attack_rows`,
#: the registry's columns marked ``table``):
#: ``reid_rate`` (correct over the scored core) splits into ``reid_accuracy`` (correct among
#: the mapped) times ``reid_coverage`` (mapped share); ``reid_twin_share`` is the share of the
#: core with a structural twin, which no structural attack matches but by guessing.
ATTACK_COLUMNS: tuple[str, ...] = tuple(s.name for s in attack_rows(table=True))

#: The scores over several attacks the comparison table shows (``reid``, the strongest
#: re-identification, :func:`graphveil.scores.strongest_reidentification`).
STRONGEST = tuple(s for s in PRIVACY_SCORE_TABLE if s.strongest and s.table)

#: Their columns in a study row and the comparison table: each score and the attack that gave
#: it (``reid``, ``reid_attack``).
STRONGEST_COLUMNS: tuple[str, ...] = tuple(c for s in STRONGEST for c in (s.name, s.source_key))


#: The most values of ``k`` a study takes: each is a column of the comparison table.
MAX_KS = 10

#: The bound of the counts of nodes a study's config names (``k``, ``obf_k``, ``maxvar_parts``,
#: ``distance_sources``): more than any graph's nodes (a release holds at most this many).
MAX_COUNT = INT32_LIMIT


@dataclass(frozen=True)
class StudyConfig:
    """The settings of one study, checked when made; a recorded point is reused only under an equal config.

    Every field is checked (and brought to one form: ``k`` a tuple of ints, ``seed`` a 64-bit
    int, ``threads`` 0 for the machine's share) when the config is made, so that a bad setting
    fails with one line naming it before any work. :meth:`for_graph` adds the checks against
    G0 and sets :attr:`directed`; :func:`~graphveil.experiments.reproduce` calls it.

    Raises
    ------
    TypeError, ValueError
        For the first bad field, naming it and its bounds.

    Examples
    --------
    >>> StudyConfig(samples=5, k=[30, 50]).k
    (30, 50)
    >>> StudyConfig(samples=0)
    Traceback (most recent call last):
    ...
    ValueError: samples must be >= 1, got 0
    """

    #: Possible worlds drawn per grid point (the paper: 20), in ``1..MAX_SAMPLES``.
    samples: int = 20
    #: The master seed: every grid point derives its own from it and its key
    #: (:func:`point_seed`), so a point's numbers do not depend on which other points run or in
    #: which order. An int, or a numpy Generator, SeedSequence...: kept as the 64-bit int it
    #: gives (``None``: a fresh one, in study.json like every setting).
    seed: int = 1
    #: The k of the eps(k) columns (at most
    #: :data:`~graphveil.experiments.config.MAX_KS` of them), a tuple of ints.
    k: tuple[int, ...] = (30, 50, 100)
    #: The k of the study's (k,eps)-obf runs (the paper's Table 3).
    obf_k: int = 50
    #: The eps of the study's (k,eps)-obf runs, in [0, 1].
    obf_eps: float = 0.1
    #: MaxVar's parts; None: the rule of :func:`graphveil.anonymize.registry.maxvar_parts`, the
    #: paper's counts for its own graphs being in :attr:`graphveil.datasets.Dataset.maxvar_parts`.
    maxvar_parts: int | None = None
    #: What splits G0 into MaxVar's parts (:mod:`graphveil.anonymize.partitioners`).
    partitioner: str = partitioners.DEFAULT
    #: The walk length of the RandWalk-mod run inside the study's Mixture.
    mixture_t: int = 2
    #: Threads for the kernels (0: all cores); results do not depend on it.
    threads: int = 0
    #: Attack every release (:func:`graphveil.attack.attack_scores`): link AUC, precision@m and
    #: the propagation re-identification rate over at most ``ATTACK_SAMPLES`` sampled worlds.
    attacks: bool = True
    #: BFS sources of the distance statistics above the exact threshold (G0 and every sample).
    distance_sources: int = DISTANCE_SOURCES
    #: G0 is directed (set from G0 by :meth:`for_graph`): only the schemes with a directed form
    #: run (the others' points are not applicable), the statistics are the directed ones and eps
    #: is on the joint (in, out) degree (:data:`graphveil.measure.original.DIRECTED_EPS_DEGREE`).
    directed: bool = False
    #: How H2_open, eps and S_PL are scored and which (k,eps)-obf variant runs
    #: (:mod:`graphveil.measure.scoring`): part of the fingerprint, so that a folder scored one
    #: way is never resumed the other way.
    scoring: str = DEFAULT_SCORING
    #: Measure a point whose release is G0 itself as a baseline row; otherwise its point is
    #: recorded not applicable (:func:`graphveil.anonymize.registry.identity_reason`).
    allow_identity: bool = False
    #: Also measure the analyst statistics (:func:`~graphveil.measure.utility.analyst_names`)
    #: on G0 and every sample, with their own mean error ``analyst_err``: a column group of
    #: their own and the win counts in ``study.md``. Off by default for its cost (about 3-4 times
    #: the paper's ten's CPU a sample on web-NotreDame and the youtube-size graph); undirected G0 only.
    analyst: bool = False

    def __post_init__(self) -> None:
        checked = {
            "samples": check_samples(self.samples),
            "seed": seed_to_u64(self.seed),
            "k": _check_ks(self.k),
            "obf_k": _check_count(self.obf_k, "obf_k"),
            "obf_eps": check_real(self.obf_eps, "obf_eps", 0.0, 1.0),
            "maxvar_parts": None
            if self.maxvar_parts is None
            else _check_count(self.maxvar_parts, "maxvar_parts"),
            "partitioner": partitioners.get(self.partitioner).name,
            "mixture_t": _check_count(
                self.mixture_t, "mixture_t", MAX_WALK_LENGTH, "a walk length"
            ),
            "threads": check_threads(self.threads),
            "distance_sources": _check_count(self.distance_sources, "distance_sources"),
            "scoring": check_scoring(self.scoring),
        }
        for name in ("attacks", "directed", "allow_identity", "analyst"):
            checked[name] = _check_flag(getattr(self, name), name)
        for name, value in checked.items():  # frozen: set once, here
            object.__setattr__(self, name, value)

    def for_graph(self, graph: Graph) -> StudyConfig:
        """The config for a study of ``graph``: checked against it, :attr:`directed` its kind.

        Raises
        ------
        TypeError
            ``graph`` is not a :class:`~graphveil.Graph`.
        ValueError
            ``graph`` has no edges, or the config asks what a directed graph cannot take
            (:attr:`analyst`, the authors' scoring).
        ImportError
            The :attr:`partitioner` needs an extra that is not installed.
        """
        check_graph(graph, what=None)
        if graph.m == 0:
            raise ValueError("the graph has no edges: nothing to anonymize")
        directed = bool(graph.directed)
        if self.analyst and directed:
            raise ValueError(
                "the analyst statistics are measured on undirected graphs: drop analyst "
                "(--analyst) for a directed study"
            )
        check_scoring(self.scoring, directed=directed)
        partitioners.get(self.partitioner).require()  # an optional extra: fail before any work
        return replace(self, directed=directed)

    @property
    def obfuscation_variant(self) -> str:
        """The ``variant`` of :func:`~graphveil.anonymize.obfuscation` this study's scoring runs."""
        return scoring(self.scoring).obfuscation_variant

    def to_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (``directed``, ``allow_identity``, ``analyst`` only when True).

        ``scoring`` is there only when not the default, so that the default's fingerprint and
        ``study.json`` stay as they were.
        """
        kind = {"directed": True, "eps_degree": DIRECTED_EPS_DEGREE} if self.directed else {}
        if self.scoring != DEFAULT_SCORING:
            kind["scoring"] = self.scoring
        if self.allow_identity:
            kind["allow_identity"] = True
        if self.analyst:
            kind["analyst"] = True
        return {
            "samples": self.samples,
            "seed": self.seed,
            "k": list(self.k),
            "obf_k": self.obf_k,
            "obf_eps": self.obf_eps,
            "maxvar_parts": self.maxvar_parts,
            "partitioner": self.partitioner,
            "mixture_t": self.mixture_t,
            "attacks": self.attacks,
            "distance_sources": self.distance_sources,
            **kind,
        }


@dataclass(frozen=True)
class GridPoint:
    """One cell of the grid: a scheme at one value of its parameter."""

    scheme: str
    value: float

    @property
    def key(self) -> str:
        """The point's study key, ``scheme=value``."""
        return f"{self.scheme}={format_value(self.value)}"

    @property
    def label(self) -> str:
        """The point's label in tables, ``parameter=value``."""
        return f"{registry.scheme(self.scheme).grid_parameter}={format_value(self.value)}"


def paper_grid(
    schemes: Iterable[str] | None = None, grid: Mapping[str, Sequence[float]] | None = None
) -> list[GridPoint]:
    """The grid points of ``schemes`` (default: the paper's study), grids optionally overridden.

    The default is the ``"uncertainty"`` family; the edge-DP schemes run only when named.
    """
    known = registry.names()
    chosen = list(registry.names(family="uncertainty") if schemes is None else schemes)
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise ValueError(f"unknown scheme(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    values = {name: registry.scheme(name).default_grid for name in known}
    for scheme, vals in (grid or {}).items():
        if scheme not in known:
            raise ValueError(f"unknown scheme {scheme!r} in grid; choose from {', '.join(known)}")
        if scheme not in chosen:  # a grid nobody runs: a silent default would mislead
            raise ValueError(
                f"a grid is given for {scheme}, which is not among the schemes run "
                f"({', '.join(chosen)}): add {scheme} to the schemes or drop its grid"
            )
        vals = tuple(vals)
        if not vals:
            raise ValueError(f"grid for {scheme} is empty")
        values[scheme] = vals
    points = [GridPoint(s, float(v)) for s in chosen for v in values[s]]
    for point in points:
        _check_value(point)
    return points


def no_directed_form(point: GridPoint) -> str | None:
    """Why ``point`` does not run on a directed G0, else None.

    Its scheme has no directed form, or its study run uses one that has none (the study's
    Mixture is over RandWalk-mod): :func:`~graphveil.anonymize.registry.study_directed`.
    """
    record = registry.scheme(point.scheme)
    runs = registry.study_directed()
    if record.name in runs:
        return None
    only = ", ".join(registry.scheme(s).title for s in runs)
    if record.directed:
        without = [registry.scheme(s).title for s in record.study_uses if s not in runs]
        why = f"the study's {record.title} runs over {' and '.join(without)}, with no directed form"
    else:
        why = f"{record.title} has no directed form"
    return f"{why}: the study of a directed graph runs only {only} (see docs/directed.rst)"


def prepare_key(scheme: str) -> str:
    """The study key (and record name) of a scheme's once-per-study preparation.

    >>> prepare_key("maxvar")
    'maxvar.prepare'
    """
    return f"{scheme}.prepare"


def format_value(value: float) -> str:
    """A grid value as keys, labels and file names show it: ``2``, ``0.19``, ``1e+300``.

    At most a dozen characters whatever the value (a point's file is named by its key).

    >>> format_value(2.0), format_value(0.19), format_value(1e300)
    ('2', '0.19', '1e+300')
    """
    exact = float(value).is_integer() and abs(value) < 1e15
    return str(int(value)) if exact else f"{value:g}"


def _check_value(point: GridPoint) -> None:
    problem = registry.scheme(point.scheme).check_value(point.value)
    if problem is not None:
        raise ValueError(f"invalid grid value {point.value:g} for {point.scheme}: {problem}")


def _check_ks(value: Any) -> tuple[int, ...]:
    """The ``k`` of the eps columns: 1 to :data:`MAX_KS` distinct counts up to :data:`MAX_COUNT`."""
    ks = check_ints(value, "k", 1)
    if len(ks) > MAX_KS:
        raise ValueError(f"k takes at most {MAX_KS} values (columns of eps), got {len(ks)}")
    twice = sorted({k for k in ks if ks.count(k) > 1})
    if twice:
        raise ValueError(f"k has {', '.join(map(str, twice))} more than once: give each k once")
    for k in ks:
        _check_count(k, "k")
    return ks


def _check_count(
    value: Any, name: str, high: int = MAX_COUNT, what: str = "a count of nodes"
) -> int:
    """``value`` as an int in ``1..high``."""
    count = check_int(value, name, 1)
    if count > high:
        raise ValueError(f"{name} must lie in 1..{high:,} ({what}), got {count}")
    return count


def _check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool: True or False (numpy's too), nothing else."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)
