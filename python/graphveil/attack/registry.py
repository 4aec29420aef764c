"""The attack registry: one record per attack, read by every layer.

Each :class:`Attack` holds what the rest of the package needs to know about an attack: its one
name (the ``graphveil attack <name>`` command), the function, the few numbers it contributes to
a study row (:class:`Column`: name, title, meaning, range, whether a deterministic release has
it, whether the comparison table shows it), how to compute them (:attr:`Attack.score`, run by
:func:`~graphveil.attack.attack_scores`) and its command line (:class:`Option` and the help
texts; ``graphveil.cli.attack`` builds one subcommand per record).

:func:`~graphveil.attack.attack_scores` (and so the study's rows), the study's attack columns
(:data:`graphveil.experiments.ATTACK_COLUMNS`), its attack figure and checks (the
re-identification column, :func:`reidentification_column`) and the CLI are all read from
:data:`REGISTRY`. Adding an attack means writing its module ``attack/<name>.py`` (and tests) and
adding its record here.

Examples
--------
>>> from graphveil.attack.registry import attack, names, reidentification_column
>>> "propagation" in names(), "propagation" in names(directed=True)
(True, True)
>>> reidentification_column().name
'reid_rate'
>>> [c.name for c in attack("link").columns if c.table]
['link_auc', 'precision_at_m']
"""

from __future__ import annotations

import argparse
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphveil._seeds import SeedLike, derived_seed, seed_to_u64
from graphveil.attack.deanonymization import (
    DEFAULT_SEED_FRACTIONS,
    SEED_NODES,
    Deanonymization,
    deanonymization_table,
    percolation_attack,
    reconciliation_attack,
    seedless_attack,
)
from graphveil.attack.edges import DEFAULT_CONFIDENCE, DEFAULT_KNOWN, edge_recovery
from graphveil.attack.link import link_inference
from graphveil.attack.matching import (
    DEFAULT_ATTEMPTS,
    DEFAULT_CLIQUE,
    DEFAULT_ITERATIONS,
    DEFAULT_MAX_NOISY,
    DEFAULT_MAX_ROW,
    DEFAULT_MAX_SPREAD,
    DEFAULT_R,
    DEFAULT_THRESHOLD,
    DEFAULT_TOLERANCE,
)
from graphveil.attack.propagation import (
    DEFAULT_DEGREE_RATIO,
    DEFAULT_ECCENTRICITY,
    DEFAULT_SEEDS,
    DEFAULT_THETA,
    ECCENTRICITIES,
    propagation_attack,
    propagation_table,
    structural_twins,
)
from graphveil.attack.worlds import WORLDS
from graphveil.graph import Graph
from graphveil.uncertain import UncertainGraph

__all__ = [
    "REGISTRY",
    "RESERVED_FLAGS",
    "Attack",
    "Column",
    "Option",
    "ScoreRequest",
    "attack",
    "columns",
    "in_range",
    "names",
    "reidentification_column",
    "table_columns",
]


#: The options every ``graphveil attack <name>`` command has beside its record's
#: (:attr:`Attack.options`): the inputs, the record, JSON and verbosity. No option of a record
#: may take one; ``--seed`` and ``--threads`` are the CLI's own seed and thread options when a
#: record asks for them. tests/test_registry.py checks that the CLI adds no other.
RESERVED_FLAGS: frozenset[str] = frozenset(
    ("-h", "--help", "--dataset", "--data-dir", "--header", "--directed", "--record", "--json",
     "-q", "--quiet", "-v", "--verbose")
)  # fmt: skip
#: The options the CLI gives its own type and help when a record names them.
SHARED_FLAGS: frozenset[str] = frozenset(("--seed", "--threads"))


