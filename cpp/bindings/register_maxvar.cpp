#include "convert.hpp"

namespace graphveil::bind {

void register_maxvar(py::module_& /*m*/) {}

}  // namespace graphveil::bind
