#include "convert.hpp"

namespace graphveil::bind {

void register_generators(py::module_& /*m*/) {}

}  // namespace graphveil::bind