@dataclass(frozen=True)
class Column:
    """One number an attack contributes to a study row (and to ``attack_scores``)."""

    #: Key in :func:`~graphveil.attack.attack_scores`' dict and the study's rows.
    name: str
    #: Short title (axis labels, tables).
    title: str
    #: What it means, one sentence.
    meaning: str
    #: Its range: every value is in ``[low, high]`` (or None where undefined).
    low: float = 0.0
    high: float = 1.0
    #: Defined on a deterministic release (every p in {0, 1}); None there when False.
    deterministic: bool = True
    #: Shown in the study's comparison table (:data:`graphveil.experiments.ATTACK_COLUMNS`).
    table: bool = False
    #: Which way is more private: ``"lower"`` (an attack's success), ``"higher"``, or ``""`` for
    #: a number that is no level of privacy (a spread, a property of G0); see
    #: :class:`~graphveil.measure.scores.PrivacyScore`, the record each column becomes.
    more_private: str = "lower"


@dataclass(frozen=True)
class ScoreRequest:
    """What :func:`~graphveil.attack.attack_scores` asks of every attack's :attr:`Attack.score`."""

    #: Sampled worlds to attack (rates are means over them).
    samples: int
    #: Randomness of the attack: each attack draws its own stream from it.
    seed: SeedLike
    #: Seed pairs known to an attacker that needs them.
    seeds: int
    #: The propagation's eccentricity rule.
    eccentricity: str
    #: Threads of the kernels; numbers do not depend on them.
    threads: int | None
    #: An undirected G0's structural twins (:func:`~graphveil.attack.structural_twins`),
    #: computed once for every attack that scores re-identification; None (and always for a
    #: directed G0, whose attacks read directed or undirected twins): each computes them.
    g0_twins: np.ndarray | None = None
    #: The worlds attacked (:data:`~graphveil.attack.worlds.WORLDS`); another's columns are
    #: None. :func:`graphveil.publish` attacks the sampled world alone, all its bounds read.
    worlds: tuple[str, ...] = WORLDS


@dataclass(frozen=True)
class Option:
    """One option of the attack's command (``graphveil attack <name> --flag``).

    The CLI adds ``flag`` with ``type``, ``default``, ``choices`` and ``help`` and passes its
    value, through ``convert`` if given, as the function's keyword ``keyword``. ``type`` is a
    callable or ``"seed"`` (the CLI's checked seed type).
    """

    flag: str
    keyword: str
    help: str
    type: Callable[[str], Any] | str = int
    default: Any = None
    choices: tuple[str, ...] | None = None
    convert: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Attack:
    """One attack: its function, its study columns and its command."""

    #: One name: ``graphveil attack <name>`` and the key of :data:`REGISTRY`.
    name: str
    #: Title of tables and figures.
    title: str
    #: The attack itself, ``function(g0, published, **options) -> result with as_dict()``.
    function: Callable[..., Any]
    #: Its numbers of a study row, ``score(g0, published, request) -> {column: value}`` with
    #: exactly :attr:`columns`' names, in that order.
    score: Callable[[Graph, UncertainGraph | Graph, ScoreRequest], dict[str, Any]]
    #: The numbers :attr:`score` returns.
    columns: tuple[Column, ...]
    #: Its headline column (the attack figure's metric when :attr:`reidentifies`).
    headline: str
    #: Applies to a deterministic release (a Graph, or every p in {0, 1}).
    deterministic: bool = True
    #: Its headline is the fraction of nodes re-identified: the study's attack figure and checks.
    reidentifies: bool = False
    #: The command's one-line help and its description.
    help: str = ""
    description: str = ""
    #: The command's own options (beyond the inputs, --json and verbosity).
    options: tuple[Option, ...] = ()
    #: The printed result, ``text(result) -> str``; None prints ``result.as_dict()`` as a table.
    text: Callable[[Any], str] | None = field(default=None)
    #: Its directed form, one sentence (how it attacks a directed release of a directed G0);
    #: None: it has none, and :func:`~graphveil.attack.attack_scores` leaves its columns None
    #: on a directed release.
    directed: str | None = None

    def __post_init__(self) -> None:
        # A record that would break the CLI or the study is refused here, naming the attack.
        problems = []
        if not (self.name.isidentifier() and self.title and self.help and self.description):
            problems.append("it needs a name (an identifier), a title, a help and a description")
        names = self.names()
        if not names or len(set(names)) < len(names):
            problems.append(f"its columns {names} are none or share a name")
        if self.headline not in names:
            problems.append(f"its headline {self.headline!r} is none of its columns")
        for c in self.columns:
            if not (c.low <= c.high and c.more_private in ("lower", "higher", "")):
                problems.append(f"column {c.name!r} has an empty range or no direction")
        problems += _option_problems(self)
        if problems:
            raise ValueError(f"attack {self.name!r}: {'; '.join(problems)}")

    def column(self, name: str) -> Column:
        """Its column ``name``."""
        for c in self.columns:
            if c.name == name:
                return c
        raise ValueError(f"attack {self.name!r} has no column {name!r}: one of {self.names()}")

    def names(self) -> tuple[str, ...]:
        """Its columns' names."""
        return tuple(c.name for c in self.columns)


