// Shared helpers for the bindings: typed array aliases and zero-copy hand-off of
// std::vector buffers to numpy (the vector is moved to the heap and owned by a capsule).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace graphveil::bind {

namespace py = pybind11;

// Edge-sized inputs: C-contiguous, exact dtype. Used with .noconvert() so a wrong dtype is
// a TypeError instead of a silent copy.
template <class T>
using carray = py::array_t<T, py::array::c_style>;

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
    auto* owned = new std::vector<T>(std::move(values));
    py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>({static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(T))},
                          owned->data(), owner);
}

template <class T>
const T* data_of(const carray<T>& a) {
    return a.data();
}

}  // namespace graphveil::bind
