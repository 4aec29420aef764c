"""Publish at a privacy target: the release with the least utility loss that meets the target.

A data owner states bounds on registered privacy scores (:data:`graphveil.scores.PRIVACY_SCORE_TABLE`),
``reid<=0.05,edge_eps<=2``; :func:`publish` searches the allowed schemes' knobs
(:attr:`Scheme.knob <graphveil.anonymize.registry.Scheme.knob>`: which way is more private and
the range) for the value that just meets every bound, and publishes the release of the scheme
whose chosen value loses the least utility.

How a knob value is judged. The scheme is run ``repeats`` times with independent seeds and each
release evaluated (its sampled worlds, the attacks the target needs); a bound ``score <= b`` is
met when the one-sided Student-t upper confidence bound of the score's mean over the releases,
``mean + t(confidence, repeats - 1) * std / sqrt(repeats)``, is at most ``b`` (a lower bound
for a ``>=``): sampling noise is accounted for, not averaged away.

How a knob is searched. The most private end of its range first (not met there: the scheme
cannot reach the target on this graph), then the least private end (met there: taken), then
``steps`` bisections between them (geometric on a log knob, integers on an integer knob); the
scheme's value is the one of least utility loss among those measured that meet the target. Then
the scores measured along the way are checked for monotonicity in the declared direction; a
violation beyond the confidence intervals switches the scheme to its grid
(:attr:`Knob.grid <graphveil.anonymize.registry.Knob.grid>`), said in the audit.

What is shared across the search: G0 measured once (:class:`~graphveil.measure.Original`),
a scheme's once-per-graph preparation (MaxVar's partition, :attr:`Scheme.prepare
<graphveil.anonymize.registry.Scheme.prepare>`), and the attacks run only when a bound reads
them.

What is public. The release holds what any release holds (the scheme, its parameters, the
pairs). The target, every candidate's measured scores, utility, seeds and times, the margin and
why the winner won go to the private audit (``Publication.audit``, written into the run
record by :meth:`Publication.save`): the scores are measured on G0.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphveil._checks import NotApplicable, check_int, check_real, check_samples
from graphveil._seeds import derived_seed, permutation_seed, seed_to_u64
from graphveil.anonymize import registry
from graphveil.attack import registry as attack_registry
from graphveil.attack.propagation import DEFAULT_ECCENTRICITY, default_seeds, structural_twins
from graphveil.attack.scores import ATTACK_SAMPLES
from graphveil.attack.worlds import WORLDS
from graphveil.evaluation import evaluate
from graphveil.experiments.config import StudyConfig
from graphveil.graph import Graph
from graphveil.measure.original import Original
from graphveil.measure.scores import PrivacyScore
from graphveil.measure.utility import analyst_names, statistic_names
from graphveil.publishing.bnb import check_utility, ends, interval, outclassed, prune, rival
from graphveil.publishing.report import DESTROYED, report_lines, utility_lost
from graphveil.publishing.target import Bound, parse_target
from graphveil.record import RunRecord
from graphveil.scores import privacy_score
from graphveil.uncertain import UncertainGraph

__all__ = [
    "DESTROYED",
    "Bound",
    "Candidate",
    "Publication",
    "Unreachable",
    "parse_target",
    "publish",
    "searchable",
]

#: Draws of the final release at the chosen value before giving up (each checked on its own).
MAX_DRAWS = 3

#: Releases after which a value that clearly fails a bound is not drawn further: the score's
#: confidence bound on the *other* side (the mean's lower bound for a ``<=``) is already beyond
#: the limit. This only ever turns "meets" into "fails", so the stated confidence of "meets"
#: holds as it is (P(meets declared) <= P(the bound after every release is met)).
EARLY_STOP = 2


class Unreachable(ValueError):
    """No allowed scheme meets the target on this graph: nothing is published.

    Attributes
    ----------
    candidates : list of Candidate
        Every value tried (the private audit of the failed search).
    """

    def __init__(self, message: str, candidates: list[Candidate]) -> None:
        super().__init__(message)
        self.candidates = candidates


def searchable() -> tuple[str, ...]:
    """The schemes :func:`publish` searches by default: those whose record has a knob."""
    return tuple(s.name for s in registry.REGISTRY.values() if s.knob is not None)


@dataclass
class Candidate:
    """One knob value tried: its releases' measured scores, utility, time and seeds (private)."""

    scheme: str
    value: float
    seeds: list[int] = field(default_factory=list)
    scores: dict[str, list[float]] = field(default_factory=dict)
    utility: list[float] = field(default_factory=list)
    seconds: float = 0.0
    #: Per bound key: (mean, the confidence bound on the side the bound reads).
    interval: dict[str, tuple[float, float]] = field(default_factory=dict)
    meets: bool = False
    #: Why the value could not be measured ("": it was).
    reason: str = ""
    #: Which step of the search measured it (``"private end"``, ``"bisection"``, ``"grid"``).
    step: str = ""
    #: Stopped after :data:`EARLY_STOP` releases: it clearly failed a bound.
    stopped: bool = False
    #: Its utility alone was measured (no attack, no score): a least private value, to order
    #: and prune the schemes by.
    screened: bool = False

    @property
    def utility_mean(self) -> float:
        """The objective's mean over the releases."""
        return float(np.mean(self.utility)) if self.utility else math.nan

    @property
    def label(self) -> str:
        """``MaxVar n_p/m=0.5``."""
        record = registry.scheme(self.scheme)
        return f"{record.title} {record.grid_parameter}={self.value:.4g}"

    def as_dict(self) -> dict[str, Any]:
        """Its fields as plain JSON values."""
        return {
            "scheme": self.scheme,
            "value": self.value,
            "step": self.step,
            "meets": self.meets,
            "reason": self.reason,
            "utility": self.utility,
            "utility_mean": self.utility_mean,
            "scores": self.scores,
            "interval": {k: list(v) for k, v in self.interval.items()},
            "seconds": self.seconds,
            "seeds": self.seeds,
            "stopped": self.stopped,
            "screened": self.screened,
        }