def _option_problems(record: Attack) -> list[str]:
    """What is wrong with the options of ``record``'s command (see :data:`RESERVED_FLAGS`)."""
    keywords = inspect.signature(record.function).parameters
    problems = []
    flags = [o.flag for o in record.options]
    for option in record.options:
        if not option.flag.startswith("--") or option.flag in RESERVED_FLAGS:
            problems.append(
                f"option {option.flag} is no long option of its own (every attack command has "
                f"{', '.join(sorted(RESERVED_FLAGS))})"
            )
        if option.keyword not in keywords:
            problems.append(f"option {option.flag} passes {option.keyword!r}, no keyword of it")
    if len(set(flags)) < len(flags) or len({o.keyword for o in record.options}) < len(flags):
        problems.append("two options share a flag or a keyword")
    return problems


def _link_score(
    g0: Graph, published: UncertainGraph | Graph, request: ScoreRequest
) -> dict[str, Any]:
    link = link_inference(g0, published)
    return {
        "link_auc": link.auc,
        "precision_at_m": link.precision_at_m,
        "link_precision": link.precision,
        "link_recall": link.recall,
    }


def _propagation_score(
    g0: Graph, published: UncertainGraph | Graph, request: ScoreRequest
) -> dict[str, Any]:
    rng = np.random.default_rng(seed_to_u64(request.seed))
    twins = request.g0_twins  # G0's, once for every attacked world (undirected G0 only)
    if twins is None:
        twins = structural_twins(g0)  # a digraph's directed twins, which directed propagation reads
    runs = [
        propagation_attack(
            g0,
            published,
            seeds=request.seeds,
            eccentricity=request.eccentricity,
            seed=int(s),
            threads=request.threads,
            g0_twins=twins,
            worlds=request.worlds,
        )
        for s in rng.integers(0, 2**63, size=request.samples)
    ]
    correct = np.array([r.sampled.correct for r in runs])
    coverage = float(np.mean([r.sampled.coverage for r in runs]))
    return {
        "reid_rate": float(correct.mean()),
        "reid_rate_std": float(correct.std()),
        "reid_wrong": float(np.mean([r.sampled.wrong for r in runs])),
        "reid_accuracy": float(correct.mean()) / coverage if coverage > 0 else None,
        "reid_coverage": coverage,
        "reid_twin_share": float(np.mean([r.sampled.twins for r in runs])),
        "reid_rate_most_likely": _mean_of(
            [r.most_likely.correct for r in runs], "most_likely", request
        ),
        "reid_rate_top_m": _mean_of([r.top_m.correct for r in runs], "top_m", request),
    }


def _mean_of(values: list[float], world: str, request: ScoreRequest) -> float | None:
    """The mean of a world's rates; None for a world not attacked."""
    return float(np.mean(values)) if world in request.worlds else None


def _edges_score(
    g0: Graph, published: UncertainGraph | Graph, request: ScoreRequest
) -> dict[str, Any]:
    r = edge_recovery(g0, published, seed=derived_seed(seed_to_u64(request.seed), "edges"))
    return {
        "edge_auc": r.auc,
        "edge_auc_p": r.auc_p,
        "edge_auc_plausibility": r.auc_plausibility,
        "edge_loss": r.loss,
        "edge_eps_lower": r.eps_lower,
        "edge_inference_lower": r.inference_lower,
    }


