// Shared helpers for the bindings: typed array aliases, the one CSR checker and the one pair
// checker, the GIL release of every kernel call (KernelRelease), registration of a kernel for both index widths under one name, and zero-copy
// hand-off of std::vector buffers to numpy (the vector is moved to the heap and owned by a capsule).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graphveil/csr.hpp"
#include "graphveil/interrupt.hpp"

namespace graphveil::bind {

namespace py = pybind11;

// Edge-sized inputs: C-contiguous, exact dtype. Used with .noconvert() so a wrong dtype is
// a TypeError instead of a silent copy.
template <class T>
using carray = py::array_t<T, py::array::c_style>;

// What every binding holds while its kernel runs: the GIL released, and the call's
// interrupt::Scope, so that Ctrl-C, SIGTERM or _core.stop_kernels() stops the kernel (an
// Interrupted exception, raised in Python as the signal's exception; see module.cpp).
struct KernelRelease {
    interrupt::Scope scope;
    py::gil_scoped_release release;
};

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
    auto* owned = new std::vector<T>(std::move(values));
    py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>({static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(T))},
                          owned->data(), owner);
}

template <class T>
void require_1d(const carray<T>& a, const char* name) {
    if (a.ndim() != 1) throw std::invalid_argument(std::string(name) + " must be a 1-d array");
}

// The one CSR check of every binding: 1-d arrays, indptr of n + 1 offsets ending at len(indices).
template <class Index>
CsrView<Index> csr_view(const carray<std::int64_t>& indptr, const carray<Index>& indices) {
    if (indptr.ndim() != 1 || indptr.shape(0) < 1 || indices.ndim() != 1)
        throw std::invalid_argument("indptr and indices must be 1-d arrays, indptr of length n + 1");
    CsrView<Index> g;
    g.n = indptr.shape(0) - 1;
    g.indptr = indptr.data();
    g.indices = indices.data();
    if (g.indptr[g.n] != indices.shape(0)) throw std::invalid_argument("indptr[-1] must equal len(indices)");
    return g;
}

// What the pair check verifies beyond shapes: `ids` also checks every pair joins two distinct
// nodes in 0..n-1 (an O(count) scan, for kernels that index per-node arrays without checking).
enum class PairCheck { shapes, ids };

// The one pair check of every binding: u, v (and p when given) 1-d arrays of one length, n >= 0.
template <class Index>
PairView<Index> pair_view(std::int64_t n, const carray<Index>& u, const carray<Index>& v,
                          const carray<double>* p = nullptr, PairCheck check = PairCheck::shapes) {
    if (u.ndim() != 1 || v.ndim() != 1 || u.shape(0) != v.shape(0) ||
        (p != nullptr && (p->ndim() != 1 || p->shape(0) != u.shape(0))))
        throw std::invalid_argument(p != nullptr ? "u, v and p must be 1-d arrays of one length"
                                                 : "u and v must be 1-d arrays of one length");
    if (n < 0) throw std::invalid_argument("n must be non-negative");
    PairView<Index> pr;
    pr.n = n;
    pr.count = u.shape(0);
    pr.u = u.data();
    pr.v = v.data();
    pr.p = p != nullptr ? p->data() : nullptr;
    if (check == PairCheck::ids)
        for (std::int64_t e = 0; e < pr.count; ++e) {
            const Index a = pr.u[e], b = pr.v[e];
            if (a < 0 || b < 0 || a >= n || b >= n || a == b)
                throw std::invalid_argument("pairs must join two distinct nodes in 0..n-1");
        }
    return pr;
}

// Registers the int32 and int64 instantiations of one binding as two overloads of one name.
// Every index-typed array argument carries .noconvert(), so pybind11 picks the overload matching
// the caller's dtype and never copies; any other dtype is a TypeError listing both signatures.
template <class F32, class F64, class... Extra>
void def_widths(py::module_& m, const char* name, F32* f32, F64* f64, const Extra&... extra) {
    m.def(name, f32, extra...);
    m.def(name, f64, extra...);
}

}  // namespace graphveil::bind
