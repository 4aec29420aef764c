// graphveil._core: the compiled kernels. One register_<area> function per area, each in
// its own file; bindings only convert, release the GIL, call the core and wrap.
#include <pybind11/pybind11.h>

#include <pythread.h>

#include "graphveil/bits.hpp"
#include "graphveil/interrupt.hpp"
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
void register_attack_directed(py::module_& m);
void register_metis(py::module_& m);
void register_analyst(py::module_& m);
}  // namespace graphveil::bind

namespace {

// Signals reach a kernel through interrupt::check(), which calls poll_signals every few ms.
// Python runs signal handlers only on its main thread: there the poll takes the GIL and runs
// them (PyErr_CheckSignals); a handler that raises (KeyboardInterrupt, the CLI's Terminated)
// stops the kernel, and its exception is kept here until the binding returns, to be raised
// as it is (translate_interrupted). Other threads' kernels stop by interrupt::request_stop().
unsigned long g_main_thread = 0;  // PyThread ident of Python's main thread
PyObject* g_kept_type = nullptr;  // the handler's exception: touched on the main thread, with the GIL
PyObject* g_kept_value = nullptr;
PyObject* g_kept_traceback = nullptr;

bool poll_signals() {
    if (PyThread_get_thread_ident() != g_main_thread) return false;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() == 0) return false;
    Py_XDECREF(g_kept_type);
    Py_XDECREF(g_kept_value);
    Py_XDECREF(g_kept_traceback);
    PyErr_Fetch(&g_kept_type, &g_kept_value, &g_kept_traceback);
    return true;
}

void translate_interrupted(std::exception_ptr error) {
    try {
        if (error) std::rethrow_exception(error);
    } catch (const graphveil::Interrupted&) {
        if (g_kept_type != nullptr && PyThread_get_thread_ident() == g_main_thread) {
            PyErr_Restore(g_kept_type, g_kept_value, g_kept_traceback);
            g_kept_type = g_kept_value = g_kept_traceback = nullptr;
        } else {  // stopped by stop_kernels(), or by a signal caught on another thread
            PyErr_SetString(PyExc_KeyboardInterrupt, "the kernel was stopped");
        }
    }
}

}  // namespace

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
    graphveil::bind::register_attack_directed(m);
    graphveil::bind::register_metis(m);
    graphveil::bind::register_analyst(m);
    // Machine facts, not kernels: one line each, so they live here rather than in an area file.
    m.def("default_threads", &graphveil::default_threads,
          "Threads used for threads=0: GRAPHVEIL_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs affinity and cgroup quotas allow");
    m.attr("portable_fallbacks") = graphveil::bits::kPortableFallbacks;
    // Stopping kernels (interrupt.hpp): signals on the main thread, and a stop asked by Python.
    g_main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
    graphveil::interrupt::set_poll(&poll_signals);
    py::register_exception_translator(&translate_interrupted);
    m.def("stop_kernels", &graphveil::interrupt::request_stop,
          "Stop every kernel running now (each raises KeyboardInterrupt); kernels started later run normally");
}