_LINK = Attack(
    name="link",
    title="Link inference",
    function=link_inference,
    score=_link_score,
    columns=(
        Column(
            "link_auc",
            "link AUC",
            "AUC of p ranking the true edges above the other published pairs",
            deterministic=False,
            table=True,
        ),
        Column(
            "precision_at_m",
            "precision@m",
            "true edges among the m published pairs of highest p, ties shared (a graph's every "
            "pair ties: the share of its pairs that are true edges)",
            table=True,
        ),
        Column(
            "link_precision",
            "likely-world precision",
            "true edges among the pairs of p >= 0.5 (NaN when there is none)",
        ),
        Column("link_recall", "likely-world recall", "edges of G0 with p >= 0.5"),
    ),
    headline="link_auc",
    help="rank the published pairs by p against the true edges",
    description=(
        "AUC of p for the true edges against the other published pairs, precision and recall of "
        "the top-m pairs and of the most-likely world (p >= 0.5)."
    ),
    directed=(
        "on ordered pairs: the AUC of p for G0's arcs u -> v against the release's other "
        "ordered pairs, m = G0's arcs"
    ),
)

_PROPAGATION = Attack(
    name="propagation",
    title="Propagation (Narayanan-Shmatikov)",
    function=propagation_attack,
    score=_propagation_score,
    columns=(
        Column(
            "reid_rate",
            "nodes re-identified by propagation (fraction of the core)",
            "mean fraction of G0's core nodes (degree >= 5, largest component) re-identified "
            "in a sampled world",
            table=True,
        ),
        Column(
            "reid_rate_std",
            "spread of reid_rate",
            "standard deviation of reid_rate over the attacks",
            high=0.5,
            more_private="",
        ),
        Column(
            "reid_wrong",
            "wrongly matched",
            "mean wrongly matched fraction of the core",
            more_private="",
        ),
        Column(
            "reid_accuracy",
            "accuracy",
            "correct among the mapped: reid_rate / reid_coverage (None when nothing is mapped)",
            table=True,
        ),
        Column(
            "reid_coverage",
            "coverage",
            "mean mapped fraction of the core, right or wrong",
            table=True,
        ),
        Column(
            "reid_twin_share",
            "twin share",
            "share of the core with a structural twin in G0: matched only by guessing",
            table=True,
            more_private="",
        ),
        Column(
            "reid_rate_most_likely",
            "re-identified in the most-likely world",
            "fraction of the core re-identified in the most-likely world",
        ),
        Column(
            "reid_rate_top_m",
            "re-identified in the top-m world",
            "fraction of the core re-identified in the top-m world (the m pairs of highest p)",
        ),
    ),
    headline="reid_rate",
    reidentifies=True,
    help="Narayanan-Shmatikov seed-and-extend de-anonymization",
    description=(
        "Hide the release's ids, give the attacker the true graph and --seeds high-degree true "
        "pairs, and propagate against one sampled world, the most-likely world (p >= 0.5) and the "
        "top-m world (the m pairs of highest p, m = the true graph's edges). Rates are over "
        "the nodes of degree >= --min-degree in the largest component (core) and over all nodes: "
        "correct, wrong, unmapped, accuracy (correct among mapped), coverage (mapped share) and "
        "twins (share with a structural twin in the true graph, N(u)=N(v) or N[u]=N[v]: matched "
        "only by guessing)."
    ),
    options=(
        Option(
            "--seeds",
            "seeds",
            f"known seed pairs (default {DEFAULT_SEEDS}, at most a tenth of the nodes)",
        ),
        Option(
            "--theta",
            "theta",
            "eccentricity threshold",
            type=float,
            convert=lambda x: DEFAULT_THETA if x is None else x,
        ),
        Option(
            "--degree-ratio",
            "degree_ratio",
            "candidate degree window factor (default 2; 0 turns it off, as the paper)",
            type=float,
            convert=lambda x: DEFAULT_DEGREE_RATIO if x is None else (None if x == 0 else x),
        ),
        Option(
            "--eccentricity",
            "eccentricity",
            "std of the eccentricity over every node as Narayanan-Shmatikov (ns, the default) "
            "or over the scored candidates only (scored: stricter at one theta)",
            type=str,
            default=DEFAULT_ECCENTRICITY,
            choices=ECCENTRICITIES,
        ),
        Option("--min-degree", "min_degree", "core degree bound (default 5)", default=5),
        Option("--seed", "seed", "randomness (default: fresh)", type="seed"),
        Option("--threads", "threads", "worker threads (default: all)"),
    ),
    text=propagation_table,
    directed=(
        "directed propagation, as Narayanan-Shmatikov define it: a candidate's score counts "
        "matched in-neighbours (each 1/sqrt of its in-degree) and matched out-neighbours (each "
        "1/sqrt of its out-degree) apart, the degree window on both degrees; twins are G0's "
        "directed twins; core and seeds from G0's undirected graph"
    ),
)


