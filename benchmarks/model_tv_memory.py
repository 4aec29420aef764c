"""Time and peak memory of RandWalk-mod's exact model TV per block width (run as a script).

python benchmarks/model_tv_memory.py [GRAPH] [T]: on GRAPH (default ca-GrQc) at walk length T
(default 10), :func:`graphveil.anonymize.randwalk_mod_tv` on 2 threads with blocks of 32 to
381 rows (capped by ``_MAX_BLOCK`` unless raised here), each in its own process, as ru_maxrss
is per process. Prints the TV (the same for every width), seconds, and the peak resident
memory above the loaded graph.
"""

from __future__ import annotations

import subprocess
import sys

RUN = """
import resource, sys, time
import graphveil as gv
from graphveil.anonymize import _randwalk
g = gv.datasets.load(sys.argv[1], data_dir=["../shared/data", "/work/shared/data"])
t, width = int(sys.argv[2]), int(sys.argv[3])
_randwalk._MAX_BLOCK = width
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
tv = _randwalk.randwalk_mod_tv(g, t, block_entries=width * g.n, threads=2)
took = time.perf_counter() - start
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(f"  {width:4d} rows a block: TV {tv!r}, {took:.2f} s, +{grown:.0f} MB")
"""


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "ca-GrQc"
    t = sys.argv[2] if len(sys.argv) > 2 else "10"
    print(f"{name}, t = {t}, 2 threads:")
    for width in (32, 64, 128, 381):
        subprocess.run([sys.executable, "-c", RUN, name, t, str(width)], check=True)


if __name__ == "__main__":
    main()
