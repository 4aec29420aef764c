"""Time and peak memory of RandWalk-mod's model TV (run as a script).

python benchmarks/model_tv_memory.py [GRAPH] [T]: on GRAPH (default ca-GrQc) at walk length T
(default 10), on 2 threads, each in its own process (ru_maxrss is per process): the TV a study
computes (RandWalk-mod's ``model_tv`` hook in the registry, ``randwalk_mod_model_tv``: exact up
to ``EXACT_TV_WORK`` multiply-adds, else the estimate with its standard error, as on
synthetic-youtube), then :func:`graphveil.anonymize.randwalk_mod_tv` (exact) with blocks of 32
to 381 rows (capped by ``_MAX_BLOCK`` unless raised here) where the study computes it exactly.
Prints the TV (the same for every width), seconds, and the peak resident memory above the
loaded graph.
"""

from __future__ import annotations

import subprocess
import sys

RUN = """
import resource, sys, time
import graphveil as gv
from graphveil.anonymize import _model_tv
g = gv.datasets.load(sys.argv[1], data_dir=["../shared/data", "/work/shared/data"])
t, width = int(sys.argv[2]), int(sys.argv[3])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if width == 0:
    tv = _model_tv.randwalk_mod_model_tv(g, t, threads=2)
    what = "as a study computes it"
else:
    _model_tv._MAX_BLOCK = width
    tv = _model_tv.randwalk_mod_tv(g, t, block_entries=width * g.n, threads=2)
    what = f"{width:4d} rows a block"
took = time.perf_counter() - start
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(f"  {what}: TV {tv!r}, {took:.2f} s, +{grown:.0f} MB")
if width == 0 and tv[1] > 0:
    sys.exit(3)  # estimated (a standard error): no exact blocks to compare
"""


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "ca-GrQc"
    t = sys.argv[2] if len(sys.argv) > 2 else "10"
    print(f"{name}, t = {t}, 2 threads:")
    study = subprocess.run([sys.executable, "-c", RUN, name, t, "0"])
    if study.returncode == 3:
        return
    study.check_returncode()
    for width in (32, 64, 128, 381):
        subprocess.run([sys.executable, "-c", RUN, name, t, str(width)], check=True)


if __name__ == "__main__":
    main()