_EDGES = Attack(
    name="edges",
    title="Edge recovery (p and plausibility)",
    function=edge_recovery,
    score=_edges_score,
    columns=(
        Column(
            "edge_auc",
            "edge AUC (p + plausibility)",
            "AUC of the attacker's classifier on (p, plausibility), plausibility alone on a "
            "graph-valued release, for the true edges among the published pairs (held out)",
            table=True,
        ),
        Column(
            "edge_auc_p",
            "edge AUC (p alone)",
            "AUC of p alone on the same held-out pairs",
            deterministic=False,
        ),
        Column(
            "edge_auc_plausibility",
            "edge AUC (plausibility alone)",
            "AUC of plausibility alone on the same held-out pairs",
        ),
        Column(
            "edge_loss",
            "edge loss ln(TPR/FPR)",
            "ln of the share of G0's edges published over the share of its non-edges "
            "published, expected over the release's worlds",
            low=-math.inf,
            high=math.inf,
            table=True,
        ),
        Column(
            "edge_eps_lower",
            "edge epsilon, lower bound",
            "lower bound (95%) of ln(TPR/FPR) of the best test 'p >= t' among pairs of one "
            "degree context: at most epsilon for an epsilon-edge-DP release",
            low=-math.inf,
            high=math.inf,
            table=True,
        ),
        Column(
            "edge_inference_lower",
            "edge inference, lower bound",
            "lower bound (95%) of ln(TPR/FPR) of the classifier's best threshold: inference "
            "from a pair's context, which edge DP does not bound",
            low=-math.inf,
            high=math.inf,
            table=True,
        ),
    ),
    headline="edge_auc",
    help="recover edges from p and plausibility (Zhang et al.); measured edge-level loss",
    description=(
        "Score every published pair by its plausibility (resource allocation on the p-weighted "
        "release), train a logistic regression on (p, plausibility) with the labels of a known "
        "share of the published pairs (--known) and report its AUC beside p alone and "
        "plausibility alone, on held-out pairs. Also the measured edge-level loss: ln(TPR/FPR) "
        "of 'the pair is published' (expected over worlds), a lower bound (at --confidence) of "
        "the epsilon the release exhibits, and of the classifier's inference."
    ),
    options=(
        Option(
            "--known",
            "known",
            f"share of the published pairs whose labels the attacker knows, in (0, 0.5] "
            f"(default {DEFAULT_KNOWN})",
            type=float,
            default=DEFAULT_KNOWN,
        ),
        Option(
            "--confidence",
            "confidence",
            f"confidence of the lower bounds, in [0.5, 1) (default {DEFAULT_CONFIDENCE})",
            type=float,
            default=DEFAULT_CONFIDENCE,
        ),
        Option("--seed", "seed", "randomness (default: fresh)", type="seed"),
    ),
    directed=(
        "on ordered pairs: plausibility over paths u -> w -> v, strata by total degree, "
        "non-edges among the n (n - 1) ordered pairs"
    ),
)


