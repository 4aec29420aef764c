"""A privacy target: bounds on registered privacy scores (:func:`parse_target`)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphveil.measure.scores import PrivacyScore
from graphveil.scores import target_score, targets

__all__ = ["Bound", "parse_target"]

_BOUND = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(<=|>=|<|>|=<|=>|==|=)\s*(\S+)\s*$")


@dataclass(frozen=True)
class Bound:
    """One bound of a target: a registered privacy score, its parameter, the limit."""

    score: PrivacyScore
    k: int | None
    limit: float

    @property
    def key(self) -> str:
        """The score's key in a row (``reid``, ``eps_k50``)."""
        return self.score.key(self.k)

    @property
    def op(self) -> str:
        """``"<="`` or ``">="``: the score's direction."""
        return "<=" if self.score.more_private == "lower" else ">="

    def __str__(self) -> str:
        return f"{self.score.target_name(self.k)} {self.op} {self.limit:g}"

    def margin(self, value: float) -> float:
        """How far ``value`` is inside the bound (negative: outside; NaN: undefined)."""
        if value is None or math.isnan(value):
            return math.nan
        return self.limit - value if self.op == "<=" else value - self.limit

    def meets(self, value: float) -> bool:
        """Whether ``value`` is inside the bound (NaN is not)."""
        return bool(self.margin(value) >= 0)


def parse_target(target: str | Sequence[str]) -> tuple[Bound, ...]:
    """The bounds of a target: ``"reid<=0.05,edge_eps<=2"`` (``,``, ``&`` or `` and `` join).

    Each bound names a target of the privacy-score table (:func:`graphveil.scores.targets`),
    in its direction (``<=`` for a score where lower is more private).

    Raises
    ------
    ValueError
        In one line: an unknown name (listing the valid ones), a wrong direction, a limit
        that is no finite number, a score bounded twice, an empty target.

    Examples
    --------
    >>> [str(b) for b in parse_target("reid<=0.05, edge_eps <= 2")]
    ['reid <= 0.05', 'edge_eps <= 2']
    >>> parse_target("reid>=0.05")
    Traceback (most recent call last):
    ...
    ValueError: reid>=0.05: lower reid is more private: write reid<=0.05
    """
    texts = [target] if isinstance(target, str) else list(target)
    parts = [p for t in texts for p in re.split(r",|&|\band\b", str(t)) if p.strip()]
    if not parts:
        raise ValueError(
            f"empty target: write bounds like reid<=0.05; one of {', '.join(targets())}"
        )
    bounds: list[Bound] = []
    for part in parts:
        found = _BOUND.match(part)
        if found is None:
            raise ValueError(f"{part.strip()!r} is no bound: write NAME<=VALUE or NAME>=VALUE")
        name, op, text = found.groups()
        score, k = target_score(name)  # ValueError listing the target names
        try:
            limit = float(text)
        except ValueError:
            raise ValueError(f"{part.strip()}: {text!r} is no number") from None
        if not math.isfinite(limit):
            raise ValueError(f"{part.strip()}: the limit must be a finite number")
        want = "<=" if score.more_private == "lower" else ">="
        if op.replace("=<", "<=").replace("=>", ">=") != want:
            word = score.more_private
            raise ValueError(
                f"{part.strip()}: {word} {name.lower()} is more private: write "
                f"{name.lower()}{want}{text}"
            )
        bound = Bound(score, k, limit)
        if any(b.key == bound.key for b in bounds):
            raise ValueError(f"{bound.key} is bounded twice: keep one bound")
        bounds.append(bound)
    return tuple(bounds)
