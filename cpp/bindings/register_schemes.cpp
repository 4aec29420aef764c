#include "convert.hpp"

namespace graphveil::bind {

void register_schemes(py::module_& /*m*/) {}

}  // namespace graphveil::bind
