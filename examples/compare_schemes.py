"""Compare two schemes on one graph: MaxVar against RandWalk-mod on the embedded ca-GrQc.

    python examples/compare_schemes.py

An experiment, not a release: nothing is written, so the seeds below only make the run
reproducible (never seed a release you publish). Lower is more private for H2_open and the
re-identification rate, and better for rel.err and the tradeoff (sqrt(H2_open) x rel.err).
`graphveil reproduce` runs every scheme over the paper's grid the same way.
"""

from __future__ import annotations

import graphveil as gv
from graphveil import anonymize, attack


def main() -> None:
    """Anonymize ca-GrQc with both schemes, evaluate and attack each: one row per scheme."""
    g0 = gv.datasets.load("ca-GrQc")
    releases = {
        "MaxVar n_p/m=0.57": anonymize.maxvar(g0, n_potential=int(0.57 * g0.m), seed=1)[0],
        "RandWalk-mod t=2": anonymize.randwalk_mod(g0, t=2, seed=1)[0],
    }
    print(f"{'scheme':<20} {'H2_open':>8} {'rel.err':>8} {'tradeoff':>9} {'re-identified':>14}")
    for name, published in releases.items():
        report = gv.evaluate(g0, published, samples=5, seed=2)
        reid = attack.attack_scores(g0, published, samples=3, seed=3)["reid_rate"]
        print(
            f"{name:<20} {report.mean['H2_open']:>8.2f} {report.rel_err:>8.4f}"
            f" {report.tradeoff:>9.4f} {reid:>14.2%}"
        )


if __name__ == "__main__":
    main()