@dataclass
class Search:
    """What every measurement of one search shares."""

    graph: Graph
    bounds: tuple[Bound, ...]
    objective: str
    original: Original
    config: StudyConfig
    repeats: int
    samples: int
    confidence: float
    seed: int
    threads: int | None
    deadline: float
    progress: Callable[[str], None]
    allow_identity: bool
    prepared: dict[str, Any] = field(default_factory=dict)
    candidates: list[Candidate] = field(default_factory=list)
    #: The least private values whose utility alone was measured (:attr:`Candidate.screened`).
    screens: list[Candidate] = field(default_factory=list)
    #: The last screen's releases and reports, by (scheme, value): a full measurement of that
    #: value next reuses them (the same seeds give the same releases) and only attacks them.
    kept: dict[tuple[str, float], list[tuple[UncertainGraph, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: G0's structural twins, once per search for every attack that re-identifies nodes.
    twins: np.ndarray | None = None
    #: Schemes the search pruned, with why (branch and bound: :mod:`graphveil.publishing.bnb`).
    pruned: dict[str, str] = field(default_factory=dict)
    #: Whether pruning is sound on this graph: no utility-monotone scheme broke its direction.
    prune_ok: bool = True

    @property
    def out_of_time(self) -> bool:
        return time.monotonic() > self.deadline


def _objective(name: str, directed: bool) -> tuple[str, bool]:
    """The objective's name and whether it needs the analyst statistics."""
    if name in ("rel_err", "analyst"):
        return name, name == "analyst"
    if name in statistic_names(directed):
        return name, False
    if name in analyst_names(directed):
        return name, True
    choices = ", ".join(
        ("rel_err", "analyst", *statistic_names(directed), *analyst_names(directed))
    )
    raise ValueError(f"unknown objective {name!r}; one of {choices}")


def _utility(report: Any, objective: str) -> float:
    if objective == "rel_err":
        return float(report.rel_err)
    if objective == "analyst":
        return float(report.analyst_err)
    terms = {**report.rel_err_terms, **report.analyst_err_terms}
    return float(terms[objective])


def _row(report: Any) -> dict[str, Any]:
    """A report as a row the privacy scores read (their keys, attack columns unprefixed)."""
    row: dict[str, Any] = dict(report.mean)
    row.update({f"eps_k{k}": v for k, v in report.eps.items()})
    row.update({k[len("attack_") :]: v for k, v in report.extra.items() if k.startswith("attack_")})
    return row


def _value(bound: Bound, row: dict[str, Any]) -> float:
    value = bound.score.value(row, bound.k)
    return math.nan if value is None else float(value)


def _run(search: Search, name: str, value: float, seed: int) -> UncertainGraph:
    """One release of scheme ``name`` at knob ``value`` (its study run), or NotApplicable."""
    record = registry.scheme(name)
    if not search.allow_identity:
        reason = record.no_op_reason({record.grid_parameter: value})
        if reason is not None:
            raise NotApplicable(reason)
    extra: dict[str, Any] = {}
    if record.prepare is not None:
        if name not in search.prepared:
            prep_seed = derived_seed(search.seed, f"prepare/{name}")
            search.prepared[name] = record.prepare(search.graph, search.config, prep_seed)
        extra["prepared"] = search.prepared[name]
    try:
        release = record.study(search.graph, value, search.config, seed, **extra).graph
    except (ValueError, TypeError) as err:
        raise NotApplicable(str(err)) from None
    if isinstance(release, Graph):
        release = UncertainGraph.from_graph(release)
    if not search.allow_identity and registry.identity_reason(search.graph, release):
        raise NotApplicable(registry.IDENTITY_OUTPUT)
    return release


def _measure(search: Search, name: str, value: float, step: str, screen: bool = False) -> Candidate:
    """Run and evaluate ``repeats`` releases at ``value``; judge every bound.

    ``screen``: the utility alone, no attack (:attr:`Candidate.screened`; kept apart from the
    values measured in ``search.screens``), unless no attack judges the scheme anyway.
    """
    screen = screen and bool(_attacks_needed(search.bounds, name))
    for c in search.screens if screen else search.candidates:
        if c.scheme == name and c.value == value:
            return c
    cand = Candidate(name, value, step=step, screened=screen)
    start = time.perf_counter()
    kept, search.kept = search.kept.get((name, value), []), {}  # a screen's releases, reused
    try:
        for i in range(search.repeats):
            seed = derived_seed(search.seed, f"{name}={value!r}/{i}")
            release, report = kept[i] if i < len(kept) else (_run(search, name, value, seed), None)
            evaluated = derived_seed(seed, "evaluate")
            report, row = _evaluate(search, name, release, evaluated, not screen, report)
            if screen:
                search.kept.setdefault((name, value), []).append((release, report))
            cand.seeds.append(seed)
            cand.utility.append(_utility(report, search.objective))
            for b in search.bounds:
                cand.scores.setdefault(b.key, []).append(_value(b, row))
            if i + 1 == EARLY_STOP < search.repeats and _clearly_fails(search, cand):
                cand.stopped = True
                break
    except NotApplicable as err:
        cand.reason = str(err)
    cand.seconds = time.perf_counter() - start
    if screen:
        search.screens.append(cand)
        search.progress(_line(search, cand))
        return cand
    if not cand.reason:
        for b in search.bounds:
            cand.interval[b.key] = interval(cand.scores[b.key], b.op, search.confidence)
        cand.meets = all(
            b.meets(cand.interval[b.key][1]) for b in search.bounds if _applies(b, name)
        )
    search.candidates.append(cand)
    search.progress(_line(search, cand))
    return cand


def _clearly_fails(search: Search, cand: Candidate) -> bool:
    """Whether a bound that judges ``cand`` is broken even at the other side's confidence bound."""
    for b in search.bounds:
        if not _applies(b, cand.scheme):
            continue
        other = ">=" if b.op == "<=" else "<="
        _, far = interval(cand.scores[b.key], other, search.confidence)
        if not math.isnan(far) and b.margin(far) < 0:
            return True
    return False


def _evaluate(
    search: Search,
    name: str,
    release: UncertainGraph,
    seed: int,
    attacks: bool = True,
    report: Any = None,
) -> tuple[Any, dict[str, Any]]:
    """A release's report (its worlds, no attack) and the row its bounds read.

    Only the attacks whose columns a bound judging ``name`` reads run (none for a node-level
    bound on a scheme without node identity), with G0's twins computed once per search.
    """
    if report is None:  # else: this release's, measured by a screen with the same seed
        report = evaluate(
            search.graph, release, search.samples, seed=seed, k=search.original.k,
            threads=search.threads, original=search.original, analyst=search.original.analyst,
        )  # fmt: skip
    row = _row(report)
    needed = _attacks_needed(search.bounds, name) if attacks else []
    if needed and search.twins is None and any(a.reidentifies for a in needed):
        search.twins = structural_twins(search.graph)
    request = attack_registry.ScoreRequest(
        min(search.samples, ATTACK_SAMPLES), derived_seed(seed, "attacks"),
        default_seeds(search.graph.n), DEFAULT_ECCENTRICITY, search.threads, search.twins,
        worlds=("sampled",) if _sampled_only(search.bounds) else WORLDS,
    )  # fmt: skip
    for attack in needed:
        row.update(attack.score(search.graph, release, request))
    return report, row


def _sampled_only(bounds: Sequence[Bound]) -> bool:
    """Whether the bounds read the sampled world's columns alone (no ``_most_likely``, ``_top_m``).

    Then the attacks match the sampled world only (its mapping is the same either way).
    """
    keys = [c for b in bounds for c in (b.score.strongest or (b.score.key(b.k),))]
    return not any(k.endswith(("_most_likely", "_top_m")) for k in keys)


def _attacks_needed(bounds: Sequence[Bound], name: str) -> list[attack_registry.Attack]:
    """The registered attacks whose columns the bounds judging scheme ``name`` read."""
    columns: set[str] = set()
    for b in bounds:
        if b.score.on == "attack" and _applies(b, name):
            columns.update(b.score.strongest or (b.score.key(b.k),))
    return [a for a in attack_registry.REGISTRY.values() if columns & set(a.names())]


def _line(search: Search, cand: Candidate) -> str:
    """A progress line: the value tried and its time, never a measured score (print policy)."""
    done = " (not applicable)" if cand.reason else ""
    return f"measured {cand.label} [{cand.step}]{done} in {cand.seconds:.1f} s"


def _between(knob: Any, a: float, b: float) -> float | None:
    """The bisection point of ``a`` and ``b`` on the knob's scale; None if none is left."""
    mid = math.sqrt(a * b) if knob.log else (a + b) / 2
    if knob.integer:
        mid = float(round(mid))
        return None if mid in (a, b) else mid
    return None if abs(a - b) <= 1e-3 * max(abs(a), abs(b)) else float(f"{mid:.4g}")


def _search_scheme(search: Search, name: str, steps: int) -> Candidate | None:
    """The value of ``name``'s knob of least utility loss that meets the target (None: none does).

    The least private end was measured first (:func:`_search_all`: for utility alone when an
    attack judges the scheme). Met there, it is the scheme's value when its utility is monotone.
    Otherwise the scheme may be pruned (:func:`~graphveil.publishing.bnb.prune`); then the most
    private end (not met: the scheme cannot reach the target; or "utility first",
    :func:`_private_end`), then bisections toward the least private end (attacked only when
    reached, or for a scheme whose utility is not monotone), each failing value checked for
    pruning.
    """
    record = registry.scheme(name)
    knob = record.knob
    if knob is None:
        return _grid(search, name, record.default_grid)
    last = _open_end(search, name)
    assert last is not None
    if last.meets and (knob.utility_monotone or search.out_of_time):
        return last
    if not last.meets and prune(search, name):
        return None
    first = _private_end(search, name, knob, last.value, steps)
    if first.step == "utility first" and not first.meets and prune(search, name):
        return None
    if last.screened and first.meets and not knob.utility_monotone and not search.out_of_time:
        last = _measure(search, name, last.value, "open end")  # met there, it may lose least
    if last.meets and first.meets and not knob.utility_monotone:
        _least_loss_inside(search, name, knob)
    if last.meets or not first.meets or search.out_of_time:
        met = _met(search, name)
        return min(met, key=lambda c: c.utility_mean) if met else None
    meets, fails = first, last
    for _ in range(steps):
        mid = _between(knob, meets.value, fails.value)
        if mid is None and fails.screened:  # next to the open end: measure it
            mid = fails.value
        if mid is None or search.out_of_time:
            break
        c = _measure(search, name, mid, "bisection")
        if c.reason:
            break
        meets, fails = (c, fails) if c.meets else (meets, c)
        if c.meets and c.value == last.value:  # the open end itself
            break
        if not c.meets and prune(search, name):
            break
    problem = _monotone_problem(search, name, knob.more_private)
    if problem is None:  # the boundary, or a more private value measured that lost less
        return min(_met(search, name), key=lambda c: c.utility_mean)
    search.notes.append(f"{record.title}: {problem}; searched by its grid instead")
    search.progress(f"{record.title}: not monotone; searching its grid")
    return _grid(search, name, knob.grid)


def _least_loss_inside(search: Search, name: str, knob: Any) -> None:
    """The least loss between two ends that meet, of a knob whose utility is not monotone.

    Every value between meets too (the scores are monotone), and the least loss may lie inside
    (on email-Enron RandWalk-mod loses less at t = 3 than at either end): the grid's inner values
    are measured for utility alone, and the one of least loss, if it beats both ends, in full.
    """
    inner = [float(v) for v in knob.grid if float(v) not in (knob.low, knob.high)]
    screens = [_measure(search, name, v, "grid", screen=True) for v in inner]
    screens = [c for c in screens if not c.reason]
    if screens and not search.out_of_time:
        best = min(screens, key=lambda c: c.utility_mean)
        if best.utility_mean < min(c.utility_mean for c in _met(search, name)):
            _measure(search, name, best.value, "grid")


def _private_end(search: Search, name: str, knob: Any, open_: float, steps: int) -> Candidate:
    """The most private value that runs (EdgeFlip's size: the grid inward), measured.

    With a rival incumbent (:func:`~graphveil.publishing.bnb.rival`) its utility is measured
    first: when it already loses clearly more (:func:`~graphveil.publishing.bnb.outclassed`),
    ``steps`` bisections on utility alone find a less private value that still does, and that
    one is measured ("utility first"): met, it brackets the search as the private end would;
    failed, the scheme is pruned (:func:`~graphveil.publishing.bnb.prune`). Whether the
    private end itself meets does not matter then: it cannot win.
    """
    first = None
    for value in [ends(knob)[0], *_toward_open(knob)]:
        if rival(search, name) is not None:
            screen = _measure(search, name, value, "private end", screen=True)
            if screen.screened and outclassed(search, screen):
                worse, better = value, open_
                for _ in range(steps):
                    mid = _between(knob, worse, better)
                    if mid is None or search.out_of_time:
                        break
                    c = _measure(search, name, mid, "utility bisection", screen=True)
                    if c.reason:
                        break
                    worse, better = (mid, better) if outclassed(search, c) else (worse, mid)
                return _measure(search, name, worse, "utility first")
        first = _measure(search, name, value, "private end")
        if not first.reason or search.out_of_time:
            break
    assert first is not None
    return first


def _open_end(search: Search, name: str) -> Candidate | None:
    """The least private value of ``name`` that runs (G0 itself there: the grid inward)."""
    knob = registry.scheme(name).knob
    if knob is None:
        return None
    cand = _measure(search, name, ends(knob)[1], "open end", screen=True)
    for value in sorted(knob.grid, reverse=knob.more_private == "lower")[1:]:
        if not cand.reason or search.out_of_time:
            break
        cand = _measure(search, name, value, "open end", screen=True)
    return cand


def _toward_open(knob: Any) -> list[float]:
    """The knob's grid from its private end toward its open end."""
    return sorted(knob.grid, reverse=knob.more_private == "higher")[1:]


def _grid(search: Search, name: str, grid: Iterable[float]) -> Candidate | None:
    for value in grid:
        if search.out_of_time:
            break
        _measure(search, name, float(value), "grid")
    met = _met(search, name)
    return min(met, key=lambda c: c.utility_mean) if met else None


def _met(search: Search, name: str) -> list[Candidate]:
    """The values of scheme ``name`` measured so far that meet the target."""
    return [c for c in search.candidates if c.scheme == name and c.meets]


def _monotone_problem(search: Search, name: str, more_private: str) -> str | None:
    """Where the measured scores of ``name`` break the knob's direction beyond their intervals."""
    tried = sorted(
        (c for c in search.candidates if c.scheme == name and not c.reason),
        key=lambda c: c.value if more_private == "higher" else -c.value,
    )  # least private first
    for b in (b for b in search.bounds if _applies(b, name)):
        sign = 1.0 if b.op == "<=" else -1.0  # privacy gets better as sign * score falls
        for i, a in enumerate(tried):
            for c in tried[i + 1 :]:
                ma, ua = a.interval[b.key]
                mc, uc = c.interval[b.key]
                if any(math.isnan(x) or math.isinf(x) for x in (ma, ua, mc, uc)):
                    continue
                slack = abs(ua - ma) + abs(uc - mc)
                if sign * (mc - ma) > slack:
                    return (
                        f"{b.key} is not monotone over its knob: {mc:.4g} at {c.value:g} against "
                        f"{ma:.4g} at the less private {a.value:g}"
                    )
    return None


@dataclass
class Publication:
    """The release :func:`publish` chose, and its private audit.

    Attributes
    ----------
    release : UncertainGraph
        The release: its ``meta`` holds the scheme, its public parameters and, privately, the
        scheme's report and the audit (``meta["publish"]``), which :meth:`save` writes only to
        the run record.
    scheme : str
        The winning scheme; ``value`` its knob value.
    bounds : tuple of Bound
        The target.
    candidates : list of Candidate
        Every value tried, in order.
    audit : dict
        The private audit: the target, the objective, every candidate, the winner and why, the
        margin, the release's own measured scores, the analyst statistics' loss, the time.
    """

    release: UncertainGraph
    scheme: str
    value: float
    bounds: tuple[Bound, ...]
    candidates: list[Candidate]
    audit: dict[str, Any]
    seed: int

    def save(
        self, path: Any, *, record: Any = None, keep_ids: bool = False, format: str | None = None
    ) -> RunRecord:
        """Write the release (and, with ``record``, the private run record with the audit).

        The ids are permuted from the search's seed (its own stream): the same graph, target
        and seed give the same bytes.
        """
        seed = None if keep_ids else permutation_seed(self.seed)
        return self.release.save(path, keep_ids=keep_ids, seed=seed, format=format, record=record)

    def report(self) -> str:
        """The private report, as text: what was chosen and why, the margin, every candidate."""
        return "\n".join(report_lines(self.audit))


def publish(
    graph: Graph,
    target: str | Sequence[str],
    *,
    objective: str = "rel_err",
    schemes: Iterable[str] | None = None,
    confidence: float = 0.95,
    repeats: int = 3,
    samples: int = 3,
    steps: int = 4,
    seed: Any = None,
    threads: int | None = None,
    max_minutes: float | None = None,
    progress: Callable[[str], None] | None = None,
    allow_identity: bool = False,
) -> Publication:
    """The release that meets a privacy target with the least utility loss.

    Parameters
    ----------
    graph : Graph
        The true graph G0 (undirected).
    target : str or sequence of str
        Bounds on registered privacy scores (:func:`parse_target`): ``"reid<=0.05"``,
        ``"edge_eps<=2"``, ``"eps_k50<=0.01"``, ``"h2_open<=50"``, joined by commas.
    objective : str, default "rel_err"
        The utility loss minimised: the paper's rel.err, ``"analyst"`` (the analyst statistics'
        mean error; needs igraph) or one statistic's error term.
    schemes : iterable of str, optional
        The schemes allowed (default: :func:`searchable`, every scheme with a knob).
    confidence : float, default 0.95
        Of the one-sided bound on each score's mean over the releases, in [0.5, 0.999].
    repeats : int, default 3
        Releases measured per knob value (independent seeds), 2..50.
    samples : int, default 3
        Worlds sampled per release for the scores read on worlds (H1, H2_open) and utility.
    steps : int, default 4
        Bisection steps per scheme, 0..20.
    seed : int, optional
        One seed for the whole search and the release (fresh entropy when None): the same
        graph, target and seed give the same choice and the same release.
    threads : int, optional
        Worker threads of the kernels (results do not depend on them).
    max_minutes : float, optional
        Budget: no new value is measured after it; the choice is made from what was.
    progress : callable, optional
        ``progress(line)`` after each value measured (private: it reads measured scores).
    allow_identity : bool
        Also consider values that publish G0 unchanged (:meth:`Scheme.no_op_reason
        <graphveil.anonymize.registry.Scheme.no_op_reason>`, :func:`~graphveil.anonymize.registry.identity_reason`).

    Returns
    -------
    Publication

    Raises
    ------
    ValueError
        A bad target, objective or scheme, in one line.
    Unreachable
        No allowed scheme meets the target on this graph (a ValueError naming the closest).

    Examples
    --------
    >>> import graphveil as gv
    >>> g = gv.datasets.load("karate_club")
    >>> pub = gv.publish(g, "h2_open<=8", schemes=["maxvar"], samples=2, steps=1, seed=1)
    >>> pub.scheme, pub.audit["margins"]["H2_open"] >= 0
    ('maxvar', True)
    """
    bounds = parse_target(target)
    start = time.monotonic()
    steps = check_int(steps, "steps", 0)
    if steps > 20:
        raise ValueError(f"steps must be at most 20, got {steps}")
    budget = (
        None
        if max_minutes is None
        else check_real(max_minutes, "max_minutes", 0, 10080, open_low=True)
    )
    allowed = _allowed(schemes)
    search = _start(graph, bounds, objective, confidence, repeats, samples, seed, threads)
    search.progress = progress or (lambda line: None)
    search.allow_identity = bool(allow_identity)
    if budget is not None:
        search.deadline = start + 60 * budget
    chosen = _search_all(search, allowed, steps)
    if not chosen:
        raise Unreachable(_unreachable(search), search.candidates)
    return _finish(search, chosen, time.monotonic() - start)


def _search_all(search: Search, allowed: Sequence[str], steps: int) -> dict[str, Candidate]:
    """Every allowed scheme searched or pruned: its value of least loss that meets the target.

    First the least private end of every knob (its cheapest value, and for a utility-monotone
    scheme the least loss it can reach), then the schemes in the order of that loss, so that a
    good incumbent comes early and prunes the rest (:func:`~graphveil.publishing.bnb.prune`).
    """
    loss: dict[str, float] = {}  # the open end's loss; inf: none measured
    for name in allowed:
        end = None if search.out_of_time else _open_end(search, name)
        loss[name] = math.inf if end is None or end.reason else end.utility_mean
    order = sorted(allowed, key=lambda s: loss[s])  # stable: registry order on ties
    chosen: dict[str, Candidate] = {}
    for again in (False, True):
        for name in order:
            if again and name not in search.pruned:
                continue
            if search.out_of_time:
                search.notes.append(f"the budget ran out before {name} was searched")
                continue
            search.pruned.pop(name, None)
            found = _search_scheme(search, name, steps)
            check_utility(search, name)
            if found is not None:
                chosen[name] = found
        if search.prune_ok or not search.pruned:
            break
        search.notes.append(
            "the schemes pruned before are searched again: " + ", ".join(search.pruned)
        )
    for name in allowed:  # the budget ran out or a scheme was pruned: what it met still counts
        met = _met(search, name)
        if met and name not in chosen:
            chosen[name] = min(met, key=lambda c: c.utility_mean)
    return chosen


def _start(
    graph: Graph,
    bounds: tuple[Bound, ...],
    objective: str,
    confidence: float,
    repeats: int,
    samples: int,
    seed: Any,
    threads: int | None,
) -> Search:
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a graphveil.Graph, got {type(graph).__name__}")
    if graph.directed:
        raise ValueError("publish searches undirected graphs: give graph.to_undirected()")
    objective, analyst = _objective(objective, graph.directed)
    confidence = check_real(confidence, "confidence", 0.5, 0.999)
    repeats = check_int(repeats, "repeats", 2)
    if repeats > 50:
        raise ValueError(f"repeats must be at most 50, got {repeats}")
    samples = check_samples(samples)
    for b in bounds:
        low, high = b.score.bounds(graph.n)
        if not low <= b.limit <= high:
            raise ValueError(f"{b}: {b.score.name} lies in [{low:g}, {high:g}] on this graph")
    root = seed_to_u64(seed)
    ks = sorted({b.k for b in bounds if b.k is not None} | {50})
    original = Original(
        graph,
        ks,
        statistics_seed=derived_seed(root, "statistics"),
        threads=threads,
        analyst=analyst,
    )
    return Search(
        graph, bounds, objective, original, StudyConfig(threads=threads or 0), repeats, samples,
        confidence, root, threads, math.inf, lambda line: None, False,
    )  # fmt: skip


def _allowed(schemes: Iterable[str] | None) -> tuple[str, ...]:
    if schemes is None:
        return searchable()
    names = tuple(registry.scheme(s).name for s in schemes)  # ValueError listing them
    if not names:
        raise ValueError(f"no scheme allowed; choose from {', '.join(registry.names())}")
    return names


def _closest(search: Search, count: int = 3) -> list[Candidate]:
    """The measured values nearest the target: least total shortfall, relative to each limit."""

    def shortfall(c: Candidate) -> float:
        total = 0.0
        for b in (b for b in search.bounds if _applies(b, c.scheme)):
            m = b.margin(c.interval[b.key][1])
            total += (
                0.0 if m >= 0 else (math.inf if math.isnan(m) else -m / max(abs(b.limit), 1e-9))
            )
        return total

    measured = [c for c in search.candidates if not c.reason]
    best: dict[str, Candidate] = {}
    for c in sorted(measured, key=shortfall):
        best.setdefault(c.scheme, c)
    return list(best.values())[:count]


def _unreachable(search: Search) -> str:
    """The refusal: the target and the closest values by name (their scores are private)."""
    target = ", ".join(str(b) for b in search.bounds)
    closest = ", ".join(c.label for c in _closest(search)) or "none measured"
    budget = " (the budget ran out: raise max_minutes)" if search.out_of_time else ""
    return (
        f"no allowed scheme reaches {target} on this graph{budget}; the closest are {closest} "
        "(their measured scores are private: in the report); loosen the target or allow other "
        "schemes"
    )


def _finish(search: Search, chosen: dict[str, Candidate], seconds: float) -> Publication:
    ranked = sorted(chosen.values(), key=lambda c: c.utility_mean)
    for win in ranked:
        release, draws = _draw(search, win)
        if release is not None:
            break
    else:
        raise Unreachable(
            f"the chosen values met the target in expectation but none of {MAX_DRAWS} draws of "
            "a release did on its own: raise repeats or tighten confidence",
            search.candidates,
        )
    margins = {  # NaN: a node-level bound the winner meets trivially (no node identity)
        b.key: b.margin(win.interval[b.key][1]) if _applies(b, win.scheme) else math.nan
        for b in search.bounds
    }
    trivial = _trivially_met(search.bounds, win.scheme)
    if trivial:
        search.notes.append(trivial)
    why = [f"{c.label}: {search.objective} {c.utility_mean:.4g}" for c in ranked]
    audit = {
        "target": [str(b) for b in search.bounds],
        "objective": search.objective,
        "confidence": search.confidence,
        "repeats": search.repeats,
        "samples": search.samples,
        "seed": search.seed,
        "winner": win.as_dict(),
        "why": (
            f"least {search.objective} among the values that meet the target, one per scheme: "
            + "; ".join(why)
        ),
        "margins": margins,
        "draws": draws,
        "pruned": search.pruned,
        "notes": search.notes,
        "candidates": [c.as_dict() for c in search.candidates],
        "screened": [c.as_dict() for c in search.screens],
        "seconds": seconds,
    }
    audit.update(
        utility_lost(
            search.graph, search.original, release, search.samples, search.seed, search.threads
        )
    )
    release.meta = {**release.meta, "publish": audit}
    return Publication(
        release, win.scheme, win.value, search.bounds, search.candidates, audit, search.seed
    )


def _node_level(score: PrivacyScore) -> bool:
    """Whether a score reads which release node is which person (H1, H2_open, eps, re-identification)."""
    if score.on in ("sample", "release"):
        return True
    if score.strongest:
        return all(_node_level(privacy_score(c)) for c in score.strongest)
    return bool(score.attack) and attack_registry.attack(score.attack).reidentifies


def _applies(bound: Bound, scheme: str) -> bool:
    """Whether ``bound`` judges ``scheme``'s releases.

    A node-level score judges no scheme without node identity: its measured value is chance (a
    random node holds no one's place).
    """
    return registry.scheme(scheme).node_identity or not _node_level(bound.score)


def _trivially_met(bounds: Sequence[Bound], scheme: str) -> str:
    """The audit's note when the winner carries no node identity and a bound is node-level."""
    record = registry.scheme(scheme)
    keys = [b.key for b in bounds if _node_level(b.score)]
    if record.node_identity or not keys:
        return ""
    return (
        f"{record.title} carries no node identity (its release deals G0's degrees to random "
        f"nodes, so no node of it stands for a person): {', '.join(keys)} "
        f"{'is' if len(keys) == 1 else 'are'} met trivially, not by hiding people from an "
        "attack; what it keeps of G0 is its degree-level statistics"
    )


def _draw(search: Search, win: Candidate) -> tuple[UncertainGraph | None, list[dict[str, Any]]]:
    """The release at the chosen value: checked on its own, redrawn at most MAX_DRAWS times."""
    draws = []
    for i in range(MAX_DRAWS):
        seed = derived_seed(search.seed, f"release/{i}")
        release = _run(search, win.scheme, win.value, seed)
        report, row = _evaluate(search, win.scheme, release, derived_seed(seed, "evaluate"))
        values = {b.key: _value(b, row) for b in search.bounds}
        ok = all(b.meets(values[b.key]) for b in search.bounds if _applies(b, win.scheme))
        draws.append(
            {
                "seed": seed,
                "scores": values,
                "meets": ok,
                "utility": _utility(report, search.objective),
            }
        )
        search.progress(f"drew the release at {win.label} (draw {i + 1})")
        if ok:
            return release, draws
    return None, draws
