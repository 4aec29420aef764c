// graphveil._core: the compiled kernels. One register_<area> function per area, each in
// its own file; bindings only convert, release the GIL, call the core and wrap.
#include <pybind11/pybind11.h>

#include "graphveil/bits.hpp"
#include "graphveil/parallel.hpp"

namespace py = pybind11;

namespace graphveil::bind {
void register_graph(py::module_& m);
void register_io(py::module_& m);
void register_sampling(py::module_& m);
void register_generators(py::module_& m);
void register_privacy(py::module_& m);
void register_stats(py::module_& m);
void register_maxvar(py::module_& m);
void register_schemes(py::module_& m);
void register_attack(py::module_& m);
void register_metis(py::module_& m);
}  // namespace graphveil::bind

PYBIND11_MODULE(_core, m) {
    m.doc() = "graphveil compiled kernels (private: use the graphveil package API)";
    graphveil::bind::register_graph(m);
    graphveil::bind::register_io(m);
    graphveil::bind::register_sampling(m);
    graphveil::bind::register_generators(m);
    graphveil::bind::register_privacy(m);
    graphveil::bind::register_stats(m);
    graphveil::bind::register_maxvar(m);
    graphveil::bind::register_schemes(m);
    graphveil::bind::register_attack(m);
    graphveil::bind::register_metis(m);
    // Machine facts, not kernels: one line each, so they live here rather than in an area file.
    m.def("default_threads", &graphveil::default_threads,
          "Threads used for threads=0: GRAPHVEIL_NUM_THREADS, else the CPUs affinity and cgroup quotas allow");
    m.attr("portable_fallbacks") = graphveil::bits::kPortableFallbacks;
}
