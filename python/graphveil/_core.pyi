# Type stubs for graphveil._core, the compiled kernels (private API).
from typing import Any

import numpy as np
import numpy.typing as npt

# --- graph (register_graph.cpp)
def build_csr32(
    n: int, u: npt.NDArray[np.int64], v: npt.NDArray[np.int64], threads: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], int, int]: ...
def build_csr64(
    n: int, u: npt.NDArray[np.int64], v: npt.NDArray[np.int64], threads: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, int]: ...
def csr_edges32(
    indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def csr_edges64(
    indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# --- privacy (register_privacy.cpp)
def reidentification_score32(
    indptr0: npt.NDArray[np.int64],
    indices0: npt.NDArray[np.int32],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
def reidentification_score64(
    indptr0: npt.NDArray[np.int64],
    indices0: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
def signature_classes32(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> npt.NDArray[np.int64]: ...
def signature_classes64(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> npt.NDArray[np.int64]: ...
def degree_entropy32(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def degree_entropy64(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def degree_distributions32(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...
def degree_distributions64(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...

# --- schemes (register_schemes.cpp): walks.hpp, switching.hpp; int32 or int64 indices
def walk_ends(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    steps: int,
    seed: int,
    threads: int = 0,
) -> npt.NDArray[np.int32] | npt.NDArray[np.int64]: ...
def randwalk_mod(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    t: int,
    alpha: float,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[
    npt.NDArray[np.int32] | npt.NDArray[np.int64], npt.NDArray[np.int32] | npt.NDArray[np.int64]
]: ...
def randwalk(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    t: int,
    max_tries: int,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[
    npt.NDArray[np.int32] | npt.NDArray[np.int64], npt.NDArray[np.int32] | npt.NDArray[np.int64]
]: ...
def edge_switch(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    switches: int,
    nearby: bool,
    seed: int,
) -> tuple[
    npt.NDArray[np.int32] | npt.NDArray[np.int64],
    npt.NDArray[np.int32] | npt.NDArray[np.int64],
    int,
]: ...
def draw_candidates(
    edge_keys: npt.NDArray[np.int64],
    n: int,
    pool: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    target: int,
    max_draws: int,
    seed: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...

# --- sampling (register_sampling.cpp)
# Pairs must be canonical (u < v), sorted and unique. A sample depends only on (seed, index).
def sample_csr32(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    seed: int,
    first_sample: int,
    count: int,
    threads: int = 0,
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]]: ...
def sample_csr64(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    seed: int,
    first_sample: int,
    count: int,
    threads: int = 0,
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]: ...
def sample_edges32(
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    seed: int,
    sample: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def sample_edges64(
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    seed: int,
    sample: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# --- io (register_io.cpp)
def parse_edgelist(
    text: bytes | bytearray | memoryview, threads: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...
def relabel_ascending(
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    extra: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
def count_directed_pairs(
    n: int, u: npt.NDArray[np.int64], v: npt.NDArray[np.int64], threads: int = 0
) -> int: ...
def format_edgelist(
    u: npt.NDArray[np.int64], v: npt.NDArray[np.int64], delimiter: str, threads: int = 0
) -> npt.NDArray[np.uint8]: ...

# --- maxvar (register_maxvar.cpp)

def split_parts32(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    labels: npt.NDArray[np.int64],
    parts: int,
    threads: int = 0,
) -> dict[str, npt.NDArray[Any]]: ...
def split_parts64(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    labels: npt.NDArray[np.int64],
    parts: int,
    threads: int = 0,
) -> dict[str, npt.NDArray[Any]]: ...
def propose_fof32(
    node_ptr: npt.NDArray[np.int64],
    local_indptr: npt.NDArray[np.int64],
    local_indices: npt.NDArray[np.int32],
    requested: npt.NDArray[np.int64],
    seed: int,
    attempts_per_request: int,
    threads: int = 0,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int64]
]: ...
def propose_fof64(
    node_ptr: npt.NDArray[np.int64],
    local_indptr: npt.NDArray[np.int64],
    local_indices: npt.NDArray[np.int64],
    requested: npt.NDArray[np.int64],
    seed: int,
    attempts_per_request: int,
    threads: int = 0,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
def maxvar_dual32(
    n: int,
    pu: npt.NDArray[np.int32],
    pv: npt.NDArray[np.int32],
    degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
def maxvar_dual64(
    n: int,
    pu: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int64],
    degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
def repair_qp32(
    n: int,
    pu: npt.NDArray[np.int32],
    pv: npt.NDArray[np.int32],
    degree: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    tol: float = 1e-12,
    max_rounds: int = 20,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
def repair_qp64(
    n: int,
    pu: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int64],
    degree: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    tol: float = 1e-12,
    max_rounds: int = 20,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...

# --- generators (register_generators.cpp)
def powerlaw_cluster(
    n: int, edges: npt.NDArray[np.int32], p: float, seed: int, threads: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]: ...

# --- stats (register_stats.cpp): statistics.hpp; int32 or int64 indices
def count_triangles32(
    indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int32], threads: int = 0
) -> tuple[int, int]: ...
def count_triangles64(
    indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64], threads: int = 0
) -> tuple[int, int]: ...
def distance_histogram32(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
def distance_histogram64(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
def hyperball32(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    log2m: int,
    seed: int,
    max_iterations: int = 0,
    threads: int = 0,
) -> npt.NDArray[np.float64]: ...
def hyperball64(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    log2m: int,
    seed: int,
    max_iterations: int = 0,
    threads: int = 0,
) -> npt.NDArray[np.float64]: ...

# --- attacks (register_attack.cpp): attack.hpp; int32 or int64 indices, one name each
def link_counts(
    u: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    v: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    edge_u: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    edge_v: npt.NDArray[np.int32] | npt.NDArray[np.int64],
) -> tuple[int, int, int, int, float, int, int]: ...
def propagate(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    theta: float,
    degree_ratio: float,
    max_rounds: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...