def _matching_score(
    name: str, run: Callable[..., Deanonymization], seeded: bool
) -> Callable[[Graph, UncertainGraph | Graph, ScoreRequest], dict[str, Any]]:
    """The study columns of a de-anonymization attack.

    One run against the three worlds (one sampled world, whatever ``request.samples``: the
    study's cost; equal worlds are matched once). A seeded attack gets propagation's attacker:
    ``request.seeds`` seed pairs among the hubs (uniform seeds, the papers' setting, are in each
    attack's own sweep).
    """

    def score(
        g0: Graph, published: UncertainGraph | Graph, request: ScoreRequest
    ) -> dict[str, Any]:
        options: dict[str, Any] = {"seeds": request.seeds, "seed_nodes": "hubs"} if seeded else {}
        result = run(
            g0,
            published,
            seed=request.seed,
            threads=request.threads,
            g0_twins=request.g0_twins,
            worlds=request.worlds,
            **options,
        )
        sampled = result.rate("sampled")
        return {
            f"{name}_rate": sampled.correct,
            f"{name}_wrong": sampled.wrong,
            f"{name}_accuracy": sampled.accuracy if sampled.coverage > 0 else None,
            f"{name}_coverage": sampled.coverage,
            f"{name}_twin_share": sampled.twins,
            f"{name}_rate_most_likely": (
                result.rate("most_likely").correct if "most_likely" in request.worlds else None
            ),
            f"{name}_rate_top_m": (
                result.rate("top_m").correct if "top_m" in request.worlds else None
            ),
        }

    return score


def _matching_columns(name: str, title: str) -> tuple[Column, ...]:
    """The columns :func:`_matching_score` returns (its rate in the comparison table)."""
    return (
        Column(
            f"{name}_rate",
            f"nodes re-identified by {title} (fraction of the core)",
            "fraction of G0's core nodes (degree >= 5, largest component, seeds left out) "
            "re-identified in a sampled world (seeded attacks: the study's hub seeds)",
            table=True,
        ),
        Column(f"{name}_wrong", "wrongly matched", "wrongly matched fraction of the core"),
        Column(
            f"{name}_accuracy",
            "accuracy",
            f"correct among the mapped: {name}_rate / {name}_coverage (None when nothing is mapped)",
        ),
        Column(f"{name}_coverage", "coverage", "mapped fraction of the core, right or wrong"),
        Column(
            f"{name}_twin_share",
            "twin share",
            "share of the core with a structural twin in G0: matched only by guessing",
        ),
        Column(
            f"{name}_rate_most_likely",
            "re-identified in the most-likely world",
            "fraction of the core re-identified in the most-likely world (p >= 0.5)",
        ),
        Column(
            f"{name}_rate_top_m",
            "re-identified in the top-m world",
            "fraction of the core re-identified in the top-m world (the m pairs of highest p)",
        ),
    )


def _fractions(text: str) -> tuple[float, ...]:
    """``--seed-fractions 0.005,0.01``: a comma-separated list of fractions."""
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes fractions separated by commas, like 0.005,0.01, got {text!r}"
        ) from None


def _spread(x: Any, default: int) -> int | None:
    """A bound option: None (not given) is the default, 0 turns the bound off."""
    return default if x is None else (None if x == 0 else x)


_WORLDS_SENTENCE = (
    "against one sampled world, the most-likely world (p >= 0.5) and the top-m world (the m "
    "pairs of highest p, m = the true graph's edges). Rates are over the nodes of degree >= "
    "--min-degree in the largest component (core) and over all nodes, seeds left out: correct, "
    "wrong, unmapped, accuracy (correct among mapped), coverage (mapped share) and twins (share "
    "with a structural twin in the true graph: matched only by guessing)."
)

_SEEDED_OPTIONS = (
    Option(
        "--seed-fractions",
        "seed_fractions",
        "the seed sweep: fractions of the nodes given as true seed pairs, comma-separated "
        f"(default {','.join(f'{f:g}' for f in DEFAULT_SEED_FRACTIONS)})",
        type=_fractions,
        default=DEFAULT_SEED_FRACTIONS,
    ),
    Option("--seeds", "seeds", "one run with this many seed pairs instead of the sweep"),
    Option(
        "--seed-nodes",
        "seed_nodes",
        "seeds drawn uniformly among the non-isolated nodes (uniform, the papers') or among the "
        "hubs (hubs, propagation's)",
        type=str,
        default="uniform",
        choices=SEED_NODES,
    ),
)

