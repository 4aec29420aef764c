# Type stubs for graphveil._core, the compiled kernels (private API).
#
# Every kernel on node ids is one name with two overloads, int32 and int64 ids (the arrays must
# have exactly that dtype: pybind11 picks the overload by dtype and never converts).
from typing import Any, overload

import numpy as np
import numpy.typing as npt

# --- machine facts (module.cpp)
def default_threads() -> int: ...

portable_fallbacks: bool

# --- stopping kernels (module.cpp, interrupt.hpp)
def stop_kernels() -> None: ...

# --- graph (register_graph.cpp)
def build_csr(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    index_dtype: np.dtype[np.int32] | np.dtype[np.int64],
    threads: int = 0,
    directed: bool = False,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...
@overload
def csr_transpose(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]: ...
@overload
def csr_transpose(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
@overload
def csr_edges(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
@overload
def csr_edges(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# --- privacy (register_privacy.cpp)
@overload
def reidentification_score(
    indptr0: npt.NDArray[np.int64],
    indices0: npt.NDArray[np.int32],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
@overload
def reidentification_score(
    indptr0: npt.NDArray[np.int64],
    indices0: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
@overload
def signature_index(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int32]
]: ...
@overload
def signature_index(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
@overload
def reidentification_score_indexed(
    classes0: npt.NDArray[np.int64],
    keys0: npt.NDArray[np.uint64],
    rep_ptr0: npt.NDArray[np.int64],
    rep_values0: npt.NDArray[np.int32],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
@overload
def reidentification_score_indexed(
    classes0: npt.NDArray[np.int64],
    keys0: npt.NDArray[np.uint64],
    rep_ptr0: npt.NDArray[np.int64],
    rep_values0: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> tuple[float, int, int, int]: ...
@overload
def signature_classes(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> npt.NDArray[np.int64]: ...
@overload
def signature_classes(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    kind: str,
    threads: int = 0,
    weak_hash: bool = False,
) -> npt.NDArray[np.int64]: ...
@overload
def degree_entropy(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
@overload
def degree_entropy(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
@overload
def degree_distributions(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...
@overload
def degree_distributions(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...

# --- schemes (register_schemes.cpp): walks.hpp, switching.hpp, obfuscation.hpp
@overload
def walk_ends(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int64],
    steps: int,
    seed: int,
    threads: int = 0,
) -> npt.NDArray[np.int32]: ...
@overload
def walk_ends(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    steps: int,
    seed: int,
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
@overload
def randwalk_mod(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    t: int,
    alpha: float,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
@overload
def randwalk_mod(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    t: int,
    alpha: float,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
@overload
def randwalk(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    t: int,
    alpha: float,
    degree_one: float,
    max_tries: int,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], int, float]: ...
@overload
def randwalk(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    t: int,
    alpha: float,
    degree_one: float,
    max_tries: int,
    routing: str,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, float]: ...
@overload
def randwalk_directed(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    t: int,
    max_tries: int,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], int, int]: ...
@overload
def randwalk_directed(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    t: int,
    max_tries: int,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, int]: ...
@overload
def edge_switch(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    switches: int,
    nearby: bool,
    seed: int,
    directed: bool = False,
    dyads: bool = False,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], int]: ...
@overload
def edge_switch(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    switches: int,
    nearby: bool,
    seed: int,
    directed: bool = False,
    dyads: bool = False,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...
def csr_dense_product(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    data: npt.NDArray[np.float64] | None,
    x: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]: ...
def draw_candidates(
    edge_keys: npt.NDArray[np.int64],
    n: int,
    pool: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    target: int,
    max_draws: int,
    seed: int,
    directed: bool = False,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...
def release_pairs(
    edge_keys: npt.NDArray[np.int64],
    n: int,
    p_keep: float,
    added: int,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# --- sampling (register_sampling.cpp)
# Pairs must be canonical (u < v), sorted and unique. A sample depends only on (seed, index).
@overload
def sample_csr(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    seed: int,
    first_sample: int,
    count: int,
    threads: int = 0,
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]]: ...
@overload
def sample_csr(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    seed: int,
    first_sample: int,
    count: int,
    threads: int = 0,
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]: ...
@overload
def sample_edges(
    n: int,
    u: npt.NDArray[np.int32],
    v: npt.NDArray[np.int32],
    p: npt.NDArray[np.float64],
    seed: int,
    sample: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
@overload
def sample_edges(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    p: npt.NDArray[np.float64],
    seed: int,
    sample: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

# --- io (register_io.cpp)
def parse_edgelist(
    text: bytes | bytearray | memoryview,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]: ...
def parse_weighted_edgelist(
    text: bytes | bytearray | memoryview,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], int]: ...
def relabel_ascending(
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    extra: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
def count_directed_pairs(
    n: int,
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    threads: int = 0,
) -> int: ...
def format_edgelist(
    u: npt.NDArray[np.int64],
    v: npt.NDArray[np.int64],
    delimiter: str,
    threads: int = 0,
) -> npt.NDArray[np.uint8]: ...

# --- maxvar (register_maxvar.cpp)
@overload
def split_parts(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    labels: npt.NDArray[np.int64],
    parts: int,
    threads: int = 0,
    directed: bool = False,
) -> dict[str, npt.NDArray[Any]]: ...
@overload
def split_parts(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    labels: npt.NDArray[np.int64],
    parts: int,
    threads: int = 0,
    directed: bool = False,
) -> dict[str, npt.NDArray[Any]]: ...
@overload
def propose_fof(
    node_ptr: npt.NDArray[np.int64],
    local_indptr: npt.NDArray[np.int64],
    local_indices: npt.NDArray[np.int32],
    requested: npt.NDArray[np.int64],
    seed: int,
    attempts_per_request: int,
    threads: int = 0,
    directed: bool = False,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int64]
]: ...
@overload
def propose_fof(
    node_ptr: npt.NDArray[np.int64],
    local_indptr: npt.NDArray[np.int64],
    local_indices: npt.NDArray[np.int64],
    requested: npt.NDArray[np.int64],
    seed: int,
    attempts_per_request: int,
    threads: int = 0,
    directed: bool = False,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]: ...
@overload
def maxvar_dual(
    n: int,
    pu: npt.NDArray[np.int32],
    pv: npt.NDArray[np.int32],
    degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
@overload
def maxvar_dual(
    n: int,
    pu: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int64],
    degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
@overload
def fixed_arcs(
    n: int,
    tails: npt.NDArray[np.int32],
    heads: npt.NDArray[np.int32],
    out_degree: npt.NDArray[np.float64],
    in_degree: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]: ...
@overload
def fixed_arcs(
    n: int,
    tails: npt.NDArray[np.int64],
    heads: npt.NDArray[np.int64],
    out_degree: npt.NDArray[np.float64],
    in_degree: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]: ...
@overload
def maxvar_directed(
    n: int,
    tails: npt.NDArray[np.int32],
    heads: npt.NDArray[np.int32],
    out_degree: npt.NDArray[np.float64],
    in_degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
@overload
def maxvar_directed(
    n: int,
    tails: npt.NDArray[np.int64],
    heads: npt.NDArray[np.int64],
    out_degree: npt.NDArray[np.float64],
    in_degree: npt.NDArray[np.float64],
    tol: float = 1e-10,
    max_newton: int = 200,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
@overload
def repair_qp(
    n: int,
    pu: npt.NDArray[np.int32],
    pv: npt.NDArray[np.int32],
    degree: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    tol: float = 1e-12,
    max_rounds: int = 20,
    max_cg: int = 2000,
) -> tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
@overload
def repair_qp(
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
    n: int,
    edges: npt.NDArray[np.int32],
    p: float,
    seed: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]: ...

# --- stats (register_stats.cpp): statistics.hpp
@overload
def count_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    threads: int = 0,
) -> tuple[int, int]: ...
@overload
def count_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    threads: int = 0,
) -> tuple[int, int]: ...
@overload
def distance_histogram(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
@overload
def distance_histogram(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
@overload
def hyperball(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    log2m: int,
    seed: int,
    max_iterations: int = 0,
    threads: int = 0,
) -> npt.NDArray[np.float64]: ...
@overload
def hyperball(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    log2m: int,
    seed: int,
    max_iterations: int = 0,
    threads: int = 0,
) -> npt.NDArray[np.float64]: ...
def diameter_ifub(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    max_bfs: int,
    known: int = 0,
) -> tuple[int, bool, int]: ...

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
    all_nodes: bool,
    max_rounds: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...

# attack_directed.hpp (register_attack_directed.cpp)
def propagate_directed(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    in_indptr: npt.NDArray[np.int64],
    in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_in_indptr: npt.NDArray[np.int64],
    aux_in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    theta: float,
    degree_ratio: float,
    all_nodes: bool,
    max_rounds: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...
def percolate_directed(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    in_indptr: npt.NDArray[np.int64],
    in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_in_indptr: npt.NDArray[np.int64],
    aux_in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    r: int,
    expand_when_stuck: bool,
    max_spread: int,
    max_noisy: int,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int, int]: ...
def reconcile_directed(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    in_indptr: npt.NDArray[np.int64],
    in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_in_indptr: npt.NDArray[np.int64],
    aux_in_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    threshold: int,
    iterations: int,
    max_row: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...

# matching.hpp
def percolate(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    r: int,
    expand_when_stuck: bool,
    max_spread: int,
    max_noisy: int,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int, int]: ...
def reconcile(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    aux_indptr: npt.NDArray[np.int64],
    aux_indices: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    threshold: int,
    iterations: int,
    max_row: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int32] | npt.NDArray[np.int64], int, int]: ...

# --- METIS, built in (register_metis.cpp)
metis_option_names: tuple[str, ...]

def metis_part_kway(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    parts: int,
    options: dict[str, int],
) -> npt.NDArray[np.int64]: ...
@overload
def directed_distance_histogram(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
@overload
def directed_distance_histogram(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    sources: npt.NDArray[np.int64],
    threads: int = 0,
) -> npt.NDArray[np.int64]: ...
@overload
def count_weighted_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    weights: npt.NDArray[np.uint8],
    threads: int = 0,
) -> int: ...
@overload
def count_weighted_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    weights: npt.NDArray[np.uint8],
    threads: int = 0,
) -> int: ...

# --- analyst statistics (register_analyst.cpp): analyst.hpp, statistics.hpp
@overload
def local_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    threads: int = 0,
) -> tuple[int, npt.NDArray[np.int64]]: ...
@overload
def local_triangles(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    threads: int = 0,
) -> tuple[int, npt.NDArray[np.int64]]: ...
@overload
def pagerank(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    damping: float,
    tol: float,
    max_iter: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], int]: ...
@overload
def pagerank(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    damping: float,
    tol: float,
    max_iter: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], int]: ...
@overload
def top_eigenvector(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    tol: float,
    max_steps: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], float, int, bool, float]: ...
@overload
def top_eigenvector(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    tol: float,
    max_steps: int,
    threads: int = 0,
) -> tuple[npt.NDArray[np.float64], float, int, bool, float]: ...
@overload
def influence_reach(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    seeds: npt.NDArray[np.int64],
    p: float,
    runs: int,
    seed: int,
    threads: int = 0,
) -> int: ...
@overload
def influence_reach(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    p: float,
    runs: int,
    seed: int,
    threads: int = 0,
) -> int: ...
@overload
def leiden(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int32],
    resolution: float,
    iterations: int,
    seed: int,
) -> tuple[npt.NDArray[np.int64], int]: ...
@overload
def leiden(
    indptr: npt.NDArray[np.int64],
    indices: npt.NDArray[np.int64],
    resolution: float,
    iterations: int,
    seed: int,
) -> tuple[npt.NDArray[np.int64], int]: ...
