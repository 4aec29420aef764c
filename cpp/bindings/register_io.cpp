#include "convert.hpp"

namespace graphveil::bind {

void register_io(py::module_& /*m*/) {}

}  // namespace graphveil::bind