_COMMON_OPTIONS = (
    Option("--min-degree", "min_degree", "core degree bound (default 5)", default=5),
    Option("--seed", "seed", "randomness (default: fresh)", type="seed"),
    Option("--threads", "threads", "worker threads (default: all)"),
)

_PERCOLATION = Attack(
    name="percolation",
    title="Percolation with ExpandWhenStuck (Kazemi-Hassani-Grossglauser)",
    function=percolation_attack,
    score=_matching_score("percolation", percolation_attack, seeded=True),
    columns=_matching_columns("percolation", "percolation"),
    headline="percolation_rate",
    reidentifies=True,
    help="percolation graph matching with ExpandWhenStuck from a few true seed pairs",
    description=(
        "Hide the release's ids, give the attacker the true graph and true seed pairs, and grow a "
        "matching by percolation (a pair with >= --r marks from matched neighbouring pairs is "
        "matched; when none is, neighbouring pairs of matched ones spread marks as noisy seeds) "
        + _WORLDS_SENTENCE
    ),
    options=(
        *_SEEDED_OPTIONS,
        Option("--r", "r", f"marks a pair needs (default {DEFAULT_R})", default=DEFAULT_R),
        Option(
            "--max-spread",
            "max_spread",
            f"pairs (t, a) with deg t * deg a above this spread no marks (default "
            f"{DEFAULT_MAX_SPREAD:,}; 0 turns the bound off, as the paper)",
            convert=lambda x: _spread(x, DEFAULT_MAX_SPREAD),
        ),
        Option(
            "--max-noisy",
            "max_noisy",
            f"marks the noisy seeds of ExpandWhenStuck may spread in all (default "
            f"{DEFAULT_MAX_NOISY:,}; 0 turns the bound off, as the paper)",
            convert=lambda x: _spread(x, DEFAULT_MAX_NOISY),
        ),
        *_COMMON_OPTIONS,
    ),
    text=deanonymization_table,
    directed=(
        "directed percolation: a matched pair spreads one mark to each pair of its "
        "out-neighbours and one to each pair of its in-neighbours (a pair joined by arcs both "
        "ways gets two); degrees are in + out; twins are G0's directed twins; core and seeds "
        "from G0's undirected graph"
    ),
)

_RECONCILIATION = Attack(
    name="reconciliation",
    title="Reconciliation (Korula-Lattanzi)",
    function=reconciliation_attack,
    score=_matching_score("reconciliation", reconciliation_attack, seeded=True),
    columns=_matching_columns("reconciliation", "reconciliation"),
    headline="reconciliation_rate",
    reidentifies=True,
    help="Korula-Lattanzi reconciliation by degree buckets from a few true seed pairs",
    description=(
        "Hide the release's ids, give the attacker the true graph and true seed pairs, and match "
        "by rounds over degree buckets from high to low: a pair is matched when it has the most "
        "similarity witnesses (matched neighbouring pairs) both ways and at least --threshold, "
        + _WORLDS_SENTENCE
    ),
    options=(
        *_SEEDED_OPTIONS,
        Option(
            "--threshold",
            "threshold",
            f"witnesses a pair needs (default {DEFAULT_THRESHOLD})",
            default=DEFAULT_THRESHOLD,
        ),
        Option(
            "--iterations",
            "iterations",
            f"bound on the passes over the buckets (default {DEFAULT_ITERATIONS})",
            default=DEFAULT_ITERATIONS,
        ),
        Option(
            "--max-row",
            "max_row",
            f"images of more neighbours are searched, not read (default {DEFAULT_MAX_ROW:,}; 0 "
            "turns the bound off, as the paper)",
            convert=lambda x: _spread(x, DEFAULT_MAX_ROW),
        ),
        *_COMMON_OPTIONS,
    ),
    text=deanonymization_table,
    directed=(
        "directed reconciliation: a pair's similarity witnesses are the matched pairs it "
        "reaches by out-arcs in both graphs plus those it reaches by in-arcs, counted apart and "
        "summed; degree buckets by in + out degree; twins are G0's directed twins; core and "
        "seeds from G0's undirected graph"
    ),
)

