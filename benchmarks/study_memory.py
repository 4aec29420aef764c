"""Peak memory of one streaming ``evaluate`` (run as a script: ru_maxrss is per process).

python benchmarks/study_memory.py [GRAPH] [SAMPLES]: prints G0's size, one sample's footprint
and the peak resident memory of evaluating one MaxVar output (n_p = 0.19 m).
"""

from __future__ import annotations

import resource
import sys
import time

import graphveil as gv
from graphveil import evaluate
from graphveil.anonymize import maxvar


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "web-NotreDame"
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    g0 = gv.datasets.load(name, data_dir=["../shared/data", "/work/shared/data"])
    ug, _ = maxvar(g0, n_potential=round(0.19 * g0.m), parts=20, seed=1, allow_fewer=True)
    before = rss_mb()
    one = ug.sample(seed=1)
    sample_mb = (one.indptr.nbytes + one.indices.nbytes) / 2**20
    del one
    t0 = time.perf_counter()
    rep = evaluate(g0, ug, samples=samples, seed=1)
    print(
        f"{name}: n={g0.n:,} m={g0.m:,}; G0 CSR {(g0.indptr.nbytes + g0.indices.nbytes) / 2**20:.0f} MB, "
        f"one sample CSR {sample_mb:.0f} MB; peak RSS before evaluate {before:.0f} MB, after "
        f"{rss_mb():.0f} MB; {samples} samples in {time.perf_counter() - t0:.1f} s; rel.err {rep.rel_err:.4f}"
    )


if __name__ == "__main__":
    main()
