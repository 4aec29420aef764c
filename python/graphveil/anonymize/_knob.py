"""A scheme's grid parameter as a privacy knob (:attr:`Scheme.knob <graphveil.anonymize.registry.Scheme.knob>`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Knob"]


@dataclass(frozen=True)
class Knob:
    """The grid parameter as a privacy knob: which way is more private, and the range searched.

    Read by :func:`graphveil.publish` (a release at a privacy target): it brackets and bisects
    ``[low, high]`` (geometrically when ``log``; integers when ``integer``), or measures
    ``grid`` when a score is not monotone over the range. With ``utility_monotone`` it may
    prune the scheme (branch and bound): a value that fails the target already loses more than
    the best release found, so every value that meets it (more private) loses more still.
    """

    #: ``"higher"``: a larger value is more private (MaxVar's n_p/m); ``"lower"``: a smaller one
    #: (a DP scheme's epsilon), in :class:`~graphveil.measure.scores.PrivacyScore`'s words.
    more_private: str
    low: float
    high: float
    #: The fallback grid (inside ``[low, high]``).
    grid: tuple[float, ...]
    log: bool = True
    integer: bool = False
    #: The utility loss (rel.err) does not fall as the knob grows more private (checked on the
    #: zoo by tests/test_publish.py). False for the walks (on email-Enron RandWalk-mod loses
    #: less at t = 3 than at t = 2) and (k, eps)-obfuscation (on karate it loses more at
    #: sigma = 0.001 than at 1). :func:`graphveil.publish` never prunes a scheme without it.
    utility_monotone: bool = True

    def __post_init__(self) -> None:
        if self.more_private not in ("higher", "lower"):
            raise ValueError(
                f"a knob's more_private is 'higher' or 'lower', not {self.more_private!r}"
            )
        if not 0 < self.low < self.high or not all(self.low <= v <= self.high for v in self.grid):
            raise ValueError(
                f"a knob's range [{self.low}, {self.high}] must hold its grid {self.grid}"
            )
