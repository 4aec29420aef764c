"""What a study's walk-based points cost on one thread (run as a script).

python benchmarks/anonymize_cost.py [GRAPH]: on GRAPH (default web-NotreDame), RandWalk at
t = 2 and t = 10 (seed 3) with a digest of its output, Mixture as a study point runs it
(p = 0.4, t = 2), and RandWalk-mod's model TV (Fig. 10's bar) at t = 2 and t = 10 with its
value and standard error, exactly as a study computes them. Prints seconds per part.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from typing import Any

import graphveil as gv
from graphveil.anonymize import randwalk
from graphveil.anonymize.registry import scheme
from graphveil.experiments import StudyConfig


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    config = StudyConfig(threads=1)

    def timed(part: str, fn: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        out = fn()
        print(f"  {part:28s} {time.perf_counter() - start:7.2f} s", flush=True)
        return out

    print(f"{name} (n={g0.n:,}, m={g0.m:,}), one thread:")
    for t in (2, 10):
        ug, _ = timed(f"RandWalk t={t}", lambda t=t: randwalk(g0, t=t, seed=3, threads=1))
        digest = hashlib.sha1(ug.u.tobytes() + ug.v.tobytes()).hexdigest()[:10]
        print(f"  {'':28s} output {digest}")
    timed("Mixture p=0.4 (t=2)", lambda: scheme("mixture").study(g0, 0.4, config, 7))
    for t in (2, 10):
        model_tv = scheme("randwalk_mod").model_tv
        assert model_tv is not None
        tv, se = timed(f"model TV t={t}", lambda t=t: model_tv(g0, float(t), 1))
        print(f"  {'':28s} TV {tv!r}, standard error {se!r}")


if __name__ == "__main__":
    main()
