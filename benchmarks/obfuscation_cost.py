"""One (k,eps)-obfuscation at a fixed sigma as a study point runs it (run as a script).

python benchmarks/obfuscation_cost.py [GRAPH] [SIGMA] [THREADS]: k = 50, eps = 0.1, c = 2 and
the default 5 attempts on GRAPH (default web-NotreDame) at SIGMA (default 0.01) on THREADS
(default 1); prints the wall time, the peak resident memory of the process (one run per
process: ru_maxrss never goes down) and a digest of the release, which must not depend on
THREADS.
"""

from __future__ import annotations

import hashlib
import resource
import sys
import time

import graphveil as gv
from graphveil.anonymize import obfuscation


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    sigma = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    ug, report = obfuscation(g0, k=50, eps=0.1, sigma=sigma, c=2.0, seed=1, threads=threads)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    digest = hashlib.sha1(ug.u.tobytes() + ug.v.tobytes() + ug.p.tobytes()).hexdigest()[:12]
    print(
        f"{name}, sigma={sigma:g}, {threads} thread(s): {seconds:.2f} s; peak RSS {before:.0f} MB "
        f"with G0 -> {peak:.0f} MB; {ug.num_pairs:,} pairs, eps-hat {report['eps_hat']:.4f}, "
        f"release {digest}"
    )


if __name__ == "__main__":
    main()
