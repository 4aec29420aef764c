"""What the differential-privacy schemes share: the privacy parameter and its default grid.

Edge differential privacy (Hay et al. 2009): two graphs are neighbours when they differ in one
edge; a randomized algorithm A is epsilon-edge-DP when Pr[A(G) in S] <= exp(epsilon) Pr[A(G') in
S] for every pair of neighbours and every set S of outputs. Each DP scheme says in its docstring
which quantity it perturbs and the sensitivity its noise is calibrated to.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

#: The study's default grid of epsilon for every DP scheme (smaller is more private).
EPSILON_GRID: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)


def check_epsilon(epsilon: Any) -> float:
    """``epsilon`` as a float, or a ValueError/TypeError that says what to pass.

    Examples
    --------
    >>> check_epsilon(2)
    2.0
    >>> check_epsilon(0)
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be a finite number > 0 (the privacy budget of edge DP), got 0
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
        raise TypeError(f"epsilon must be a number > 0, got {type(epsilon).__name__}")
    value = float(epsilon)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(
            f"epsilon must be a finite number > 0 (the privacy budget of edge DP), got {epsilon!r}"
        )
    return value


def two_sided_geometric(
    rng: np.random.Generator, size: int, *, epsilon: float, sensitivity: float
) -> np.ndarray:
    """``size`` draws of the two-sided geometric (discrete Laplace) noise of ``epsilon``-DP.

    ``Pr[X = z]`` is proportional to ``alpha ** abs(z)`` with ``alpha = exp(-epsilon /
    sensitivity)``: added to an integer query of L1 sensitivity ``sensitivity``, it gives
    epsilon-DP (Ghosh, Roughgarden and Sundararajan, "Universally utility-maximizing privacy
    mechanisms", STOC 2009), the integer counterpart of Laplace noise of scale
    ``sensitivity / epsilon``. Drawn as the difference of two geometric variables from the
    one stream ``rng``, so the same generator state gives the same noise.

    Returns
    -------
    numpy.ndarray
        int64 noise of length ``size``.

    Examples
    --------
    >>> noise = two_sided_geometric(np.random.default_rng(0), 4, epsilon=1e9, sensitivity=2)
    >>> noise.tolist()
    [0, 0, 0, 0]
    """
    q = -math.expm1(-epsilon / sensitivity)  # 1 - alpha, the success probability
    first = rng.geometric(q, size)
    second = rng.geometric(q, size)
    return (first - second).astype(np.int64)
