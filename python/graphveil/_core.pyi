# Type stubs for graphveil._core, the compiled kernels (private API).
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
