"""``graphveil scores``: the privacy-score table (:data:`graphveil.scores.PRIVACY_SCORE_TABLE`)."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from graphveil.cli._common import add_json_argument, add_verbosity, json_to_stdout, write_json


def add_scores(subparsers: Any) -> None:
    """Register ``graphveil scores``."""
    parser = subparsers.add_parser(
        "scores",
        help="list the privacy scores: what each measures, which way is more private, its target",
        description=(
            "Every privacy score graphveil measures (the model's H1, H2_open and eps, and every "
            "registered attack's numbers): its key in reports and study rows, its name in a "
            "privacy target, which way is more private, what it is computed on, its range, the "
            "releases it is defined on and whether the scoring (--scoring) changes it."
        ),
    )
    add_json_argument(
        parser, "the table (one object per score; an unbounded end of a range is null)"
    )
    add_verbosity(parser)
    parser.set_defaults(run=_run_scores)


def _pattern(name: str, parameter: str) -> str:
    """A key or target name, ``<name>_k<k>`` for a parametrised score."""
    return f"{name}_{parameter}<{parameter}>" if parameter else name


def _range(score: Any) -> str:
    if not score.per_node:
        return f"[{score.low:g}, {score.high:g}]"
    return f"[{score.low:g}, {'' if score.high == 1 else f'{score.high:g} '}n]"


def _run_scores(args: argparse.Namespace) -> int:
    from graphveil.scores import PRIVACY_SCORE_TABLE

    records = [
        {"key": _pattern(s.name, s.parameter), **dataclasses.asdict(s)} for s in PRIVACY_SCORE_TABLE
    ]
    write_json(args.json, records)
    if json_to_stdout(args):
        return 0
    header = ("key", "target", "more private", "computed on", "range", "det.", "dir.", "scoring")
    rows = [header]
    for s in PRIVACY_SCORE_TABLE:
        on = (
            f"attack {s.attack}"
            if s.attack
            else (f"max of {len(s.strongest)}" if s.strongest else s.on)
        )
        rows.append(
            (
                _pattern(s.name, s.parameter),
                _pattern(s.target, s.parameter) if s.target else "-",
                s.more_private or "-",
                on,
                _range(s),
                "yes" if s.deterministic else "no",
                "yes" if s.directed else "no",
                "varies" if s.scoring else "",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(
        "\nkey: its column in reports and study rows; target: its name in a bound "
        "(h2_open<=50, eps_k50<=0.01, reid<=0.05); det., dir.: defined on a deterministic "
        "(every p in {0, 1}) or a directed release; n: G0's nodes; scoring: --scoring authors "
        "computes it the authors' way.\n"
    )
    for s in PRIVACY_SCORE_TABLE:
        print(f"{_pattern(s.name, s.parameter)}: {s.meaning}.")
    return 0