_SEEDLESS = Attack(
    name="seedless",
    title="Seedless: seed identification, then propagation (Narayanan-Shmatikov)",
    function=seedless_attack,
    score=_matching_score("seedless", seedless_attack, seeded=False),
    columns=_matching_columns("seedless", "the seedless attack"),
    headline="seedless_rate",
    reidentifies=True,
    help="no seed given: find seeds from the hubs' degrees, then propagate (Narayanan-Shmatikov)",
    description=(
        "Hide the release's ids and give the attacker the true graph only. It takes a --size "
        "clique of the true graph's hubs and finds the one clique of the world with the same "
        "degrees and common-neighbour counts (within --tolerance; none found or several: the "
        "clique from the next of --attempts hubs is tried, and if none matches nothing is "
        "mapped), then extends the matching by Narayanan-Shmatikov propagation, " + _WORLDS_SENTENCE
    ),
    options=(
        Option("--size", "size", f"clique size (default {DEFAULT_CLIQUE})", default=DEFAULT_CLIQUE),
        Option(
            "--tolerance",
            "tolerance",
            f"relative tolerance of degrees and common neighbours (default {DEFAULT_TOLERANCE:g})",
            type=float,
            default=DEFAULT_TOLERANCE,
        ),
        Option(
            "--attempts",
            "attempts",
            f"hubs a clique is started from in turn (default {DEFAULT_ATTEMPTS})",
            default=DEFAULT_ATTEMPTS,
        ),
        Option(
            "--theta",
            "theta",
            f"propagation's eccentricity threshold (default {DEFAULT_THETA:g})",
            type=float,
            default=DEFAULT_THETA,
        ),
        *_COMMON_OPTIONS,
    ),
    text=deanonymization_table,
    directed=(
        "the seed clique found on the underlying undirected graphs (a clique has no direction), "
        "then directed propagation (in- and out-neighbours apart); twins are G0's directed twins"
    ),
)


def _by_name(*records: Attack) -> dict[str, Attack]:
    """The records keyed by name, refusing a name or a column name two of them share."""
    owner: dict[str, str] = {}
    for record in records:
        if record.name in {owner.get(c) for c in owner}:
            raise ValueError(
                f"attack {record.name!r}: another attack has that name: choose another"
            )
        for name in record.names():
            if name in owner:
                raise ValueError(
                    f"attack {record.name!r}: its column {name!r} is already attack "
                    f"{owner[name]!r}'s: choose another"
                )
            owner[name] = record.name
    return {record.name: record for record in records}


#: Every attack, in the order of the study's columns.
REGISTRY: Mapping[str, Attack] = _by_name(
    _LINK, _PROPAGATION, _EDGES, _PERCOLATION, _RECONCILIATION, _SEEDLESS
)


def names(*, directed: bool = False) -> tuple[str, ...]:
    """The registered attacks' names (``directed=True``: those with a directed form)."""
    return tuple(name for name, a in REGISTRY.items() if not directed or a.directed is not None)


def attack(name: str) -> Attack:
    """The record of attack ``name``; ValueError naming the attacks otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown attack {name!r}: one of {', '.join(REGISTRY)}") from None


def columns() -> tuple[Column, ...]:
    """Every attack's columns, in registry order (the keys of ``attack_scores`` but its counts)."""
    return tuple(c for a in REGISTRY.values() for c in a.columns)


def table_columns() -> tuple[str, ...]:
    """The columns the study's comparison table shows."""
    return tuple(c.name for c in columns() if c.table)


def reidentification_column() -> Column:
    """The re-identification rate: the headline of the attack that re-identifies nodes."""
    for a in REGISTRY.values():
        if a.reidentifies:
            return a.column(a.headline)
    raise LookupError("no registered attack re-identifies nodes")  # pragma: no cover


def in_range(column: Column, value: Any) -> bool:
    """``value`` is None (undefined), NaN where allowed, or within the column's range."""
    if value is None:
        return True
    value = float(value)
    return math.isnan(value) or column.low <= value <= column.high
